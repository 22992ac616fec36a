"""What :func:`tooletta.render_conversation` refuses in the messages before any format
writes them, so that what it writes reads back as the same messages (issue 22):

* a role that is not a string, tool calls on a message that is not the assistant's (no
  template writes them: they would vanish), an id or name that is not a string, reasoning
  that is not text;
* calls no parse reads back (:func:`~tooletta.expressible.check_calls`, for every format,
  whatever its hooks do: an empty name, NaN, a too long integer, nesting past the dialect's
  depth), argument keys that are not strings and values that are not JSON values (bytes,
  tuples, sets, enums: they would come back as other values), and, in a dialect whose parse
  types values by the tool's schema, a value whose type the schema would change on the way
  back (the int ``5`` under a ``string`` schema reads back as ``"5"``, ``2.5`` under an
  ``object`` one as ``"2.5"``);
* text its format would read as markup (a forged turn), unless ``allow_markup``;
* in a format whose template writes no tools (``ChatFormat.writes_tools`` false), tool
  declarations, calls and tool results (:func:`~tooletta.chat.notools.refuse_tools`).

One pass over the messages, run by every conversation render path
(:func:`~tooletta.render_conversation`, :func:`~tooletta.chat.render_spans` and so
:func:`~tooletta.training.tokenize_conversation`); :func:`guarded` turns what the writing
itself meets (a lone surrogate in a tool definition, Python's recursion limit) into a
:class:`~tooletta.RenderError` too.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping, Sequence
from operator import is_
from typing import Any, TypeVar

import msgspec

from ..errors import RenderError
from ..expressible import check_calls, max_depth_of
from ..ir import Message, ToolCall
from .conversation import Conversation
from .markup import Markup, find_markup, markup_of
from .messages import non_text_part, text_of
from .notools import refuse_tools, writes_tools
from .switches import refuse_unwritten_fields

__all__ = ["Checked", "check_conversation", "guarded", "write_fault"]

_T = TypeVar("_T")


def check_conversation(
    fmt: Any,
    dialect: Any,
    messages: Sequence[Message],
    tools: Sequence[Mapping[str, Any]] = (),
    allow_markup: bool = False,
    markup: tuple[Markup, Markup] | None = None,
) -> None:
    """Raise :class:`~tooletta.RenderError` for the first message ``fmt`` cannot write so
    that it reads back (see the module's docstring), naming the message; ``allow_markup``:
    markup in text is not refused. ``markup``: :func:`~tooletta.chat.markup.markup_of`
    ``(fmt, dialect)`` when the caller keeps it (else it is looked up)."""
    if getattr(fmt, "unwritten_fields", None):
        refuse_unwritten_fields(fmt, messages)
    if not writes_tools(fmt):  # declarations, calls, results: refused, not dropped
        refuse_tools(fmt, messages, tools)
    texts: list[str] = []  # every text written: contents, reasoning, names, ids, arguments
    add = texts.append
    parts_dropped: bool | None = None  # whether fmt writes parts as their text: asked once
    typed: Sequence[Mapping[str, Any]] | None = None  # the tools, when the schema types values
    for index, message in enumerate(messages):
        role = message.role
        if type(role) is not str:
            raise RenderError(f"message {index}: the role must be a string, not {_kind(role)}")
        content = message.content
        if type(content) is str:
            add(content)
        else:
            try:
                add(text_of(content))
            except RenderError as exc:
                raise RenderError(f"message {index}: {exc}") from None
            if parts_dropped is None:
                parts_dropped = _writes_text_parts(fmt)
            if parts_dropped:
                _refuse_non_text(index, content)
        reasoning = message.reasoning
        if type(reasoning) is not str:
            raise RenderError(f"message {index}: reasoning must be text, not {_kind(reasoning)}")
        if reasoning:
            add(reasoning)
        name, call_id = message.name, message.tool_call_id
        if name is not None:
            if type(name) is not str:
                raise RenderError(f"message {index}: name must be a string, not {_kind(name)}")
            add(name)
        if call_id is not None:
            if type(call_id) is not str:
                raise RenderError(
                    f"message {index}: tool_call_id must be a string, not {_kind(call_id)}"
                )
            add(call_id)
        calls = message.tool_calls
        if calls:
            if role != "assistant":
                raise RenderError(
                    f"message {index}: a {role} message cannot carry tool calls (only an "
                    "assistant's calls are written: they would be dropped)"
                )
            if typed is None:  # found at the first turn with calls, once per conversation
                if not tools:
                    typed = ()
                else:
                    last = _LAST_TYPED[0]  # the dialect asked last: its answer without a call
                    known = last[1] if last[0] is dialect else _typed_by_schema(dialect)
                    typed = tools if known else ()
            _check_calls(index, calls, dialect, typed, texts)
    joined = _SEP.join(texts)
    if not joined.isascii():
        _check_surrogates(joined)
    if tools:
        last = _CHECKED_TOOLS[0]  # _check_tool_text's own test inline: the same objects
        if len(last) != len(tools) or not all(map(is_, last, tools)):
            _check_tool_text(tools)
    if not allow_markup:
        tables = markup_of(fmt, dialect) if markup is None else markup
        body = tables[1]
        for probe, words in body.probes:  # holds_markup inline: no token's rarest
            if probe in joined:  # character is the common case
                for word in words:
                    if word in joined:
                        _check_markup(fmt, dialect, messages, joined, tables)  # which message
                        return


class Checked(Conversation):
    """A :class:`~tooletta.chat.Conversation` whose messages :func:`check_conversation` has
    passed with its ``dialect`` (what :func:`tooletta.render_conversation` renders): every
    message's calls are ones :func:`~tooletta.expressible.check_calls` passes with that
    dialect's depth, so a writer given those calls (the same names and arguments) need not
    check them again."""


_CHECKED_TOOLS: list[tuple[Any, ...]] = [()]
"""The tool definitions :func:`_check_tool_text` passed last (the objects)."""


def _check_tool_text(tools: Sequence[Mapping[str, Any]]) -> None:
    """Refuse tool definitions holding a lone surrogate (msgspec's encoder finds it, a C
    loop), once per set of definition objects."""
    last = _CHECKED_TOOLS[0]
    if len(last) == len(tools) and all(map(is_, last, tools)):
        return
    try:
        msgspec.json.encode(tools)
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start] if isinstance(exc.object, str) else "?"
        raise RenderError(f"a tool definition: {_surrogate(bad)}") from None
    except (TypeError, ValueError, OverflowError):
        pass  # not JSON: the templates' writers refuse it
    _CHECKED_TOOLS[0] = tuple(tools)


def _check_surrogates(text: str) -> None:
    """Refuse a lone surrogate in the messages' text (not Unicode text: no tokenizer or file
    takes it), found by encoding (a C loop, five times faster than a search)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RenderError(f"message text: {_surrogate(text[exc.start])}") from None


