"""GLM-4.6 and GLM-4.7 conversations against the models' own templates (vendored)."""

from __future__ import annotations

import fnmatch
from pathlib import Path

import pytest

import tooletta
from tooletta import Message, ToolCall
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


class TestGlm47FlashChat(TestGlm47Chat):
    """The vendored template under its own model id."""

    model = "zai-org/GLM-4.7-Flash"


def _claims(pattern: str, model: str) -> bool:
    """Whether a ``models`` pattern claims ``model`` (the whole id, or its last part)."""
    low = model.lower()
    return fnmatch.fnmatchcase(low, pattern) or fnmatch.fnmatchcase(low.rsplit("/", 1)[-1], pattern)


GLM47_VERIFIED_BY = {"zai-org/glm-4.7*": (TestGlm47Chat, TestGlm47FlashChat)}
"""Each ``glm47`` pattern and the byte-for-byte template tests of the ids it claims (the
vendored template is GLM-4.7-Flash's, see SOURCES.md)."""


def test_every_glm47_pattern_is_verified_by_a_template() -> None:
    fmt, _ = tooletta.chat.resolve_format(None, "glm47")
    assert set(fmt.models) == set(GLM47_VERIFIED_BY)
    for pattern, tests in GLM47_VERIFIED_BY.items():
        for test in tests:
            assert test.model is not None
            assert _claims(pattern, test.model)
            assert tooletta.chat.resolve_format(test.model, None)[0].name == "glm47"
            assert test.template.is_file()


@pytest.mark.parametrize(
    "model", ["zai-org/GLM-5", "zai-org/GLM-5.1", "zai-org/GLM-5.2", "zai-org/GLM-5.1-FP8"]
)
def test_glm5_is_not_given_glm47s_format(model: str) -> None:
    """GLM-5.x's templates differ from GLM-4.7's (GLM-5.1: ``<think></think>`` before past
    answers, bare function objects as declarations; GLM-5.2: a reasoning effort turn) and were
    not available to check: the conversation is refused, the tool-call dialect still known."""
    assert tooletta.dialect_for_model(model) == "glm45"
    with pytest.raises(tooletta.ToolettaError, match="chat_template="):
        tooletta.render_conversation([Message("user", "Hi")], model=model)
    call = [ToolCall("f", {"a": 1})]
    assert tooletta.render(call, model=model) == tooletta.render(call, "glm45")


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


def test_thinking_off_prompt_reads_as_a_prompt_not_an_empty_turn() -> None:
    """Thinking off's generation prompt is the text an empty last assistant turn writes (GLM
    turns have no end token): parse reads it as the prompt, so such a turn is not read back
    (the README's documented ambiguity)."""
    for model, prompt in (
        ("zai-org/GLM-4.6", "<|assistant|>\n<think></think>"),
        ("zai-org/GLM-4.7", "<|assistant|></think>"),
    ):
        user = Message("user", "Hi")
        asked = tooletta.render_conversation(
            [user], model=model, add_generation_prompt=True, enable_thinking=False
        )
        empty = tooletta.render_conversation(
            [user, Message("assistant", "")], model=model, enable_thinking=False
        )
        assert asked == empty
        assert asked.endswith(prompt)
        back = tooletta.parse_conversation(asked, model=model)
        assert back == [Message("user", "Hi/nothink" if "4.6" in model else "Hi")]
