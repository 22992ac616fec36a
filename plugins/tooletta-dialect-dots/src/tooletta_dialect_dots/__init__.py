"""dots.llm (rednote-hilab): ``<dots_function_call>`` blocks holding XML invokes or JSON.

Pinned from SGLang's ``DotsToolDetector`` (``python/sglang/srt/function_call/dots_detector.py``,
``--tool-call-parser dots``), whose canonical layout is::

    <dots_function_call>
    <invoke name="search">
    <parameter name="query">weather in Shanghai</parameter>
    </invoke>
    </dots_function_call>

A block holds one or more ``invoke`` elements (the invoke/parameter grammar MiniMax-M2 uses:
string values verbatim, other values as JSON, typed by the tool schema; without one, JSON when
valid, else the text), or a JSON call object ``{"name": ..., "arguments": ...}`` (or an array of
them). Several blocks may follow one another; text may come before, between and after them.
The dots.llm1 chat template was not available: rendering follows the detector's layout (all
calls in one block, XML form). The ``dots3`` variant (:mod:`.dots3`) writes dots3-note's
template form and declares its conversation format (:mod:`.chat`). Values are not stripped
(SGLang strips them): text is kept as written. The turn ends with ``<|endofresponse|>``
(llama.cpp's ``dots1`` chat format), which is removed.
"""

from __future__ import annotations

from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl
from tooletta.plugin import (
    Block,
    BlockReader,
    FastReader,
    Grammar,
    InvokeSyntax,
    Read,
    Reader,
    erase,
    fast_invokes,
    fast_json_payload,
    guarded,
    json_call_array,
    json_call_object,
    read_invokes,
    render_invoke,
    skip_ws,
)
from tooletta_dialect_dots.models import MODELS

__all__ = ["CLOSE", "OPEN", "DotsDialect", "block_readers", "register_dialects"]

OPEN = "<dots_function_call>"
CLOSE = "</dots_function_call>"
SYNTAX = InvokeSyntax()


def block_readers(syntax: InvokeSyntax) -> tuple[BlockReader, FastReader]:
    """The incremental and one-shot readers of a ``<dots_function_call>`` block whose invokes
    are spelled by ``syntax``: invokes, a JSON call object, or a JSON array."""

    @guarded
    def read_block(r: Reader) -> Read[None]:
        """One block: invokes, a JSON call object, or a JSON array."""
        yield from r.ws()
        first = yield from r.peek()
        if first not in ("{", "["):
            yield from read_invokes(r, syntax, CLOSE)
            return
        if first == "{":
            yield from json_call_object(r)  # incremental path only (see minimax_m1)
        else:
            yield from json_call_array(r)
        yield from r.close_or_end(CLOSE)

    invokes = fast_invokes(syntax, CLOSE)
    payload = fast_json_payload(CLOSE)

    def fast_block(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        """The one-shot shortcut of ``read_block``: a block of invokes, or a JSON body."""
        at = skip_ws(text, pos)
        if at < len(text) and text[at] in "{[":
            return payload(text, pos, tools, calls)
        return invokes(text, pos, tools, calls)

    return read_block, fast_block


read_block, fast_block = block_readers(SYNTAX)


class DotsDialect(ScannerDialect):
    """``<dots_function_call>`` + ``<invoke name=...>`` + ``<parameter name=...>V</parameter>``."""

    info = DialectInfo(
        name="dots",
        aliases=("dots1",),
        priority=90,
        markers=(OPEN,),
        description="dots.llm: <dots_function_call> with XML invoke/parameter elements or JSON",
        source="sgl-project/sglang python/sglang/srt/function_call/dots_detector.py",
    )
    grammar = Grammar(
        blocks=(Block(OPEN, read_block, close=CLOSE, fast=fast_block), erase("<|endofresponse|>"))
    )
    content_separator = "\n"

    def render_calls(self, calls: list[ToolCall]) -> str:
        """One block holding one ``invoke`` per call, as in the detector's docstring."""
        body = "".join(render_invoke(c.name, c.arguments, SYNTAX, self.error) + "\n" for c in calls)
        return f"{OPEN}\n{body}{CLOSE}"


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the dots dialect and its dots3 variant."""
    from .dots3 import Dots3Dialect

    for declared in (DotsDialect(), Dots3Dialect(), *MODELS):
        register(declared)
