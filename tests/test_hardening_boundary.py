"""Hardening issue 14, items 6, 7 and 9: the boundary between core, plugins and callers.

- item 6: a third-party plugin never takes a first-party dialect name, unless the user gives
  it with ``TOOLETTA_OVERRIDE``; ``list-dialects --plugins`` shows the clash as an error;
- item 7: what a plugin's ``parse``, ``render``, ``detect``, ``stream`` (and its ``feed`` and
  ``finish``) return is checked, and anything else is a ``PluginError`` naming the plugin;
- item 9: misusing a stream parser (a delta that is not ``str``, ``feed`` after ``finish``,
  ``finish`` twice) raises a typed ``ToolettaError`` for every kind of stream parser.

Item 6 installs real distributions: a ``.dist-info`` folder with ``entry_points.txt`` beside
the plugin module, on ``sys.path`` (what an installer writes), found by
``importlib.metadata`` like any installed plugin; one slow test installs a wheel into a fresh
virtual environment, as ``test_packaging`` does.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import tooletta
from support import ROOT, plugin_pyproject, run, uv
from tooletta import (
    DialectInfo,
    ParseError,
    ParseResult,
    PluginError,
    StreamStateError,
    StreamUpdate,
    ToolCall,
    ToolettaError,
    plugins,
)
from tooletta.cli import cli
from tooletta.engine import Engine
from tooletta.precedence import FIRST_PARTY, distribution_key, overrides
from tooletta.testing import assemble, check_stream_misuse

HERMES = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
FIRST_PARTY_CALLS = [ToolCall("get_weather", {"city": "Paris"})]

# -- item 6: first-party names win -----------------------------------------------------------

ACME_MODULE = """
from tooletta import DialectInfo, ParseResult, ToolCall, hookimpl


class AcmeHermes:
    info = DialectInfo(name="hermes", aliases=("acme-hermes",), markers=("<tool_call>",))

    def parse(self, text, tools=None):
        return ParseResult(content="parsed by acme", calls=[], dialect="hermes")

    def render(self, calls, content=""):
        return "acme!"


class AcmeMistral:
    info = DialectInfo(name="mistral", markers=("[TOOL_CALLS]",))

    def parse(self, text, tools=None):
        return ParseResult(content="mistral by acme", calls=[], dialect="mistral")

    def render(self, calls, content=""):
        return "acme mistral!"


class AcmeOwn:
    info = DialectInfo(name="acme_own", markers=("<<acme>>",))

    def parse(self, text, tools=None):
        return ParseResult(content="own", calls=[ToolCall("x")], dialect="acme_own")

    def render(self, calls, content=""):
        return "<<acme>>"


@hookimpl
def register_dialects(register):
    register(AcmeHermes())
    register(AcmeMistral())
    register(AcmeOwn())
"""


def _install(site: Path, dist: str, module: str, entry_point: str, source: str) -> None:
    """Write a distribution as an installer does: the module and its ``.dist-info``."""
    (site / f"{module}.py").write_text(textwrap.dedent(source))
    info = site / f"{module}-1.0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0.0\n")
    (info / "entry_points.txt").write_text(f"[tooletta]\n{entry_point} = {module}\n")


@pytest.fixture()
def fresh(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[pytest.MonkeyPatch]:
    """Plugins loaded anew (with their index in a temporary folder) and forgotten after."""
    monkeypatch.setenv("TOOLETTA_CACHE_DIR", str(tmp_path / "cache"))
    for var in ("TOOLETTA_NO_CACHE", "TOOLETTA_LOAD_PLUGINS", "TOOLETTA_DISABLE_PLUGINS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("TOOLETTA_OVERRIDE", raising=False)
    plugins.reset()
    yield monkeypatch
    monkeypatch.undo()
    plugins.reset()


@pytest.fixture()
def site(fresh: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A site folder on ``sys.path`` with the third-party distribution ``acme-hermes``, whose
    entry point ``acme`` (sorted before ``hermes``) registers ``hermes`` and ``mistral``."""
    folder = tmp_path / "site"
    folder.mkdir()
    _install(folder, "acme-hermes", "acme_hermes", "acme", ACME_MODULE)
    fresh.syspath_prepend(str(folder))
    return folder


def _problems(plugin: str) -> list[str]:
    return [p.error for p in plugins.get_registry().problems if p.plugin == plugin]


