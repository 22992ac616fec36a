"""Conformance and format tests for the cohere dialect."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import RenderError, ToolCall
from tooletta.testing import MARKUP_PUNCTUATION, DialectTests, check_arguments_stream


class TestCohere(DialectTests):
    dialect = "cohere"
    fixtures = Path(__file__).parent / "fixtures" / "cohere.json"
    ids = "kept"  # given ids round-trip; a call without one gets its index
    names = ("cohere_command3", "cohere-command4", "command_r", "command-a")
    markup = (
        "<|START_ACTION|>",
        "<|END_ACTION|>",
        "<|START_THINKING|>",
        "<|END_THINKING|>",
        "<|START_RESPONSE|>",
        "<|END_RESPONSE|>",
        "<|START_TEXT|>",
        "<|END_TEXT|>",
        "<|END_OF_TURN_TOKEN|>",
        "Action: ```json",
        "```",
        "[",
        "]",
        *MARKUP_PUNCTUATION,
    )
    markup_size = 8
    markup_content = None
    markup_keys = True


def test_render_matches_r7b_template() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 3}), ToolCall("now", {})]
    assert tooletta.render(calls, "cohere") == (
        "<|START_THINKING|><|END_THINKING|><|START_ACTION|>[\n"
        '    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": '
        '{"city": "Paris", "days": 3}},\n'
        '    {"tool_call_id": "1", "tool_name": "now", "parameters": {}}\n'
        "]<|END_ACTION|>"
    )


def test_render_keeps_ids_and_content() -> None:
    text = tooletta.render([ToolCall("f", {}, "call_9")], "cohere", content="Let me check.")
    assert text.startswith("Let me check.<|START_THINKING|><|END_THINKING|><|START_ACTION|>")
    result = tooletta.parse(text, "cohere")
    assert result.content == "Let me check." and result.calls == [ToolCall("f", {}, "call_9")]


def test_render_content_only_is_a_response_block() -> None:
    assert tooletta.render([], "cohere", content="Hello!") == (
        "<|START_RESPONSE|>Hello!<|END_RESPONSE|>"
    )
    with pytest.raises(RenderError):
        tooletta.render([], "cohere", content="a<|END_RESPONSE|>b")


def test_arguments_stream_verbatim_with_ids() -> None:
    text = (
        '<|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "f", '
        '"parameters": {"a": [1, 2], "b": "x y"}}\n]<|END_ACTION|>'
    )
    deltas = check_arguments_stream("cohere", text, '{"a": [1, 2], "b": "x y"}')
    assert deltas[0].name == "f" and deltas[0].id == "0"


def test_detection() -> None:
    r_text = 'Action: ```json\n[\n    {"tool_name": "f", "parameters": {}}\n]\n```'
    assert tooletta.detect(r_text) == "cohere"
    assert tooletta.detect("Action: ```json is how you start a fence") != "cohere"
    assert tooletta.detect("<|START_RESPONSE|>Hi<|END_RESPONSE|>") == "cohere"


def test_every_marker_and_token_holds_what_the_content_check_looks_for() -> None:
    # CohereDialect.check_content looks only at content holding "<|" or "Action:"
    from tooletta_dialect_cohere import _CONTENT_TOKENS
    from tooletta_dialect_cohere.chat_r7b import CommandR7BChat

    dialect = tooletta.get_dialect("cohere")
    opens = [b.open for b in dialect.grammar.blocks]
    assert all("<|" in t or "Action:" in t for t in (*opens, *_CONTENT_TOKENS))
    assert all(t.startswith("<") for t in CommandR7BChat.special_tokens)  # the plan's check
    for content in ("a<|START_ACTION|>", "Action: ```json [", "<|END_OF_TURN_TOKEN|>"):
        with pytest.raises(RenderError):
            tooletta.render([], "cohere", content=content)
