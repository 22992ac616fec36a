"""Benchmark every installed dialect against the limits; print a Markdown report.

    uv run --no-sync python bench/run.py                 # all dialects, 1/8/64 calls
    uv run --no-sync python bench/run.py -d hermes       # one dialect
    uv run --no-sync python bench/run.py --quick         # fewer rounds, 1 and 8 calls (smoke)

Figures are ratios measured in one run on the same input, the timings of a row interleaved
round by round (the best round kept), so that a change of machine load hits them alike; the
time is the process's CPU time, which the other jobs of a shared machine do not add to:

* ``× msgspec``: tooletta's time over ``msgspec.json.decode`` of the same argument payloads;
* ``× minimal``: over the minimal hand-written parser of the dialect's family (``limits.py``:
  ``str.find`` per marker and one msgspec decode per call, or per-value typing for XML and
  key/value formats), one-shot; streaming over the family's minimal *incremental* scanner
  (``limits.MinimalScanner``: a few ``find`` per delta, a held-back marker prefix, each call
  read as its closing marker arrives). The issue's targets: parse ≤ 1.5× minimal (JSON
  formats; ≤ 2× XML, key/value and harmony), streaming ≤ 2× the minimal scanner.
* ``HF ... ÷ ours``: transformers' ``ResponseParser`` (``hf.py``; one-shot ``parse_response``,
  streamed ``feed`` per 4-character delta) over tooletta on the same text (target ≥ 5).

Streaming uses 4-character deltas (1-character deltas in their own columns). ``per-byte 64/8``
is the streaming cost per byte at 64 calls over that at 8 (target: ≤ 1.3, linear).
"""

from __future__ import annotations

import argparse
import sys
import time
import timeit
from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent))

import hf
from inputs import make_calls, prose
from limits import family_for, family_parser, minimal_for, msgspec_decode, scan_all

import tooletta
from tooletta.errors import RenderError
from tooletta.testing import tools_for

TARGET_SECONDS = 0.02  # one timing: about this long
SECONDS: float | None = None  # ``--ms``: this run's timing length (None: TARGET_SECONDS)


def best_of(
    fns: Mapping[str, Callable[[], object]], rounds: int, seconds: float | None = None
) -> dict[str, float]:
    """Best time of one call of each function, in seconds, the functions interleaved.

    Each timing lasts about ``seconds`` (default :data:`TARGET_SECONDS`) of this process's
    CPU time (``time.process_time``): on a machine shared with other jobs, a long timing is
    preempted more often than a short one, which wall-clock time would count against it.
    """
    target = TARGET_SECONDS if seconds is None else seconds
    timers = {k: timeit.Timer(f, timer=time.process_time) for k, f in fns.items()}
    numbers = {}
    for k, t in timers.items():
        n, took = t.autorange()  # runs until 0.2 s: scale down to the target
        numbers[k] = max(1, int(n * target / took)) if took else n
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(rounds):
        for k, t in timers.items():
            best[k] = min(best[k], t.timeit(numbers[k]) / numbers[k])
    return best


def stream_all(dialect: str, deltas: list[str], tools: object) -> None:
    """Feed every delta to a fresh stream parser."""
    parser = tooletta.stream(dialect, tools=tools)
    feed = parser.feed
    for d in deltas:
        feed(d)
    parser.finish()


def chunks(text: str, size: int) -> list[str]:
    """``text`` cut into ``size``-character deltas."""
    return [text[i : i + size] for i in range(0, len(text), size)]


def measure(dialect: str, n: int, rounds: int, *, with_hf: bool = True) -> dict[str, float] | None:
    """Timings for one dialect and call count (``None`` when it cannot render the calls)."""
    calls = make_calls(n)
    tools: Any = tools_for(calls)
    try:
        text = tooletta.render(calls, dialect, content="Let me check that for you.")
    except RenderError:
        return None
    payloads = [msgspec.json.encode(c.arguments) for c in calls]
    d4, d1 = chunks(text, 4), chunks(text, 1)
    fns: dict[str, Callable[[], object]] = {
        "limit": lambda: msgspec_decode(payloads),
        "parse": lambda: tooletta.parse(text, dialect, tools=tools),
        "stream4": lambda: stream_all(dialect, d4, tools),
        "stream1": lambda: stream_all(dialect, d1, tools),
    }
    fam = family_for(dialect, tools)
    if fam is not None:
        oneshot = minimal_for(dialect, tools)
        parse_min = oneshot[0] if oneshot is not None else family_parser(fam)
        fns["min_parse"] = lambda: parse_min(text)
        fns["min_stream4"] = lambda: scan_all(fam, d4)
        fns["min_stream1"] = lambda: scan_all(fam, d1)
    if with_hf and dialect in hf.TEMPLATES:
        fns["hf_parse"] = lambda: hf.hf_parse(dialect, text, tools)
        fns["hf_stream4"] = lambda: hf.hf_stream(dialect, d4, tools)
    t = best_of(fns, rounds, SECONDS)
    row = {k: v / t["limit"] for k, v in t.items()}
    row["limit_us"] = t["limit"] * 1e6
    row["bytes"] = len(text.encode())
    row["ns_per_delta"] = t["stream4"] / len(d4) * 1e9
    row["ns_per_delta1"] = t["stream1"] / len(d1) * 1e9
    return row


