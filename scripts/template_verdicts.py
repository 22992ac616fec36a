"""Write the table of ``tooletta.chat.identify``'s verdict on every chat template we can read:
the ones the plugins vendor (``plugins/*/tests/templates``) and llama.cpp's
``models/templates/`` (a clone or mirror of llama.cpp; its git directory or a work tree).

Run in the workspace, where every first-party plugin is installed::

    uv run --no-sync python scripts/template_verdicts.py --llama-cpp PATH \\
        --output docs/concepts/template-verdicts.md

Without ``--output`` the page is printed. Nothing is downloaded.
"""

from __future__ import annotations

import argparse
import hashlib
import subprocess
import sys
from pathlib import Path

from tooletta import ToolettaError
from tooletta.chat import Identification, identify
from tooletta.chat.probes import PROBE_SUITE_VERSION

ROOT = Path(__file__).resolve().parent.parent


SCAFFOLD = "_template"
"""The copy-me plugin (``plugins/_template``): its fixture is the chat template of a fictional
model (``example-org/Example-1``) that no real model writes and no installed plugin serves,
so it is not one of the vendored templates the page (and ``docs/concepts/templates.md``)
counts."""


def vendored() -> list[tuple[str, str, str]]:
    """``(where, name, text)`` of every template a plugin vendors (every
    ``plugins/*/tests/templates/*.jinja`` but the :data:`SCAFFOLD`'s)."""
    return [
        (path.parts[-4].removeprefix("tooletta-dialect-"), path.name, path.read_text("utf-8"))
        for path in sorted(ROOT.glob("plugins/*/tests/templates/*.jinja"))
        if SCAFFOLD not in path.parts
    ]


def llama_cpp(source: Path) -> tuple[str, list[tuple[str, str, str]]]:
    """llama.cpp's commit and ``(where, name, text)`` of each of its ``models/templates/``."""
    folder = source / "models" / "templates"
    if folder.is_dir():
        files = sorted(folder.glob("*.jinja"))
        head = _git(source, "rev-parse", "HEAD") if (source / ".git").exists() else "work tree"
        return head, [("llama.cpp", f.name, f.read_text("utf-8")) for f in files]
    head = _git(source, "rev-parse", "HEAD")
    names = _git(source, "ls-tree", "--name-only", "HEAD", "models/templates/").split()
    out = []
    for name in sorted(n for n in names if n.endswith(".jinja")):
        text = _git(source, "show", f"HEAD:{name}", strip=False)
        out.append(("llama.cpp", name.rsplit("/", 1)[-1], text))
    return head, out


def _git(source: Path, *args: str, strip: bool = True) -> str:
    where = ["-C", str(source)] if (source / ".git").exists() else [f"--git-dir={source}"]
    done = subprocess.run(
        ["git", *where, *args], capture_output=True, check=True, text=True, encoding="utf-8"
    )
    return done.stdout.strip() if strip else done.stdout


def verdict(ident: Identification) -> tuple[str, str]:
    """The verdict and its evidence, as table cells."""
    if ident.format is not None:
        also = f"; also {', '.join(ident.also)}" if ident.also else ""
        skipped = f"; {len(ident.skipped)} probes raised in the template" if ident.skipped else ""
        if ident.known and ident.differences:
            probes = ", ".join(f"`{d.probe}`" for d in ident.differences[:3])
            more = len(ident.differences) - 3
            probes += f" and {more} more" if more > 0 else ""
            return (
                f"**{ident.format}** (known)",
                f"a verified template: {len(ident.matched)} probes; its documented "
                f"differences on {probes}{skipped}",
            )
        known = "; a verified template" if ident.known else ""
        return f"**{ident.format}**", f"{len(ident.matched)} probes{skipped}{also}{known}"
    if ident.near:
        miss = ident.near[0]
        detail = f"closest {miss.format}: probe `{miss.probe}` at {miss.offset}"
        return "none", detail
    if ident.skipped and len(ident.skipped) >= len(ident.matched):
        first = next(iter(ident.skipped.values()))
        return "none", f"the template raised on every probe: {_cell(first[:90])}"
    return "none", "no known format's markers occur in its renders"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def page(rows: list[tuple[str, str, str, str]], head: str) -> str:
    """The Markdown page."""
    named = sum(r[2] not in ("none", "error") for r in rows)
    known = sum(r[2].endswith("(known)") for r in rows)
    own = sum(r[0] != "llama.cpp" for r in rows)
    lines = [
        "# Template verdicts",
        "",
        "What {func}`tooletta.chat.identify` says of every chat template the plugins vendor as",
        "test fixtures and of every template in llama.cpp's `models/templates/` (commit",
        f"`{head}`; llama.cpp edited some of its copies, see each plugin's `SOURCES.md`):",
        "the known format that reproduces it byte for byte on the probe suite",
        f"(version {PROBE_SUITE_VERSION}), or none, with the closest format and where it first",
        "differs. *A verified template*: a model row declares the template's exact text",
        "verified (`template_sha256`). *(known)*: the format is named by that digest alone,",
        "the probes listed being where it writes what a correct template would, its",
        "documented differences (see {doc}`templates`, *Templates we know by heart*).",
        "See {doc}`templates` for what a verdict means. Written by",
        "`scripts/template_verdicts.py`; a template identical to an earlier row says so.",
        "",
        f"The plugins vendor {own} templates (every `plugins/*/tests/templates/*.jinja` but the",
        f"copy-me plugin `plugins/{SCAFFOLD}`'s, the template of a fictional model that no",
        f"installed plugin serves); llama.cpp's folder holds {len(rows) - own}.",
        "",
        f"{named} of {len(rows)} templates are identified, {known} of them known by heart",
        "(by their digest).",
        "",
        "| source | template | format | evidence |",
        "|---|---|---|---|",
    ]
    lines += [f"| {w} | `{n}` | {v} | {d} |" for w, n, v, d in rows]
    return "\n".join(lines) + "\n"


def main() -> None:
    """Identify every template and write the page."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--llama-cpp", type=Path, help="llama.cpp's git directory or work tree")
    parser.add_argument("--output", type=Path, help="write the page here (default: print it)")
    args = parser.parse_args()
    templates = vendored()
    head = "not read"
    if args.llama_cpp is not None:
        head, more = llama_cpp(args.llama_cpp)
        templates += more
    rows = []
    seen: dict[str, str] = {}
    for where, name, text in templates:
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        try:
            cell, detail = verdict(identify(text))
        except ToolettaError as exc:
            cell, detail = "error", _cell(str(exc)[:120])
        if digest in seen:
            detail = f"{detail} (identical to {seen[digest]})"
        else:
            seen[digest] = f"{where} `{name}`"
        rows.append((where, name, cell, _cell(detail)))
    text = page(rows, head[:12])
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
