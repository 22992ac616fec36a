"""Every interop writer against the installed SDKs' own models (openai, anthropic: the dev
group), and SDK objects (and their ``model_dump()``) read back losslessly."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, ToolCall
from tooletta.interop import (
    ChunkWriter,
    assemble_anthropic_events,
    assemble_chunks,
    assemble_responses_events,
    messages_to_anthropic,
    messages_to_openai,
    messages_to_responses,
    read_messages,
    updates_to_anthropic_events,
    updates_to_chunks,
    updates_to_responses_events,
)
from tooletta.testing import calls_strategy, content_strategy

openai = pytest.importorskip("openai")
anthropic = pytest.importorskip("anthropic")

import anthropic.types as at  # noqa: E402
from anthropic.lib.streaming._messages import accumulate_event  # noqa: E402
from openai.lib.streaming.chat import ChatCompletionStreamState  # noqa: E402
from openai.lib.streaming.responses import ResponseStreamState  # noqa: E402
from openai.types.chat import (  # noqa: E402
    ChatCompletion,
    ChatCompletionChunk,
    ChatCompletionMessage,
    ChatCompletionMessageFunctionToolCall,
    ChatCompletionMessageParam,
)
from openai.types.responses import (  # noqa: E402
    Response,
    ResponseFunctionToolCall,
    ResponseInputItemParam,
    ResponseOutputMessage,
    ResponseReasoningItem,
    ResponseStreamEvent,
)
from openai.types.responses.response_input_item import ResponseInputItem  # noqa: E402
from pydantic import TypeAdapter  # noqa: E402

CHAT_PARAM: Any = TypeAdapter(ChatCompletionMessageParam)
RESPONSES_PARAM: Any = TypeAdapter(ResponseInputItemParam)
RESPONSES_ITEM: Any = TypeAdapter(ResponseInputItem)
RESPONSES_EVENT: Any = TypeAdapter(ResponseStreamEvent)
ANTHROPIC_PARAM: Any = TypeAdapter(at.MessageParam)
ANTHROPIC_SYSTEM: Any = TypeAdapter(str | list[at.TextBlockParam])
ANTHROPIC_EVENT: Any = TypeAdapter(at.RawMessageStreamEvent)

GET_WEATHER = ToolCall("get_weather", {"city": "Paris"})


# -- validators: what each SDK accepts -----------------------------------------------------


def valid_openai(messages: list[dict[str, Any]]) -> None:
    """Request messages validate as ``ChatCompletionMessageParam``; assistant messages also
    as the response's ``ChatCompletionMessage`` (ids required there)."""
    for m in messages:
        CHAT_PARAM.validate_python(m)
        if m["role"] == "assistant":
            ChatCompletionMessage.model_validate(m)


def valid_responses(items: list[dict[str, Any]]) -> None:
    for item in items:
        RESPONSES_PARAM.validate_python(item)
        RESPONSES_ITEM.validate_python(item)


def valid_anthropic(payload: dict[str, Any]) -> None:
    if "system" in payload:
        ANTHROPIC_SYSTEM.validate_python(payload["system"])
    for m in payload["messages"]:
        ANTHROPIC_PARAM.validate_python(m)


def _essence(msgs: list[Message]) -> list[tuple[Any, ...]]:
    return [
        (m.role, m.content or None, [(c.name, c.arguments) for c in m.tool_calls], m.reasoning)
        for m in msgs
    ]


# -- ids: OpenAI shapes are always valid ---------------------------------------------------


def test_to_openai_always_writes_a_stable_id() -> None:
    item = GET_WEATHER.to_openai()
    ChatCompletionMessageFunctionToolCall.model_validate(item)
    assert re.fullmatch(r"call_[A-Za-z0-9]{24}", item["id"])
    assert GET_WEATHER.to_openai() == item
    assert ToolCall.from_openai(item) == ToolCall("get_weather", {"city": "Paris"}, item["id"])
    assert ToolCall("f", {}, "mine").to_openai()["id"] == "mine"


@pytest.mark.parametrize("dialect", ["hermes", "glm45", "llama3_json", "pythonic"])
def test_parse_format_openai_is_a_valid_message_for_id_less_formats(dialect: str) -> None:
    from tooletta.cli.rows import result_record

    text = tooletta.render([GET_WEATHER, GET_WEATHER], dialect, content="")
    message = result_record(tooletta.parse(text, dialect), "openai")
    ChatCompletionMessage.model_validate(message)
    ids = [c["id"] for c in message["tool_calls"]]
    assert len(set(ids)) == 2  # two equal calls, two ids


