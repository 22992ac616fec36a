"""Gemma 4 conversations in the earlier revision of the model's template (format ``gemma4``):
native rendering against that template (vendored), tool results inside the model's turn, and
the documented differences. The Gemma 4 ids now get the canonical template's format
(``test_canonical.py``; the spring revision's is ``test_revised.py``); this one is reached by
``dialect="gemma4"`` and by :data:`MODEL`, the model id pinned at the llama.cpp commit that
vendors this revision."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from tooletta_dialect_gemma.chat import declaration

import tooletta
from tooletta import Message, ParseError, RenderError, ToolCall, ToolettaError
from tooletta.chat import render_spans, resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.chat.messages import read_conversation, read_tool_definitions
from tooletta.testing.conversation_properties import round_trip_property
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
TEMPLATE = TEMPLATES / "google-gemma-4-31B-it.jinja"
MODEL = "google/gemma-4-31b-it@llama.cpp-3fc65063d"
"""The earlier revision's row (``models.py``): the model id at the revision vendored here."""
CURRENT = "google/gemma-4-31B-it"
"""The Gemma 4 id, which renders the canonical template (``gemma4-2607``)."""
TOKENS = {"bos_token": "<bos>"}

CONTENT_AFTER_RESULTS = (
    "the template writes a calls turn's content after the tool results and closes the turn "
    "there, so the answer that follows has no turn header; we write the content with its "
    "calls, before the results (as the template does when no result follows) "
    "(test_content_beside_calls_is_written_before_the_results)"
)


def _ask() -> Message:
    return Message("user", "What's the weather in Paris?")


def extra_cases() -> dict[str, tuple[list[Message], bool]]:
    """Reasoning kept in a calls turn, chained calls, results before a user turn, a
    conversation ending with a result."""
    weather = ToolCall("get_weather", {"city": "Paris"}, "c1")
    time = ToolCall("get_time", {"tz": "UTC"}, "c2")
    r1 = Message("tool", "sunny", tool_call_id="c1")
    r2 = Message("tool", "12:00", tool_call_id="c2")
    return {
        "reasoning_on_calls": (
            [
                _ask(),
                Message("assistant", "", tool_calls=[weather], reasoning="Need the weather."),
                r1,
                Message("assistant", "Sunny.", reasoning="dropped: an answer keeps none"),
            ],
            True,
        ),
        "chained_calls": (
            [
                Message("system", "  Be brief.  "),
                _ask(),
                Message("assistant", "", tool_calls=[weather], reasoning="first"),
                r1,
                Message("assistant", "", tool_calls=[time], reasoning="second"),
                r2,
                Message("assistant", "Sunny, noon."),
            ],
            True,
        ),
        "results_then_user": (
            [_ask(), Message("assistant", "", tool_calls=[weather]), r1, Message("user", "ok?")],
            True,
        ),
        "ends_with_result": (
            [_ask(), Message("assistant", "", tool_calls=[weather, time]), r1, r2],
            True,
        ),
        "thinking_in_content": (
            [_ask(), Message("assistant", "<|channel>thought\nhidden<channel|>  Shown.  ")],
            False,
        ),
    }


class TestGemma4Chat(ConversationTests):
    model = MODEL
    template = TEMPLATE
    list_content = ("user", "assistant")
    tokens = TOKENS
    options = ({}, {"enable_thinking": True})
    allow_markup = True  # thinking_in_content: the template cuts a thought left in the content
    ids = True  # the template names a result after the call whose id it answers
    differences = {  # noqa: RUF012 - the kit's declared class attribute
        "tools_two_calls": CONTENT_AFTER_RESULTS,
        "tools_no_system": CONTENT_AFTER_RESULTS,
    }
    extra_conversations = extra_cases()


def _template(messages: list[Message], tools: Any = None, **options: Any) -> str:
    return render_jinja(
        TEMPLATE.read_text(encoding="utf-8"),
        read_conversation(messages),
        tools=read_tool_definitions(tools),
        tokens=TOKENS,
        **options,
    )


