"""Sample conversations for the conversation laws: the shared cases every chat format is
compared with its model's template on, tool definitions they call, conversations with list
content, and a hypothesis strategy of random conversations."""

from __future__ import annotations

from typing import Any

import msgspec

from ..ir import Message, ToolCall

__all__ = [
    "PROBE_TOOLS",
    "SAMPLE_TOOLS",
    "list_content_conversations",
    "random_conversations",
    "sample_conversations",
]

SAMPLE_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "City name"},
                    "days": {"type": "integer"},
                },
                "required": ["city"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_time",
            "description": "Local time in a timezone.",
            "parameters": {
                "type": "object",
                "properties": {"tz": {"type": "string"}},
                "required": ["tz"],
            },
        },
    },
]
"""Two tool definitions (OpenAI Chat shape) the sample conversations call."""


def _call(name: str, arguments: dict[str, Any], call_id: str | None) -> ToolCall:
    return ToolCall(name, arguments, call_id)


def sample_conversations(*, ids: bool = False) -> dict[str, tuple[list[Message], bool]]:
    """Named sample conversations: ``name -> (messages, uses_tools)``. ``ids=True`` gives
    calls ids (``call_1``...) and results the matching ``tool_call_id``."""

    def cid(n: int) -> str | None:
        return f"call_{n}" if ids else None

    weather = _call("get_weather", {"city": "Paris", "days": 2}, cid(1))
    time = _call("get_time", {"tz": "Europe/Paris"}, cid(2))
    tokyo = _call("get_weather", {"city": "東京"}, cid(3))
    system = Message("system", "You are a helpful assistant.")
    ask = Message("user", "What's the weather in Paris, and the time there?")
    results = [
        Message("tool", '{"temp": 18, "sky": "clear"}', tool_call_id=cid(1), name="get_weather"),
        Message("tool", "14:05", tool_call_id=cid(2), name="get_time"),
    ]
    answer = Message("assistant", "It is 18 °C and clear in Paris; the time is 14:05.")
    calls_turn = Message("assistant", "Let me check both.", tool_calls=[weather, time])
    thinking_calls = Message(
        "assistant",
        "",
        tool_calls=[weather, time],
        reasoning="The user wants weather and time; call both tools.",
    )
    follow = Message("user", 'And in Tokyo? Reply with "quotes" \\ and a newline\nplease.')
    tokyo_turn = Message("assistant", "", tool_calls=[tokyo])
    tokyo_result = Message("tool", '{"temp": 22}', tool_call_id=cid(3), name="get_weather")
    tokyo_answer = Message(
        "assistant", "東京: 22 °C.", reasoning="One more call was needed; now answer."
    )
    return {
        "plain": ([Message("user", "Hello!"), Message("assistant", "Hi! How can I help?")], False),
        "system_plain": (
            [system, Message("user", "Hello!"), Message("assistant", "Hi there.")],
            False,
        ),
        "tools_two_calls": ([system, ask, calls_turn, *results, answer], True),
        "tools_no_system": ([ask, calls_turn, *results, answer], True),
        "reasoning_multi_turn": (
            [
                system,
                ask,
                thinking_calls,
                *results,
                answer,
                follow,
                tokyo_turn,
                tokyo_result,
                tokyo_answer,
            ],
            True,
        ),
        "pending_call": ([ask, calls_turn], True),
    }


def list_content_conversations(*, ids: bool = False) -> dict[str, list[Message]]:
    """For each role (``system``, ``user``, ``assistant``, ``tool``), a conversation in
    which a message of that role has its content as a list of two text parts (the OpenAI /
    Hugging Face multimodal shape)."""

    def parts(*texts: str) -> list[dict[str, str]]:
        return [{"type": "text", "text": t} for t in texts]

    tools_case, _ = sample_conversations(ids=ids)["tools_two_calls"]
    first_result = next(i for i, m in enumerate(tools_case) if m.role == "tool")
    tool = list(tools_case)
    tool[first_result] = msgspec.structs.replace(
        tool[first_result], content=parts('{"temp": 18,', ' "sky": "clear"}')
    )
    return {
        "system": [
            Message("system", parts("You are helpful.", "Be brief.")),
            Message("user", "Hello!"),
            Message("assistant", "Hi."),
        ],
        "user": [
            Message("user", parts("Look at this:", "what is 2 + 2?")),
            Message("assistant", "4."),
        ],
        "assistant": [
            Message("user", "Hello!"),
            Message("assistant", parts("Hi!", "How can I help?")),
        ],
        "tool": tool,
    }


PROBE_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "probe",
            "description": "Look something up.",
            "parameters": {
                "type": "object",
                "properties": {
                    "s": {"type": "string"},
                    "n": {"type": "integer"},
                    "b": {"type": "boolean"},
                    "o": {"type": "object"},
                },
                "required": ["s"],
            },
        },
    }
]
"""The tool :func:`random_conversations` calls (its arguments typed by this schema)."""


def random_conversations(*, trimmed: bool = True) -> Any:
    """A hypothesis strategy of conversations calling :data:`~tooletta.chat.samples.PROBE_TOOLS`.

    An optional system message, then one or two rounds of a user message, zero to two
    assistant turns with calls (content and reasoning optional, one or two calls, a result for
    each) and an answer. Texts hold no ``<``, ``>`` or ``\\r`` (so no markup by accident);
    ``trimmed``: no whitespace at either end of a text either, as the round-trip law needs
    (formats that trim or join texts cannot give those ends back). Needs hypothesis.
    """
    from hypothesis import strategies as st

    chars = st.characters(codec="utf-8", exclude_categories=("Cs", "Cc"), exclude_characters="<>\r")
    text = st.text(st.one_of(chars, st.sampled_from(" \n")), max_size=12)
    if trimmed:
        text = text.map(str.strip)
    some = text.filter(bool)
    scalar = st.one_of(
        st.text(chars, max_size=8).map(lambda t: {"s": t}),
        st.integers(-1000, 1000).map(lambda n: {"n": n}),
        st.booleans().map(lambda b: {"b": b}),
        st.dictionaries(st.text(chars, min_size=1, max_size=4), st.integers(), max_size=2).map(
            lambda o: {"o": o}
        ),
    )
    arguments = st.lists(scalar, min_size=1, max_size=3).map(
        lambda parts: {"s": "x", **{k: v for part in parts for k, v in part.items()}}
    )
    calls = st.lists(arguments.map(lambda a: ToolCall("probe", a)), min_size=1, max_size=2)

    def step(parts: tuple[str, str, list[ToolCall], list[str]]) -> list[Message]:
        content, reasoning, called, results = parts
        turn = Message("assistant", content, tool_calls=called, reasoning=reasoning)
        return [turn, *(Message("tool", r) for r in results[: len(called)])]

    tool_step = st.tuples(text, text, calls, st.lists(some, min_size=2, max_size=2)).map(step)
    answer = st.tuples(some, text).map(lambda p: Message("assistant", p[0], reasoning=p[1]))
    round_ = st.tuples(some, st.lists(tool_step, max_size=2), answer).map(
        lambda p: [Message("user", p[0]), *(m for s in p[1] for m in s), p[2]]
    )
    none: list[Message] = []
    system = st.one_of(st.just(none), some.map(lambda t: [Message("system", t)]))
    return st.tuples(system, st.lists(round_, min_size=1, max_size=2)).map(
        lambda p: [*p[0], *(m for r in p[1] for m in r)]
    )
