"""Which plugin gets a dialect name that several register: first-party plugins, unless the
user explicitly gives the name to another one.

**First-party** plugins are those of the distributions this repository ships: ``tooletta-core``
(the built-in ``canonical`` dialect) and the ``tooletta-dialect-*`` distributions that
``tooletta-dialects`` installs (:data:`FIRST_PARTY`, names compared as PyPI compares them:
case-insensitively, ``-``, ``_`` and ``.`` alike). The list is read from the installed
``tooletta-dialects``' dependencies, so a new first-party family is one line in that
metapackage and no change here; :data:`SHIPPED`, the families this core was released with,
answers without reading any metadata (plugin loading stays fast) and stands in when the
metapackage is not installed. A distribution of another name is third-party, whatever its
entry point or dialects are called.

Rules, applied each time plugins are loaded:

1. Dialects are registered first-party first, then third-party, each group in entry-point name
   order. A dialect one of whose names or aliases is taken already is not registered, and is
   reported: ``tooletta list-dialects`` prints it as a problem, ``tooletta list-dialects
   --plugins`` as the plugin's ``error``. So a third-party plugin never takes a first-party
   name, whatever it is called.
2. ``TOOLETTA_OVERRIDE=name=plugin[,name=plugin...]`` is the explicit opt-in: the dialect that
   ``plugin`` (an entry-point or distribution name) registers under ``name`` (as its name or an
   alias) is registered before all others, so it holds every name it declares. The dialect that
   would have held ``name`` is left out without a report (that was the request); any other
   dialect it displaces is reported. An override that matches no dialect is reported and
   changes nothing.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .errors import DuplicateDialectError, ToolettaError
from .ir import DialectInfo
from .registry import Problem, Registry, normalize_name

__all__ = [
    "FIRST_PARTY",
    "METAPACKAGE",
    "OVERRIDE_VAR",
    "SHIPPED",
    "first_party",
    "is_first_party",
    "metapackage_dependencies",
    "overrides",
    "register_in_order",
    "remember_metapackage",
]

OVERRIDE_VAR = "TOOLETTA_OVERRIDE"

METAPACKAGE = "tooletta-dialects"
"""The distribution that installs every first-party plugin; its dependencies are the list."""

_PREFIX = "tooletta-dialect-"

SHIPPED: frozenset[str] = frozenset(
    {
        "tooletta-core",
        "tooletta-dialect-apertus",
        "tooletta-dialect-cline",
        "tooletta-dialect-cohere",
        "tooletta-dialect-deepseek",
        "tooletta-dialect-dots",
        "tooletta-dialect-functionary",
        "tooletta-dialect-gemma",
        "tooletta-dialect-gigachat",
        "tooletta-dialect-glm",
        "tooletta-dialect-granite",
        "tooletta-dialect-harmony",
        "tooletta-dialect-hermes",
        "tooletta-dialect-hunyuan",
        "tooletta-dialect-inkling",
        "tooletta-dialect-internlm",
        "tooletta-dialect-jamba",
        "tooletta-dialect-k2horizon",
        "tooletta-dialect-kimi",
        "tooletta-dialect-llama",
        "tooletta-dialect-longcat",
        "tooletta-dialect-minicpm",
        "tooletta-dialect-minimax",
        "tooletta-dialect-mistral",
        "tooletta-dialect-muse",
        "tooletta-dialect-nemotron",
        "tooletta-dialect-openai",
        "tooletta-dialect-phi",
        "tooletta-dialect-pythonic",
        "tooletta-dialect-qwen",
        "tooletta-dialect-react",
        "tooletta-dialect-seed",
        "tooletta-dialect-solar",
        "tooletta-dialect-step",
        "tooletta-dialect-vcp",
        "tooletta-dialect-xlam",
    }
)
"""The first-party distributions this core was released with, as normalised names, known
without reading metadata, and the whole list when ``tooletta-dialects`` is not installed. A
test keeps it within the metapackage's dependencies; a new family need not be added here: the
first start reads it from the metapackage and the plugin index keeps it for the next starts
(:func:`remember_metapackage`)."""

if TYPE_CHECKING:
    FIRST_PARTY: frozenset[str]
    """Every first-party distribution (normalised names): :data:`SHIPPED` and
    ``tooletta-dialects``' dependencies (read on first use; see :func:`first_party`)."""

