"""A plugin that raises SystemExit while it is imported or its hooks run is contained like any
other load failure (issue 22, item 12): it once ended every API call and the command line
with the plugin's exit code. KeyboardInterrupt still interrupts."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import tooletta
from tooletta import PluginError, plugins
from tooletta.cli import cli

HERMES = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'

MODULES = {
    "tooletta_exit_import": "import sys\nsys.exit(7)\n",
    "tooletta_exit_register": """
        import sys
        from tooletta import hookimpl

        @hookimpl
        def register_dialects(register):
            sys.exit(8)
        """,
    "tooletta_interrupt_import": "raise KeyboardInterrupt\n",
}


@pytest.fixture()
def entry_point(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[str]:
    """A plugin module behind a fake ``tooletta`` entry point (its name)."""
    module: str = request.param
    (tmp_path / f"{module}.py").write_text(textwrap.dedent(MODULES[module]))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("TOOLETTA_NO_CACHE", "1")
    real = plugins._entry_points
    ep = metadata.EntryPoint(name=module, value=module, group="tooletta")
    monkeypatch.setattr(plugins, "_entry_points", lambda: [*real(), ep])
    plugins.reset()
    yield module
    monkeypatch.undo()
    plugins.reset()


@pytest.mark.parametrize(
    ("entry_point", "code"),
    [("tooletta_exit_import", "7"), ("tooletta_exit_register", "8")],
    indirect=["entry_point"],
)
def test_system_exit_is_a_load_problem(entry_point: str, code: str) -> None:
    assert tooletta.parse(HERMES, "hermes").calls[0].name == "get_weather"
    assert tooletta.detect(HERMES) == "hermes"
    problems = [p for p in plugins.get_registry().problems if p.plugin == entry_point]
    assert len(problems) == 1 and "SystemExit" in problems[0].error and code in problems[0].error
    result = CliRunner().invoke(cli, ["list-dialects", "--plugins", "--json"])
    assert result.exit_code == 0, result
    row = next(p for p in json.loads(result.stdout) if p["name"] == entry_point)
    assert "SystemExit" in row["error"]


@pytest.mark.parametrize("entry_point", ["tooletta_interrupt_import"], indirect=True)
def test_keyboard_interrupt_still_interrupts(entry_point: str) -> None:
    with pytest.raises(KeyboardInterrupt):
        tooletta.parse(HERMES, "hermes")


class _ExitingHooks:
    @tooletta.hookimpl
    def dialect_for_model(self, model: str) -> Any:
        raise SystemExit(9)

    @tooletta.hookimpl
    def register_commands(self, cli: Any) -> None:
        raise SystemExit(10)


def test_system_exit_in_other_hooks_is_contained(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tooletta.cli import _plugin_commands

    plugins.reset()
    try:
        tooletta.register_plugin(_ExitingHooks(), name="exiting-hooks")
        with pytest.raises(PluginError, match="exiting-hooks"):
            tooletta.dialect_for_model("Qwen/Qwen3-8B")
        _plugin_commands()
        assert "warning: a plugin failed to add commands" in capsys.readouterr().err
    finally:
        monkeypatch.undo()
        plugins.reset()
