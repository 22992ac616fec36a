"""What no dialect can write and read back, refused once in core before any dialect renders.

:func:`check_calls` runs in :func:`tooletta.render` for every dialect, so a plugin's renderer
never sees:

* an empty function name (parsing never reads one as a call: no client could dispatch it);
* arguments that are not a mapping;
* NaN or an infinity anywhere in the arguments (JSON has no spelling for them; Python's
  ``json`` would write ``NaN``, which JSON parsers reject and untyped-text formats read back
  as the string ``'NaN'``);
* an integer longer than :data:`MAX_INT_CHARS` characters, sign included (no JSON decoder
  here reads it back, and Python's ``str`` cannot even write most of them);
* arguments nested deeper than the dialect's parse reads: the dialect's ``max_depth`` (default
  :data:`tooletta.engine.MAX_DEPTH`), counting the arguments object itself as one level, so
  ``{"a": [[1]]}`` is 3 deep.

The walk is iterative, one level of containers at a time (any depth; a cycle is nested too
deeply), and looks only at floats and containers: flat arguments cost one type test per value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import RenderError
from .ir import ToolCall
from .limits import MAX_DEPTH

__all__ = ["MAX_DEPTH", "MAX_INT_CHARS", "check_calls", "max_depth_of"]

MAX_INT_CHARS = 4300
"""The longest integer (in decimal, sign included) that parsing reads back. It is msgspec's
limit, and Python's default ``int``/``str`` conversion limit (which does not count the sign)."""
_SHORT_INT_BITS = 14_000
"""Integers of at most this many bits have at most 4215 digits: no need to count them."""
_SHARED = 256
"""A level with more containers than this is deduplicated (a cycle, or one object used many
times, would otherwise double it at every level)."""


def max_depth_of(dialect: Any) -> int:
    """The deepest arguments ``dialect`` reads back: its ``max_depth`` attribute when it
    declares one (an ``int``), else :data:`~tooletta.engine.MAX_DEPTH`."""
    limit = getattr(dialect, "max_depth", MAX_DEPTH)
    return limit if type(limit) is int else MAX_DEPTH


def check_calls(calls: Sequence[ToolCall], dialect: str, max_depth: int = MAX_DEPTH) -> None:
    """Raise :class:`~tooletta.RenderError` (naming ``dialect``) for the first call no dialect
    can write so that it reads back: an empty name, arguments that are not a mapping, a
    non-finite float anywhere in them, or nesting deeper than ``max_depth`` (the arguments
    object counts as one level)."""
    if _problem(calls, max_depth) is not None:
        raise RenderError(_explain(calls, max_depth), dialect=dialect)


def _problem(calls: Sequence[ToolCall], max_depth: int) -> str | None:
    """Why ``calls`` cannot be written (``None``: they can). The fast path of
    :func:`check_calls`; :func:`_explain` then says where."""
    level: list[Any] | None = None  # the containers one level below the arguments objects
    for call in calls:
        name = call.name
        if not name or (type(name) is not str and not isinstance(name, str)):
            return "name"
        arguments = call.arguments
        if type(arguments) is not dict and not isinstance(arguments, Mapping):
            return "arguments"
        for value in arguments.values():
            kind = type(value)
            if kind is str or kind is bool or value is None:
                continue
            if kind is int:
                if value.bit_length() > _SHORT_INT_BITS and _too_long(value):
                    return _TOO_LONG
                continue
            if kind is float:
                if value - value != 0:  # NaN - NaN and inf - inf are NaN; finite - itself is 0
                    return _non_finite(value)
                continue
            if level is None:
                level = [value]
            else:
                level.append(value)
    room = max_depth - 1  # container levels left below the arguments objects
    while level:
        deeper: list[Any] = []
        for item in level:
            kind = type(item)
            if kind is dict:
                children: Any = item.values()
            elif kind is list:
                children = item
            elif isinstance(item, float):
                if item - item != 0:
                    return _non_finite(item)
                continue
            elif isinstance(item, int):
                if not isinstance(item, bool) and _too_long(item):
                    return _TOO_LONG
                continue
            elif isinstance(item, Mapping):
                children = item.values()
            elif isinstance(item, (list, tuple)):
                children = item
            else:
                continue  # a str or int subclass, or no JSON value: the dialect's own checks
            if room <= 0:
                return f"nests deeper than {max_depth} levels (what parsing reads back)"
            for child in children:
                kind = type(child)
                if kind is str or kind is bool or child is None:
                    continue
                if kind is int:
                    if child.bit_length() > _SHORT_INT_BITS and _too_long(child):
                        return _TOO_LONG
                    continue
                if kind is float:
                    if child - child != 0:
                        return _non_finite(child)
                    continue
                deeper.append(child)
        if len(deeper) > _SHARED:
            deeper = list({id(x): x for x in deeper}.values())
        level = deeper
        room -= 1
    return None


_TOO_LONG = f"holds an integer longer than {MAX_INT_CHARS} characters, which parsing refuses"


def _too_long(value: int) -> bool:
    """Whether ``value`` written in decimal takes more than :data:`MAX_INT_CHARS` characters."""
    try:
        return len(str(value)) > MAX_INT_CHARS
    except ValueError:  # past Python's own limit on int-to-str conversion
        return True


def _non_finite(value: float) -> str:
    return f"holds {value!r}, which JSON cannot write (nor any dialect read back)"


def _explain(calls: Sequence[ToolCall], max_depth: int) -> str:
    """Which call (and argument) :func:`_problem` objects to, and why."""
    for index, call in enumerate(calls):
        problem = _problem([call], max_depth)
        if problem is None:
            continue
        if problem == "name":
            return f"call {index} has no function name (parsing never reads one back as a call)"
        if problem == "arguments":
            kind = type(call.arguments).__name__
            return f"the arguments of {call.name!r} are {kind}, not an object"
        for key, value in call.arguments.items():
            why = _problem([ToolCall(call.name, {key: value})], max_depth)
            if why is not None:
                return f"argument {key!r} of {call.name!r} {why}"
    return "these calls cannot be written"  # pragma: no cover - _problem found something
