"""The candidates :func:`tooletta.chat.identify` compares a template with: every installed
chat format that its name resolves to, with the fixed text a template of it writes (the
markers of the prefilter), per state of the plugin registry."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import ToolettaError
from ..format import ChatFormat

__all__ = ["known_formats"]


def _registry_state() -> tuple[int, int, int]:
    from ...plugins import get_registry

    return get_registry().state()


@dataclass(frozen=True)
class _Candidate:
    name: str
    fmt: ChatFormat
    dialect: Any
    markers: tuple[str, ...]


_FORMATS: dict[tuple[int, int, int], tuple[_Candidate, ...]] = {}


def known_formats() -> tuple[tuple[str, ChatFormat, Any], ...]:
    """Every installed chat format that ``render_conversation(dialect=name)`` resolves to
    itself: ``(name, format, dialect object)``, in the registry's order."""
    return tuple((c.name, c.fmt, c.dialect) for c in _candidates())


def _candidates() -> tuple[_Candidate, ...]:
    from ...plugins import get_registry
    from ..lookup import chat_formats_of, resolve_format

    key = _registry_state()
    cached = _FORMATS.get(key)
    if cached is not None:
        return cached
    out: list[_Candidate] = []
    seen: set[type] = set()
    for entry in get_registry().ordered():
        for fmt in chat_formats_of(entry.dialect):
            if type(fmt) in seen:
                continue
            seen.add(type(fmt))
            try:
                resolved, obj = resolve_format(None, fmt.name)
            except ToolettaError:
                continue
            if not isinstance(resolved, type(fmt)):  # a third party's comes back guarded
                continue  # the name means something else: never answer it
            out.append(_Candidate(fmt.name, resolved, obj, _markers(resolved)))
    _FORMATS.clear()
    _FORMATS[key] = tuple(out)
    return _FORMATS[key]


def _markers(fmt: ChatFormat) -> tuple[str, ...]:
    """The fixed text a template of this format writes: its user and assistant headers and
    its end of turn (stripped); all must occur in the template's renders."""
    turns = getattr(fmt, "turns", {})
    found = [turns[r].header.strip() for r in ("user", "assistant") if r in turns]
    found.append(fmt.end_of_turn.strip())
    return tuple(m for m in found if m)
