"""Distribution tests: wheels install alone, and a third-party dialect from DESIGN.md works.

These build wheels and create virtual environments, so they take a few seconds each.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from support import ROOT, plugin_pyproject, run, uv

pytestmark = pytest.mark.slow

ACME_MODULE = textwrap.dedent(  # exactly DESIGN.md's example
    """
    # acme_dialect.py, in a distribution with  [project.entry-points.tooletta] acme = "acme_dialect"
    from tooletta import DialectInfo, ParseResult, ToolCall, hookimpl

    class Acme:
        info = DialectInfo(name="acme", aliases=("acme-private",), priority=5, markers=("<<acme>>",))

        def parse(self, text, tools=None):
            head, sep, body = text.partition("<<acme>>")
            calls = [ToolCall(name=n, arguments={}) for n in body.split()] if sep else []
            return ParseResult(content=head.strip(), calls=calls, dialect="acme")

        def render(self, calls, content=""):
            return content + "<<acme>>" + " ".join(c.name for c in calls)

    @hookimpl
    def register_dialects(register):
        register(Acme())
    """
)

ACME_PYPROJECT = plugin_pyproject("acme-dialect", "acme", "acme_dialect")


def _tooletta(python: Path, *args: str, stdin: str | None = None) -> str:
    script = python.parent / "tooletta"
    return run([str(script), *args], input=stdin).stdout


def test_core_plus_one_plugin_lists_exactly_that_plugin(wheels: Path, fresh_venv: Path) -> None:
    found = sorted(str(p) for p in wheels.glob("*.whl"))
    run([*uv(), "pip", "install", "--quiet", "--python", str(fresh_venv), *found])
    listed = json.loads(_tooletta(fresh_venv, "list-dialects", "--json"))
    assert sorted(d["name"] for d in listed) == ["canonical", "hermes"]
    hermes = next(d for d in listed if d["name"] == "hermes")
    assert hermes["plugin"] == "hermes" and hermes["version"] == "0.2.0"
    text = (ROOT / "examples" / "hermes.txt").read_text()
    assert _tooletta(fresh_venv, "detect", stdin=text).strip() == "hermes"


def test_private_dialect_from_outside_the_repo(
    wheels: Path, fresh_venv: Path, tmp_path: Path
) -> None:
    project = tmp_path / "acme"
    project.mkdir()
    (project / "acme_dialect.py").write_text(ACME_MODULE)
    (project / "pyproject.toml").write_text(ACME_PYPROJECT)
    core = next(str(p) for p in wheels.glob("tooletta_core-*.whl"))
    run([*uv(), "pip", "install", "--quiet", "--python", str(fresh_venv), core, str(project)])
    listed = json.loads(_tooletta(fresh_venv, "list-dialects", "--json"))
    acme = next(d for d in listed if d["name"] == "acme")
    assert acme["aliases"] == ["acme-private"] and acme["priority"] == 5
    assert acme["plugin"] == "acme" and acme["version"] == "1.0.0"
    assert _tooletta(fresh_venv, "detect", stdin="Hi <<acme>>ping pong").strip() == "acme"
    parsed = json.loads(
        _tooletta(fresh_venv, "parse", "-d", "acme-private", stdin="Hi <<acme>>a b")
    )
    assert parsed["content"] == "Hi"
    assert [c["name"] for c in parsed["calls"]] == ["a", "b"]
    check = (
        "import tooletta\n"
        "r = tooletta.parse('Hi <<acme>>x', 'auto')\n"
        "assert r.dialect == 'acme' and r.calls[0].name == 'x', r\n"
        "s = tooletta.stream('acme')\n"
        "u = [s.feed(c) for c in 'Yo <<acme>>y z'] + [s.finish()]\n"
        "assert [d.name for x in u for d in x.calls] == ['y', 'z']\n"
        "assert tooletta.render([tooletta.ToolCall('q', {})], 'acme') == '<<acme>>q'\n"
    )
    run([str(fresh_venv), "-c", check])
