"""LongCat-Flash-Chat's spelling of the calls, as a variant dialect.

The base ``longcat`` dialect writes a line break between the content and the first call and
between calls (the layout of the LongCat model cards). The model's own chat template writes
neither: the content, then each ``<longcat_tool_call>\\n{json}\\n</longcat_tool_call>`` block
right after the previous one (as its tool instructions show: "placed consecutively").
``longcat_flash_chat`` parses like ``longcat`` (one parser reads both) and is picked by its
``models`` patterns or by name, never by detection.
"""

from __future__ import annotations

from typing import ClassVar

from tooletta import ToolCall
from tooletta.plugin import ChatFormat, variant_info

from . import LongCatDialect, call_block
from .chat import LongCatFlashChat

__all__ = ["LongCatFlashChatDialect"]


class LongCatFlashChatDialect(LongCatDialect):
    """``<longcat_tool_call>`` blocks right after the content and each other
    (LongCat-Flash-Chat's template)."""

    info = variant_info(
        LongCatDialect.info,
        "longcat_flash_chat",
        description="LongCat-Flash-Chat: <longcat_tool_call> blocks with no line break between",
        source="meituan-longcat/LongCat-Flash-Chat tokenizer_config.json chat_template",
    )
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (LongCatFlashChat(),)
    content_separator = ""

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Each call in the JSON form, one block right after the other."""
        return "".join(call_block(c) for c in calls)
