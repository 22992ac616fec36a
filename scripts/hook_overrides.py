"""Count the :class:`tooletta.chat.ChatFormat` hooks that installed conversation formats
override (issue 20: conversation declarations as data, target ≤ 200).

    uv run --no-sync python scripts/hook_overrides.py          # the total
    uv run --no-sync python scripts/hook_overrides.py -v       # per hook and per plugin

A hook counts once per class that defines it (a base class shared by several formats counts
once); classes of core (``tooletta.*``) do not count, nor the default ``kept_in`` that
``ChatFormat`` gives back to a class overriding ``keeps_reasoning`` alone.
"""

from __future__ import annotations

import collections
import sys

from tooletta import catalog
from tooletta.chat import ChatFormat


def hooks() -> set[str]:
    """The names of ChatFormat's overridable hooks (its public methods)."""
    return {n for n, v in vars(ChatFormat).items() if callable(v) and not n.startswith("_")}


def overrides() -> set[tuple[type, str]]:
    """``(class, hook)`` for every hook a plugin's format class defines itself."""
    names = hooks()
    classes = set()
    for info in catalog.list_dialects():
        for fmt in catalog.chat_formats_of(catalog.get_dialect(info.name)):
            classes.add(type(fmt))
    found = set()
    for cls in classes:
        for klass in cls.__mro__:
            if klass is ChatFormat or klass.__module__.startswith("tooletta."):
                continue
            for name in names:
                own = vars(klass).get(name)
                if own is not None and own is not getattr(ChatFormat, name):
                    found.add((klass, name))
    return found


def main() -> None:
    """Print the count (``-v``: per hook and per plugin)."""
    found = overrides()
    print(f"{len(found)} hook overrides")
    if "-v" in sys.argv:
        per_hook = collections.Counter(name for _, name in found)
        per_plugin = collections.Counter(k.__module__.split(".")[0] for k, _ in found)
        for name, count in per_hook.most_common():
            print(f"{count:4d} {name}")
        print()
        for name, count in per_plugin.most_common():
            print(f"{count:4d} {name}")


if __name__ == "__main__":
    main()
