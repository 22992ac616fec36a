"""The verdict of ``tooletta.learn`` for every chat template in a directory, as a Markdown table.

    uv run --no-sync python scripts/learn_verdicts.py DIR [DIR...]

Each ``*.jinja`` file is learned twice in a fresh name: strictly (the default) and, when
refused for contradicting itself (or for writing a sample conversation otherwise), with
``lenient=True``. The table (template, verdict, the
calls' dialect or the reason) is what docs/concepts/learn.md lists for llama.cpp's
``models/templates/``.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main() -> None:
    """Print the table for the directories given on the command line."""
    import tooletta

    paths = sorted(p for d in sys.argv[1:] for p in Path(d).glob("*.jinja"))
    print("| template | verdict | evidence |")
    print("|---|---|---|")
    counts = {"learned": 0, "lenient": 0, "refused": 0}
    for index, path in enumerate(paths):
        verdict, evidence = "refused", ""
        try:
            learned = tooletta.learn(str(path), name=f"verdict-{index}")
            verdict = "learned"
        except tooletta.LearnError as exc:
            evidence = exc.reason
            if "lenient=True" in exc.reason:
                try:
                    learned = tooletta.learn(str(path), name=f"verdict-{index}", lenient=True)
                    verdict = "learned (lenient)"
                except tooletta.LearnError as again:
                    evidence = again.reason
        if verdict != "refused":
            calls = learned.spec["calls"]
            evidence = {
                "installed": f"calls: `{calls.get('dialect')}`",
                "json": f"calls: learned JSON in `{calls.get('open')}`",
                "none": "no tool calls",
            }[calls["kind"]] + f"; {learned.checks} checks"
            if learned.deviations:
                evidence += f"; deviation: {learned.deviations[0][:90]}"
        counts["lenient" if "lenient" in verdict else verdict] += 1
        cell = evidence.replace("|", "\\|").replace("\n", " ")[:200]
        print(f"| `{path.name}` | {verdict} | {cell} |")
    print()
    print(", ".join(f"{k}: {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
