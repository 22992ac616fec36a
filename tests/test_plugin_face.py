"""tooletta.plugin: one import for what plugins use of core, and plugins import core only
through the public faces (``scripts/plugin_imports.py --check``, as a test)."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tooletta.plugin as face
from support import ROOT


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "plugin_imports", ROOT / "scripts" / "plugin_imports.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


script = _load_script()
faces = script.Faces()


def _face_imports() -> set[tuple[str, str]]:
    """(module, name) of every ``from tooletta... import name`` in the plugins' sources."""
    found: set[tuple[str, str]] = set()
    for path in script.plugin_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and script.is_core(node.module):
                found.update((node.module, a.name) for a in node.names)
    return found


def test_every_exported_name_exists_and_is_documented() -> None:
    assert len(face.__all__) == len(set(face.__all__)) > 100
    for name in face.__all__:
        value = getattr(face, name)
        if inspect.isfunction(value) or inspect.isclass(value) or inspect.ismodule(value):
            assert value.__doc__, name


def test_plugin_sources_import_core_only_through_the_faces() -> None:
    """``scripts/plugin_imports.py --check``: run the script to fix a failure here."""
    assert len(script.plugin_sources()) > 100
    found = script.violations(script.plugin_sources())
    assert not found, "\n".join(map(str, found))


def test_plugins_import_only_the_faces_public_names() -> None:
    wrong = [
        f"{module}.{name}"
        for module, name in sorted(_face_imports())
        if name not in importlib.import_module(module).__all__
    ]
    assert not wrong, wrong


@pytest.mark.parametrize(
    ("module", "name", "public"),
    [
        ("tooletta.toolkit.kvcall", "render_value", "kv_render_value"),
        ("tooletta.toolkit.invoke", "render_value", "invoke_render_value"),
        ("tooletta.toolkit.jsontext", "json_string", "quote_json_string"),
        ("tooletta.engine.jsonread", "json_string", "json_string"),
        ("tooletta.limits", "derived_call_id", "derived_call_id"),
    ],
)
def test_names_meaning_two_things_have_one_face_name_each(
    module: str, name: str, public: str
) -> None:
    assert faces.place(module, name) == ("tooletta.plugin", public)
    assert getattr(face, public) is getattr(importlib.import_module(module), name)


def test_the_package_face_wins_over_the_plugin_face() -> None:
    assert faces.place("tooletta.dialect", "ScannerDialect") == ("tooletta", "ScannerDialect")
    assert faces.place("tooletta.errors", "ParseError") == ("tooletta", "ParseError")
    assert faces.place("tooletta.chat", "ChatFormat") == ("tooletta.plugin", "ChatFormat")


