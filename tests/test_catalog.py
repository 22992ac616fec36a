"""The model catalog: rows, lookups, and first-party rows keeping their model ids."""

from __future__ import annotations

import sys
import types
import warnings
from collections.abc import Iterator
from importlib import metadata
from typing import Any

import pytest
from click.testing import CliRunner

import tooletta
from support import plugin_module
from tooletta import ToolettaError, ToolettaWarning, catalog, plugins
from tooletta.catalog import Model, patterns_of
from tooletta.cli import cli

QWEN3 = "Qwen/Qwen3-8B"  # a first-party row of hermes (the qwen3 conversation format)


@pytest.fixture()
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    plugins.reset()
    monkeypatch.setenv("TOOLETTA_NO_CACHE", "1")
    yield monkeypatch
    monkeypatch.undo()
    plugins.reset()


def test_the_catalog_is_the_one_owner_of_the_lookups() -> None:
    import tooletta.api
    import tooletta.chat
    import tooletta.chat.lookup

    assert tooletta.get_dialect is catalog.get_dialect
    assert tooletta.list_dialects is catalog.list_dialects
    assert tooletta.dialect_for_model is catalog.dialect_for_model
    assert tooletta.api.get_dialect is catalog.get_dialect
    assert tooletta.chat.resolve_format is catalog.resolve_format
    assert tooletta.chat.chat_formats_of is catalog.chat_formats_of
    assert tooletta.chat.lookup.find_format is catalog.find_format


def test_resolve_gives_the_dialect_object_and_the_format() -> None:
    obj, fmt = catalog.resolve("Qwen/Qwen3.5-4B")
    assert (obj.info.name, fmt.name) == ("qwen3_coder", "qwen35")
    obj, fmt = catalog.resolve(dialect="nemotron3")
    assert (obj.info.name, fmt.name) == ("nemotron3", "nemotron3")
    with pytest.raises(ToolettaError):
        catalog.resolve()


def test_a_row_picks_the_variant_render_writes() -> None:
    model = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"
    assert tooletta.dialect_for_model(model) == "nemotron3"
    row = catalog.model_row(model)
    assert row is not None and row.row.chat_name == "nemotron3" and row.first_party


def test_a_row_may_name_several_dialects_the_first_the_default() -> None:
    model = "meta-llama/Llama-4-Scout-17B-16E-Instruct"
    assert catalog.dialects_for_model(model) == ("llama4_json", "pythonic")
    assert tooletta.dialect_for_model(model) == "llama4_json"
    assert catalog.dialects_for_model("unknown/model") == ()


def test_a_template_is_resolved_by_the_installed_resolver() -> None:
    with pytest.raises(ToolettaError, match="resolver"):
        catalog.resolve(template="{{ messages }}")
    hermes = tooletta.get_dialect("hermes")
    fmt = catalog.chat_formats_of(hermes)[0]
    seen: list[tuple[Any, ...]] = []

    def resolver(template: str, model: str | None, dialect: str | None) -> Any:
        seen.append((template, model, dialect))
        return (hermes, fmt) if template == "known" else None

    catalog.set_template_resolver(resolver)
    try:
        assert catalog.resolve(QWEN3, template="known") == (hermes, fmt)
        with pytest.raises(ToolettaError, match="reproduces"):
            catalog.resolve(template="other")
    finally:
        catalog.set_template_resolver(None)
    assert seen[0] == ("known", QWEN3, None)


def test_model_rows_are_checked_when_made() -> None:
    with pytest.raises(ToolettaError):
        Model("", dialect="hermes")
    with pytest.raises(ToolettaError):
        Model("acme/*")
    with pytest.raises(ToolettaError):
        Model("acme/*", dialect="hermes", chat=42)
    row = Model(("Acme/A-*", "a-*"), dialects=("hermes", "canonical"), chat="qwen3")
    assert row.patterns == ("acme/a-*", "a-*") and row.dialect == "hermes"
    assert row.score("acme/A-1") == len("acme/a-*") and row.score("other/b") == -1


