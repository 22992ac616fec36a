"""Kimi K3 conversations against llama.cpp's Jinja port of the model's reference encoder
(``encoding_k3.py``; K3 ships no Jinja template), vendored in ``templates/``."""

from __future__ import annotations

from pathlib import Path

import pytest
from tooletta_dialect_kimi.chat_k3 import sorted_json

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversations import (
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
    sample_conversations,
)

TEMPLATE = Path(__file__).parent / "templates" / "Kimi-K3.jinja"
MODEL = "moonshotai/Kimi-K3"


class TestKimiK3Chat(ConversationTests):
    model = MODEL
    template = TEMPLATE
    options = ({}, {"thinking": False}, {"thinking_effort": "low"}, {"thinking_effort": None})
    list_content = ("system", "user", "assistant", "tool")


class TestKimiK3ChatWithIds(TestKimiK3Chat):
    """Results that answer their calls by id (in call order): the template names them after
    the calls; the text is the same."""

    ids = True


def test_model_turn_thinking() -> None:
    """The generation prompt opens the think channel: the model writes its reasoning, closes
    the channel, then the response and tools, and closes the message."""
    text = tooletta.render([ToolCall("f", {"a": "x"})], model=MODEL, content="Hi", reasoning="r")
    assert text == (
        "r<|close|>think<|sep|><|open|>response<|sep|>Hi<|close|>response<|sep|>"
        '<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|><|open|>argument key="a" '
        'type="string"<|sep|>x<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>'
        "<|close|>message<|sep|>"
    )


def test_tool_declaration_sorts_keys_by_code_point() -> None:
    """Keys sort as the reference encoder sorts them (Python's ``sorted``: by code point);
    llama.cpp's port sorts with Jinja's case-insensitive ``dictsort`` (a documented
    difference, only for keys that differ in case). Non-ASCII is kept, arrays keep their
    order."""
    value = {"b": 1, "A": [3, 1], "a": {"é": True, "Z": None}}
    assert sorted_json(value) == '{"A":[3,1],"a":{"Z":null,"é":true},"b":1}'
    mixed = {"maximum": 1, "maxItems": 2}
    assert sorted_json(mixed) == '{"maxItems":2,"maximum":1}'
    tools = [{"type": "function", "function": {"name": "f", "parameters": mixed}}]
    port = render_jinja(TEMPLATE.read_text(encoding="utf-8"), [Message("user", "hi")], tools=tools)
    assert '{"maximum":1,"maxItems":2}' in port
    tools = [{"type": "function", "function": {"name": "f", "parameters": value}}]
    check_matches_template(
        TEMPLATE.read_text(encoding="utf-8"), [Message("user", "hi")], model=MODEL, tools=tools
    )


def test_results_out_of_call_order_are_written_as_given() -> None:
    """Difference: the template reorders results that all answer calls by id into the calls'
    order; we write them in the order given (each names its call)."""
    calls = [ToolCall("a", {}, "c1"), ToolCall("b", {}, "c2")]
    messages = [
        Message("user", "go"),
        Message("assistant", "", tool_calls=calls),
        Message("tool", "2", tool_call_id="c2"),
        Message("tool", "1", tool_call_id="c1"),
    ]
    text = tooletta.render_conversation(messages, model=MODEL)
    assert '<|open|>message role="tool" tool="b" index="1"<|sep|>2' in text
    template = render_jinja(TEMPLATE.read_text(encoding="utf-8"), messages)
    assert '<|open|>message role="tool" tool="a" index="1"<|sep|>1' in template


def test_unsupported_effort_is_refused() -> None:
    with pytest.raises(RenderError, match="thinking_effort"):
        tooletta.render_conversation([Message("user", "hi")], model=MODEL, thinking_effort="x")


def test_names_are_written_in_headers() -> None:
    """A message's ``name`` goes into its opening tag (escaped); it does not read back."""
    messages = [Message("user", "hi", name='a"b'), Message("assistant", "yo")]
    check_matches_template(TEMPLATE.read_text(encoding="utf-8"), messages, model=MODEL)
    check_conversation_round_trip(messages, model=MODEL)


def test_round_trip_without_thinking() -> None:
    for name, (messages, uses_tools) in sample_conversations().items():
        tools = SAMPLE_TOOLS if uses_tools else None
        text = tooletta.render_conversation(messages, model=MODEL, tools=tools, thinking=False)
        back = tooletta.parse_conversation(text, model=MODEL, tools=tools)
        assert all(not m.reasoning for m in back), name


def test_medium_effort_is_written() -> None:
    """``medium`` is in the effort message's own list and llama.cpp's port writes it; the
    reference encoder's check refuses it (a documented difference)."""
    messages = [Message("user", "hi")]
    text = tooletta.render_conversation(messages, model=MODEL, thinking_effort="medium")
    assert "`thinking_effort=medium`" in text
    check_matches_template(
        TEMPLATE.read_text(encoding="utf-8"), messages, model=MODEL, thinking_effort="medium"
    )
