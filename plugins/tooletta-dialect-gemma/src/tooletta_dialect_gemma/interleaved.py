"""llama.cpp's "interleaved" Gemma 4 template as served: the ``gemma4-interleaved`` format.

llama.cpp vendors ``google-gemma-4-31B-it-interleaved.jinja`` (its PR #21418, "add custom
template to support interleaved thinking"), a variant of the earlier official Gemma 4
template. It reads no ``role: tool`` message: llama.cpp first folds each calls turn, its
results and the answer after them into one assistant message with ``tool_responses``
(``common/chat.cpp``, ``workaround::convert_tool_responses_gemma4``; the message form
:mod:`tooletta.chat.toolresponses` reproduces). What the model reads then differs from the
official template's text (format ``gemma4``) in these ways, which this format declares:

* reasoning kept in a calls turn is closed without a newline
  (``<|channel>thought\\nREASONING<channel|>``);
* a result whose content is JSON text is written decoded: an object as
  ``response:NAME{key:VALUE,...}`` (keys sorted, values as the template's ``format_argument``
  writes them), any other JSON value as ``response:NAME{value:VALUE}``; other text as
  ``response:NAME{value:<|"|>TEXT<|"|>}``. NAME is the function of the call at the result's
  position (llama.cpp's pairing), else the result's ``tool_call_id``. It reads back as that
  value's JSON text (keys in written order), so a JSON result keeps its value, not its
  spelling;
* the calls turn's own content is dropped (llama.cpp keeps only the answer after the
  results), and a turn with calls and no results is closed with ``<turn|>\\n`` like any turn;
* the generation prompt after results, inside the model's turn, is the empty thought channel
  (thinking off) with no header; after a closed turn it is ``<|turn>model\\n`` and that;
* the tool declarations follow that template's ``format_parameters``: ``nullable`` before the
  type's own keys, and an object's ``properties``/``required`` and an array's ``items``
  opened by an unconditional comma.

No model id routes to it (it is no model's own template): ``dialect="gemma4-interleaved"``,
or pass the template (``chat_template=``), which :func:`tooletta.chat.identify` names as this.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

import msgspec

from tooletta import Message, ParseError, RenderError
from tooletta.plugin import (
    Conversation,
    Prompt,
    Reasoning,
    by_content,
    implicit_after,
    text_of,
)
from tooletta_dialect_gemma.chat import (
    _STANDARD_KEYS,
    CHANNEL_CLOSE,
    EMPTY_THOUGHT,
    MODEL,
    RESULT_CLOSE,
    RESULT_OPEN,
    STR,
    THOUGHT,
    TOOL_CLOSE,
    TOOL_OPEN,
    Gemma4Chat,
    _dictsort,
    _get,
    _items,
    _required,
    _text,
    _upper,
    declaration_with,
    format_argument,
)

__all__ = ["Gemma4InterleavedChat", "interleaved_declaration"]

_SOURCE = (
    "llama.cpp models/templates/google-gemma-4-31B-it-interleaved.jinja (mirror "
    "Raudbjorn/ggml-llama.cpp ae1a0b1c), messages folded by common/chat.cpp "
    "convert_tool_responses_gemma4"
)


def _parameters(properties: Mapping[str, Any]) -> str:
    """The interleaved template's ``format_parameters`` macro."""
    out = []
    for key, value in _dictsort(properties):
        if key in _STANDARD_KEYS:
            continue
        text = f"{key}:{{"
        comma = False
        description = _get(value, "description")
        if description:
            text += "description:" + STR + _text(description) + STR
            comma = True
        if _get(value, "nullable"):
            text += "," if comma else ""
            comma = True
            text += "nullable:true"
        kind = _upper(_get(value, "type"))
        if kind == "STRING":
            enum = _get(value, "enum")
            if enum:
                text += "," if comma else ""
                comma = True
                text += "enum:" + format_argument(enum)
        elif kind == "OBJECT":
            nested = _get(value, "properties")
            source = nested if isinstance(nested, Mapping) else value
            inner = _parameters(source) if isinstance(source, Mapping) else ""
            text += ",properties:{" + inner + "}"
            required = _get(value, "required")
            if required:
                text += ",required:" + _required(required)
        elif kind == "ARRAY":
            items = _get(value, "items")
            if isinstance(items, Mapping) and items:
                text += ",items:{" + _items(items) + "}"
        text += ("," if comma else "") + "type:" + STR + kind + STR + "}"
        out.append(text)
    return ",".join(out)


def interleaved_declaration(tool: Mapping[str, Any]) -> str:
    """One tool as the interleaved template's ``format_function_declaration`` writes it (as
    ``gemma4``'s, with this template's ``format_parameters``)."""
    return declaration_with(tool, _parameters)


@by_content
def _declarations(tools: Sequence[Mapping[str, Any]]) -> str:
    return "".join(TOOL_OPEN + interleaved_declaration(tool) + TOOL_CLOSE for tool in tools)


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def _decoded(content: str) -> tuple[bool, Any]:
    """Whether ``content`` is JSON text (as llama.cpp's parser reads it) and its value."""
    try:
        return True, json.loads(content, parse_constant=_no_constant)
    except ValueError:
        return False, None


def _result_name(index: int, messages: Sequence[Message]) -> str:
    """llama.cpp's pairing: the function of the call at the result's position among the
    turn's results, else the result's ``tool_call_id`` (``""`` when neither)."""
    position = 0
    i = index - 1
    while i >= 0 and messages[i].role == "tool":
        position += 1
        i -= 1
    if i < 0 or messages[i].role != "assistant" or not messages[i].tool_calls:
        raise RenderError(
            "gemma4-interleaved: a tool result must follow the assistant turn with the calls "
            "it answers (llama.cpp folds it into that turn)"
        )
    calls = messages[i].tool_calls
    if position < len(calls) and calls[position].name:
        return str(calls[position].name)
    return messages[index].tool_call_id or ""


