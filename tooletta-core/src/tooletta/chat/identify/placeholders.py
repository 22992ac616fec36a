"""The ``bos_token`` and ``eos_token`` placeholders: a template given no tokens is rendered
with a private-use character for each, bound per candidate to the text the format writes
there (the same text in every probe)."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping

from ..format import ChatFormat

_BOS = "\ue000"
_EOS = "\ue001"
_SENTINELS = {"bos_token": _BOS, "eos_token": _EOS}
_KEYS = {_BOS: "bos_token", _EOS: "eos_token"}


def _bind(expected: str, native: str, bound: Mapping[str, str]) -> dict[str, str] | None:
    """The placeholder bindings (extending ``bound``) under which ``expected`` is
    ``native``, or ``None``."""
    for key, value in bound.items():
        expected = expected.replace(_SENTINELS[key], value)
    if _BOS not in expected and _EOS not in expected:
        return dict(bound) if expected == native else None
    pattern, groups = _pattern(expected)
    match = pattern.fullmatch(native)
    if match is None:
        return None
    return {**bound, **{g: match.group(g) for g in groups}}


def placeholder_tokens(given: Mapping[str, str]) -> dict[str, str]:
    """The special tokens to render a template with: those ``given``, a placeholder for the
    others (compared by :func:`written_as`)."""
    return {**_SENTINELS, **given}


def written_as(expected: str, native: str) -> bool:
    """Whether ``expected`` (a render with :func:`placeholder_tokens`) is ``native`` with each
    placeholder bound to one text wherever it occurs."""
    return _bind(expected, native, {}) is not None


_PLACEHOLDER = re.compile(f"([{_BOS}{_EOS}])")


@functools.lru_cache(maxsize=256)
def _pattern(expected: str) -> tuple[re.Pattern[str], tuple[str, ...]]:
    """The regular expression a text is ``expected`` under (each placeholder a group of up
    to 64 characters on one line, the same text wherever it occurs again) and its groups in
    the order they occur (a set's order varies by run). Compiled once per text: every
    candidate is compared with the same renders of the template."""
    pattern = []
    opened: dict[str, None] = {}
    for part in _PLACEHOLDER.split(expected):
        if part in _KEYS:
            group = _KEYS[part]
            pattern.append(f"(?P={group})" if group in opened else f"(?P<{group}>[^\\n]{{0,64}}?)")
            opened[group] = None
        elif part:
            pattern.append(re.escape(part))
    return re.compile("".join(pattern), re.DOTALL), tuple(opened)


def _fill(expected: str, bound: Mapping[str, str], fmt: ChatFormat) -> str:
    """``expected`` with its placeholders filled (bound, or the format's own tokens), to show
    where it differs."""
    guesses = {"bos_token": fmt.bos, "eos_token": fmt.end_of_turn, **bound}
    for key, sentinel in _SENTINELS.items():
        expected = expected.replace(sentinel, guesses[key])
    return expected