def test_patterns_are_derived_from_the_rows() -> None:
    rows = (
        Model("a/x-*", dialect="d1", chat="f1"),
        Model(("a/y-*", "y-*"), dialect="d1"),
        Model("b/z-*", dialects=("d2", "d1"), chat="f2"),
    )
    assert patterns_of(rows, "d1") == ("a/x-*", "a/y-*", "y-*")
    assert patterns_of(rows, chat="f2") == ("b/z-*",)
    qwen = tooletta.get_dialect("qwen3_coder")
    assert "qwen/qwen3.5-*" in qwen.info.models
    assert "qwen/qwen3.5-*" in catalog.chat_formats_of(qwen)[1].models


# -- issue 22 item 8: a third party does not take a first-party model id over -------------


class _Claimer:
    """A third-party dialect whose models patterns claim Qwen3 ids."""

    info = tooletta.DialectInfo(name="claimer", models=("qwen/qwen3-*",), markers=("<<c>>",))

    def parse(self, text: str, tools: Any = None) -> tooletta.ParseResult:
        return tooletta.ParseResult(content=text, calls=[], dialect="claimer")

    def render(self, calls: Any, content: str = "") -> str:
        return content


def _claiming_module() -> types.ModuleType:
    return plugin_module(
        "tooletta_claimer_test", _Claimer(), Model("acme/claimed-*", dialect="claimer")
    )


def test_an_entry_point_plugin_claiming_first_party_ids_is_reported(
    fresh: pytest.MonkeyPatch,
) -> None:
    fresh.setitem(sys.modules, "tooletta_claimer_test", _claiming_module())
    real = plugins._entry_points
    point = metadata.EntryPoint(name="claimer", value="tooletta_claimer_test", group="tooletta")
    fresh.setattr(plugins, "_entry_points", lambda: [*real(), point])
    with pytest.warns(ToolettaWarning, match=r"qwen/qwen3-\*.*first-party"):
        registry = plugins.get_registry()
    assert tooletta.dialect_for_model(QWEN3) == "hermes"
    assert tooletta.dialect_for_model("acme/claimed-1") == "claimer"  # nobody else's id
    errors = [p.error for p in registry.problems if p.plugin == "claimer"]
    assert len(errors) == 1 and "claimer" in errors[0] and "hermes" in errors[0]
    info = next(p for p in plugins.get_plugins() if p.name == "claimer")
    assert info.error is not None and "qwen/qwen3-*" in info.error
    result = CliRunner().invoke(cli, ["list-dialects"])
    assert "qwen/qwen3-*" in result.output + result.stderr


def test_an_in_process_row_claiming_first_party_ids_is_reported(
    fresh: pytest.MonkeyPatch,
) -> None:
    with pytest.warns(ToolettaWarning, match="hermes"):
        tooletta.register_dialect(Model("qwen/qwen3-*", dialect="canonical"))
    assert tooletta.dialect_for_model(QWEN3) == "hermes"
    assert any("qwen/qwen3-*" in p.error for p in plugins.get_registry().problems)
    fmt, obj = catalog.resolve_format(QWEN3, None)
    assert (fmt.name, obj.info.name) == ("qwen3", "hermes")


class _Hook:
    @tooletta.hookimpl
    def dialect_for_model(self, model: str) -> str | None:
        return "canonical" if model.lower().startswith(("qwen/", "acme/")) else None


def test_a_hook_claiming_first_party_ids_is_reported_not_followed(
    fresh: pytest.MonkeyPatch,
) -> None:
    with pytest.warns(ToolettaWarning, match="claiming-hook.*hermes"):  # asked at registration
        tooletta.register_plugin(_Hook(), name="claiming-hook")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # reported once
        assert tooletta.dialect_for_model(QWEN3) == "hermes"
        assert tooletta.dialect_for_model("Qwen/Qwen3-32B") == "hermes"
        assert tooletta.dialect_for_model("acme/model") == "canonical"
    problems = [p for p in plugins.get_registry().problems if p.plugin == "claiming-hook"]
    assert len(problems) == 1 and "hermes" in problems[0].error


