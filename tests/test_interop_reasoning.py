"""Reasoning through every interop shape: read into ``Message.reasoning``, written where each
target has a place for it, opaque provider data (signatures, redacted blocks, encrypted
items) kept, and the keep / native / drop policies."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooletta import Message, ToolCall
from tooletta.interop import (
    messages_to_anthropic,
    messages_to_hf,
    messages_to_openai,
    messages_to_responses,
    messages_to_tinker,
    read_messages,
)
from tooletta.interop.anthropic import anthropic_thinking_blocks
from tooletta.interop.responses import responses_reasoning_items

openai = pytest.importorskip("openai")
anthropic = pytest.importorskip("anthropic")

from test_interop_sdk import valid_anthropic, valid_openai, valid_responses  # noqa: E402

CALL = ToolCall("get_weather", {"city": "Paris"}, "call_1")
SIGNED = {"type": "thinking", "thinking": "Weather first.", "signature": "EqQBCgIYAhIM"}
REDACTED = {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"}


def _anthropic_turn(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": list(blocks)}


def test_every_reader_fills_reasoning() -> None:
    sources: list[Any] = [
        {"role": "assistant", "content": "hi", "reasoning_content": "R"},  # vLLM, DeepSeek
        {"role": "assistant", "content": "hi", "reasoning": "R"},  # newer vLLM, OpenRouter
        {
            "role": "assistant",
            "content": [{"type": "thinking", "thinking": "R"}, {"type": "text", "text": "hi"}],
        },  # tinker
        {
            "role": "assistant",
            "content": "hi",  # LiteLLM
            "thinking_blocks": [{"type": "thinking", "thinking": "R", "signature": "s"}],
        },
        _anthropic_turn(
            {"type": "thinking", "thinking": "R", "signature": "s"}, {"type": "text", "text": "hi"}
        ),
    ]
    for source in sources:
        (msg,) = read_messages([source])
        assert (msg.reasoning, msg.content) == ("R", "hi"), source
    responses = [
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "R"}]},
        {"role": "assistant", "content": [{"type": "output_text", "text": "hi"}]},
    ]
    (msg,) = read_messages(responses)
    assert (msg.reasoning, msg.content) == ("R", "hi")


def test_responses_raw_reasoning_text_wins_over_the_summary() -> None:
    item = {
        "type": "reasoning",
        "id": "rs_1",
        "summary": [{"type": "summary_text", "text": "short"}],
        "content": [
            {"type": "reasoning_text", "text": "the long"},
            {"type": "reasoning_text", "text": "reasoning"},
        ],
    }
    (msg,) = read_messages([item])
    assert msg.reasoning == "the long\n\nreasoning"


def test_every_writer_puts_reasoning_in_its_place() -> None:
    msg = Message("assistant", "hi", [CALL], reasoning="R")
    chat = messages_to_openai([msg])
    valid_openai(chat)
    assert chat[0]["reasoning_content"] == "R"
    assert messages_to_hf([msg])[0]["reasoning_content"] == "R"
    assert messages_to_tinker([msg])[0]["content"] == [
        {"type": "thinking", "thinking": "R"},
        {"type": "text", "text": "hi"},
    ]
    claude = messages_to_anthropic([msg])
    valid_anthropic(claude)
    assert claude["messages"][0]["content"][0] == {
        "type": "thinking",
        "thinking": "R",
        "signature": "",
    }
    items = messages_to_responses([msg])
    valid_responses(items)
    assert items[0]["type"] == "reasoning" and items[0]["content"] == [
        {"type": "reasoning_text", "text": "R"}
    ]
    for shape in (
        chat,
        messages_to_hf([msg]),
        messages_to_tinker([msg]),
        claude["messages"],
        items,
    ):
        (back,) = read_messages(json.loads(json.dumps(shape)))
        assert (back.reasoning, back.content, back.tool_calls) == ("R", "hi", [CALL])


def test_signatures_and_redacted_thinking_survive_other_shapes() -> None:
    turn = _anthropic_turn(SIGNED, REDACTED, {"type": "text", "text": "hi"})
    # through OpenAI chat (LiteLLM's thinking_blocks) and HF, back to Anthropic
    for write in (messages_to_openai, messages_to_hf):
        chat = write([turn])
        assert chat[0]["thinking_blocks"] == [SIGNED, REDACTED]
        back = messages_to_anthropic(chat)["messages"][0]["content"]
        assert back == [SIGNED, REDACTED, {"type": "text", "text": "hi"}]


def test_redacted_thinking_alone_round_trips() -> None:
    turn = _anthropic_turn(REDACTED, {"type": "text", "text": "hi"})
    (msg,) = read_messages([turn])
    assert msg.reasoning == ""
    assert messages_to_anthropic([msg])["messages"] == [turn]


def test_edited_reasoning_gives_up_the_old_signature() -> None:
    (msg,) = read_messages([_anthropic_turn(SIGNED, REDACTED, {"type": "text", "text": "hi"})])
    edited = Message("assistant", "hi", reasoning="Something else.", extra=msg.extra)
    assert anthropic_thinking_blocks(edited) == [
        REDACTED,
        {"type": "thinking", "thinking": "Something else.", "signature": ""},
    ]
    assert anthropic_thinking_blocks(edited, "native") == [REDACTED]


def test_reasoning_policies() -> None:
    foreign = Message("assistant", "hi", reasoning="R")
    (signed,) = read_messages([_anthropic_turn(SIGNED, {"type": "text", "text": "hi"})])
    assert anthropic_thinking_blocks(foreign, "native") == []
    assert anthropic_thinking_blocks(signed, "native") == [SIGNED]
    assert anthropic_thinking_blocks(signed, "drop") == []
    item = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA"}
    (own,) = read_messages(
        [item, {"role": "assistant", "content": [{"type": "output_text", "text": "hi"}]}]
    )
    assert responses_reasoning_items(own, "native") == [item]
    assert responses_reasoning_items(foreign, "native") == []
    assert messages_to_openai([foreign], reasoning="drop") == [
        {"role": "assistant", "content": "hi"}
    ]
    assert "thinking_blocks" not in messages_to_openai([signed], reasoning="drop")[0]
    with pytest.raises(ValueError, match="reasoning policy"):
        messages_to_anthropic([foreign], reasoning="all")  # type: ignore[arg-type]


def test_responses_private_keys_stay_out_of_chat_messages() -> None:
    items = [
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "R"}]},
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "get_weather",
            "arguments": '{"city": "Paris"}',
        },
    ]
    (chat,) = messages_to_openai(items)
    assert set(chat) == {"role", "content", "reasoning_content", "tool_calls"}


def test_anthropic_thinking_never_lands_in_openai_content() -> None:
    turn = _anthropic_turn(SIGNED, {"type": "text", "text": "hi"})
    (chat,) = messages_to_openai([turn])
    assert chat["content"] == "hi" and chat["reasoning_content"] == "Weather first."
    valid_openai([chat])


# -- property: any conversation with reasoning, through every writer -------------------------

WRITERS: list[Any] = [
    (lambda m: messages_to_openai(m), valid_openai),
    (lambda m: messages_to_anthropic(m), valid_anthropic),
    (lambda m: messages_to_responses(m), valid_responses),
    (lambda m: messages_to_responses(m, item_ids=True), valid_responses),
    (lambda m: messages_to_hf(m), None),
    (lambda m: messages_to_tinker(m), None),
]

TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=8)


@st.composite
def conversations(draw: Any) -> list[Message]:
    out = [Message("user", draw(TEXT))]
    for turn in range(draw(st.integers(1, 3))):
        calls = [
            ToolCall(name, {"n": n}, f"call_{turn}_{i}")
            for i, (name, n) in enumerate(
                draw(st.lists(st.tuples(st.sampled_from(["f", "g"]), st.integers()), max_size=2))
            )
        ]
        content = draw(st.one_of(st.none(), TEXT))
        reasoning = draw(st.one_of(st.just(""), TEXT.map(str.strip).filter(bool)))
        if not (calls or content or reasoning):
            content = "ok"
        out.append(Message("assistant", content, calls, reasoning=reasoning))
        out.extend(Message("tool", f"r{i}", tool_call_id=c.id) for i, c in enumerate(calls))
        if not calls:
            out.append(Message("user", draw(TEXT)))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(conversations())
def test_every_writer_is_valid_and_keeps_reasoning(msgs: list[Message]) -> None:
    def essence(ms: list[Message]) -> list[tuple[Any, ...]]:
        return [
            (m.role, m.content or None, [(c.name, c.arguments) for c in m.tool_calls], m.reasoning)
            for m in ms
        ]

    for write, validate in WRITERS:
        out = write(msgs)
        if validate is not None:
            validate(out)
        shape = out["messages"] if isinstance(out, dict) else out
        assert essence(read_messages(json.loads(json.dumps(shape)))) == essence(msgs)
