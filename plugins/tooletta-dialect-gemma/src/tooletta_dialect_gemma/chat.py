"""The Gemma 4 conversation format (Google's ``gemma-4-31B-it`` chat template, the earlier
revision: llama.cpp's copy of April 2026; the revised template's format, which the Gemma 4 ids
now get, is :mod:`tooletta_dialect_gemma.revised`'s ``gemma4-2604``, this one with other tool
declarations).

Turns are ``<|turn>ROLE\\n`` ... ``<turn|>\\n`` (``model`` for the assistant). The system turn
holds ``<|think|>\\n`` when thinking is on, the system message (trimmed) and one
``<|tool>declaration:NAME{...}<tool|>`` per tool, written by the template's own schema macro
(:func:`declaration`). Tool results go inside the model's turn: the model ends a turn with
calls by generating ``<|tool_response>`` (the template's last token after calls), each result
is ``<|tool_response>response:NAME{value:<|"|>TEXT<|"|>}<tool_response|>`` (the first one's
opening token being that end token), and the model goes on writing its answer in the same
turn, with no new header, up to ``<turn|>``. Reasoning is written back only into turns with
calls after the last user message, as ``<|channel>thought\\nTEXT\\n<channel|>``; the
generation prompt is ``<|turn>model\\n`` plus, unless thinking is on, an empty thought channel
``<|channel>thought\\n<channel|>`` (nothing after a call or a result: the turn goes on).

Where the template misplaces data this format writes what a correct template would (see the
plugin README): a calls turn's content is written with its calls, before the results, where
the template moves it after the results and closes the turn, leaving the answer without a
header; results of calls without ids are named after the call they answer (the template
names them all after the turn's last call).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from tooletta import Message, ParseError, RenderError
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Neutral,
    Prompt,
    Reasoning,
    SystemBlock,
    Turn,
    by_content,
    defaults,
    implicit_after,
    roles,
    text_of,
)

__all__ = [
    "G4_SPECIAL",
    "Gemma4Chat",
    "declaration",
    "declaration_with",
    "format_argument",
    "result_name",
    "strip_thinking",
]

BOS = "<bos>"
TURN_END = "<turn|>"
MODEL = "<|turn>model\n"
THINK_FLAG = "<|think|>\n"
TOOL_OPEN = "<|tool>"
TOOL_CLOSE = "<tool|>"
RESULT_OPEN = "<|tool_response>"
RESULT_CLOSE = "<tool_response|>"
CHANNEL_OPEN = "<|channel>"
CHANNEL_CLOSE = "<channel|>"
THOUGHT = CHANNEL_OPEN + "thought\n"
EMPTY_THOUGHT = THOUGHT + CHANNEL_CLOSE
STR = '<|"|>'

G4_SPECIAL = (
    BOS,
    "<|turn>",
    TURN_END,
    TOOL_OPEN,
    TOOL_CLOSE,
    "<|tool_call>",
    "<tool_call|>",
    RESULT_OPEN,
    RESULT_CLOSE,
    STR,
    CHANNEL_OPEN,
    CHANNEL_CLOSE,
    "<|think|>",
)
"""Gemma 4's control tokens that the format writes (single ids in its tokenizer)."""

_STANDARD_KEYS = ("description", "type", "properties", "required", "nullable")


class _Undefined:
    """A missing key as Jinja sees it: falsy, written as nothing."""

    __slots__ = ()

    def __bool__(self) -> bool:
        return False


_UNDEFINED = _Undefined()


def _get(value: Any, key: str) -> Any:
    """``value[key]`` with Jinja's lenience (missing: undefined)."""
    if isinstance(value, Mapping) and key in value:
        return value[key]
    return _UNDEFINED


def _text(value: Any) -> str:
    """``{{ value }}``: undefined writes nothing, anything else its ``str``."""
    return "" if value is _UNDEFINED else str(value)


def _upper(value: Any) -> str:
    """Jinja's ``upper`` filter."""
    return _text(value).upper()


def _dictsort(mapping: Mapping[Any, Any]) -> list[tuple[Any, Any]]:
    """Jinja's ``dictsort``: items by key, case-insensitively, stable."""
    return sorted(mapping.items(), key=lambda kv: _sort_key(kv[0]))


def _sort_key(key: Any) -> Any:
    return key.lower() if isinstance(key, str) else key