def _kind(value: Any) -> str:
    return type(value).__name__


def _check_calls(
    index: int,
    calls: Sequence[Any],
    dialect: Any,
    tools: Sequence[Mapping[str, Any]],
    strings: list[str],
) -> None:
    """Check one message's calls; their names, ids, keys and string values are added to
    ``strings``. ``tools``: the request's tools when the dialect's parse types values by their
    schema (:func:`_typed_by_schema`), else empty."""
    walk = False  # a call is not flat: check_calls and the deep walk decide
    add = strings.append
    for call in calls:
        if type(call) is not ToolCall and not isinstance(call, ToolCall):
            raise RenderError(f"message {index}: not a tool call: {_kind(call)}")
        call_id = call.id
        if call_id is not None:
            if type(call_id) is not str:
                raise RenderError(
                    f"message {index}: a tool call id must be a string, not {_kind(call_id)}"
                )
            add(call_id)
        # flat (a non-empty str name; str keys; str, bool, None, short int or finite float
        # values) passes every check by a glance: the common case
        name = call.name
        arguments = call.arguments
        if type(name) is not str or not name or type(arguments) is not dict:
            walk = True
            continue
        add(name)
        for key, value in arguments.items():
            if type(key) is not str:
                walk = True
                break
            add(key)
            kind = type(value)
            if kind is str:
                add(value)
            elif kind is int:
                if value.bit_length() > _SHORT_INT_BITS:
                    walk = True
                    break
            elif kind is float:
                if value - value != 0:
                    walk = True
                    break
            elif kind is not bool and value is not None:
                walk = True
                break
    if walk:
        try:
            check_calls(calls, "", max_depth_of(dialect))
        except RenderError as exc:
            named = getattr(getattr(dialect, "info", None), "name", None)
            raise RenderError(f"message {index}: {exc}", dialect=named) from None
        for call in calls:
            _check_values(index, call, strings)
    if tools:
        for call in calls:
            _check_schema(index, call, tools, dialect)


