"""What an open stream holds (issue 13, target 3): state in slots, argument text not kept
once per 4-character fragment. Byte counts from ``tracemalloc``, not timings."""

from __future__ import annotations

import gc
import tracemalloc
from typing import Any

import pytest

import tooletta
from tooletta import ToolCall

LONG = [ToolCall("write_file", {"path": "app.py", "content": "x = 1\n" * 400})]


def _held_per_stream(make: Any, n: int = 20) -> float:
    make()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        kept = [make() for _ in range(n)]
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    total = sum(s.size_diff for s in after.compare_to(before, "filename"))
    assert len(kept) == n
    return total / n


def test_engine_state_is_in_slots() -> None:
    """A stream engine has no per-instance ``__dict__``, also once finished."""
    parser = tooletta.stream("hermes")
    assert not hasattr(parser, "__dict__")
    parser.finish()
    assert not hasattr(parser, "__dict__")
    with pytest.raises(tooletta.StreamStateError):
        parser.feed("more")


@pytest.mark.parametrize("dialect", ["hermes", "mistral", "kimi_k2", "harmony", "deepseek_v31"])
def test_stream_inside_long_argument_holds_under_ten_bytes_per_character(dialect: str) -> None:
    """Two thirds into a 2.4 KB argument streamed in 4-character deltas, a stream holds less
    than 10 bytes per character of text fed (the text itself, the call's arguments to decode
    at its end, the block's text for an unparsed record); a string per fragment held ~13."""
    text = tooletta.render(LONG, dialect)
    part = text[: len(text) * 2 // 3]
    deltas = [part[i : i + 4] for i in range(0, len(part), 4)]

    def make() -> Any:
        parser = tooletta.stream(dialect)
        for d in deltas:
            parser.feed(d)
        return parser

    assert _held_per_stream(make) < 10 * len(part)