def test_openai_writer_derives_ids_under_keep_and_pairs_results() -> None:
    chat = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "tool_calls": [to_hf(GET_WEATHER), to_hf(GET_WEATHER)]},
        {"role": "tool", "name": "get_weather", "content": "18C"},
        {"role": "tool", "name": "get_weather", "content": "19C"},
    ]
    out = messages_to_openai(chat, ids="keep")
    valid_openai(out)
    ids = [c["id"] for c in out[1]["tool_calls"]]
    assert len(set(ids)) == 2 and [out[2]["tool_call_id"], out[3]["tool_call_id"]] == ids


def to_hf(call: ToolCall) -> dict[str, Any]:
    return {"type": "function", "function": {"name": call.name, "arguments": call.arguments}}


# -- SDK objects read back losslessly ------------------------------------------------------

CHAT_MESSAGE = {
    "role": "assistant",
    "content": "Checking.",
    "reasoning_content": "The user wants the weather.",
    "tool_calls": [
        {
            "id": "call_1EYWDzueHEp8OsB8jJSEp7WB",
            "type": "function",
            "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
        }
    ],
}

ANTHROPIC_MESSAGE = {
    "id": "msg_01Aq9w938a90dw8q",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [
        {"type": "thinking", "thinking": "Weather first.", "signature": "EqQBCgIYAhIM1gbcDa9GJwZA"},
        {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIw"},
        {"type": "text", "text": "Let me check."},
        {
            "type": "tool_use",
            "id": "toolu_01A09q90qw90lq917835lq9",
            "name": "get_weather",
            "input": {"city": "Paris"},
        },
        {"type": "thinking", "thinking": "And the time.", "signature": "EqQBCgIYAhIMxyz"},
        {
            "type": "tool_use",
            "id": "toolu_01B19r91rx91mr928946mr0",
            "name": "get_time",
            "input": {"zone": "CET"},
        },
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 472, "output_tokens": 89},
}

RESPONSES_OUTPUT: list[dict[str, Any]] = [
    {
        "type": "reasoning",
        "id": "rs_68b1f0c4a8dc81a0",
        "summary": [{"type": "summary_text", "text": "**Checking the weather**"}],
        "encrypted_content": "gAAAAABosfDF3WQ0w2",
    },
    {
        "type": "message",
        "id": "msg_68b1f0c5b2f081a0",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "Let me check.", "annotations": []}],
    },
    {
        "type": "function_call",
        "id": "fc_68b1f0c6c21081a0",
        "call_id": "call_sVidsfFJ6zlzRpelrPkTPlpd",
        "name": "get_weather",
        "arguments": '{"city": "Paris"}',
        "status": "completed",
    },
    {
        "type": "reasoning",
        "id": "rs_68b1f0c7d35081a0",
        "summary": [],
        "content": [{"type": "reasoning_text", "text": "Now the time."}],
        "status": "completed",
    },
    {
        "type": "function_call",
        "id": "fc_68b1f0c8e44081a0",
        "call_id": "call_2",
        "name": "get_time",
        "arguments": '{"zone": "CET"}',
        "status": "completed",
    },
]


def _sdk_forms(obj: Any) -> list[Any]:
    """An SDK object, its ``model_dump()`` and its JSON form: all read the same."""
    return [obj, obj.model_dump(), json.loads(obj.model_dump_json())]


def test_openai_message_object_round_trips() -> None:
    sdk = ChatCompletionMessage.model_validate(CHAT_MESSAGE)
    for form in _sdk_forms(sdk):
        (msg,) = read_messages([form])
        assert msg.reasoning == "The user wants the weather."
        assert messages_to_openai([form]) == [sdk.model_dump(exclude_none=True)]


def test_anthropic_message_object_round_trips_in_order() -> None:
    sdk = at.Message.model_validate(ANTHROPIC_MESSAGE)
    want = [b.model_dump(exclude_none=True) for b in sdk.content]
    for form in _sdk_forms(sdk):
        msgs = read_messages([form])
        # interleaved thinking: the second thinking block starts a second message
        assert [m.reasoning for m in msgs] == ["Weather first.", "And the time."]
        assert [[c.id for c in m.tool_calls] for m in msgs] == [
            ["toolu_01A09q90qw90lq917835lq9"],
            ["toolu_01B19r91rx91mr928946mr0"],
        ]
        payload = messages_to_anthropic(msgs)
        valid_anthropic(payload)
        assert payload["messages"] == [{"role": "assistant", "content": want}]


