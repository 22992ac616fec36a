"""Gemma 4's revised chat template (spring 2026, vLLM's sync of the model's HF file): the
``gemma4-2604`` format, against that template byte for byte, and what the revision changed
from the earlier one (``gemma4``, ``test_chat.py``). The Gemma 4 ids now render the canonical
template of July 2026 (``gemma4-2607``, ``test_canonical.py``); this revision is reached by
:data:`MODEL`, the model id pinned at the vLLM commit that synced it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tooletta_dialect_gemma.chat import declaration
from tooletta_dialect_gemma.revised import revised_declaration, system_parts_text

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat import identify, resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.chat.messages import read_conversation, read_tool_definitions
from tooletta.testing.conversation_properties import round_trip_property
from tooletta.testing.conversations import (
    PROBE_TOOLS,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
    sample_conversations,
)
from tooletta.testing.samples import chained_call_conversations

TEMPLATES = Path(__file__).parent / "templates"
REVISED = TEMPLATES / "google-gemma-4-31B-it-2604.jinja"
EARLIER = TEMPLATES / "google-gemma-4-31B-it.jinja"
MODEL = "google/gemma-4-31b-it@vllm-03a5e855"
"""The spring revision's row (``models.py``): the model id at the vLLM sync vendored here."""
CURRENT = "google/gemma-4-31B-it"
"""The Gemma 4 id, which renders the canonical template (``gemma4-2607``)."""
EARLIER_MODEL = "google/gemma-4-31b-it@llama.cpp-3fc65063d"
NAME = "gemma4-2604"
TOKENS = {"bos_token": "<bos>"}

CONTENT_AFTER_RESULTS = (
    "as in the earlier revision, the template writes a calls turn's content after the tool "
    "results and closes the turn there, so the answer that follows has no turn header; we "
    "write the content with its calls, before the results (test_chat.py: "
    "test_content_beside_calls_is_written_before_the_results)"
)

KEYWORD_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "classify",
        "description": "Parameters named after schema keys.",
        "parameters": {
            "type": "object",
            "properties": {
                "type": {"type": "string", "enum": ["a", "b"]},
                "description": {"type": "string", "description": "Free text"},
                "meta": {
                    "type": "object",
                    "properties": {
                        "required": {"type": "boolean"},
                        "nullable": {"type": "integer", "nullable": True},
                    },
                    "required": ["required"],
                },
                "rows": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"properties": {"type": "string"}, "id": {"type": "integer"}},
                    },
                },
                "loose": {"type": "object", "description": "Its own properties", "x": {}},
            },
            "required": ["type"],
        },
    },
}
"""A tool whose parameters are named ``type``, ``description``, ``required``, ``nullable``
and ``properties`` (the revision declares them; the earlier one dropped them), and an
object property without ``properties`` (read as its own: the standard keys still left out)."""


def _ask() -> Message:
    return Message("user", "What's the weather in Paris?")


def revision_cases() -> dict[str, tuple[list[Message], bool]]:
    """Chained calls with reasoning, results before a user turn, a conversation ending with
    results, and the calls turns whose content the revision's ``has_content`` reads as empty
    (spaces; a thought channel alone): the turn goes on after the results."""
    weather = ToolCall("get_weather", {"city": "Paris"}, "c1")
    r1 = Message("tool", "sunny", tool_call_id="c1")
    return {
        **chained_call_conversations(),
        "spaces_beside_calls": (
            [
                _ask(),
                Message("assistant", "   ", tool_calls=[weather]),
                r1,
                Message("assistant", "ok"),
            ],
            True,
        ),
        "thought_beside_calls": (
            [
                _ask(),
                Message("assistant", "<|channel>thought\nhmm<channel|>", tool_calls=[weather]),
                r1,
                Message("assistant", "Sunny."),
            ],
            True,
        ),
    }


