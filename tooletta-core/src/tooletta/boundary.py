"""The plugin boundary: what a dialect object hands back is checked before users see it.

A dialect's ``parse`` must return a :class:`~tooletta.ParseResult`, ``render`` a ``str``,
``detect`` a ``bool``, ``stream`` an object with ``feed`` and ``finish``, and those an
:class:`~tooletta.StreamUpdate`, each holding the IR types its fields declare (a ``str``
``content``, a list of :class:`~tooletta.ToolCall` whose ``arguments`` is a ``dict``, ...).
Anything else is the plugin's bug, raised as a :class:`~tooletta.PluginError` naming the
plugin and the dialect, never passed on. The checks are type tests, one per field and per
call. A first-party dialect's ``parse`` result (built by the engine, and checked by the
conformance kit) is tested for its type only, so one-shot parsing pays one test.

:class:`~tooletta.boundary.GuardedStream` wraps a plugin's own stream parser (the engine,
first-party, reports its readers' faults itself): exceptions that are not tooletta's become
``PluginError``, its updates are checked, and misuse by the caller (a delta that is not ``str``,
``feed`` after ``finish``, a second ``finish``) is refused as the engine refuses it, before the
plugin sees it.
"""

from __future__ import annotations

from typing import Any

from .errors import PluginError, ToolettaError
from .ir import CallDelta, ParseResult, StreamUpdate, ToolCall, UnparsedToolCall
from .stream_checks import as_text, fed_after_finish, finished_twice

__all__ = [
    "GuardedStream",
    "checked_detect",
    "checked_parser",
    "checked_result",
    "checked_text",
    "checked_update",
    "result_problem",
]

_OPTIONAL_STR = (str, type(None))
_OPTIONAL_INT = (int, type(None))


def _kind(value: Any) -> str:
    return "None" if value is None else type(value).__name__


def _wrong(dialect: str, plugin: str | None, method: str, what: str) -> PluginError:
    return PluginError(f"dialect {dialect!r}: {method} returned {what}", plugin=plugin)


def _call_problem(call: Any) -> str | None:
    if type(call) is not ToolCall:
        return f"a {_kind(call)}, not a ToolCall"
    if type(call.name) is not str:
        return f"a ToolCall whose name is a {_kind(call.name)}"
    if type(call.arguments) is not dict:
        return f"a ToolCall whose arguments are a {_kind(call.arguments)}, not a dict"
    if not isinstance(call.id, _OPTIONAL_STR):
        return f"a ToolCall whose id is a {_kind(call.id)}"
    return None


def _unparsed_problem(record: Any) -> str | None:
    if type(record) is not UnparsedToolCall:
        return f"a {_kind(record)}, not an UnparsedToolCall"
    if not (type(record.raw) is str and type(record.error) is str):
        return "an UnparsedToolCall whose raw or error is not a str"
    if type(record.offset) is not int or not isinstance(record.index, _OPTIONAL_INT):
        return "an UnparsedToolCall whose offset or index is not an int"
    return None


def _delta_problem(delta: Any) -> str | None:
    if type(delta) is not CallDelta:
        return f"a {_kind(delta)}, not a CallDelta"
    if type(delta.index) is not int or type(delta.arguments) is not str:
        return "a CallDelta whose index is not an int or arguments not a str"
    if not (isinstance(delta.id, _OPTIONAL_STR) and isinstance(delta.name, _OPTIONAL_STR)):
        return "a CallDelta whose id or name is neither a str nor None"
    return None


def _items_problem(field: str, items: Any, problem: Any) -> str | None:
    if type(items) is not list:
        return f"{field} is a {_kind(items)}, not a list"
    for i, item in enumerate(items):
        found = problem(item)
        if found is not None:
            return f"{field}[{i}] is {found}"
    return None


def _result_problem(value: ParseResult) -> str | None:
    if type(value.content) is not str or type(value.reasoning) is not str:
        return "content or reasoning is not a str"
    if not isinstance(value.dialect, _OPTIONAL_STR):
        return f"dialect is a {_kind(value.dialect)}"
    return _items_problem("calls", value.calls, _call_problem) or _items_problem(
        "unparsed", value.unparsed, _unparsed_problem
    )


