"""How long ``tooletta.chat.identify`` takes on a template it has not seen: every chat
template the plugins vendor (plugins/*/tests/templates), each identified in a warm process
(imports done, plugins loaded, another template identified first) with the verdict cache and
the compiled-template cache emptied before it, so each figure includes compiling the
template. Then the same template again (the cache by hash).

Rounds are interleaved (round 1 over every template, then round 2...), the best round kept
per template, so that a burst of load from the machine's other jobs hits one round, not one
template. Each run is timed by the wall clock and by the process's CPU time (on a loaded
machine the wall clock counts the time other jobs hold the cores).

Run: ``uv run --no-sync python bench/identify.py [--rounds N]``.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from pathlib import Path

from tooletta.chat.identify import identify
from tooletta.chat.jinja import _compile

identify_module = importlib.import_module("tooletta.chat.identify")

ROOT = Path(__file__).resolve().parent.parent


def templates() -> list[Path]:
    """Every vendored template, by plugin and name."""
    return sorted(
        p for p in ROOT.glob("plugins/*/tests/templates/*.jinja") if "_template" not in p.parts
    )


def cold(text: str, path: Path) -> tuple[float, float, float, float]:
    """One first-time identification of ``path``: wall and CPU milliseconds in all, and of
    those, jinja2's compile of the template."""
    identify_module._CACHE.clear()
    _compile.cache_clear()
    wall, cpu = time.perf_counter(), time.process_time()
    _compile(text)
    wall_c, cpu_c = time.perf_counter(), time.process_time()
    identify(path)
    wall_e, cpu_e = time.perf_counter(), time.process_time()
    return (
        (wall_e - wall) * 1000,
        (wall_c - wall) * 1000,
        (cpu_e - cpu) * 1000,
        (cpu_c - cpu) * 1000,
    )


def cached(path: Path) -> float:
    """One cached identification of ``path``, in microseconds."""
    identify(path)
    start = time.perf_counter()
    identify(path)
    return (time.perf_counter() - start) * 1e6


def main() -> None:
    """Print one row per template, then the median and the maximum of each column."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    paths = templates()
    texts = [p.read_text(encoding="utf-8") for p in paths]
    identify(paths[0])  # warm: imports, plugins, the candidates' table
    best: list[tuple[float, float, float, float] | None] = [None] * len(paths)
    for _ in range(args.rounds):
        for i, (path, text) in enumerate(zip(paths, texts)):
            got = cold(text, path)
            old = best[i]
            if old is None:
                best[i] = got
            else:  # wall and CPU each keep their own best round
                wall = got[:2] if got[0] < old[0] else old[:2]
                cpu = got[2:] if got[2] < old[2] else old[2:]
                best[i] = (*wall, *cpu)
    rows = [b for b in best if b is not None]
    print("   wall (compile)    cpu (compile)   cached   verdict / template")
    for path, row in zip(paths, rows):
        verdict = identify(path).format or "-"
        print(
            f"{row[0]:8.1f} ({row[1]:5.1f}) {row[2]:8.1f} ({row[3]:5.1f}) ms "
            f"{cached(path):6.1f} us   {verdict:20s} {path.name}"
        )
    for label, times in (
        ("wall, total", [r[0] for r in rows]),
        ("wall, without jinja2's compile", [r[0] - r[1] for r in rows]),
        ("cpu, total", [r[2] for r in rows]),
        ("cpu, jinja2's compile", [r[3] for r in rows]),
        ("cpu, without jinja2's compile", [r[2] - r[3] for r in rows]),
    ):
        print(
            f"{label}: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms, "
            f"<= 50 ms: {sum(t <= 50 for t in times)} of {len(times)}"
        )


if __name__ == "__main__":
    main()
