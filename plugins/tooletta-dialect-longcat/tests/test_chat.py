"""LongCat-Flash-Chat conversations against the model's own template (vendored), and the
``longcat_flash_chat`` variant's assistant turn."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import Message, ParseError, ToolCall
from tooletta.testing import DialectTests
from tooletta.testing.conversations import (
    SAMPLE_TOOLS,
    ConversationTests,
    check_matches_template,
    sample_conversations,
)

TEMPLATES = Path(__file__).parent / "templates"
TEMPLATE = TEMPLATES / "meituan-longcat-LongCat-Flash-Chat.jinja"
CHAT = "meituan-longcat/LongCat-Flash-Chat"
CALLS = [ToolCall("get_weather", {"city": "Paris"}), ToolCall("get_time", {"tz": "UTC"})]


class TestLongCatFlashChat(ConversationTests):
    """The model's template, with thinking unset (its default), on and off."""

    model = CHAT
    template = TEMPLATE
    list_content = ("tool",)
    options = (
        {},
        {"enable_thinking": True},
        {"enable_thinking": True, "thinking_budget": 100},
        {"enable_thinking": False},
    )


class TestLongCatFlashChatDialect(DialectTests):
    dialect = "longcat_flash_chat"
    names = ("longcat_flash_chat", "LongCat_Flash_Chat")
    models = (CHAT, "meituan-longcat/LongCat-Flash-Chat-FP8", "LongCat-Flash-Chat")


def _template() -> str:
    return TEMPLATE.read_text(encoding="utf-8")


def test_flash_chat_writes_the_calls_right_after_the_content_and_each_other() -> None:
    assert tooletta.render(CALLS, "longcat_flash_chat", content="Let me check.") == (
        'Let me check.<longcat_tool_call>\n{"name": "get_weather", "arguments": '
        '{"city": "Paris"}}\n</longcat_tool_call><longcat_tool_call>\n{"name": "get_time", '
        '"arguments": {"tz": "UTC"}}\n</longcat_tool_call>'
    )
    assert tooletta.render([], "longcat_flash_chat", content="Hi.") == "Hi."


def test_longcat_default_render_is_unchanged() -> None:
    assert tooletta.render(CALLS, "longcat", content="Hi.") == (
        'Hi.\n<longcat_tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n'
        '</longcat_tool_call>\n<longcat_tool_call>\n{"name": "get_time", "arguments": '
        '{"tz": "UTC"}}\n</longcat_tool_call>'
    )


def test_flash_chat_model_picks_the_variant_and_longcat_parses_its_text() -> None:
    assert tooletta.dialect_for_model(CHAT) == "longcat_flash_chat"
    assert tooletta.dialect_for_model("meituan-longcat/LongCat-Flash-Thinking") == "longcat"
    text = tooletta.render(CALLS, model=CHAT, content="Hi.")
    assert text == tooletta.render(CALLS, "longcat_flash_chat", content="Hi.")
    assert tooletta.detect(text) == "longcat"
    assert tooletta.parse(text, "longcat").calls == CALLS
    assert tooletta.parse(text, "longcat").content == "Hi."


def test_code_interpreter_tool_is_written_as_the_template_writes_it() -> None:
    tools = [
        {"type": "code_interpreter", "function": {"name": "python"}},
        *SAMPLE_TOOLS,
        {"type": "retrieval", "function": {"name": "search"}},
    ]
    messages = [Message("user", "Plot it."), Message("assistant", "Done.")]
    for prompt in (False, True):
        check_matches_template(
            _template(), messages, model=CHAT, tools=tools, add_generation_prompt=prompt
        )
    text = tooletta.render_conversation(messages, model=CHAT, tools=tools)
    assert "## Tool namespace: code_interpreter\n\n### Tool name: code_interpreter_preview" in text
    assert "retrieval" not in text and "Tool name: python" not in text
    assert tooletta.parse_conversation(text, model=CHAT, tools=tools) == messages


def test_tool_choice_none_writes_no_declarations() -> None:
    messages, _ = sample_conversations()["tools_two_calls"]
    check_matches_template(
        _template(), messages, model=CHAT, tools=SAMPLE_TOOLS, tool_choice="none"
    )
    text = tooletta.render_conversation(
        messages, model=CHAT, tools=SAMPLE_TOOLS, tool_choice="none"
    )
    assert text.startswith("SYSTEM:You are a helpful assistant. [Round 0] USER:")


def test_user_files_are_written_before_the_content() -> None:
    messages = [
        Message("user", "Summarise it.", extra={"files": [{"name": "a.txt", "size": 3}]}),
        Message("assistant", "It says hi."),
    ]
    check_matches_template(_template(), messages, model=CHAT)
    assert tooletta.render_conversation(messages, model=CHAT).startswith(
        '[Round 0] USER:<longcat_files>\n[\n  {\n    "name": "a.txt",'
    )


