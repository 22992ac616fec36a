"""One hook checks third-party conversation formats (issue 20): :mod:`tooletta.chat` installs
it in the registry, and both the registry (a problem listed when a plugin registers) and the
catalog (a refusal when a format is asked for) ask that same check."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

import tooletta.chat
from tooletta import DialectInfo, ParseResult, PluginError, catalog, registry
from tooletta.chat.guard import check_and_guard


class _Dialect:
    info = DialectInfo(name="format_check_probe")
    chat_formats = ("not a format",)

    def parse(self, text: str, **kwargs: Any) -> ParseResult:
        return ParseResult(content=text)

    def render(self, calls: Any, **kwargs: Any) -> str:
        return ""


def test_importing_chat_installs_its_check() -> None:
    assert tooletta.chat.__name__ == "tooletta.chat"
    problem, wrap = registry.format_check(_Dialect(), "probe-plugin")
    assert problem == check_and_guard(_Dialect(), "probe-plugin")[0]
    assert problem is not None and "chat_formats[0]" in problem
    assert callable(wrap)


def test_registry_and_catalog_ask_the_one_check(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def check(dialect: Any, plugin: str | None) -> tuple[str | None, None]:
        asked.append(str(plugin))
        return "refused by the one check", None

    monkeypatch.setattr(registry, "_format_check", [check])
    reg = registry.Registry()
    entry = reg.add(_Dialect(), "probe-plugin")
    assert [p.error for p in reg.problems] == ["refused by the one check"]
    with pytest.raises(PluginError, match="refused by the one check"):
        catalog._formats_of_entry(entry, strict=True)
    assert catalog._formats_of_entry(entry, strict=False) == ()
    assert asked == ["probe-plugin"] * 3


PROBE = """
import sys
from tooletta import registry
from tooletta.ir import DialectInfo

class Probe:
    info = DialectInfo(name="format_check_probe")
    chat_formats = ("not a format",)
    def parse(self, text, **kwargs): ...
    def render(self, calls, **kwargs): ...

reg = registry.Registry()
reg.add(Probe(), "p")
assert "tooletta.chat" not in sys.modules
print(reg.problems[0].error)
"""


def test_before_chat_is_imported_every_declaration_is_a_problem() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "holds no tooletta.chat.ChatFormat declaration" in done.stdout