def test_model_ids_route_to_the_current_31b_template() -> None:
    # the ids once got this (earlier) revision, then the spring one: each was a drift; they
    # get the current one, the canonical template of July 2026
    fmt, _ = resolve_format(CURRENT, None)
    assert fmt.name == "gemma4-2607"
    fmt, _ = resolve_format("google/gemma-4-31B", None)
    assert fmt.name == "gemma4-2607"
    # the earlier revision stays reachable: its pinned id and the dialect's name
    fmt, _ = resolve_format(MODEL, None)
    assert fmt.name == "gemma4"
    fmt, _ = resolve_format(None, "gemma4")
    assert fmt.name == "gemma4"


def test_gemma4_models_without_a_pinned_template_are_refused() -> None:
    # an id whose template was not read: no guess (E2B/E4B's own text and the 26B-A4B's and
    # 12B's, the 31B's, are pinned now: test_canonical.py; there, more such ids)
    for model in ("google/gemma-4-E4B", "google/gemma-4-E4B-it-qat-q8_0"):
        with pytest.raises(ToolettaError, match="chat_template"):
            tooletta.render_conversation([Message("user", "hi")], model=model)


def test_content_beside_calls_is_written_before_the_results() -> None:
    messages, _ = sample_conversations(ids=True)["tools_no_system"]
    ours = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    turn = ours[ours.index("<|turn>model\n") :]
    assert turn == (
        "<|turn>model\n"
        '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:2}<tool_call|>'
        '<|tool_call>call:get_time{tz:<|"|>Europe/Paris<|"|>}<tool_call|>'
        "Let me check both.<|tool_response>"
        'response:get_weather{value:<|"|>{"temp": 18, "sky": "clear"}<|"|>}<tool_response|>'
        '<|tool_response>response:get_time{value:<|"|>14:05<|"|>}<tool_response|>'
        "It is 18 °C and clear in Paris; the time is 14:05.<turn|>\n"
    )
    theirs = _template(messages, SAMPLE_TOOLS)
    assert "<tool_response|>Let me check both.<turn|>\nIt is 18" in theirs  # the template's
    # everything else agrees
    moved = theirs.replace("Let me check both.<turn|>\n", "")
    assert ours.replace("Let me check both.", "") == moved


def test_results_of_calls_without_ids_are_named_after_the_call_they_answer() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris"}), ToolCall("get_time", {"tz": "UTC"})]
    messages = [_ask(), Message("assistant", "", tool_calls=calls)]
    messages += [Message("tool", "sunny"), Message("tool", "12:00"), Message("assistant", "ok")]
    ours = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    assert 'response:get_weather{value:<|"|>sunny<|"|>}' in ours
    assert 'response:get_time{value:<|"|>12:00<|"|>}' in ours
    theirs = _template(messages, SAMPLE_TOOLS)  # no ids: every result takes the last name
    assert 'response:get_time{value:<|"|>sunny<|"|>}' in theirs
    assert ours.replace("get_weather{value", "get_time{value") == theirs


def test_results_are_not_generated_text_of_the_turn_they_sit_in() -> None:
    messages, _ = sample_conversations(ids=True)["reasoning_multi_turn"]
    rendered = render_spans(messages, model=MODEL, tools=SAMPLE_TOOLS)
    text = rendered.text
    generated = {i: text[s:e] for i, (s, e) in rendered.generated_spans()}
    assert generated[2] == (
        '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:2}<tool_call|>'
        '<|tool_call>call:get_time{tz:<|"|>Europe/Paris<|"|>}<tool_call|><|tool_response>'
    )
    assert generated[5] == "It is 18 °C and clear in Paris; the time is 14:05.<turn|>"
    for index in (3, 4, 8):  # the results: their own segments, none generated
        segments = [s for s in rendered.segments if s.message == index]
        assert segments and not any(s.generated for s in segments)
    first = "".join(text[s.start : s.end] for s in rendered.segments if s.message == 3)
    second = "".join(text[s.start : s.end] for s in rendered.segments if s.message == 4)
    # the first result's opening token is the calls turn's end token (generated, above)
    assert first == (
        'response:get_weather{value:<|"|>{"temp": 18, "sky": "clear"}<|"|>}<tool_response|>'
    )
    assert second == '<|tool_response>response:get_time{value:<|"|>14:05<|"|>}<tool_response|>'


def test_render_with_model_is_the_generated_turn() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 2})]
    got = tooletta.render(calls, model=MODEL, content="Checking.", reasoning="why")
    assert got == (
        "<|channel>thought\nwhy\n<channel|>"
        '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:2}<tool_call|>Checking.'
    )
    assert tooletta.render([], model=MODEL, content="  Hi.  ") == "Hi."


