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
    "CALL_SAMPLES",
    "CONTENT_BESIDE_CALLS_SAMPLES",
    "PROBE_TOOLS",
    "SAMPLE_TOOLS",
    "chained_call_conversations",
    "list_content_conversations",
    "random_conversations",
    "reasoning_history_conversations",
    "sample_conversations",
]


CALL_SAMPLES: tuple[str, ...] = tuple(
    name
    for name, (messages, _) in sample_conversations().items()
    if any(m.tool_calls for m in messages)
)
"""The names of the sample conversations with calls, each with a turn of two calls. The
``differences`` of a template that drops or garbles calls are
``dict.fromkeys(CALL_SAMPLES, why)``."""

CONTENT_BESIDE_CALLS_SAMPLES: tuple[str, ...] = tuple(
    name
    for name, (messages, _) in sample_conversations().items()
    if any(m.tool_calls and m.content for m in messages)
)
"""The names of the sample conversations with content beside calls in a turn (for the
``differences`` of a template that drops or moves that content)."""


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


def chained_call_conversations() -> dict[str, tuple[list[Message], bool]]:
    """Calls answered by results in the middle and at the end of a conversation (all use the
    tools): ``chained_calls`` (a system message with spaces at its ends, two call turns with
    reasoning, each answered, then an answer with reasoning), ``results_then_user`` (a user
    turn right after a result) and ``ends_with_result`` (two calls, the conversation ending
    with their results). For ``ConversationTests.extra_conversations`` of a format whose
    template treats the turns around tool results specially (Gemma 4 continues the model's
    turn after them)."""
    weather = ToolCall("get_weather", {"city": "Paris"}, "c1")
    time = ToolCall("get_time", {"tz": "UTC"}, "c2")
    ask = Message("user", "What's the weather in Paris?")
    r1 = Message("tool", "sunny", tool_call_id="c1")
    r2 = Message("tool", "12:00", tool_call_id="c2")
    return {
        "chained_calls": (
            [
                Message("system", "  Be brief.  "),
                ask,
                Message("assistant", "", tool_calls=[weather], reasoning="first"),
                r1,
                Message("assistant", "", tool_calls=[time], reasoning="second"),
                r2,
                Message("assistant", "Sunny, noon.", reasoning="an answer keeps none"),
            ],
            True,
        ),
        "results_then_user": (
            [ask, Message("assistant", "", tool_calls=[weather]), r1, Message("user", "ok?")],
            True,
        ),
        "ends_with_result": (
            [ask, Message("assistant", "", tool_calls=[weather, time]), r1, r2],
            True,
        ),
    }
