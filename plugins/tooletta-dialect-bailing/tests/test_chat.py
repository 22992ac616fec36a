"""Ling conversations against the models' own templates (vendored; SOURCES.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tooletta_dialect_bailing.chat import ROLE_END, THINKING_OFF

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat.jinja import render_jinja
from tooletta.testing import DialectTests
from tooletta.testing.conversation_properties import template_property
from tooletta.testing.conversations import SAMPLE_TOOLS, ConversationTests

TEMPLATES = Path(__file__).parent / "templates"
LING26 = TEMPLATES / "inclusionAI-Ling-2.6-flash.jinja"
LING26_IDS = (
    "inclusionAI/Ling-2.5-1T",
    "inclusionAI/Ling-2.6-1T",
    "inclusionAI/Ling-2.6-flash",
    "inclusionAI/Ling-2.6-flash-base",
)
CALLS = [ToolCall("get_weather", {"city": "Paris"}), ToolCall("get_time", {"tz": "UTC"})]


class TestLing26Chat(ConversationTests):
    """Ling-2.6-flash's template (Ling-2.5-1T's and Ling-2.6-1T's too)."""

    model = "inclusionAI/Ling-2.6-flash"
    template = LING26


class TestBailingDialect(DialectTests):
    dialect = "bailing"
    names = ("bailing", "ling", "bailing_moe")
    models = LING26_IDS
    fixtures = Path(__file__).parent / "fixtures" / "bailing.json"


def _render(template: Path, messages: list[Message], **kwargs: Any) -> str:
    """``template`` rendered with Jinja under Hugging Face's semantics."""
    return render_jinja(template.read_text(encoding="utf-8"), messages, **kwargs)


def _jinja(messages: list[Message], **kwargs: Any) -> str:
    return _render(LING26, messages, **kwargs)


@pytest.mark.parametrize("model", LING26_IDS)
def test_each_id_renders_its_template(model: str) -> None:
    assert tooletta.dialect_for_model(model) == "bailing"
    messages = [Message("user", "Hi"), Message("assistant", "Hello.", tool_calls=CALLS)]
    text = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
    assert text == _jinja(messages, tools=SAMPLE_TOOLS)


def test_the_calls_are_hermes_calls() -> None:
    assert tooletta.render(CALLS, "bailing", content="On it.") == tooletta.render(
        CALLS, "hermes", content="On it."
    )
    text = tooletta.render(CALLS, model="inclusionAI/Ling-2.6-flash", content="On it.")
    assert tooletta.parse(text, model="inclusionAI/Ling-2.6-flash").calls == CALLS


def test_the_opening_turn_is_always_written_and_ends_with_the_fixed_switch() -> None:
    messages = [Message("user", "Hi")]
    text = tooletta.render_conversation(messages, model="inclusionAI/Ling-2.6-flash")
    assert text == f"<role>SYSTEM</role>{THINKING_OFF}<|role_end|><role>HUMAN</role>Hi<|role_end|>"
    assert text == _jinja(messages)
    assert tooletta.parse_conversation(text, model="inclusionAI/Ling-2.6-flash") == messages


@pytest.mark.parametrize(
    "system",
    ["Be brief. detailed thinking on", "detailed thinking off!", "A\ndetailed thinking on"],
)
def test_a_system_message_holding_the_switch_is_written_alone(system: str) -> None:
    messages = [Message("system", system), Message("user", "Hi")]
    model = "inclusionAI/Ling-2.6-flash"
    text = tooletta.render_conversation(messages, model=model)
    assert text == _jinja(messages)
    assert text.startswith(f"<role>SYSTEM</role>{system}<|role_end|>")
    assert tooletta.parse_conversation(text, model=model) == messages
    # with tools the template writes its own switch line after the declarations all the same
    with_tools = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
    assert with_tools == _jinja(messages, tools=SAMPLE_TOOLS)
    assert f"</tool_call>\n{THINKING_OFF}<|role_end|>" in with_tools
    assert tooletta.parse_conversation(with_tools, model=model, tools=SAMPLE_TOOLS) == messages