def test_a_hook_answering_only_at_lookup_is_reported_then(fresh: pytest.MonkeyPatch) -> None:
    class _Late:
        @tooletta.hookimpl
        def dialect_for_model(self, model: str) -> str | None:
            return "canonical" if model == QWEN3 else None  # no pattern spells this id

    tooletta.register_plugin(_Late(), name="late-hook")
    with pytest.warns(ToolettaWarning, match="late-hook"):
        assert tooletta.dialect_for_model(QWEN3) == "hermes"


def test_an_entry_point_hook_claiming_first_party_ids_is_listed(
    fresh: pytest.MonkeyPatch,
) -> None:
    module = types.ModuleType("tooletta_claiming_hook_test")
    module.dialect_for_model = _Hook.dialect_for_model.__get__(_Hook())  # type: ignore[attr-defined]
    fresh.setitem(sys.modules, "tooletta_claiming_hook_test", module)
    real = plugins._entry_points
    point = metadata.EntryPoint(
        name="hooker", value="tooletta_claiming_hook_test", group="tooletta"
    )
    fresh.setattr(plugins, "_entry_points", lambda: [*real(), point])
    with pytest.warns(ToolettaWarning, match="hooker"):
        plugins.get_registry()
    info = next(p for p in plugins.get_plugins() if p.name == "hooker")
    assert info.error is not None and "first-party" in info.error
    result = CliRunner().invoke(cli, ["list-dialects", "--plugins"])
    assert "hooker" in result.output and "first-party rows keep them" in result.output


def test_a_third_party_pattern_for_the_same_dialect_is_no_conflict(
    fresh: pytest.MonkeyPatch,
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tooletta.register_dialect(Model("qwen/qwen3-8b*", dialect="hermes"))
    assert tooletta.dialect_for_model(QWEN3) == "hermes"


MODEL_PROBE = """
import json, sys
import tooletta
from tooletta.plugins import get_registry
before = set(sys.modules)
name = tooletta.dialect_for_model("Qwen/Qwen3.5-4B")
rows = len(get_registry().models)
lazy = sorted(m for m in set(sys.modules) - before if m.startswith("tooletta_dialect"))
fmt = tooletta.catalog.resolve("Qwen/Qwen3.5-4B")[1].name
print(json.dumps({"name": name, "rows": rows, "imported": lazy, "format": fmt}))
"""


def test_rows_come_from_the_plugin_index_without_importing_plugins(tmp_path: Any) -> None:
    import json
    import os
    import subprocess

    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLETTA_")}
    env["TOOLETTA_CACHE_DIR"] = str(tmp_path)

    def probe() -> dict[str, Any]:
        run = [sys.executable, "-c", MODEL_PROBE]
        out = subprocess.run(run, env=env, capture_output=True, text=True, check=True)
        found: dict[str, Any] = json.loads(out.stdout)
        return found

    first, second = probe(), probe()  # the first builds the index, the second reads it
    assert first["rows"] == second["rows"] > 50
    assert first["name"] == second["name"] == "qwen3_coder"
    assert second["imported"] == []  # the model's dialect, found with no plugin imported
    assert first["format"] == second["format"] == "qwen35"


def test_the_lookup_caches_never_take_a_new_registry_for_a_freed_one() -> None:
    """The remembered lookups key on :attr:`Registry.serial`, not ``id()``: CPython gives a
    registry made after one was freed the freed one's address, and with the same counts an
    ``id()`` key would hand the new registry the old one's formats."""
    from tooletta.registry import Registry

    serials, addresses = set(), set()
    for _ in range(64):
        registry = Registry()
        serials.add(registry.serial)
        addresses.add(id(registry))
        assert registry.state() == (registry.serial, 0, 0)
        del registry
    assert len(serials) == 64
    assert len(addresses) < 64  # why id() was not enough
    live = plugins.get_registry()
    assert live.state() == (live.serial, len(live.entries), len(live.models))
