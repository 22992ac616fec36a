"""How long ``tooletta.chat.identify`` takes on a template it has not seen: every chat
template the plugins vendor (plugins/*/tests/templates), each identified once in a warm
process (imports done, plugins loaded, another template identified first) with the verdict
cache and the compiled-template cache emptied before it, so each figure includes compiling
the template. Then the same template again (the cache by hash).

Run: ``uv run --no-sync python bench/identify.py [--repeat N]``.
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


def cold(path: Path, repeat: int) -> tuple[float, float]:
    """The best of ``repeat`` first-time identifications of ``path`` and, of those, the
    time jinja2 took to compile the template, in milliseconds."""
    best, compiling = float("inf"), 0.0
    text = path.read_text(encoding="utf-8")
    for _ in range(repeat):
        identify_module._CACHE.clear()
        _compile.cache_clear()
        start = time.perf_counter()
        _compile(text)
        compiled = time.perf_counter()
        identify(path)
        took = time.perf_counter() - start
        if took < best:
            best, compiling = took, compiled - start
    return best * 1000, compiling * 1000


def cached(path: Path) -> float:
    """One cached identification of ``path``, in microseconds."""
    identify(path)
    start = time.perf_counter()
    identify(path)
    return (time.perf_counter() - start) * 1e6


def main() -> None:
    """Print one row per template, then the median and the maximum."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    paths = templates()
    identify(paths[0])  # warm: imports, plugins, the candidates' table
    rows = []
    print("   total   jinja2 compile   identify   cached   verdict / template")
    for path in paths:
        ms, compiling = cold(path, args.repeat)
        verdict = identify(path).format or "-"
        rows.append((ms, compiling, cached(path)))
        print(
            f"{ms:8.1f} {compiling:9.1f} ms {ms - compiling:11.1f} ms {rows[-1][2]:6.1f} us"
            f"   {verdict:20s} {path.name}"
        )
    for label, times in (
        ("total", [r[0] for r in rows]),
        ("identify (without jinja2's compile)", [r[0] - r[1] for r in rows]),
    ):
        print(
            f"{label}: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms, "
            f"<= 50 ms: {sum(t <= 50 for t in times)} of {len(times)}"
        )


if __name__ == "__main__":
    main()
