"""Granite 3.3 conversations: native rendering against the model's own template (vendored)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversations import (
    CALL_SAMPLES,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    replace,
    sample_conversations,
)

TEMPLATE = Path(__file__).parent / "templates" / "ibm-granite-granite-3.3-2B-Instruct.jinja"
MODEL = "ibm-granite/granite-3.3-2b-instruct"
CALLS = "the template writes only an assistant message's content: it drops the calls"
DIFFERENCES = dict.fromkeys(CALL_SAMPLES, CALLS)
"""The sample conversations the template gets wrong (see the README's Conversations)."""


def _now(fmt: str) -> str:
    return "March 05, 2025" if fmt == "%B %d, %Y" else fmt


PINNED = {"strftime_now": _now}


def as_template_writes(messages: list[Message]) -> list[Message]:
    """``messages`` with each turn's calls written in its content (the granite form), which
    the template then writes as it is, and without reasoning (the template writes none)."""
    out = []
    for m in messages:
        if m.tool_calls:
            text = tooletta.render(m.tool_calls, "granite", content=str(m.content))
            m = replace(m, content=text, tool_calls=[])
        out.append(replace(m, reasoning=""))
    return out


def template_text(messages: list[Message], **kwargs: Any) -> str:
    return render_jinja(TEMPLATE.read_text(), messages, **{**PINNED, **kwargs})


def ours(messages: list[Message], **kwargs: Any) -> str:
    return tooletta.render_conversation(messages, model=MODEL, **{**PINNED, **kwargs})


class TestGranite33Chat(ConversationTests):
    model = MODEL
    template = TEMPLATE
    differences = DIFFERENCES
    options = (PINNED, {**PINNED, "thinking": True})


def test_formats_route_by_model() -> None:
    from tooletta.chat import resolve_format

    assert tooletta.dialect_for_model("ibm-granite/granite-3.3-8b-instruct") == "granite"
    assert resolve_format("ibm-granite/granite-3.3-8b-instruct", None)[0].name == "granite33"
    assert resolve_format(None, "granite")[0].name == "granite33"


@pytest.mark.parametrize("prompt", [False, True])
@pytest.mark.parametrize("name", sorted(DIFFERENCES))
def test_calls_are_written_where_the_template_drops_them(name: str, prompt: bool) -> None:
    """We write each turn's calls as the model generates them; the template drops them. With
    the calls moved into the content, the template writes exactly our text."""
    messages, _ = sample_conversations()[name]
    text = ours(messages, tools=SAMPLE_TOOLS, add_generation_prompt=prompt)
    expected = as_template_writes(messages)
    assert text == template_text(expected, tools=SAMPLE_TOOLS, add_generation_prompt=prompt)
    assert (
        "<|tool_call|>"
        not in template_text(messages, tools=SAMPLE_TOOLS).split("<|start_of_role|>user")[-1]
    )
    assert (
        "<|start_of_role|>assistant<|end_of_role|>Let me check both.\n<|tool_call|>["
        '{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}, '
        '{"name": "get_time", "arguments": {"tz": "Europe/Paris"}}]<|end_of_text|>\n'
    ) in text or name == "reasoning_multi_turn"


def test_render_model_turn() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris"})]
    assert tooletta.render(calls, model=MODEL) == (
        '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]'
    )
    assert tooletta.render([], model=MODEL, content="Hi.") == "Hi."


def test_reasoning_is_not_written() -> None:
    messages = [Message("user", "q"), Message("assistant", "a", reasoning="secret")]
    assert "secret" not in ours(messages)


@pytest.mark.parametrize("tools", [None, SAMPLE_TOOLS])
@pytest.mark.parametrize("thinking", [False, True])
def test_default_system_message_reads_back_as_none(tools: Any, thinking: bool) -> None:
    messages = [Message("user", "q"), Message("assistant", "a")]
    text = ours(messages, tools=tools, thinking=thinking)
    assert text == template_text(messages, tools=tools, thinking=thinking)
    assert tooletta.parse_conversation(text, model=MODEL, tools=tools)[0].role == "user"


def test_later_system_message_and_only_system() -> None:
    messages = [Message("user", "q"), Message("system", "rule"), Message("user", "r")]
    for prompt in (False, True):
        assert ours(messages, add_generation_prompt=prompt) == template_text(
            messages, add_generation_prompt=prompt
        )
    check_conversation_round_trip(messages, model=MODEL)
    alone = [Message("system", "s")]
    assert ours(alone, add_generation_prompt=True) == template_text(
        alone, add_generation_prompt=True
    )


@pytest.mark.parametrize("switch", ["documents", "controls"])
def test_rag_switches_are_refused(switch: str) -> None:
    with pytest.raises(RenderError, match=switch):
        ours([Message("user", "q")], **{switch: [{"doc_id": 1, "text": "t"}]})