@pytest.mark.parametrize(
    ("system", "same_as"), [("A\ndetailed thinking off", "A"), ("detailed thinking off", None)]
)
def test_a_system_message_the_template_writes_as_another_is_refused(
    system: str, same_as: str | None
) -> None:
    """The template writes ``A\\ndetailed thinking off`` for that message and for ``A`` (and
    the line alone for no system message): it could not be read back, so it is refused rather
    than read back as another message."""
    messages = [Message("system", system), Message("user", "Hi")]
    other = [Message("system", same_as)] if same_as is not None else []
    assert _jinja(messages) == _jinja([*other, Message("user", "Hi")])
    with pytest.raises(RenderError, match="read back"):
        tooletta.render_conversation(messages, model="inclusionAI/Ling-2.6-flash")


def test_the_thinking_option_has_no_effect() -> None:
    """``{% set thinking_option = 'off' %}``: a caller's value is overwritten."""
    messages = [Message("user", "Hi")]
    assert _jinja(messages, thinking_option="on") == _jinja(messages)


def test_reasoning_is_kept_after_the_last_query_only() -> None:
    messages = [
        Message("user", "Q1"),
        Message("assistant", "A1", reasoning="r1"),
        Message("user", "Q2"),
        Message("assistant", "", reasoning="r2", tool_calls=CALLS[:1]),
        Message("tool", "18 C"),
        Message("assistant", "\nA2", reasoning="\nr3\n"),
    ]
    model = "inclusionAI/Ling-2.6-flash"
    text = tooletta.render_conversation(messages, model=model)
    assert text == _jinja(messages)
    assert "r1" not in text
    assert "<role>ASSISTANT</role>\n<think>\nr3\n</think>\n\nA2<|role_end|>" in text


test_random_conversations_round_trip_and_match_the_template = template_property(
    "inclusionAI/Ling-2.6-flash", LING26, add_generation_prompt=True
)


RING1T = TEMPLATES / "inclusionAI-Ring-1T.jinja"


class TestRing1TChat(ConversationTests):
    """Ring-1T's template."""

    model = "inclusionAI/Ring-1T"
    template = RING1T


test_ring1t_random_conversations_round_trip_and_match_the_template = template_property(
    "inclusionAI/Ring-1T", RING1T, add_generation_prompt=True
)


@pytest.mark.parametrize("system", [None, ""])
def test_ring1t_writes_the_declarations_under_no_header_without_a_system_message(
    system: str | None,
) -> None:
    """The template's own layout: no system turn for no (or an empty) system message, the
    declarations alone at the start; read back past them (the empty message is not in the
    text, so it is not read back)."""
    head = [Message("system", system)] if system is not None else []
    messages = [*head, Message("user", "Hi")]
    model = "inclusionAI/Ring-1T"
    text = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
    assert text == _render(RING1T, messages, tools=SAMPLE_TOOLS)
    assert text.startswith("\n# Tools\n") and text.endswith("</tool_call>\n<role>HUMAN</role>Hi")
    parsed = tooletta.parse_conversation(text, model=model, tools=SAMPLE_TOOLS)
    assert parsed == [Message("user", "Hi")]


def test_ring1t_keeps_only_the_last_messages_reasoning_and_writes_no_end_of_turn() -> None:
    messages = [
        Message("user", "Q"),
        Message("assistant", "", reasoning="r1", tool_calls=CALLS),
        Message("tool", "18 C"),
        Message("tool", "12:00"),
        Message("assistant", "\nA", reasoning="\nr2\n"),
    ]
    model = "inclusionAI/Ring-1T"
    text = tooletta.render_conversation(messages, model=model)
    assert text == _render(RING1T, messages)
    assert "r1" not in text and "<|role_end|>" not in text
    assert text.endswith("<role>ASSISTANT</role><think>\nr2</think>\n\nA")
    assert tooletta.parse_conversation(text, model=model)[-1] == Message(
        "assistant", "A", reasoning="r2"
    )


