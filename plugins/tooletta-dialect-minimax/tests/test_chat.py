"""MiniMax-M2 conversations against the model's own template (vendored)."""

from __future__ import annotations

from pathlib import Path

import tooletta
from tooletta import Message, ToolCall
from tooletta.testing.conversations import ConversationTests

TEMPLATES = Path(__file__).parent / "templates"
MODEL = "MiniMaxAI/MiniMax-M2"


class TestMinimaxM2Chat(ConversationTests):
    model = MODEL
    template = TEMPLATES / "MiniMax-M2.jinja"
    list_content = ("system", "user", "assistant")
    options = ({}, {"model_identity": "You are a test model."}, {"model_identity": ""})


def test_model_turn_with_reasoning_and_calls() -> None:
    """The generation prompt ends in ``<think>\\n``: the model's turn starts after it."""
    text = tooletta.render(
        [ToolCall("f", {"a": "x", "n": 1})], model=MODEL, content="Sure.", reasoning="Plan."
    )
    assert text == (
        'Plan.\n</think>\n\nSure.\n<minimax:tool_call>\n<invoke name="f">\n'
        '<parameter name="a">x</parameter>\n<parameter name="n">1</parameter>\n</invoke>\n'
        "</minimax:tool_call>"
    )


def test_default_identity_is_written_without_a_system_message() -> None:
    text = tooletta.render_conversation([Message("user", "hi")], model=MODEL)
    assert text == "]~!b[]~b]system\nYou are a helpful assistant.[e~[\n]~b]user\nhi[e~[\n"
    assert tooletta.parse_conversation(text, model=MODEL) == [Message("user", "hi")]
