"""MiniMax-M2 conversations against the model's own template (vendored): the first revision
(``minimax_m2``, the pinned id; the plain id's current text is in test_named.py), and the
system message's keys every M2-family template reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat.jinja import render_jinja
from tooletta.chat.messages import read_conversation
from tooletta.testing.conversations import ConversationTests

TEMPLATES = Path(__file__).parent / "templates"
MODEL = "MiniMaxAI/MiniMax-M2@llama.cpp-1920345c3"
"""The first revision of M2's template (``minimax_m2``), pinned to the llama.cpp commit that
vendored it (the plain id renders the text the repository serves now: test_named.py)."""


class TestMinimaxM2Chat(ConversationTests):
    model = MODEL
    template = TEMPLATES / "MiniMax-M2.jinja"
    list_content = ("system", "user", "assistant")
    options = ({}, {"model_identity": "You are a test model."}, {"model_identity": ""})


def test_model_turn_with_reasoning_and_calls() -> None:
    """The generation prompt ends in ``<think>\\n``: the model's turn starts after it."""
    text = tooletta.render(
        [ToolCall("f", {"a": "x", "n": 1})], model=MODEL, content="Sure.", reasoning="Plan."
    )
    assert text == (
        'Plan.\n</think>\n\nSure.\n<minimax:tool_call>\n<invoke name="f">\n'
        '<parameter name="a">x</parameter>\n<parameter name="n">1</parameter>\n</invoke>\n'
        "</minimax:tool_call>"
    )


def test_default_identity_is_written_without_a_system_message() -> None:
    text = tooletta.render_conversation([Message("user", "hi")], model=MODEL)
    assert text == "]~!b[]~b]system\nYou are a helpful assistant.[e~[\n]~b]user\nhi[e~[\n"
    assert tooletta.parse_conversation(text, model=MODEL) == [Message("user", "hi")]


_DATED = (
    (MODEL, "MiniMax-M2.jinja"),
    ("MiniMaxAI/MiniMax-M2", "MiniMaxAI-MiniMax-M2.jinja"),
    ("MiniMaxAI/MiniMax-M2.1", "MiniMaxAI-MiniMax-M2.1.jinja"),
    ("MiniMaxAI/MiniMax-M2.5", "MiniMax-M2.5.jinja"),
    ("MiniMaxAI/MiniMax-M2.7", "MiniMax-M2.7.jinja"),
)
"""Each M2-family id with the template it verifies."""


def _template_text(file: str, messages: list[dict[str, Any]]) -> str:
    text = (TEMPLATES / file).read_text(encoding="utf-8")
    return render_jinja(text, read_conversation(messages), add_generation_prompt=True)


@pytest.mark.parametrize(("model", "file"), _DATED)
@pytest.mark.parametrize(
    ("key", "value"), [("current_date", "2025-11-01"), ("current_location", "Paris")]
)
def test_a_system_message_key_the_format_does_not_write_is_refused(
    model: str, file: str, key: str, value: str
) -> None:
    """The template writes ``\\nCurrent date: ...`` after the system text; the format does
    not: refused, never dropped silently."""
    messages = [
        {"role": "system", "content": "Be brief.", key: value},
        {"role": "user", "content": "hi"},
    ]
    plain = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]
    assert _template_text(file, messages) != _template_text(file, plain)
    with pytest.raises(RenderError, match=f"does not write the template's '{key}' key"):
        tooletta.render_conversation(messages, model=model, add_generation_prompt=True)


@pytest.mark.parametrize(("model", "file"), _DATED)
def test_the_key_unset_or_on_another_role_renders_as_the_template(model: str, file: str) -> None:
    conversations: list[list[dict[str, Any]]] = [
        [
            {"role": "system", "content": "Be brief.", "current_date": None},
            {"role": "user", "content": "hi"},
        ],
        [{"role": "user", "content": "hi", "current_date": "2025-11-01"}],
    ]
    for messages in conversations:
        got = tooletta.render_conversation(messages, model=model, add_generation_prompt=True)
        assert got == _template_text(file, messages)


def test_the_options_of_those_names_are_not_read() -> None:
    """As render options the template does not read them (it reads the system message's
    keys): ignored, as the template ignores them."""
    messages = [{"role": "user", "content": "hi"}]
    got = tooletta.render_conversation(
        messages, model=MODEL, add_generation_prompt=True, current_date="2025-11-01"
    )
    assert got == _template_text("MiniMax-M2.jinja", messages)


@pytest.mark.parametrize(("model", "file"), _DATED)
@pytest.mark.parametrize("key", ["current_date", "current_location"])
def test_the_key_is_read_on_the_first_message_only(model: str, file: str, key: str) -> None:
    """The template reads the key on ``messages[0]`` (when a system message) and nowhere
    else: on a later system message it is ignored by both (the template drops a later
    system message whole, which the format does not: compared with and without the key);
    ``None`` and ``""`` write nothing on the first one either."""
    later: list[dict[str, Any]] = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "hi"},
        {"role": "system", "content": "Now in French.", key: "Paris"},
        {"role": "user", "content": "salut"},
    ]
    plain = [{k: v for k, v in m.items() if k != key} for m in later]
    assert _template_text(file, later) == _template_text(file, plain)
    got = tooletta.render_conversation(later, model=model, add_generation_prompt=True)
    assert got == tooletta.render_conversation(plain, model=model, add_generation_prompt=True)
    for neutral in (None, ""):
        first = [{**later[0], key: neutral}, *later[1:2]]
        assert _template_text(file, first) == _template_text(file, later[:2])
        got = tooletta.render_conversation(first, model=model, add_generation_prompt=True)
        assert got == _template_text(file, first)
    with pytest.raises(RenderError, match="message 0: "):
        tooletta.render_conversation(
            [{**later[0], key: "x"}, *later[1:]], model=model, add_generation_prompt=True
        )
