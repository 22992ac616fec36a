"""The plugin boundary for chat formats: a third party's format is checked, then guarded.

At registration (:func:`formats_problem`, asked by the registry) a dialect's ``chat_formats``
must be a tuple or list of :class:`~tooletta.chat.ChatFormat` objects (or subclasses, which
are instantiated) whose declarations have their types: a ``name``, ``turns`` mapping roles to
:class:`~tooletta.chat.Turn`, text for ``bos`` and ``end_of_turn``... A dialect whose formats
fail this is still registered (its ``parse`` and ``render`` may be fine); the problem is
listed, and using such a format raises a :class:`~tooletta.PluginError`.

At use (:func:`guarded`), a third party's format is a copy whose overridden hooks are wrapped:
an exception that is not tooletta's becomes a :class:`~tooletta.PluginError` naming the
plugin, the format and the hook, and so does a return value of the wrong type or a position
outside the text (which could make the parser loop). Hooks the format leaves as
:class:`~tooletta.chat.ChatFormat` defines them are core code and are not wrapped; nor is a
format whose class tooletta built itself (:func:`trusted`: a learned format's class, made by
:meth:`tooletta.chat.learn.LearnedChat.of` from a validated spec, whose hooks are all core
code). Its declarations are still checked at registration, as every plugin's are.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Mapping
from typing import Any

from ..boundary import result_problem
from ..errors import PluginError, ToolettaError
from ..ir import Message
from .declare_layout import Reasoning, Turn
from .format import ChatFormat

__all__ = [
    "HOOK_CHECKS",
    "check_and_guard",
    "format_problem",
    "formats_problem",
    "guarded",
    "trusted",
]


def _kind(value: Any) -> str:
    return "None" if value is None else type(value).__name__


def _str(value: Any, args: tuple[Any, ...]) -> str | None:
    return None if isinstance(value, str) else f"a {_kind(value)}, not a str"


def _opt_str(value: Any, args: tuple[Any, ...]) -> str | None:
    return None if value is None or isinstance(value, str) else f"a {_kind(value)}, not a str"


def _bool(value: Any, args: tuple[Any, ...]) -> str | None:
    return None if type(value) is bool else f"a {_kind(value)}, not a bool"


def _where(value: Any, args: tuple[Any, ...], missing: Any = ()) -> str | None:
    """A position in the text ``args[0]`` at or after ``args[1]`` (or one of ``missing``)."""
    if value in missing and type(value) in (int, type(None)):
        return None
    if type(value) is not int:
        return f"a {_kind(value)}, not a position"
    if len(args) < 2 or not isinstance(args[0], str) or type(args[1]) is not int:
        return None  # asked with keywords: the type is all that can be checked
    text, pos = args[0], args[1]
    if not pos <= value <= len(text):
        return f"the position {value}, outside {pos}..{len(text)} (the text read so far)"
    return None


def _position(value: Any, args: tuple[Any, ...]) -> str | None:
    return _where(value, args)


def _position_or_none(value: Any, args: tuple[Any, ...]) -> str | None:
    return _where(value, args, (None,))


def _position_or_minus(value: Any, args: tuple[Any, ...]) -> str | None:
    return _where(value, args, (-1,))


def _header(value: Any, args: tuple[Any, ...]) -> str | None:
    if value is None:
        return None
    if type(value) is not tuple or len(value) != 2 or not isinstance(value[0], str):
        return f"a {_kind(value)}, not a (role, position) pair or None"
    return _where(value[1], args)


def _end(value: Any, args: tuple[Any, ...]) -> str | None:
    if type(value) is not tuple or len(value) != 2 or not isinstance(value[1], str):
        return f"a {_kind(value)}, not a (position, token) pair"
    return _where(value[0], args, (-1,))


def _results(value: Any, args: tuple[Any, ...]) -> str | None:
    if value is None:
        return None
    if type(value) is not tuple or len(value) != 2 or not isinstance(value[0], list):
        return f"a {_kind(value)}, not a (results, position) pair or None"
    if not all(isinstance(item, str) for item in value[0]):
        return "results that are not all str"
    return _where(value[1], args)


def _str_list(value: Any, args: tuple[Any, ...]) -> str | None:
    if type(value) is not list or not all(isinstance(item, str) for item in value):
        return f"a {_kind(value)}, not a list of str"
    return None


def _str_tuple(value: Any, args: tuple[Any, ...]) -> str | None:
    if type(value) is not tuple or not all(isinstance(item, str) for item in value):
        return f"a {_kind(value)}, not a tuple of str"
    return None


def _messages(value: Any, args: tuple[Any, ...]) -> str | None:
    if type(value) is not list or not all(type(item) is Message for item in value):
        return f"a {_kind(value)}, not a list of Message"
    return None


_Check = Callable[[Any, tuple[Any, ...]], "str | None"]

HOOK_CHECKS: Mapping[str, _Check] = {
    "text": _str,
    "header": _str,
    "implicit_role": _opt_str,
    "system_text": _opt_str,
    "parse_system": _opt_str,
    "user_text": _str,
    "parse_user": _str,
    "result_text": _str,
    "result_footer": _str,
    "skip_result_footer": _position_or_minus,
    "read_results": _results,
    "parse_result": _str,
    "split_results": _str_list,
    "before_turn": _str,
    "skip_before_turn": _position,
    "read_header": _header,
    "assistant_end": _position_or_none,
    "end_token": _str,
    "assistant_footer": _str,
    "find_end": _end,
    "keeps_reasoning": _bool,
    "kept_in": _bool,
    "reasoning_text": _str,
    "content_text": _str,
    "calls_text": _str,
    "assistant_text": _str,
    "turn_body": _str,
    "generation_prompt": _str,
    "after_conversation": _str,
    "generation_prompts": _str_tuple,
    "prompt_start": _position,
    "expressible": _messages,
    "expressible_for": _messages,
    "carried": _messages,
    "markup": _str_tuple,
    "turn_stop": _str,
}
"""Every hook of :class:`~tooletta.chat.ChatFormat` (``parse_turn`` aside: its result is
checked as a dialect's ``parse`` result is) and the check of what it returns, given its
arguments (positions are checked against the text and the position it was asked at)."""

_TEXTS = (
    "bos",
    "end_of_turn",
    "part_separator",
    "result_separator",
    "body_end",
    "answer_lead",
)
_STR_TUPLES = ("models", "end_tokens", "special_tokens", "stop_tokens")


def format_problem(fmt: Any) -> str | None:
    """What is wrong with ``fmt`` as a chat format (``None``: nothing): not a
    :class:`~tooletta.chat.ChatFormat`, or a declaration of the wrong type."""
    if not isinstance(fmt, ChatFormat):
        return f"a {_kind(fmt)}, not a ChatFormat"
    name = getattr(fmt, "name", None)
    if not isinstance(name, str) or not name:
        return f"a ChatFormat whose name is a {_kind(name)}, not a non-empty str"
    turns = getattr(fmt, "turns", None)
    if not isinstance(turns, Mapping):
        return f"chat format {name!r}: turns is a {_kind(turns)}, not a mapping of roles to Turn"
    for role, turn in turns.items():
        if not isinstance(role, str) or type(turn) is not Turn:
            return f"chat format {name!r}: turns[{role!r}] is a {_kind(turn)}, not a Turn"
        if not (isinstance(turn.header, str) and isinstance(turn.footer, str)):
            return f"chat format {name!r}: turns[{role!r}] has a header or footer that is no str"
    for attr in _TEXTS:
        if not isinstance(getattr(fmt, attr, None), str):
            return f"chat format {name!r}: {attr} is a {_kind(getattr(fmt, attr, None))}, not a str"
    for attr in _STR_TUPLES:
        value = getattr(fmt, attr, None)
        if not isinstance(value, (tuple, list)) or not all(isinstance(v, str) for v in value):
            return f"chat format {name!r}: {attr} is a {_kind(value)}, not a tuple of str"
    wrap = getattr(fmt, "result_wrap", None)
    if type(wrap) is not tuple or len(wrap) != 2 or not all(isinstance(w, str) for w in wrap):
        return f"chat format {name!r}: result_wrap is a {_kind(wrap)}, not a pair of str"
    for attr in ("turn_stops", "calls_end", "last_end", "results_end"):
        pair = getattr(fmt, attr, None)
        if pair is not None and (
            type(pair) is not tuple or len(pair) != 2 or not all(isinstance(s, str) for s in pair)
        ):
            return f"chat format {name!r}: {attr} is a {_kind(pair)}, not None or a pair of str"
    opening = getattr(fmt, "trim_opening", None)
    if opening is not None and type(opening) is not bool:
        return f"chat format {name!r}: trim_opening is a {_kind(opening)}, not None or a bool"
    implicit = getattr(fmt, "implicit_roles", None)
    if not isinstance(implicit, Mapping) or not all(
        isinstance(k, (str, type(None))) and isinstance(v, str) for k, v in implicit.items()
    ):
        return f"chat format {name!r}: implicit_roles is a {_kind(implicit)}, not a role mapping"
    if not (fmt.reasoning is None or type(fmt.reasoning) is Reasoning):
        return f"chat format {name!r}: reasoning is a {_kind(fmt.reasoning)}, not a Reasoning"
    if not isinstance(fmt.options, Mapping):
        return f"chat format {name!r}: options is a {_kind(fmt.options)}, not a mapping"
    unwritten = getattr(fmt, "unwritten_options", None)
    if not isinstance(unwritten, Mapping) or not all(isinstance(k, str) for k in unwritten):
        return f"chat format {name!r}: unwritten_options is a {_kind(unwritten)}, not a mapping"
    fields = getattr(fmt, "unwritten_fields", None)
    if not isinstance(fields, Mapping) or not all(
        isinstance(k, str) and isinstance(v, Mapping) and all(isinstance(f, str) for f in v)
        for k, v in fields.items()
    ):
        return (
            f"chat format {name!r}: unwritten_fields is a {_kind(fields)}, not a mapping of "
            "roles to mappings"
        )
    for attr in (
        "group_results",
        "merge_system",
        "keeps_ids",
        "open_last",
        "calls_content",
        "last_ids",
        "results_by_calls",
    ):
        if type(getattr(fmt, attr, None)) is not bool:
            return (
                f"chat format {name!r}: {attr} is a {_kind(getattr(fmt, attr, None))}, not a bool"
            )
    if getattr(fmt, "late_system", None) not in ("turn", "dropped", "opening"):
        return (
            f"chat format {name!r}: late_system is {getattr(fmt, 'late_system', None)!r}, not "
            "'turn', 'dropped' or 'opening'"
        )
    return None


def formats_problem(dialect: Any) -> str | None:
    """What is wrong with the ``chat_formats`` a dialect object declares (``None``: nothing
    or no such attribute): not a tuple or list, or an item :func:`format_problem` refuses (a
    :class:`~tooletta.chat.ChatFormat` subclass is instantiated first, as the lookup does)."""
    formats = getattr(dialect, "chat_formats", ())
    name = getattr(getattr(dialect, "info", None), "name", "?")
    if not isinstance(formats, (tuple, list)):
        return f"dialect {name!r}: chat_formats is a {_kind(formats)}, not a tuple"
    for index, item in enumerate(formats):
        if isinstance(item, type):
            if not issubclass(item, ChatFormat):
                return (
                    f"dialect {name!r}: chat_formats[{index}] is {item.__name__}, not a ChatFormat"
                )
            try:
                item = item()
            except Exception as exc:
                return (
                    f"dialect {name!r}: chat_formats[{index}] ({item.__name__}) raised "
                    f"{type(exc).__name__} when created: {exc}"
                )
        problem = format_problem(item)
        if problem is not None:
            return f"dialect {name!r}: chat_formats[{index}] is {problem}"
    return None


_GUARDED: dict[int, tuple[ChatFormat, ChatFormat]] = {}
_CLASSES: dict[type[Any], type[Any]] = {}
_TRUSTED: weakref.WeakSet[type[Any]] = weakref.WeakSet()


def trusted(cls: type[Any]) -> type[Any]:
    """Mark ``cls``, a chat format class tooletta's own code built (every hook core code), as
    needing no guard: :func:`guarded` returns its instances as they are. Only the class
    itself is trusted, not a subclass of it (a third party's subclass is guarded). Returns
    ``cls``."""
    _TRUSTED.add(cls)
    return cls


def guarded(fmt: ChatFormat, plugin: str | None) -> ChatFormat:
    """A copy of a third party's ``fmt`` whose overridden hooks report their faults as
    :class:`~tooletta.PluginError` naming ``plugin`` (see the module docstring); remembered
    per format object. A format whose instance holds no ``__dict__``, or whose class is
    :func:`trusted`, is returned as is."""
    if type(fmt) in _TRUSTED:
        return fmt
    found = _GUARDED.get(id(fmt))
    if found is not None and found[0] is fmt:
        return found[1]
    if not hasattr(fmt, "__dict__"):
        return fmt
    cls = _guarded_class(type(fmt))
    copy: ChatFormat = object.__new__(cls)
    copy.__dict__.update(fmt.__dict__)
    copy.__dict__["_tooletta_plugin"] = plugin
    if len(_GUARDED) > 256:
        _GUARDED.clear()
    _GUARDED[id(fmt)] = (fmt, copy)
    return copy


def _guarded_class(cls: type[Any]) -> type[Any]:
    found = _CLASSES.get(cls)
    if found is not None:
        return found
    wrapped: dict[str, Any] = {}
    for hook, check in HOOK_CHECKS.items():
        original = getattr(cls, hook)
        if original is not getattr(ChatFormat, hook):
            wrapped[hook] = _wrap(hook, original, check)
    if cls.parse_turn is not ChatFormat.parse_turn:
        wrapped["parse_turn"] = _wrap_parse_turn(cls.parse_turn)
    guarded_cls = type(cls.__name__, (cls,), wrapped)
    guarded_cls.__qualname__ = cls.__qualname__
    guarded_cls.__module__ = cls.__module__
    _CLASSES[cls] = guarded_cls
    return guarded_cls


def _fault(fmt: Any, hook: str, what: str) -> PluginError:
    plugin = fmt.__dict__.get("_tooletta_plugin")
    return PluginError(f"chat format {fmt.name!r}: {hook}() {what}", plugin=plugin)


def _wrap(hook: str, original: Callable[..., Any], check: _Check) -> Callable[..., Any]:
    @functools.wraps(original)
    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            value = original(self, *args, **kwargs)
        except ToolettaError:
            raise
        except Exception as exc:
            raise _fault(self, hook, f"raised {type(exc).__name__}: {exc}") from exc
        problem = check(value, args)
        if problem is not None:
            raise _fault(self, hook, f"returned {problem}")
        return value

    return call


def _wrap_parse_turn(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def parse_turn(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            value = original(self, *args, **kwargs)
        except ToolettaError:
            raise
        except Exception as exc:
            raise _fault(self, "parse_turn", f"raised {type(exc).__name__}: {exc}") from exc
        problem = result_problem(value)
        if problem is not None:
            raise _fault(self, "parse_turn", f"returned {problem}")
        return value

    return parse_turn


def check_and_guard(dialect: Any, plugin: str | None) -> tuple[str | None, Callable[[Any], Any]]:
    """What :func:`tooletta.registry.install_format_check` is given: the problem of a third-party
    dialect's declared formats (:func:`formats_problem`) and how to guard each of them
    (:func:`guarded`, for ``plugin``)."""
    return formats_problem(dialect), lambda fmt: guarded(fmt, plugin)
