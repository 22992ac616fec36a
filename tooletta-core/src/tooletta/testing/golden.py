"""The tests of what a dialect declares: its names, its model ids and its golden fixtures."""

from __future__ import annotations

from typing import Any

from .. import api
from ..ir import ToolCall
from .checks import check_aliases
from .laws import check_stream_equals_parse
from .settings import DialectSettings

__all__ = ["GoldenTests", "check_golden_case"]


def check_golden_case(dialect: str, case: dict[str, Any]) -> None:
    """Assert that one golden case parses to its expected calls, content, reasoning and number
    of unparsed records (content and reasoning only when the case gives them)."""
    name = case["name"]
    result = api.parse(case["text"], dialect, tools=case.get("tools"))
    want = [ToolCall(c["name"], c.get("arguments", {}), c.get("id")) for c in case["calls"]]
    assert result.calls == want, (name, result.calls)
    if "content" in case:
        assert result.content == case["content"], (name, result.content)
    if "reasoning" in case:
        assert result.reasoning == case["reasoning"], (name, result.reasoning)
    assert len(result.unparsed) == case.get("unparsed", 0), (name, result.unparsed)


class GoldenTests(DialectSettings):
    """Names, model ids, golden fixtures (parsed, streamed, detected) and plain prose."""

    def test_names(self) -> None:
        """Each of ``names`` resolves to this dialect."""
        check_aliases(api.get_dialect(self.dialect).info.name, self.names)

    def test_models(self) -> None:
        """Each of ``models`` maps to this dialect (or to one of its variants)."""
        name = api.get_dialect(self.dialect).info.name
        for model in self.models:
            got = api.dialect_for_model(model)
            base = api.get_dialect(got).info.variant_of if got else None
            assert name in (got, base), f"{model!r} maps to {got!r}, not {name!r}"

    def test_fixtures_exist(self) -> None:
        """A first-party dialect ships golden cases."""
        if self.fixtures is not None:
            assert len(self.cases()) >= 5

    def test_golden(self) -> None:
        """Each fixture parses to its expected calls, content, reasoning and unparsed count."""
        for case in self.cases():
            check_golden_case(self.dialect, case)

    def test_golden_stream_one_char(self) -> None:
        """Each fixture streamed one character at a time equals one-shot."""
        for case in self.cases():
            check_stream_equals_parse(self.dialect, case["text"], None, case.get("tools"))

    def test_golden_stream_whole(self) -> None:
        """Each fixture fed in one piece equals one-shot."""
        for case in self.cases():
            check_stream_equals_parse(self.dialect, case["text"], [], case.get("tools"))

    def test_golden_detect(self) -> None:
        """Auto-detection picks this dialect for fixtures with calls."""
        name = api.get_dialect(self.dialect).info.name
        for case in self.cases():
            if case["calls"] and case.get("detect", True):
                assert api.detect(case["text"]) == name, case["name"]

    def test_plain_text_untouched(self) -> None:
        """Prose without markers is content, verbatim, streamed without delay."""
        text = "Plain prose, with {braces}, [brackets] and <angles>.\nSecond line.\n"
        result = api.parse(text, self.dialect)
        if not result.calls and not result.unparsed:
            assert result.content == text
            check_stream_equals_parse(self.dialect, text)