@pytest.mark.usefixtures("site")
def test_item6_first_party_name_wins() -> None:
    for _ in range(2):  # a fresh load, then one from the plugin index
        plugins.reset()
        assert tooletta.parse(HERMES, "hermes").calls == FIRST_PARTY_CALLS
        assert plugins.get_registry().get("hermes").plugin == "hermes"
        assert tooletta.detect(HERMES) == "hermes"
        assert tooletta.render(FIRST_PARTY_CALLS, "hermes") != "acme!"
        assert tooletta.parse("<<acme>>", "acme_own").content == "own"  # its other dialect works
        (clash, clash2) = _problems("acme")
        assert "'hermes'" in clash and "already taken" in clash and "first-party" in clash
        assert "TOOLETTA_OVERRIDE=hermes=acme" in clash
        assert "'mistral'" in clash2 and "TOOLETTA_OVERRIDE=mistral=acme" in clash2
        assert not _problems("hermes")


def test_item6_same_entry_point_name_does_not_replace_first_party(
    fresh: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    folder = tmp_path / "site"
    folder.mkdir()
    # an entry point called "hermes" too: it is loaded under a name of its own, and loses
    _install(folder, "acme-hermes", "acme_hermes", "hermes", ACME_MODULE)
    fresh.syspath_prepend(str(folder))
    assert tooletta.parse(HERMES, "hermes").calls == FIRST_PARTY_CALLS
    names = {p.name: p for p in plugins.get_plugins()}
    assert names["hermes"].distribution == "tooletta-dialect-hermes"
    other = names["hermes[acme-hermes]"]
    assert other.error and "first-party" in other.error
    assert tooletta.parse("<<acme>>", "acme_own").content == "own"


@pytest.mark.usefixtures("site")
def test_item6_override_gives_the_name_to_the_plugin(fresh: pytest.MonkeyPatch) -> None:
    for chosen in ("acme", "acme-hermes", "ACME_hermes"):  # entry-point or distribution name
        fresh.setenv("TOOLETTA_OVERRIDE", f"hermes={chosen}")
        for _ in range(2):  # fresh, then from the index
            plugins.reset()
            assert tooletta.parse(HERMES, "hermes").content == "parsed by acme"
            assert tooletta.render(FIRST_PARTY_CALLS, "hermes") == "acme!"
            assert plugins.get_registry().get("acme-hermes").plugin == "acme"
            # the first-party dialect that held the name is left out, without a report
            assert not _problems("hermes") and not _problems("TOOLETTA_OVERRIDE")
            # names not overridden stay first-party, and the clash is still reported
            assert plugins.get_registry().get("mistral").plugin == "mistral"
            assert any("'mistral'" in p for p in _problems("acme"))


@pytest.mark.usefixtures("site")
def test_item6_override_takes_several_pairs(fresh: pytest.MonkeyPatch) -> None:
    fresh.setenv("TOOLETTA_OVERRIDE", " hermes=acme , Mistral=acme-hermes,,")
    assert tooletta.parse(HERMES, "hermes").content == "parsed by acme"
    assert tooletta.parse("[TOOL_CALLS]", "mistral").content == "mistral by acme"
    assert not _problems("acme") and not _problems("TOOLETTA_OVERRIDE")
    assert overrides(" hermes=acme , Mistral=acme-hermes,,") == (
        {"hermes": "acme", "mistral": "acme-hermes"},
        [],
    )


@pytest.mark.usefixtures("site")
def test_item6_override_that_matches_nothing_is_reported(fresh: pytest.MonkeyPatch) -> None:
    fresh.setenv("TOOLETTA_OVERRIDE", "hermes=nobody,oops,glm45=acme")
    assert tooletta.parse(HERMES, "hermes").calls == FIRST_PARTY_CALLS
    found = " | ".join(_problems("TOOLETTA_OVERRIDE"))
    assert "hermes=nobody" in found and "'oops'" in found and "glm45=acme" in found


@pytest.mark.usefixtures("site")
def test_item6_list_dialects_plugins_shows_the_conflict_as_an_error() -> None:
    result = CliRunner().invoke(cli, ["list-dialects", "--plugins"])
    assert result.exit_code == 0
    rows = {row["name"]: row for row in json.loads(result.stdout)}
    assert rows["acme"]["distribution"] == "acme-hermes"
    error = rows["acme"]["error"]
    assert error and "hermes" in error and "already taken" in error and "first-party" in error
    assert rows["hermes"]["error"] is None
    plugins.reset()
    result = CliRunner().invoke(cli, ["list-dialects"])
    assert any(
        line.startswith("problem: acme:") and "'hermes'" in line
        for line in result.stderr.splitlines()
    )


def test_item6_list_dialects_in_a_fresh_process(site: Path, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "TOOLETTA_CACHE_DIR": str(tmp_path / "cache2"),
        "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
    }
    env.pop("TOOLETTA_OVERRIDE", None)
    cmd = [sys.executable, "-m", "tooletta.cli", "parse", "-d", "hermes"]
    out = subprocess.run(cmd, input=HERMES, env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["calls"][0]["name"] == "get_weather"
    env["TOOLETTA_OVERRIDE"] = "hermes=acme"
    out = subprocess.run(cmd, input=HERMES, env=env, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout)["content"] == "parsed by acme"


def test_item6_first_party_list_matches_the_repository() -> None:
    shipped = {p.name for p in (ROOT / "plugins").iterdir() if p.name.startswith("tooletta-")}
    meta = (ROOT / "tooletta-dialects" / "pyproject.toml").read_text()
    deps = set(re.findall(r'^\s*"(tooletta-[a-z0-9-]+)==', meta, re.MULTILINE))
    assert FIRST_PARTY == shipped | {"tooletta-core"} == deps
    assert all(distribution_key(d) == d for d in FIRST_PARTY)


ACME_PYPROJECT = plugin_pyproject("acme-hermes", "acme", "acme_hermes")


@pytest.mark.slow
def test_item6_first_party_name_wins_in_an_installed_environment(
    wheels: Path, fresh_venv: Path, tmp_path: Path
) -> None:
    project = tmp_path / "acme"
    project.mkdir()
    (project / "acme_hermes.py").write_text(textwrap.dedent(ACME_MODULE))
    (project / "pyproject.toml").write_text(ACME_PYPROJECT)
    found = sorted(str(p) for p in wheels.glob("*.whl"))
    run([*uv(), "pip", "install", "--quiet", "--python", str(fresh_venv), *found, str(project)])
    script = str(fresh_venv.parent / "tooletta")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLETTA_")}
    env["TOOLETTA_CACHE_DIR"] = str(tmp_path / "cache")
    parsed = json.loads(run([script, "parse", "-d", "hermes"], input=HERMES, env=env).stdout)
    assert parsed["calls"] == [{"name": "get_weather", "arguments": {"city": "Paris"}}]
    listed = json.loads(run([script, "list-dialects", "--plugins"], env=env).stdout)
    acme = next(p for p in listed if p["name"] == "acme")
    assert "already taken" in acme["error"] and "first-party" in acme["error"]
    env["TOOLETTA_OVERRIDE"] = "hermes=acme"
    parsed = json.loads(run([script, "parse", "-d", "hermes"], input=HERMES, env=env).stdout)
    assert parsed["content"] == "parsed by acme"


# -- item 7: return values checked at the boundary ---------------------------------------------

PLUGIN = "wrong-types"


class _Stream:
    def __init__(self, feed: Any, finish: Any) -> None:
        self._feed, self._finish = feed, finish
        self.fed: list[Any] = []
        self.finished = 0

    def feed(self, delta: Any) -> Any:
        self.fed.append(delta)
        return self._feed

    def finish(self) -> Any:
        self.finished += 1
        return self._finish


class _Wrong:
    """A dialect returning ``out`` from the method named ``method`` (correct values
    elsewhere)."""

    def __init__(self, name: str, method: str, out: Any) -> None:
        self.info = DialectInfo(name=name, markers=(f"<<{name}>>",))
        self.method, self.out = method, out

    def parse(self, text: str, tools: Any = None) -> Any:
        return self.out if self.method == "parse" else ParseResult(content=text)

    def render(self, calls: Any, content: str = "") -> Any:
        return self.out if self.method == "render" else content

    def detect(self, text: str) -> Any:
        return self.out if self.method == "detect" else True

    def stream(self, tools: Any = None) -> Any:
        if self.method == "stream":
            return self.out
        if self.method == "feed":
            return _Stream(self.out, StreamUpdate())
        return _Stream(StreamUpdate(), self.out)


WRONG_PARSE = {
    "dict": {"content": "x", "calls": []},
    "none": None,
    "str": "x",
    "content_none": ParseResult(content=None),  # type: ignore[arg-type]
    "calls_dicts": ParseResult(content="", calls=[{"name": "f"}]),  # type: ignore[list-item]
    "arguments_str": ParseResult(content="", calls=[ToolCall("f", "{}")]),  # type: ignore[arg-type]
    "unparsed_str": ParseResult(content="", unparsed=["bad"]),  # type: ignore[list-item]
    "calls_tuple": ParseResult(content="", calls=(ToolCall("f"),)),  # type: ignore[arg-type]
}
WRONG_UPDATE = {
    "dict": {"content": "x"},
    "none": None,
    "str": "x",
    "calls_dicts": StreamUpdate(calls=[{"index": 0}]),  # type: ignore[list-item]
    "content_bytes": StreamUpdate(content=b"x"),  # type: ignore[arg-type]
}


def _check(exc: pytest.ExceptionInfo[PluginError], dialect: str, method: str) -> None:
    assert exc.value.plugin == PLUGIN and PLUGIN in str(exc.value)
    assert dialect in str(exc.value) and method in str(exc.value), exc.value


def _register(dialect: _Wrong) -> str:
    tooletta.register_plugin(_Plugin(dialect), name=PLUGIN)
    return dialect.info.name


class _Plugin:
    def __init__(self, dialect: Any) -> None:
        self.dialect = dialect

    @tooletta.hookimpl
    def register_dialects(self, register: Any) -> None:
        register(self.dialect)


@pytest.mark.parametrize("out", WRONG_PARSE.values(), ids=WRONG_PARSE.keys())
def test_item7_parse_returning_a_wrong_type_is_a_plugin_error(
    fresh: pytest.MonkeyPatch, out: Any
) -> None:
    name = _register(_Wrong("wrong_parse", "parse", out))
    calls: list[Callable[[], object]] = [
        lambda: tooletta.parse("x", name),
        lambda: tooletta.parse("x", name, strict=True),
        lambda: tooletta.parse("<<wrong_parse>>", "auto"),
        lambda: tooletta.convert("x", name, "hermes"),
    ]
    for call in calls:
        with pytest.raises(PluginError) as exc:
            call()
        _check(exc, name, "parse()")


@pytest.mark.parametrize("out", [12345, None, b"text", ["a"]], ids=["int", "none", "bytes", "list"])
def test_item7_render_returning_a_wrong_type_is_a_plugin_error(
    fresh: pytest.MonkeyPatch, out: Any
) -> None:
    name = _register(_Wrong("wrong_render", "render", out))
    calls: list[Callable[[], object]] = [
        lambda: tooletta.render(FIRST_PARTY_CALLS, name),
        lambda: tooletta.render_tool_calls(FIRST_PARTY_CALLS, name),
        lambda: tooletta.convert(HERMES, "hermes", name),
    ]
    for call in calls:
        with pytest.raises(PluginError) as exc:
            call()
        _check(exc, name, "render()")


@pytest.mark.parametrize("out", [None, "yes", 1, [True]], ids=["none", "str", "int", "list"])
def test_item7_detect_returning_a_wrong_type_is_a_plugin_error(
    fresh: pytest.MonkeyPatch, out: Any
) -> None:
    name = _register(_Wrong("wrong_detect", "detect", out))
    with pytest.raises(PluginError) as exc:
        tooletta.detect("text <<wrong_detect>>")
    _check(exc, name, "detect()")
    with pytest.raises(PluginError):
        tooletta.parse("text <<wrong_detect>>")


@pytest.mark.parametrize("out", WRONG_UPDATE.values(), ids=WRONG_UPDATE.keys())
@pytest.mark.parametrize("method", ["feed", "finish"])
def test_item7_stream_returning_a_wrong_type_is_a_plugin_error(
    fresh: pytest.MonkeyPatch, method: str, out: Any
) -> None:
    name = _register(_Wrong(f"wrong_{method}", method, out))
    parser = tooletta.stream(name)
    with pytest.raises(PluginError) as exc:
        parser.feed("x")
        parser.finish()
    _check(exc, name, f"stream().{method}()")


@pytest.mark.parametrize("out", [None, "parser", object()], ids=["none", "str", "object"])
def test_item7_stream_factory_returning_no_parser_is_a_plugin_error(
    fresh: pytest.MonkeyPatch, out: Any
) -> None:
    name = _register(_Wrong("wrong_stream", "stream", out))
    with pytest.raises(PluginError) as exc:
        tooletta.stream(name)
    _check(exc, name, "stream()")


class _NoStream:
    info = DialectInfo(name="wrong_buffered", markers=("<<wrong_buffered>>",))

    def parse(self, text: str, tools: Any = None) -> Any:
        return {"content": text}

    def render(self, calls: Any, content: str = "") -> str:
        return content


def test_item7_buffered_stream_of_a_wrong_parse_is_a_plugin_error(
    fresh: pytest.MonkeyPatch,
) -> None:
    tooletta.register_plugin(_Plugin(_NoStream()), name=PLUGIN)
    parser = tooletta.stream("wrong_buffered")
    parser.feed("x")
    with pytest.raises(PluginError) as exc:
        parser.finish()
    _check(exc, "wrong_buffered", "parse()")


class _ModelHook:
    @tooletta.hookimpl
    def dialect_for_model(self, model: str) -> Any:
        return 42 if model.startswith("acme/") else None


def test_item7_dialect_for_model_returning_a_wrong_type_is_a_plugin_error(
    fresh: pytest.MonkeyPatch,
) -> None:
    tooletta.register_plugin(_ModelHook(), name=PLUGIN)
    with pytest.raises(PluginError, match=PLUGIN):
        tooletta.dialect_for_model("acme/model")
    assert tooletta.dialect_for_model("Qwen/Qwen3-8B") == "hermes"


def test_item7_right_values_pass_unchanged(fresh: pytest.MonkeyPatch) -> None:
    class _Text(str):
        pass

    name = _register(_Wrong("right_render", "render", _Text("ok")))
    text = tooletta.render([], name)
    assert text == "ok" and type(text) is str
    assert tooletta.parse(HERMES, "hermes").calls == FIRST_PARTY_CALLS


# -- item 9: stream misuse gives typed errors ---------------------------------------------------

NOT_TEXT = [b"..", bytearray(b".."), 123, None, ["x"]]


class _OwnStream:
    """A third-party dialect with its own stream parser (behind core's guard)."""

    info = DialectInfo(name="own_stream", markers=("<<own>>",))

    def __init__(self) -> None:
        self.parsers: list[_Stream] = []

    def parse(self, text: str, tools: Any = None) -> ParseResult:
        return ParseResult(content=text)

    def render(self, calls: Any, content: str = "") -> str:
        return content

    def stream(self, tools: Any = None) -> _Stream:
        parser = _Stream(StreamUpdate(), StreamUpdate())
        self.parsers.append(parser)
        return parser


class _Buffered:
    info = DialectInfo(name="buffered_only", markers=("<<buffered>>",))

    def parse(self, text: str, tools: Any = None) -> ParseResult:
        return ParseResult(content=text)

    def render(self, calls: Any, content: str = "") -> str:
        return content


class _Both:
    @tooletta.hookimpl
    def register_dialects(self, register: Any) -> None:
        register(OWN)
        register(_Buffered())


OWN = _OwnStream()


@pytest.fixture()
def streams(fresh: pytest.MonkeyPatch) -> None:
    """A dialect with its own stream parser and one that core buffers."""
    tooletta.register_plugin(_Both(), name="stream-plugin")


KINDS = ["hermes", "own_stream", "buffered_only"]
"""The first-party engine, a plugin's own stream parser, the buffered stream."""


def _stream(kind: str) -> Any:
    parser = tooletta.stream(kind)
    if kind == "hermes":
        assert type(parser) is Engine  # unguarded: the engine checks for itself
    return parser


@pytest.mark.usefixtures("streams")
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("bad", NOT_TEXT, ids=["bytes", "bytearray", "int", "none", "list"])
def test_item9_feed_of_a_non_str_is_a_parse_error(kind: str, bad: Any) -> None:
    parser = _stream(kind)
    parser.feed("Hello ")
    with pytest.raises(ParseError) as exc:
        parser.feed(bad)
    assert exc.value.dialect == kind and "must be str" in str(exc.value)
    assert exc.value.position == 6  # where the delta would have gone
    parser.feed("world")  # the refused delta changed nothing
    assert assemble([parser.finish()]).content in ("", "Hello world")
    if kind == "own_stream":
        assert OWN.parsers[-1].fed == ["Hello ", "world"]  # the plugin never saw it


@pytest.mark.usefixtures("streams")
@pytest.mark.parametrize("kind", KINDS)
def test_item9_feed_after_finish_is_a_stream_state_error(kind: str) -> None:
    parser = _stream(kind)
    parser.feed("text")
    parser.finish()
    for delta in ("more", "", b"x"):
        with pytest.raises(StreamStateError) as exc:
            parser.feed(delta)
        assert exc.value.dialect == kind and "feed() after finish()" in str(exc.value)
    assert isinstance(exc.value, ToolettaError) and isinstance(exc.value, ValueError)


@pytest.mark.usefixtures("streams")
@pytest.mark.parametrize("kind", KINDS)
def test_item9_finish_twice_is_a_stream_state_error(kind: str) -> None:
    parser = _stream(kind)
    parser.feed("text")
    parser.finish()
    for _ in range(2):
        with pytest.raises(StreamStateError, match="finish\\(\\) called twice"):
            parser.finish()
    if kind == "own_stream":
        assert OWN.parsers[-1].finished == 1


@pytest.mark.usefixtures("streams")
@pytest.mark.parametrize("kind", KINDS)
def test_item9_str_subclass_delta_is_read_as_text(kind: str) -> None:
    class _Text(str):
        pass

    parser = _stream(kind)
    updates = [parser.feed(_Text("Hi <tool")), parser.feed(_Text("_call>")), parser.finish()]
    assert all(type(u.content) is str for u in updates)
    if kind == "own_stream":
        assert all(type(d) is str for d in OWN.parsers[-1].fed)


def test_item9_engine_misuse_at_any_point_of_a_call() -> None:
    for cut in range(len(HERMES) + 1):
        parser = tooletta.stream("hermes")
        parser.feed(HERMES[:cut])
        with pytest.raises(ParseError):
            parser.feed(b"x")  # type: ignore[arg-type]
        parser.feed(HERMES[cut:])
        got = assemble([parser.finish()])
        assert got.calls == [] or got.calls == FIRST_PARTY_CALLS


def test_item9_finished_engine_keeps_its_results_and_subclass() -> None:
    class MyEngine(Engine):
        def extra(self) -> str:
            return "kept"

    grammar = type(tooletta.get_dialect("hermes")).grammar
    engine = MyEngine(grammar, "hermes", deltas=False)
    engine.feed(HERMES)
    engine.finish()
    assert isinstance(engine, MyEngine) and engine.extra() == "kept"
    assert engine.result().calls == FIRST_PARTY_CALLS
    with pytest.raises(StreamStateError):
        engine.feed("x")
    with pytest.raises(StreamStateError):
        engine.finish()


@pytest.mark.parametrize("prefix", ["", "<think>"])
def test_item9_prefixed_stream_misuse(prefix: str) -> None:
    parser = tooletta.stream("glm45", prefix=prefix)
    with pytest.raises(ParseError, match="must be str"):
        parser.feed(None)  # type: ignore[arg-type]
    parser.finish()
    with pytest.raises(StreamStateError):
        parser.feed("x")


def test_item9_stream_state_error_is_exported() -> None:
    assert tooletta.StreamStateError is StreamStateError
    assert "StreamStateError" in tooletta.__all__
    assert issubclass(StreamStateError, ToolettaError)


@pytest.mark.parametrize("dialect", [i.name for i in tooletta.list_dialects()])
def test_item9_kit_law_stream_misuse_for_every_dialect(dialect: str) -> None:
    check_stream_misuse(dialect)


@pytest.mark.usefixtures("streams")
@pytest.mark.parametrize("dialect", ["own_stream", "buffered_only"])
def test_item9_kit_law_stream_misuse_for_plugin_streams(dialect: str) -> None:
    check_stream_misuse(dialect, "Some text <<own>> and more, in several deltas.")


def test_item7_first_party_parse_is_checked_for_its_type(fresh: pytest.MonkeyPatch) -> None:
    hermes = tooletta.get_dialect("hermes")
    fresh.setattr(hermes, "parse", lambda text, tools=None: {"content": text})
    with pytest.raises(PluginError) as exc:
        tooletta.parse(HERMES, "hermes")
    assert exc.value.plugin == "hermes" and "not a ParseResult" in str(exc.value)
