"""Conversations of Example-1 against its template (copy and adapt).

``ConversationTests`` renders the kit's sample conversations natively and with the vendored
Jinja template (Hugging Face's semantics), byte for byte, with and without a generation
prompt, and reads every rendered text back with ``parse_conversation``. A template that is
itself wrong on a sample names it in ``differences`` (name -> why); one that takes options
lists them in ``options``; a format that writes call ids sets ``ids = True``.
"""

from __future__ import annotations

from pathlib import Path

from tooletta_dialect_example.chat import TOOLS_HEAD

import tooletta
from tooletta import Message, ToolCall
from tooletta.testing.conversations import SAMPLE_TOOLS, ConversationTests
from tooletta.testing.conversation_properties import template_property

TEMPLATES = Path(__file__).parent / "templates"
TEMPLATE = TEMPLATES / "example-org-Example-1.jinja"
MODEL = "example-org/Example-1"


class TestExampleChat(ConversationTests):
    model = MODEL
    template = TEMPLATE


def test_model_resolves_to_the_dialect_and_its_format() -> None:
    assert tooletta.dialect_for_model(MODEL) == "example"
    text = tooletta.render_conversation([Message("user", "Hi")], model=MODEL)
    assert text == "<|user|>\nHi<|end|>\n"
    assert tooletta.render_conversation([Message("user", "Hi")], dialect="example") == text


def test_the_tools_follow_the_system_message_after_a_blank_line() -> None:
    messages = [Message("system", "Be brief."), Message("user", "Hi")]
    text = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS[:1])
    assert text.startswith("<|system|>\nBe brief.\n\n" + TOOLS_HEAD + '{"type": "function"')
    assert tooletta.parse_conversation(text, model=MODEL, tools=SAMPLE_TOOLS[:1]) == messages


def test_calls_follow_the_content_one_per_line() -> None:
    calls = [ToolCall("a", {}), ToolCall("b", {"x": 1})]
    messages = [Message("user", "Go."), Message("assistant", "On it.", tool_calls=calls)]
    text = tooletta.render_conversation(messages, model=MODEL)
    assert text.endswith(
        '<|assistant|>\nOn it.\n<<call>>a {}<</call>>\n<<call>>b {"x": 1}<</call>><|end|>\n'
    )
    assert tooletta.render(calls, model=MODEL, content="On it.") in text


test_random_conversations_round_trip_and_match_the_template = template_property(
    MODEL, TEMPLATE, add_generation_prompt=True
)