def test_reasoning_is_kept_only_in_calls_turns_after_the_last_user() -> None:
    messages, _ = extra_cases()["chained_calls"]
    text = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    assert "<|channel>thought\nfirst\n<channel|><|tool_call>" in text
    assert "<|channel>thought\nsecond\n<channel|><|tool_call>" in text
    back = tooletta.parse_conversation(text, model=MODEL, tools=SAMPLE_TOOLS)
    assert [m.reasoning for m in back if m.role == "assistant"] == ["first", "second", ""]


RICH_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "search",
            "description": "Find things.",
            "parameters": {
                "type": "object",
                "properties": {
                    "Query": {"type": "string", "description": "What"},
                    "mode": {"type": "string", "enum": ["fast", "deep"]},
                    "tags": {
                        "type": "array",
                        "description": "Labels",
                        "items": {"type": "string", "maxLength": 5},
                    },
                    "rows": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"id": {"type": "integer"}, "ok": {"type": "boolean"}},
                            "required": ["id"],
                        },
                    },
                    "filter": {
                        "type": "object",
                        "description": "Narrowing",
                        "nullable": True,
                        "properties": {
                            "since": {"type": "string", "nullable": True},
                            "deep": {"type": "object", "properties": {"x": {"type": "number"}}},
                        },
                        "required": ["since"],
                    },
                    "anything": {"type": "object"},
                    "limit": {"type": "integer", "nullable": True},
                },
                "required": ["Query"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "ping",
            "description": "No arguments.",
            "parameters": {"type": "object", "properties": {}},
        },
    },
    {"type": "function", "function": {"name": "bare", "description": "No parameters."}},
    {
        "type": "function",
        "function": {
            "name": "with_response",
            "description": "Answers an object.",
            "parameters": {"type": "object", "properties": {"a": {"type": "string"}}},
            "response": {"type": "object", "description": "The answer"},
        },
    },
]


def test_tool_declarations_follow_the_template_macro() -> None:
    messages = [Message("system", "sys"), Message("user", "hi")]
    check_matches_template(
        TEMPLATE.read_text(encoding="utf-8"),
        messages,
        model=MODEL,
        tools=RICH_TOOLS,
        tokens=TOKENS,
        add_generation_prompt=True,
    )
    assert declaration(RICH_TOOLS[2]) == 'declaration:bare{description:<|"|>No parameters.<|"|>}'


def test_a_result_holding_its_closing_token_is_refused() -> None:
    calls = [ToolCall("get_time", {"tz": "UTC"})]
    messages = [_ask(), Message("assistant", "", tool_calls=calls)]
    messages.append(Message("tool", "x<tool_response|>y"))
    with pytest.raises(RenderError, match="tool_response"):
        tooletta.render_conversation(messages, model=MODEL)


def test_a_malformed_result_is_a_parse_error() -> None:
    text = (
        "<bos><|turn>user\nq<turn|>\n<|turn>model\n"
        "<|tool_call>call:f{}<tool_call|><|tool_response>oops<tool_response|>"
    )
    with pytest.raises(ParseError):
        tooletta.parse_conversation(text, model=MODEL)


def test_parse_reads_the_templates_own_text() -> None:
    messages, uses_tools = sample_conversations(ids=True)["reasoning_multi_turn"]
    text = _template(messages, SAMPLE_TOOLS if uses_tools else None)
    back = tooletta.parse_conversation(text, model=MODEL, tools=SAMPLE_TOOLS)
    assert [m.role for m in back] == [m.role for m in messages]
    assert [m.name for m in back if m.role == "tool"] == ["get_weather", "get_time", "get_weather"]


test_random_conversations_round_trip = round_trip_property(MODEL, max_examples=60)


_TEMPLATE_KEY = re.compile(r"[^:,{}\[\]<\s](?:[^:,{}\[\]<]*[^:,{}\[\]<\s])?\Z")
"""A key the dialect writes bare, as the template does (README: Render)."""


def _nested_keys(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [str(k) for k in value] + [k for v in value.values() for k in _nested_keys(v)]
    if isinstance(value, list):
        return [k for v in value for k in _nested_keys(v)]
    return []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_conversations())
