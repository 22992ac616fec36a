"""Content parts that are not text (images, audio, files) are refused where the format writes a
message's text alone: they would vanish from the conversation's text without a word."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import Message, RenderError
from tooletta.chat.format import ChatFormat
from tooletta.chat.messages import non_text_part, text_of

ROOT = Path(__file__).resolve().parent.parent
QWEN3 = ROOT / "plugins/tooletta-dialect-hermes/tests/templates/Qwen3.jinja"
IMAGE = {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}}
AUDIO = {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}}
TEXT = {"type": "text", "text": "What is this?"}


@pytest.mark.parametrize(
    ("content", "found"),
    [
        ("plain", None),
        (None, None),
        ([], None),
        ([TEXT, "more", {"type": "input_text", "text": "x"}], None),
        ([TEXT, IMAGE], "content part 1 is of type 'image_url'"),
        ([AUDIO, TEXT], "content part 0 is of type 'input_audio'"),
        ([{"text": "no type"}], "content part 0 is a part with no text type"),
        ([TEXT, 5], "content part 1 is a int, not a text part"),
    ],
)
def test_non_text_part_names_the_first(content: Any, found: str | None) -> None:
    assert non_text_part(content) == found


def test_text_of_still_reads_the_text_parts() -> None:
    """The reader the scans use is unchanged: it skips what is not text."""
    assert text_of([TEXT, IMAGE, "!"]) == "What is this?!"


@pytest.mark.parametrize("model", ["Qwen/Qwen3-8B", "google/gemma-4-31B-it", "zai-org/GLM-5.1"])
@pytest.mark.parametrize("part", [IMAGE, AUDIO], ids=["image", "audio"])
def test_a_non_text_part_is_refused_naming_message_and_part(model: str, part: Any) -> None:
    messages = [Message("system", "Be brief."), Message("user", [TEXT, part])]
    with pytest.raises(RenderError, match=r"message 1: content part 1 is of type '\w+'.*vanish"):
        tooletta.render_conversation(messages, model=model)
    text_only = [Message("system", "Be brief."), Message("user", [TEXT])]
    assert "What is this?" in tooletta.render_conversation(text_only, model=model)


def test_refused_with_the_template_too() -> None:
    """A template identified as a native format renders natively, with the same check."""
    messages = [Message("user", [TEXT, IMAGE])]
    with pytest.raises(RenderError, match="content part 1"):
        tooletta.render_conversation(messages, chat_template=QWEN3)


def test_refused_in_every_role() -> None:
    messages = [
        Message("user", "Look."),
        Message("assistant", [TEXT, IMAGE]),
    ]
    with pytest.raises(RenderError, match="message 1: content part 1"):
        tooletta.render_conversation(messages, model="Qwen/Qwen3-8B")


def test_a_format_writing_lists_whole_keeps_every_part() -> None:
    """GigaChat 3 writes a content list as JSON (its own ``text``): nothing vanishes, so
    nothing is refused."""
    fmt, _ = tooletta.chat.resolve_format("ai-sage/GigaChat3-10B-A1.8B", None)
    assert type(fmt).text is not ChatFormat.text
    text = tooletta.render_conversation(
        [Message("user", [TEXT, IMAGE])], model="ai-sage/GigaChat3-10B-A1.8B"
    )
    assert '"image_url": {"url": "https://example.com/cat.png"}' in text


def test_every_format_writing_text_parts_refuses() -> None:
    """Over every installed format that writes parts as their text: an image part is refused
    by the check every render path runs first; the formats writing lists their own way pass."""
    from support import installed_formats
    from tooletta.chat.checks import check_conversation

    refusing = 0
    for fmt, dialect in installed_formats().values():
        messages = [Message("user", [TEXT, IMAGE])]
        if type(fmt).text is ChatFormat.text:
            with pytest.raises(RenderError, match="content part 1"):
                check_conversation(fmt, dialect, messages)
            refusing += 1
        else:
            check_conversation(fmt, dialect, messages)
    assert refusing > 50
