"""llama.cpp's copy of the R1-Distill-Llama-8B template is the model's own, reformatted.

llama.cpp re-indented its copy (#18675: whitespace control moved onto the tags) without
changing a rendered byte. That is what lets the ``deepseek_r1`` row name its digest beside
the model's own revision's: this file proves it, rendering both on identify's whole probe
suite and on the conversation kit's samples, in every message form identify tries
(arguments as a dict or as JSON text, a call-only turn's content ``""`` or ``None``), with a
generation prompt and without. Where the model's template raises, the copy must raise alike.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

from tooletta import Message, ToolettaError
from tooletta.chat import identify
from tooletta.chat.jinja import render_jinja
from tooletta.chat.probes import probe_suite
from tooletta.rows import template_digest
from tooletta.testing.conversations import (
    CALL_SAMPLES,
    SAMPLE_TOOLS,
    ConversationTests,
    list_content_conversations,
)
from tooletta.testing.conversations import sample_conversations as samples

TEMPLATES = Path(__file__).parent / "templates"
OWN = TEMPLATES / "deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja"
COPY = TEMPLATES / "llama-cpp-deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja"
TOKENS = {"bos_token": "<｜begin▁of▁sentence｜>", "eos_token": "<｜end▁of▁sentence｜>"}
FORMS = tuple({"string_arguments": s, "call_content": c} for s in (True, False) for c in ("", None))


def _outcome(template: str, messages: Sequence[Message], **kwargs: Any) -> str:
    """The render, or the error it raises (as text, so that both copies compare)."""
    try:
        return "text: " + render_jinja(template, messages, tokens=TOKENS, **kwargs)
    except ToolettaError as exc:
        return f"error: {type(exc).__name__}: {exc}"


def _cases() -> Iterator[tuple[str, Sequence[Message], dict[str, Any]]]:
    for probe in probe_suite():
        for prompt in (False, True):
            kwargs = {"tools": probe.tools or None, "add_generation_prompt": prompt}
            yield probe.name, probe.messages, {**kwargs, **probe.options}
    for ids in (False, True):
        for name, (messages, uses_tools) in samples(ids=ids).items():
            for prompt in (False, True):
                tools = SAMPLE_TOOLS if uses_tools else None
                yield name, messages, {"tools": tools, "add_generation_prompt": prompt}
        for name, messages in list_content_conversations(ids=ids).items():
            yield name, messages, {"tools": SAMPLE_TOOLS}


def test_the_copy_differs_in_text_only() -> None:
    """The two files are not the same text (else one digest would do)..."""
    own, copy = OWN.read_text(encoding="utf-8"), COPY.read_text(encoding="utf-8")
    assert template_digest(own) != template_digest(copy)


def test_the_copy_renders_every_probe_and_sample_as_the_model_template() -> None:
    """...but render every probe and every kit sample byte for byte alike, or raise alike."""
    own, copy = OWN.read_text(encoding="utf-8"), COPY.read_text(encoding="utf-8")
    compared = texts = 0
    for name, messages, kwargs in _cases():
        for form in FORMS:
            expected = _outcome(own, messages, **kwargs, **form)
            assert _outcome(copy, messages, **kwargs, **form) == expected, (name, kwargs, form)
            compared += 1
            texts += expected.startswith("text: ")
    assert texts > compared // 4  # most cases render (the comparison is not of errors only)


def test_identify_names_the_copy_by_its_digest() -> None:
    """Known by heart as the model's own template is, with the same documented differences."""
    own = identify(OWN.read_text(encoding="utf-8"), **TOKENS)
    copy = identify(COPY.read_text(encoding="utf-8"), **TOKENS)
    assert copy.format == own.format == "deepseek_r1"
    assert copy.known and own.known
    assert copy.differences == own.differences
    assert copy.matched == own.matched


_DROPS = "the model's template's own faults, documented in test_chat.py (_R1_DROPS)"


class TestLlamaCppCopyChat(ConversationTests):
    """The conversation kit's checks against the copy, with the model template's documented
    differences (as ``test_chat.TestDeepSeekR1DistillLlamaChat`` has them)."""

    model = "deepseek-ai/DeepSeek-R1-Distill-Llama-8B"
    template = COPY
    tokens = TOKENS
    string_arguments = True
    differences: ClassVar[Mapping[str, str]] = dict.fromkeys(CALL_SAMPLES, _DROPS)


@pytest.mark.parametrize("path", [OWN, COPY])
def test_both_files_are_vendored(path: Path) -> None:
    assert path.is_file()
