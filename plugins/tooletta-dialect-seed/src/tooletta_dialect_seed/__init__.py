"""ByteDance Seed-OSS tool calls: ``<seed:tool_call>`` + ``<function=NAME>`` + ``<parameter=KEY>``.

Pinned from the Seed-OSS chat template (``ByteDance-Seed/Seed-OSS-36B-Instruct``
``chat_template.jinja``, copied in llama.cpp as ``models/templates/ByteDance-Seed-OSS.jinja``),
whose assistant turn writes each call as::

    <seed:tool_call>
    <function=get_weather>
    <parameter=city>Paris</parameter>
    <parameter=days>3</parameter>
    </function>
    </seed:tool_call>

after ``<seed:think>REASONING</seed:think>`` and the trimmed content followed by a blank line;
calls are joined by one newline and the turn ends with ``<seed:eos>`` (stripped). It is the
Qwen3-Coder grammar in another wrapper, but values carry no newline padding.

Values are raw text typed by the request's tool schemas (no schema: JSON when valid, else the
string; ``True``/``False``/``None`` understood). Parsing removes one framing newline on each
side of a value, as vLLM's ``seed_oss`` parser does; rendering writes one extra newline around
a value that starts or ends with a newline, so such values read back unchanged.

Deviation from the template: it writes every non-string value with ``| string`` (Python
``str()``), so an object comes out as ``{'k': True}``. That text only types back when the
schema says ``object``; this renderer writes objects and arrays as JSON instead (as the
Qwen3-Coder template does), which reads back under any schema. Scalars keep the template's
``True``/``None``/``3``. Parsing accepts both. The format has no call ids.
"""

from __future__ import annotations

from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl
from tooletta.plugin import (
    Grammar,
    XmlTags,
    call_blocks,
    erase,
    reasoning_region,
    render_wrapped,
)
from tooletta_dialect_seed.models import MODELS

__all__ = ["SeedOssDialect", "register_dialects"]

OPEN = "<seed:tool_call>"
CLOSE = "</seed:tool_call>"
TAGS = XmlTags(call_close=CLOSE, pad=False)


class SeedOssDialect(ScannerDialect):
    """``<seed:tool_call>\\n<function=NAME>\\n<parameter=KEY>VALUE</parameter>...``."""

    info = DialectInfo(
        name="seed_oss",
        priority=90,
        markers=(OPEN,),
        description=(
            "Seed-OSS: <seed:tool_call><function=NAME><parameter=KEY>VALUE</parameter>"
            "</function></seed:tool_call>, values typed by the tool schema, <seed:think> reasoning"
        ),
        source=(
            "ByteDance-Seed/Seed-OSS-36B-Instruct chat_template.jinja; vLLM seed_oss_tool_parser.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            *call_blocks(OPEN, TAGS),
            reasoning_region("<seed:think>", "</seed:think>"),
            erase("<seed:eos>"),
        )
    )
    content_separator = "\n\n"

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Each call as the Seed-OSS template writes it, joined by one newline."""
        return render_wrapped(calls, OPEN, TAGS, self.info.name)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the seed_oss dialect and its seed_oss_pystr variant."""
    from .pystr import SeedOssPyStrDialect

    for declared in (SeedOssDialect(), SeedOssPyStrDialect(), *MODELS):
        register(declared)