class TestGemma4RevisedChat(ConversationTests):
    model = MODEL
    template = REVISED
    list_content = ("system", "user", "assistant")
    tokens = TOKENS
    options = ({}, {"enable_thinking": True})
    allow_markup = True  # thought_beside_calls: the template cuts a thought left in the content
    ids = True  # the template names a result after the call whose id it answers
    tools = (*SAMPLE_TOOLS, KEYWORD_TOOL)
    differences = {  # noqa: RUF012 - the kit's declared class attribute
        "tools_two_calls": CONTENT_AFTER_RESULTS,
        "tools_no_system": CONTENT_AFTER_RESULTS,
    }

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        return {**sample_conversations(ids=self.ids), **revision_cases()}


def _render(path: Path, messages: list[Message], tools: Any = None, **options: Any) -> str:
    return render_jinja(
        path.read_text(encoding="utf-8"),
        read_conversation(messages),
        tools=read_tool_definitions(tools),
        tokens=TOKENS,
        **options,
    )


def test_the_revision_stays_reachable_by_its_pinned_id() -> None:
    fmt, _ = resolve_format(MODEL, None)
    assert fmt.name == NAME
    for model in (CURRENT, "google/gemma-4-31B", "gemma-4-31b-it"):
        fmt, _ = resolve_format(model, None)
        assert fmt.name == "gemma4-2607", model  # the canonical template's (the drift fixed)
    messages = [Message("user", "hi")]
    assert tooletta.render_conversation(messages, model=MODEL, tools=[KEYWORD_TOOL]) == (
        _render(REVISED, messages, [KEYWORD_TOOL])
    )


def test_the_earlier_revision_stays_reachable() -> None:
    messages = [Message("user", "hi")]
    earlier = _render(EARLIER, messages, [KEYWORD_TOOL])
    by_id = tooletta.render_conversation(messages, model=EARLIER_MODEL, tools=[KEYWORD_TOOL])
    by_dialect = tooletta.render_conversation(messages, dialect="gemma4", tools=[KEYWORD_TOOL])
    assert by_id == by_dialect == earlier
    assert earlier != _render(REVISED, messages, [KEYWORD_TOOL])  # the revision's change


def test_identify_names_each_revision() -> None:
    revised = identify(REVISED)
    assert (revised.format, revised.dialect, revised.known) == (NAME, "gemma4", True)
    assert [d.probe for d in revised.differences] == ["content_and_call"]
    earlier = identify(EARLIER)
    assert (earlier.format, earlier.known) == ("gemma4", True)


def test_model_with_the_earlier_template_is_a_drift_error() -> None:
    # the id names the revised template; given the earlier one, no silent old render
    messages = [Message("user", "hi")]
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(
            messages, model=MODEL, chat_template=EARLIER.read_text(encoding="utf-8")
        )
    with_revised = tooletta.render_conversation(
        messages, model=MODEL, chat_template=REVISED.read_text(encoding="utf-8"), tools=SAMPLE_TOOLS
    )
    assert with_revised == tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)


def test_parameters_named_after_schema_keys_are_declared() -> None:
    function = KEYWORD_TOOL["function"]
    ours = revised_declaration(KEYWORD_TOOL)
    for name in ("type:{enum:", "description:{description:", "required:{type:"):
        assert name in ours, name
    assert "nullable:{nullable:true," in ours
    assert ',properties:{type:<|"|>STRING' in ours  # inside an array's items
    # an object property without properties, read as its own: the standard keys left out
    assert 'loose:{description:<|"|>Its own properties<|"|>,properties:{x:{' in ours
    earlier = declaration(KEYWORD_TOOL)
    assert "type:{" not in earlier and "description:{" not in earlier
    assert "meta:{properties:{}," in earlier and function["name"] in earlier


def test_a_content_written_as_nothing_goes_on_in_the_turn() -> None:
    # the revision's has_content: the earlier template closed the turn after the results
    # here (raw content), leaving the answer headerless; the revision writes what gemma4
    # already wrote
    messages, _ = revision_cases()["spaces_beside_calls"]
    revised = _render(REVISED, messages)
    assert "<tool_response|>ok<turn|>\n" in revised
    assert "<tool_response|><turn|>\nok" in _render(EARLIER, messages)
    assert tooletta.render_conversation(messages, model=MODEL) == revised
    assert tooletta.render_conversation(messages, model=EARLIER_MODEL) == revised


