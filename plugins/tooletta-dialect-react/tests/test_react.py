"""Conformance and format tests for the react dialect."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import RenderError, ToolCall
from tooletta.testing import DialectTests, check_arguments_stream, check_stream_equals_parse


class TestReact(DialectTests):
    dialect = "react"
    fixtures = Path(__file__).parent / "fixtures" / "react.json"
    names = ("react", "ReAct", "langchain-react", "langchain_react")
    markup = (
        "Action:",
        "\nAction Input: ",
        "\nObservation",
        "\nThought:",
        "\nFinal Answer:",
        "```",
        '"',
        "{",
        "}",
        "\n",
        " ",
        "x",
        "東京",
    )
    markup_content = "Thought: go"
    exact_content = True
    markup_examples = 60

    def markup_calls(self, value: str, other: str) -> list[list[ToolCall]]:
        return [[ToolCall("f", {"input": value})], [ToolCall("f", {"q": value})]]

    def may_refuse(self, calls: list[ToolCall], content: str) -> bool:
        return False


def test_render_matches_langchain_prompt_format() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 3})]
    assert tooletta.render(calls, "react", content="Thought: Let me check.") == (
        'Thought: Let me check.\nAction: get_weather\nAction Input: {"city": "Paris", "days": 3}'
    )


def test_render_string_input_and_several_calls() -> None:
    calls = [ToolCall("Search", {"input": "weather in SF"}), ToolCall("now", {})]
    text = tooletta.render(calls, "react")
    assert text == "Action: Search\nAction Input: weather in SF\nAction: now\nAction Input: {}"
    assert tooletta.parse(text, "react").calls == calls


@pytest.mark.parametrize("value", ['"quoted"', " padded", "two\nlines", "{not json", "", 'a"'])
def test_render_falls_back_to_json_for_unsafe_string_input(value: str) -> None:
    call = ToolCall("f", {"input": value})
    text = tooletta.render([call], "react")
    assert text == f"Action: f\nAction Input: {json.dumps({'input': value}, ensure_ascii=False)}"
    assert tooletta.parse(text, "react").calls == [call]


def test_json_arguments_stream_verbatim() -> None:
    text = 'Thought: x\nAction: f\nAction Input: {"a": [1, 2], "b": "x y"}\nObservation: ok'
    check_arguments_stream("react", text, '{"a": [1, 2], "b": "x y"}', pieces=5)


def test_string_input_streams_as_generated() -> None:
    text = "Action: Search\nAction Input: the weather in Paris\nObservation: sunny"
    parser = tooletta.stream("react")
    got: list[str] = []
    for ch in text[: text.index("Paris")]:
        got.extend(d.arguments for d in parser.feed(ch).calls)
    assert "".join(got) == '{"input": "the weather in'


@pytest.mark.parametrize(
    "text",
    [
        "Action: nothing follows",
        "Action: nothing follows\n",
        "Action: x\nThought: no input line",
        "My Action: x\nAction Input: {}",
        "ReAction: x\nAction Input: {}",
        "Action:\n```python\nprint(1)\n```",
        "Actions: x\nAction Input: {}",
        "Action Input: {}",
        "Action: " + "x" * 300 + "\nAction Input: {}",
    ],
)
def test_prose_is_never_a_call(text: str) -> None:
    result = tooletta.parse(text, "react")
    assert result.calls == [] and result.unparsed == [] and result.content == text
    assert tooletta.detect(text) != "react"
    check_stream_equals_parse("react", text)


def test_declined_action_keeps_surrounding_whitespace() -> None:
    text = "Plan:  \n\nAction: think more  \n\n  then act.\n"
    assert tooletta.parse(text, "react").content == text
    check_stream_equals_parse("react", text)


def test_text_form_variants() -> None:
    text = "Action:get_time\n\nAction Input:\n  {}"
    assert tooletta.parse(text, "react").calls == [ToolCall("get_time", {})]
    text = "Action: f\nAction Input:\nObservation: nothing"
    result = tooletta.parse(text, "react")
    assert result.calls == [ToolCall("f", {"input": ""})]
    assert result.content == "Observation: nothing"


def test_fenced_blob_variants() -> None:
    cases: list[tuple[str, dict[str, Any]]] = [
        ('Action: ```json\n{"action": "f", "action_input": "hi"}\n```', {"input": "hi"}),
        ('Action:\n```\n{"action_input": {"a": 1}, "action": "f"}\n```', {"a": 1}),
        ('Action:\n```\n{"action": "f", "action_input": null}\n```', {}),
        ('Action:\n```\n{"action": "f"}\n```', {}),
        ('Action:\n```\n{"action": "f", "action_input": [1, 2]}\n```', {"input": [1, 2]}),
    ]
    for text, args in cases:
        result = tooletta.parse(text, "react")
        assert result.calls == [ToolCall("f", args)], text
        assert result.content == "" and not result.unparsed
        check_stream_equals_parse("react", text)


def test_fenced_blob_without_action_is_unparsed() -> None:
    text = 'Action:\n```\n{"actions": "f"}\n```\nThen text.'
    result = tooletta.parse(text, "react")
    assert result.calls == [] and len(result.unparsed) == 1


def test_invalid_json_object_input_is_unparsed() -> None:
    result = tooletta.parse("Action: f\nAction Input: {city: Paris}", "react")
    assert result.calls == [] and len(result.unparsed) == 1


def test_detect_needs_a_real_action() -> None:
    assert tooletta.detect("Thought: hmm\nAction: f\nAction Input: {}") == "react"
    assert tooletta.detect("The Action: field of the form.") is None


@pytest.mark.parametrize(
    ("content", "name"),
    [("x\nAction: y", "f"), ("Action: y", "f"), ("ok", "two\nlines"), ("ok", ""), ("ok", "```")],
)
def test_render_refuses_what_cannot_round_trip(content: str, name: str) -> None:
    with pytest.raises(RenderError):
        tooletta.render([ToolCall(name, {})], "react", content=content)
