"""Conformance and format tests for the harmony dialect."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import RenderError, ToolCall
from tooletta.testing import (
    MARKUP_PUNCTUATION,
    DialectTests,
    check_arguments_stream,
    check_render_refuses,
    check_stream_equals_parse,
)


class TestHarmony(DialectTests):
    dialect = "harmony"
    fixtures = Path(__file__).parent / "fixtures" / "harmony.json"
    names = ("gpt-oss", "gpt_oss")
    models = ("openai/gpt-oss-120b",)
    markup = (
        "<|start|>",
        "<|channel|>",
        "<|message|>",
        "<|end|>",
        "<|call|>",
        "<|return|>",
        "<|constrain|>",
        " to=functions.",
        "assistant",
        "final",
        "analysis",
        "json",
        *MARKUP_PUNCTUATION,
    )
    markup_size = 8
    markup_content = None
    markup_keys = True
    exact_content = True


def test_render_matches_gpt_oss_template() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 3}), ToolCall("now", {})]
    assert tooletta.render(calls, "harmony") == (
        " to=functions.get_weather<|channel|>commentary json<|message|>"
        '{"city": "Paris", "days": 3}<|call|>'
        "<|start|>assistant to=functions.now<|channel|>commentary json<|message|>{}<|call|>"
    )


def test_render_content() -> None:
    assert tooletta.render([], "harmony", content="Paris.") == (
        "<|channel|>final<|message|>Paris.<|return|>"
    )
    text = tooletta.render([ToolCall("f", {})], "harmony", content="Let me check.")
    assert text == (
        "<|channel|>commentary<|message|>Let me check.<|end|>"
        "<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>"
    )
    result = tooletta.parse(text, "harmony")
    assert result.content == "Let me check." and result.calls == [ToolCall("f", {})]


def test_render_refuses_bad_recipients_and_tokens() -> None:
    check_render_refuses("harmony", names=("get weather",))
    with pytest.raises(RenderError):
        tooletta.render([], "harmony", content="a<|end|>b")


def test_openai_is_not_harmony() -> None:
    assert tooletta.get_dialect("openai").info.name != "harmony"


def test_arguments_stream_verbatim() -> None:
    text = (
        "<|channel|>commentary to=functions.f <|constrain|>json<|message|>"
        '{"a":[1,2],"b":"x y"}<|call|>'
    )
    deltas = check_arguments_stream("harmony", text, '{"a":[1,2],"b":"x y"}')
    assert deltas[0].name == "f"


def test_reasoning_and_content_stream_as_they_arrive() -> None:
    parser = tooletta.stream("harmony")
    assert parser.feed("<|channel|>analysis<|message|>Thinking about").reasoning == (
        "Thinking about"
    )
    parser.feed(" it.<|end|><|start|>assistant<|channel|>final<|message|>The ")
    assert parser.feed("answer").content.endswith("answer")


def test_detection() -> None:
    text = "<|channel|>commentary to=functions.f <|constrain|>json<|message|>{}<|call|>"
    assert tooletta.detect(text) == "harmony"
    assert tooletta.detect("<|channel|>final<|message|>Hi<|return|>") == "harmony"
    assert tooletta.detect(" to=functions.f<|channel|>commentary json<|message|>{}") == "harmony"
    assert tooletta.detect("Address a tool with to=functions.NAME in the header.") is None
    check_stream_equals_parse("harmony", text)


@pytest.mark.parametrize(
    ("intact", "damaged"),
    [
        ("<|start|>assistant to=", "<|start|>assistnt to="),
        ("commentary json", "comentary json"),
        ("commentary json", "commentary jsn"),
        ("<|channel|>commentary<|message|>Hi", "<|channel|>comentary<|message|>Hi"),
    ],
)
def test_damaged_header_words_are_not_read_as_intact(intact: str, damaged: str) -> None:
    """A role, channel or content-type word that is none of Harmony's was ignored (the call
    read as if the header were intact); the message is now malformed, kept as unparsed."""
    from tooletta.testing import check_stream_equals_parse

    text = tooletta.render([ToolCall("get_weather", {"city": "Paris"})], "harmony", content="Hi.")
    assert intact in text
    broken = text.replace(intact, damaged, 1)
    result = tooletta.parse(broken, "harmony")
    assert result.calls == []
    assert "message header" in result.unparsed[0].error
    assert any(damaged.split("<|")[-1].split()[0] in u.raw for u in result.unparsed)
    check_stream_equals_parse("harmony", broken)
    with pytest.raises(tooletta.ParseError):
        tooletta.parse(broken, "harmony", strict=True)
