"""dots3-note conversations against the model's own template (vendored), and the ``dots3``
variant's assistant turn."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.testing import DialectTests
from tooletta.testing.conversations import (
    SAMPLE_TOOLS,
    ConversationTests,
    check_matches_template,
    sample_conversations,
)

TEMPLATE = Path(__file__).parent / "templates" / "dots-studio-dots3-note-prev.jinja"
DOTS3 = "dots-studio/dots3-note-prev"
CALLS = [ToolCall("get_weather", {"city": "Paris", "days": 2}), ToolCall("get_time", {})]


class TestDots3Chat(ConversationTests):
    """The model's template: thinking on (its default), off, and cleared before the last
    user message."""

    model = DOTS3
    template = TEMPLATE
    list_content = ("system", "user", "assistant", "tool")
    options = (
        {},
        {"enable_thinking": False},
        {"clear_thinking": True},
        {"enable_thinking": True, "clear_thinking": True},
    )


class TestDots3Dialect(DialectTests):
    dialect = "dots3"
    names = ("dots3", "dots3_note", "DOTS3")
    models = (DOTS3, "dots-studio/dots3-note-prev-fp8", "dots3-note-prev")


def _template() -> str:
    return TEMPLATE.read_text(encoding="utf-8")


def test_dots3_writes_one_block_per_call_with_values_between_line_breaks() -> None:
    assert tooletta.render(CALLS, "dots3", content="Let me check.") == (
        'Let me check.\n<dots_function_call>\n<invoke name="get_weather">\n'
        '<parameter name="city">\nParis\n</parameter>\n<parameter name="days">\n2\n'
        "</parameter>\n</invoke>\n</dots_function_call>\n<dots_function_call>\n"
        '<invoke name="get_time">\n</invoke>\n</dots_function_call>'
    )
    assert tooletta.render([], "dots3", content="Hi.") == "Hi."


def test_dots_default_render_is_unchanged() -> None:
    assert tooletta.render(CALLS[:1], "dots", content="Hi.") == (
        'Hi.\n<dots_function_call>\n<invoke name="get_weather">\n'
        '<parameter name="city">Paris</parameter>\n<parameter name="days">2</parameter>\n'
        "</invoke>\n</dots_function_call>"
    )


def test_dots3_model_picks_the_variant_which_reads_values_without_the_framing() -> None:
    assert tooletta.dialect_for_model(DOTS3) == "dots3"
    assert tooletta.dialect_for_model("rednote-hilab/dots.llm1.inst") == "dots"
    text = tooletta.render(CALLS, model=DOTS3, content="Hi.")
    assert text == tooletta.render(CALLS, "dots3", content="Hi.")
    assert tooletta.detect(text) == "dots"
    assert tooletta.parse(text, "dots3").calls == CALLS
    assert tooletta.parse(text, "dots3").content == "Hi."
    # dots keeps values as written: the framing line breaks stay in the strings
    assert tooletta.parse(text, "dots").calls[0].arguments["city"] == "\nParis\n"


def test_dots3_values_read_back_through_the_framing() -> None:
    calls = [ToolCall("f", {"s": "\ntwo\nlines\n", "e": "", "o": {"k": [1, "<x>"]}})]
    text = tooletta.render(calls, "dots3")
    assert tooletta.parse(text, "dots3").calls == calls
    with pytest.raises(RenderError):
        tooletta.render([ToolCall("f", {"s": "ends\r"})], "dots3")
    with pytest.raises(RenderError):
        tooletta.render([ToolCall("f", {"s": "a</parameter>"})], "dots3")
    with pytest.raises(RenderError):
        tooletta.render([ToolCall('f"', {})], "dots3")


def test_later_system_messages_are_user_turns_as_the_template_writes_them() -> None:
    messages = [
        Message("system", "Be brief."),
        Message("user", "Hi."),
        Message("assistant", "Hello."),
        Message("system", "Now be formal."),
        Message("user", "Bye."),
    ]
    check_matches_template(_template(), messages, model=DOTS3, add_generation_prompt=True)
    text = tooletta.render_conversation(messages, model=DOTS3)
    assert "<|endofassistant|><|user|>Now be formal.<|endofuser|><|user|>Bye." in text
    back = tooletta.parse_conversation(text, model=DOTS3)
    assert [(m.role, m.content) for m in back] == [
        ("system", "Be brief."),
        ("user", "Hi."),
        ("assistant", "Hello."),
        ("user", "Now be formal."),
        ("user", "Bye."),
    ]


def test_no_system_message_writes_the_default_prompt() -> None:
    messages, _ = sample_conversations()["tools_no_system"]
    text = tooletta.render_conversation(messages, model=DOTS3, tools=SAMPLE_TOOLS)
    assert text.startswith("<|system|>You are a helpful assistant.\n\n# Tools\n\n")
    assert tooletta.parse_conversation(text, model=DOTS3, tools=SAMPLE_TOOLS)[0].role == "user"


def test_thinking_off_marks_user_turns_and_empties_every_block() -> None:
    messages, _ = sample_conversations()["reasoning_multi_turn"]
    text = tooletta.render_conversation(
        messages, model=DOTS3, tools=SAMPLE_TOOLS, enable_thinking=False
    )
    assert "there?<no_think><|endofuser|><|assistant|><think>\n\n</think>\n\n\n<dots_" in text
    assert "One more call" not in text


def test_reasoning_is_trimmed_and_whitespace_only_reasoning_writes_no_block() -> None:
    messages = [
        Message("user", "Hi."),
        Message("assistant", "Hello.", reasoning="  \n "),
        Message("user", "Again."),
        Message("assistant", "Hello again.", reasoning="\n greet \n"),
    ]
    check_matches_template(_template(), messages, model=DOTS3)
    text = tooletta.render_conversation(messages, model=DOTS3)
    assert "<|assistant|>Hello.<|endofassistant|>" in text
    assert "<|assistant|><think>\ngreet\n</think>\n\nHello again." in text
    assert tooletta.parse_conversation(text, model=DOTS3)[-1].reasoning == "greet"
