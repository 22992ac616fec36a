"""ChatML pieces shared by the formats of ChatML templates (Qwen, Hermes, Nemotron, Step...).

ChatML writes every turn as ``<|im_start|>ROLE\\n`` + body + ``<|im_end|>\\n``. The Qwen
templates and their descendants also share a history rule: reasoning is kept only after the
last user *query*, where a user message whose (stripped) content is wrapped in
``<tool_response>`` ... ``</tool_response>`` carries tool output and is no query.
"""

from __future__ import annotations

from .declare import last_query
from .declare_layout import Turn

__all__ = ["IM_END", "IM_START", "chatml", "last_query"]

IM_START = "<|im_start|>"
"""The ChatML token opening a turn."""
IM_END = "<|im_end|>"
"""The ChatML token ending a turn (the end-of-turn token of the assistant)."""


def chatml(role: str) -> Turn:
    """A ChatML turn: ``<|im_start|>ROLE\\n`` ... ``<|im_end|>\\n``."""
    return Turn(f"{IM_START}{role}\n", f"{IM_END}\n")
