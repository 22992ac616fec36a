"""dots3-note's spelling of the calls, as a variant dialect.

The base ``dots`` dialect writes SGLang's detector layout: all calls in one
``<dots_function_call>`` block, one line per parameter, values bare, a line break between the
content and the block. The dots3-note template writes each call in a block of its own,
``\\n<dots_function_call>\\n<invoke name="F">`` then ``\\n<parameter name="K">\\nV\\n</parameter>``
per argument (strings verbatim, other values as ``tojson``) and
``\\n</invoke>\\n</dots_function_call>``, right after the content. ``dots3`` reads values without
that framing line break on each side (``dots`` keeps values as written), and is picked by its
``models`` patterns or by name, never by detection.
"""

from __future__ import annotations

from typing import ClassVar

from tooletta import ToolCall
from tooletta.plugin import (
    Block,
    ChatFormat,
    Grammar,
    InvokeSyntax,
    erase,
    quote_attribute,
    variant_info,
)
from tooletta.plugin import invoke_render_value as render_value

from . import CLOSE, OPEN, DotsDialect, block_readers
from .chat import Dots3Chat

__all__ = ["Dots3Dialect"]

SYNTAX = InvokeSyntax(trim="newline")
"""The invoke grammar with one framing line break around each value."""
_read_block, _fast_block = block_readers(SYNTAX)


class Dots3Dialect(DotsDialect):
    """One ``<dots_function_call>`` block per call, values between line breaks (dots3-note)."""

    info = variant_info(
        DotsDialect.info,
        "dots3",
        aliases=("dots3_note",),
        description="dots3-note: one <dots_function_call> block per call, values between newlines",
        source="dots-studio/dots3-note-prev chat_template.jinja",
    )
    grammar = Grammar(
        blocks=(
            Block(OPEN, _read_block, close=CLOSE, fast=_fast_block),
            erase("<|endofresponse|>"),
        )
    )
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (Dots3Chat(),)
    content_separator = ""

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Each call in a block of its own, a line break before it."""
        error = self.error
        parts = []
        for call in calls:
            name = quote_attribute(call.name, False)
            if name is None:
                raise error(f"the tool name {call.name!r} cannot be written in an attribute")
            parts.append(_CALL_OPEN + name + '">')
            for key, value in call.arguments.items():
                qkey = quote_attribute(key, False)
                if qkey is None:
                    raise error(f"the argument name {key!r} cannot be written in an attribute")
                body = render_value(value, "</parameter>", error)
                if body.endswith("\r"):  # '\r' + the framing '\n' would read back as one break
                    raise error(f"the value of {key!r} ends with a carriage return")
                parts.append('\n<parameter name="' + qkey + '">\n' + body + "\n</parameter>")
            parts.append(_CALL_CLOSE)
        return "".join(parts)


_CALL_OPEN = f'\n{OPEN}\n<invoke name="'
_CALL_CLOSE = f"\n</invoke>\n{CLOSE}"
