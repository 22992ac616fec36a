"""LFM2.5 writes an argument named by a Python keyword as it is (``f(from='x')``): rendered
and read back as the model writes it, while the dialects whose text must be Python keep
refusing such names."""

from __future__ import annotations

import keyword
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tooletta_dialect_pythonic.pysyntax import call_arguments, keyword_stand_ins

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat.jinja import render_jinja
from tooletta.engine import BlockError
from tooletta.testing import check_render_refuses

TEMPLATES = Path(__file__).parent / "templates"
TOKENS = {"bos_token": "<|startoftext|>"}
LFM25 = "LiquidAI/LFM2.5-8B-A1B"


def test_lfm25_writes_keyword_names_as_the_template_does() -> None:
    calls = [ToolCall("search_flights", {"from": "Paris", "to": "Oslo", "class": "economy"})]
    messages = [Message("user", "fly"), Message("assistant", "", tool_calls=calls)]
    template = (TEMPLATES / "LFM2.5-8B-A1B.jinja").read_text(encoding="utf-8")
    text = tooletta.render_conversation(messages, model=LFM25)
    assert text == render_jinja(template, messages, tokens=TOKENS)
    assert "[search_flights(from='Paris', to='Oslo', class='economy')]" in text
    assert tooletta.parse_conversation(text, model=LFM25)[-1].tool_calls == calls


def test_lfm25_model_turn_golden() -> None:
    calls = [ToolCall("f", {"from": "x", "None": None, "import": {"a": 1}})]
    text = tooletta.render(calls, model=LFM25)
    assert text == (
        "<|tool_call_start|>[f(from='x', None=None, import={\"a\": 1})]<|tool_call_end|>"
    )
    assert tooletta.parse(text, dialect="lfm25").calls == calls


@pytest.mark.parametrize("dialect", ["lfm2", "lfm25"])
def test_keyword_names_read_back_streamed(dialect: str) -> None:
    text = "<|tool_call_start|>[f(from='a, b=1', lambda =2), g(if=[1])]<|tool_call_end|>"
    want = [ToolCall("f", {"from": "a, b=1", "lambda": 2}), ToolCall("g", {"if": [1]})]
    assert tooletta.parse(text, dialect=dialect).calls == want
    stream = tooletta.stream(dialect)
    updates = [stream.feed(ch) for ch in text] + [stream.finish()]
    deltas = [d for u in updates for d in u.calls]
    assert [d.name for d in deltas if d.name] == ["f", "g"]


@pytest.mark.parametrize("dialect", ["pythonic", "olmo3", "lfm2"])
def test_dialects_writing_python_refuse_keyword_names(dialect: str) -> None:
    check_render_refuses(dialect, calls=[[ToolCall("f", {"from": 1})]])


def test_strict_python_dialects_do_not_read_keyword_names() -> None:
    assert tooletta.parse("[f(from='x')]", dialect="pythonic").calls == []
    assert tooletta.parse("<function_calls>f(from='x')</function_calls>", "olmo3").calls == []
    with pytest.raises(BlockError):
        call_arguments("(from='x')")


def test_stand_ins_leave_strings_and_equality_alone() -> None:
    assert keyword_stand_ins("(a='from=1', b=x == None)") is None
    swapped = keyword_stand_ins("(_from=1, from=2)")
    assert swapped is not None
    source, names = swapped
    assert "(_from=1, " in source and set(names.values()) == {"from"}
    assert call_arguments("(_from=1, from=2)", keyword_names=True) == {"_from": 1, "from": 2}


_NAMES = st.sampled_from(keyword.kwlist) | st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True)
_VALUES = (
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text("abc xyz\n=,()", max_size=8)
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_NAMES, _VALUES, max_size=4))
def test_lfm25_round_trips_any_keyword_names(arguments: dict[str, object]) -> None:
    calls = [ToolCall("f", arguments)]
    text = tooletta.render(calls, dialect="lfm25")
    assert tooletta.parse(text, dialect="lfm25").calls == calls
