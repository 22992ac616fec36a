"""North Mini Code conversations: native rendering against the model's own chat template
(``CohereLabs/North-Mini-Code-1.0`` ``chat_template.jinja``, vendored)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest
from tooletta_dialect_cohere.chat_north import PLATFORM, NorthChat

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat import identify
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversation_properties import round_trip_property
from tooletta.testing.conversations import (
    CONTENT_BESIDE_CALLS_SAMPLES,
    SAMPLE_TOOLS,
    ConversationTests,
)

NORTH = "CohereLabs/North-Mini-Code-1.0"
TEMPLATE = Path(__file__).parent / "templates" / "CohereLabs-North-Mini-Code-1.0.jinja"
TOKENS = {"bos_token": "<BOS_TOKEN>"}
CHATBOT = "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>"


class TestNorthChat(ConversationTests):
    model = NORTH
    template = TEMPLATE
    tokens = TOKENS
    options = (
        {},
        {"reasoning": False},
        {"reasoning": None},
        {"reasoning": 0},
        {"reasoning": "yes"},
        {"reasoning_effort": "none"},
        {"reasoning_effort": "None"},
        {"reasoning_effort": None},
        {"reasoning_effort": "high"},
        {"reasoning": False, "reasoning_effort": "high"},
    )
    ids = True
    differences: ClassVar[dict[str, str]] = dict.fromkeys(
        CONTENT_BESIDE_CALLS_SAMPLES, "the template drops the content beside calls"
    )


def template_text(messages: list[Message], tools: Any = None, **options: Any) -> str:
    """The template's text for ``messages``."""
    text = TEMPLATE.read_text(encoding="utf-8")
    return render_jinja(text, messages, tools=tools, tokens=TOKENS, **options)


CALLS = [
    Message("user", "Weather in Paris and Rome?"),
    Message(
        "assistant",
        "",
        tool_calls=[
            ToolCall("get_weather", {"city": "Paris"}, "call_a"),
            ToolCall("get_weather", {"city": "Rome"}, "call_b"),
        ],
        reasoning="Two lookups.",
    ),
    Message("tool", "sunny", tool_call_id="call_a"),
    Message("tool", "rain", tool_call_id="call_b"),
    Message("assistant", "Paris is sunny, Rome rainy.", reasoning="Both came back."),
]


def test_identified_as_north() -> None:
    found = identify(TEMPLATE.read_text(encoding="utf-8"), bos_token="<BOS_TOKEN>")
    assert found.format == "north_mini_code"
    assert found.dialect == "cohere"
    assert found.known


def test_every_turn_keeps_its_reasoning_and_calls_are_renumbered() -> None:
    text = tooletta.render_conversation(CALLS, model=NORTH, tools=SAMPLE_TOOLS)
    assert text == template_text(CALLS, tools=SAMPLE_TOOLS)
    assert (
        CHATBOT + "<|START_THINKING|>Two lookups.<|END_THINKING|><|START_ACTION|>[\n"
        '    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}},'
    ) in text
    assert '"0": {"content": "sunny"}' in text
    assert (
        "<|START_THINKING|>Both came back.<|END_THINKING|>"
        "<|START_TEXT|>Paris is sunny, Rome rainy.<|END_TEXT|>"
    ) in text
    back = tooletta.parse_conversation(text, model=NORTH)
    assert [c.id for c in back[1].tool_calls] == ["0", "1"]
    assert [m.tool_call_id for m in back[2:4]] == ["0", "1"]
    assert back[4].reasoning == "Both came back."


@pytest.mark.parametrize(
    ("options", "prompt"),
    [({}, "<|START_THINKING|>"), ({"reasoning": False}, "<|START_THINKING|><|END_THINKING|>")],
)
def test_generation_prompt_opens_the_reasoning(options: dict[str, Any], prompt: str) -> None:
    messages = [Message("user", "hi")]
    text = tooletta.render_conversation(
        messages, model=NORTH, add_generation_prompt=True, **options
    )
    assert text.endswith(CHATBOT + prompt)
    assert text == template_text(messages, add_generation_prompt=True, **options)


