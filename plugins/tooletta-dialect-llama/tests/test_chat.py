"""Llama 3.x conversations: native rendering against the models' own templates (vendored)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversations import (
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    replace,
    sample_conversations,
)

TEMPLATES = Path(__file__).parent / "templates"
TOKENS = {"bos_token": "<|begin_of_text|>"}
TWO_CALLS = "the template raises on two calls in one turn ('This model only supports single "
CONTENT = "tool-calls at once!') and drops the content beside calls"
DIFFERENCES = {
    "tools_two_calls": TWO_CALLS + CONTENT,
    "tools_no_system": TWO_CALLS + CONTENT,
    "reasoning_multi_turn": TWO_CALLS + CONTENT,
    "pending_call": TWO_CALLS + CONTENT,
}
"""The sample conversations the templates cannot render (see the README's Conversations)."""


def single_calls(messages: list[Message]) -> list[Message]:
    """``messages`` as the Llama 3 templates can render them: the first call of each turn,
    no content beside it, and only the result that answers it."""
    out: list[Message] = []
    answered = 0
    for m in messages:
        if m.tool_calls:
            out.append(replace(m, content="", tool_calls=m.tool_calls[:1]))
            answered = 0
        elif m.role == "tool":
            answered += 1
            if answered == 1:
                out.append(m)
        else:
            out.append(m)
    return out


class LlamaCases(ConversationTests):
    """The shared samples, plus each tool sample with one call per turn (which the templates
    render: the exact check covers tool declarations, calls and ``ipython`` results)."""

    tokens = TOKENS
    differences = DIFFERENCES

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        cases = sample_conversations(ids=self.ids)
        for name, (messages, uses_tools) in list(cases.items()):
            if name in DIFFERENCES:
                cases[name + "_one_call"] = (single_calls(messages), uses_tools)
        return cases


class TestLlama31Chat(LlamaCases):
    model = "meta-llama/Llama-3.1-8B-Instruct"
    template = TEMPLATES / "meta-llama-Llama-3.1-8B-Instruct.jinja"
    options = ({}, {"tools_in_user_message": False}, {"date_string": "02 Jan 2025"})


class TestLlama33Chat(LlamaCases):
    model = "meta-llama/Llama-3.3-70B-Instruct"
    template = TEMPLATES / "meta-llama-Llama-3.3-70B-Instruct.jinja"
    options = ({}, {"tools_in_user_message": False})


def _pinned_now(fmt: str) -> str:
    return "05 Mar 2025" if fmt == "%d %b %Y" else fmt


class TestLlama32Chat(LlamaCases):
    model = "meta-llama/Llama-3.2-3B-Instruct"
    template = TEMPLATES / "meta-llama-Llama-3.2-3B-Instruct.jinja"
    options = (
        {"strftime_now": _pinned_now},
        {"date_string": "26 Jul 2024", "tools_in_user_message": False},
    )


def test_formats_route_by_model() -> None:
    from tooletta.chat import resolve_format

    assert resolve_format("meta-llama/Llama-3.1-8B-Instruct", None)[0].name == "llama31"
    assert resolve_format("meta-llama/Llama-3.3-70B-Instruct", None)[0].name == "llama31"
    assert resolve_format("meta-llama/Llama-3.2-3B-Instruct", None)[0].name == "llama32"
    assert resolve_format("meta-llama/Llama-3.2-1B-Instruct", None)[0].name == "llama32"
    assert resolve_format(None, "llama3_json")[0].name == "llama31"


def test_llama31_and_llama33_templates_are_one() -> None:
    a = (TEMPLATES / "meta-llama-Llama-3.1-8B-Instruct.jinja").read_bytes()
    assert a == (TEMPLATES / "meta-llama-Llama-3.3-70B-Instruct.jinja").read_bytes()


def test_two_calls_are_joined_by_the_dialect_separator() -> None:
    """Where the template raises, the turn holds one object per call joined by ``; ``."""
    messages, _ = sample_conversations()["reasoning_multi_turn"]
    text = tooletta.render_conversation(
        messages, model="meta-llama/Llama-3.1-8B-Instruct", tools=SAMPLE_TOOLS
    )
    assert (
        "<|start_header_id|>assistant<|end_header_id|>\n\n"
        '{"name": "get_weather", "parameters": {"city": "Paris", "days": 2}}; '
        '{"name": "get_time", "parameters": {"tz": "Europe/Paris"}}<|eot_id|>'
    ) in text
    with pytest.raises(RenderError, match="single tool-calls"):
        render_jinja(
            (TEMPLATES / "meta-llama-Llama-3.1-8B-Instruct.jinja").read_text(),
            messages,
            tools=SAMPLE_TOOLS,
            tokens=TOKENS,
        )


def test_content_beside_calls_is_kept_behind_python_tag() -> None:
    """The template drops the content beside a call; we keep it before ``<|python_tag|>``."""
    text = tooletta.render(
        [ToolCall("get_time", {"tz": "UTC"})],
        model="meta-llama/Llama-3.3-70B-Instruct",
        content="  Let me check. ",
    )
    assert text == 'Let me check.\n<|python_tag|>{"name": "get_time", "parameters": {"tz": "UTC"}}'


def test_render_model_turn_one_call_is_the_template_form() -> None:
    text = tooletta.render(
        [ToolCall("get_weather", {"city": "Paris"})], model="meta-llama/Llama-3.2-3B-Instruct"
    )
    assert text == '{"name": "get_weather", "parameters": {"city": "Paris"}}'


def test_tool_results_are_json_string_literals() -> None:
    messages = [
        Message("user", "time?"),
        Message("assistant", "", tool_calls=[ToolCall("get_time", {"tz": "UTC"})]),
        Message("tool", 'say "hi"\n'),
    ]
    text = tooletta.render_conversation(messages, model="meta-llama/Llama-3.1-8B-Instruct")
    assert '<|start_header_id|>ipython<|end_header_id|>\n\n"say \\"hi\\"\\n"<|eot_id|>' in text
    back = tooletta.parse_conversation(text, model="meta-llama/Llama-3.1-8B-Instruct")
    assert back[-1].content == 'say "hi"\n'


@pytest.mark.parametrize("ids", [False, True])
def test_round_trip_with_tools_in_system_turn(ids: bool) -> None:
    """With the tools in the system turn, and with call ids (which the format drops)."""
    for messages, uses_tools in sample_conversations(ids=ids).values():
        check_conversation_round_trip(
            messages,
            model="meta-llama/Llama-3.1-8B-Instruct",
            tools=SAMPLE_TOOLS if uses_tools else None,
            tools_in_user_message=False,
        )


def test_tools_need_a_first_user_message() -> None:
    messages = [Message("system", "s"), Message("assistant", "hi")]
    with pytest.raises(RenderError, match="first user message"):
        tooletta.render_conversation(
            messages, model="meta-llama/Llama-3.1-8B-Instruct", tools=SAMPLE_TOOLS
        )
    text = tooletta.render_conversation(
        messages,
        model="meta-llama/Llama-3.1-8B-Instruct",
        tools=SAMPLE_TOOLS,
        tools_in_user_message=False,
    )
    assert text.endswith("<|start_header_id|>assistant<|end_header_id|>\n\nhi<|eot_id|>")


def test_builtin_tools_are_refused() -> None:
    with pytest.raises(RenderError, match="builtin_tools"):
        tooletta.render_conversation(
            [Message("user", "hi")],
            model="meta-llama/Llama-3.1-8B-Instruct",
            builtin_tools=["brave_search"],
        )


def test_trimmed_texts_and_empty_system_message() -> None:
    messages = [Message("system", "  "), Message("user", " hi \n"), Message("assistant", " yo ")]
    text = tooletta.render_conversation(messages, model="meta-llama/Llama-3.1-8B-Instruct")
    expected = render_jinja(
        (TEMPLATES / "meta-llama-Llama-3.1-8B-Instruct.jinja").read_text(),
        messages,
        tokens=TOKENS,
    )
    assert text == expected
    back = tooletta.parse_conversation(text, model="meta-llama/Llama-3.1-8B-Instruct")
    assert [(m.role, m.content) for m in back] == [("user", "hi"), ("assistant", "yo")]
