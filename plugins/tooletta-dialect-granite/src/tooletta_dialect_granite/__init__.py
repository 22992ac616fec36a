"""IBM Granite tool calls: Granite 3.0/3.1 (``granite``) and Granite-20B-FunctionCalling.

``granite``: the special token ``<|tool_call|>`` (Granite 3.0; Granite 3.1 may write the plain
string ``<tool_call>``) followed by a JSON list of ``{"name": ..., "arguments": {...}}``. The
Granite 3.0 chat template (HF ``ibm-granite/granite-3.0-8b-instruct``, also in llama.cpp's
``tests/test-chat-template.cpp``) writes the assistant's tool-call turn as
``'<|start_of_role|>assistant<|end_of_role|><|tool_call|>' + content + '<|end_of_text|>'``,
where content is the JSON list; vLLM's ``granite`` parser requires that list. Also accepted: one
call object per ``<|tool_call|>`` (the form of vLLM's ``examples/tool_chat_template_granite.jinja``,
``'<|tool_call|> ' + {...}|tojson`` per line), whitespace after the marker, and content before
``<|tool_call|>``. The plain ``<tool_call>`` is recognised only at the start of the reply and
only before a list or object (so Hermes-style text elsewhere is left alone); a closing
``</tool_call>`` after it is dropped. ``<|end_of_text|>`` is removed.

``granite_20b_fc``: the plain string ``<function_call>`` before each JSON call object, as vLLM's
``examples/tool_chat_template_granite_20b_fc.jinja`` writes the turn: ``'<function_call> ' +
{'name': ..., 'arguments': ...}|tojson`` per call, one per line, then ``<|endoftext|>``
(removed). Text before the first marker is content. The template's sentinel
``{"name": "no_function", "arguments": {}}`` is parsed as an ordinary call.

Neither format has ids. Content (which neither template writes next to calls) is rendered
before the calls, separated by a newline.
"""

from __future__ import annotations

import re
from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    Block,
    Grammar,
    Read,
    Reader,
    erase,
    fast_json_object,
    fast_json_payload,
    fast_repeat,
    fast_with_tail,
    json_call_array,
    json_call_object,
    space_ahead,
    text_ahead,
)
from tooletta_dialect_granite.models import MODELS

from .chat import Granite30Chat, Granite31Chat, Granite32Chat, Granite33Chat, Granite33HubChat

__all__ = [
    "FUNCTION_CALL",
    "TOOL_CALL",
    "TOOL_CALL_TEXT",
    "Granite20bFcDialect",
    "GraniteDialect",
    "register_dialects",
]

TOOL_CALL = "<|tool_call|>"
"""Granite 3.x's tool-call special token."""
TOOL_CALL_TEXT = "<tool_call>"
"""The plain-string marker Granite 3.1 may write instead (at the start of the reply)."""
FUNCTION_CALL = "<function_call>"
"""Granite-20B-FunctionCalling's marker, written before each call."""

_DETECT_TOKEN = re.compile(r"<\|tool_call\|>\s*[\[{]")
_DETECT_TEXT = re.compile(r"\s*<tool_call>\s*\[")
_DETECT_FC = re.compile(r"<function_call>\s*\{")
_END_OF_TEXT = "<|end_of_text|>"
_ENDOFTEXT = "<|endoftext|>"


def _obj(call: ToolCall) -> str:
    return f'{{"name": {to_json(call.name)}, "arguments": {to_json(call.arguments)}}}'


def read_payload(r: Reader) -> Read[None]:
    """A JSON list of call objects, or a single call object."""
    yield from r.ws()
    first = yield from r.peek()
    if first == "[":
        yield from json_call_array(r)
    elif first == "{":
        yield from json_call_object(r)
    else:
        raise r.fail("expected a JSON list or object of tool calls")


def read_text_marker(r: Reader) -> Read[None]:
    """After a leading ``<tool_call>``: the payload, and a ``</tool_call>`` if one follows."""
    yield from read_payload(r)
    i = yield from space_ahead(r)
    if i >= 0 and (yield from text_ahead(r, i, "</tool_call>")):
        r.pos += i + len("</tool_call>")


