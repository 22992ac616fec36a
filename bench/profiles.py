"""Profile one dialect's one-shot parse and 4-character-delta streaming (cProfile).

    uv run --no-sync python bench/profiles.py hermes            # 64 calls, both modes
    uv run --no-sync python bench/profiles.py glm45 -n 8 --mode stream --top 25
    uv run --no-sync python bench/profiles.py jamba --mode parse --cpu   # on a loaded machine

Prints the functions with the most own time, so the per-block and per-delta overheads of
the engine show up by name.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from inputs import make_calls

import tooletta
from tooletta.testing import tools_for


def main() -> int:
    """Profile and print the report."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("dialect")
    ap.add_argument("-n", "--calls", type=int, default=64)
    ap.add_argument("--mode", choices=["parse", "stream", "both"], default="both")
    ap.add_argument("--delta", type=int, default=4, help="delta size for streaming")
    ap.add_argument("--loops", type=int, default=50)
    ap.add_argument("--top", type=int, default=18)
    ap.add_argument("--cpu", action="store_true", help="CPU time as the clock (a loaded machine)")
    args = ap.parse_args()
    calls = make_calls(args.calls)
    tools = tools_for(calls)
    text = tooletta.render(calls, args.dialect, content="Let me check that for you.")
    deltas = [text[i : i + args.delta] for i in range(0, len(text), args.delta)]

    def parse() -> None:
        for _ in range(args.loops):
            tooletta.parse(text, args.dialect, tools=tools)

    def stream() -> None:
        for _ in range(args.loops):
            parser = tooletta.stream(args.dialect, tools=tools)
            feed = parser.feed
            for d in deltas:
                feed(d)
            parser.finish()

    modes = {"parse": [parse], "stream": [stream], "both": [parse, stream]}[args.mode]
    for fn in modes:
        fn()  # warm up (plugins loaded, caches filled)
        prof = cProfile.Profile(time.process_time) if args.cpu else cProfile.Profile()
        prof.runcall(fn)
        print(f"== {args.dialect} {fn.__name__}, {args.calls} calls, {len(text)} chars ==")
        pstats.Stats(prof).sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
