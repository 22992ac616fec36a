"""Qwen3-Coder XML tool calls: ``<tool_call>`` + ``<function=NAME>`` + ``<parameter=KEY>``.

Emitted by Qwen3-Coder (and Coder-Next), Qwen3.5/3.6/3.8, Xiaomi MiMo-V2, StepFun Step-3.5 and
NVIDIA Nemotron 3. Pinned from the Qwen3-Coder chat template (``chat_template.jinja``; the
assistant branch quoted in ``README.md``), whose assistant turn writes each call as::

    <tool_call>
    <function=get_weather>
    <parameter=city>
    Paris
    </parameter>
    <parameter=days>
    3
    </parameter>
    </function>
    </tool_call>

with the content (trimmed) and a blank line before the first call, and one newline between
calls. Values are raw text: strings verbatim, objects/arrays as ``tojson``, other scalars as
Python's ``str()`` (``True``, ``None``, ``3``). Parsing types them by the request's tool
schemas (no schema: JSON when the text is valid JSON, else the string; ``True``/``False``/
``None`` are understood). Reasoning is ``<think>``...``</think>`` (Qwen3.5+). The format has no
call ids.

Conversations (:mod:`.chat`): Qwen3-Coder, Qwen3.5, Nemotron 3 Nano and Step-3.5-Flash as their
templates write them. The variant dialects ``nemotron3`` and ``step35`` (:mod:`.variants`)
render those models' own spelling of the calls.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl
from tooletta.plugin import (
    FUNC,
    ChatFormat,
    Grammar,
    XmlTags,
    call_blocks,
    erase,
    reasoning_region,
    render_wrapped,
)
from tooletta_dialect_qwen.chat import Qwen3CoderChat, Qwen35Chat, Qwen35NothinkChat
from tooletta_dialect_qwen.coder_hf import Qwen3Coder2507Chat
from tooletta_dialect_qwen.models import MODELS

__all__ = ["Qwen3CoderDialect", "register_dialects"]

OPEN = "<tool_call>"
CLOSE = "</tool_call>"
TAGS = XmlTags(call_close=CLOSE, pad=True)

_DETECT = re.compile(
    r"<tool_call>[ \t\r\n]*<function="
    r"|<function=[^>\n<]{1,256}>[ \t\r\n]*(?:<parameter=|</function>)"
)


class Qwen3CoderDialect(ScannerDialect):
    """``<tool_call>\\n<function=NAME>\\n<parameter=KEY>\\nVALUE\\n</parameter>...``."""

    info = DialectInfo(
        name="qwen3_coder",
        aliases=("qwen3_xml", "qwen_xml", "qwen_coder", "step3p5", "mimo"),
        priority=60,
        markers=(OPEN, FUNC),
        description=(
            "Qwen3-Coder XML: <tool_call><function=NAME><parameter=KEY>VALUE</parameter>"
            "</function></tool_call>, values typed by the tool schema, <think> reasoning"
        ),
        source="Qwen/Qwen3-Coder chat_template.jinja; vLLM qwen3coder_tool_parser.py",
    )
    grammar = Grammar(
        blocks=(
            *call_blocks(OPEN, TAGS),
            reasoning_region("<think>", "</think>"),
            erase("<|im_end|>"),
            erase("<|endoftext|>"),
        )
    )
    content_separator = "\n\n"
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (
        Qwen3CoderChat(),
        Qwen35Chat(),
        Qwen3Coder2507Chat(),
        Qwen35NothinkChat(),
    )

    def detect(self, text: str) -> bool:
        """``<tool_call>`` followed by ``<function=``, or a bare ``<function=NAME>`` block with
        a ``<parameter=`` or ``</function>`` after it (never functionary's ``{json}`` body)."""
        return _DETECT.search(text) is not None

    call_joiner: ClassVar[str] = "\n"
    """Text between two calls (the variants spell the turn their own way)."""
    call_end: ClassVar[str] = ""
    """Text after every call."""

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Each call as the Qwen3-Coder template writes it, joined by one newline."""
        return render_wrapped(
            calls, OPEN, TAGS, self.info.name, joiner=self.call_joiner, end=self.call_end
        )


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the qwen3_coder dialect and its variants ``nemotron3`` (and its Super, Ultra
    and Cascade-2 names), ``qwen36``, ``step35`` and ``mimo_v2``."""
    from .variants import (
        MiMoV2Dialect,
        Nemotron3Dialect,
        Nemotron3SuperDialect,
        Nemotron3UltraDialect,
        NemotronCascade2Dialect,
        Qwen36Dialect,
        Step35Dialect,
    )

    dialects = (
        Qwen3CoderDialect(),
        Nemotron3Dialect(),
        Nemotron3SuperDialect(),
        Nemotron3UltraDialect(),
        NemotronCascade2Dialect(),
        Qwen36Dialect(),
        Step35Dialect(),
        MiMoV2Dialect(),
    )
    for declared in (*dialects, *MODELS):
        register(declared)