def test_responses_items_round_trip_with_their_ids() -> None:
    sdk = [RESPONSES_ITEM.validate_python(i) for i in RESPONSES_OUTPUT]
    want = [i.model_dump(exclude_none=True) for i in sdk]
    assert isinstance(sdk[0], ResponseReasoningItem) and isinstance(sdk[1], ResponseOutputMessage)
    assert isinstance(sdk[2], ResponseFunctionToolCall)
    for forms in zip(*(_sdk_forms(i) for i in sdk)):
        msgs = read_messages(list(forms))
        assert [m.reasoning for m in msgs] == ["**Checking the weather**", "Now the time."]
        assert msgs[0].content == "Let me check."
        items = messages_to_responses(msgs)
        valid_responses(items)
        assert items == want


def test_assemblers_read_sdk_objects_and_dumps_alike() -> None:
    text = (
        "<think>\nWeather.\n</think>\n\nSure.\n<tool_call>\n"
        '{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
    )
    updates = _updates("hermes", text, [7])
    chunks = updates_to_chunks(updates, completion_id="chatcmpl-1", created=0)
    events = updates_to_anthropic_events(updates, message_id="msg_1", model="claude")
    r_events = updates_to_responses_events(updates, response_id="resp_1", created_at=0)
    cases: list[tuple[list[Any], Any, Any]] = [
        (chunks, ChatCompletionChunk.model_validate, _chat_messages),
        (events, ANTHROPIC_EVENT.validate_python, _anthropic_messages),
        (r_events, RESPONSES_EVENT.validate_python, _responses_messages),
    ]
    for wire, validate, read in cases:
        objects = [validate(w) for w in wire]
        dumps = [o.model_dump() for o in objects]
        assert _essence(read(wire)) == _essence(read(objects)) == _essence(read(dumps))
        assert _essence(read(wire)) == [
            ("assistant", "Sure.", [("get_weather", {"city": "Paris"})], "Weather.")
        ]


def _chat_messages(chunks: list[Any]) -> list[Message]:
    completion = assemble_chunks(chunks)
    ChatCompletion.model_validate(completion)
    return read_messages([completion["choices"][0]["message"]])


def _anthropic_messages(events: list[Any]) -> list[Message]:
    message = assemble_anthropic_events(events)
    at.Message.model_validate(message)
    return read_messages([message])


def _responses_messages(events: list[Any]) -> list[Message]:
    response = assemble_responses_events(events)
    Response.model_validate(response)
    return read_messages(response["output"])


# -- stream writers, checked by the SDKs' own accumulators ----------------------------------


def _updates(dialect: str, text: str, cuts: list[int]) -> list[Any]:
    points = sorted({c % (len(text) + 1) for c in cuts} | {0, len(text)})
    parser = tooletta.stream(dialect)
    out = [parser.feed(text[a:b]) for a, b in itertools.pairwise(points) if b > a]
    return [*out, parser.finish()]


STREAM_DIALECTS = ["hermes", "harmony", "glm45", "kimi_k2", "mistral"]


