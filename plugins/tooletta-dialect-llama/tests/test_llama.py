"""Conformance and format tests for the llama3_json dialect."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import RenderError, ToolCall
from tooletta.testing import DialectTests, check_arguments_stream

D = "llama3_json"


class TestLlama3Json(DialectTests):
    dialect = D
    fixtures = Path(__file__).parent / "fixtures" / "llama3_json.json"
    names = ("llama3", "llama", "LLAMA3_JSON")
    models = ("meta-llama/Llama-3.1-8B-Instruct", "meta-llama/Llama-3.3-70B-Instruct")
    markup = ('{"name"', '{"type": "function"', "<|python_tag|>", "<|eot_id|>", ";", "{", " ", "a")
    markup_content = None
    markup_nested = True
    markup_examples = 60


class TestLlama4Json(DialectTests):
    """The Llama 4 variant: renders its template's call turn, parses like llama3_json."""

    dialect = "llama4_json"
    names = ("llama4_json", "llama4-json", "llama4", "Llama4_JSON")
    models = (
        "meta-llama/Llama-4-Scout-17B-16E-Instruct",
        "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
    )


def test_render_matches_llama31_json_template() -> None:
    # '{"name": "' + name + '", ' + '"parameters": ' + arguments|tojson + '}'
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 3})]
    assert tooletta.render(calls, D) == (
        '{"name": "get_weather", "parameters": {"city": "Paris", "days": 3}}'
    )


def test_render_several_calls_and_content() -> None:
    calls = [ToolCall("get_weather", {"city": "Zürich"}), ToolCall("get_time", {})]
    assert tooletta.render(calls, D) == (
        '{"name": "get_weather", "parameters": {"city": "Zürich"}}; '
        '{"name": "get_time", "parameters": {}}'
    )
    text = tooletta.render(calls, D, content="Let me check.")
    assert text == (
        "Let me check.\n<|python_tag|>"
        '{"name": "get_weather", "parameters": {"city": "Zürich"}}; '
        '{"name": "get_time", "parameters": {}}'
    )
    result = tooletta.parse(text, D)
    assert result.calls == calls and result.content == "Let me check."


def test_json_in_prose_is_content() -> None:
    text = 'Send {"name": "x", "parameters": {}} later.'
    result = tooletta.parse(text, D)
    assert result.calls == [] and result.content == text
    assert tooletta.detect(text) != D


def test_content_starting_like_a_call_is_refused() -> None:
    with pytest.raises(RenderError):
        tooletta.render([ToolCall("f", {})], D, content='{"name": "x"}')
    with pytest.raises(RenderError):
        tooletta.render([], D, content=' {"name": "x"}')
    with pytest.raises(RenderError):
        tooletta.render([ToolCall("f", {})], D, content="a <|python_tag|> b")


def test_arguments_stream_as_generated() -> None:
    text = '{"name": "f", "parameters": {"a": [1, 2], "b": "x y"}}; {"name": "g", "parameters": {}}'
    deltas = check_arguments_stream(D, text, '{"a": [1, 2], "b": "x y"}')
    assert "".join(d.arguments for d in deltas if d.index == 1) == "{}"


def test_python_tag_builtin_call_is_unparsed_not_lost() -> None:
    text = '<|python_tag|>brave_search.call(query="Paris weather")<|eom_id|>'
    result = tooletta.parse(text, D)
    assert result.calls == [] and len(result.unparsed) == 1
    assert result.unparsed[0].raw.startswith("<|python_tag|>brave_search")


def test_data_object_is_not_detected_as_a_call() -> None:
    for text in ('{"name": "Widget", "price": 9.99}', '\n{"type": "function", "name": "x"}'):
        assert tooletta.detect(text) != D, text
    assert tooletta.detect('{"name": "f", "arguments": {}}') == D
    assert tooletta.detect('{"name": "f", "parameters": {"a": ') == D  # cut off: still a call


@pytest.mark.parametrize(
    "text",
    [
        '<|python_start|>Hi<|python_end|>{"name": "f", "parameters": {"a": 1}}'
        '{"name": "g", "parameters": {}}<|eot|>',
        '<|python_end|>{"name": "f", "parameters": {"s": "x}{\\"name\\": 1"}} '
        '{"name": "g", "parameters": {"o": {"k": [1, {"z": 2}]}}}',
        '<|python_end|>{"name": "f", "parameters": {}}; {"name": "g", "parameters": {}}',
        '<|python_end|> {"name": "f", "parameters": {"a": 1}} tail',
        '<|python_end|>{"name": "f", "parameters": {"a": 1}',
        '<|python_end|>{"name": "f", "parameters": {}}{"name": "f", "name": "g", "parameters": {}}',
    ],
)
def test_llama4_back_to_back_shortcut_reads_what_the_reader_reads(text: str) -> None:
    """The one-shot shortcut after ``<|python_end|>`` (objects back to back, a string holding
    ``}{"name"``, ``;`` left to the reader, an unclosed object, a repeated key) gives exactly
    what the reader gives."""
    from tooletta.testing import check_shortcuts_agree

    for dialect in ("llama4_json", "llama3_json"):
        check_shortcuts_agree(dialect, text)