_SEPARATORS = re.compile(r"[-_.]+")
_NAME = re.compile(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def distribution_key(name: str) -> str:
    """A distribution name as PyPI compares it (lower case, runs of ``-_.`` as ``-``)."""
    return _SEPARATORS.sub("-", name.strip()).lower()


_remembered: frozenset[str] | None = None  # the metapackage's list as the plugin index keeps it


def remember_metapackage(names: Iterable[str] | None) -> None:
    """Take ``tooletta-dialects``' first-party dependencies as an earlier process read them
    (the plugin index keeps them: ``tooletta.plugins``), so that a warm start decides
    a family :data:`SHIPPED` does not list without reading metadata; ``None`` forgets them
    (the next question reads the installed metadata again)."""
    global _remembered
    _remembered = None if names is None else frozenset(map(distribution_key, names))
    _metapackage.cache_clear()


def metapackage_dependencies() -> frozenset[str]:
    """The first-party distributions ``tooletta-dialects`` depends on (empty when it is not
    installed): ``tooletta-core`` and ``tooletta-dialect-*`` names only, extras left out;
    the remembered list (:func:`remember_metapackage`) when there is one."""
    return _metapackage()


@functools.lru_cache(maxsize=1)
def _metapackage() -> frozenset[str]:
    """:func:`metapackage_dependencies`, read once."""
    if _remembered is not None:
        return _remembered
    from importlib import metadata  # only for a name SHIPPED does not know

    try:
        requires = metadata.requires(METAPACKAGE) or []
    except metadata.PackageNotFoundError:
        return frozenset()
    names = set()
    for requirement in requires:
        _, _, marker = requirement.partition(";")
        match = _NAME.match(requirement)
        if match is None or "extra" in marker:
            continue
        key = distribution_key(match.group(1))
        if key == "tooletta-core" or key.startswith(_PREFIX):
            names.add(key)
    return frozenset(names)


def first_party() -> frozenset[str]:
    """Every first-party distribution: :data:`SHIPPED` and ``tooletta-dialects``'
    dependencies (:data:`FIRST_PARTY` is this)."""
    return SHIPPED | _metapackage()


def __getattr__(name: str) -> Any:
    if name == "FIRST_PARTY":
        return first_party()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def is_first_party(distribution: str | None) -> bool:
    """True when ``distribution`` is one this repository ships (see :data:`FIRST_PARTY`);
    metadata is read only for a ``tooletta-dialect-*`` name :data:`SHIPPED` does not list."""
    if distribution is None:
        return False
    key = distribution_key(distribution)
    return key in SHIPPED or (key.startswith(_PREFIX) and key in _metapackage())


def overrides(raw: str | None = None) -> tuple[dict[str, str], list[str]]:
    """The ``name=plugin`` pairs of ``TOOLETTA_OVERRIDE`` (read from the environment when
    ``raw`` is ``None``), as dialect-name key -> plugin key, and the entries that are not
    such a pair. A later pair for the same name replaces an earlier one."""
    if raw is None:
        raw = os.environ.get(OVERRIDE_VAR, "")
    pairs: dict[str, str] = {}
    bad: list[str] = []
    for item in raw.split(","):
        if not item.strip():
            continue
        name, sep, plugin = item.partition("=")
        if not (sep and name.strip() and plugin.strip()):
            bad.append(item.strip())
            continue
        pairs[normalize_name(name)] = distribution_key(plugin)
    return pairs, bad


def _keys(dialect: Any) -> list[str]:
    info = getattr(dialect, "info", None)
    if not isinstance(info, DialectInfo):
        return []
    return [normalize_name(n) for n in (info.name, *info.aliases)]


def register_in_order(
    registry: Registry,
    found: Sequence[tuple[str, Any]],
    versions: Mapping[str, str | None],
    distributions: Mapping[str, str | None],
) -> None:
    """Add the dialects ``found`` (``(plugin, dialect)`` in hook order) to ``registry`` by
    the rules above; ``versions`` and ``distributions`` are by plugin name. Refusals become
    ``registry.problems``."""
    wanted, bad = overrides()
    for item in bad:
        registry.problems.append(
            Problem(OVERRIDE_VAR, f"ignored {item!r}: expected name=plugin pairs, comma-separated")
        )

    def plugin_is(plugin: str, key: str) -> bool:
        dist = distributions.get(plugin)
        return key in (distribution_key(plugin), distribution_key(dist or ""))

    given: dict[str, int] = {}  # overridden name -> index in found of the dialect given it
    for name, key in wanted.items():
        hit = next(
            (i for i, (p, d) in enumerate(found) if plugin_is(p, key) and name in _keys(d)), None
        )
        if hit is None:
            registry.problems.append(
                Problem(
                    OVERRIDE_VAR,
                    f"{name}={key}: no plugin {key!r} registers a dialect named {name!r}; ignored",
                )
            )
        else:
            given[name] = hit
    first = set(given.values())

    def rank(i: int) -> int:
        if i in first:
            return 0
        return 1 if is_first_party(distributions.get(found[i][0])) else 2

    for i in sorted(range(len(found)), key=rank):
        plugin, dialect = found[i]
        try:
            entry = registry.add(dialect, plugin, versions.get(plugin))
        except DuplicateDialectError as exc:
            keys = _keys(dialect)
            if i not in first and any(k in given for k in keys):
                continue  # the name was given to another plugin's dialect, as asked
            why = _why(registry, keys, plugin, distributions, first_by=given)
            registry.problems.append(Problem(plugin, str(exc) + why))
        except (ToolettaError, TypeError) as exc:
            registry.problems.append(Problem(plugin, str(exc)))
        else:
            entry.first_party = is_first_party(distributions.get(plugin))


def _why(
    registry: Registry,
    keys: list[str],
    plugin: str,
    distributions: Mapping[str, str | None],
    *,
    first_by: Mapping[str, int],
) -> str:
    """Why the holder of a taken name comes first, and how to change that (for the report)."""
    for key in keys:
        holder = registry.holder(key)
        if holder is None:
            continue
        if any(k in first_by for k in _keys(holder)):
            return f" (registered first by {OVERRIDE_VAR})"
        if is_first_party(distributions.get(holder.plugin)):
            return (
                f"; first-party plugins keep their names (set {OVERRIDE_VAR}={key}={plugin} "
                f"to give {key!r} to {plugin})"
            )
        return ""
    return ""
