"""Conformance and format tests for the jamba dialect."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import RenderError, ToolCall
from tooletta.testing import DialectTests, check_arguments_stream

D = "jamba"
CALLS = [ToolCall("get_weather", {"city": "Paris", "days": 3}), ToolCall("get_time", {})]


class TestJamba(DialectTests):
    dialect = D
    fixtures = Path(__file__).parent / "fixtures" / "jamba.json"
    ids = "kept"
    names = ("hunyuan_a13b", "hunyuan-a13b", "Jamba")
    markup = (
        "<tool_calls>",
        "</tool_calls>",
        "<think>",
        "<thinking>",
        "<answer>",
        "助手：",
        "[",
        " ",
        "a",
    )
    markup_content = None
    markup_examples = 60

    def markup_calls(self, value: str, other: str) -> list[list[ToolCall]]:
        return [[ToolCall("f", {"s": value, "t": [value]}, "id1")]]


def test_render_matches_hunyuan_a13b_template() -> None:
    # content + '<tool_calls>' + '[' + calls|join(', ') + ']' + '</tool_calls>'
    assert tooletta.render(CALLS, D, content="Let me check.") == (
        'Let me check.<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris", '
        '"days": 3}}, {"name": "get_time", "arguments": {}}]</tool_calls>'
    )


def test_render_ids_as_apriel_template() -> None:
    # Apriel 1.5: '{"name": "' + name + '", "arguments": ' + arguments + ', "id": "' + id + '"}'
    calls = [ToolCall("get_time", {}, "call_1")]
    text = tooletta.render(calls, D)
    assert (
        text == '<tool_calls>[{"name": "get_time", "arguments": {}, "id": "call_1"}]</tool_calls>'
    )
    assert tooletta.parse(text, D).calls == calls


def test_minimax_json_lines_are_not_jamba() -> None:
    text = '<tool_calls>\n{"name": "f", "arguments": {}}\n</tool_calls>'
    assert tooletta.detect(text) != D
    assert tooletta.get_dialect(D).detect(text) is False


def test_artifact_only_at_start() -> None:
    assert tooletta.parse("助手：你好", D).content == "你好"
    assert tooletta.parse("你好，助手：在", D).content == "你好，助手：在"
    with pytest.raises(RenderError):
        tooletta.render(CALLS, D, content="助手：好的")


def test_arguments_stream_as_generated() -> None:
    text = (
        '<tool_calls>[{"name": "f", "arguments": {"a": [1, 2], "b": "x y"}, "id": "c1"}]'
        "</tool_calls>"
    )
    deltas = check_arguments_stream(D, text, '{"a": [1, 2], "b": "x y"}')
    assert [d.id for d in deltas if d.id] == ["c1"]