def test_check_finds_imports_of_internals(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text(
        "from tooletta import ToolCall\n"
        "from tooletta.plugin import Grammar\n"
        "from tooletta.interop.hf.spec import Export\n"
        "from .sibling import x\n"
        "import msgspec\n"
        "from tooletta.engine import Reader\n"
        "import tooletta.chat\n"
        "def f():\n"
        "    from tooletta.toolkit.kvcall import KvTags\n",
        encoding="utf-8",
    )
    found = script.violations([source])
    assert [(v.line, v.module) for v in found] == [
        (6, "tooletta.engine"),
        (7, "tooletta.chat"),
        (9, "tooletta.toolkit.kvcall"),
    ]
    assert script.main(["--check", str(source)]) == 1
    source.write_text("from tooletta.plugin import Grammar\n", encoding="utf-8")
    assert script.main(["--check", str(source)]) == 0


def test_rewrite_keeps_the_body_and_nested_imports_in_place() -> None:
    source = (
        '"""Doc."""\n'
        "\n"
        "from tooletta import ToolCall\n"
        "from tooletta.engine import (\n"
        "    Grammar,\n"
        "    loads as json_loads,\n"
        ")\n"
        "from tooletta.toolkit.kvcall import render_value\n"
        "\n"
        "X = 1\n"
        "\n"
        "def f():\n"
        "    from tooletta.errors import RenderError\n"
        "    return RenderError\n"
    )
    new, missing = script.rewrite(source, faces)
    assert not missing
    assert new == (
        '"""Doc."""\n'
        "\n"
        "from tooletta import ToolCall\n"
        "from tooletta.plugin import Grammar, loads as json_loads, "
        "kv_render_value as render_value\n"
        "\n"
        "X = 1\n"
        "\n"
        "def f():\n"
        "    from tooletta import RenderError\n"
        "    return RenderError\n"
    )
    assert script.rewrite(new, faces) == (new, [])


@pytest.mark.parametrize(
    "source",
    [
        "from tooletta.engine import Grammar  # the engine's\n",
        "from tooletta.engine import (\n    Grammar,  # the engine's\n)\n",
        "x = 1; from tooletta.engine import Grammar\n",
        "from tooletta.engine import Grammar; x = 1\n",
    ],
)
def test_rewrite_leaves_comments_and_shared_lines_to_a_person(source: str) -> None:
    new, missing = script.rewrite(source, faces, "m.py")
    assert new == source
    assert missing == [
        "m.py:1: a comment or another statement on the import's lines (rewrite it by hand)"
    ]


def test_rewrite_refuses_names_no_face_exports() -> None:
    source = "from tooletta.registry import Registry\n"
    assert script.rewrite(source, faces) == (source, ["tooletta.registry.Registry"])
    source = "import tooletta.engine\n"
    new, missing = script.rewrite(source, faces, "m.py")
    assert new == source and missing == ["m.py:1: `import tooletta.engine` (write a from-import)"]


INTERNALS = sorted(
    {
        ("tooletta.engine", "Grammar"),
        ("tooletta.engine", "json_string"),
        ("tooletta.engine", "loads"),
        ("tooletta.engine.trim", "Trimmer"),
        ("tooletta.chat", "ChatFormat"),
        ("tooletta.chat.messages", "text_of"),
        ("tooletta.catalog", "Model"),
        ("tooletta.dialect", "ScannerDialect"),
        ("tooletta.jsonout", "to_json"),
        ("tooletta.toolkit.kvcall", "render_value"),
        ("tooletta.toolkit.kvcall", "KvTags"),
        ("tooletta.toolkit.invoke", "render_value"),
        ("tooletta.toolkit.jsontext", "json_string"),
        ("tooletta.toolkit.args", "typed_value"),
        ("tooletta.limits", "derived_call_id"),
    }
)


def _bindings(source: str) -> dict[str, Any]:
    space: dict[str, Any] = {}
    exec(compile(source, "<generated>", "exec"), space)
    return {k: v for k, v in space.items() if k != "__builtins__"}


@given(
    st.lists(
        st.tuples(st.sampled_from(INTERNALS), st.sampled_from(["", "local_a", "local_b"])),
        min_size=1,
        max_size=6,
    )
)
def test_rewrite_binds_the_same_objects_to_the_same_names(
    picks: list[tuple[tuple[str, str], str]],
) -> None:
    """Whatever internals a module imports (and as what), the rewritten imports bind each
    local name to the very same object, through the faces only, and a second run is a no-op."""
    lines: list[str] = []
    seen: set[str] = set()
    for (module, name), alias in picks:
        if (alias or name) not in seen:
            seen.add(alias or name)
            lines.append(f"from {module} import {name}" + (f" as {alias}" if alias else ""))
    source = "x = 0\n" + "\n".join(lines) + "\ny = 1\n"
    new, missing = script.rewrite(source, faces)
    assert not missing
    assert _bindings(new) == _bindings(source)
    tree = ast.parse(new)
    modules = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert modules <= {"tooletta", "tooletta.plugin"}
    assert script.rewrite(new, faces) == (new, [])
