"""Upstage Solar Open (100B): JSON arguments between ``<|tool_call:*|>`` special tokens.

The template's assistant turn (after the generation prompt ``<|begin|>assistant``)::

    <|think|>REASONING<|end|><|begin|>assistant<|tool_calls|>
    <|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{json}<|tool_call:end|>...<|calls|>

(one line here, none in the text), or ``<|content|>CONTENT<|end|>`` for a reply without
calls. Each call carries its id, a string the template's instructions ask to be 10 lowercase
letters or digits. Parsing removes ``<|tool_calls|>``, ``<|calls|>``, ``<|content|>``,
``<|end|>`` and ``<|begin|>assistant``; ``<|think|>`` ... ``<|end|>`` is reasoning.
Rendering writes the content, then the section; a call without an id gets a stable one of
the template's shape (hashed from its position, name and arguments).

Pinned from llama.cpp ``models/templates/upstage-Solar-Open-100B.jinja`` (the
``render_tool_instruction`` and assistant blocks) and llama.cpp's Solar Open patch in
``common/chat-diff-analyzer.cpp`` (assistant start ``<|begin|>assistant``).
"""

from __future__ import annotations

from tooletta import DialectInfo, ScannerDialect, ToolCall
from tooletta.plugin import (
    Grammar,
    erase,
    fast_section,
    header_call_block,
    header_safe,
    json_without,
    section,
    think_region,
)

from .chat import SolarOpenChat
from .ids import call_id
from .tokens import (
    ARGS,
    ASSISTANT,
    BEGIN,
    CALL_BEGIN,
    CALL_END,
    CALLS,
    CALLS_END,
    CONTENT,
    END,
    NAME,
    THINK,
)

__all__ = ["SolarOpenDialect", "call_id"]


_MARKERS = (CALLS, CALLS_END, CALL_BEGIN, NAME, ARGS, CALL_END, THINK, CONTENT, END, BEGIN)


def _header(text: str) -> tuple[str, str | None]:
    """``ID<|tool_call:name|>NAME`` as ``(name, id)``; no name marker: no name."""
    call_id, sep, name = text.partition(NAME)
    return (name.strip(), call_id.strip()) if sep else ("", None)


CALL = header_call_block(
    CALL_BEGIN,
    ARGS,
    CALL_END,
    (ARGS, CALL_END, CALL_BEGIN, CALLS_END),
    _header,
    END,
    no_sep=f"expected {ARGS!r} after the call header",
    no_name=f"a tool call without {NAME!r} and a name",
)
"""One call, ``<|tool_call:begin|>`` through ``<|tool_call:end|>``."""
_fast_section = fast_section(CALL_BEGIN, CALL, (CALLS, CALLS_END))


class SolarOpenDialect(ScannerDialect):
    """Solar Open: ``<|tool_calls|>`` + ``<|tool_call:begin|>ID<|tool_call:name|>NAME
    <|tool_call:args|>{json}<|tool_call:end|>`` per call + ``<|calls|>``."""

    info = DialectInfo(
        name="solar_open",
        aliases=("solar_open_100b",),
        priority=90,
        markers=(CALL_BEGIN,),
        description=(
            "Upstage Solar Open 100B: <|tool_call:begin|>ID<|tool_call:name|>NAME"
            "<|tool_call:args|>{json}<|tool_call:end|>"
        ),
        source="ggml-org/llama.cpp models/templates/upstage-Solar-Open-100B.jinja",
    )
    grammar = Grammar(
        blocks=(
            CALL,
            section(CALLS, _fast_section),
            section(CALLS_END, _fast_section),
            think_region(THINK, END),
            erase(ASSISTANT),
            erase(CONTENT),
            erase(END),
        )
    )
    reasoning_markup = (THINK, END + ASSISTANT)
    chat_formats = (SolarOpenChat(),)

    def _call(self, call: ToolCall, position: int) -> str:
        name, cid = call.name, call_id(call, position)
        for what, text in (("tool name", name), ("call id", cid)):
            if not header_safe(text, _MARKERS):
                raise self.error(f"cannot write the {what} {text!r}")
        args = json_without(call.arguments, (END,))  # parsing removes it
        return f"{CALL_BEGIN}{cid}{NAME}{name}{ARGS}{args}{CALL_END}"

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The section as the template writes it: calls one after another, no separator."""
        return CALLS + "".join([self._call(c, i) for i, c in enumerate(calls)]) + CALLS_END
