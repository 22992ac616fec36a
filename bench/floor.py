"""What one streamed delta costs at the least in CPython, against the minimal scanner.

    uv run --no-sync python bench/floor.py

The issue's streaming target is ≤ 2× the minimal incremental scanner per delta. This measures,
interleaved in one run (best of rounds), the pieces any streaming parser with tooletta's
contract pays per 4-character delta inside a call, each as a ratio to the minimal scanner's
whole ``feed`` (``limits.MinimalScanner``, inside a call: one concatenation, one ``find``, one
append):

* resuming a block reader that is a generator three ``yield from`` levels deep (block ->
  call object -> JSON value), as the engine's readers are;
* building the update the API returns for a delta that advances a call's arguments (a
  ``StreamUpdate`` holding one ``CallDelta``, OpenAI semantics);
* tracking the JSON structure of the new text (one C-level regex match), which the minimal
  scanner does not do (it finds the closing marker only).

Their sum is the floor of a pure-Python engine that keeps the contract; the rest of the
engine's cost (buffer bookkeeping, whitespace and accounting rules) comes on top.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Generator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from limits import OPEN, Family, MinimalScanner, json_object_body
from run import best_of

from tooletta.ir import CallDelta, StreamUpdate

_IN_STRING = re.compile(r'["\\]')


def _inner() -> Generator[None, None, None]:
    while True:
        yield


def _middle() -> Generator[None, None, None]:
    yield from _inner()


def _outer() -> Generator[None, None, None]:
    yield from _middle()


def measure(rounds: int = 7) -> dict[str, float]:
    """Per-delta costs as ratios to the minimal scanner's ``feed`` inside a call."""
    scanner = MinimalScanner(Family(OPEN, "</tool_call>", json_object_body))
    scanner.feed(OPEN)  # inside a call from here on
    gen = _outer()
    next(gen)
    delta = 'ab"c'
    text = '{"a": "' + delta.replace('"', "x")  # the new text, inside a string

    def minimal() -> None:
        scanner.feed(delta)
        if len(scanner._parts) > 1000:  # keep it bounded (once per 1000 calls)
            scanner._parts.clear()

    fns = {
        "minimal": minimal,
        "resume": lambda: next(gen),
        "update": lambda: StreamUpdate("", [CallDelta(0, None, None, delta)]),
        "json": lambda: _IN_STRING.search(text, 7),
        "nothing": lambda: None,
    }
    t = best_of(fns, rounds)
    base = t["minimal"] - t["nothing"]
    return {k: (v - t["nothing"]) / base for k, v in t.items() if k != "nothing"}


def main() -> int:
    """Print the table."""
    r = measure()
    print("| per 4-character delta inside a call | × minimal scanner's feed |")
    print("|---|---|")
    print(f"| minimal scanner `feed` | {r['minimal']:.2f} |")
    print(f"| resume a 3-level generator reader | {r['resume']:.2f} |")
    print(f"| build `StreamUpdate([CallDelta])` | {r['update']:.2f} |")
    print(f"| one regex match over the new text (JSON structure) | {r['json']:.2f} |")
    floor = 1 + r["resume"] + r["update"] + r["json"]
    print(f"| **sum: the floor of a parser with the contract** | **{floor:.2f}** |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
