"""ChatML pieces shared by the formats of ChatML templates (Qwen, Hermes, Nemotron, Step...).

ChatML writes every turn as ``<|im_start|>ROLE\\n`` + body + ``<|im_end|>\\n``. The Qwen
templates and their descendants also share a history rule: reasoning is kept only after the
last user *query*, where a user message whose (stripped) content is wrapped in
``<tool_response>`` ... ``</tool_response>`` carries tool output and is no query.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..ir import Message
from .format import Turn
from .messages import text_of

__all__ = ["IM_END", "IM_START", "chatml", "last_query"]

IM_START = "<|im_start|>"
"""The ChatML token opening a turn."""
IM_END = "<|im_end|>"
"""The ChatML token ending a turn (the end-of-turn token of the assistant)."""


def chatml(role: str) -> Turn:
    """A ChatML turn: ``<|im_start|>ROLE\\n`` ... ``<|im_end|>\\n``."""
    return Turn(f"{IM_START}{role}\n", f"{IM_END}\n")


def last_query(messages: Sequence[Message], *, strip: bool = False) -> int:
    """The index of the last user message that is a query, ``-1`` when there is none.

    A user message whose content starts with ``<tool_response>`` and ends with
    ``</tool_response>`` (after stripping whitespace when ``strip``, as Qwen3.5's template
    does) carries tool output, not a query.
    """
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].role != "user":
            continue
        content = text_of(messages[i].content)
        if strip:
            content = content.strip()
        if not (content.startswith("<tool_response>") and content.endswith("</tool_response>")):
            return i
    return -1
