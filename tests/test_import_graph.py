"""Core's runtime import graph: no cycle between ``tooletta.api`` and ``tooletta.chat``, and
no more cycles or back arrows than today (module-level imports; ``TYPE_CHECKING`` blocks and
imports inside functions are not runtime edges at import time)."""

from __future__ import annotations

import ast
from pathlib import Path

import tooletta

ROOT = Path(tooletta.__file__).parent

FLOORS: tuple[tuple[str, ...], ...] = (
    (
        "errors",
        "ir",
        "limits",
        "hookspecs",
        "rows",
        "jsonout",
        "stream_checks",
        "extras",
        "exportname",
    ),
    ("engine",),
    ("boundary", "expressible", "toolkit", "dialect", "builtin", "shapes"),
    ("registry", "precedence", "firstparty", "plugins", "claims", "installed", "catalog"),
    ("chat", "training", "model_stream", "plugin"),
    ("api",),
    ("interop",),
    ("cli", "testing"),
)
"""The floors, low to high: a module may import its own floor and the ones below."""

MAX_CYCLES = 0
"""Import cycles (strongly connected groups of modules) at import time: none."""
MAX_BACK_ARROWS = 0
"""Modules importing a higher floor at import time: none."""


def _module_name(path: Path) -> str:
    parts = ["tooletta", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _top_imports(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    out: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        elif isinstance(node, ast.If) and not _is_type_checking(node):
            out += _top_imports(node.body) + _top_imports(node.orelse)
        elif isinstance(node, ast.Try):
            out += _top_imports(node.body)
    return out


def _all_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import outside ``if TYPE_CHECKING:`` blocks, also inside functions (lazy)."""
    out: list[ast.Import | ast.ImportFrom] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            todo.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def import_graph(lazy: bool = False) -> dict[str, set[str]]:
    """Module -> the tooletta modules it imports when it is imported (``lazy``: or when one
    of its functions runs)."""
    modules = {_module_name(p): p for p in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _all_imports(tree) if lazy else _top_imports(tree.body):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                mod = node.module or ""
                base = f"{base}.{mod}".strip(".") if node.level else mod
                targets = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
                targets = targets or [base]
            for target in targets:  # importing a.b.c runs the package a.b first
                parts = target.split(".")
                edges.update(".".join(parts[:i]) for i in range(2, len(parts) + 1))
        edges = {t for t in edges if t in modules and t != name and not name.startswith(t + ".")}
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def floor(module: str) -> int | None:
    """The floor of a module (``None``: the package itself, which only re-exports)."""
    parts = module.split(".")
    if len(parts) < 2:
        return None
    for level, names in enumerate(FLOORS):
        if parts[1] in names:
            return level
    return None


def back_arrows(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Imports from a module to one on a higher floor."""
    out = []
    for source, targets in sorted(graph.items()):
        for target in sorted(targets):
            a, b = floor(source), floor(target)
            if a is not None and b is not None and b > a:
                out.append((source, target))
    return out


GRAPH = import_graph()
LAZY = import_graph(lazy=True)
MAX_LAZY_CYCLES = 0
"""Cycles counting the imports inside functions too: none (the message readers chat needs
are in ``shapes``, below it; the registry's first-party messages come from a leaf,
``firstparty``, and the live tables it is generated from from ``installed``, above the
plugin loader)."""
MAX_LAZY_BACK_ARROWS = 0
"""Modules importing a higher floor inside a function: none."""


def test_every_core_module_has_a_floor() -> None:
    missing = [m for m in GRAPH if m != "tooletta" and floor(m) is None]
    assert not missing


def _chat(module: str) -> bool:
    return module == "tooletta.chat" or module.startswith("tooletta.chat.")


def test_no_cycle_between_api_and_chat() -> None:
    for group in cycles(GRAPH):
        assert not ("tooletta.api" in group and any(map(_chat, group))), sorted(group)


def test_no_chat_module_imports_api_even_lazily() -> None:
    """The lookup ``api -> chat.lookup -> api`` is gone (the catalog below both owns it),
    and so is ``chat.messages -> interop`` (the message readers are in ``shapes``, below
    ``chat``: issue 20 item 4)."""
    assert not [(s, t) for s, t in back_arrows(LAZY) if _chat(s) and t == "tooletta.api"]


def test_the_catalog_imports_nothing_upward() -> None:
    for graph in (GRAPH, LAZY):
        assert not [t for s, t in back_arrows(graph) if s in ("tooletta.catalog", "tooletta.rows")]
        assert "tooletta.api" not in graph["tooletta.chat.lookup"]


def _report(graph: dict[str, set[str]]) -> tuple[int, int, str]:
    found = cycles(graph)
    arrows = back_arrows(graph)
    lines = [f"cycle: {' <-> '.join(sorted(g))}" for g in found]
    lines += [f"back arrow: {s} -> {t}" for s, t in arrows]
    return len(found), len({s for s, _ in arrows}), "\n".join(lines)


def test_cycles_and_back_arrows_do_not_grow() -> None:
    found, arrows, report = _report(GRAPH)
    print(report)
    assert found <= MAX_CYCLES, report
    assert arrows <= MAX_BACK_ARROWS, report


def test_lazy_cycles_and_back_arrows_do_not_grow() -> None:
    found, arrows, report = _report(LAZY)
    print(report)
    assert found <= MAX_LAZY_CYCLES, report
    assert arrows <= MAX_LAZY_BACK_ARROWS, report


def test_the_first_party_tables_import_nothing_of_core() -> None:
    """The registry asks :mod:`tooletta.firstparty` for the message of an unknown name: it
    stays a leaf, so asking closes no cycle (the live tables are in ``tooletta.installed``)."""
    assert not LAZY["tooletta.firstparty"]
    assert not [t for t in LAZY["tooletta.chat.messages"] if t.startswith("tooletta.interop")]
