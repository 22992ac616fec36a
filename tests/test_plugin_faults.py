"""Plugin faults are isolated (issue 7.5): a plugin that fails to import, raises inside
``register_dialects``, registers a taken name, or raises a non-tooletta exception while
parsing, streaming, rendering or detecting is reported — in ``list-dialects`` and as a
:class:`~tooletta.PluginError` naming the plugin — and every other dialect keeps working.
``TOOLETTA_DISABLE_PLUGINS`` turns the bad plugin off.
"""

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
from tooletta import DialectInfo, ParseResult, PluginError, StreamUpdate, ToolCall, plugins
from tooletta.cli import cli
from tooletta.testing import tools_for

HERMES = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
PLUGIN = "faulty-plugin"
MARKER = "<<faulty>>"


class _Boom(Exception):
    """Stands for any bug inside a plugin (not a ToolettaError)."""


class _FaultyStream:
    def __init__(self, where: str) -> None:
        self.where = where

    def feed(self, delta: str) -> StreamUpdate:
        if self.where == "feed":
            raise KeyError("feed bug")
        return StreamUpdate(content=delta)

    def finish(self) -> StreamUpdate:
        raise _Boom("finish bug")


class _Faulty:
    """A dialect whose every method raises a plain exception."""

    info = DialectInfo(name="faulty_test", aliases=("faulty-alias",), markers=(MARKER,))

    def parse(self, text: str, tools: Any = None) -> ParseResult:
        raise KeyError("parse bug")

    def render(self, calls: Any, content: str = "") -> str:
        raise IndexError("render bug")

    def detect(self, text: str) -> bool:
        raise ZeroDivisionError("detect bug")

    def stream(self, tools: Any = None) -> _FaultyStream:
        return _FaultyStream("feed")


class _FaultyFinish(_Faulty):
    info = DialectInfo(name="faulty_finish", markers=("<<faulty-finish>>",))

    def stream(self, tools: Any = None) -> _FaultyStream:
        return _FaultyStream("finish")


class _FaultyFactory(_Faulty):
    info = DialectInfo(name="faulty_factory", markers=("<<faulty-factory>>",))

    def stream(self, tools: Any = None) -> _FaultyStream:
        raise AttributeError("stream factory bug")


class _FaultyBuffered:
    """No ``stream``: core buffers it, and the bug shows at ``finish``."""

    info = DialectInfo(name="faulty_buffered", markers=("<<faulty-buffered>>",))

    def parse(self, text: str, tools: Any = None) -> ParseResult:
        raise KeyError("parse bug")

    def render(self, calls: Any, content: str = "") -> str:
        return content


class _FaultyPlugin:
    @tooletta.hookimpl
    def register_dialects(self, register: Any) -> None:
        for cls in (_Faulty, _FaultyFinish, _FaultyFactory, _FaultyBuffered):
            register(cls())


@pytest.fixture()
def faulty(fresh: pytest.MonkeyPatch) -> Iterator[None]:
    """The faulty dialects registered by a plugin named ``faulty-plugin``."""
    tooletta.register_plugin(_FaultyPlugin(), name=PLUGIN)
    yield


def _names_plugin(exc: pytest.ExceptionInfo[PluginError], dialect: str = "") -> None:
    assert exc.value.plugin == PLUGIN, exc.value
    assert PLUGIN in str(exc.value)
    assert dialect in str(exc.value)
    assert "\n" not in str(exc.value)


# -- raising while working -----------------------------------------------------------------


@pytest.mark.usefixtures("faulty")
def test_parse_and_render_raise_plugin_errors_naming_the_plugin() -> None:
    for strict in (False, True):
        with pytest.raises(PluginError) as exc:
            tooletta.parse(f"x {MARKER}", "faulty-alias", strict=strict)
        _names_plugin(exc, "faulty_test")
        assert isinstance(exc.value.__cause__, KeyError)
    with pytest.raises(PluginError) as exc:
        tooletta.render([ToolCall("f")], "faulty_test")
    _names_plugin(exc, "faulty_test")
    with pytest.raises(PluginError):
        tooletta.convert(HERMES, "hermes", "faulty_test")
    with pytest.raises(PluginError):
        tooletta.convert(MARKER, "faulty_test", "hermes")


@pytest.mark.usefixtures("faulty")
def test_detect_raises_only_where_the_faulty_dialect_is_a_candidate() -> None:
    with pytest.raises(PluginError) as exc:
        tooletta.detect(f"prose {MARKER}")
    _names_plugin(exc)
    assert tooletta.detect(HERMES) == "hermes"
    assert tooletta.parse(HERMES).calls == [ToolCall("get_weather", {"city": "Paris"})]


@pytest.mark.usefixtures("faulty")
@pytest.mark.parametrize("dialect", ["faulty_test", "faulty_finish", "faulty_factory"])
def test_stream_bugs_surface_as_plugin_errors(dialect: str) -> None:
    with pytest.raises(PluginError) as exc:
        parser = tooletta.stream(dialect)
        parser.feed("some text")
        parser.finish()
    _names_plugin(exc, dialect)


@pytest.mark.usefixtures("faulty")
def test_buffered_stream_bug_surfaces_as_plugin_error_at_finish() -> None:
    parser = tooletta.stream("faulty_buffered")
    parser.feed("some text")
    with pytest.raises(PluginError) as exc:
        parser.finish()
    _names_plugin(exc, "faulty_buffered")


