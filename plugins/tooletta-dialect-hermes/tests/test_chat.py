"""Qwen3 conversations: native rendering against the model's own template (vendored)."""

from __future__ import annotations

from pathlib import Path

import tooletta
from tooletta import Message, ToolCall
from tooletta.testing.conversations import ConversationTests

TEMPLATES = Path(__file__).parent / "templates"


class TestQwen3Chat(ConversationTests):
    model = "Qwen/Qwen3-8B"
    template = TEMPLATES / "Qwen3.jinja"
    options = ({}, {"enable_thinking": False})


def test_qwen3_model_turn_with_reasoning() -> None:
    text = tooletta.render(
        [ToolCall("f", {"a": 1})], model="Qwen/Qwen3-8B", content="Sure.", reasoning="Plan."
    )
    assert text == (
        '<think>\nPlan.\n</think>\n\nSure.\n<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n'
        "</tool_call>"
    )


def test_qwen3_history_drops_reasoning_before_last_query() -> None:
    messages = [
        Message("user", "a"),
        Message("assistant", "b", reasoning="r1"),
        Message("user", "c"),
        Message("assistant", "d", reasoning="r2"),
    ]
    text = tooletta.render_conversation(messages, model="Qwen/Qwen3-8B")
    assert "r1" not in text and "<think>\nr2\n</think>\n\nd<|im_end|>" in text


def test_dialect_name_picks_default_format() -> None:
    messages = [Message("user", "hi")]
    by_model = tooletta.render_conversation(messages, model="Qwen/Qwen3-8B")
    assert tooletta.render_conversation(messages, dialect="hermes") == by_model
