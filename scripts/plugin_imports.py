"""Point the plugins' imports of core at core's public faces.

A plugin source (``plugins/*/src/**/*.py``) imports core only through its faces: ``tooletta``
(the package's ``__all__``), ``tooletta.plugin`` (the plugin building blocks) and
``tooletta.interop.hf.spec`` (the ``response_template`` helpers, imported by a plugin's
``hf_template`` module only when a template is asked for, so that loading a plugin does not
load :mod:`tooletta.interop`). This script rewrites every other ``from tooletta.x import ...``
into imports from those faces, in place::

    uv run --no-sync python scripts/plugin_imports.py          # rewrite, then ruff (I, format)
    uv run --no-sync python scripts/plugin_imports.py --check  # exit 1 on a non-face import

A name goes to ``tooletta`` when the package exports that very object, else to
``tooletta.plugin``; a name the face exports under another name (``render_value`` of
:mod:`tooletta.toolkit.kvcall` is the face's ``kv_render_value``) is imported under the face's
name ``as`` the old one, so the module's body stays as it is. Only import statements change:
the script can run again after other edits, and a second run changes nothing. A name no face
exports stops the run (exit 2) with the list of what to add to ``tooletta.plugin``.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FACES = ("tooletta", "tooletta.plugin", "tooletta.interop.hf.spec")
"""The modules of core a plugin source may import from."""


@dataclass(frozen=True)
class Violation:
    """One import of a core module that is not a face."""

    path: Path
    line: int
    module: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: imports {self.module} (not a public face)"


def plugin_sources(root: Path = ROOT) -> list[Path]:
    """Every Python source of every plugin, sorted."""
    return sorted(root.glob("plugins/*/src/**/*.py"))


def is_core(module: str) -> bool:
    """Whether ``module`` is ``tooletta`` or one of its submodules."""
    return module == "tooletta" or module.startswith("tooletta.")


def _core_imports(tree: ast.AST) -> Iterator[tuple[ast.stmt, str]]:
    """Every absolute import of core in ``tree``, with the module it names."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if is_core(node.module):
                yield node, node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if is_core(alias.name):
                    yield node, alias.name


def _bodies(tree: ast.AST) -> dict[int, int]:
    """id(statement) -> id(the list of statements it stands in)."""
    where: dict[int, int] = {}
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                for child in block:
                    where[id(child)] = id(block)
    return where


def violations(paths: Iterable[Path]) -> list[Violation]:
    """The imports of a core module other than a face in ``paths`` (``--check``)."""
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node, module in _core_imports(tree):
            if module not in FACES:
                found.append(Violation(path, node.lineno, module))
    return found


class Faces:
    """Where each core name is exported publicly: the package, or the plugin face."""

    def __init__(self) -> None:
        self.package = importlib.import_module("tooletta")
        self.plugin = importlib.import_module("tooletta.plugin")

    def place(self, module: str, name: str) -> tuple[str, str] | None:
        """(face module, name there) of ``module.name``, or None when no face exports it."""
        value = getattr(importlib.import_module(module), name)
        if name in self.package.__all__ and getattr(self.package, name) is value:
            return "tooletta", name
        if name in self.plugin.__all__ and getattr(self.plugin, name) is value:
            return "tooletta.plugin", name
        others = [n for n in self.plugin.__all__ if getattr(self.plugin, n) is value]
        return ("tooletta.plugin", others[0]) if len(others) == 1 else None


def _statement(module: str, names: Sequence[str], indent: str) -> str:
    return f"{indent}from {module} import {', '.join(names)}\n"


def rewrite(source: str, faces: Faces, where: str = "<source>") -> tuple[str, list[str]]:
    """``source`` with its imports of core's internals pointed at the faces, and the
    ``module.name`` s no face exports (then ``source`` comes back unchanged)."""
    tree = ast.parse(source, where)
    lines = source.splitlines(keepends=True)
    missing: list[str] = []
    body_of = _bodies(tree)
    # statements to replace, grouped by the body they stand in (in order of appearance)
    groups: dict[int, list[ast.ImportFrom]] = {}
    for node, module in _core_imports(tree):
        if module in FACES:
            continue
        if not isinstance(node, ast.ImportFrom):
            missing.append(f"{where}:{node.lineno}: `import {module}` (write a from-import)")
            continue
        span = lines[node.lineno - 1 : node.end_lineno]
        head, tail = span[0][: node.col_offset], span[-1][node.end_col_offset or 0 :]
        if head.strip() or tail.strip() or "#" in "".join(span):
            # an import holds no string: a "#" is a comment, which a rewrite would lose
            missing.append(
                f"{where}:{node.lineno}: a comment or another statement on the import's"
                " lines (rewrite it by hand)"
            )
            continue
        groups.setdefault(body_of[id(node)], []).append(node)
    edits: dict[int, tuple[int, str]] = {}  # first line index -> (last line index, new text)
    for nodes in groups.values():
        first = min(nodes, key=lambda n: n.lineno)
        indent = " " * first.col_offset
        targets: dict[str, list[str]] = {}
        for node in nodes:
            assert node.module is not None and node.end_lineno is not None
            for alias in node.names:
                place = faces.place(node.module, alias.name)
                if place is None:
                    missing.append(f"{node.module}.{alias.name}")
                    continue
                face, public = place
                local = alias.asname or alias.name
                targets.setdefault(face, []).append(
                    public if public == local else f"{public} as {local}"
                )
            edits[node.lineno - 1] = (node.end_lineno - 1, "")
        text = "".join(_statement(face, names, indent) for face, names in targets.items())
        edits[first.lineno - 1] = (edits[first.lineno - 1][0], text)
    if missing or not edits:
        return source, missing
    out: list[str] = []
    index = 0
    while index < len(lines):
        if index in edits:
            last, text = edits[index]
            out.append(text)
            index = last + 1
        else:
            out.append(lines[index])
            index += 1
    return "".join(out), missing


def tidy(paths: Sequence[Path]) -> None:
    """ruff's import sorting and formatting on ``paths``."""
    if not paths:
        return
    files = [str(p) for p in paths]
    ruff = [sys.executable, "-m", "ruff"]
    subprocess.run([*ruff, "check", "--fix", "--select", "I", "--quiet", *files], check=True)
    subprocess.run([*ruff, "format", "--quiet", *files], check=True)


def _shown(path: Path) -> str:
    """``path`` relative to the working directory when it is below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def main(argv: Sequence[str] | None = None) -> int:
    """Rewrite (or with ``--check`` only look at) the plugin sources; see the module doc."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 on a non-face import")
    parser.add_argument("paths", nargs="*", type=Path, help="files (default: every plugin's)")
    args = parser.parse_args(argv)
    paths: list[Path] = args.paths or plugin_sources()
    if args.check:
        found = violations(paths)
        for violation in found:
            print(violation)
        return 1 if found else 0
    faces = Faces()
    changed: list[Path] = []
    missing: list[str] = []
    for path in paths:
        source = path.read_text(encoding="utf-8")
        new, lacking = rewrite(source, faces, str(path))
        missing += lacking
        if new != source:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    tidy(changed)
    for path in changed:
        print(f"rewrote {_shown(path)}")
    if missing:
        print("no public face exports (add them to tooletta.plugin):", file=sys.stderr)
        for name in sorted(set(missing)):
            print(f"  {name}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
