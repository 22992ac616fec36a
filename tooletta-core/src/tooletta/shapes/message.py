"""How tool results find their calls; :class:`~tooletta.Message` (the core IR's chat message)
is re-exported here under its historical name ``tooletta.interop.Message``."""

from __future__ import annotations

from collections.abc import Sequence

from ..ir import Message, ToolCall

__all__ = ["Message", "pair_results"]


def pair_results(messages: Sequence[Message]) -> dict[int, tuple[int, int]]:
    """Which call each tool result answers: ``{result index: (message index, call index)}``.

    A result with a ``tool_call_id`` answers the latest call with that id (the pending calls
    of the last assistant turn first). A result without one answers the next unanswered call
    of the last assistant turn, preferring one with the result's ``name``. Results that match
    nothing are left out.
    """
    pairs: dict[int, tuple[int, int]] = {}
    latest: dict[str, tuple[int, int]] = {}
    pending: list[tuple[int, int, ToolCall]] = []
    for mi, msg in enumerate(messages):
        if msg.role == "assistant" and msg.tool_calls:
            pending = [(mi, ci, call) for ci, call in enumerate(msg.tool_calls)]
            for ci, call in enumerate(msg.tool_calls):
                if call.id is not None:
                    latest[call.id] = (mi, ci)
            continue
        if msg.role != "tool":
            continue
        found = _take(pending, msg)
        if found is None and msg.tool_call_id is not None:
            found = latest.get(msg.tool_call_id)
        if found is not None:
            pairs[mi] = found
    return pairs


def _take(pending: list[tuple[int, int, ToolCall]], msg: Message) -> tuple[int, int] | None:
    if msg.tool_call_id is not None:
        match = [p for p in pending if p[2].id == msg.tool_call_id]
    else:
        match = [p for p in pending if msg.name is not None and p[2].name == msg.name] or pending
    if not match:
        return None
    mi, ci, _ = chosen = match[0]
    pending.remove(chosen)
    return mi, ci