def result_problem(value: Any) -> str | None:
    """What is wrong with ``value`` as a :class:`~tooletta.ParseResult` a plugin returned
    (``None``: nothing), for boundaries that word their own error (a chat format's
    ``parse_turn``)."""
    if type(value) is not ParseResult:
        return f"a {_kind(value)}, not a ParseResult"
    problem = _result_problem(value)
    return None if problem is None else f"a ParseResult whose {problem}"


def _update_problem(value: StreamUpdate) -> str | None:
    if type(value.content) is not str or type(value.reasoning) is not str:
        return "content or reasoning is not a str"
    return _items_problem("calls", value.calls, _delta_problem) or _items_problem(
        "unparsed", value.unparsed, _unparsed_problem
    )


def checked_result(
    value: Any, dialect: str, plugin: str | None, method: str = "parse()"
) -> ParseResult:
    """``value`` when it is a well-formed :class:`~tooletta.ParseResult`, else a
    :class:`~tooletta.PluginError` naming ``plugin``."""
    if type(value) is not ParseResult:
        raise _wrong(dialect, plugin, method, f"a {_kind(value)}, not a ParseResult")
    problem = _result_problem(value)
    if problem is not None:
        raise _wrong(dialect, plugin, method, f"a ParseResult whose {problem}")
    return value


def checked_text(value: Any, dialect: str, plugin: str | None, method: str = "render()") -> str:
    """``value`` when it is a ``str`` (the rendered text), else a PluginError."""
    if isinstance(value, str):
        return value if type(value) is str else str.__str__(value)
    raise _wrong(dialect, plugin, method, f"a {_kind(value)}, not a str")


def checked_detect(value: Any, dialect: str, plugin: str | None) -> bool:
    """``value`` when it is a ``bool`` (``detect``'s answer), else a PluginError."""
    if type(value) is not bool:
        raise _wrong(dialect, plugin, "detect()", f"a {_kind(value)}, not a bool")
    return value


def checked_update(value: Any, dialect: str, plugin: str | None, method: str) -> StreamUpdate:
    """``value`` when it is a well-formed :class:`~tooletta.StreamUpdate`, else a
    PluginError."""
    if type(value) is not StreamUpdate:
        raise _wrong(dialect, plugin, method, f"a {_kind(value)}, not a StreamUpdate")
    problem = _update_problem(value)
    if problem is not None:
        raise _wrong(dialect, plugin, method, f"a StreamUpdate whose {problem}")
    return value


def checked_parser(value: Any, dialect: str, plugin: str | None) -> Any:
    """``value`` when it has callable ``feed`` and ``finish`` (a stream parser), else a
    PluginError."""
    if not (callable(getattr(value, "feed", None)) and callable(getattr(value, "finish", None))):
        raise _wrong(dialect, plugin, "stream()", f"a {_kind(value)}, not a stream parser")
    return value


class GuardedStream:
    """A plugin's stream parser behind the boundary: its bugs become
    :class:`~tooletta.PluginError`, its updates are checked, and a caller's misuse is
    refused before it reaches the plugin (:mod:`tooletta.stream_checks`)."""

    __slots__ = ("_dialect", "_done", "_parser", "_plugin", "_size")

    def __init__(self, parser: Any, dialect: str, plugin: str | None) -> None:
        self._parser = parser
        self._dialect = dialect
        self._plugin = plugin
        self._done = False
        self._size = 0

    def _bug(self, exc: Exception) -> PluginError:
        return PluginError(
            f"dialect {self._dialect!r} raised {type(exc).__name__} while streaming: {exc}",
            plugin=self._plugin,
        )

    def feed(self, delta: str) -> StreamUpdate:
        """Feed the plugin's parser one delta and check what it returns."""
        if self._done:
            raise fed_after_finish(self._dialect)
        if type(delta) is not str:
            delta = as_text(delta, self._dialect, self._size)
        self._size += len(delta)
        try:
            update = self._parser.feed(delta)
        except ToolettaError:
            raise
        except Exception as exc:
            raise self._bug(exc) from exc
        return checked_update(update, self._dialect, self._plugin, "stream().feed()")

    def finish(self) -> StreamUpdate:
        """Finish the plugin's parser (once) and check what it returns."""
        if self._done:
            raise finished_twice(self._dialect)
        self._done = True
        try:
            update = self._parser.finish()
        except ToolettaError:
            raise
        except Exception as exc:
            raise self._bug(exc) from exc
        return checked_update(update, self._dialect, self._plugin, "stream().finish()")
