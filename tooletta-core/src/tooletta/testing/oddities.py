"""Odd conversations for the conversation law: a well-formed random conversation with one
oddity at a time (issue 22's list), and mutated renders for parse. Needs hypothesis.

Each oddity is a named edit of a message list (:data:`ODDITIES`): markup of the format in a
text field, argument keys and values no JSON round trip keeps (non-string keys, bytes,
tuples, sets, integers past 4300 digits, NaN, nesting 600 levels deep), a non-string value
under a ``string`` schema, ids that are integers or lone surrogates, roles that are lists or
dicts, tool calls on a user or tool message, and the shapes of a conversation templates
handle badly (it starts with an assistant turn, results with no call, two assistant or two
user turns in a row, a surplus result, no message at all).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from ..ir import Message, ToolCall
from .samples import random_conversations

__all__ = ["ODDITIES", "mutated_renders", "odd_conversations"]

_Edit = Callable[[list[Message], int, str], list[Any]]
"""An oddity: the messages, a number to pick with, and a markup token of the format."""


def _replace(message: Message, **changes: Any) -> Message:
    return msgspec.structs.replace(message, **changes)


def _first(messages: list[Message], role: str) -> int:
    return next((i for i, m in enumerate(messages) if m.role == role), -1)


def _with_call(messages: list[Message], edit: Callable[[ToolCall], ToolCall]) -> list[Any]:
    """``messages`` with the first call edited (a call added to the first assistant turn when
    none has one)."""
    out: list[Any] = list(messages)
    for index, message in enumerate(out):
        if message.tool_calls:
            calls = [edit(message.tool_calls[0]), *message.tool_calls[1:]]
            out[index] = _replace(message, tool_calls=calls)
            return out
    call = edit(ToolCall("probe", {"s": "x"}))
    ask = [Message("user", "Go.")] if out and out[-1].role == "assistant" else []
    return [*out, *ask, Message("assistant", "", tool_calls=[call])]


def _arguments(value: Any, key: Any = "o") -> Callable[[list[Message], int, str], list[Any]]:
    def edit(messages: list[Message], pick: int, token: str) -> list[Any]:
        return _with_call(messages, lambda c: ToolCall(c.name, {**c.arguments, key: value}, c.id))

    return edit


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"d": value}
    return value


def _markup_in(field: str) -> _Edit:
    def edit(messages: list[Message], pick: int, token: str) -> list[Any]:
        out: list[Any] = list(messages)
        role = {"tool result": "tool", "system": "system", "content": "user"}.get(field)
        role = role or "assistant"
        index = _first(out, role)
        if index < 0:
            index = len(out)
            out.append(Message(role, "x"))
        message = out[index]
        text = message.reasoning if field == "reasoning" else message.content
        text = text if isinstance(text, str) else ""
        cut = pick % (len(text) + 1)
        text = text[:cut] + token + text[cut:]
        key = "reasoning" if field == "reasoning" else "content"
        out[index] = _replace(message, **{key: text})
        return out

    return edit


def _id(value: Any) -> _Edit:
    def edit(messages: list[Message], pick: int, token: str) -> list[Any]:
        return _with_call(messages, lambda c: ToolCall(c.name, c.arguments, value))

    return edit


def _role(value: Any) -> _Edit:
    def edit(messages: list[Message], pick: int, token: str) -> list[Any]:
        out: list[Any] = list(messages)
        index = pick % len(out) if out else 0
        if out:
            out[index] = _replace(out[index], role=value)
        return out

    return edit


def _calls_on(role: str) -> _Edit:
    def edit(messages: list[Message], pick: int, token: str) -> list[Any]:
        out: list[Any] = list(messages)
        index = _first(out, role)
        call = ToolCall("probe", {"s": "x"})
        if index < 0:
            return [*out, Message(role, "r", tool_calls=[call])]
        out[index] = _replace(out[index], tool_calls=[call])
        return out

    return edit


def _starts_with_assistant(messages: list[Message], pick: int, token: str) -> list[Any]:
    return [Message("assistant", "Hello."), *messages]


def _orphan_result(messages: list[Message], pick: int, token: str) -> list[Any]:
    index = max(_first(messages, "user"), 0)
    return [*messages[: index + 1], Message("tool", "orphan"), *messages[index + 1 :]]


def _two_assistants(messages: list[Message], pick: int, token: str) -> list[Any]:
    return [*messages, Message("assistant", "Again."), Message("assistant", "And again.")]


def _two_users(messages: list[Message], pick: int, token: str) -> list[Any]:
    return [*messages, Message("user", "One."), Message("user", "Two.")]


def _surplus_result(messages: list[Message], pick: int, token: str) -> list[Any]:
    index = _first(messages, "tool")
    if index < 0:
        return [*messages, Message("tool", "surplus")]
    return [*messages[: index + 1], Message("tool", "surplus"), *messages[index + 1 :]]


def _empty(messages: list[Message], pick: int, token: str) -> list[Any]:
    return []


ODDITIES: dict[str, _Edit] = {
    "markup in user content": _markup_in("content"),
    "markup in the system message": _markup_in("system"),
    "markup in a tool result": _markup_in("tool result"),
    "markup in reasoning": _markup_in("reasoning"),
    "markup in assistant content": _markup_in("assistant"),
    "non-string key": _arguments("x", key=1),
    "bytes value": _arguments(b"x"),
    "tuple value": _arguments((1, 2)),
    "set value": _arguments({1}),
    "integer past 4300 digits": _arguments(10**4400),
    "NaN": _arguments(float("nan")),
    "600 levels deep": _arguments(_deep(600)),
    "int under a string schema": _arguments(5, key="s"),
    "int id": _id(5),
    "lone surrogate id": _id("c\ud800"),
    "role is a list": _role(["user"]),
    "role is a dict": _role({"role": "user"}),
    "calls on a user message": _calls_on("user"),
    "calls on a tool message": _calls_on("tool"),
    "starts with an assistant turn": _starts_with_assistant,
    "result with no call": _orphan_result,
    "two assistant turns in a row": _two_assistants,
    "two user turns in a row": _two_users,
    "surplus result": _surplus_result,
    "no message": _empty,
}
"""The oddities by name; each edits a well-formed message list."""


def odd_conversations(markup: Sequence[str], names: Sequence[str] | None = None) -> Any:
    """A hypothesis strategy of ``(oddity name or None, messages)``: a random well-formed
    conversation (:func:`~tooletta.chat.samples.random_conversations`, calling
    :data:`~tooletta.chat.samples.PROBE_TOOLS`) with none or one of the oddities
    ``names`` (default: all of :data:`ODDITIES`); ``markup``: the tokens the markup oddities
    insert (the format's)."""
    from hypothesis import strategies as st

    chosen = list(ODDITIES) if names is None else list(names)
    tokens = [t for t in markup if t] or ["<|im_end|>"]

    def build(parts: tuple[list[Message], str | None, int, str]) -> tuple[str | None, list[Any]]:
        messages, name, pick, token = parts
        if name is None:
            return None, messages
        return name, ODDITIES[name](messages, pick, token)

    return st.tuples(
        random_conversations(),
        st.one_of(st.none(), st.sampled_from(chosen)),
        st.integers(0, 1 << 16),
        st.sampled_from(tokens),
    ).map(build)


def mutated_renders(texts: Sequence[str], markup: Sequence[str]) -> Any:
    """A hypothesis strategy of texts for ``parse_conversation``: one of ``texts`` (rendered
    conversations) cut short, with a slice deleted or doubled, or a token of ``markup``
    inserted, one to three edits; or random text."""
    from hypothesis import strategies as st

    tokens = [t for t in markup if t] or ["<"]

    def mutate(parts: tuple[str, list[tuple[int, int, int, int]]]) -> str:
        text, edits = parts
        for kind, a, b, pick in edits:
            size = len(text) + 1
            i, j = sorted((a % size, b % size))
            if kind == 0:
                text = text[:i]
            elif kind == 1:
                text = text[:i] + text[j:]
            elif kind == 2:
                text = text[:j] + text[i:j] + text[j:]
            else:
                text = text[:i] + tokens[pick % len(tokens)] + text[i:]
        return text

    edit = st.tuples(
        st.integers(0, 3), st.integers(0, 1 << 20), st.integers(0, 1 << 20), st.integers(0, 999)
    )
    sources = st.sampled_from(list(texts) or [""])
    mutated = st.tuples(sources, st.lists(edit, min_size=1, max_size=3))
    return st.one_of(mutated.map(mutate), st.text(max_size=60))