def test_parse_reads_the_templates_own_text() -> None:
    messages, _ = sample_conversations(ids=True)["reasoning_multi_turn"]
    text = _render(REVISED, messages, [*SAMPLE_TOOLS, KEYWORD_TOOL])
    back = tooletta.parse_conversation(text, model=MODEL, tools=SAMPLE_TOOLS)
    assert [m.role for m in back] == [m.role for m in messages]
    assert [m.name for m in back if m.role == "tool"] == ["get_weather", "get_time", "get_weather"]


def test_system_parts_are_written_each_trimmed_then_a_space() -> None:
    parts = [{"type": "text", "text": " You are helpful. "}, {"type": "text", "text": "Be brief."}]
    messages = [Message("system", parts), Message("user", "hi")]
    text = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    assert text.startswith("<bos><|turn>system\nYou are helpful. Be brief. <|tool>")
    assert text == _render(REVISED, messages, SAMPLE_TOOLS)
    back = tooletta.parse_conversation(text, model=MODEL, tools=SAMPLE_TOOLS)
    assert back[0] == Message("system", "You are helpful. Be brief. ")
    # the earlier revision wrote the list's repr; gemma4 writes the parts joined, trimmed
    earlier = tooletta.render_conversation(messages, dialect="gemma4")
    assert earlier.startswith("<bos><|turn>system\nYou are helpful. Be brief.<turn|>")
    assert system_parts_text([{"type": "image"}, "x"]) == "  "
    with pytest.raises(tooletta.RenderError):
        system_parts_text([{"type": "text", "text": 5}])


_TEXTS = st.text(st.sampled_from("ab \n\t."), max_size=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["system", "developer"]),
    st.lists(_TEXTS, min_size=1, max_size=3),
    st.booleans(),
)
def test_random_system_parts_match_the_template(role: str, texts: list[str], tools: bool) -> None:
    messages = [Message(role, [{"type": "text", "text": t} for t in texts]), Message("user", "q")]
    declared = SAMPLE_TOOLS if tools else None
    template = REVISED.read_text(encoding="utf-8")
    check_matches_template(template, messages, model=MODEL, tools=declared, tokens=TOKENS)
    check_conversation_round_trip(messages, model=MODEL, tools=declared)


_NAMES = st.sampled_from(
    ["type", "description", "properties", "required", "nullable", "city", "Zeta", "a_b"]
)
_LEAF_TYPES = st.sampled_from(["string", "integer", "number", "boolean", "STRING"])


def _schemas() -> st.SearchStrategy[dict[str, Any]]:
    leaf = st.fixed_dictionaries(
        {"type": _LEAF_TYPES},
        optional={
            "description": st.sampled_from(["", "Some text"]),
            "nullable": st.booleans(),
            "enum": st.lists(st.sampled_from(["x", "y"]), max_size=2),
        },
    )

    def nest(inner: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
        props = st.dictionaries(_NAMES, inner, max_size=3)
        obj = st.fixed_dictionaries(
            {"type": st.just("object")},
            optional={
                "properties": props,
                "required": st.lists(_NAMES, max_size=2),
                "description": st.just("An object"),
                "extra": inner,
            },
        )
        arr = st.fixed_dictionaries(
            {"type": st.just("array")},
            optional={
                "items": st.one_of(
                    inner,
                    st.fixed_dictionaries({"type": st.just("object"), "properties": props}),
                )
            },
        )
        return st.one_of(obj, arr)

    return st.recursive(leaf, nest, max_leaves=6)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_NAMES, _schemas(), min_size=1, max_size=4), st.lists(_NAMES, max_size=2))
def test_random_declarations_match_the_template(
    properties: dict[str, Any], required: list[str]
) -> None:
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    tool = {
        "type": "function",
        "function": {"name": "f", "description": "d", "parameters": parameters},
    }
    check_matches_template(
        REVISED.read_text(encoding="utf-8"),
        [Message("user", "hi")],
        model=MODEL,
        tools=[tool],
        tokens=TOKENS,
        add_generation_prompt=True,
    )


test_random_conversations_round_trip = round_trip_property(
    MODEL, tools=[*PROBE_TOOLS, KEYWORD_TOOL]
)