_SHORT_INT_BITS = 14_000
"""Integers of at most this many bits have at most 4215 digits (see
:mod:`tooletta.expressible`)."""


_SCALARS = (str, int, float, bool, type(None))


def _check_values(index: int, call: ToolCall, strings: list[str]) -> None:
    """Refuse keys that are not strings and values that are not JSON values (bytes, tuples,
    sets, enums...): they would read back as other values. The depth is bounded already
    (:func:`~tooletta.expressible.check_calls`). The keys and string values are added to
    ``strings`` (for the markup check)."""
    arguments = call.arguments
    if type(arguments) is dict:  # the common case: flat, string keys, scalar values
        flat = True
        for key, value in arguments.items():
            kind = type(value)
            if type(key) is not str or not (kind is str or kind in _SCALARS):
                flat = False
                break
            strings.append(key)
            if kind is str:
                strings.append(value)
        if flat:
            return
    level: list[Any] = [arguments]
    while level:
        deeper: list[Any] = []
        for item in level:
            children: Any
            if isinstance(item, Mapping):
                for key in item:
                    if type(key) is str:
                        strings.append(key)
                    elif type(key) is not str and (
                        not isinstance(key, str) or isinstance(key, enum.Enum)
                    ):
                        raise RenderError(
                            f"message {index}: the arguments of {call.name!r} hold the key "
                            f"{key!r} ({_kind(key)}), which would read back as a string"
                        )
                children = item.values()
            else:
                children = item
            for value in children:
                kind = type(value)
                if kind is str:
                    strings.append(value)
                    continue
                if kind in _SCALARS:
                    continue
                if kind is dict or kind is list:
                    deeper.append(value)
                elif isinstance(value, enum.Enum) or not isinstance(
                    value, (str, int, float, Mapping, list)
                ):
                    raise RenderError(
                        f"message {index}: the arguments of {call.name!r} hold a {_kind(value)} "
                        f"({value!r:.40}), which is no JSON value: it would read back as another"
                    )
                elif isinstance(value, (Mapping, list)):
                    deeper.append(value)
        level = deeper


_TYPED: dict[int, tuple[Any, bool]] = {}
_LAST_TYPED: list[tuple[Any, bool]] = [(object(), False)]
"""The dialect :func:`_typed_by_schema` answered last, with its answer (one tuple, read by
:func:`check_conversation` without a call)."""
_PROBE_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "probe",
            "parameters": {"type": "object", "properties": {"a": {"type": "string"}}},
        },
    }
]


def _typed_by_schema(dialect: Any) -> bool:
    """Whether ``dialect``'s parse types argument values by the tool's schema (values written
    as untyped text: the int ``5`` under a ``string`` schema reads back as ``"5"``), found once
    per dialect object by rendering and parsing one call."""
    known = _TYPED.get(id(dialect))
    if known is not None and known[0] is dialect:
        _LAST_TYPED[0] = known
        return known[1]
    try:
        text = dialect.render([ToolCall("probe", {"a": 5})])
        calls = dialect.parse(text, tools=_PROBE_TOOLS).calls
        typed = bool(calls) and calls[0].arguments.get("a") == "5"
    except Exception:  # a dialect that cannot write the probe: not this check's to report
        typed = False
    if len(_TYPED) > 256:
        _TYPED.clear()
    _TYPED[id(dialect)] = _LAST_TYPED[0] = (dialect, typed)
    return typed


