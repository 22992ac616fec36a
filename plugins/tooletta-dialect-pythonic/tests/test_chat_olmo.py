"""Olmo 3.1 Instruct conversations against the model's own template (vendored)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import Message, ToolCall, ToolettaError
from tooletta.chat.jinja import render_jinja
from tooletta.chat.messages import read_conversation
from tooletta.testing.conversations import SAMPLE_TOOLS, ConversationTests

TEMPLATE = Path(__file__).parent / "templates" / "Olmo-3.1-32B-Instruct.jinja"
TOKENS = {"eos_token": "<|endoftext|>"}
OLMO31 = "allenai/Olmo-3.1-32B-Instruct"


class TestOlmo31InstructChat(ConversationTests):
    model = OLMO31
    template = TEMPLATE
    tokens = TOKENS


def _template(messages: list[Message], tools: list[dict[str, Any]] | None = None) -> str:
    source = TEMPLATE.read_text(encoding="utf-8")
    return render_jinja(source, read_conversation(messages), tools=tools, tokens=TOKENS)


def test_model_ids_route_to_the_instruct_variant() -> None:
    assert tooletta.dialect_for_model(OLMO31) == "olmo3_instruct"
    assert tooletta.dialect_for_model("allenai/Olmo-3-7B-Instruct") == "olmo3_instruct"
    assert tooletta.dialect_for_model("allenai/Olmo-3-7B-Think") == "olmo3"


def test_instruct_turn_writes_tojson_values_right_after_the_content() -> None:
    calls = [
        ToolCall("f", {"s": 'say "hi"\n東京', "n": 1.5, "ok": True, "none": None}),
        ToolCall("g", {"obj": {"a": [1, "x"]}}),
    ]
    text = tooletta.render(calls, model=OLMO31, content="Sure.")
    assert text == (
        'Sure.<function_calls>f(s="say \\"hi\\"\\n東京", n=1.5, ok=true, none=null)\n'
        'g(obj={"a": [1, "x"]})</function_calls>'
    )
    assert tooletta.parse(text, dialect="olmo3").calls == calls
    assert tooletta.render(calls, model="allenai/Olmo-3-7B-Instruct", content="Sure.") == text
    assert tooletta.render(calls, dialect="olmo3_instruct", content="Sure.") == text


def test_default_dialect_form_is_unchanged() -> None:
    text = tooletta.render([ToolCall("f", {"a": "x"})], dialect="olmo3")
    assert text == "<function_calls>\nf(a='x')\n</function_calls>"


def test_last_assistant_turn_ends_with_eos_and_others_with_im_end() -> None:
    messages = [
        Message("user", "Hi"),
        Message("assistant", "Hello."),
        Message("user", "Bye"),
        Message("assistant", "Bye."),
    ]
    text = tooletta.render_conversation(messages, model=OLMO31)
    assert text == _template(messages)
    assert "Hello.<|im_end|>\n" in text
    assert text.endswith("Bye.<|endoftext|>")
    assert tooletta.parse_conversation(text, model=OLMO31) == messages


def test_system_message_with_declarations_reads_back() -> None:
    messages = [Message("system", "Be brief."), Message("user", "Weather?")]
    text = tooletta.render_conversation(messages, model=OLMO31, tools=SAMPLE_TOOLS)
    assert text == _template(messages, tools=SAMPLE_TOOLS)
    assert text.startswith("<|im_start|>system\nBe brief.<functions>[{")
    assert tooletta.parse_conversation(text, model=OLMO31, tools=SAMPLE_TOOLS) == messages


def test_olmo3_7b_instruct_has_no_pinned_conversation_format() -> None:
    """Its own template could not be read (see the README): refused, not guessed."""
    with pytest.raises(ToolettaError, match="olmo31_instruct"):
        tooletta.render_conversation([Message("user", "Hi")], model="allenai/Olmo-3-7B-Instruct")


@pytest.mark.parametrize("tools", [None, SAMPLE_TOOLS])
def test_a_later_system_message_replaces_the_default_prompt(
    tools: list[dict[str, Any]] | None,
) -> None:
    """The template writes its default prompt only when no message is a system message, and
    declares the tools after every system message."""
    messages = [Message("user", "Hi"), Message("system", "Later."), Message("user", "x")]
    text = tooletta.render_conversation(messages, model=OLMO31, tools=tools)
    assert text == _template(messages, tools=tools)
    assert tooletta.parse_conversation(text, model=OLMO31, tools=tools) == messages


def test_sft_checkpoints_are_not_given_the_released_template() -> None:
    """``-SFT``/``-DPO`` checkpoints shipped another tokenizer (another default prompt)."""
    with pytest.raises(ToolettaError, match="olmo31_instruct"):
        tooletta.render_conversation(
            [Message("user", "Hi")], model="allenai/Olmo-3.1-32B-Instruct-SFT"
        )
