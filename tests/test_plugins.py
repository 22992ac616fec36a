"""Plugin loading: fail-soft imports, duplicates reported, environment switches, hooks."""

from __future__ import annotations

from importlib import metadata
from typing import Any

import pytest

import tooletta
from tooletta import plugins


def _fake_entry_point(name: str, value: str) -> metadata.EntryPoint:
    return metadata.EntryPoint(name=name, value=value, group="tooletta")


def test_import_failure_is_recorded_and_others_keep_working(fresh: pytest.MonkeyPatch) -> None:
    real = plugins._entry_points
    fresh.setattr(
        plugins, "_entry_points", lambda: [*real(), _fake_entry_point("broken", "no_such_module_x")]
    )
    registry = plugins.get_registry()
    assert any(p.plugin == "broken" and "ModuleNotFoundError" in p.error for p in registry.problems)
    assert tooletta.get_dialect("hermes").info.name == "hermes"
    info = next(p for p in plugins.get_plugins() if p.name == "broken")
    assert info.error and "no_such_module_x" in info.error


def test_load_plugins_env_selects_and_disables(fresh: pytest.MonkeyPatch) -> None:
    fresh.setenv("TOOLETTA_LOAD_PLUGINS", "")
    assert {i.name for i in tooletta.list_dialects()} == {"canonical"}
    plugins.reset()
    fresh.setenv("TOOLETTA_LOAD_PLUGINS", "tooletta-dialect-hermes")
    assert {i.name for i in tooletta.list_dialects()} == {"canonical", "hermes"}
    plugins.reset()
    fresh.delenv("TOOLETTA_LOAD_PLUGINS")
    fresh.setenv("TOOLETTA_DISABLE_PLUGINS", "hermes")
    assert "hermes" not in {i.name for i in tooletta.list_dialects()}


class _Dup:
    info = tooletta.DialectInfo(name="qwen", aliases=())

    def parse(self, text: str, tools: Any = None) -> tooletta.ParseResult:
        return tooletta.ParseResult(text)

    def render(self, calls: Any, content: str = "") -> str:
        return content


class _RaisingPlugin:
    @tooletta.hookimpl
    def register_dialects(self, register: Any) -> None:
        register(_Dup())  # clashes with hermes' alias "qwen": reported, not raised
        raise RuntimeError("plugin bug")


def test_duplicates_and_raising_hooks_are_reported(fresh: pytest.MonkeyPatch) -> None:
    with pytest.raises(tooletta.DuplicateDialectError, match="qwen"):
        tooletta.register_dialect(_Dup())
    registry = plugins.get_registry()
    plugin = _RaisingPlugin()
    plugins.get_plugin_manager().register(plugin, name="raiser")
    plugins._register_all(plugins.get_plugin_manager(), registry, plugins.get_plugins())
    messages = " ".join(p.error for p in registry.problems)
    assert "plugin bug" in messages and "already taken" in messages
    assert tooletta.get_dialect("qwen").info.name == "hermes"


class _ModelPlugin:
    @tooletta.hookimpl
    def dialect_for_model(self, model: str) -> str | None:
        return "canonical" if model.startswith("acme/") else None


def test_dialect_for_model_hook_wins_over_patterns(fresh: pytest.MonkeyPatch) -> None:
    plugins.get_plugin_manager().register(_ModelPlugin(), name="model-plugin")
    assert tooletta.dialect_for_model("acme/model-1") == "canonical"
    assert tooletta.dialect_for_model("Qwen/Qwen3-8B") == "hermes"


def test_hook_docstrings_exist() -> None:
    from tooletta import hookspecs

    for name in ("register_dialects", "dialect_for_model", "register_commands"):
        assert getattr(hookspecs, name).__doc__
