"""Tool results joined by a separator with nothing closing each, read back by the calls
awaiting them (:attr:`ChatFormat.results_by_calls <tooletta.chat.ChatFormat.results_by_calls>`:
Nemotron Nano v2's ``<TOOL_RESPONSE>[r1, r2]</TOOL_RESPONSE>``): the reader's split and the
writer's check that a run of results splits back as written."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ..ir import Message

__all__ = ["pending_at_runs", "split_by_calls"]

_DECODER = json.JSONDecoder()


def split_by_calls(body: str, separator: str, pending: int) -> list[str]:
    """The results of one turn whose results are joined by ``separator``, ``pending`` calls
    awaiting them: one result per call, a result that is a JSON value read whole (the
    separators inside it are not), else the text up to the next ``separator``; the last
    takes the rest (and so does a result when no separator follows)."""
    parts: list[str] = []
    pos = 0
    step = len(separator)
    while len(parts) < pending - 1:
        try:
            end = _DECODER.raw_decode(body, pos)[1]
        except (ValueError, RecursionError):
            end = -1
        if end < 0 or not body.startswith(separator, end):
            end = body.find(separator, pos)
            if end < 0:
                break
        parts.append(body[pos:end])
        pos = end + step
    parts.append(body[pos:])
    return parts


def pending_at_runs(messages: Sequence[Message]) -> dict[int, int]:
    """The number of calls awaiting results at the first result of each run of results (by
    index), as :func:`~tooletta.parse_conversation` counts them: an assistant message's calls,
    less one per result read since. One pass."""
    starts: dict[int, int] = {}
    pending = 0
    previous = ""
    for index, message in enumerate(messages):
        role = message.role
        if role == "assistant":
            pending = len(message.tool_calls)
        elif role == "tool":
            if previous != "tool":
                starts[index] = pending
            pending = max(0, pending - 1)
        previous = role
    return starts
