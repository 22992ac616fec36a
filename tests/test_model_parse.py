"""parse(text, model=...) and stream(model=...): the text read in a dialect the model writes."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import ParseResult, StreamStateError, ToolCall, ToolettaError, UnknownDialectError

LLAMA4 = "meta-llama/Llama-4-Scout-17B-16E-Instruct"  # writes llama4_json and pythonic
CALLS = [ToolCall("get_weather", {"city": "Paris"})]


def _streamed(text: str, model: str, size: int) -> tuple[str, list[ToolCall], str | None]:
    parser = tooletta.stream(model=model)
    updates = [parser.feed(text[i : i + size]) for i in range(0, len(text), size)]
    updates.append(parser.finish())
    content = "".join(u.content for u in updates)
    names: dict[int, str] = {}
    args: dict[int, str] = {}
    for update in updates:
        for delta in update.calls:
            if delta.name:
                names[delta.index] = delta.name
            args[delta.index] = args.get(delta.index, "") + (delta.arguments or "")
    calls = [ToolCall(names[i], json.loads(args[i] or "{}")) for i in sorted(names)]
    return content, calls, getattr(parser, "dialect", None)


@pytest.mark.parametrize("dialect", ["llama4_json", "pythonic"])
def test_parse_with_a_model_detects_among_its_dialects(dialect: str) -> None:
    text = tooletta.render(CALLS, dialect, content="Let me look." if dialect != "pythonic" else "")
    result = tooletta.parse(text, model=LLAMA4)
    assert result.dialect == dialect and result.calls == CALLS


def test_parse_with_a_model_and_no_markup_reads_the_default() -> None:
    assert tooletta.parse("hello", model=LLAMA4) == ParseResult("hello", [], "llama4_json")


def test_parse_with_a_model_of_one_dialect_and_old_call_forms() -> None:
    text = tooletta.render(CALLS, "qwen3_coder")
    assert tooletta.parse(text, model="Qwen/Qwen3.5-4B").calls == CALLS
    assert tooletta.parse(text).calls == CALLS  # detection, as before
    assert tooletta.parse(text, "qwen3_coder").calls == CALLS
    assert tooletta.parse(text, "hermes", model=LLAMA4).dialect == "hermes"  # a name wins
    assert tooletta.parse_tool_calls(text, model="Qwen/Qwen3.5-4B") == CALLS


def test_an_unknown_model_is_refused() -> None:
    with pytest.raises(UnknownDialectError, match="acme/none"):
        tooletta.parse("x", model="acme/none")
    with pytest.raises(UnknownDialectError):
        tooletta.stream(model="acme/none")
    with pytest.raises(ToolettaError):
        tooletta.stream()


@pytest.mark.parametrize("dialect", ["llama4_json", "pythonic"])
@pytest.mark.parametrize("size", [1, 3, 1000])
def test_stream_with_a_model_reads_what_parse_reads(dialect: str, size: int) -> None:
    text = tooletta.render(CALLS, dialect, content="Let me look." if dialect != "pythonic" else "")
    whole = tooletta.parse(text, model=LLAMA4)
    content, calls, picked = _streamed(text, LLAMA4, size)
    assert (content, calls, picked) == (whole.content, whole.calls, dialect)


def test_stream_with_a_model_of_one_dialect_is_that_dialects_parser() -> None:
    text = tooletta.render(CALLS, "qwen3_coder", content="Hi")
    parser = tooletta.stream(model="Qwen/Qwen3.5-4B")
    first = parser.feed(text)
    last = parser.finish()
    assert first.content + last.content == "Hi" and len([*first.calls, *last.calls]) >= 1


def test_a_model_stream_refuses_misuse() -> None:
    parser = tooletta.stream(model=LLAMA4)
    parser.feed("a")
    parser.finish()
    with pytest.raises(StreamStateError):
        parser.feed("b")
    with pytest.raises(StreamStateError):
        parser.finish()


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["llama4_json", "pythonic"]),
    st.text(st.characters(codec="utf-8", exclude_characters="<>[](){}\"'"), max_size=20),
    st.integers(1, 8),
)
def test_stream_with_a_model_equals_parse(dialect: str, content: str, size: int) -> None:
    try:
        text = tooletta.render(CALLS, dialect, content=content)
    except ToolettaError:
        return
    whole = tooletta.parse(text, model=LLAMA4)
    content_, calls, _ = _streamed(text, LLAMA4, size)
    assert (content_, calls) == (whole.content, whole.calls)