def test_ring1t_without_a_user_query_keeps_the_last_reasoning_where_the_template_drops_it() -> None:
    """The documented difference (README): the template writes the last message's reasoning
    only after a user query; the format's rule is the last message's alone."""
    messages = [Message("system", "S"), Message("assistant", "A", reasoning="r")]
    text = tooletta.render_conversation(messages, model="inclusionAI/Ring-1T")
    assert text == "<role>SYSTEM</role>S<role>ASSISTANT</role><think>\nr</think>\n\nA"
    assert _render(RING1T, messages) == "<role>SYSTEM</role>S<role>ASSISTANT</role>A"


RING_LINEAR = TEMPLATES / "inclusionAI-Ring-mini-linear-2.0.jinja"


class TestRingLinear2Chat(ConversationTests):
    """Ring-mini-linear-2.0's template (Ring-flash-linear-2.0's too)."""

    model = "inclusionAI/Ring-mini-linear-2.0"
    template = RING_LINEAR


test_ring_linear_random_conversations_round_trip_and_match_the_template = template_property(
    "inclusionAI/Ring-flash-linear-2.0", RING_LINEAR, add_generation_prompt=True
)


@pytest.mark.parametrize("model", ["inclusionAI/Ring-mini-linear-2.0", "Ring-flash-linear-2.0"])
def test_ring_linear_writes_the_default_prompt_without_a_message_or_tools(model: str) -> None:
    from tooletta_dialect_bailing.chat import RING_LINEAR_DEFAULT

    messages = [Message("user", "Hi")]
    text = tooletta.render_conversation(messages, model=model, add_generation_prompt=True)
    assert text == _render(RING_LINEAR, messages, add_generation_prompt=True)
    assert text == (
        f"<role>SYSTEM</role>{RING_LINEAR_DEFAULT}\n<role>HUMAN</role>Hi"
        "<role>ASSISTANT</role><think>\n"
    )
    assert tooletta.parse_conversation(text, model=model) == messages
    # a system message, even an empty one, is written with its line break instead
    for system in ("", "Be brief."):
        given = [Message("system", system), *messages]
        text = tooletta.render_conversation(given, model=model)
        assert (
            text
            == _render(RING_LINEAR, given)
            == f"<role>SYSTEM</role>{system}\n<role>HUMAN</role>Hi"
        )
        assert tooletta.parse_conversation(text, model=model) == given


RING_LINEAR_128K = TEMPLATES / "inclusionAI-Ring-flash-linear-2.0-128k.jinja"


class TestRingLinear128kChat(ConversationTests):
    """Ring-flash-linear-2.0-128k's template."""

    model = "inclusionAI/Ring-flash-linear-2.0-128k"
    template = RING_LINEAR_128K


test_ring_linear_128k_random_conversations_round_trip_and_match_the_template = template_property(
    "inclusionAI/Ring-flash-linear-2.0-128k", RING_LINEAR_128K, add_generation_prompt=True
)


@pytest.mark.parametrize(("system", "header"), [(None, False), ("", True), ("S", True)])
def test_ring_linear_128k_declarations_without_a_system_message_have_no_header(
    system: str | None, header: bool
) -> None:
    head = [Message("system", system)] if system is not None else []
    messages = [*head, Message("user", "Hi")]
    model = "inclusionAI/Ring-flash-linear-2.0-128k"
    text = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
    assert text == _render(RING_LINEAR_128K, messages, tools=SAMPLE_TOOLS)
    assert text.startswith("<role>SYSTEM</role>") is header
    assert tooletta.parse_conversation(text, model=model, tools=SAMPLE_TOOLS) == messages


def test_response_template_reads_the_fixtures() -> None:
    """The exported template, run through transformers' own parser on the golden cases (the
    assistant turns the Ling template writes) and on a turn with reasoning."""
    import json

    from tooletta.interop import hf

    chat_parsing = pytest.importorskip("transformers.utils.chat_parsing")
    template = hf.to_response_template("bailing")
    cases = json.loads((Path(__file__).parent / "fixtures" / "bailing.json").read_text())
    for case in cases:
        message = chat_parsing.parse_response(case["text"], template, prefix="")
        got = [c["function"] for c in message.get("tool_calls") or []]
        assert got == case["calls"], case["name"]
        assert (message.get("content") or "").strip() == case["content"], case["name"]
    turn = tooletta.render_conversation(
        [Message("user", "Q"), Message("assistant", "A.", reasoning="Think.", tool_calls=CALLS)],
        model="inclusionAI/Ling-2.6-flash",
    )
    reply = turn.split("<role>ASSISTANT</role>", 1)[1]
    message = chat_parsing.parse_response(reply, template, prefix="")
    assert message["reasoning_content"].strip() == "Think."
    assert (message.get("content") or "").strip() == "A."
    assert [c["function"] for c in message["tool_calls"]] == [
        {"name": c.name, "arguments": c.arguments} for c in CALLS
    ]


