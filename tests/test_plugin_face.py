"""tooletta.plugin: one import for what plugins use of core."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import tooletta.plugin as face

PLUGINS = Path(__file__).resolve().parent.parent / "plugins"
LEFT_TO_THEIR_MODULES = {
    ("tooletta.toolkit.kvcall", "render_value"),
    ("tooletta.toolkit.invoke", "render_value"),
    ("tooletta.toolkit.jsontext", "json_string"),
}
"""Names meaning two things in core; the face's docstring says so."""


def _core_imports() -> set[tuple[str, str]]:
    """(module, name) of every ``from tooletta... import name`` in the plugins' sources."""
    found: set[tuple[str, str]] = set()
    for path in PLUGINS.glob("*/src/**/*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                continue
            if node.module == "tooletta" or node.module.startswith("tooletta."):
                found.update((node.module, a.name) for a in node.names)
    return found


def test_every_exported_name_exists_and_is_documented() -> None:
    assert len(face.__all__) == len(set(face.__all__)) > 100
    for name in face.__all__:
        value = getattr(face, name)
        if inspect.isfunction(value) or inspect.isclass(value) or inspect.ismodule(value):
            assert value.__doc__, name


def test_the_face_holds_what_plugins_import_from_core() -> None:
    missing = []
    for module, name in sorted(_core_imports() - LEFT_TO_THEIR_MODULES):
        if name not in face.__all__:
            missing.append(f"{module}.{name}")
        else:
            assert getattr(face, name) is getattr(importlib.import_module(module), name), name
    assert not missing, missing
