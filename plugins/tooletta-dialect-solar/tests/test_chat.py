"""Solar Open 100B conversations against the model's own template (vendored)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

import pytest

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.testing.conversations import (
    CONTENT_BESIDE_CALLS_SAMPLES,
    ConversationTests,
    replace,
    sample_conversations,
)
from tooletta.testing.role_orders import role_order_property

TEMPLATES = Path(__file__).parent / "templates"
MODEL = "upstage/Solar-Open-100B"
CONTENT_BESIDE_CALLS = "the template drops the content beside calls (we write it as a block)"


def _with_reasoning_field(messages: list[Message]) -> list[Message]:
    """The template reads ``message.reasoning`` (vLLM's field), not transformers'
    ``reasoning_content``: give it there too."""
    return [replace(m, extra={"reasoning": m.reasoning}) if m.reasoning else m for m in messages]


class TestSolarOpenChat(ConversationTests):
    model = MODEL
    template = TEMPLATES / "upstage-Solar-Open-100B.jinja"
    options = ({}, {"reasoning_effort": "low"}, {"default_system_prompt": False})
    ids = True
    differences: ClassVar[Mapping[str, str]] = dict.fromkeys(
        CONTENT_BESIDE_CALLS_SAMPLES, CONTENT_BESIDE_CALLS
    )

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        return {
            name: (_with_reasoning_field(messages), tools)
            for name, (messages, tools) in sample_conversations(ids=True).items()
        }


def test_solar_open_model_turn_with_reasoning() -> None:
    calls = [ToolCall("f", {"a": 1}, "a1b2c3d4e5")]
    assert tooletta.render(calls, model=MODEL, reasoning="Plan.") == (
        "<|think|>Plan.<|end|><|begin|>assistant<|tool_calls|><|tool_call:begin|>a1b2c3d4e5"
        '<|tool_call:name|>f<|tool_call:args|>{"a": 1}<|tool_call:end|><|calls|>'
    )
    assert tooletta.render([], model=MODEL, content="Hi.") == "<|content|>Hi.<|end|>"


def test_solar_open_content_beside_calls_is_a_block_of_its_own() -> None:
    messages, _ = sample_conversations(ids=True)["tools_two_calls"]
    text = tooletta.render_conversation(messages, model=MODEL)
    assert (
        "<|begin|>assistant<|content|>Let me check both.<|end|><|begin|>assistant<|tool_calls|>"
        in text
    )
    back = tooletta.parse_conversation(text, model=MODEL)
    assert back[2].content == "Let me check both." and len(back[2].tool_calls) == 2


def test_solar_open_results_carry_the_call_id_and_name() -> None:
    messages, _ = sample_conversations(ids=True)["tools_no_system"]
    text = tooletta.render_conversation(messages, model=MODEL)
    assert (
        "<|begin|>tool<|tool_response|><|tool_response:begin|>call_1<|tool_response:name|>"
        'get_weather<|tool_response:result|>{"temp": 18, "sky": "clear"}<|tool_response:end|>'
        "<|tool_response:begin|>call_2<|tool_response:name|>get_time<|tool_response:result|>"
        "14:05<|tool_response:end|><|end|>"
    ) in text


def test_call_turn_right_after_an_answer_is_refused() -> None:
    """An answer, then a turn that opens with its calls: the text of one answer with calls
    beside its content (a content block, then the calls), which it read back as."""
    call = ToolCall("get_weather", {"city": "Paris"}, "c1")
    messages = [
        Message("user", "Hi"),
        Message("assistant", "Let me check."),
        Message("assistant", "", tool_calls=[call]),
    ]
    with pytest.raises(RenderError, match="opens with calls right after an answer"):
        tooletta.render_conversation(messages, model=MODEL)
    merged = [Message("user", "Hi"), Message("assistant", "Let me check.", tool_calls=[call])]
    back = tooletta.parse_conversation(
        tooletta.render_conversation(merged, model=MODEL), model=MODEL
    )
    assert [(m.content, m.tool_calls) for m in back[1:]] == [("Let me check.", [call])]


test_any_order_of_roles_reads_back_or_is_refused = role_order_property(model=MODEL)
