"""Conformance and format tests for the hermes dialect."""

from __future__ import annotations

from pathlib import Path

import tooletta
from tooletta import ToolCall
from tooletta.testing import DialectTests, check_arguments_stream


class TestHermes(DialectTests):
    dialect = "hermes"
    fixtures = Path(__file__).parent / "fixtures" / "hermes.json"
    names = ("qwen", "qwen2_5", "qwen25", "nous-hermes", "granite4")


def test_render_matches_qwen3_template() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 3}), ToolCall("now", {})]
    assert tooletta.render(calls, "hermes", content="Let me check.") == (
        "Let me check.\n"
        '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n'
        "</tool_call>\n"
        '<tool_call>\n{"name": "now", "arguments": {}}\n</tool_call>'
    )


def test_arguments_stream_verbatim() -> None:
    text = '<tool_call>\n{"name": "f", "arguments": {"a": [1, 2], "b": "x y"}}\n</tool_call>'
    check_arguments_stream("hermes", text, '{"a": [1, 2], "b": "x y"}')


def test_strict_mode_raises_with_position() -> None:
    text = 'ok\n<tool_call>\n{"name": "f", "arguments": {"a": }\n</tool_call>'
    try:
        tooletta.parse(text, "hermes", strict=True)
    except tooletta.ParseError as exc:
        assert exc.dialect == "hermes" and exc.position == 3
    else:  # pragma: no cover
        raise AssertionError("no ParseError")


def test_content_holding_a_marker_is_refused() -> None:
    for content in ("a <think> b", "x<tool_call>", "<|im_end|>"):
        try:
            tooletta.render([], "hermes", content=content)
        except tooletta.RenderError:
            continue
        raise AssertionError(f"{content!r} was written")


def test_call_names_are_written_as_json_strings() -> None:
    for name in ("get_weather", "é_1", "a.b", 'q"uote', "back\\slash", "tab\tname"):
        text = tooletta.render([ToolCall(name, {"x": 1})], "hermes")
        assert text == (
            '<tool_call>\n{"name": ' + tooletta.to_json(name) + ', "arguments": {"x": 1}}\n'
            "</tool_call>"
        )


def test_calls_given_as_an_empty_iterator_write_the_content_alone() -> None:
    dialect = tooletta.get_dialect("hermes")
    assert dialect.render(iter([]), content="hi") == "hi"
    assert dialect.render((), content="hi") == "hi"
