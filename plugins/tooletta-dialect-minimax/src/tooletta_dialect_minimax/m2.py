"""MiniMax-M2 (M2, M2.1, M2.5): ``<minimax:tool_call>`` wrapping XML ``invoke`` elements.

Pinned from the MiniMax-M2 chat template (ggml-org/llama.cpp
``models/templates/unsloth-MiniMax-M2.jinja``) and MiniMax's own tool-calling guide
(``MiniMax-AI/MiniMax-M2.5`` ``docs/tool_calling_guide.md``). The assistant turn is::

    <think>
    reasoning
    </think>

    Let me check.
    <minimax:tool_call>
    <invoke name="get_weather">
    <parameter name="city">Paris</parameter>
    <parameter name="days">3</parameter>
    </invoke>
    </minimax:tool_call>[e~[

All calls of a turn share one wrapper. String values are written verbatim, others with
``tojson``; names are not escaped. Values are typed by the request's tool schema (no schema:
JSON when valid, else the text). Unlike vLLM's and MiniMax's reference parsers, values are not
stripped: the template writes them verbatim, so a value's own leading or trailing whitespace
(a file's final newline) survives.
"""

from __future__ import annotations

from collections.abc import Sequence

from tooletta import DialectInfo, ScannerDialect, ToolCall
from tooletta.plugin import (
    Block,
    Grammar,
    InvokeSyntax,
    Read,
    Reader,
    erase,
    fast_invokes,
    guarded,
    plain_render_without_calls,
    read_invokes,
    reasoning_region,
    render_invoke,
)

from .chat import MinimaxM2Chat
from .named import MinimaxM2HubChat, MinimaxM21Chat, MinimaxM25Chat, MinimaxM27Chat

__all__ = ["MinimaxM2Dialect"]

OPEN = "<minimax:tool_call>"
CLOSE = "</minimax:tool_call>"
SYNTAX = InvokeSyntax()


@guarded
def read_block(r: Reader) -> Read[None]:
    """The invokes of one ``<minimax:tool_call>`` wrapper."""
    yield from read_invokes(r, SYNTAX, CLOSE)


class MinimaxM2Dialect(ScannerDialect):
    """``<minimax:tool_call>`` + ``<invoke name=...>`` + ``<parameter name=...>V</parameter>``."""

    info = DialectInfo(
        name="minimax_m2",
        priority=90,
        markers=(OPEN,),
        description="MiniMax-M2: <minimax:tool_call> with XML invoke/parameter elements",
        source=(
            "ggml-org/llama.cpp models/templates/unsloth-MiniMax-M2.jinja; "
            "MiniMax-AI/MiniMax-M2.5 docs/tool_calling_guide.md; "
            "vllm/tool_parsers/minimax_m2_tool_parser.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(OPEN, read_block, close=CLOSE, fast=fast_invokes(SYNTAX, CLOSE)),
            reasoning_region("<think>", "</think>"),
            erase("[e~["),
        )
    )
    content_separator = "\n"
    chat_formats = (
        MinimaxM2Chat(),
        MinimaxM2HubChat(),
        MinimaxM21Chat(),
        MinimaxM25Chat(),
        MinimaxM27Chat(),
    )

    @plain_render_without_calls  # no calls: check_content, then the content
    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """``content``, then the wrapper after a newline (the template writes the newline
        even when there is no content)."""
        self.check_content(content)
        if not calls:
            return content
        return content + "\n" + self.render_calls(list(calls))

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The template's wrapper holding one ``invoke`` per call."""
        body = "".join(render_invoke(c.name, c.arguments, SYNTAX, self.error) + "\n" for c in calls)
        return f"{OPEN}\n{body}{CLOSE}"