def _check_schema(
    index: int, call: ToolCall, tools: Sequence[Mapping[str, Any]], dialect: Any = None
) -> None:
    """Refuse a value whose JSON type is not the one its parameter's schema declares: a
    format that writes values as text reads it back as the declared type (or as a string).
    A value that is not a string, of a parameter the schema does not declare, is read back
    untyped: refused when the dialect's own reading of the call gives another value (Seed-OSS
    writes a dict as Python's ``str()``, which reads back as that text)."""
    declared = _schemas(tools).get(call.name) or {}
    for key, value in call.arguments.items():
        rule = declared.get(key)
        if rule is None:
            if dialect is not None and not isinstance(value, str):
                _check_untyped(index, call, key, value, tools, dialect)
            continue
        if type(value) in rule[0]:
            continue  # a value of one of its exact types
        kinds = rule[1]
        if any(_JSON_TYPES[k](value) for k in kinds):
            continue
        raise RenderError(
            f"message {index}: argument {key!r} of {call.name!r} is {_kind(value)} "
            f"{value!r:.40}, but its schema declares {'/'.join(kinds)}: this format writes "
            "values as text and reads them back by the schema (as another value)"
        )


def _check_untyped(
    index: int,
    call: ToolCall,
    key: str,
    value: Any,
    tools: Sequence[Mapping[str, Any]],
    dialect: Any,
) -> None:
    """Refuse ``key``'s value when the dialect, writing it alone and reading it back with the
    request's tools, gives another value (a parameter no schema types)."""
    probe = ToolCall(call.name, {key: value})
    try:
        back = dialect.parse(dialect.render([probe]), tools=tools).calls
    except Exception:  # the full render reports what the dialect cannot write
        return
    if (
        back
        and back[0].arguments.get(key) == value
        and type(back[0].arguments.get(key)) is type(value)
    ):
        return
    raise RenderError(
        f"message {index}: argument {key!r} of {call.name!r} is {_kind(value)} "
        f"{value!r:.40}, which no schema of the request declares: this format writes it as "
        "text that reads back as another value (declare the parameter in the tool's schema)"
    )


_JSON_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, Mapping),
    "array": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}
"""Whether a value is of a JSON Schema type (``integer`` also holds for a float with an
integer value in JSON Schema; here it does not: such a float reads back as an int)."""

_EXACT: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
    "null": (type(None),),
}
"""The exact Python types of each JSON Schema type (the fast test)."""

_Rule = tuple[frozenset[type], tuple[str, ...]]
_LAST_SCHEMAS: list[Any] = [(), {}]
"""The tool definitions :func:`_schemas` read last (a tuple of the objects) and what it
found: a dataset declares the same definitions in every row."""


def _schemas(tools: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, _Rule]]:
    """Function name -> parameter -> (its exact Python types, its JSON Schema types), for
    the parameters whose schema declares only types this check knows."""
    last, found = _LAST_SCHEMAS
    if len(last) == len(tools) and all(map(is_, last, tools)):
        return found  # type: ignore[no-any-return]
    found = {}
    for tool in tools:
        function = tool.get("function") if isinstance(tool, Mapping) else None
        if not isinstance(function, Mapping):
            continue
        parameters = function.get("parameters")
        properties = parameters.get("properties") if isinstance(parameters, Mapping) else None
        name = function.get("name")
        if not isinstance(properties, Mapping) or not isinstance(name, str) or name in found:
            continue
        rules: dict[str, _Rule] = {}
        for key, schema in properties.items():
            declared = schema.get("type") if isinstance(schema, Mapping) else None
            kinds = (declared,) if isinstance(declared, str) else declared
            if not isinstance(kinds, (tuple, list)) or not kinds:
                continue
            if all(isinstance(k, str) and k in _JSON_TYPES for k in kinds):
                exact = frozenset(t for k in kinds for t in _EXACT[k])
                rules[key] = (exact, tuple(kinds))
        found[name] = rules
    _LAST_SCHEMAS[:] = [tuple(tools), found]
    return found


_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _writes_text_parts(fmt: Any) -> bool:
    """Whether ``fmt`` writes a list of content parts as their text alone (``ChatFormat.text``,
    :func:`~tooletta.chat.text_of`), so that any other part would vanish; a format writing
    content its own way (GigaChat 3's lists as JSON) keeps every part."""
    from .format import ChatFormat

    return getattr(type(fmt), "text", None) is ChatFormat.text


