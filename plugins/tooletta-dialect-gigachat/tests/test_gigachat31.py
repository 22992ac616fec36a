"""The gigachat31 variant against GigaChat 3.1's own template (vendored)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat.jinja import render_jinja

TEMPLATE = Path(__file__).parent / "templates" / "GigaChat3.1-10B-A1.8B.jinja"
MODEL = "ai-sage/GigaChat3.1-10B-A1.8B"
HEAD = "assistant<|role_sep|>\n"
SEP = "<|message_sep|>"


def _template_turn(content: str, calls: list[ToolCall]) -> str:
    messages = [Message("user", "Hi"), Message("assistant", content, tool_calls=calls)]
    text = render_jinja(TEMPLATE.read_text(encoding="utf-8"), messages)
    start = text.rindex(HEAD) + len(HEAD)
    return text[start : text.index(SEP, start)]


@pytest.mark.parametrize(
    ("content", "calls"),
    [
        ("Let me check.", [ToolCall("get_weather", {"city": "東京", "days": 2})]),
        ("", [ToolCall("now", {})]),
        ("", [ToolCall("f", {"o": {"a": [1, None]}, "s": 'q"\\'})]),
    ],
)
def test_render_model_equals_the_template_turn(content: str, calls: list[ToolCall]) -> None:
    turn = _template_turn(content, calls)
    assert tooletta.render(calls, model=MODEL, content=content) == turn
    back = tooletta.parse(turn, "gigachat31")
    assert back.calls == calls and back.content == content


def test_template_writes_only_the_first_call_we_write_all() -> None:
    calls = [ToolCall("a", {"x": 1}), ToolCall("b", {})]
    turn = _template_turn("", calls)
    assert turn == '<|function_call|>{"name": "a", "arguments": {"x": 1}}'  # b is lost
    ours = tooletta.render(calls, model=MODEL)
    assert ours == turn + '<|function_call|>{"name": "b", "arguments": {}}'
    assert tooletta.parse(ours, "gigachat3").calls == calls


def test_variant_by_model_and_base_unchanged() -> None:
    assert tooletta.dialect_for_model(MODEL) == "gigachat31"
    assert tooletta.dialect_for_model("ai-sage/GigaChat3-10B-A1.8B") == "gigachat3"
    base = tooletta.render([ToolCall("f", {})], "gigachat3")
    assert base.startswith("<|message_sep|>\n\nfunction call<|role_sep|>\n")


def test_refuses_a_name_it_cannot_write_unquoted() -> None:
    with pytest.raises(tooletta.RenderError):
        tooletta.render([ToolCall('a"b', {})], "gigachat31")
