"""Conformance and format tests for the granite and granite_20b_fc dialects."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import ToolCall
from tooletta.testing import DialectTests, check_arguments_stream, check_render_refuses
from tooletta.testing.settings import DialectSettings

FIXTURES = Path(__file__).parent / "fixtures"
CALLS = [ToolCall("get_weather", {"city": "Paris", "days": 3}), ToolCall("get_time", {})]


class _Markup(DialectSettings):
    """Markup-like text in values and content round-trips or is refused."""

    markup = (
        "<|tool_call|>",
        "<tool_call>",
        "<function_call>",
        "<|end_of_text|>",
        "[",
        "{",
        " ",
        "a",
    )
    markup_content = None
    markup_nested = True
    markup_examples = 60


class TestGranite(_Markup, DialectTests):
    dialect = "granite"
    fixtures = FIXTURES / "granite.json"
    names = ("granite3",)


class TestGranite20bFc(_Markup, DialectTests):
    dialect = "granite_20b_fc"
    fixtures = FIXTURES / "granite_20b_fc.json"
    names = ("granite-20b-fc",)


def test_granite_render() -> None:
    # Granite 3.0 template: '<|tool_call|>' + the JSON list of calls
    assert tooletta.render(CALLS, "granite") == (
        '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}, '
        '{"name": "get_time", "arguments": {}}]'
    )
    text = tooletta.render(CALLS[:1], "granite", content="Let me check.")
    assert text.startswith("Let me check.\n<|tool_call|>[")
    assert tooletta.parse(text, "granite").content == "Let me check."


def test_granite_20b_fc_render_matches_template() -> None:
    # '<function_call> ' + {'name': ..., 'arguments': ...}|tojson per call, one per line
    assert tooletta.render(CALLS, "granite_20b_fc") == (
        '<function_call> {"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n'
        '<function_call> {"name": "get_time", "arguments": {}}'
    )


def test_granite_leaves_hermes_text_alone() -> None:
    hermes = '<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>'
    assert tooletta.detect(hermes) != "granite"
    assert tooletta.detect("Use <tool_call>[...] in prompts.") != "granite"
    assert tooletta.detect('<tool_call>[{"name": "f", "arguments": {}}]') == "granite"


def test_granite_content_starting_with_text_marker_is_refused() -> None:
    check_render_refuses("granite", contents=("<tool_call> hi",))
    check_render_refuses("granite_20b_fc", contents=("a <function_call> b",))


@pytest.mark.parametrize(
    ("dialect", "text"),
    [
        ("granite", '<|tool_call|>[{"name": "f", "arguments": {"a": [1, 2], "b": "x y"}}]'),
        ("granite_20b_fc", '<function_call> {"name": "f", "arguments": {"a": [1, 2], "b": "x y"}}'),
    ],
)
def test_arguments_stream_as_generated(dialect: str, text: str) -> None:
    check_arguments_stream(dialect, text, '{"a": [1, 2], "b": "x y"}')