def read_function_call(r: Reader) -> Read[None]:
    """After ``<function_call>``: one call object."""
    yield from json_call_object(r)


class GraniteDialect(ScannerDialect):
    """Granite 3.0/3.1: ``<|tool_call|>[{"name": ..., "arguments": {...}}, ...]``."""

    info = DialectInfo(
        name="granite",
        aliases=("granite3",),
        priority=90,
        markers=(TOOL_CALL, TOOL_CALL_TEXT),
        description="Granite 3.0/3.1/3.3: <|tool_call|> (or a leading <tool_call>) then a JSON"
        " list of calls",
        source="HF ibm-granite/granite-3.0-8b-instruct chat template; vllm"
        " vllm/tool_parsers/granite_tool_parser.py, examples/tool_chat_template_granite.jinja",
    )
    grammar = Grammar(
        blocks=(
            Block(
                TOOL_CALL, read_payload, fast=fast_json_payload(before=(TOOL_CALL, _END_OF_TEXT))
            ),
            Block(
                TOOL_CALL_TEXT,
                read_text_marker,
                close="</tool_call>",
                at_start=True,
                fast=fast_with_tail(
                    fast_json_payload(before=("</tool_call>", TOOL_CALL, _END_OF_TEXT)),
                    "</tool_call>",
                ),
            ),
            erase(_END_OF_TEXT),
        )
    )
    content_separator = "\n"
    chat_formats = (
        Granite33Chat(),
        Granite33HubChat(),
        Granite32Chat(),
        Granite31Chat(),
        Granite30Chat(),
    )
    """The Granite 3.x conversation formats (:mod:`.chat`): Granite 3.3's in llama.cpp's edit
    (the default) and as the model repositories serve it, then Granite 3.2's, 3.1's and
    3.0's (their repositories' texts)."""

    def detect(self, text: str) -> bool:
        """``<|tool_call|>`` before a list or object, or a reply opening with ``<tool_call>[``."""
        return _DETECT_TOKEN.search(text) is not None or _DETECT_TEXT.match(text) is not None

    def check_content(self, content: str) -> None:
        """Refuse content holding a marker, or starting with ``<tool_call>``."""
        super().check_content(content)
        if content.lstrip(" \t\r\n").startswith(TOOL_CALL_TEXT):
            raise self.error("content starts with <tool_call>")

    def render_calls(self, calls: list[ToolCall]) -> str:
        """``<|tool_call|>`` and the calls as one JSON list."""
        return TOOL_CALL + "[" + ", ".join([_obj(c) for c in calls]) + "]"


class Granite20bFcDialect(ScannerDialect):
    """Granite-20B-FunctionCalling: ``<function_call> {"name": ..., "arguments": ...}`` per call."""

    info = DialectInfo(
        name="granite_20b_fc",
        priority=70,
        markers=(FUNCTION_CALL,),
        description="Granite-20B-FunctionCalling: <function_call> {json} per call, one per line",
        source="vllm-project/vllm examples/tool_chat_template_granite_20b_fc.jinja;"
        " vllm/tool_parsers/granite_20b_fc_tool_parser.py",
    )
    grammar = Grammar(
        blocks=(
            Block(
                FUNCTION_CALL,
                read_function_call,
                fast=fast_repeat(
                    fast_json_object(before=(FUNCTION_CALL, _ENDOFTEXT)), FUNCTION_CALL
                ),
            ),
            erase(_ENDOFTEXT),
        )
    )
    content_separator = "\n"

    def detect(self, text: str) -> bool:
        """``<function_call>`` followed by a JSON object."""
        return _DETECT_FC.search(text) is not None

    def render_calls(self, calls: list[ToolCall]) -> str:
        """``<function_call> {json}`` per call, one per line (the template's loop)."""
        return "\n".join(f"{FUNCTION_CALL} {_obj(c)}" for c in calls)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the granite and granite_20b_fc dialects."""
    for declared in (GraniteDialect(), Granite20bFcDialect(), *MODELS):
        register(declared)
