"""Hermes / Qwen tool calls: one ``<tool_call>`` JSON block per call.

Emitted by Hermes 2 Pro / Hermes 3, Qwen2.5, Qwen3 (non-coder), QwQ, MiMo-VL, Granite 4,
ERNIE 4.5, Arcee Trinity and many fine-tunes. Pinned from the Qwen3 chat template (HF
``Qwen/Qwen3-8B`` ``tokenizer_config.json``), whose assistant turn renders each call as::

    <tool_call>
    {"name": "get_weather", "arguments": {"city": "Paris"}}
    </tool_call>

calls joined by one newline, the first preceded by a newline when there is content;
arguments through ``tojson`` (``", "`` / ``": "`` separators, non-ASCII kept). Reasoning is
``<think>`` ... ``</think>``. The format carries no ids. Parsing also accepts ``parameters``
for ``arguments``, arguments given as a JSON string, any whitespace inside the tags, and a
final block whose ``</tool_call>`` never came (the object itself must be complete).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    Block,
    Grammar,
    Read,
    Reader,
    erase,
    fast_json_call,
    json_call_object,
    plain_render,
    reasoning_region,
)
from tooletta.plugin import quote_json_string as json_string
from tooletta_dialect_hermes.chat import (
    Hermes2ProChat,
    MiMoVLChat,
    Qwen3Chat,
    Qwen25Chat,
    Qwen25OneMillionChat,
    QwQChat,
)
from tooletta_dialect_hermes.chat_granite import Granite40Chat, Granite41Chat
from tooletta_dialect_hermes.chat_qwen3_2507 import Qwen3Instruct2507Chat, Qwen3Thinking2507Chat
from tooletta_dialect_hermes.models import MODELS

__all__ = ["HermesDialect", "register_dialects"]

OPEN = "<tool_call>"
CLOSE = "</tool_call>"
_DETECT = re.compile(re.escape(OPEN) + r"\s*(?:\{|\Z)")


def read_call(r: Reader) -> Read[None]:
    """One ``<tool_call>`` block: a JSON call object, then the closing tag (or the end)."""
    yield from json_call_object(r, close=CLOSE)
    yield from r.close_or_end(CLOSE)


class HermesDialect(ScannerDialect):
    """``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``, one block per call."""

    info = DialectInfo(
        name="hermes",
        aliases=(
            "qwen",
            "qwen25",
            "qwen2_5",
            "qwen3",
            "nous",
            "nous-hermes",
            "granite4",
            "ernie45",
            "trinity",
        ),
        priority=40,
        markers=(OPEN,),
        description="Hermes/Qwen: <tool_call>{json}</tool_call> per call, <think> reasoning",
        source="Qwen/Qwen3-8B and NousResearch/Hermes-2-Pro chat templates",
    )
    grammar = Grammar(
        blocks=(
            Block(OPEN, read_call, close=CLOSE, fast=fast_json_call(CLOSE)),
            reasoning_region("<think>", "</think>"),
            erase("<|im_end|>"),
        )
    )
    content_separator = "\n"
    reasoning_markup = ("<think>\n", "\n</think>\n\n")
    chat_formats = (
        Qwen3Chat(),
        Qwen3Instruct2507Chat(),
        Qwen3Thinking2507Chat(),
        Qwen25Chat(),
        Qwen25OneMillionChat(),
        QwQChat(),
        MiMoVLChat(),
        Hermes2ProChat(),
        Granite40Chat(),
        Granite41Chat(),
    )

    def detect(self, text: str) -> bool:
        """A ``<tool_call>`` followed (after whitespace) by a JSON object, or ending the text."""
        return _DETECT.search(text) is not None

    @plain_render  # ScannerDialect.render's text, without its copy of a list of calls
    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """``content``, then (after a newline) the calls; content holding a marker is refused
        (:meth:`check_content`)."""
        self.check_content(content)
        if not calls:
            return content
        body = self.render_calls(calls if type(calls) is list else list(calls))
        return content + self.content_separator + body if content and body else content + body

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Each call as the Qwen3 template writes it, joined by newlines."""
        out = []
        for c in calls:
            name = c.name  # json_string(name) inline: an identifier is only quoted
            if type(name) is str and name.isidentifier():
                name = '"' + name + '"'
            else:
                name = json_string(name)
            out.append(_CALL_HEAD + name + _CALL_ARGUMENTS + to_json(c.arguments) + _CALL_TAIL)
        return "\n".join(out)


_CALL_HEAD = OPEN + '\n{"name": '
_CALL_ARGUMENTS = ', "arguments": '
_CALL_TAIL = "}\n" + CLOSE


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the hermes dialect."""
    for declared in (HermesDialect(), *MODELS):
        register(declared)
