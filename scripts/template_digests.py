"""Fill in ``template_sha256`` on the first-party model rows (``plugins/*/src/*/models.py``).

For each row naming a ``template``, the digests (:func:`tooletta.rows.template_digest`) of
that fixture, then of the other fixtures the plugin's conversation tests verify for the
row's format that no row of the plugin names (another release's copy, a named ``default``
template). Run in the workspace, where every first-party plugin is installed::

    uv run --no-sync python scripts/template_digests.py          # print them
    uv run --no-sync python scripts/template_digests.py --write  # write them into models.py

``--write`` adds a ``template_sha256=(...)`` argument after the row's ``template=`` line, or
replaces the one there. The kit's row check (:mod:`tooletta.testing.models`) fails a row
whose digests no longer match its fixtures, so rerun this after re-vendoring a template.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path

from tooletta import plugins
from tooletta.chat.jinja import load_chat_template
from tooletta.precedence import is_first_party
from tooletta.rows import Model, template_digest
from tooletta.testing.models import verified_templates

ROOT = Path(__file__).resolve().parent.parent


def rows_by_plugin() -> dict[Path, list[Model]]:
    """The first-party rows naming a template, per plugin folder."""
    dists = {p.name: p.distribution for p in plugins.get_plugins()}
    out: dict[Path, list[Model]] = {}
    for entry in plugins.get_registry().models:
        dist = dists.get(entry.plugin)
        if dist is None or not is_first_party(dist) or dist == "tooletta-core":
            continue
        if entry.row.template and entry.row.chat_name is not None:
            out.setdefault(ROOT / "plugins" / dist, []).append(entry.row)
    return out


def digests(root: Path, rows: list[Model]) -> dict[str, tuple[tuple[str, str], ...]]:
    """Per template path named by a row: ``(digest, fixture)`` of it and of the verified
    fixtures of its format no row names (given to the first row of that format)."""
    verified = verified_templates(root)
    named = {r.template for r in rows}
    given: set[str] = set()
    out: dict[str, tuple[tuple[str, str], ...]] = {}
    for row in rows:
        assert row.chat_name is not None
        extra = sorted(verified.get(row.chat_name, set()) - named - given)
        given.update(extra)
        files = [row.template, *extra]
        out[row.template] = tuple(
            (template_digest(load_chat_template(root / f)[0]), f) for f in files
        )
    return out


def _argument(found: tuple[tuple[str, str], ...], indent: str) -> str:
    names: dict[str, list[str]] = {}
    for digest, fixture in found:  # identical copies: one digest, every file named
        names.setdefault(digest, []).append(Path(fixture).name)
    lines = [f"{indent}template_sha256=("]
    for digest, files in names.items():
        lines += [f"{indent}    # {name}" for name in files]
        lines.append(f'{indent}    "{digest}",')
    lines.append(f"{indent}),")
    return "\n".join(lines)


_OLD = re.compile(r"\n[ ]*template_sha256=\((?:\n[^\n]*?)*?\n[ ]*\),")


def _inserter(pairs: tuple[tuple[str, str], ...]) -> Callable[[re.Match[str]], str]:
    def insert(match: re.Match[str]) -> str:
        return match.group(0) + "\n" + _argument(pairs, match.group(1))

    return insert


def write(models: Path, found: dict[str, tuple[tuple[str, str], ...]]) -> None:
    """Put the digests into the rows of ``models`` (a plugin's ``models.py``)."""
    text = _OLD.sub("", models.read_text(encoding="utf-8"))
    for template, pairs in found.items():
        line = re.compile(rf'^([ ]*)template="{re.escape(template)}",$', re.MULTILINE)
        text = line.sub(_inserter(pairs), text)
    models.write_text(text, encoding="utf-8")


def main() -> None:
    """Print the digests, or write them into each plugin's ``models.py``."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="write them into models.py")
    args = parser.parse_args()
    for root, rows in sorted(rows_by_plugin().items()):
        found = digests(root, rows)
        if args.write:
            (models,) = root.glob("src/*/models.py")
            write(models, found)
            continue
        for template, pairs in found.items():
            print(f"{root.name} {template}")
            for digest, fixture in pairs:
                print(f"    {digest}  {fixture}")


if __name__ == "__main__":
    main()
