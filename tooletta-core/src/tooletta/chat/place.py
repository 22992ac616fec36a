"""Where a dialect's own models write reasoning: the conversation format that gives
:func:`tooletta.render` (and so :func:`tooletta.convert`) a place for it.

A dialect without ``reasoning_markup`` and without a ``render(reasoning=)`` may still have a
place for reasoning: the chat format of a model writing it puts a reasoning block in the
assistant turn (Harmony's analysis channel, Kimi K3's think section, a ``<think>`` block before
Qwen3.5's Qwen3-Coder calls). The first of the dialect's formats whose assistant turn, written
with reasoning, content and a call, reads back through the dialect's own parse is that place;
a format whose turn would not read back is no place (its reasoning would be lost on the way
back).
"""

from __future__ import annotations

from typing import Any

from ..ir import Message, ToolCall
from .format import ChatFormat, Conversation
from .lookup import chat_formats_of

__all__ = ["reasoning_format", "reasoning_turn"]

_PROBE_REASONING = "Reasoning to keep."
_PROBE_CONTENT = "Content to keep."
_PROBE_CALLS = (ToolCall("probe_tool", {"text": "x", "count": 2}),)
_FOUND: dict[int, tuple[Any, ChatFormat | None]] = {}


def reasoning_turn(fmt: ChatFormat, dialect: Any, calls: Any, content: str, reasoning: str) -> str:
    """The assistant turn ``fmt`` writes for ``content``, ``calls`` and ``reasoning``, as the
    turn the model generates (its reasoning kept), with no end-of-turn token."""
    message = Message(
        role="assistant", content=content, tool_calls=list(calls), reasoning=reasoning
    )
    ctx = Conversation([message], [], dict(fmt.options), dialect)
    return str(fmt.turn_body(message, True, True, ctx))


def _reads_back(fmt: ChatFormat, dialect: Any) -> bool:
    try:
        text = reasoning_turn(fmt, dialect, _PROBE_CALLS, _PROBE_CONTENT, _PROBE_REASONING)
        if _PROBE_REASONING not in text:
            return False
        result = dialect.parse(text)
    except Exception:  # a format that cannot write the probe has no place to offer
        return False
    calls = [(c.name, c.arguments) for c in result.calls]
    return (
        result.reasoning.strip() == _PROBE_REASONING
        and result.content.strip() == _PROBE_CONTENT
        and calls == [(c.name, c.arguments) for c in _PROBE_CALLS]
    )


def reasoning_format(dialect: Any) -> ChatFormat | None:
    """The first chat format of ``dialect`` whose assistant turn holds reasoning that the
    dialect's parse reads back (with the content and the calls), or ``None``. Remembered per
    dialect object."""
    found = _FOUND.get(id(dialect))
    if found is not None and found[0] is dialect:
        return found[1]
    place = next((f for f in chat_formats_of(dialect) if _reads_back(f, dialect)), None)
    _FOUND[id(dialect)] = (dialect, place)
    return place
