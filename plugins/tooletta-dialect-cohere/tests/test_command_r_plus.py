"""The command_r_plus variant against Command R+'s own tool-use template (vendored)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat.jinja import render_jinja

TEMPLATE = Path(__file__).parent / "templates" / "CohereForAI-c4ai-command-r-plus-tool_use.jinja"
MODEL = "CohereForAI/c4ai-command-r-plus-08-2024"
HEAD = "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>"
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string", "description": "City"}},
                "required": ["city"],
            },
        },
    }
]
"""A tool whose parameters have descriptions (the template reads them, and fails without)."""
NEXT = "<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|>Write 'Action:'"


@pytest.mark.parametrize(
    ("content", "calls"),
    [
        (
            "Let me check both.",
            [
                ToolCall("get_weather", {"city": "東京", "days": 2}),
                ToolCall("get_time", {"tz": "Europe/Paris"}),
            ],
        ),
        ("", [ToolCall("get_time", {})]),
        ("", [ToolCall("get_weather", {"city": "P", "nested": {"a": [1, {"b": None}], "e": []}})]),
    ],
)
def test_render_model_equals_the_template_turn(content: str, calls: list[ToolCall]) -> None:
    messages = [Message("user", "Hi"), Message("assistant", content, tool_calls=calls)]
    expected = render_jinja(TEMPLATE.read_text(encoding="utf-8"), messages, tools=TOOLS)
    turn = expected[expected.index(HEAD) + len(HEAD) : expected.index(NEXT)]
    assert tooletta.render(calls, model=MODEL, content=content) == turn
    back = tooletta.parse(turn, "command_r_plus")
    assert back.calls == calls and back.content == content


def test_variant_by_name_and_model() -> None:
    assert tooletta.dialect_for_model(MODEL) == "command_r_plus"
    assert tooletta.dialect_for_model("CohereForAI/c4ai-command-r-plus") == "command_r_plus"
    assert tooletta.dialect_for_model("CohereForAI/c4ai-command-r7b-12-2024") == "cohere"
    text = tooletta.render([ToolCall("f", {})], "command_r_plus")
    assert tooletta.detect(text) == "cohere"  # a variant is never detected; its base reads it
    assert tooletta.parse(text, "cohere").calls == [ToolCall("f", {})]


def test_base_default_unchanged() -> None:
    assert tooletta.render([ToolCall("f", {})], "cohere").startswith("<|START_THINKING|>")


def test_refuses_a_name_it_cannot_write_unquoted() -> None:
    with pytest.raises(tooletta.RenderError):
        tooletta.render([ToolCall('a"b', {})], "command_r_plus")