def _refuse_non_text(index: int, content: Any) -> None:
    """Refuse a content list holding a part that is not text (see :func:`_writes_text_parts`):
    an image or audio part dropped from the text would train and serve a conversation the
    user never had."""
    found = non_text_part(content)
    if found is not None:
        raise RenderError(
            f"message {index}: {found}; this chat format writes a message's text only, so it "
            "would vanish from the text (images, audio and files are not written: remove the "
            "part, or keep its text as a text part)"
        )


def guarded(write: Callable[[], _T]) -> _T:
    """``write()``, a lone surrogate met (in a tool definition, say: the messages' are
    refused before) or Python's recursion limit hit while writing turned into a
    :class:`~tooletta.RenderError`."""
    try:
        return write()
    except (UnicodeEncodeError, RecursionError) as exc:
        error = write_fault(exc)
        if error is None:
            raise
        raise error from None


def write_fault(exc: UnicodeEncodeError | RecursionError) -> RenderError | None:
    """The :class:`~tooletta.RenderError` :func:`guarded` raises for ``exc`` (``None``: none,
    ``exc`` goes on as it is); for a caller that writes inside its own ``try`` rather than
    through a closure (:func:`tooletta.render_conversation`, once per conversation)."""
    if isinstance(exc, RecursionError):
        return RenderError("the conversation is nested too deeply to write")
    if not _SURROGATE.match(exc.object, exc.start):
        return None
    return RenderError(_surrogate(exc.object[exc.start]))


def _surrogate(char: str) -> str:
    return f"a lone surrogate (U+{ord(char):04X}) is not text and cannot be written"


def _check_markup(
    fmt: Any,
    dialect: Any,
    messages: Sequence[Message],
    joined: str,
    tables: tuple[Markup, Markup] | None = None,
) -> None:
    """Refuse the first text of ``messages`` that holds the markup of ``fmt``; ``joined``:
    every text of the messages joined, the calls' argument keys and string values among them
    (a turn's end token in a JSON string ends the turn when the conversation is read back);
    ``tables``: :func:`~tooletta.chat.markup.markup_of` ``(fmt, dialect)``, when known."""
    turn, body = markup_of(fmt, dialect) if tables is None else tables
    if body.pattern is None:
        return
    if find_markup(joined, body) is None:
        return  # the common case: one scan of all the text, no call per field
    quoted = fmt.quoted_fields
    for index, message in enumerate(messages):
        role = message.role
        content = message.content
        if type(content) is not str:
            content = text_of(content)
        if role == "assistant":
            _check(fmt, index, "content", content, body)
            if message.reasoning:
                _check(fmt, index, "reasoning", message.reasoning, body)
            for call in message.tool_calls:
                _check_str(fmt, index, "name", call.name, turn)
                _check_str(fmt, index, "id", call.id, turn)
                found: list[str] = []
                _check_values(index, call, found)
                for text in found:
                    _check(fmt, index, f"arguments of {call.name!r}", text, turn)
        else:
            field = "tool result" if role == "tool" else "system" if role == "system" else "content"
            if field not in quoted:
                _check(fmt, index, field, content, turn)
            if message.reasoning:
                _check(fmt, index, "reasoning", message.reasoning, turn)
        if message.name is not None:
            _check_str(fmt, index, "name", message.name, turn)
        if message.tool_call_id is not None:
            _check_str(fmt, index, "id", message.tool_call_id, turn)


_SEP = "\x00"


def _check_str(fmt: Any, index: int, field: str, value: Any, markup: Markup) -> None:
    if type(value) is str:
        _check(fmt, index, field, value, markup)


def _check(fmt: Any, index: int, field: str, text: str, markup: Markup) -> None:
    token = find_markup(text, markup)
    if token is not None:
        raise RenderError(
            f"message {index}: the {field} holds the marker {token!r}, a token the {fmt.name} "
            "chat format reads as markup (the text would read back as other messages); "
            "allow_markup=True writes it as is"
        )
