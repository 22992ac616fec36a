"""Cold start of the ``tooletta`` command, against importing its dependencies (hyperfine-like).

    uv run --no-sync python bench/coldstart.py            # 20 runs each, interleaved
    uv run --no-sync python bench/coldstart.py -n 5       # quicker

Every command runs in a fresh process, the commands interleaved round by round so that a
change in machine load hits them alike. Reported: mean ± standard deviation and the minimum
in milliseconds, and the ratio of each mean and minimum to the baseline
``python -c "import click, msgspec, pluggy"`` (issue 13's targets: ``import tooletta``
within 1.3x, ``tooletta list-dialects`` within 2x).

Python runs with its bytecode cache, as for an installed package (``pip`` compiles ``.pyc``
files; ``uv`` does not by default, and this machine sets ``PYTHONDONTWRITEBYTECODE``): the
cache goes to ``bench/data/pycache`` (``PYTHONPYCACHEPREFIX``), filled by the warm-up rounds.
``--no-bytecode`` measures every start compiling every module from source instead.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable
TOOLETTA = str(Path(PY).with_name("tooletta"))


def commands(sample: str) -> dict[str, list[str]]:
    """The commands timed, by label (the first one is the baseline)."""
    return {
        "import click, msgspec, pluggy": [PY, "-c", "import click, msgspec, pluggy"],
        "python -c 'import tooletta'": [PY, "-c", "import tooletta"],
        "tooletta --version": [TOOLETTA, "--version"],
        "tooletta list-dialects": [TOOLETTA, "list-dialects"],
        "tooletta parse -d hermes FILE": [TOOLETTA, "parse", "-d", "hermes", sample],
        "tooletta parse FILE (auto)": [TOOLETTA, "parse", sample],
    }


def environment(bytecode: bool) -> dict[str, str]:
    """The environment of the timed processes: with a bytecode cache or without one."""
    env = dict(os.environ)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(HERE / "data" / "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    return env


def run_once(cmd: list[str], env: dict[str, str] | None = None) -> float:
    """Wall time of one run, in seconds (output discarded; a failure stops the benchmark)."""
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def measure(
    cmds: dict[str, list[str]], runs: int, warmup: int, env: dict[str, str] | None = None
) -> dict[str, list[float]]:
    """Times of every command, interleaved round by round, after ``warmup`` untimed rounds."""
    times: dict[str, list[float]] = {label: [] for label in cmds}
    for round_ in range(warmup + runs):
        for label, cmd in cmds.items():
            t = run_once(cmd, env)
            if round_ >= warmup:
                times[label].append(t)
    return times


def report(times: dict[str, list[float]]) -> str:
    """A Markdown table of the timings and their ratios to the first (baseline) command."""
    labels = list(times)
    base_mean = statistics.fmean(times[labels[0]])
    base_min = min(times[labels[0]])
    lines = [
        "| command | mean ± sd (ms) | min (ms) | × baseline (mean) | × baseline (min) |",
        "|---|---|---|---|---|",
    ]
    for label in labels:
        ts = times[label]
        mean = statistics.fmean(ts)
        sd = statistics.stdev(ts) if len(ts) > 1 else 0.0
        lines.append(
            f"| `{label}` | {mean * 1e3:.1f} ± {sd * 1e3:.1f} | {min(ts) * 1e3:.1f} | "
            f"{mean / base_mean:.2f} | {min(ts) / base_min:.2f} |"
        )
    return "\n".join(lines)


def main() -> int:
    """Time the commands and print the table."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-n", "--runs", type=int, default=20)
    ap.add_argument("-w", "--warmup", type=int, default=3)
    ap.add_argument(
        "--no-bytecode", action="store_true", help="compile every module at every start"
    )
    args = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from inputs import make_calls

    import tooletta

    text = tooletta.render(make_calls(4), "hermes", content="Let me check.")
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write(text)
    try:
        env = environment(not args.no_bytecode)
        times = measure(commands(f.name), args.runs, args.warmup, env)
    finally:
        os.unlink(f.name)
    print(report(times))
    return 0


if __name__ == "__main__":
    sys.exit(main())