def format_argument(argument: Any, escape_keys: bool = True, none: str = "None") -> str:
    """The template's ``format_argument`` macro: a value in Gemma's key:value syntax (strings
    between ``<|"|>``, keys delimited too when ``escape_keys``, mappings sorted by key);
    ``None`` written ``none`` (``None``, the earlier templates' ``{{ argument }}``; the
    canonical template of July 2026 writes ``null``)."""
    if argument is None:
        return none
    if isinstance(argument, str):
        return STR + argument + STR
    if isinstance(argument, bool):
        return "true" if argument else "false"
    if isinstance(argument, Mapping):
        items = []
        for key, value in _dictsort(argument):
            name = STR + str(key) + STR if escape_keys else str(key)
            items.append(name + ":" + format_argument(value, escape_keys, none))
        return "{" + ",".join(items) + "}"
    if isinstance(argument, (list, tuple)):
        return "[" + ",".join(format_argument(item, escape_keys, none) for item in argument) + "]"
    return _text(argument)


def _required(items: Any) -> str:
    return "[" + ",".join(STR + _text(item) + STR for item in items) + "]"


def _items(items: Mapping[str, Any], every_level: bool = True, none: str = "None") -> str:
    """The ``items:{...}`` body of an array property (``every_level`` and ``none``: as
    :func:`_parameters`)."""
    out = []
    for key, value in _dictsort(items):
        if value is None:
            continue
        if key == "properties":
            inner = (
                _parameters(value, False, every_level=every_level, none=none)
                if isinstance(value, Mapping)
                else ""
            )
            out.append("properties:{" + inner + "}")
        elif key == "required":
            out.append("required:" + _required(value))
        elif key == "type":
            if isinstance(value, str):
                out.append("type:" + format_argument(value.upper(), none=none))
            else:
                out.append("type:" + format_argument([_upper(v) for v in value], none=none))
        else:
            out.append(f"{key}:" + format_argument(value, none=none))
    return ",".join(out)


def _parameters(
    properties: Mapping[str, Any],
    filter_keys: bool = True,
    *,
    every_level: bool = True,
    none: str = "None",
) -> str:
    """The template's ``format_parameters`` macro.

    ``every_level`` (this template's): the standard schema keys are left out of every
    ``properties`` mapping, so a parameter named ``type`` or ``description`` is never
    declared. Otherwise (the revised template's, ``gemma4-2604``) only where the macro is
    called with ``filter_keys`` (an object property without a ``properties`` mapping, read
    as its own properties), which the caller passes. ``none``: how ``format_argument`` writes
    ``None`` (an ``enum`` member), as :func:`format_argument` takes it."""
    out = []
    for key, value in _dictsort(properties):
        if key in _STANDARD_KEYS and (every_level or filter_keys):
            continue
        parts = []
        description = _get(value, "description")
        if description:
            parts.append("description:" + STR + _text(description) + STR)
        kind = _upper(_get(value, "type"))
        if kind == "STRING":
            enum = _get(value, "enum")
            if enum:
                parts.append("enum:" + format_argument(enum, none=none))
        elif kind == "ARRAY":
            items = _get(value, "items")
            if isinstance(items, Mapping) and items:
                parts.append("items:{" + _items(items, every_level, none) + "}")
        if _get(value, "nullable"):
            parts.append("nullable:true")
        if kind == "OBJECT":
            nested = _get(value, "properties")
            if isinstance(nested, Mapping):
                inner = _parameters(nested, False, every_level=every_level, none=none)
                parts.append("properties:{" + inner + "}")
            elif isinstance(value, Mapping):
                inner = _parameters(value, True, every_level=every_level, none=none)
                parts.append("properties:{" + inner + "}")
            required = _get(value, "required")
            if required:
                parts.append("required:" + _required(required))
        parts.append("type:" + STR + kind + STR + "}")
        out.append(f"{key}:{{" + ",".join(parts))
    return ",".join(out)


def declaration(tool: Mapping[str, Any]) -> str:
    """One tool as the template's ``format_function_declaration`` macro writes it (trimmed):
    ``declaration:NAME{description:<|"|>...<|"|>,parameters:{...},response:{...}}``.

    Written as the template writes it, including its quirks: a ``parameters`` object without
    ``type`` is left unclosed, as is a ``response`` whose type is not ``object``.
    """
    return declaration_with(tool, _parameters)


