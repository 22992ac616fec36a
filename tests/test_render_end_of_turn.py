"""``render(calls, model=..., end_of_turn=True)`` is the assistant turn the model generates, end
token included, as the conversation formats page shows it; without the flag the end token is
left out (one assistant message's text, as a parser reads it)."""

from __future__ import annotations

import re

import pytest

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat import chat_formats_of, render_spans
from tooletta.plugins import get_registry

CALL = ToolCall("get_weather", {"city": "Paris"}, "call_1")
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
]


def _an_id(pattern: str) -> str:
    """A model id the glob ``pattern`` matches."""
    return re.sub(r"\[!?(.)[^\]]*\]", r"\1", pattern).replace("*", "x").replace("?", "x")


def _formats() -> list[tuple[str, str]]:
    """(format name, a model id its first pattern matches)."""
    found = {}
    for entry in get_registry().ordered():
        for fmt in chat_formats_of(entry.dialect):
            if fmt.models and fmt.name not in found:
                found[fmt.name] = _an_id(fmt.models[0])
    return sorted(found.items())


@pytest.mark.parametrize(("name", "model"), _formats())
def test_the_call_turn_with_its_end_token_is_what_the_model_generates(
    name: str, model: str
) -> None:
    fmt, _ = tooletta.chat.resolve_format(model, None)
    if fmt.name != name:
        pytest.skip(f"{model} is another format's id ({fmt.name})")
    messages = [Message("user", "Weather in Paris?"), Message("assistant", "", tool_calls=[CALL])]
    try:
        spans = render_spans(messages, dialect=name, tools=TOOLS, strftime_now=lambda f: "DATE")
    except tooletta.ToolettaError:
        pytest.skip("the format refuses the sample")
    _, (start, end) = spans.generated_spans()[0]
    generated = spans.text[start:end]
    turn = tooletta.render([CALL], model=model, end_of_turn=True)
    assert turn == generated
    plain = tooletta.render([CALL], model=model)
    assert turn.startswith(plain)
    assert tooletta.parse(plain, tooletta.dialect_for_model(model) or "auto").calls
