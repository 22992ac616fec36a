"""Plain chat dicts are read by a short path (:func:`tooletta.shapes.plain.read_plain_dicts`):
whatever it reads, it reads as the general reader (:func:`~tooletta.shapes.read.read_messages`
without it, then the reasoning lifted as :func:`~tooletta.chat.messages.read_conversation` lifts it)
does, and anything else it hands to that reader, which reads it or says why not."""

from __future__ import annotations

from typing import Any
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from tooletta import Message, RenderError, ToolCall
from tooletta.chat import messages as reading
from tooletta.shapes import calls as calls_module
from tooletta.shapes import read
from tooletta.shapes.plain import read_plain_dicts


class Text(str):
    """A ``str`` subclass: read by the general reader's ``isinstance`` tests."""


def general(given: list[Any]) -> tuple[str, Any]:
    """What the general reader makes of ``given``: the messages, or its error's message."""
    try:
        with patch.object(read, "read_plain_dicts", lambda messages: None), no_plain_calls():
            out = read.read_messages(given)
    except ValueError as exc:
        return ("error", str(exc))
    return ("read", [reading._lift_reasoning(m) for m in out])


def no_plain_calls() -> Any:
    """The calls read without their one-step reading (``shapes.calls._plain_call``)."""
    return patch.object(calls_module, "_plain_call", lambda item: None)


def through_read_conversation(given: list[Any]) -> tuple[str, Any]:
    """What :func:`~tooletta.chat.messages.read_conversation` makes of ``given``."""
    try:
        return ("read", reading.read_conversation(given))
    except RenderError as exc:
        return ("error", str(exc))


texts = st.one_of(
    st.sampled_from(["", "hi", "Paris", "東京", "<think>x</think>"]),
    st.builds(Text, st.sampled_from(["", "hi"])),
)
values = st.one_of(st.none(), texts, st.integers(0, 3), st.just(["part"]), st.just({"a": 1}))
arguments = st.one_of(
    st.sampled_from(['{"city": "Paris"}', "{}", "", "[1]", "{bad", '{"a": {"b": [1]}}']),
    st.fixed_dictionaries({}, optional={"city": st.just("Paris"), "days": st.integers(0, 3)}),
    st.none(),
    st.just(5),
)
functions = st.fixed_dictionaries(
    {},
    optional={
        "name": st.one_of(st.sampled_from(["get_weather", ""]), st.none(), st.just(3)),
        "arguments": arguments,
        "parameters": st.just({"x": 1}),
        "description": st.just("d"),
    },
)
calls: st.SearchStrategy[Any] = st.one_of(
    st.fixed_dictionaries(
        {"function": functions},
        optional={
            "id": st.one_of(st.just("call_1"), st.none(), st.just(7)),
            "type": st.sampled_from(["function", "custom", "tool_use", "function_call", None]),
            "custom": st.just({}),
        },
    ),
    st.just({"type": "tool_use", "id": "t1", "name": "get_weather", "input": {}}),
    st.just("not a call"),
)
plain_calls = st.fixed_dictionaries(
    {
        "function": st.fixed_dictionaries(
            {
                "name": st.one_of(
                    st.sampled_from(["get_weather", ""]), st.none(), st.just(3), st.just(Text("f"))
                ),
                "arguments": arguments,
            }
        )
    },
    optional={
        "id": st.one_of(st.just("call_1"), st.none(), st.just(7), st.just(Text("c"))),
        "type": st.sampled_from(["function", None, "custom", Text("function")]),
    },
)
"""Chat Completions calls in the plain shape, each field now and then of another type."""
messages = st.fixed_dictionaries(
    {},
    optional={
        "role": st.one_of(
            st.sampled_from(["system", "developer", "user", "assistant", "tool", "function"]),
            st.sampled_from(["bot", ""]),
            st.builds(Text, st.just("user")),
            st.none(),
        ),
        "content": st.one_of(values, st.just([{"type": "text", "text": "hi"}])),
        "tool_calls": st.one_of(st.lists(calls, max_size=2), st.none(), st.just("x")),
        "tool_call_id": values,
        "name": values,
        "reasoning_content": values,
        "reasoning": values,
        "thinking": texts,
        "function_call": st.just({"name": "f", "arguments": "{}"}),
        "weight": st.just(0),
        "type": st.sampled_from(["message", "reasoning"]),
    },
)
plain_messages = st.fixed_dictionaries(
    {
        "role": st.sampled_from(["system", "user", "assistant", "tool"]),
        "content": st.one_of(st.sampled_from(["hi", ""]), st.none()),
    },
    optional={
        "tool_calls": st.lists(calls, max_size=2),
        "reasoning_content": st.sampled_from(["", "why"]),
        "reasoning": st.sampled_from(["", "other"]),
        "tool_call_id": st.just("call_1"),
        "name": st.just("get_weather"),
    },
)


