"""Kimi K2's markers and call ids, shared by the ``kimi_k2`` dialect and the chat formats."""

from __future__ import annotations

import re

from tooletta import ToolCall

__all__ = [
    "ARG_BEGIN",
    "CALL_BEGIN",
    "CALL_END",
    "IM_END",
    "SECTION_BEGIN",
    "SECTION_BEGIN_1",
    "SECTION_END",
    "SECTION_END_1",
    "kimi_id",
    "split_id",
]

SECTION_BEGIN = "<|tool_calls_section_begin|>"
SECTION_END = "<|tool_calls_section_end|>"
SECTION_BEGIN_1 = "<|tool_call_section_begin|>"
SECTION_END_1 = "<|tool_call_section_end|>"
CALL_BEGIN = "<|tool_call_begin|>"
ARG_BEGIN = "<|tool_call_argument_begin|>"
CALL_END = "<|tool_call_end|>"
IM_END = "<|im_end|>"
_ID = re.compile(r"(?:functions\.)?(.+):(\d+)", re.S)


def split_id(header: str) -> str:
    """The tool name in a Kimi call header: ``functions.mcp.search:2`` gives ``mcp.search``."""
    m = _ID.fullmatch(header)
    name = m.group(1) if m else header
    return name[len("functions.") :] if not m and name.startswith("functions.") else name


def kimi_id(call: ToolCall, index: int) -> str:
    """The call's id when it is a Kimi id naming this call's tool, else ``functions.NAME:IDX``."""
    call_id = call.id
    if call_id is not None:
        # functions.NAME:IDX read without the regular expression (its answer for such an id)
        c = call_id.rfind(":")
        if (
            c > 10
            and call_id.startswith("functions.")
            and call_id[c + 1 :].isdecimal()
            and call_id[10:c] == call.name
        ):
            return call_id
        m = _ID.fullmatch(call_id)  # split_id's answer for a matching id is its group 1
        if m is not None and m.group(1) == call.name:
            return call_id
    return f"functions.{call.name}:{index}"
