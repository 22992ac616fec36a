"""Reasoning has a place wherever a dialect's models write it: ``supports_reasoning`` agrees
with what the dialect's conversation formats write, and ``render(..., reasoning=)`` /
``convert`` write it there so that the dialect's parse reads it back."""

from __future__ import annotations

import warnings

import pytest

import tooletta
from tooletta.chat import chat_formats_of
from tooletta.chat.place import reasoning_turn

CALLS = [tooletta.ToolCall("get_weather", {"city": "Paris", "days": 3})]
REASONING = "The user wants the weather.\nCall the tool."

# Dialects whose models' formats write reasoning that the dialect's own parse of an assistant
# turn does not read back, so render(dialect=...) has no place for it (render_conversation and
# render(model=...) still write it): the reasoning opens in the generation prompt (DeepSeek
# V3.2, Apriel 1.6), or the dialect's reader knows no think block (dots3), or the format writes
# the calls in a turn of their own after the content (Nemotron Nano v2).
NO_READ_BACK = {"deepseek_v32", "apriel", "dots3", "nemotron"}


def _names() -> list[str]:
    return sorted(info.name for info in tooletta.list_dialects())


def _writes_reasoning(name: str) -> bool:
    obj = tooletta.get_dialect(name)
    for fmt in chat_formats_of(obj):
        try:
            if "Need it." in reasoning_turn(fmt, obj, CALLS, "Sure.", "Need it."):
                return True
        except tooletta.ToolettaError:
            continue
    return False


@pytest.mark.parametrize("name", _names())
def test_supports_reasoning_agrees_with_the_conversation_formats(name: str) -> None:
    if _writes_reasoning(name) and name not in NO_READ_BACK:
        assert tooletta.supports_reasoning(name), f"{name}'s models write reasoning"


@pytest.mark.parametrize("name", _names())
def test_reasoning_rendered_where_supported_reads_back(name: str) -> None:
    if not tooletta.supports_reasoning(name):
        with pytest.raises(tooletta.RenderError):
            tooletta.render(CALLS, name, content="Sure.", reasoning=REASONING)
        return
    text = tooletta.render(CALLS, name, content="Sure.", reasoning=REASONING)
    back = tooletta.parse(text, name)
    assert back.reasoning.strip() == REASONING
    assert [(c.name, c.arguments) for c in back.calls] == [(c.name, c.arguments) for c in CALLS]


@pytest.mark.parametrize("name", ["harmony", "kimi_k3", "qwen3_coder", "gemma4", "minimax_m2"])
def test_convert_into_the_same_or_another_format_keeps_reasoning(name: str) -> None:
    source = tooletta.render(CALLS, "harmony", content="", reasoning=REASONING)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = tooletta.convert(source, "harmony", name)
    assert tooletta.parse(out, name).reasoning.strip() == REASONING