RING25 = TEMPLATES / "inclusionAI-Ring-2.5-1T.jinja"


class TestRing25Chat(ConversationTests):
    """Ring-2.5-1T's template."""

    model = "inclusionAI/Ring-2.5-1T"
    template = RING25


test_ring25_random_conversations_round_trip_and_match_the_template = template_property(
    "inclusionAI/Ring-2.5-1T", RING25, add_generation_prompt=True
)


@pytest.mark.parametrize("tools", [None, SAMPLE_TOOLS])
def test_ring25_never_closes_its_opening_turn(tools: Any) -> None:
    """The opening turn (the system message and a blank line, then the declarations) runs to
    the next header with no ``<|role_end|>``; a later system turn is closed by it."""
    messages = [
        Message("system", "Be brief."),
        Message("user", "Hi"),
        Message("system", "Later."),
        Message("assistant", "Hello."),
    ]
    model = "Ring-2.5-1T"
    text = tooletta.render_conversation(messages, model=model, tools=tools)
    assert text == _render(RING25, messages, tools=tools)
    declared = text.split("<role>HUMAN</role>", 1)[0]
    assert declared.startswith("<role>SYSTEM</role>\nBe brief.\n\n")
    assert ROLE_END not in declared
    assert declared.endswith("</tool_call>\n\n" if tools else "Be brief.\n\n")
    assert "<role>SYSTEM</role>\nLater.<|role_end|>\n\n<role>ASSISTANT</role>\n" in text
    assert tooletta.parse_conversation(text, model=model, tools=tools) == messages


@pytest.mark.parametrize("system", [None, ""])
def test_ring25_declarations_alone_without_a_system_message(system: str | None) -> None:
    """No (or an empty) system message: the declarations alone in the opening turn, or no
    turn without tools; the empty message is not in the text, so it is not read back."""
    head = [Message("system", system)] if system is not None else []
    messages = [*head, Message("user", "Hi")]
    model = "inclusionAI/Ring-2.5-1T"
    text = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
    assert text == _render(RING25, messages, tools=SAMPLE_TOOLS)
    assert text.startswith("<role>SYSTEM</role>\n# Tools\nYou may call")
    assert tooletta.parse_conversation(text, model=model, tools=SAMPLE_TOOLS) == messages[-1:]
    bare = tooletta.render_conversation(messages, model=model)
    assert bare == _render(RING25, messages) == f"<role>HUMAN</role>\nHi{ROLE_END}\n\n"


def test_ring25_a_later_system_message_first_is_read_as_one() -> None:
    """An empty first system message and no tools: no opening turn, the next system message
    a closed turn of its own at the start; read back as that (the empty one is not in the
    text)."""
    messages = [Message("system", ""), Message("system", "Later."), Message("user", "Hi")]
    model = "inclusionAI/Ring-2.5-1T"
    text = tooletta.render_conversation(messages, model=model)
    assert text == _render(RING25, messages)
    assert text.startswith(f"<role>SYSTEM</role>\nLater.{ROLE_END}\n\n<role>HUMAN</role>")
    assert tooletta.parse_conversation(text, model=model) == messages[1:]


def test_ring25_prompt_has_no_line_break_and_a_system_message_alone_reads_back() -> None:
    messages = [Message("system", "S\n\n")]
    model = "inclusionAI/Ring-2.5-1T"
    text = tooletta.render_conversation(messages, model=model, add_generation_prompt=True)
    assert text == _render(RING25, messages, add_generation_prompt=True)
    assert text == "<role>SYSTEM</role>\nS\n\n\n\n<role>ASSISTANT</role>"
    assert tooletta.parse_conversation(text, model=model) == messages


