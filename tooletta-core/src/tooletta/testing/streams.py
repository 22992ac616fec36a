"""Feeding a stream parser and reading its updates back, as a client would."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from .. import api
from ..ir import ParseResult, StreamUpdate, ToolCall, UnparsedToolCall

__all__ = ["assemble", "split_text", "stream_text"]


def stream_text(
    dialect: str, chunks: Iterable[str], tools: Any = None
) -> tuple[list[StreamUpdate], StreamUpdate]:
    """Feed ``chunks`` to a fresh stream parser; return every update and the final one."""
    parser = api.stream(dialect, tools=tools)
    updates = [parser.feed(c) for c in chunks]
    return updates, parser.finish()


def assemble(updates: Sequence[StreamUpdate]) -> ParseResult:
    """Rebuild a :class:`~tooletta.ParseResult` from stream updates, as an OpenAI client would.

    Calls are assembled by index: the first non-empty name and id, the concatenated argument
    fragments decoded as JSON. Calls named by an unparsed record's ``index`` are discarded.
    """
    content: list[str] = []
    reasoning: list[str] = []
    names: dict[int, str] = {}
    ids: dict[int, str] = {}
    args: dict[int, list[str]] = {}
    order: list[int] = []
    unparsed: list[UnparsedToolCall] = []
    dropped: set[int] = set()
    for u in updates:
        content.append(u.content)
        reasoning.append(u.reasoning)
        for d in u.calls:
            if d.index not in args:
                order.append(d.index)
                args[d.index] = []
            if d.name is not None:
                assert d.index not in names, f"name sent twice for call {d.index}"
                names[d.index] = d.name
            if d.id is not None:
                assert d.index not in ids, f"id sent twice for call {d.index}"
                ids[d.index] = d.id
            args[d.index].append(d.arguments)
        for rec in u.unparsed:
            unparsed.append(rec)
            if rec.index is not None:
                dropped.add(rec.index)
    calls = []
    for i in order:
        if i in dropped:
            continue
        assert i in names, f"call {i} never got a name"
        text = "".join(args[i])
        calls.append(ToolCall(names[i], json.loads(text) if text else {}, ids.get(i)))
    return ParseResult(
        content="".join(content),
        calls=calls,
        dialect=None,
        unparsed=unparsed,
        reasoning="".join(reasoning),
    )


def split_text(text: str, cuts: Iterable[int]) -> list[str]:
    """``text`` cut at each of ``cuts`` (positions outside it ignored), without empty pieces."""
    points = sorted({c for c in cuts if 0 < c < len(text)})
    out, prev = [], 0
    for p in points:
        out.append(text[prev:p])
        prev = p
    out.append(text[prev:])
    return [c for c in out if c]