def test_system_message_is_a_turn_of_its_own() -> None:
    messages = [Message("system", "Be brief."), Message("user", "hi")]
    text = tooletta.render_conversation(messages, model=NORTH)
    assert text == template_text(messages)
    assert (
        "```<|END_TEXT|><|END_OF_TURN_TOKEN|><|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>"
        "<|START_TEXT|>Be brief.<|END_TEXT|>"
    ) in text
    assert tooletta.parse_conversation(text, model=NORTH) == messages


def test_documents_are_refused() -> None:
    with pytest.raises(RenderError):
        tooletta.render_conversation(
            [Message("user", "hi")], model=NORTH, documents=[{"text": "x"}]
        )


# No template property: random conversations hold calls without ids, whose results the
# template numbers all as the first id-less call (a documented difference, as Command R7B's).
test_round_trip_keeps_whitespace = round_trip_property(NORTH, trimmed=False, max_examples=60)


@pytest.mark.parametrize(
    ("options", "thinking"),
    [
        ({}, True),
        ({"reasoning": True}, True),
        ({"reasoning": None}, False),
        ({"reasoning": ""}, False),
        ({"reasoning": False}, False),
        ({"reasoning_effort": "none"}, False),
        ({"reasoning_effort": None}, False),
        ({"reasoning_effort": "low"}, True),
    ],
)
def test_prompt_follows_the_templates_reasoning_switch(
    options: dict[str, Any], thinking: bool
) -> None:
    """The template sets ``reasoning`` only when it is undefined (on, or off for a
    ``reasoning_effort`` that lowercases to ``none``, ``None`` included) and then asks ``if
    reasoning``: a given ``None``, ``""`` or ``0`` turns it off, as ``False`` does."""
    messages = [Message("user", "hi")]
    text = tooletta.render_conversation(
        messages, model=NORTH, add_generation_prompt=True, **options
    )
    assert text == template_text(messages, add_generation_prompt=True, **options)
    tail = "<|START_THINKING|>" if thinking else "<|START_THINKING|><|END_THINKING|>"
    assert text.endswith(CHATBOT + tail)
    assert tooletta.parse_conversation(text, model=NORTH) == messages


UNWRITTEN: dict[str, tuple[Any, Any]] = {
    "skip_thinking": (False, True),
    "grounding": ("disabled", "enabled"),
    "response_format": (None, {"type": "json_object"}),
    "platform_instruction_override": (None, "You are a pirate."),
    "developer_instruction": (None, "Answer in French."),
    "regen_tool_call_ids": (True, False),
}
"""Each switch the template reads and the format does not write: (the value under which the
template writes what the format writes, a value under which it writes something else)."""


@pytest.mark.parametrize("name", sorted(UNWRITTEN))
def test_a_switch_the_format_does_not_write_is_refused(name: str) -> None:
    other = UNWRITTEN[name][1]
    conversation = [Message("system", "Be brief."), *CALLS]
    tools = SAMPLE_TOOLS
    # the template writes something else with it: rendering natively would be silently wrong
    assert template_text(conversation, tools, **{name: other}) != template_text(conversation, tools)
    with pytest.raises(
        RenderError, match=f"north_mini_code does not write the template's '{name}'"
    ):
        tooletta.render_conversation(conversation, model=NORTH, tools=tools, **{name: other})
    with pytest.raises(RenderError, match="chat_template="):
        tooletta.chat.render_spans(conversation, model=NORTH, tools=tools, **{name: other})


@pytest.mark.parametrize("name", sorted(UNWRITTEN))
def test_a_switch_given_as_the_template_default_renders_as_the_template(name: str) -> None:
    neutral = UNWRITTEN[name][0]
    conversation = [Message("system", "Be brief."), *CALLS]
    kwargs: dict[str, Any] = {name: neutral, "add_generation_prompt": True}
    got = tooletta.render_conversation(conversation, model=NORTH, tools=SAMPLE_TOOLS, **kwargs)
    assert got == template_text(conversation, SAMPLE_TOOLS, **kwargs)
    assert got == tooletta.render_conversation(
        conversation, model=NORTH, tools=SAMPLE_TOOLS, add_generation_prompt=True
    )


