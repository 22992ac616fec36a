"""MiniMax-M2.5's and M2.7's chat templates (``minimax_m25``, ``minimax_m27``) against the
templates byte for byte, and the M2-family ids that no checked template covers."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tooletta_dialect_minimax.named import M25_IDENTITY, M27_IDENTITY

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat import identify, resolve_format
from tooletta.testing.conversations import (
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
)

TEMPLATES = Path(__file__).parent / "templates"
M2 = TEMPLATES / "MiniMax-M2.jinja"
M25 = TEMPLATES / "MiniMax-M2.5.jinja"
M27 = TEMPLATES / "MiniMax-M2.7.jinja"
M25_MODEL = "MiniMaxAI/MiniMax-M2.5"
M27_MODEL = "MiniMaxAI/MiniMax-M2.7"


class TestMinimaxM25Chat(ConversationTests):
    model = M25_MODEL
    template = M25
    list_content = ("system", "user", "assistant")
    options = ({}, {"model_identity": "You are a test model."}, {"model_identity": ""})


class TestMinimaxM27Chat(ConversationTests):
    model = M27_MODEL
    template = M27
    list_content = ("system", "user", "assistant")
    options = ({}, {"model_identity": "You are a test model."}, {"model_identity": ""})


@pytest.mark.parametrize(
    ("model", "name"),
    [
        (M25_MODEL, "minimax_m25"),
        ("MiniMaxAI/MiniMax-M2.5-FP8", "minimax_m25"),
        ("minimax-m2.5", "minimax_m25"),
        (M27_MODEL, "minimax_m27"),
        ("minimax-m2.7", "minimax_m27"),
        ("MiniMaxAI/MiniMax-M2", "minimax_m2"),
    ],
)
def test_each_release_renders_its_own_template(model: str, name: str) -> None:
    fmt, _ = resolve_format(model, None)
    assert fmt.name == name


@pytest.mark.parametrize(
    ("model", "identity"), [(M25_MODEL, M25_IDENTITY), (M27_MODEL, M27_IDENTITY)]
)
def test_the_default_identity_names_the_model(model: str, identity: str) -> None:
    messages = [Message("user", "hi")]
    text = tooletta.render_conversation(messages, model=model)
    assert text == f"]~!b[]~b]system\n{identity}[e~[\n]~b]user\nhi[e~[\n"
    assert tooletta.parse_conversation(text, model=model) == messages
    m2 = tooletta.render_conversation(messages, model="MiniMaxAI/MiniMax-M2")
    assert "Your name is" not in m2  # M2's template keeps the unnamed identity


def test_identify_names_each_release() -> None:
    for path, name in ((M25, "minimax_m25"), (M27, "minimax_m27"), (M2, "minimax_m2")):
        ident = identify(path)
        assert (ident.format, ident.dialect, ident.known) == (name, "minimax_m2", True), path
        assert not ident.differences


def test_another_releases_template_is_a_drift_error() -> None:
    messages = [Message("user", "hi")]
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(
            messages, model=M25_MODEL, chat_template=M2.read_text(encoding="utf-8")
        )
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(
            messages, model="MiniMaxAI/MiniMax-M2", chat_template=M27.read_text(encoding="utf-8")
        )
    given = tooletta.render_conversation(
        messages, model=M27_MODEL, chat_template=M27.read_text(encoding="utf-8")
    )
    assert given == tooletta.render_conversation(messages, model=M27_MODEL)


def test_unchecked_m2_family_ids_keep_only_the_calls() -> None:
    # MiniMax-M2.1's template was not available: its conversations are refused, never
    # written in another release's format; its calls are the family's dialect
    with pytest.raises(tooletta.ToolettaError, match="chat_template="):
        tooletta.render_conversation([Message("user", "hi")], model="MiniMaxAI/MiniMax-M2.1")
    text = tooletta.render([ToolCall("f", {"a": "x"})], model="MiniMaxAI/MiniMax-M2.1")
    assert text.startswith('\n<minimax:tool_call>\n<invoke name="f">')


_TEXTS = st.text(st.sampled_from("ab \n."), max_size=5)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([(M25_MODEL, M25), (M27_MODEL, M27)]),
    st.one_of(st.none(), _TEXTS),
    st.lists(_TEXTS, min_size=1, max_size=3),
    st.booleans(),
)
def test_random_conversations_match_the_template(
    release: tuple[str, Path], system: str | None, turns: list[str], tools: bool
) -> None:
    model, path = release
    messages = [] if system is None else [Message("system", system)]
    for i, text in enumerate(turns):
        messages.append(Message("user" if i % 2 == 0 else "assistant", text))
    declared = SAMPLE_TOOLS if tools else None
    template = path.read_text(encoding="utf-8")
    check_matches_template(template, messages, model=model, tools=declared)
    check_conversation_round_trip(messages, model=model, tools=declared)