def scaling(dialect: str, rounds: int) -> list[tuple[int, float, float]]:
    """Streaming and one-shot cost per byte for prose of 1 KB to 1 MB followed by 8 calls."""
    tail = tooletta.render(make_calls(8), dialect)
    out = []
    for size in (1_000, 10_000, 100_000, 1_000_000):
        text = prose(size) + "\n" + tail
        d4 = chunks(text, 4)
        t = best_of(
            {
                "stream": partial(stream_all, dialect, d4, None),
                "parse": partial(tooletta.parse, text, dialect),
            },
            rounds,
        )
        out.append((len(text), t["stream"] / len(text) * 1e9, t["parse"] / len(text) * 1e9))
    return out


def _x(row: dict[str, float], key: str, base: str) -> str:
    return f"{row[key] / row[base]:.1f}" if key in row and base in row else ""


def main() -> int:
    """Run the benchmarks and print the report."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-d", "--dialect", action="append", help="dialect(s) to run (default: all)")
    ap.add_argument("--quick", action="store_true", help="one round, 1 and 8 calls only")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (best kept)")
    ap.add_argument("--no-hf", action="store_true", help="leave out transformers' parser")
    ap.add_argument("--ms", type=float, help="length of one timing (default 20 ms)")
    ap.add_argument(
        "--no-scaling", action="store_true", help="leave out the 1 KB - 1 MB scaling table"
    )
    args = ap.parse_args()
    global SECONDS
    SECONDS = args.ms / 1000 if args.ms else None
    rounds = 1 if args.quick else args.rounds
    counts = (1, 8) if args.quick else (1, 8, 64)
    names = args.dialect or [i.name for i in tooletta.list_dialects()]
    with_hf = hf.available() and not args.no_hf
    print(
        "| dialect | calls | bytes | msgspec limit (µs) | parse × msgspec | parse × minimal | "
        "stream 4-char × minimal scanner | ns/delta | stream 1-char × minimal scanner | "
        "ns/delta (1-char) | HF parse ÷ ours | HF stream ÷ ours | per-byte 64/8 |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        rows = {}
        for n in counts:
            row = measure(name, n, rounds, with_hf=with_hf)
            if row is None:
                break
            rows[n] = row
        if not rows:
            print(f"| {name} | – | – | – | cannot render the benchmark calls |" + " |" * 8)
            continue
        linear = ""
        if 64 in rows and 8 in rows:
            per64 = rows[64]["stream4"] * rows[64]["limit_us"] / rows[64]["bytes"]
            per8 = rows[8]["stream4"] * rows[8]["limit_us"] / rows[8]["bytes"]
            linear = f"{per64 / per8:.2f}"
        for n, r in rows.items():
            print(
                f"| {name} | {n} | {int(r['bytes'])} | {r['limit_us']:.1f} | "
                f"{r['parse']:.1f} | {_x(r, 'parse', 'min_parse')} | "
                f"{_x(r, 'stream4', 'min_stream4')} | {r['ns_per_delta']:.0f} | "
                f"{_x(r, 'stream1', 'min_stream1')} | {r['ns_per_delta1']:.0f} | "
                f"{_x(r, 'hf_parse', 'parse')} | {_x(r, 'hf_stream4', 'stream4')} | "
                f"{linear if n == 64 else ''} |",
                flush=True,
            )
    if not args.quick and not args.no_scaling:
        print()
        print("Cost per byte (ns), prose + 8 hermes calls (streaming: 4-character deltas):")
        print()
        print("| output bytes | stream ns/byte | parse ns/byte |")
        print("|---|---|---|")
        for size, ns_stream, ns_parse in scaling("hermes", rounds):
            print(f"| {size} | {ns_stream:.0f} | {ns_parse:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