def declaration_with(
    tool: Mapping[str, Any], parameters: Callable[[Mapping[str, Any]], str]
) -> str:
    """:func:`declaration` with another ``format_parameters`` macro, ``parameters`` (the
    interleaved template's differs only there)."""
    function = _get(tool, "function")
    text = "declaration:" + _text(_get(function, "name"))
    text += "{description:" + STR + _text(_get(function, "description")) + STR
    params = _get(function, "parameters")
    if params:
        text += ",parameters:{"
        properties = _get(params, "properties")
        if properties:
            text += "properties:{" + parameters(properties) + "},"
        required = _get(params, "required")
        if required:
            text += "required:" + _required(required) + ","
        kind = _get(params, "type")
        if kind:
            text += "type:" + STR + _upper(kind) + STR + "}"
    if isinstance(function, Mapping) and "response" in function:
        response = function["response"]
        text += ",response:{"
        description = _get(response, "description")
        if description:
            text += "description:" + STR + _text(description) + STR + ","
        if _upper(_get(response, "type")) == "OBJECT":
            text += "type:" + STR + "OBJECT" + STR + "}"
    return (text + "}").strip()


@by_content
def _declarations(tools: Sequence[Mapping[str, Any]]) -> str:
    """Every tool as ``<|tool>DECLARATION<tool|>`` (remembered by content)."""
    return "".join(TOOL_OPEN + declaration(tool) + TOOL_CLOSE for tool in tools)


def strip_thinking(text: str) -> str:
    """The template's ``strip_thinking`` macro: the content without any
    ``<|channel>...<channel|>`` part, trimmed."""
    kept = []
    for part in text.split(CHANNEL_CLOSE):
        kept.append(part.split(CHANNEL_OPEN)[0] if CHANNEL_OPEN in part else part)
    return "".join(kept).strip()


def _previous_speaker(messages: Sequence[Message], index: int) -> str | None:
    """The role of the last message before ``index`` that is not a tool result."""
    for i in range(index - 1, -1, -1):
        if messages[i].role != "tool":
            return messages[i].role
    return None


def _calls_before(messages: Sequence[Message], index: int) -> tuple[list[Any], int]:
    """The calls of the assistant turn the result at ``index`` answers, and the result's
    position among that turn's results."""
    position = 0
    for i in range(index - 1, -1, -1):
        if messages[i].role == "tool":
            position += 1
            continue
        if messages[i].role == "assistant":
            return list(messages[i].tool_calls), position
        break
    return [], position


def result_name(index: int, messages: Sequence[Message]) -> str:
    """The function name written in ``response:NAME{...}`` for the result at ``index``: the
    call whose id it answers, else its own ``name``, else the call at its position, else
    ``unknown`` (the template's default)."""
    message = messages[index]
    calls, position = _calls_before(messages, index)
    if message.tool_call_id is not None:
        for call in calls:
            if call.id == message.tool_call_id:
                return str(call.name)
    if message.name:
        return message.name
    if position < len(calls):
        return str(calls[position].name)
    return "unknown"


def _think_flag(options: Mapping[str, Any]) -> str:
    """The system turn's lead: ``<|think|>\\n`` when ``enable_thinking`` is on."""
    return THINK_FLAG if options.get("enable_thinking") else ""


