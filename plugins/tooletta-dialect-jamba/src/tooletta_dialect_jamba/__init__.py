"""``<tool_calls>[...]</tool_calls>`` tool calls: AI21 Jamba 1.5, Tencent Hunyuan-A13B, Apriel 1.5.

One tag pair around a JSON list of ``{"name": ..., "arguments": {...}[, "id": ...]}``.
Pinned from:

* Hunyuan-A13B (its ``tokenizer_config.json`` template, also vLLM's
  ``examples/tool_chat_template_hunyuan_a13b.jinja``): ``content +
  '<tool_calls>' + '[' + calls|join(', ') + ']' + '</tool_calls>' + '<|eos|>'``, each call
  ``'{"name": "' + name + '", "arguments": ' + arguments|tojson + '}'``. Its replies are wrapped
  as ``<think>...</think>`` then ``<answer>...</answer>`` (vLLM's ``hunyuan_a13b`` reasoning
  parser), and a plain reply may start with the template artifact ``助手：``
  (U+52A9 U+624B U+FF1A), which vLLM's ``hunyuan_a13b`` tool parser strips.
* Apriel 1.5 (llama.cpp ``models/templates/unsloth-Apriel-1.5.jinja``): ``content +
  '\\n<tool_calls>[' + ... + ']</tool_calls>' + '\\n<|end|>\\n'``, with ``, "id": "..."`` after the
  arguments on earlier turns; optional ``<thinking>...</thinking>`` reasoning.
* vLLM's ``jamba`` and ``hunyuan_a13b`` parsers (the AI21 Jamba template itself was not found).

Text outside the block is content; calls inside ``<think>`` / ``<thinking>`` are reasoning
text, as Hunyuan's parser treats them. ``<answer>``, ``</answer>``, ``<|eos|>``, ``<|end|>`` and
a leading ``助手：`` are removed. Ids are kept. The same tag pair around JSON *lines* is
MiniMax-M1's format (the ``minimax_m1`` dialect); detection claims only the list form.

Rendering writes the Hunyuan-A13B form (content directly before ``<tool_calls>``), adding
Apriel's ``"id"`` member to calls that have an id. The ``apriel`` variant (:mod:`.apriel`)
writes Apriel's form, a line break before ``<tool_calls>``, and declares the Apriel
conversation formats (:mod:`.chat`). ``jamba`` declares Hunyuan-A13B-Instruct's conversation
format (:mod:`.hunyuan_chat`).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, ClassVar

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    Block,
    ChatFormat,
    Grammar,
    Read,
    Reader,
    erase,
    fast_json_array,
    json_call_array,
    reasoning_region,
)
from tooletta_dialect_jamba.models import MODELS

from .hunyuan_chat import HunyuanA13bChat

__all__ = ["ARTIFACT", "CLOSE", "OPEN", "JambaDialect", "register_dialects"]

OPEN = "<tool_calls>"
"""Opens the list of calls."""
CLOSE = "</tool_calls>"
"""Closes the list of calls."""
ARTIFACT = "助手："
"""Hunyuan-A13B's template artifact ("assistant:" with a fullwidth colon), removed at the start."""

_DETECT = re.compile(r"<tool_calls>\s*\[")


def read_block(r: Reader) -> Read[None]:
    """A JSON list of call objects, then ``</tool_calls>`` (accepted missing at the end)."""
    yield from json_call_array(r, id_keys=("id",))
    yield from r.close_or_end(CLOSE)


def _obj(call: ToolCall) -> str:
    ident = "" if call.id is None else f', "id": {to_json(call.id)}'
    return f'{{"name": {to_json(call.name)}, "arguments": {to_json(call.arguments)}{ident}}}'


class JambaDialect(ScannerDialect):
    """``<tool_calls>[{json}, ...]</tool_calls>`` (Jamba 1.5, Hunyuan-A13B, Apriel 1.5)."""

    info = DialectInfo(
        name="jamba",
        aliases=("hunyuan_a13b",),
        priority=50,
        markers=(OPEN,),
        description="Jamba/Hunyuan-A13B/Apriel: <tool_calls>[{json}, ...]</tool_calls>,"
        " <think>/<thinking> reasoning",
        source="vllm examples/tool_chat_template_hunyuan_a13b.jinja,"
        " vllm/tool_parsers/jamba_tool_parser.py, hunyuan_a13b_tool_parser.py;"
        " ggml-org/llama.cpp models/templates/unsloth-Apriel-1.5.jinja",
    )
    grammar = Grammar(
        blocks=(
            Block(OPEN, read_block, close=CLOSE, fast=fast_json_array(CLOSE, id_keys=("id",))),
            reasoning_region("<think>", "</think>"),
            reasoning_region("<thinking>", "</thinking>"),
            erase("<answer>"),
            erase("</answer>"),
            erase("<|eos|>"),
            erase("<|end|>"),
            dataclasses.replace(erase(ARTIFACT), at_start=True),
        )
    )
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (HunyuanA13bChat(),)

    def detect(self, text: str) -> bool:
        """``<tool_calls>`` followed by a JSON list (JSON lines belong to MiniMax-M1)."""
        return _DETECT.search(text) is not None

    def check_content(self, content: str) -> None:
        """Refuse content holding a marker, or starting with the ``助手：`` artifact."""
        super().check_content(content)
        if ARTIFACT in content and content.lstrip(" \t\r\n").startswith(ARTIFACT):
            raise self.error(f"content starts with {ARTIFACT!r}, which parsing removes")

    def render_calls(self, calls: list[ToolCall]) -> str:
        """``<tool_calls>[...]</tool_calls>``, each call with ``"id"`` when it has one."""
        return OPEN + "[" + ", ".join([_obj(c) for c in calls]) + "]" + CLOSE


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the jamba dialect and its apriel variant."""
    from .apriel import AprielDialect

    for declared in (JambaDialect(), AprielDialect(), *MODELS):
        register(declared)