@settings(max_examples=600)
@given(st.lists(st.one_of(messages, plain_messages), min_size=1, max_size=4))
def test_read_as_the_general_reader_reads(given: list[Any]) -> None:
    """Any list of dicts: the short path reads it as the general reader does, or hands it on."""
    plain = read_plain_dicts(given)
    if plain is not None:
        assert general(given) == ("read", plain)
    want = general(given)
    got = through_read_conversation(given)
    if want[0] == "error":
        assert got[0] == "error" and want[1] in got[1]
    else:
        assert got == want


def read_call(item: Any) -> tuple[str, Any]:
    """What :func:`~tooletta.shapes.calls.read_tool_call` makes of ``item``: the call, or its
    error's message."""
    try:
        return ("read", calls_module.read_tool_call(item))
    except ValueError as exc:
        return ("error", str(exc))


@settings(max_examples=600)
@given(st.one_of(calls, plain_calls))
def test_calls_read_in_one_step_as_by_their_shape(item: Any) -> None:
    """A Chat Completions call read in one step is read as ``from_openai_tool_call`` reads
    it; any other item is left to the shape's reader (same call, or same error)."""
    with no_plain_calls():
        want = read_call(item)
    assert read_call(item) == want


@settings(max_examples=300)
@given(st.lists(plain_messages, min_size=1, max_size=4))
def test_plain_shapes_take_the_short_path(given: list[Any]) -> None:
    """The common shapes (chat roles, text or no content, reasoning, OpenAI calls with string
    or dict arguments, result ids and names) are read by the short path whenever the general
    reader reads them."""
    want = general(given)
    plain = read_plain_dicts(given)
    if want[0] == "read" and all(
        type(c) is dict and set(c) <= {"id", "type", "function"}
        for m in given
        for c in m.get("tool_calls") or []
    ):
        assert plain is not None
        assert want == ("read", plain)


def test_an_openai_conversation() -> None:
    """A conversation as the OpenAI API takes it: every field read."""
    given = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": None,
            "reasoning_content": "Ask the tool.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "18 C"},
    ]
    read = read_plain_dicts(given)
    assert read == [
        Message(role="system", content="Be brief."),
        Message(role="user", content="Weather in Paris?"),
        Message(
            role="assistant",
            reasoning="Ask the tool.",
            tool_calls=[ToolCall("get_weather", {"city": "Paris"}, id="call_1")],
        ),
        Message(role="tool", content="18 C", tool_call_id="call_1"),
    ]
    assert general(given) == ("read", read)


def test_what_is_handed_on() -> None:
    """Shapes the short path leaves to the general reader: an extra key, a legacy function
    result, a content list, a text subclass, a reasoning that is not text. (A call in another
    shape is read by :func:`~tooletta.shapes.calls.read_tool_call`, the general reader's.)"""
    for message in [
        {"role": "user", "content": "hi", "weight": 0},
        {"role": "function", "name": "f", "content": "1"},
        {"role": "user", "content": [{"type": "text", "text": "hi"}]},
        {"role": Text("user"), "content": "hi"},
        {"role": "assistant", "content": "hi", "reasoning": 3},
    ]:
        assert read_plain_dicts([message]) is None, message