@pytest.mark.usefixtures("faulty")
def test_every_other_dialect_keeps_working() -> None:
    call = ToolCall("get_weather", {"city": "Paris"})
    for info in tooletta.list_dialects():
        if info.name.startswith("faulty_"):
            continue
        text = tooletta.render([call], info.name)
        tools = tools_for([call])  # formats that know tool names only from the request
        got = tooletta.parse(text, info.name, tools=tools).calls
        assert [(c.name, c.arguments) for c in got] == [(call.name, call.arguments)], info.name
        parser = tooletta.stream(info.name, tools=tools)
        parser.feed(text)
        parser.finish()


@pytest.mark.usefixtures("faulty")
def test_cli_reports_a_plugin_bug_in_one_line() -> None:
    result = CliRunner().invoke(cli, ["parse", "-d", "faulty_test"], input=f"x {MARKER}")
    assert result.exit_code == 3
    err = result.stderr.strip()
    assert PLUGIN in err and len(err.splitlines()) == 1 and "Traceback" not in err
    result = CliRunner().invoke(cli, ["parse", "--jsonl", "-d", "faulty_test"], input='"x"\n"y"\n')
    assert result.exit_code == 1
    assert "line 1:" in result.stderr and "line 2:" in result.stderr and PLUGIN in result.stderr


class _ModelBug:
    @tooletta.hookimpl
    def dialect_for_model(self, model: str) -> str | None:
        raise _Boom("model hook bug")


def test_a_raising_dialect_for_model_hook_is_a_plugin_error(fresh: pytest.MonkeyPatch) -> None:
    tooletta.register_plugin(_ModelBug(), name="model-bug")
    with pytest.raises(PluginError, match="model-bug"):
        tooletta.dialect_for_model("Qwen/Qwen3-8B")


# -- loading faults, list-dialects and TOOLETTA_DISABLE_PLUGINS ---------------------------


BROKEN_MODULES = {
    "tooletta_fault_import": "import no_such_module_anywhere_xyz\n",
    "tooletta_fault_register": """
        from tooletta import hookimpl

        @hookimpl
        def register_dialects(register):
            raise RuntimeError("register bug")
        """,
    "tooletta_fault_duplicate": """
        from tooletta import DialectInfo, ParseResult, hookimpl

        class Hermes2:
            info = DialectInfo(name="hermes", markers=("<tool_call>",), priority=999)

            def parse(self, text, tools=None):
                return ParseResult(content="shadowed!")

            def render(self, calls, content=""):
                return "shadowed!"

        @hookimpl
        def register_dialects(register):
            register(Hermes2())
        """,
}
EXPECT = {
    "tooletta_fault_import": "ModuleNotFoundError",
    "tooletta_fault_register": "register bug",
    "tooletta_fault_duplicate": "already taken",
}


@pytest.fixture()
def broken_entry_point(
    fresh: pytest.MonkeyPatch, tmp_path: Path, request: pytest.FixtureRequest
) -> str:
    """An importable plugin module behind a fake ``tooletta`` entry point (name returned)."""
    module: str = request.param
    (tmp_path / f"{module}.py").write_text(textwrap.dedent(BROKEN_MODULES[module]))
    fresh.syspath_prepend(str(tmp_path))
    real = plugins._entry_points
    ep = metadata.EntryPoint(name=module, value=module, group="tooletta")
    fresh.setattr(plugins, "_entry_points", lambda: [*real(), ep])
    return module


def _list(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["list-dialects", *args])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    "broken_entry_point",
    [
        "tooletta_fault_import",
        "tooletta_fault_register",
        "tooletta_fault_duplicate",
    ],
    indirect=True,
)
def test_loading_faults_are_reported_and_isolated(
    broken_entry_point: str, fresh: pytest.MonkeyPatch
) -> None:
    name = broken_entry_point
    code, out, err = _list("--json")
    assert code == 0
    problems = [line for line in err.splitlines() if line.startswith("problem:")]
    assert len(problems) == 1 and name in problems[0] and EXPECT[name] in problems[0], err
    assert "Traceback" not in err
    assert "hermes" in {row["name"] for row in json.loads(out)}
    assert tooletta.parse(HERMES, "hermes").calls[0].name == "get_weather"
    assert tooletta.detect(HERMES) == "hermes"
    # and turned off by name
    plugins.reset()
    fresh.setenv("TOOLETTA_DISABLE_PLUGINS", name.replace("_", "-"))
    code, out, err = _list("--plugins")
    assert code == 0 and "problem:" not in err
    assert name not in {p["name"] for p in json.loads(out)}
    assert not plugins.get_registry().problems


@pytest.mark.parametrize("broken_entry_point", ["tooletta_fault_import"], indirect=True)
def test_import_failure_shows_in_the_plugin_listing(broken_entry_point: str) -> None:
    code, out, _ = _list("--plugins")
    assert code == 0
    row = next(p for p in json.loads(out) if p["name"] == broken_entry_point)
    assert "no_such_module_anywhere_xyz" in row["error"]


class _CommandBug:
    @tooletta.hookimpl
    def register_commands(self, cli: Any) -> None:
        raise _Boom("command hook bug")


def test_a_raising_register_commands_hook_only_warns(
    fresh: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tooletta.cli import _plugin_commands

    tooletta.register_plugin(_CommandBug(), name="command-bug")
    _plugin_commands()
    err = capsys.readouterr().err
    assert "warning" in err and "command hook bug" in err and "Traceback" not in err