class Gemma4Chat(ChatFormat):
    """Gemma 4's chat template (``google/gemma-4-31B-it``, the earlier revision),
    ``enable_thinking`` off by default; tool results are written inside the model's turn."""

    unwritten_fields = defaults(
        user=defaults(tool_responses=Neutral(None, [])),
        assistant=defaults(tool_responses=Neutral(None, [])),
    )
    """A message's ``tool_responses`` key (the legacy form of tool results embedded on a message),
    which the template writes as results; refused when set (give the results as ``tool``
    messages)."""
    name = "gemma4"
    source = (
        "google/gemma-4-31B-it chat_template.jinja, the earlier revision (llama.cpp "
        "google-gemma-4-31B-it.jinja)"
    )
    bos = BOS
    turns = roles(
        system=Turn("<|turn>system\n", TURN_END + "\n"),
        user=Turn("<|turn>user\n", TURN_END + "\n"),
        assistant=Turn(MODEL, TURN_END + "\n"),
        tool=Turn(RESULT_OPEN, RESULT_CLOSE),
    )
    end_of_turn = TURN_END
    end_tokens = (RESULT_OPEN,)
    calls_end: ClassVar[tuple[str, str] | None] = (RESULT_OPEN, "")
    """A turn with calls ends with ``<|tool_response>`` (the model stops there for the
    results) and nothing after it: the result follows in the same turn."""
    special_tokens: ClassVar[tuple[str, ...]] = G4_SPECIAL
    reasoning = Reasoning(
        THOUGHT, "\n" + CHANNEL_CLOSE, strip="", keep="with_calls_after_last_user"
    )
    system_roles = frozenset({"system", "developer"})
    system_block = SystemBlock(
        tools=_declarations,
        head=TOOL_OPEN,
        joiner="",
        lead=_think_flag,
        leads=(THINK_FLAG,),
        empty_reads_none=True,
    )
    """``<|think|>\\n`` when ``enable_thinking`` is on (a turn of its own without a system
    message or tools), then the system message (trimmed) right before the ``<|tool>``
    declarations; an empty system message (a turn the template still writes) reads back as
    none."""
    trim = frozenset({"system", "user"})
    options = defaults(enable_thinking=False)
    prompt = Prompt(off=EMPTY_THOUGHT, default=False)
    """``<|turn>model\\n``, then the empty thought channel unless thinking is on (thinking
    on's bare header reads back as no message too)."""
    continue_prompt: ClassVar[Prompt | None] = Prompt(head="")
    """A conversation that ends inside the model's turn (after results, or after calls whose
    results are to come: the turn ended by ``<|tool_response>``) gets no prompt: the model
    goes on in its turn."""
    keeps_ids = False
    implicit_roles = implicit_after("tool", "assistant")
    """After results (or a closed model turn) the model's text goes on with no header (the
    headers :meth:`header` leaves out)."""

    # -- the model's turn, results inside it -------------------------------------------------

    def header(self, index: int, ctx: Conversation) -> str:
        """Oddity (results inside the model's turn): no ``<|turn>model\\n`` for an
        assistant turn continuing the model's turn (after its results, or right after
        another assistant message); no ``<|tool_response>`` for the first result after a
        turn with calls (the model's end token wrote it)."""
        messages = ctx.messages
        role = messages[index].role
        if role == "assistant" and _previous_speaker(messages, index) == "assistant":
            return ""
        if role == "tool" and index > 0:
            before = messages[index - 1]
            if before.role == "assistant" and before.tool_calls:
                return ""
        return super().header(index, ctx)

    def content_text(self, content: str, after_reasoning: bool) -> str:
        """Oddity: the content as the template's ``strip_thinking`` leaves it (thought
        channels out, trimmed)."""
        return strip_thinking(content)

    def result_text(self, index: int, ctx: Conversation) -> str:
        """Oddity: ``response:NAME{value:<|"|>TEXT<|"|>}`` (the template's text-result form,
        named after the call it answers)."""
        content = text_of(ctx.messages[index].content)
        if RESULT_CLOSE in content:
            raise RenderError(f"a gemma4 tool result cannot hold {RESULT_CLOSE!r}")
        name = result_name(index, ctx.messages)
        return f"response:{name}{{value:{STR}{content}{STR}}}"

    def parse_result(self, body: str) -> str:
        """Oddity: the text of ``response:NAME{value:<|"|>TEXT<|"|>}``."""
        head = body.find("{value:" + STR)
        if not body.startswith("response:") or head < 0 or not body.endswith(STR + "}"):
            raise ParseError(f"gemma4 conversation: not a text tool result: {body[:40]!r}")
        start = head + len("{value:" + STR)
        return body[start : len(body) - len(STR) - 1]

    def read_header(self, text: str, pos: int) -> tuple[str, int] | None:
        """Oddity: a result right after the model's ``<|tool_response>`` end token has no
        header."""
        if text.startswith("response:", pos) and text.endswith(RESULT_OPEN, 0, pos):
            return "tool", pos
        return None

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """Oddity: the contents as ``strip_thinking`` leaves them, the kept reasoning trimmed
        (as the dialect reads it); the rest as declared (an opening developer message, of
        :attr:`system_roles`, given back as the system message)."""
        out = super().expressible(messages)
        for i, m in enumerate(out):
            if m.role == "assistant":
                content = strip_thinking(text_of(m.content))
                out[i] = msgspec.structs.replace(m, content=content, reasoning=m.reasoning.strip())
        return out