def test_random_conversations_without_content_beside_calls_match_the_template(
    messages: list[Message],
) -> None:
    # the template's one misplacement (content beside calls) aside, and ids given so that
    # the template names each result after its call
    keys = [k for m in messages for c in m.tool_calls for k in _nested_keys(c.arguments)]
    assume(all(_TEMPLATE_KEY.match(k) for k in keys))  # the dialect delimits other keys
    fixed: list[Message] = []
    counter = 0
    pending: list[str] = []
    for m in messages:
        if m.role == "assistant" and m.tool_calls:
            calls = []
            for call in m.tool_calls:
                counter += 1
                calls.append(ToolCall(call.name, call.arguments, f"c{counter}"))
            pending = [c.id or "" for c in calls]
            m = Message("assistant", "", tool_calls=calls, reasoning=m.reasoning)
        elif m.role == "tool":
            m = Message("tool", m.content, tool_call_id=pending.pop(0) if pending else None)
        fixed.append(m)
    check_matches_template(
        TEMPLATE.read_text(encoding="utf-8"), fixed, model=MODEL, tools=PROBE_TOOLS, tokens=TOKENS
    )


# -- llama.cpp's "interleaved" template: not a model's (its format: test_interleaved.py) -------

INTERLEAVED = TEMPLATES / "google-gemma-4-31B-it-interleaved.jinja"


def _interleaved(messages: list[Message], tools: Any = None, **options: Any) -> str:
    return render_jinja(
        INTERLEAVED.read_text(encoding="utf-8"),
        messages,
        tools=read_tool_definitions(tools),
        tokens=TOKENS,
        **options,
    )


def test_interleaved_template_agrees_on_conversations_without_calls() -> None:
    for name in ("plain", "system_plain"):
        messages, _ = sample_conversations()[name]
        for prompt in (False, True):
            ours = tooletta.render_conversation(messages, model=MODEL, add_generation_prompt=prompt)
            assert _interleaved(messages, add_generation_prompt=prompt) == ours, name


def test_interleaved_template_reads_no_tool_messages() -> None:
    # it writes a role:tool message as a turn of its own; llama.cpp first folds the results
    # into the assistant message (tool_responses), so this is not the text Gemma 4 reads
    messages, _ = sample_conversations(ids=True)["reasoning_multi_turn"]
    assert "<|turn>tool\n" in _interleaved(messages, SAMPLE_TOOLS)


def test_interleaved_template_writes_the_same_turn_from_native_messages() -> None:
    # Google's native shape (results on the assistant message, its content the answer): the
    # same layout as this format, but for the newline before <channel|>
    call = ToolCall("get_weather", {"city": "Paris"}, "c1")
    ask = _ask()
    native = [
        ask,
        Message(
            "assistant",
            "Sunny.",
            tool_calls=[call],
            reasoning="Need it.",
            extra={"tool_responses": [{"name": "get_weather", "response": "sunny"}]},
        ),
    ]
    openai = [
        ask,
        Message("assistant", "", tool_calls=[call], reasoning="Need it."),
        Message("tool", "sunny", tool_call_id="c1"),
        Message("assistant", "Sunny."),
    ]
    ours = tooletta.render_conversation(openai, model=MODEL, tools=SAMPLE_TOOLS)
    theirs = _interleaved(native, SAMPLE_TOOLS)
    assert "<|channel>thought\nNeed it.\n<channel|>" in ours
    assert ours.replace("Need it.\n<channel|>", "Need it.<channel|>") == theirs


def test_an_empty_system_message_round_trips_as_none() -> None:
    messages = [Message("system", "  "), Message("user", "hi"), Message("assistant", "yo")]
    check_conversation_round_trip(messages, model=MODEL)
    check_matches_template(
        TEMPLATE.read_text(encoding="utf-8"), messages, model=MODEL, tokens=TOKENS
    )


def test_an_opening_developer_message_is_the_system_turn() -> None:
    messages = [
        Message("developer", "Be brief."),
        Message("user", "hi"),
        Message("assistant", "yo"),
    ]
    check_conversation_round_trip(messages, model=MODEL)
    check_matches_template(
        TEMPLATE.read_text(encoding="utf-8"), messages, model=MODEL, tokens=TOKENS
    )
