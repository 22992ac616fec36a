"""Sort the pairs the ``duplicates`` command reports into declarations and code (issue 20).

    mkdir /tmp/psrc && for d in plugins/*/src; do p=$(basename $(dirname $d));
        mkdir -p /tmp/psrc/$p && cp -r $d/* /tmp/psrc/$p/; done
    (cd /tmp/psrc && duplicates --repo . --most 200) |
        uv run --no-sync python scripts/duplicate_kinds.py /tmp/psrc

(``duplicates`` is the tool library's command, not a project dependency; it lists at most
200 rows, so a tree with more pairs is sorted in parts, e.g. without its ``models.py``.)

A side of a pair is a *declaration* when every line of it lies in a statement that only
builds data: an assignment (or a bare expression, or a class attribute) whose value is made
of literals, names, attribute reads, tuples/lists/dicts/sets of those, string concatenation,
calls whose arguments are all such values (``DialectInfo(...)``, ``Model(...)``,
``replace(fmt, ...)``) and lambdas returning such values, with no comprehension, condition
or control flow; a function whose whole body is ``return`` of such a value (a declaration
built with a parameter); a class
statement counts by its body, and its docstring, base list and decorators count as
declaration lines. A pair is a declaration pair when both sides are. Everything else is
code. Prints the counts and the code pairs.
"""

from __future__ import annotations

import ast
import re
import sys
from functools import cache
from pathlib import Path

ROW = re.compile(r"^(D\d+) (\S+):(\d+)-(\d+) ~ (\S+):(\d+)-(\d+)(.*)$")
DATA_NODES = (
    ast.Constant,
    ast.Name,
    ast.Attribute,
    ast.Tuple,
    ast.List,
    ast.Dict,
    ast.Set,
    ast.Load,
    ast.Store,
    ast.keyword,
    ast.Call,
    ast.BinOp,
    ast.Add,
    ast.Starred,
    ast.JoinedStr,
    ast.FormattedValue,
    ast.Subscript,
    ast.Slice,
    ast.UnaryOp,
    ast.USub,
    ast.Lambda,
    ast.arguments,
    ast.arg,
)


def is_data(node: ast.AST) -> bool:
    """Whether ``node`` only builds data (see the module docs)."""
    return all(isinstance(n, DATA_NODES) for n in ast.walk(node))


@cache
def declaration_lines(path: Path) -> frozenset[int]:
    """The lines of ``path`` that lie in data-only statements."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines: set[int] = set()

    def mark(node: ast.AST) -> None:
        end = getattr(node, "end_lineno", None) or node.lineno  # type: ignore[attr-defined]
        lines.update(range(node.lineno, end + 1))  # type: ignore[attr-defined]

    def visit(body: list[ast.stmt]) -> None:
        for stmt in body:
            if isinstance(stmt, ast.ClassDef):
                lines.add(stmt.lineno)
                for d in stmt.decorator_list:
                    mark(d)
                for b in stmt.bases:
                    mark(b)
                visit(stmt.body)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
                if is_data(stmt.value):
                    mark(stmt)
            elif isinstance(stmt, (ast.Import, ast.ImportFrom)) or (
                isinstance(stmt, ast.Expr) and is_data(stmt.value)
            ):
                mark(stmt)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                body = stmt.body
                if (
                    body
                    and isinstance(body[0], ast.Expr)
                    and isinstance(body[0].value, ast.Constant)
                ):
                    body = body[1:]
                if (
                    len(body) == 1
                    and isinstance(body[0], ast.Return)
                    and body[0].value is not None
                    and is_data(body[0].value)
                ):
                    mark(stmt)

    visit(tree.body)
    return frozenset(lines)


def side_is_declaration(root: Path, path: str, start: int, end: int) -> bool:
    """Whether every counted line of ``path``'s lines ``start``-``end`` is a declaration line
    (blank lines, comments and lone brackets are not counted, as ``duplicates`` skips them)."""
    decl = declaration_lines(root / path)
    text = (root / path).read_text(encoding="utf-8").splitlines()
    for n in range(start, end + 1):
        line = text[n - 1].strip()
        if not line or line.startswith("#") or line in {")", "]", "}", "),", "],", "},", "("}:
            continue
        if n not in decl:
            return False
    return True


def main() -> None:
    """Read ``duplicates``' rows from stdin; print the counts, then the code pairs."""
    root = Path(sys.argv[1])
    decl: list[str] = []
    code: list[str] = []
    for raw in sys.stdin:
        m = ROW.match(raw.strip())
        if not m:
            continue
        _, a, a0, a1, b, b0, b1, _rest = m.groups()
        both = side_is_declaration(root, a, int(a0), int(a1)) and side_is_declaration(
            root, b, int(b0), int(b1)
        )
        (decl if both else code).append(raw.strip())
    print(f"{len(decl) + len(code)} pairs: {len(decl)} declarations, {len(code)} code")
    for row in code:
        print(row)


if __name__ == "__main__":
    main()
