"""The verdict of ``tooletta.learn`` for every chat template in a directory, as a Markdown table.

    uv run --no-sync python scripts/learn_verdicts.py DIR [DIR...]

A DIR is a folder of ``*.jinja`` files, or a clone or mirror of llama.cpp (its work tree or its
git directory: its ``models/templates/`` at ``HEAD``, read with git, nothing written). Each
``*.jinja`` file is learned twice in a fresh name: strictly (the default) and, when
refused for contradicting itself (or for writing a sample conversation otherwise), with
``lenient=True``. The table (template, verdict, the
calls' dialect or the reason) is what docs/concepts/learn.md lists for llama.cpp's
``models/templates/``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path


def templates(source: Path, scratch: Path) -> list[Path]:
    """The ``*.jinja`` files of ``source``: a folder of them, llama.cpp's work tree (its
    ``models/templates/``), or a llama.cpp git directory (copied into ``scratch`` from
    ``HEAD``)."""
    folder = source / "models" / "templates"
    if folder.is_dir():
        return sorted(folder.glob("*.jinja"))
    found = sorted(source.glob("*.jinja"))
    if found or not (source / "HEAD").is_file():
        return found

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", f"--git-dir={source}", *args], capture_output=True, check=True, text=True
        )
        return done.stdout

    out = []
    for name in git("ls-tree", "--name-only", "HEAD", "models/templates/").split():
        if name.endswith(".jinja"):
            path = scratch / name.rsplit("/", 1)[-1]
            path.write_text(git("show", f"HEAD:{name}"), encoding="utf-8")
            out.append(path)
    return sorted(out)


def main() -> None:
    """Print the table for the directories given on the command line."""
    with tempfile.TemporaryDirectory() as scratch:
        table(
            sorted(
                (p for d in sys.argv[1:] for p in templates(Path(d), Path(scratch))),
                key=lambda p: p.name,
            )
        )


def table(paths: list[Path]) -> None:
    """Print the verdict of each template in ``paths``."""
    import tooletta

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
