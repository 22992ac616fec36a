"""Conformance and format tests for the xlam dialect."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import RenderError, ToolCall
from tooletta.testing import DialectTests, check_arguments_stream

D = "xlam"
CALLS = [ToolCall("get_weather", {"city": "Paris", "days": 3}), ToolCall("get_time", {})]


class TestXlam(DialectTests):
    dialect = D
    fixtures = Path(__file__).parent / "fixtures" / "xlam.json"
    markup = ("[", '{"name"', "```json\n[", "```", "<think>", "</think>", "<|eot_id|>", " ", "a")
    markup_content = None
    markup_nested = True
    markup_examples = 60


def test_render_matches_xlam_template() -> None:
    # '[' + '{"name": "' + name + '", "arguments": ' + arguments|tojson + '}' joined ', ' + ']'
    assert tooletta.render(CALLS, D) == (
        '[{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}, '
        '{"name": "get_time", "arguments": {}}]'
    )


def test_render_with_content_uses_a_fence() -> None:
    text = tooletta.render(CALLS[:1], D, content="Let me check.")
    assert text == (
        'Let me check.\n```json\n[{"name": "get_weather", "arguments": {"city": "Paris", '
        '"days": 3}}]\n```'
    )
    result = tooletta.parse(text, D)
    assert result.calls == CALLS[:1] and result.content == "Let me check."


def test_prose_and_data_are_content() -> None:
    for text in (
        "[1] see the footnote",
        '[{"id": 1, "title": "Dune"}]',
        'Here:\n```json\n[{"id": 1}]\n```\ndone',
        "Plain [brackets] and a list: [1, 2]",
    ):
        result = tooletta.parse(text, D)
        assert result.calls == [] and not result.unparsed, text
        assert tooletta.detect(text) != D


def test_content_starting_like_a_call_list_is_refused() -> None:
    with pytest.raises(RenderError):
        tooletta.render(CALLS, D, content='[{"name": "x"}]')
    with pytest.raises(RenderError):
        tooletta.render(CALLS, D, content="see ```json\n[1]")


def test_arguments_stream_as_generated() -> None:
    text = '[{"name": "f", "arguments": {"a": [1, 2], "b": "x y"}}, {"name": "g", "arguments": {}}]'
    deltas = check_arguments_stream(D, text, '{"a": [1, 2], "b": "x y"}')
    assert "".join(d.arguments for d in deltas if d.index == 1) == "{}"


def test_empty_argument_call_does_not_swallow_the_next() -> None:
    # vllm#47901: xlam dropped the arguments of any call after an empty-argument call
    text = '[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"x": 1}}]'
    parser = tooletta.stream(D)
    got: dict[int, str] = {}
    for ch in text:
        for d in parser.feed(ch).calls:
            got[d.index] = got.get(d.index, "") + d.arguments
    parser.finish()
    assert got == {0: "{}", 1: '{"x": 1}'}


def test_detection_after_think_and_in_fence() -> None:
    assert tooletta.detect('<think>x</think>\n[{"name": "f", "arguments": {}}]') == D
    assert tooletta.detect('Sure.\n```json\n[{"name": "f", "arguments": {}}]\n```') == D


def test_lists_of_named_records_are_not_calls() -> None:
    for text in (
        '[{"name": "Alice", "age": 30}, {"name": "Bob", "age": 4}]',
        'Here:\n```json\n[{"name": "Alice", "age": 30}]\n```',
        '[{"name": "f", "arguments": {}}, {"name": "Bob"}]',
    ):
        assert tooletta.detect(text) != D, text
    assert tooletta.detect('[{"name": "f", "arguments": {}}, {"name": "g", "arguments": {}}]') == D
    assert tooletta.detect('[{"name": "f", "arguments": {"a": ') == D  # cut off: still calls


def test_content_holding_a_marker_or_starting_like_a_call_list_is_refused() -> None:
    for content in ('[{"name": "f"}]', "x```json\n[", "a<think>b", "<|im_end|>"):
        with pytest.raises(RenderError):
            tooletta.render([], D, content=content)
