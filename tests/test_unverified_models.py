"""Ids claimed by their name only (issue 21, item 5): a model id whose organisation no
matching pattern names renders the vendor's format with an ``UnverifiedModelWarning``; the
vendor's own ids, bare names, an explicit ``dialect=``, a template given beside the id and
``parse`` do not warn."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import Message, UnverifiedModelWarning, catalog
from tooletta.plugins import get_registry
from tooletta.rows import name_only_claim, org_qualified

ROOT = Path(__file__).resolve().parent.parent
QWEN3 = ROOT / "plugins" / "tooletta-dialect-hermes" / "tests" / "templates" / "Qwen3.jinja"
QWEN25 = (
    ROOT
    / "plugins"
    / "tooletta-dialect-hermes"
    / "tests"
    / "templates"
    / "Qwen-Qwen2.5-7B-Instruct.jinja"
)
MESSAGES = [Message("user", "What's the weather in Paris?")]


@pytest.fixture(autouse=True)
def _fresh() -> Iterator[None]:
    """Each test sees the first resolution of its ids (the warning is given once per id)."""
    catalog._WARNED.clear()
    yield
    catalog._WARNED.clear()


def _caught(call: Callable[[], Any]) -> tuple[Any, list[warnings.WarningMessage]]:
    """What ``call`` returns and the warnings it gave (every one, none filtered)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [w for w in caught if issubclass(w.category, UnverifiedModelWarning)]


def test_a_reupload_renders_the_vendor_format_with_a_warning() -> None:
    text, caught = _caught(lambda: tooletta.render_conversation(MESSAGES, model="unsloth/Qwen3-8B"))
    assert text == tooletta.render_conversation(MESSAGES, model="Qwen/Qwen3-8B")
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "'unsloth/Qwen3-8B'" in message
    assert "'qwen3-8b'" in message  # the pattern
    assert "'qwen3'" in message  # the format
    assert "chat_template=" in message
    assert catalog.unverified_claim("unsloth/Qwen3-8B") == "qwen3-8b"
    assert catalog.unverified_claim("Qwen/Qwen3-8B") is None
    assert catalog.unverified_claim("acme/no-such-model") is None
    assert issubclass(UnverifiedModelWarning, tooletta.ToolettaWarning)


@pytest.mark.parametrize(
    "model", ["Qwen/Qwen3-8B", "qwen/qwen3-8b", "Qwen3-8B", "google/gemma-4-31b-it"]
)
def test_vendor_ids_and_bare_names_do_not_warn(model: str) -> None:
    _, caught = _caught(lambda: tooletta.render_conversation(MESSAGES, model=model))
    assert caught == []


def test_once_per_id_in_a_process() -> None:
    """A dataset of many conversations for one id gets one warning, whichever entry point."""

    def many() -> None:
        for _ in range(5):
            text = tooletta.render_conversation(MESSAGES, model="unsloth/Qwen3-8B")
            tooletta.parse_conversation(text, model="unsloth/Qwen3-8B")

    _, caught = _caught(many)
    assert len(caught) == 1
    _, caught = _caught(lambda: tooletta.render_conversation(MESSAGES, model="unsloth/Qwen3-4B"))
    assert len(caught) == 1  # another id: its own warning


def test_a_template_given_beside_the_id_is_checked_instead() -> None:
    template = QWEN3.read_text("utf-8")
    text, caught = _caught(
        lambda: tooletta.render_conversation(
            MESSAGES, model="unsloth/Qwen3-8B", chat_template=template
        )
    )
    assert caught == []
    assert text == tooletta.render_conversation(MESSAGES, chat_template=template)
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(
            MESSAGES, model="unsloth/Qwen3-8B", chat_template=QWEN25.read_text("utf-8")
        )


def test_an_explicit_dialect_and_parse_do_not_warn() -> None:
    _, caught = _caught(
        lambda: tooletta.render_conversation(MESSAGES, model="unsloth/Qwen3-8B", dialect="qwen3")
    )
    assert caught == []
    calls = [tooletta.ToolCall("get_weather", {"city": "Paris"})]
    text = tooletta.render(calls, "hermes")
    parsed, caught = _caught(lambda: tooletta.parse(text, model="unsloth/Qwen3-8B"))
    assert caught == []
    assert [(c.name, c.arguments) for c in parsed.calls] == [("get_weather", {"city": "Paris"})]


def test_tokenize_conversation_warns_too() -> None:
    pytest.importorskip("tokenizers")
    from tooletta.testing.training import bpe_tokenizer
    from tooletta.training import tokenize_conversation

    fmt_tokens = tooletta.chat.resolve_format(None, "qwen3")[0].special_tokens
    text = tooletta.render_conversation(MESSAGES, model="Qwen/Qwen3-8B")
    tok = bpe_tokenizer([text], fmt_tokens)
    _, caught = _caught(lambda: tokenize_conversation(MESSAGES, tok, model="unsloth/Qwen3-8B"))
    assert len(caught) == 1


def test_every_organisation_qualified_literal_pattern_resolves_without_a_warning() -> None:
    """The ids the rows name exactly (their organisation and name, no wildcard) are the
    vendors' own: resolving each never warns."""
    seen = 0
    for entry in get_registry().models:
        row = entry.row
        if row.chat_name is None:
            continue
        for pattern in row.patterns:
            if not org_qualified(pattern) or any(c in pattern for c in "*?[@"):
                continue
            assert name_only_claim(pattern, row.patterns) is None, pattern
            seen += 1
    assert seen > 20


@pytest.mark.parametrize(
    ("model", "patterns", "claim"),
    [
        ("unsloth/Qwen3-8B", ("Qwen/Qwen3-*", "qwen3-8b"), "qwen3-8b"),
        ("Qwen/Qwen3-8B", ("Qwen/Qwen3-*", "qwen3-8b"), None),  # the organisation matches
        ("Qwen3-8B", ("qwen3-8b",), None),  # no organisation given
        ("acme/hy3-preview", ("tencent/hy3", "*/hy3-*"), "*/hy3-*"),  # any organisation
        ("acme/hy3-preview", ("*/hy3-*", "hy3-*"), "*/hy3-*"),  # the longest
        ("acme/llama-3", ("qwen3-*",), None),  # nothing matches
        ("ACME/QWEN3-8B", ("QWEN3-8B",), "QWEN3-8B"),  # case-insensitively
    ],
)
def test_name_only_claim(model: str, patterns: tuple[str, ...], claim: str | None) -> None:
    assert name_only_claim(model, patterns) == claim


@pytest.mark.parametrize(
    ("pattern", "qualified"),
    [("Qwen/Qwen3-*", True), ("qwen3-8b", False), ("*/hy3-*", False), ("q?en/x", False)],
)
def test_org_qualified(pattern: str, qualified: bool) -> None:
    assert org_qualified(pattern) is qualified
