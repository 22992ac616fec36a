"""LFM2 / LFM2.5 and OLMo 3 renders that skip the read-back check give what the full check
gives.

:class:`~tooletta_dialect_pythonic.Lfm2Dialect` and the OLMo 3 dialects read their text back
only when it is not plain (``plain_reads_back``: plain calls, content without ``<``): for
plain calls the text must be the one the full check (the same dialect never told that a text
reads back) accepts, and the read-back must really be skipped.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tooletta_dialect_pythonic import (
    Lfm2Dialect,
    Lfm25Dialect,
    Olmo3Dialect,
    Olmo3InstructDialect,
)
from tooletta_dialect_pythonic.base import CheckedDialect

from tooletta import RenderError, ToolCall

DIALECTS = [Lfm2Dialect(), Lfm25Dialect(), Olmo3Dialect(), Olmo3InstructDialect()]
WORDS = st.sampled_from(["a", "city", "x1", "_", "true", "None", "if", "é", "a.b", "match"])
VALUES = st.one_of(
    st.text(max_size=30),
    st.text(st.characters(codec="utf-8", exclude_characters="'\"\\<"), max_size=30),
    st.integers(-(2**60), 2**60),
    st.sampled_from([True, False, None, 1.5, [1], {"k": "v"}, "<|tool_call_end|>", "a')]"]),
)
CALLS = st.lists(
    st.builds(ToolCall, WORDS, st.dictionaries(WORDS, VALUES, max_size=3)), min_size=0, max_size=3
)
CONTENTS = st.sampled_from(["", "Sure.", " a\nb ", "東京", "<think>x</think>", "x</think>"])


def _always_read_back(dialect: Any) -> CheckedDialect:
    """The same dialect with the read-back never skipped (the full check)."""

    class Full(type(dialect)):  # type: ignore[misc]
        def reads_back(self, calls: list[ToolCall], content: str) -> bool:
            return False

        def render(self, calls: Any, content: str = "") -> str:
            return CheckedDialect.render(self, calls, content)

    return Full()


FULL = {d.info.name: _always_read_back(d) for d in DIALECTS}


def _full(dialect: Any, calls: list[ToolCall], content: str) -> str:
    try:
        return FULL[dialect.info.name].render(calls, content)
    except (RenderError, ValueError) as exc:
        return f"refused: {exc}"


def _rendered(dialect: Any, calls: list[ToolCall], content: str) -> str:
    try:
        return str(dialect.render(calls, content))
    except (RenderError, ValueError) as exc:
        return f"refused: {exc}"


@pytest.mark.parametrize("dialect", DIALECTS, ids=lambda d: d.info.name)
@given(calls=CALLS, content=CONTENTS)
def test_render_without_read_back_equals_the_checked_render(
    dialect: Any, calls: list[ToolCall], content: str
) -> None:
    """Whatever the read-back shortcut takes, the full check writes (or refuses) the same."""
    assert _rendered(dialect, calls, content) == _full(dialect, calls, content)


@pytest.mark.parametrize("dialect", DIALECTS, ids=lambda d: d.info.name)
def test_plain_calls_are_not_parsed_back(dialect: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Plain calls and content are written without a parse; others are still parsed."""
    parsed: list[str] = []
    original = type(dialect).parse

    def counting(self: Any, text: str, tools: Any = None, prefix: str = "") -> Any:
        parsed.append(text)
        return original(self, text, tools, prefix)

    monkeypatch.setattr(type(dialect), "parse", counting)
    dialect.render([ToolCall("get_weather", {"city": "東京", "days": 2, "ok": True})], "Sure.")
    dialect.render([], "Hello")
    assert parsed == []
    dialect.render([ToolCall("f", {"s": "it's"})], "")
    dialect.render([ToolCall("f", {"x": 1.5})], "")
    dialect.render([ToolCall("f", {})], "a <b")
    assert len(parsed) == 3


def test_a_call_that_does_not_read_back_is_still_refused() -> None:
    """A name no reader takes back is refused as before (the writer or the read-back)."""
    with pytest.raises(RenderError):
        Lfm25Dialect().render([ToolCall("bad name", {})], "")
