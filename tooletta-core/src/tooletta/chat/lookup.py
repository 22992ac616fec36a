"""Which chat format a model id or a dialect name stands for."""

from __future__ import annotations

import fnmatch
from typing import Any

from ..errors import PluginError, ToolettaError, UnknownDialectError
from ..plugins import get_registry
from ..registry import DialectEntry, normalize_name
from .format import ChatFormat
from .guard import formats_problem, guarded

__all__ = ["chat_formats_of", "find_format", "resolve_format"]


def chat_formats_of(dialect: Any) -> tuple[ChatFormat, ...]:
    """The chat formats a dialect object declares (its ``chat_formats``), first the default."""
    formats = getattr(dialect, "chat_formats", ())
    return tuple(f() if isinstance(f, type) else f for f in formats)


def _pattern_score(model: str, patterns: tuple[str, ...]) -> int:
    low = model.lower()
    best = -1
    for pattern in patterns:
        pat = pattern.lower()
        if fnmatch.fnmatchcase(low, pat) or fnmatch.fnmatchcase(low.rsplit("/", 1)[-1], pat):
            best = max(best, len(pat))
    return best


_CACHE: dict[tuple[Any, ...], tuple[ChatFormat, Any]] = {}


def resolve_format(model: str | None, dialect: str | None) -> tuple[ChatFormat, Any]:
    """:func:`find_format`, remembered per (model, dialect) while the registry is unchanged
    (a dataset renders thousands of conversations for one model)."""
    registry = get_registry()
    key = (model, dialect, id(registry), len(registry.entries))
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) > 256:
            _CACHE.clear()
        found = _CACHE[key] = find_format(model, dialect)
    return found


def find_format(model: str | None, dialect: str | None) -> tuple[ChatFormat, Any]:
    """The chat format and the dialect object for ``model`` (an HF model id) or ``dialect``
    (a dialect name or alias, or a chat format's name).

    With a model id, the dialect is :func:`~tooletta.dialect_for_model`'s answer (unless
    ``dialect`` is given) and, among its formats, the one whose ``models`` patterns match
    best; a model id whose dialect declares formats but none for that model is refused rather
    than given another model's template. With a name, a format of that name, else the
    dialect's first (default) format.
    Raises :class:`~tooletta.UnknownDialectError` or :class:`~tooletta.ToolettaError` when
    nothing fits (the message says to pass ``chat_template=``).
    """
    from ..api import dialect_for_model

    name = dialect
    if name is None:
        if model is None:
            raise ToolettaError("give model= or dialect= (or chat_template=)")
        name = dialect_for_model(model)
        if name is None:
            raise UnknownDialectError(
                f"no installed dialect knows the model {model!r}; pass dialect= or chat_template="
            )
    try:
        entry = get_registry().get(name)
    except UnknownDialectError:
        if model is not None:
            raise
        return _format_named(name)
    obj = entry.dialect
    formats = _formats_of_entry(entry, strict=True)
    if not formats:
        raise ToolettaError(
            f"dialect {obj.info.name!r} declares no chat format yet; pass chat_template= "
            "(the model's Jinja template) to render its conversations"
        )
    if model is not None:
        scored = [(_pattern_score(model, f.models), i) for i, f in enumerate(formats)]
        score, index = max(scored, key=lambda s: (s[0], -s[1]))
        if score >= 0:
            return formats[index], obj
        if dialect is None:  # the model picked the dialect, but none of its templates
            known = ", ".join(f.name for f in formats)
            raise ToolettaError(
                f"no chat format of {obj.info.name!r} is known to be the template of "
                f"{model!r} (known: {known}); pass dialect=<one of them> if it is, or "
                "chat_template= (the model's own Jinja template)"
            )
    wanted = normalize_name(name)
    for fmt in formats:
        if normalize_name(fmt.name) == wanted:
            return fmt, obj
    return formats[0], obj


def _format_named(name: str) -> tuple[ChatFormat, Any]:
    """A chat format found by its own name among every installed dialect's formats."""
    wanted = normalize_name(name)
    for entry in get_registry().ordered():
        for fmt in _formats_of_entry(entry, strict=False):
            if normalize_name(fmt.name) == wanted:
                return fmt, entry.dialect
    raise UnknownDialectError(f"no dialect or chat format is named {name!r}")


def _formats_of_entry(entry: DialectEntry, *, strict: bool) -> tuple[ChatFormat, ...]:
    """The chat formats of a registered dialect: a first party's as declared, a third
    party's checked (:func:`~tooletta.chat.guard.formats_problem`: a
    :class:`~tooletta.PluginError` naming the plugin when ``strict``, else none) and guarded
    (:func:`~tooletta.chat.guard.guarded`)."""
    obj = entry.dialect
    if entry.first_party:
        return chat_formats_of(obj)
    if not getattr(obj, "chat_formats", None):
        return ()
    problem = formats_problem(obj)
    if problem is not None:
        if strict:
            raise PluginError(problem, plugin=entry.plugin)
        return ()
    return tuple(guarded(f, entry.plugin) for f in chat_formats_of(obj))