def test_tool_results_without_a_name_and_holding_markers_read_back() -> None:
    messages = [
        Message("user", "Go."),
        Message("assistant", "", tool_calls=[ToolCall("get_time", {"tz": "UTC"})]),
        Message("tool", 'odd " ASSISTANT: [Round 3] USER: </longcat_s>'),
        Message("assistant", "Done."),
    ]
    check_matches_template(_template(), messages, model=CHAT, tools=SAMPLE_TOOLS)
    text = tooletta.render_conversation(messages, model=CHAT, tools=SAMPLE_TOOLS)
    assert ' TOOL:{"content": "odd \\" ASSISTANT:' in text
    back = tooletta.parse_conversation(text, model=CHAT, tools=SAMPLE_TOOLS)
    assert [m.content for m in back] == [text_of(m) for m in messages]


def text_of(message: Message) -> str:
    return message.content if isinstance(message.content, str) else ""


def test_a_broken_tool_result_is_a_parse_error_with_its_position() -> None:
    text = '[Round 0] USER:Go. ASSISTANT:Done.</longcat_s> TOOL:{"content": 1'
    with pytest.raises(ParseError) as caught:
        tooletta.parse_conversation(text, model=CHAT)
    assert caught.value.position == text.index(" TOOL:") + len(" TOOL:")
    with pytest.raises(ParseError):
        tooletta.parse_conversation(text[: -len(', "content": 1')] + '{"x": 1}', model=CHAT)


def test_definition_without_description_or_parameters_is_written_empty() -> None:
    # the template concatenates both and raises (UndefinedError / TypeError) when one is
    # missing; a correct template writes an empty description and an empty schema
    tools = [{"type": "function", "function": {"name": "ping"}}]
    messages = [Message("user", "Ping."), Message("assistant", "Pong.")]
    with pytest.raises(tooletta.RenderError):
        check_matches_template(_template(), messages, model=CHAT, tools=tools)
    text = tooletta.render_conversation(messages, model=CHAT, tools=tools)
    assert "### Tool name: ping\n\nDescription: \n\nInputSchema: \n{}\n\n**Note**" in text


def test_call_names_are_json_escaped_where_the_template_writes_them_raw() -> None:
    # the template writes '"name": "{{ name }}"' (a name holding '"' would break the JSON);
    # we write the name as JSON, the same text for every ordinary name
    call = ToolCall('say "hi"', {})
    assert tooletta.render([call], model=CHAT) == (
        '<longcat_tool_call>\n{"name": "say \\"hi\\"", "arguments": {}}\n</longcat_tool_call>'
    )


def test_bare_model_names_pick_the_format() -> None:
    assert tooletta.dialect_for_model("LongCat-Flash-Chat") == "longcat_flash_chat"
    messages = [Message("user", "Hi."), Message("assistant", "Hello.")]
    assert tooletta.render_conversation(messages, model="LongCat-Flash-Chat") == (
        "[Round 0] USER:Hi. ASSISTANT:Hello.</longcat_s>"
    )


def test_prompt_with_any_thinking_budget_reads_as_no_message() -> None:
    """The thinking budget's generation prompt holds the budget's number: any number reads
    back as no message (the kit's options try one)."""
    messages = [Message("user", "Hello!")]
    for budget in (1, 5000, 123456):
        text = tooletta.render_conversation(
            messages,
            model=CHAT,
            add_generation_prompt=True,
            enable_thinking=True,
            thinking_budget=budget,
        )
        assert f"thinking_budget: < {max(budget, 1024)}." in text
        assert tooletta.parse_conversation(text, model=CHAT) == messages


def test_user_rounds_counts_the_users_before_each_message() -> None:
    """The round numbers of ``[Round N] USER:``, found in one pass (the header once counted
    the user turns before it for every user turn: quadratic in the turns)."""
    from hypothesis import given
    from hypothesis import strategies as st
    from tooletta_dialect_longcat.chat import user_rounds

    @given(st.lists(st.sampled_from(["user", "assistant", "tool", "system"]), max_size=30))
    def check(roles: list[str]) -> None:
        messages = [Message(role, "x") for role in roles]
        assert user_rounds(messages) == [
            sum(1 for m in messages[:i] if m.role == "user") for i in range(len(messages))
        ]

    check()
    messages = [Message("user", "a"), Message("assistant", "b"), Message("user", "c")]
    text = tooletta.render_conversation(messages, dialect="longcat_flash_chat")
    assert "[Round 0] USER:a" in text and " [Round 1] USER:c" in text


def test_result_without_content_reads_back_as_empty() -> None:
    """A tool result with no content (``None``) is written as the template writes it,
    ``{"content": null}``, and reads back as an empty result (it raised ParseError); an
    object with no ``content`` at all is still refused."""
    from tooletta.testing.conversation_law import check_conversation_law

    messages = [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"type": "function", "function": {"name": "get_weather", "arguments": {}}}
            ],
        },
        {"role": "tool", "content": None},
        {"role": "assistant", "content": "ok"},
    ]
    check_matches_template(_template(), messages, model=CHAT)
    text = tooletta.render_conversation(messages, model=CHAT)
    assert ' TOOL:{"content": null} ' in text
    assert tooletta.parse_conversation(text, model=CHAT)[2].content == ""
    for prompt in (False, True):
        check_conversation_law(messages, model=CHAT, add_generation_prompt=prompt)
        check_conversation_law(messages, model=CHAT, tools=SAMPLE_TOOLS)
    with pytest.raises(ParseError, match="no content"):
        tooletta.parse_conversation(text.replace('{"content": null}', '{"c": null}'), model=CHAT)