def test_the_template_renders_what_the_format_refuses() -> None:
    conversation = [Message("system", "Be brief."), *CALLS]
    got = tooletta.render_conversation(
        conversation,
        chat_template=TEMPLATE,
        tools=SAMPLE_TOOLS,
        bos_token="<BOS_TOKEN>",
        grounding="enabled",
    )
    assert got == template_text(conversation, SAMPLE_TOOLS, grounding="enabled")


def test_convert_first_system_msg_writes_the_same_either_way() -> None:
    """Read by the template, not declared: it never changes the text."""
    conversation = [Message("system", "Be brief."), *CALLS]
    plain = template_text(conversation, SAMPLE_TOOLS)
    for value in (True, False, None):
        assert template_text(conversation, SAMPLE_TOOLS, convert_first_system_msg=value) == plain
    assert (
        tooletta.render_conversation(
            conversation, model=NORTH, tools=SAMPLE_TOOLS, convert_first_system_msg=False
        )
        == plain
    )


def test_training_refuses_a_switch_the_format_does_not_write() -> None:
    from tooletta.training import extension_holds, tokenize_conversation

    conversation = [Message("system", "Be brief."), *CALLS]
    with pytest.raises(RenderError, match="'skip_thinking'"):
        extension_holds(conversation, model=NORTH, skip_thinking=True)
    with pytest.raises(RenderError, match="'skip_thinking'"):
        tokenize_conversation(conversation, None, model=NORTH, skip_thinking=True)
    assert extension_holds(conversation, model=NORTH, skip_thinking=False)


def _neutral_values(name: str) -> tuple[Any, ...]:
    """The values ``north_mini_code`` declares neutral for ``name``."""
    from tooletta.plugin import Neutral

    declared = NorthChat.unwritten_options[name]
    return declared.values if isinstance(declared, Neutral) else (declared,)


NEUTRAL_CONVERSATIONS: list[tuple[list[Message], Any]] = [
    ([Message("system", "Be brief."), *CALLS], SAMPLE_TOOLS),
    ([*CALLS], SAMPLE_TOOLS),
    ([Message("system", "Be brief."), Message("user", "hi")], None),
    ([Message("user", "hi"), Message("assistant", "Hello.", reasoning="Greet.")], None),
]
"""Conversations the neutral values are checked on: a system message or not, tools or not,
calls with their ids and results, reasoning before calls and before an answer."""


@pytest.mark.parametrize(
    ("name", "value"),
    [(n, v) for n in sorted(NorthChat.unwritten_options) for v in _neutral_values(n)],
    ids=repr,
)
def test_every_declared_neutral_value_renders_as_the_template(name: str, value: Any) -> None:
    """The template writes, with the value, what it writes without the switch, and so does
    the format (given the value, not refused)."""
    for messages, tools in NEUTRAL_CONVERSATIONS:
        for prompt in (False, True):
            plain = template_text(messages, tools, add_generation_prompt=prompt)
            given = template_text(messages, tools, add_generation_prompt=prompt, **{name: value})
            assert given == plain, (name, value)
            ours = tooletta.render_conversation(
                messages, model=NORTH, tools=tools, add_generation_prompt=prompt, **{name: value}
            )
            assert ours == plain


NOT_NEUTRAL: dict[str, tuple[Any, ...]] = {
    "skip_thinking": (True, 1, "yes"),
    "grounding": ("enabled", "ENABLED", "Enabled"),
    "response_format": (
        {"type": "json_object"},
        {"type": "json_schema", "json_schema": {"type": "object"}},
    ),
    "platform_instruction_override": ("You are a pirate.", PLATFORM + " "),
    "developer_instruction": ("Answer in French.", " "),
    "regen_tool_call_ids": (False, None, 0, ""),
}
"""Values under which the template writes something else: each is refused."""


@pytest.mark.parametrize(
    ("name", "value"), [(n, v) for n, vs in sorted(NOT_NEUTRAL.items()) for v in vs], ids=repr
)
def test_a_value_the_template_writes_otherwise_is_refused(name: str, value: Any) -> None:
    messages, tools = NEUTRAL_CONVERSATIONS[0]
    assert template_text(messages, tools, **{name: value}) != template_text(messages, tools)
    with pytest.raises(RenderError, match=f"'{name}' option"):
        tooletta.render_conversation(messages, model=NORTH, tools=tools, **{name: value})
