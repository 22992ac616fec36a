"""llama.cpp's interleaved Gemma 4 template, fed as llama.cpp feeds it (results folded into
the assistant message, ``tool_responses``): the ``gemma4-interleaved`` format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat import identify
from tooletta.chat.jinja import render_jinja
from tooletta.chat.messages import read_tool_definitions
from tooletta.chat.samples import SAMPLE_TOOLS, sample_conversations
from tooletta.chat.toolresponses import fold_tool_responses
from tooletta.testing.conversations import ConversationTests, check_conversation_round_trip
from tooletta.testing.samples import chained_call_conversations

TEMPLATES = Path(__file__).parent / "templates"
INTERLEAVED = TEMPLATES / "google-gemma-4-31B-it-interleaved.jinja"
OFFICIAL = TEMPLATES / "google-gemma-4-31B-it.jinja"
NAME = "gemma4-interleaved"
TOKENS = {"bos_token": "<bos>"}


PROMPT_AFTER_ANSWER = (
    "after an answer that follows results (folded into the calls turn and closed with "
    "<turn|>), the template's generation prompt has no <|turn>model\\n header (it still "
    "thinks the model's turn is open); we write the header "
    "(test_the_prompt_after_a_closed_answer_has_its_header)"
)


def _ends_with_answer_after_results(messages: list[Message]) -> bool:
    last = messages[-1]
    return last.role == "assistant" and not last.tool_calls and messages[-2].role == "tool"


def _ask() -> Message:
    return Message("user", "What's the weather in Paris?")


def extra_cases() -> dict[str, tuple[list[Message], bool]]:
    """Reasoning kept in calls turns, chained calls, results before a user turn, a
    conversation ending with results, a thought left in the content."""
    return {
        **chained_call_conversations(),
        "thinking_in_content": (
            [_ask(), Message("assistant", "<|channel>thought\nhidden<channel|>  Shown.  ")],
            False,
        ),
    }


def json_results() -> dict[str, tuple[list[Message], bool]]:
    """Results holding JSON text (decoded by llama.cpp), content beside calls, a call left
    without results, an empty answer after results."""
    weather = ToolCall("get_weather", {"city": "Paris"}, "c1")
    time = ToolCall("get_time", {"tz": "UTC"}, "c2")
    return {
        "json_results": (
            [
                _ask(),
                Message("assistant", "", tool_calls=[weather, time]),
                Message(
                    "tool", '{"temp": 18, "Sky": "clear", "a": [1, 2.5, null]}', tool_call_id="c1"
                ),
                Message("tool", "12", tool_call_id="c2"),
                Message("assistant", "Fine."),
            ],
            True,
        ),
        "content_beside_calls": (
            [
                _ask(),
                Message("assistant", "Let me look.", tool_calls=[weather]),
                Message("tool", '"sunny"', tool_call_id="c1"),
                Message("assistant", "Sunny."),
            ],
            True,
        ),
        "pending_call": ([_ask(), Message("assistant", "", tool_calls=[weather])], True),
        "empty_answer": (
            [
                _ask(),
                Message("assistant", "", tool_calls=[weather]),
                Message("tool", "rain", tool_call_id="c1"),
                Message("assistant", ""),
                Message("user", "and?"),
            ],
            True,
        ),
    }


class TestGemma4InterleavedChat(ConversationTests):
    dialect = NAME
    template = INTERLEAVED
    tokens = TOKENS
    options = ({}, {"enable_thinking": True})
    allow_markup = True  # thinking_in_content: the template cuts a thought left in the content
    ids = True
    tool_results = "tool_responses"
    extra_conversations = {**extra_cases(), **json_results()}  # noqa: RUF012


def _all_cases() -> dict[str, tuple[list[Message], bool]]:
    return {**sample_conversations(ids=True), **extra_cases(), **json_results()}


TestGemma4InterleavedChat.differences = {
    name: PROMPT_AFTER_ANSWER
    for name, (messages, _) in _all_cases().items()
    if _ends_with_answer_after_results(messages)
}


def test_identify_names_it_in_the_tool_responses_form() -> None:
    found = identify(INTERLEAVED.read_text(encoding="utf-8"), bos_token="<bos>")
    assert found.format == NAME
    assert found.form.tool_results == "tool_responses"
    assert "one_call" in found.matched and "grouped_results_prompt" in found.matched


def test_the_official_template_stays_gemma4_with_tool_messages() -> None:
    found = identify(OFFICIAL.read_text(encoding="utf-8"), bos_token="<bos>")
    assert found.format == "gemma4"
    assert found.form.tool_results == "messages"


def test_render_with_the_template_uses_the_native_format() -> None:
    messages, _ = json_results()["json_results"]
    text = tooletta.render_conversation(
        messages, chat_template=str(INTERLEAVED), bos_token="<bos>", tools=SAMPLE_TOOLS
    )
    assert 'response:get_weather{a:[1,2.5,None],Sky:<|"|>clear<|"|>,temp:18}' in text
    assert "<|tool_response>response:get_time{value:12}<tool_response|>Fine.<turn|>\n" in text
    back = tooletta.parse_conversation(text, dialect=NAME)
    assert back[2].content == '{"a": [1, 2.5, null], "Sky": "clear", "temp": 18}'


def test_fold_is_llama_cpp_s() -> None:
    folded = fold_tool_responses(
        [
            {"role": "user", "content": "q"},
            {
                "role": "assistant",
                "content": "dropped",
                "reasoning_content": "r",
                "tool_calls": [{"function": {"name": "f", "arguments": {}}, "id": "x"}],
            },
            {"role": "tool", "content": '{"k": 1}', "tool_call_id": "x"},
            {"role": "tool", "content": "NaN", "tool_call_id": "y"},
            {"role": "assistant", "content": "answer"},
            {"role": "assistant", "content": "another turn"},
        ]
    )
    assert folded[1] == {
        "role": "assistant",
        "tool_calls": [{"function": {"name": "f", "arguments": {}}, "id": "x"}],
        "tool_responses": [{"name": "f", "response": {"k": 1}}, {"name": "y", "response": "NaN"}],
        "content": "answer",
        "reasoning_content": "r",
    }
    assert folded[2] == {"role": "assistant", "content": "another turn"}
    assert len(folded) == 3


def test_a_result_that_would_not_read_back_is_refused() -> None:
    call = ToolCall("get_weather", {"city": "Paris"}, "c1")
    for content in ('{"value": 3}', 'text with <|"|> in it', '{"a:b": 1}'):
        messages = [_ask(), Message("assistant", "", tool_calls=[call])]
        messages.append(Message("tool", content, tool_call_id="c1"))
        with pytest.raises(RenderError):
            tooletta.render_conversation(messages, dialect=NAME, tools=SAMPLE_TOOLS)


def test_a_result_without_its_calls_is_refused() -> None:
    messages = [_ask(), Message("tool", "x", tool_call_id="c1")]
    with pytest.raises(RenderError):
        tooletta.render_conversation(messages, dialect=NAME)


def test_declarations_follow_the_interleaved_macro() -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "f",
                "description": "d",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "e": {"type": "string", "enum": ["x"], "nullable": True},
                        "o": {"type": "object", "properties": {"k": {"type": "integer"}}},
                        "l": {"type": "array", "items": {"type": "string"}},
                    },
                },
            },
        }
    ]
    messages = [Message("user", "hi")]
    native = tooletta.render_conversation(messages, dialect=NAME, tools=tools)
    jinja = render_jinja(
        INTERLEAVED.read_text(encoding="utf-8"),
        messages,
        tools=read_tool_definitions(tools),
        tokens=TOKENS,
    )
    assert native == jinja
    assert native != tooletta.render_conversation(messages, dialect="gemma4", tools=tools)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text("abc xyz", max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.text("abcXY", min_size=1, max_size=3), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(_JSON)
def test_json_results_render_as_the_template_and_read_back(value: object) -> None:
    call = ToolCall("get_weather", {"city": "Paris"}, "c1")
    content = json.dumps(value)
    messages = [
        _ask(),
        Message("assistant", "", tool_calls=[call]),
        Message("tool", content, tool_call_id="c1"),
        Message("assistant", "ok"),
    ]
    try:
        native = tooletta.render_conversation(messages, dialect=NAME, tools=SAMPLE_TOOLS)
    except RenderError:
        return  # refused: it would not read back ({"value": ...} alone)
    jinja = render_jinja(
        INTERLEAVED.read_text(encoding="utf-8"),
        messages,
        tools=read_tool_definitions(SAMPLE_TOOLS),
        tokens=TOKENS,
        tool_results="tool_responses",
    )
    assert native == jinja
    check_conversation_round_trip(messages, dialect=NAME, tools=SAMPLE_TOOLS)


def test_the_prompt_after_a_closed_answer_has_its_header() -> None:
    template = INTERLEAVED.read_text(encoding="utf-8")
    differs = TestGemma4InterleavedChat.differences
    assert len(differs) >= 4
    for name, (messages, uses_tools) in _all_cases().items():
        tools = SAMPLE_TOOLS if uses_tools else None
        for prompt in (False, True):
            ours = tooletta.render_conversation(
                messages,
                dialect=NAME,
                tools=tools,
                add_generation_prompt=prompt,
                allow_markup=True,  # thinking_in_content
            )
            theirs = render_jinja(
                template,
                messages,
                tools=read_tool_definitions(tools),
                tokens=TOKENS,
                add_generation_prompt=prompt,
                tool_results="tool_responses",
            )
            if prompt and name in differs:
                assert ours.endswith("<turn|>\n<|turn>model\n<|channel>thought\n<channel|>")
                ours = ours[: -len("<|turn>model\n<|channel>thought\n<channel|>")]
                ours += "<|channel>thought\n<channel|>"
            assert ours == theirs, (name, prompt)


@pytest.mark.parametrize("role", ["system", "developer"])
@pytest.mark.parametrize("declared", [False, True])
def test_an_empty_system_message_reads_back_as_none_with_or_without_tools(
    role: str, declared: bool
) -> None:
    """The interleaved template writes an empty system message as ``gemma4``'s does (an empty
    system turn, or the declarations alone), and it reads back as ``gemma4``'s does: as none,
    with tools declared or not (it read back as an empty system message without tools, as
    none with them, which the fuzz target found)."""
    from tooletta.testing import conversation_law
    from tooletta.testing.conversations import PROBE_TOOLS

    tools = PROBE_TOOLS if declared else None
    messages = [Message(role, "")]
    for dialect in ("gemma4", "gemma4-interleaved"):
        text = tooletta.render_conversation(messages, dialect=dialect, tools=tools)
        assert tooletta.parse_conversation(text, dialect=dialect, tools=tools) == []
        conversation_law.check_conversation_law(messages, dialect=dialect, tools=tools)