def test_ring25_reasoning_and_calls() -> None:
    messages = [
        Message("user", "Q1"),
        Message("assistant", "A1", reasoning="r1"),
        Message("user", "Q2"),
        Message("assistant", "", reasoning="r2", tool_calls=CALLS),
        Message("tool", "18 C"),
        Message("tool", "12:00"),
        Message("assistant", "\nA2", reasoning="\nr3\n"),
    ]
    model = "inclusionAI/Ring-2.5-1T"
    text = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
    assert text == _render(RING25, messages, tools=SAMPLE_TOOLS)
    assert "r1" not in text
    assert (
        '<role>ASSISTANT</role>\n<think>\nr2\n</think>\n\n<tool_call>\n{"name": "get_weather"'
        in text
    )
    assert (
        "<role>OBSERVATION</role>\n<tool_response>\n18 C\n</tool_response>\n<tool_response>" in text
    )
    assert text.endswith("<role>ASSISTANT</role>\n<think>\nr3\n</think>\n\nA2<|role_end|>\n\n")
    parsed = tooletta.parse_conversation(text, model=model, tools=SAMPLE_TOOLS)
    assert [m.reasoning for m in parsed] == ["", "", "", "r2", "", "", "r3"]
    assert parsed[3].tool_calls == CALLS
    assert parsed[-1] == Message("assistant", "A2", reasoning="r3")


def test_ring25_template_is_identified() -> None:
    from tooletta.chat import identify

    ident = identify(RING25.read_text(encoding="utf-8"))
    assert (ident.format, ident.dialect) == ("ring25", "bailing")


RING26 = TEMPLATES / "inclusionAI-Ring-2.6-1T.jinja"


class TestRing26Chat(ConversationTests):
    """Ring-2.6-1T's template, under each effort the format writes."""

    model = "inclusionAI/Ring-2.6-1T"
    template = RING26
    options = ({}, {"reasoning_effort": "low"}, {"reasoning_effort": "max"})


class TestBailingKvDialect(DialectTests):
    dialect = "bailing_kv"
    names = ("bailing_kv",)
    models = ("inclusionAI/Ring-2.6-1T", "Ring-2.6-1T")
    fixtures = Path(__file__).parent / "fixtures" / "bailing_kv.json"


test_ring26_random_conversations_round_trip_and_match_the_template = template_property(
    "inclusionAI/Ring-2.6-1T", RING26, add_generation_prompt=True
)


def test_ring26_opening_turn_unclosed_only_when_it_holds_the_effort_line_alone() -> None:
    model = "inclusionAI/Ring-2.6-1T"
    messages = [Message("user", "Hi")]
    text = tooletta.render_conversation(messages, model=model)
    assert text == _render(RING26, messages)
    assert text == f"<role>SYSTEM</role>\nReasoning: high\n\n<role>HUMAN</role>\nHi{ROLE_END}\n\n"
    assert tooletta.parse_conversation(text, model=model) == messages
    given = [Message("system", "Be brief."), *messages]
    text = tooletta.render_conversation(given, model=model)
    assert text == _render(RING26, given)
    assert text.startswith(f"<role>SYSTEM</role>\nReasoning: high\n\nBe brief.{ROLE_END}\n\n<role>")
    assert tooletta.parse_conversation(text, model=model) == given
    for head in ([], given[:1], [Message("system", "")]):
        text = tooletta.render_conversation([*head, *messages], model=model, tools=SAMPLE_TOOLS)
        assert text == _render(RING26, [*head, *messages], tools=SAMPLE_TOOLS)
        assert f"</tool_call>{ROLE_END}\n\n<role>HUMAN</role>" in text
        assert ("Be brief.\n\n# Tools\n" in text) is (head == given[:1])
        parsed = tooletta.parse_conversation(text, model=model, tools=SAMPLE_TOOLS)
        assert parsed == [m for m in [*head, *messages] if m.content]


