"""The kit's sample conversations and tool definitions (kept in :mod:`tooletta.chat.samples`,
below the kit, because learning a template checks itself on them too; this module is where
plugin tests import them from)."""

from __future__ import annotations

from ..chat.samples import (
    PROBE_TOOLS,
    SAMPLE_TOOLS,
    list_content_conversations,
    random_conversations,
    sample_conversations,
)
from ..ir import Message, ToolCall

__all__ = [
    "PROBE_TOOLS",
    "SAMPLE_TOOLS",
    "list_content_conversations",
    "random_conversations",
    "reasoning_history_conversations",
    "sample_conversations",
]


def reasoning_history_conversations() -> dict[str, tuple[list[Message], bool]]:
    """Reasoning in earlier turns, around a second user turn: ``reasoning_history``, an
    answer with reasoning, a second query, then a call turn with reasoning, its result and
    the answer (uses the tools). For ``ConversationTests.extra_conversations`` of a format
    whose template keeps or drops past reasoning by its place in the conversation."""
    calls = [ToolCall("get_time", {"tz": "UTC"})]
    return {
        "reasoning_history": (
            [
                Message("user", "a"),
                Message("assistant", "first", reasoning="old"),
                Message("user", "b"),
                Message("assistant", "let me see", tool_calls=calls, reasoning="r1"),
                Message("tool", "12:00"),
                Message("assistant", "noon"),
            ],
            True,
        ),
    }