@st.composite
def model_texts(draw: Any) -> tuple[str, str]:
    """A dialect and a text of it with content, calls and (where the format has a place)
    reasoning."""
    dialect = draw(st.sampled_from(STREAM_DIALECTS))
    calls = draw(calls_strategy(ids="none"))
    content = draw(content_strategy())
    try:
        text = tooletta.render(calls, dialect, content=content)
    except tooletta.RenderError:
        text = content
    thought = draw(st.sampled_from(["", "Let me think: 2 + 2 = 4.", "Weather, then time."]))
    if thought and dialect == "hermes":
        text = f"<think>\n{thought}\n</think>\n\n{text}"
    elif thought and dialect == "harmony":
        text = f"<|channel|>analysis<|message|>{thought}<|end|><|start|>assistant{text}"
    return dialect, text


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(model_texts(), st.lists(st.integers(0, 10_000), max_size=12))
def test_stream_writers_make_what_the_sdks_accumulate(
    case: tuple[str, str], cuts: list[int]
) -> None:
    dialect, text = case
    expected = tooletta.parse(text, dialect)
    want = [
        (
            "assistant",
            expected.content or None,
            [(c.name, c.arguments) for c in expected.calls],
            expected.reasoning,
        )
    ]
    updates = _updates(dialect, text, cuts)

    # OpenAI chat.completion.chunk: the SDK's stream state builds the same message
    chunks = [ChatCompletionChunk.model_validate(c) for c in updates_to_chunks(updates)]
    state = ChatCompletionStreamState()
    for chunk in chunks:
        state.handle_chunk(chunk)
    sdk_message = state.get_final_completion().choices[0].message
    ours = ChatCompletion.model_validate(assemble_chunks(chunks)).choices[0].message
    assert read_messages([ours]) == read_messages([sdk_message])
    assert _essence(read_messages([ours])) == want

    # Anthropic events: the SDK's accumulator builds the same message
    events = [ANTHROPIC_EVENT.validate_python(e) for e in updates_to_anthropic_events(updates)]
    snapshot = None
    buffers: dict[int, bytes] = {}
    for event in events:
        snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=buffers)
    assert snapshot is not None
    message = at.Message.model_validate(assemble_anthropic_events(events))
    assert read_messages([message]) == read_messages([snapshot])
    assert _essence(read_messages([message])) == want

    # Responses events: the SDK's stream state accepts the sequence; same final output
    r_events = [RESPONSES_EVENT.validate_python(e) for e in updates_to_responses_events(updates)]
    r_state = ResponseStreamState(input_tools=openai.omit, text_format=openai.omit)
    final = None
    for event in r_events:
        for out in r_state.handle_event(event):
            if out.type == "response.completed":
                final = out.response
    assert final is not None
    response = Response.model_validate(assemble_responses_events(r_events))
    assert read_messages(response.output) == read_messages(final.output)
    assert _essence(read_messages(response.output)) == want


def test_stream_writers_record_late_ids_and_discarded_calls() -> None:
    from tooletta import CallDelta, StreamUpdate, UnparsedToolCall
    from tooletta.interop import AnthropicEventWriter, ResponsesEventWriter

    first = StreamUpdate(calls=[CallDelta(0, None, "f", '{"a": ')])
    late = StreamUpdate(calls=[CallDelta(0, "call_late", None, "1}")])
    bad = StreamUpdate(unparsed=[UnparsedToolCall("<x>", "broken", 0, index=0)])
    writers: list[tuple[Any, Any]] = [
        (AnthropicEventWriter(message_id="msg_1"), ANTHROPIC_EVENT),
        (ResponsesEventWriter(), RESPONSES_EVENT),
    ]
    for writer, model in writers:
        events = writer.write(first) + writer.write(late) + writer.finish(bad)
        assert writer.late_ids == {0: "call_late"} and writer.discarded == [0]
        for e in events:
            model.validate_python(e)


def test_a_call_cannot_continue_after_another_part() -> None:
    from tooletta import CallDelta, StreamUpdate
    from tooletta.interop import AnthropicEventWriter

    writer = AnthropicEventWriter()
    writer.write(StreamUpdate(calls=[CallDelta(0, None, "f", "{")]))
    writer.write(StreamUpdate(content="text"))
    with pytest.raises(ValueError, match="continues after another part"):
        writer.write(StreamUpdate(calls=[CallDelta(0, None, None, "}")]))


def test_chunk_writer_reasoning_validates_as_chunks() -> None:
    writer = ChunkWriter(completion_id="chatcmpl-r", created=0)
    from tooletta import StreamUpdate

    chunks = writer.write(StreamUpdate(reasoning="hmm")) + writer.finish()
    for c in chunks:
        ChatCompletionChunk.model_validate(c)
    assert assemble_chunks(chunks)["choices"][0]["message"]["reasoning_content"] == "hmm"


def test_single_call_readers_take_sdk_objects() -> None:
    from tooletta.interop import read_tool_call

    want = ToolCall("get_weather", {"city": "Paris"}, "id_1")
    objects = [
        ChatCompletionMessageFunctionToolCall.model_validate(
            {
                "id": "id_1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            }
        ),
        at.ToolUseBlock.model_validate(
            {"type": "tool_use", "id": "id_1", "name": "get_weather", "input": {"city": "Paris"}}
        ),
        ResponseFunctionToolCall.model_validate(
            {
                "type": "function_call",
                "call_id": "id_1",
                "name": "get_weather",
                "arguments": '{"city": "Paris"}',
            }
        ),
    ]
    for obj in objects:
        for form in _sdk_forms(obj):
            assert read_tool_call(form) == want