@pytest.mark.parametrize("effort", [None, "", "high", "medium", "low"])
def test_ring26_effort_line(effort: str | None) -> None:
    model = "Ring-2.6-1T"
    messages = [Message("system", "S"), Message("user", "Hi")]
    options: dict[str, Any] = {} if effort is None else {"reasoning_effort": effort}
    text = tooletta.render_conversation(
        messages, model=model, add_generation_prompt=True, **options
    )
    assert text == _render(RING26, messages, add_generation_prompt=True, **options)
    assert text.startswith(f"<role>SYSTEM</role>\nReasoning: {effort or 'high'}\n\nS{ROLE_END}")
    assert text.endswith("<role>ASSISTANT</role>")
    assert tooletta.parse_conversation(text, model=model) == messages


@pytest.mark.parametrize("effort", ["max", "none", "Reasoning: x"])
def test_ring26_writes_any_effort_on_one_line(effort: str) -> None:
    model = "Ring-2.6-1T"
    messages = [Message("user", "Hi")]
    for head in ([], [Message("system", "S")]):
        text = tooletta.render_conversation(
            [*head, *messages], model=model, reasoning_effort=effort
        )
        assert text == _render(RING26, [*head, *messages], reasoning_effort=effort)
        assert text.startswith(f"<role>SYSTEM</role>\nReasoning: {effort}\n\n")
        assert tooletta.parse_conversation(text, model=model) == [*head, *messages]


@pytest.mark.parametrize("effort", ["a\nb", True])
def test_ring26_refuses_an_effort_that_is_not_one_line_of_text(effort: object) -> None:
    """A line break would not read back; the template raises on a value that is not text."""
    messages = [Message("user", "Hi")]
    with pytest.raises(RenderError, match="reasoning_effort"):
        tooletta.render_conversation(messages, model="Ring-2.6-1T", reasoning_effort=effort)


def test_ring26_calls_are_glm_like_with_nothing_between_arguments() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 3}), ToolCall("list_files", {})]
    model = "inclusionAI/Ring-2.6-1T"
    messages = [
        Message("user", "Q"),
        Message("assistant", "On it.", reasoning="r", tool_calls=calls),
        Message("tool", "18 C"),
        Message("tool", "[]"),
        Message("assistant", "Done."),
    ]
    text = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
    assert text == _render(RING26, messages, tools=SAMPLE_TOOLS)
    assert (
        "<think>\nr\n</think>\n\nOn it.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n"
        "<arg_value>Paris</arg_value><arg_key>days</arg_key>\n<arg_value>3</arg_value>\n"
        f"</tool_call>\n<tool_call>list_files\n\n</tool_call>{ROLE_END}\n\n"
    ) in text
    parsed = tooletta.parse_conversation(text, model=model, tools=SAMPLE_TOOLS)
    assert parsed[1].tool_calls == calls and parsed[1].content == "On it."
    turn = tooletta.render(calls, model=model, content="On it.")
    assert tooletta.parse(turn, "glm45").calls == calls
    assert tooletta.parse(turn, model=model).calls == calls
    assert tooletta.dialect_for_model(model) == "bailing_kv"


def test_ring26_template_is_identified() -> None:
    from tooletta.chat import identify

    ident = identify(RING26.read_text(encoding="utf-8"))
    assert (ident.format, ident.dialect) == ("ring26", "bailing_kv")


def test_bailing_kv_response_template_reads_the_fixtures() -> None:
    """The exported template through transformers' own parser on the assistant turns
    Ring-2.6-1T's template writes (values as text without the tools, as GLM's)."""
    import json

    from tooletta.interop import hf

    chat_parsing = pytest.importorskip("transformers.utils.chat_parsing")
    template = hf.to_response_template("bailing_kv")
    cases = json.loads((Path(__file__).parent / "fixtures" / "bailing_kv.json").read_text())
    for case in cases:
        message = chat_parsing.parse_response(case["text"], template, prefix="")
        got = [c["function"]["name"] for c in message.get("tool_calls") or []]
        assert got == [c["name"] for c in case["calls"]], case["name"]
        assert (message.get("content") or "").strip() == case["content"], case["name"]