def _follows_calls(index: int, messages: Sequence[Message]) -> bool:
    """Whether the message at ``index`` comes right after a calls turn's results."""
    return index > 0 and messages[index - 1].role == "tool"


class Gemma4InterleavedChat(Gemma4Chat):
    """llama.cpp's interleaved Gemma 4 template with the messages llama.cpp folds for it
    (see the module docs)."""

    name = "gemma4-interleaved"
    models: ClassVar[tuple[str, ...]] = ()
    source = _SOURCE
    reasoning = Reasoning(THOUGHT, CHANNEL_CLOSE, strip="", keep="with_calls_after_last_user")
    """Closed with no newline before ``<channel|>``."""
    system_block = replace(Gemma4Chat.system_block, tools=_declarations)
    """``gemma4``'s, the tools declared by this template's macro (an empty system message
    reads back as none, as there: the two write the same turn for it)."""
    calls_end = None
    results_end: ClassVar[tuple[str, str] | None] = (RESULT_OPEN, "")
    """A calls turn that results follow ends with ``<|tool_response>`` and nothing after it
    (the result follows in the same turn); a calls turn without results (no
    ``tool_responses`` to write) ends with ``<turn|>\\n`` like any turn (``gemma4``'s
    :attr:`calls_end` would end it with ``<|tool_response>`` too)."""
    calls_content = False
    """A calls turn's own content is not written (llama.cpp drops it when it folds the turn);
    :meth:`expressible` drops it so."""
    implicit_roles = implicit_after("tool")
    """Only after results does the model's text go on with no header."""
    continue_prompt = Prompt(off=EMPTY_THOUGHT, default=False, head="")
    """After results, inside the model's turn: the empty thought channel (thinking off) with
    no header."""

    def header(self, index: int, ctx: Conversation) -> str:
        """Oddity (llama.cpp's folding): no header for a result (the first is opened by the
        calls turn's end token, the others by their own ``<|tool_response>``), nor for a turn
        continuing after results (one with calls, or the answer: llama.cpp folds it into the
        calls turn); any other turn, even right after another assistant turn, has its
        header."""
        messages = ctx.messages
        message = messages[index]
        if message.role == "assistant" and _follows_calls(index, messages):
            if message.tool_calls or text_of(message.content):
                return ""
            return MODEL
        if message.role == "assistant":
            return MODEL
        return super().header(index, ctx)

    def result_text(self, index: int, ctx: Conversation) -> str:
        """Oddity: ``response:NAME{...}`` with JSON text decoded (see the module docs), other
        text between ``<|"|>``; refused when it would not read back as written."""
        content = text_of(ctx.messages[index].content)
        name = _result_name(index, ctx.messages)
        is_json, value = _decoded(content)
        if not is_json and STR in content:
            raise RenderError(f"a gemma4-interleaved tool result cannot hold {STR!r}")
        if not is_json:
            body = "{value:" + STR + content + STR + "}"
        elif isinstance(value, dict):
            pairs = (f"{k}:{format_argument(v, escape_keys=False)}" for k, v in _dictsort(value))
            body = "{" + ",".join(pairs) + "}"
        else:
            body = "{value:" + format_argument(value, escape_keys=False) + "}"
        text = f"response:{name}{body}"
        if RESULT_CLOSE in text or (is_json and _read_value(body) != (True, _sorted(value))):
            raise RenderError(
                "gemma4-interleaved: this tool result would not read back as written "
                f"({content[:40]!r})"
            )
        return text

    def parse_result(self, body: str) -> str:
        """Oddity: the result's text from ``response:NAME{...}``: a ``<|"|>``-delimited text
        as is, a decoded value as its JSON."""
        if not body.startswith("response:") or "{" not in body or not body.endswith("}"):
            raise ParseError(f"gemma4-interleaved conversation: not a tool result: {body[:40]!r}")
        inner = body[body.index("{") :]
        if inner.startswith("{value:" + STR) and inner.endswith(STR + "}"):
            text = inner[len("{value:" + STR) : -len(STR) - 1]
            if STR not in text:
                return text
        ok, value = _read_value(inner)
        if not ok:
            raise ParseError(f"gemma4-interleaved conversation: unreadable result {body[:40]!r}")
        return json.dumps(value, ensure_ascii=False)

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """Oddity: ``gemma4``'s (a calls turn's content dropped, :attr:`calls_content`), each
        JSON result as the JSON text it reads back as."""
        out = []
        for m in super().expressible(messages):
            if m.role == "tool":
                content = text_of(m.content)
                ok, value = _decoded(content)
                if ok:
                    text = (
                        value
                        if isinstance(value, str)
                        else json.dumps(_sorted(value), ensure_ascii=False)
                    )
                    m = msgspec.structs.replace(m, content=text)
            out.append(m)
        return out


def _sorted(value: Any) -> Any:
    """``value`` with its objects' keys in the template's ``dictsort`` order."""
    if isinstance(value, dict):
        return {k: _sorted(v) for k, v in _dictsort(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


def _read_value(inner: str) -> tuple[bool, Any]:
    """``{...}`` (a result's body) read as the Gemma 4 dialect reads a call's arguments: an
    object, or ``{value:X}`` for another value; ``(False, None)`` when it does not read."""
    from tooletta_dialect_gemma import Gemma4Dialect

    text = "<|tool_call>call:r" + inner + "<tool_call|>"
    try:
        calls = Gemma4Dialect().parse(text).calls
    except Exception:
        return False, None
    if len(calls) != 1:
        return False, None
    args = calls[0].arguments
    if list(args) == ["value"]:
        return True, args["value"]
    return True, args
