"""MiniMax-M1 / MiniMax-Text-01: ``<tool_calls>`` holding one JSON call object per line.

Pinned from vLLM's ``examples/tool_chat_template_minimax_m1.jinja``, whose assistant turn is::

    <tool_calls>
    {"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}
    </tool_calls><end_of_sentence>

(each call ``'{"name": "' + name + '", "arguments": ' + arguments|tojson + '}\\n'``), and
vLLM's ``minimax_tool_parser.py`` (``--tool-call-parser minimax``): the closing tag is optional,
``<tool_calls>`` inside ``<think>`` is reasoning, not a call. Jamba writes ``<tool_calls>`` too,
but with a JSON array, so detection here needs a ``{`` after the tag.
"""

from __future__ import annotations

from tooletta import DialectInfo, ScannerDialect, ToolCall, to_json
from tooletta.plugin import (
    Block,
    Grammar,
    Read,
    Reader,
    erase,
    fast_json_lines,
    guarded,
    json_call_object,
    reasoning_region,
)

from .chat_m1 import MinimaxM1_80kChat, MinimaxM1Chat

__all__ = ["MinimaxM1Dialect"]

OPEN = "<tool_calls>"
CLOSE = "</tool_calls>"


@guarded
def read_calls(r: Reader) -> Read[None]:
    """JSON call objects, one per line, up to ``</tool_calls>`` (or the end of the text).

    A malformed line fails the rest of the block (kept as unparsed); calls before it stay.
    """
    while True:
        yield from r.ws()
        if (yield from r.accept(CLOSE)):
            return
        if (yield from r.at_end()):
            return
        if (yield from r.peek()) != "{":
            raise r.fail("expected a JSON call object or '</tool_calls>'")
        # no ``close``: core's one-step fast path reports lone surrogates differently from
        # the incremental path (msgspec raises UnicodeEncodeError there), so parse and stream
        # would disagree on the error text
        yield from json_call_object(r)


class MinimaxM1Dialect(ScannerDialect):
    """``<tool_calls>\\n{"name": ..., "arguments": {...}}\\n...</tool_calls>``, JSON lines."""

    info = DialectInfo(
        name="minimax_m1",
        aliases=("minimax",),
        priority=45,
        markers=(OPEN,),
        description="MiniMax-M1: <tool_calls> with one JSON call object per line",
        source=(
            "vllm-project/vllm examples/tool_chat_template_minimax_m1.jinja; "
            "vllm/tool_parsers/minimax_tool_parser.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(OPEN, read_calls, close=CLOSE, fast=fast_json_lines(CLOSE)),
            reasoning_region("<think>", "</think>"),
            erase("<end_of_sentence>"),
        )
    )
    content_separator = "\n"
    chat_formats = (MinimaxM1Chat(), MinimaxM1_80kChat())

    def detect(self, text: str) -> bool:
        """A ``<tool_calls>`` followed (after whitespace) by a JSON object, not an array."""
        at = text.find(OPEN)
        while at >= 0:
            rest = text[at + len(OPEN) : at + len(OPEN) + 64].lstrip()
            if rest.startswith("{"):
                return True
            at = text.find(OPEN, at + 1)
        return False

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The template's block: one ``{"name": ..., "arguments": ...}`` line per call."""
        lines = "".join(
            f'{{"name": {to_json(c.name)}, "arguments": {to_json(c.arguments)}}}\n' for c in calls
        )
        return f"{OPEN}\n{lines}{CLOSE}"
