"""GLM-4.6 and GLM-4.7 conversations against the models' own templates (vendored)."""

from __future__ import annotations

from pathlib import Path

import tooletta
from tooletta import ToolCall
from tooletta.testing.conversations import ConversationTests

TEMPLATES = Path(__file__).parent / "templates"


class TestGlm46Chat(ConversationTests):
    model = "zai-org/GLM-4.6"
    template = TEMPLATES / "GLM-4.6.jinja"
    list_content = ("system", "user", "assistant")
    options = ({}, {"enable_thinking": False})


class TestGlm47Chat(ConversationTests):
    model = "zai-org/GLM-4.7"
    template = TEMPLATES / "GLM-4.7-Flash.jinja"
    list_content = ("system", "user", "assistant")
    options = ({}, {"enable_thinking": False})


def test_model_picks_the_variant() -> None:
    assert tooletta.dialect_for_model("zai-org/GLM-4.6") == "glm46"
    assert tooletta.dialect_for_model("zai-org/GLM-4.7") == "glm45"
    calls = [ToolCall("f", {"a": 1, "b": "x"})]
    assert tooletta.render(calls, model="zai-org/GLM-4.6") == (
        "\n<think></think>\n<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n"
        "<arg_key>b</arg_key>\n<arg_value>x</arg_value>\n</tool_call>"
    )
    assert tooletta.render(calls, "glm46") == (
        "\n<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n"
        "<arg_key>b</arg_key>\n<arg_value>x</arg_value>\n</tool_call>"
    )
    assert tooletta.parse(tooletta.render(calls, "glm46"), "glm45").calls == calls


def test_glm47_turn_starts_after_the_prompts_think() -> None:
    text = tooletta.render([ToolCall("f", {})], model="zai-org/GLM-4.7", reasoning="R")
    assert text == "R</think><tool_call>f</tool_call>"
    assert tooletta.parse(text, "glm45", prefix="<think>").reasoning == "R"
