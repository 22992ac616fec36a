"""InternLM2 / InternLM2.5 / Intern-S1 tool calls: ``<|action_start|><|plugin|>`` action blocks.

Pinned from vLLM's ``examples/tool_chat_template_internlm2_tool.jinja``, whose assistant turn
writes the content, then for each call::

    <|action_start|><|plugin|>
    {"name": "get_weather", "arguments": {"city": "Paris"}}<|action_end|>

with no separator between the content and the first block or between blocks, then
``<|im_end|>``. The model itself writes ``"parameters"`` (SGLang's ``interns1`` detector,
vLLM's ``internlm`` parser); both keys are read. SGLang decodes with
``spaces_between_special_tokens``, which puts a space between the two opening tokens
(``<|action_start|> <|plugin|>``): any whitespace there is accepted. No ids, no reasoning
tags. ``<|action_start|><|interpreter|>`` (the code interpreter) is not a function call and
is reported as unparsed.

Rendering deviates from the template in one place: the template writes
``function.arguments|string``, a Python repr when arguments are a dict; we write JSON
(``tojson`` style), which is what the template produces for the OpenAI string form.
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
    fast_after,
    fast_json_call,
    fast_repeat,
    json_call_object,
)
from tooletta_dialect_internlm.models import MODELS

__all__ = ["InternLMDialect", "register_dialects"]

START = "<|action_start|>"
PLUGIN = "<|plugin|>"
END = "<|action_end|>"
_DETECT = re.compile(re.escape(START) + r"\s*(?:" + re.escape(PLUGIN) + r"|\Z)")
_ARGS_KEYS = ("parameters", "arguments")


def read_action(r: Reader) -> Read[None]:
    """``<|plugin|>`` then one JSON call object, then ``<|action_end|>`` (or the end)."""
    yield from r.ws()
    yield from r.expect(PLUGIN)
    yield from json_call_object(r, args_keys=_ARGS_KEYS, close=END)
    yield from r.close_or_end(END)


class InternLMDialect(ScannerDialect):
    """``<|action_start|><|plugin|>\\n{"name": ..., "parameters": {...}}<|action_end|>``."""

    info = DialectInfo(
        name="internlm",
        aliases=("interns1", "internlm2"),
        priority=90,
        markers=(START,),
        description="InternLM: <|action_start|><|plugin|>{json}<|action_end|> per call",
        source=(
            "vllm-project/vllm examples/tool_chat_template_internlm2_tool.jinja and "
            "vllm/tool_parsers/internlm2_tool_parser.py; sgl-project/sglang "
            "python/sglang/srt/function_call/internlm_detector.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(
                START,
                read_action,
                close=END,
                fast=fast_repeat(
                    fast_after(PLUGIN, fast_json_call(END, args_keys=_ARGS_KEYS)), START
                ),
            ),
            erase("<|im_end|>"),
        )
    )

    def detect(self, text: str) -> bool:
        """An ``<|action_start|>`` followed (after whitespace) by ``<|plugin|>``."""
        return _DETECT.search(text) is not None

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Each call as the InternLM2 tool template writes it, blocks back to back."""
        return "".join(
            f'{START}{PLUGIN}\n{{"name": {to_json(c.name)}, "arguments": '
            f"{to_json(c.arguments)}}}{END}"
            for c in calls
        )


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the internlm dialect."""
    for declared in (InternLMDialect(), *MODELS):
        register(declared)
