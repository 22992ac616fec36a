"""Whole conversations across shapes: real payloads, id policies, results following calls."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooletta import ToolCall
from tooletta.interop import (
    IdMapper,
    IdPolicy,
    Message,
    map_ids,
    messages_to_anthropic,
    messages_to_hf,
    messages_to_openai,
    messages_to_responses,
    messages_to_tinker,
    pair_results,
    read_messages,
    read_tools,
    to_anthropic_tools,
    to_openai_tools,
    to_responses_tools,
    to_tinker_tools,
)

MULTIPLY_ID = "call_1EYWDzueHEp8OsB8jJSEp7WB"
# simonw/llm cassette test_tool_use_basic.yaml, second request (verbatim messages)
OPENAI_CHAT: list[Any] = [
    {"role": "user", "content": "What is 1231 * 2331?"},
    {"role": "assistant", "content": ""},
    {
        "role": "assistant",
        "tool_calls": [
            {
                "type": "function",
                "id": MULTIPLY_ID,
                "function": {"name": "multiply", "arguments": '{"a":\n 1231, "b": 2331}'},
            }
        ],
    },
    {"role": "tool", "tool_call_id": MULTIPLY_ID, "content": "2869461"},
]
# simonw/llm cassette test_responses_tool_use_streaming.yaml, second request's input
RESPONSES_INPUT: list[Any] = [
    {"role": "user", "content": "What is 1231 * 2331? Use the multiply tool."},
    {
        "type": "function_call",
        "call_id": "call_sVidsfFJ6zlzRpelrPkTPlpd",
        "name": "multiply",
        "arguments": '{"a":\n 1231, "b": 2331}',
    },
    {
        "type": "function_call_output",
        "call_id": "call_sVidsfFJ6zlzRpelrPkTPlpd",
        "output": "2869461",
    },
]
# Anthropic tool-use docs: parallel calls, results in the next user turn
ANTHROPIC: dict[str, Any] = {
    "system": "You are a weather bot.",
    "messages": [
        {"role": "user", "content": "Weather and time in San Francisco?"},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "I'll check both."},
                {
                    "type": "tool_use",
                    "id": "toolu_01A09q90qw90lq917835lq9",
                    "name": "get_weather",
                    "input": {"location": "San Francisco, CA"},
                },
                {
                    "type": "tool_use",
                    "id": "toolu_01B19r91rx91mr928946mr0",
                    "name": "get_time",
                    "input": {"timezone": "America/Los_Angeles"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
                    "content": "15 degrees",
                },
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01B19r91rx91mr928946mr0",
                    "content": [{"type": "text", "text": "unavailable"}],
                    "is_error": True,
                },
                {"type": "text", "text": "Also, should I bring a jacket?"},
            ],
        },
    ],
}
# TRL dataset_formats.md tool-calling row (dict arguments, named tool results)
TRL_ROW: dict[str, Any] = {
    "messages": [
        {"role": "user", "content": "Turn on the living room lights."},
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "type": "function",
                    "function": {
                        "name": "control_light",
                        "arguments": {"room": "living room", "state": "on"},
                    },
                }
            ],
        },
        {
            "role": "tool",
            "name": "control_light",
            "content": "The lights in the living room are now on.",
        },
        {"role": "assistant", "content": "Done!"},
    ],
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "control_light",
                "description": "Controls the lights in a room.",
                "parameters": {
                    "type": "object",
                    "properties": {"room": {"type": "string"}, "state": {"type": "string"}},
                    "required": ["room", "state"],
                },
            },
        }
    ],
}
KIMI_CHAT: list[Any] = [
    {"role": "user", "content": "Weather in Beijing and Shanghai?"},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "functions.get_weather:0",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Beijing"}'},
            },
            {
                "id": "functions.get_weather:1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Shanghai"}'},
            },
        ],
    },
    {"role": "tool", "tool_call_id": "functions.get_weather:1", "content": "22C"},
    {"role": "tool", "tool_call_id": "functions.get_weather:0", "content": "18C"},
]


def _call_ids(messages: list[dict[str, Any]]) -> list[str]:
    return [c["id"] for m in messages for c in m.get("tool_calls") or []]


def test_openai_recorded_conversation_reads() -> None:
    msgs = read_messages(OPENAI_CHAT)
    assert msgs[2].tool_calls == [ToolCall("multiply", {"a": 1231, "b": 2331}, MULTIPLY_ID)]
    assert msgs[3] == Message(role="tool", content="2869461", tool_call_id=MULTIPLY_ID)
    assert pair_results(msgs) == {3: (2, 0)}


def test_openai_round_trip_keeps_ids() -> None:
    out = messages_to_openai(OPENAI_CHAT)
    assert _call_ids(out) == [MULTIPLY_ID]
    assert out[3] == {"role": "tool", "tool_call_id": MULTIPLY_ID, "content": "2869461"}
    assert out[2]["content"] is None  # the SDK's shape: content null beside tool_calls
    assert read_messages(out) == [
        *read_messages(OPENAI_CHAT)[:2],
        Message("assistant", None, read_messages(OPENAI_CHAT)[2].tool_calls),
        read_messages(OPENAI_CHAT)[3],
    ]


def test_openai_to_anthropic() -> None:
    payload = messages_to_anthropic(
        [
            {"role": "system", "content": "Be brief."},
            *OPENAI_CHAT,
            {"role": "user", "content": "Thanks"},
        ]
    )
    assert payload["system"] == "Be brief."
    turns = payload["messages"]
    # the two consecutive assistant messages are one turn (as the API treats them), and the
    # empty text the API would refuse is left out
    assert [t["role"] for t in turns] == ["user", "assistant", "user"]
    assert turns[1]["content"] == [
        {"type": "tool_use", "id": MULTIPLY_ID, "name": "multiply", "input": {"a": 1231, "b": 2331}}
    ]
    assert turns[2]["content"] == [
        {"type": "tool_result", "tool_use_id": MULTIPLY_ID, "content": "2869461"},
        {"type": "text", "text": "Thanks"},
    ]


def test_anthropic_reads_and_round_trips() -> None:
    msgs = read_messages(
        [{"role": "system", "content": ANTHROPIC["system"]}, *ANTHROPIC["messages"]]
    )
    assert [m.role for m in msgs] == ["system", "user", "assistant", "tool", "tool", "user"]
    assert msgs[2].content == "I'll check both."
    assert [c.id for c in msgs[2].tool_calls] == [
        "toolu_01A09q90qw90lq917835lq9",
        "toolu_01B19r91rx91mr928946mr0",
    ]
    assert msgs[4].is_error and msgs[4].content == "unavailable"
    back = messages_to_anthropic(msgs)
    assert back["system"] == ANTHROPIC["system"]
    assert back["messages"][0] == ANTHROPIC["messages"][0]
    assert back["messages"][1] == ANTHROPIC["messages"][1]
    results = back["messages"][2]["content"]
    assert [b.get("tool_use_id") for b in results] == [
        "toolu_01A09q90qw90lq917835lq9",
        "toolu_01B19r91rx91mr928946mr0",
        None,
    ]
    assert results[1]["is_error"] is True and results[2] == {
        "type": "text",
        "text": "Also, should I bring a jacket?",
    }


def test_anthropic_to_openai_and_hf() -> None:
    chat = messages_to_openai(ANTHROPIC["messages"])
    assert [m["role"] for m in chat] == ["user", "assistant", "tool", "tool", "user"]
    assert chat[1]["content"] == "I'll check both."
    assert json.loads(chat[1]["tool_calls"][1]["function"]["arguments"]) == {
        "timezone": "America/Los_Angeles"
    }
    assert chat[3]["tool_call_id"] == "toolu_01B19r91rx91mr928946mr0"
    hf = messages_to_hf(ANTHROPIC["messages"])
    assert hf[1]["tool_calls"][0]["function"]["arguments"] == {"location": "San Francisco, CA"}
    assert hf[2]["name"] == "get_weather" and hf[3]["name"] == "get_time"  # filled from calls


def test_trl_row_to_openai_generates_ids_that_pair() -> None:
    chat = messages_to_openai(TRL_ROW["messages"])
    (call_id,) = _call_ids(chat)
    assert re.fullmatch(r"call_[A-Za-z0-9]{24}", call_id)
    assert chat[2] == {
        "role": "tool",
        "tool_call_id": call_id,
        "content": "The lights in the living room are now on.",
    }
    assert (
        chat[1]["tool_calls"][0]["function"]["arguments"]
        == '{"room": "living room", "state": "on"}'
    )
    assert messages_to_openai(TRL_ROW["messages"]) == chat  # deterministic


def test_trl_row_for_mistral_templates() -> None:
    hf = messages_to_hf(TRL_ROW["messages"], ids="mistral")
    call_id = hf[1]["tool_calls"][0]["id"]
    assert re.fullmatch(r"[A-Za-z0-9]{9}", call_id)
    assert hf[2]["tool_call_id"] == call_id and hf[2]["name"] == "control_light"


def test_trl_row_keep_leaves_ids_missing_where_they_are_optional() -> None:
    assert messages_to_hf(TRL_ROW["messages"]) == TRL_ROW["messages"]
    # OpenAI requires ids: "keep" keeps the ids there are and derives the missing ones (the
    # same as the openai policy), results following their calls
    assert messages_to_openai(TRL_ROW["messages"], ids="keep") == messages_to_openai(
        TRL_ROW["messages"]
    )


def test_kimi_ids_to_anthropic_and_mistral_follow_their_calls() -> None:
    rules: list[tuple[IdPolicy, str]] = [
        ("anthropic", r"[A-Za-z0-9_-]+"),
        ("mistral", r"[A-Za-z0-9]{9}"),
    ]
    for policy, pattern in rules:
        chat = messages_to_openai(KIMI_CHAT, ids=policy)
        first, second = _call_ids(chat)
        assert first != second
        assert all(re.fullmatch(pattern, i) for i in (first, second))
        assert chat[2]["tool_call_id"] == second and chat[3]["tool_call_id"] == first
    payload = messages_to_anthropic(KIMI_CHAT)
    uses = [b["id"] for b in payload["messages"][1]["content"] if b["type"] == "tool_use"]
    results = [b["tool_use_id"] for b in payload["messages"][2]["content"]]
    assert results == [uses[1], uses[0]]


def test_kimi_policy_numbers_calls() -> None:
    chat = messages_to_openai(ANTHROPIC["messages"], ids="kimi")
    assert _call_ids(chat) == ["functions.get_weather:0", "functions.get_time:1"]
    assert [m["tool_call_id"] for m in chat if m["role"] == "tool"] == _call_ids(chat)
    two_turns = [*TRL_ROW["messages"][:3], *TRL_ROW["messages"][1:3]]
    conv = messages_to_openai(two_turns, ids="kimi")
    assert _call_ids(conv) == ["functions.control_light:0", "functions.control_light:1"]
    per_msg = messages_to_openai(two_turns, ids=IdMapper("kimi", kimi_scope="message"))
    assert _call_ids(per_msg) == ["functions.control_light:0"] * 2
    assert [m["tool_call_id"] for m in per_msg if m["role"] == "tool"] == _call_ids(per_msg)


def test_openai_policy_replaces_too_long_ids() -> None:
    long_id = "fc_0f0e50a1476a6c35006912c58dc9f8819192c25864eb16f07f"  # 53 chars (agno#5382)
    conv = [
        {
            "role": "assistant",
            "tool_calls": [
                {"id": long_id, "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": long_id, "content": "ok"},
    ]
    chat = messages_to_openai(conv)
    assert len(_call_ids(chat)[0]) <= 40 and chat[1]["tool_call_id"] == _call_ids(chat)[0]


def test_legacy_function_call_in_and_out() -> None:
    legacy = [
        {"role": "user", "content": "Weather in Boston?"},
        {
            "role": "assistant",
            "content": None,
            "function_call": {"name": "get_current_weather", "arguments": '{"location": "Boston"}'},
        },
        {"role": "function", "name": "get_current_weather", "content": '{"temp": 22}'},
    ]
    msgs = read_messages(legacy)
    assert msgs[1].tool_calls == [ToolCall("get_current_weather", {"location": "Boston"})]
    assert msgs[2].role == "tool" and msgs[2].name == "get_current_weather"
    chat = messages_to_openai(legacy)
    assert "function_call" not in chat[1]
    assert chat[2]["tool_call_id"] == chat[1]["tool_calls"][0]["id"]
    assert messages_to_openai(legacy, ids="keep", legacy=True) == [
        legacy[0],
        {
            "role": "assistant",
            "content": None,
            "function_call": {"name": "get_current_weather", "arguments": '{"location": "Boston"}'},
        },
        legacy[2],
    ]
    with pytest.raises(ValueError, match="one call"):
        messages_to_openai(KIMI_CHAT, legacy=True)


def test_responses_recorded_input_reads_and_writes_back() -> None:
    msgs = read_messages(RESPONSES_INPUT)
    assert [m.role for m in msgs] == ["user", "assistant", "tool"]
    assert msgs[1].tool_calls[0].id == "call_sVidsfFJ6zlzRpelrPkTPlpd"
    items = messages_to_responses(msgs)
    assert items[0] == RESPONSES_INPUT[0] and items[2] == RESPONSES_INPUT[2]
    assert {k: v for k, v in items[1].items() if k != "arguments"} == {
        k: v for k, v in RESPONSES_INPUT[1].items() if k != "arguments"
    }
    with_ids = messages_to_responses(msgs, item_ids=True)
    assert with_ids[1]["id"].startswith("fc_") and with_ids[1]["status"] == "completed"


def test_responses_output_message_items() -> None:
    items = [
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "annotations": [], "text": "Let me multiply."}],
        },
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "multiply",
            "arguments": '{"a": 2, "b": 3}',
            "status": "completed",
        },
        {
            "type": "function_call",
            "id": "fc_2",
            "call_id": "call_2",
            "name": "multiply",
            "arguments": '{"a": 4, "b": 5}',
            "status": "completed",
        },
    ]
    (msg,) = read_messages(items)
    assert msg.content == "Let me multiply." and [c.id for c in msg.tool_calls] == [
        "call_1",
        "call_2",
    ]
    with pytest.raises(ValueError, match="web_search_call"):
        read_messages([{"type": "web_search_call", "id": "ws_1", "status": "completed"}])


def test_tinker_messages() -> None:
    out = messages_to_tinker(KIMI_CHAT)
    assert out[1]["tool_calls"][0] == {
        "function": {"name": "get_weather", "arguments": '{"city": "Beijing"}'},
        "id": "functions.get_weather:0",
        "type": "function",
    }
    assert out[2] == {
        "role": "tool",
        "content": "22C",
        "name": "get_weather",
        "tool_call_id": "functions.get_weather:1",
    }
    assert read_messages(out) == [
        *read_messages(messages_to_openai(KIMI_CHAT))[:1],
        Message("assistant", "", read_messages(KIMI_CHAT)[1].tool_calls),
        Message("tool", "22C", tool_call_id="functions.get_weather:1", name="get_weather"),
        Message("tool", "18C", tool_call_id="functions.get_weather:0", name="get_weather"),
    ]


def test_extras_are_kept_by_chat_writers() -> None:
    msg = {"role": "assistant", "content": "hi", "reasoning_content": "think", "weight": 0}
    assert messages_to_hf([msg]) == [msg]
    assert messages_to_openai([msg]) == [msg]


def test_read_errors_name_the_message() -> None:
    with pytest.raises(ValueError, match="message 1"):
        read_messages([{"role": "user", "content": "x"}, {"role": "robot", "content": "y"}])


def test_tool_definitions_in_every_shape() -> None:
    chat_tools = TRL_ROW["tools"]
    (spec,) = read_tools(chat_tools)
    assert spec.name == "control_light" and spec.parameters["required"] == ["room", "state"]
    flat = to_responses_tools(chat_tools)
    assert flat == [
        {
            "type": "function",
            "name": "control_light",
            "description": "Controls the lights in a room.",
            "parameters": chat_tools[0]["function"]["parameters"],
        }
    ]
    anthropic = to_anthropic_tools(flat)
    assert anthropic[0]["input_schema"] == chat_tools[0]["function"]["parameters"]
    assert to_openai_tools(anthropic) == chat_tools
    assert to_tinker_tools(anthropic) == [
        {
            "name": "control_light",
            "description": "Controls the lights in a room.",
            "parameters": chat_tools[0]["function"]["parameters"],
        }
    ]
    assert to_anthropic_tools([{"type": "function", "name": "ping"}]) == [
        {"name": "ping", "input_schema": {"type": "object", "properties": {}}}
    ]
    strict = [{"type": "function", "name": "f", "parameters": {"type": "object"}, "strict": True}]
    assert to_openai_tools(strict)[0]["function"]["strict"] is True


# -- properties -------------------------------------------------------------------------------

POLICY_RULES: dict[str, Any] = {
    "openai": r"(?s).{1,40}",
    "mistral": r"[A-Za-z0-9]{9}",
    "anthropic": r"[A-Za-z0-9_-]+",
    "kimi": r"functions\.[A-Za-z0-9_]+:\d+",
}
ANY_ID = st.one_of(
    st.none(),
    st.from_regex(r"call_[A-Za-z0-9]{24}", fullmatch=True),
    st.from_regex(r"functions\.[a-z]{1,6}:[0-9]", fullmatch=True),
    st.text(min_size=1, max_size=50),
)


LIGHT_CALL = st.builds(
    ToolCall,
    st.sampled_from(["get_weather", "search", "f", "control_light"]),
    st.dictionaries(
        st.sampled_from(["city", "q", "n", "nested"]),
        st.one_of(st.integers(), st.text(max_size=5), st.lists(st.booleans(), max_size=2)),
        max_size=3,
    ),
)


@st.composite
def conversations(draw: Any) -> list[Message]:
    """User turns, assistant turns with calls, then their results (shuffled; ids or not)."""
    out: list[Message] = [Message("user", draw(st.text(max_size=10)))]
    used: set[str] = set()
    for _ in range(draw(st.integers(1, 3))):
        calls = draw(st.lists(LIGHT_CALL, min_size=1, max_size=3))
        with_ids = []
        for c in calls:
            call_id = draw(ANY_ID)
            if call_id in used:
                call_id = None
            if call_id is not None:
                used.add(call_id)
            with_ids.append(ToolCall(c.name, c.arguments, call_id))
        out.append(Message("assistant", draw(st.sampled_from([None, "ok"])), with_ids))
        order = draw(st.permutations(range(len(with_ids))))
        if any(c.id is None for c in with_ids):
            order = list(range(len(with_ids)))  # id-less results pair by order
        for i in order:
            out.append(Message("tool", f"result {i}", tool_call_id=with_ids[i].id))
    return out


def _pairs(msgs: list[Message]) -> list[tuple[str, Any]]:
    """(call name and position, result content) per result, via the result's pairing."""
    return [
        (msgs[a].tool_calls[c].name + str(c), msgs[r].content or "")
        for r, (a, c) in sorted(pair_results(msgs).items())
    ]


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(conversations(), st.sampled_from(sorted(POLICY_RULES)))
def test_id_policies_keep_results_with_their_calls(msgs: list[Message], policy: str) -> None:
    mapped = map_ids(msgs, policy)  # type: ignore[arg-type]
    assert _pairs(mapped) == _pairs(msgs)
    for m in mapped:
        for c in m.tool_calls:
            assert c.id is not None and re.fullmatch(POLICY_RULES[policy], c.id), c.id
        if m.role == "tool":
            assert m.tool_call_id is not None
    ids = [c.id for m in mapped for c in m.tool_calls]
    assert len(set(ids)) == len(ids)
    assert map_ids(msgs, policy) == mapped  # type: ignore[arg-type]


WRITERS: list[Any] = [
    lambda m: messages_to_openai(m),
    lambda m: messages_to_hf(m, ids="mistral"),
    lambda m: messages_to_tinker(m, ids="kimi"),
    lambda m: messages_to_anthropic(m)["messages"],
    lambda m: messages_to_responses(m),
]


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(conversations())
def test_every_writer_reads_back_to_the_same_conversation(msgs: list[Message]) -> None:
    def strip(ms: list[Message]) -> list[tuple[Any, ...]]:
        return [
            (m.role, m.content or None, [(c.name, c.arguments) for c in m.tool_calls]) for m in ms
        ]

    for write in WRITERS:
        back = read_messages(json.loads(json.dumps(write(msgs))))
        assert strip(back) == strip(msgs)
        assert _pairs(back) == _pairs(msgs)
