"""OpenAI Chat Completions tool calls, as JSON text.

Accepted: an assistant message object (``{"role": "assistant", "content": ..., "tool_calls":
[...]}``), the legacy ``function_call`` message (one call, no id), or a bare ``tool_calls``
list. Each item is ``{"id": "call_...", "type": "function", "function": {"name": ...,
"arguments": "<JSON string>"}}``; arguments given as an object are accepted too. Pinned from
the OpenAI Python SDK types (``chat_completion_message.py``,
``chat_completion_message_function_tool_call.py``). The JSON must make up the whole text.

Rendering writes the bare list without content and the message object with content;
arguments become a JSON string, and a call without an id gets a deterministic ``call_`` id
(OpenAI requires one). Each call streams whole once its item has closed: the arguments are a
JSON string in this format, not an object that could stream verbatim.
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

from tooletta import DialectInfo, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    BlockError,
    JsonDocumentDialect,
    Read,
    Reader,
    coerce_arguments,
    derived_call_id,
    document_grammar,
    json_key,
    json_next,
    json_string,
    json_value,
    read_fast,
    too_deep,
)
from tooletta.plugin import loads as json_loads
from tooletta_dialect_openai.models import MODELS

__all__ = ["OpenAIDialect", "call_id_for", "register_dialects", "unknown_key"]


def call_id_for(call: ToolCall, index: int) -> str:
    """The call's id, or the one the id policy of every tooletta path derives for the call at
    position ``index`` (:func:`tooletta.limits.derived_call_id`)."""
    if call.id:
        return call.id
    return derived_call_id(call.name, json.dumps(call.arguments, ensure_ascii=False), index)


_ITEM_KEYS = frozenset({"id", "type", "function", "index"})
_FUNCTION_KEYS = frozenset({"name", "arguments"})


def unknown_key(item: dict[str, Any], fn: dict[str, Any], legacy: bool = False) -> str | None:
    """The first key of a ``tool_calls`` item (``type`` other than ``"function"``, ``index``
    other than an integer) or of its ``function`` object that this format does not read, whose
    data the call would lose; ``None`` when there is none. ``legacy``: ``item`` is a
    ``function_call`` object (``fn`` itself)."""
    for key in fn:
        if key not in _FUNCTION_KEYS:
            return f"function.{key}" if not legacy else key
    if legacy:
        return None
    for key, value in item.items():
        if key not in _ITEM_KEYS:
            return key
        if key == "type" and value != "function":
            return "type"
        if key == "index" and type(value) is not int:
            return "index"
    return None


def _emit(r: Reader, item: Any, at: int, legacy: bool = False) -> None:
    if not isinstance(item, dict):
        raise BlockError("a tool call must be a JSON object", at)
    fn = item if legacy else item.get("function")
    if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
        raise BlockError("a tool call needs function.name", at)
    unknown = unknown_key(item, fn, legacy)
    if unknown is not None:
        raise BlockError(f"unknown key {unknown!r} in the tool call", at)
    try:
        arguments = coerce_arguments(fn.get("arguments"))
    except ValueError as exc:
        raise BlockError(str(exc), at) from None
    call_id = None if legacy else item.get("id")
    r.start_call(fn["name"], call_id if isinstance(call_id, str) else None)
    if r.engine.deltas:
        r.args(json.dumps(arguments, ensure_ascii=False))
    r.end_call(arguments)


def read_list(r: Reader) -> Read[None]:
    """A ``tool_calls`` list; each item is emitted once it has closed (the closing ``]``
    counts as read with them, as :func:`~tooletta.engine.read_fast` counts it)."""
    yield from r.expect("[")
    first = True
    while not (yield from json_next(r, "]", first)):
        first = False
        at = r.pos
        _emit(r, json_loads((yield from json_value(r)), at), at)
    r.commit()


def fast_list(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_list`: the list decoded whole, when it runs to
    the last ``]`` of the text and every item is a call (``_emit``'s rules)."""
    end = text.rfind("]", pos) + 1
    if not end:
        return -1
    seg = text[pos:end]
    try:
        items = msgspec.json.decode(seg)
    except (msgspec.DecodeError, UnicodeError, RecursionError):
        return -1
    if type(items) is not list or too_deep(seg, items):
        return -1
    found = []
    for item in items:
        fn = item.get("function") if isinstance(item, dict) else None
        if not isinstance(fn, dict) or not isinstance(fn.get("name"), str):
            return -1
        if unknown_key(item, fn) is not None:
            return -1
        try:
            arguments = coerce_arguments(fn.get("arguments"))
        except ValueError:
            return -1
        call_id = item.get("id")
        found.append(ToolCall(fn["name"], arguments, call_id if isinstance(call_id, str) else None))
    calls.extend(found)
    return end


def read_message(r: Reader) -> Read[None]:
    """An assistant message object with ``content`` and ``tool_calls`` or ``function_call``."""
    yield from r.expect("{")
    first = True
    while not (yield from json_next(r, "}", first)):
        first = False
        key = yield from json_key(r)
        nxt = yield from r.peek()
        if key == "content" and nxt == '"':
            r.content((yield from json_string(r)))
        elif key == "tool_calls" and nxt == "[":
            if not read_fast(r, fast_list):
                yield from read_list(r)
        elif key == "function_call" and nxt == "{":
            at = r.pos
            _emit(r, json_loads((yield from json_value(r)), at), at, legacy=True)
        else:
            yield from json_value(r)


class OpenAIDialect(JsonDocumentDialect):
    """OpenAI ``tool_calls`` / ``function_call`` JSON (a message object or a bare list)."""

    info = DialectInfo(
        name="openai",
        aliases=("oai", "openai_json", "openai_chat"),
        priority=-90,
        markers=('"function"', '"tool_calls"', '"function_call"'),
        description="OpenAI Chat Completions tool_calls objects and legacy function_call, as JSON",
        source="openai/openai-python src/openai/types/chat/chat_completion_message*.py",
    )
    grammar = document_grammar(read_list, read_message, fast_list)
    start = re.compile(
        r'\s*(\[\s*(\{\s*"(id|type|function)"|\])|\{\s*"(role|content|tool_calls|function_call)")'
    )

    def render(self, calls: Any, content: str = "") -> str:
        """The ``tool_calls`` list, or the assistant message object when there is content."""
        items = [
            {
                "id": call_id_for(c, i),
                "type": "function",
                "function": {"name": c.name, "arguments": to_json(c.arguments)},
            }
            for i, c in enumerate(calls)
        ]
        if content:
            message: dict[str, Any] = {"role": "assistant", "content": content}
            if items:
                message["tool_calls"] = items
            return to_json(message)
        return to_json(items)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the openai dialect."""
    for declared in (OpenAIDialect(), *MODELS):
        register(declared)
