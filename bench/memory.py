"""Memory per open stream (the issue's target: ≤ 600 B), measured with ``tracemalloc``.

    uv run --no-sync python bench/memory.py              # the families of limits.py
    uv run --no-sync python bench/memory.py -d hermes -n 10000 --top 10

10,000 streams are opened and each is fed, in 4-character deltas, the first two thirds of a
one-call reply (so every stream holds a partial call); the bytes allocated and still held,
divided by the number of streams, are what one open stream costs (its text included). The
same is measured for the family's minimal incremental scanner (``limits.MinimalScanner``) and,
where it has a template, transformers' ``ResponseParser``; and, for tooletta, a stream just
opened and one two thirds into a call with a 2.4 KB argument. ``--top`` lists the source lines
that hold the most (where the bytes of a tooletta stream go).
"""

from __future__ import annotations

import argparse
import gc
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import hf
from inputs import make_calls
from limits import MinimalScanner, family_for

import tooletta
from tooletta import ToolCall
from tooletta.testing import tools_for

DIALECTS = ["hermes", "mistral", "kimi_k2", "deepseek_v31", "harmony", "qwen3_coder", "glm45"]


def held_bytes(
    make: Callable[[], Any], n: int, top: int = 0
) -> tuple[float, list[tuple[float, str]]]:
    """Bytes per object still allocated after ``n`` calls of ``make`` (the objects kept)."""
    make()  # warm up: caches and interned tables are not a stream's
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept = [make() for _ in range(n)]
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    stats = after.compare_to(before, "lineno")
    total = sum(s.size_diff for s in stats) - sys.getsizeof(kept)
    lines = [(s.size_diff / n, str(s.traceback[0])) for s in stats[:top]]
    del kept
    return total / n, lines


LONG = [ToolCall("write_file", {"path": "app.py", "content": "x = 1\n" * 400})]
"""A call with a 2.4 KB argument (code being written)."""


def partial_deltas(dialect: str, calls: list[ToolCall] | None = None) -> tuple[list[str], Any]:
    """4-character deltas of the first two thirds of a one-call reply, and its tools."""
    calls = calls or make_calls(1)
    tools = tools_for(calls)
    text = tooletta.render(calls, dialect, content="Let me check that for you.")
    part = text[: len(text) * 2 // 3]
    return [part[i : i + 4] for i in range(0, len(part), 4)], tools


def measure(dialect: str, n: int, top: int = 0) -> dict[str, Any]:
    """Bytes per open stream: tooletta, the minimal scanner, transformers (when available)."""
    deltas, tools = partial_deltas(dialect)

    def ours() -> Any:
        parser = tooletta.stream(dialect, tools=tools)
        for d in deltas:
            parser.feed(d)
        return parser

    row: dict[str, Any] = {}
    row["ours"], row["lines"] = held_bytes(ours, n, top)
    row["idle"] = held_bytes(lambda: tooletta.stream(dialect, tools=tools), n)[0]
    long, long_tools = partial_deltas(dialect, LONG)

    def ours_long() -> Any:
        parser = tooletta.stream(dialect, tools=long_tools)
        for d in long:
            parser.feed(d)
        return parser

    row["long"] = held_bytes(ours_long, max(1, n // 10))[0]
    row["long_chars"] = sum(map(len, long))
    fam = family_for(dialect, tools)
    if fam is not None:

        def minimal() -> Any:
            scanner = MinimalScanner(fam)
            for d in deltas:
                scanner.feed(d)
            return scanner

        row["minimal"] = held_bytes(minimal, n)[0]
    if hf.available() and dialect in hf.TEMPLATES:
        from transformers.utils.chat_parsing import ResponseParser

        def theirs() -> Any:
            parser = ResponseParser(hf.TEMPLATES[dialect], prefix="", tools=tools)
            for d in deltas:
                parser.feed(d)
            return parser

        row["hf"] = held_bytes(theirs, n)[0]
    return row


def main() -> int:
    """Measure and print the table."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-d", "--dialect", action="append", help="dialect(s) (default: families)")
    ap.add_argument("-n", "--streams", type=int, default=10_000)
    ap.add_argument("--top", type=int, default=0, help="list the lines holding the most")
    args = ap.parse_args()
    print(
        "| dialect | B/stream (partial call) | minimal scanner | transformers | "
        "B/stream (nothing fed) | B/stream (2/3 of a 2.4 KB argument) | target |"
    )
    print("|---|---|---|---|---|---|---|")
    for name in args.dialect or DIALECTS:
        row = measure(name, args.streams, args.top)
        keys = ("ours", "minimal", "hf", "idle", "long")
        cells = [f"{row[k]:.0f}" if k in row else "" for k in keys]
        print(f"| {name} | {' | '.join(cells)} | ≤ 600 |", flush=True)
        for size, where in row["lines"]:
            print(f"|   {where} | {size:.0f} | | | | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
