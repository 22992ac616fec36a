"""Kimi K2 tool calls: a section of calls whose ids carry the tool name.

Emitted by Kimi K2 (-Instruct, -Instruct-0905, -Thinking), K2.5, K2.6, K2.7-Code and
Kimi-Linear. Pinned from the K2-Thinking chat template (llama.cpp
``models/templates/moonshotai-Kimi-K2-Thinking.jinja``, macro ``render_toolcalls``), which
writes the assistant turn with no whitespace at all (one line, wrapped here)::

    <think>Need weather.</think>Let me check.<|tool_calls_section_begin|>
    <|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}
    <|tool_call_end|><|tool_calls_section_end|><|im_end|>

Each call header is the Kimi-native id ``functions.NAME:IDX``; the name is the id without the
``functions.`` prefix and the ``:IDX`` suffix (names may hold ``.`` and ``-``). Ids are kept as
``ToolCall.id`` and written back as they are; a call without a valid Kimi id for its name gets
``functions.NAME:IDX`` with IDX its position in the message. Arguments are JSON and stream
verbatim. Accepted too: the singular ``<|tool_call_section_begin|>`` spelling some checkpoints
emit, whitespace around the header, a header without the ``functions.`` prefix. A section
opened before ``</think>`` ends the reasoning (the model may go straight from thinking to its
calls). ``<|im_end|>`` is removed, also from arguments (a truncated turn never leaks it into
argument fragments). Rendering writes the K2-Instruct turn: no empty
``<think></think>`` and no ``<|im_end|>``.
"""

from __future__ import annotations

from tooletta import DialectInfo, ScannerDialect, ToolCall, to_json
from tooletta.plugin import (
    Grammar,
    erase,
    fast_section,
    header_call_block,
    header_safe,
    section,
    think_region,
)

from .chat import (
    KimiK2Chat,
    KimiK2Instruct0905Chat,
    KimiK2ThinkingChat,
    KimiK25Chat,
    KimiK26Chat,
    KimiK27CodeChat,
    KimiLinearChat,
)
from .k2ids import (
    ARG_BEGIN,
    CALL_BEGIN,
    CALL_END,
    IM_END,
    SECTION_BEGIN,
    SECTION_BEGIN_1,
    SECTION_END,
    SECTION_END_1,
    kimi_id,
    split_id,
)

__all__ = ["KimiK2Dialect", "kimi_id", "split_id"]

_MARKERS = (SECTION_END, SECTION_END_1, CALL_BEGIN, ARG_BEGIN, CALL_END)  # each starts "<|"


def _header(text: str) -> tuple[str, str | None]:
    """The name and id of a call header (``functions.NAME:IDX``: the id, NAME the name)."""
    call_id = text.strip()
    # the usual functions.NAME:IDX without the regular expression (same result)
    c = call_id.rfind(":")
    if c > 10 and call_id.startswith("functions."):
        idx = call_id[c + 1 :]
        if idx.isdigit() and idx.isascii():
            return call_id[10:c], call_id
    return split_id(call_id), call_id


CALL = header_call_block(
    CALL_BEGIN,
    ARG_BEGIN,
    CALL_END,
    (ARG_BEGIN, CALL_END, CALL_BEGIN, SECTION_END),
    _header,
    IM_END,
    no_sep="expected <|tool_call_argument_begin|> after the call id",
    no_name="tool call has no name",
)
"""One call, ``<|tool_call_begin|>`` + the id + ``<|tool_call_argument_begin|>`` + the JSON
arguments + ``<|tool_call_end|>``."""
_FRAMES = (SECTION_END, SECTION_END_1, SECTION_BEGIN, SECTION_BEGIN_1)
_fast_section = fast_section(CALL_BEGIN, CALL, _FRAMES)


class KimiK2Dialect(ScannerDialect):
    """``<|tool_calls_section_begin|>`` sections of ``functions.NAME:IDX`` calls."""

    info = DialectInfo(
        name="kimi_k2",
        aliases=("kimik2", "moonshot_k2"),
        priority=90,
        markers=(SECTION_BEGIN, SECTION_BEGIN_1, CALL_BEGIN),
        description=(
            "Kimi K2: <|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:IDX"
            "<|tool_call_argument_begin|>{json}<|tool_call_end|>, ids kept"
        ),
        source=(
            "ggml-org/llama.cpp models/templates/moonshotai-Kimi-K2-Thinking.jinja "
            "(render_toolcalls); vllm kimi_k2_tool_parser.py, sglang kimik2_detector.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            CALL,
            section(SECTION_BEGIN, _fast_section),
            section(SECTION_END, _fast_section),
            section(SECTION_BEGIN_1, _fast_section),
            section(SECTION_END_1, _fast_section),
            think_region("<think>", "</think>", ends=(SECTION_BEGIN, SECTION_BEGIN_1)),
            erase(IM_END),
        )
    )

    chat_formats = (
        KimiK2Chat(),
        KimiK2Instruct0905Chat(),
        KimiK2ThinkingChat(),
        KimiK25Chat(),
        KimiK26Chat(),
        KimiK27CodeChat(),
        KimiLinearChat(),
    )

    def detect(self, text: str) -> bool:
        """A section marker, or a call header with its argument marker."""
        return SECTION_BEGIN in text or SECTION_BEGIN_1 in text or ARG_BEGIN in text

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The section as the template's ``render_toolcalls`` writes it."""
        parts = []
        for i, c in enumerate(calls):
            name = c.name  # header_safe's answer at a glance for a name without "<|"
            if (not name or "<|" in name or name != name.strip()) and not header_safe(
                name, _MARKERS
            ):
                raise self.error(f"cannot write the tool name {c.name!r}")
            args = to_json(c.arguments)  # json_without(arguments, (IM_END,)) inline
            if "<" in args and IM_END in args:  # parsing removes it
                args = args.replace("<", "\\u003c")
            parts.append(CALL_BEGIN + kimi_id(c, i) + ARG_BEGIN + args + CALL_END)
        return SECTION_BEGIN + "".join(parts) + SECTION_END
