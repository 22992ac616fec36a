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
The dots chat template was not available: rendering follows the detector's layout (all calls
in one block, XML form). Values are not stripped (SGLang strips them): text is kept as written.
The turn ends with ``<|endofresponse|>`` (llama.cpp's ``dots1`` chat format), which is removed.
"""

from __future__ import annotations

from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl
from tooletta.engine import (
    Block,
    Grammar,
    Read,
    Reader,
    erase,
    fast_json_payload,
    json_call_array,
    json_call_object,
)
from tooletta.toolkit.fastxml import skip_ws
from tooletta.toolkit.invoke import (
    InvokeSyntax,
    fast_invokes,
    guarded,
    read_invokes,
    render_invoke,
)

__all__ = ["DotsDialect", "register_dialects"]

OPEN = "<dots_function_call>"
CLOSE = "</dots_function_call>"
SYNTAX = InvokeSyntax()


@guarded
def read_block(r: Reader) -> Read[None]:
    """One ``<dots_function_call>`` block: invokes, a JSON call object, or a JSON array."""
    yield from r.ws()
    first = yield from r.peek()
    if first not in ("{", "["):
        yield from read_invokes(r, SYNTAX, CLOSE)
        return
    if first == "{":
        yield from json_call_object(r)  # incremental path only (see minimax_m1)
    else:
        yield from json_call_array(r)
    yield from r.ws()
    if not (yield from r.at_end()):
        yield from r.expect(CLOSE)


_fast_invokes = fast_invokes(SYNTAX, CLOSE)
_fast_json = fast_json_payload(CLOSE)


def fast_block(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_block`: a block of invokes, or a JSON body."""
    at = skip_ws(text, pos)
    if at < len(text) and text[at] in "{[":
        return _fast_json(text, pos, tools, calls)
    return _fast_invokes(text, pos, tools, calls)


class DotsDialect(ScannerDialect):
    """``<dots_function_call>`` + ``<invoke name=...>`` + ``<parameter name=...>V</parameter>``."""

    info = DialectInfo(
        name="dots",
        aliases=("dots1",),
        priority=90,
        markers=(OPEN,),
        models=("rednote-hilab/dots.llm*",),
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
    """Register the dots dialect."""
    register(DotsDialect())
