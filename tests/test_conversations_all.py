"""Conversation laws over every installed chat format (the templates themselves are checked
by each plugin's ``ConversationTests``): round trip, spans, generated text."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tooletta
from support import installed_formats
from tooletta import Message
from tooletta.chat import Conversation, notools, render_spans
from tooletta.chat.conversation import conversation
from tooletta.chat.notools import writes_tools
from tooletta.testing.conversation_law import check_tools_refused
from tooletta.testing.conversations import (
    PROBE_TOOLS,
    SAMPLE_TOOLS,
    check_conversation_round_trip,
    random_conversations,
    sample_conversations,
)

FORMATS = [fmt for fmt, _ in installed_formats().values()]


def test_first_party_families_declare_formats() -> None:
    want = {"qwen3", "glm46", "glm47", "llama31", "llama32", "mistral_small32", "mistral_nemo"}
    want |= {"deepseek_v31", "deepseek_r1", "deepseek_v32", "kimi_k2", "kimi_k2_thinking"}
    want |= {"gpt_oss", "granite33", "firefunction_v2", "functionary_v31", "functionary_v32"}
    want |= {"qwen25", "qwq", "mimo_vl", "hermes2pro"}
    want |= {"qwen3_coder", "qwen35", "nemotron3", "step35"}
    want |= {"granite40", "granite41", "nemotron_nano_v2", "kimi_k25", "gemma4"}
    want |= {"command_r7b", "command_r_plus"}
    want |= {"gigachat3", "gigachat31", "seed_oss_36b"}
    want |= {"apertus2509", "apriel15", "apriel16"}
    want |= {"xlam2_qwen", "llama4"}
    assert want <= {f.name for f in FORMATS}


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_round_trip(fmt: Any) -> None:
    for ids in (False, True):
        for name, (messages, uses_tools) in sample_conversations(ids=ids).items():
            try:
                check_conversation_round_trip(
                    messages, dialect=fmt.name, tools=SAMPLE_TOOLS if uses_tools else None
                )
            except AssertionError as exc:
                raise AssertionError(f"{name} (ids={ids}): {exc}") from None


def _refused(fmt: Any, messages: list[Message], tools: Any, prompt: bool = False) -> bool:
    """Whether ``fmt`` writes no tools and the conversation has some: then its refusal is
    asserted (``check_tools_refused``) and the caller checks nothing else."""
    if writes_tools(fmt) or not notools.uses_tools(messages, tools):
        return False
    check_tools_refused(messages, dialect=fmt.name, tools=tools, add_generation_prompt=prompt)
    return True


NO_TOOLS = [fmt for fmt in FORMATS if not writes_tools(fmt)]


def test_formats_writing_no_tools_say_so() -> None:
    """The formats that declare ``writes_tools = False`` (Mistral's Small 3, Large 2411 and
    Codestral texts) have no tool turn, no tools block and no call ids, and the sample
    conversations with tools are refused by every one of them (asserted, not skipped)."""
    assert {f.name for f in NO_TOOLS} >= {"mistral_small3", "mistral_large_2411", "codestral_22b"}
    for fmt in NO_TOOLS:
        assert "tool" not in fmt.turns and fmt.tools_block is None and fmt.call_ids is None
        refused = [
            _refused(fmt, messages, SAMPLE_TOOLS if tools else None)
            for messages, tools in sample_conversations().values()
        ]
        assert any(refused) and not all(refused), fmt.name


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_segments_cover_the_text_in_order(fmt: Any) -> None:
    for messages, with_tools in sample_conversations().values():
        for prompt in (False, True):
            if _refused(fmt, messages, SAMPLE_TOOLS if with_tools else None, prompt):
                continue
            rendered = render_spans(
                messages,
                dialect=fmt.name,
                tools=SAMPLE_TOOLS if with_tools else None,
                add_generation_prompt=prompt,
            )
            position = 0
            for seg in rendered.segments:
                assert seg.start == position < seg.end
                position = seg.end
            assert position == len(rendered.text)
            assert rendered.text == tooletta.render_conversation(
                messages,
                dialect=fmt.name,
                tools=SAMPLE_TOOLS if with_tools else None,
                add_generation_prompt=prompt,
            )


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_every_assistant_turn_is_generated_text_ending_its_turn(fmt: Any) -> None:
    for messages, with_tools in sample_conversations().values():
        if _refused(fmt, messages, SAMPLE_TOOLS if with_tools else None):
            continue
        rendered = render_spans(
            messages, dialect=fmt.name, tools=SAMPLE_TOOLS if with_tools else None
        )
        owners = [i for i, _ in rendered.generated_spans()]
        assistants = [i for i, m in enumerate(messages) if m.role == "assistant"]
        assert owners == assistants
        ctx = Conversation(rendered.messages, [], fmt.options, None)
        for index, (start, end) in rendered.generated_spans():
            turn = rendered.text[start:end]
            if fmt.end_of_turn:  # the turn's own end token ("": none, Command R+ after calls)
                assert turn.endswith(fmt.end_token(index, ctx))


def test_unknown_model_says_how_to_proceed() -> None:
    with pytest.raises(tooletta.UnknownDialectError, match="chat_template"):
        tooletta.render_conversation([], model="nobody/unknown-model")


def test_a_model_without_a_known_template_is_refused_not_guessed() -> None:
    # a hermes model (dialect_for_model knows it) whose template no format declares
    with pytest.raises(tooletta.ToolettaError, match=r"known: .*chat_template"):
        tooletta.render_conversation([], model="arcee-ai/Trinity-Mini")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_conversations(trimmed=False), st.booleans())
def test_the_text_only_renderer_writes_what_the_segmented_one_writes(
    messages: list[Message], prompt: bool
) -> None:
    """``render_conversation`` (hooks left at their defaults skipped) against the writer of
    ``render_spans``, for every format (or the same refusal)."""
    for fmt in FORMATS:
        try:
            want = render_spans(
                messages, dialect=fmt.name, tools=PROBE_TOOLS, add_generation_prompt=prompt
            ).text
        except tooletta.ToolettaError as exc:
            with pytest.raises(type(exc)):
                tooletta.render_conversation(
                    messages, dialect=fmt.name, tools=PROBE_TOOLS, add_generation_prompt=prompt
                )
            continue
        got = tooletta.render_conversation(
            messages, dialect=fmt.name, tools=PROBE_TOOLS, add_generation_prompt=prompt
        )
        assert got == want, fmt.name


def test_conversation_builds_what_the_dataclass_init_builds() -> None:
    args: tuple[list[Message], list[dict[str, Any]], dict[str, Any], object, bool] = (
        [Message("user", "hi")],
        [],
        {"a": 1},
        object(),
        True,
    )
    built = conversation(*args)
    assert built == Conversation(*args)
    assert type(built) is Conversation
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.tools = []  # type: ignore[misc]


_ROLES = st.sampled_from(["system", "user", "assistant", "assistant", "tool"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(_ROLES, st.booleans(), st.sampled_from(["", "<tool_response>x"])), max_size=10
    )
)
def test_kept_in_answers_as_keeps_reasoning_for_every_format(
    shape: list[tuple[str, bool, str]],
) -> None:
    """Each format's per-conversation history rule (``kept_in``, what the renderer asks)
    agrees with its per-turn one (``keeps_reasoning``) on every turn: formats that remember a
    scan in ``Conversation.memo`` find what a scan per turn finds."""
    messages = [
        Message(
            role,
            text + ("</tool_response>" if text else "") if role == "user" else "x",
            tool_calls=[tooletta.ToolCall("f", {})] if calls and role == "assistant" else [],
        )
        for role, calls, text in shape
    ]
    for fmt in FORMATS:
        if fmt.name == "hy3":  # its rule depends on the declared tools (see expressible_for)
            continue
        ctx = conversation(messages, [], dict(fmt.options), None)
        for index, message in enumerate(messages):
            if message.role != "assistant":  # the hooks are asked for assistant turns only
                continue
            assert fmt.kept_in(index, ctx) == fmt.keeps_reasoning(index, messages), (
                fmt.name,
                index,
            )


def _agent_trace(rounds: int, tools: bool = True) -> list[Message]:
    """A long agent trace: a query, ``rounds`` turns of one call and its result, an answer
    (``tools`` false, for a format that writes no tools: ``rounds`` answers and questions)."""
    messages = [Message("user", "go")]
    if not tools:
        for i in range(rounds):
            messages += [Message("assistant", f"step {i}"), Message("user", "next")]
        messages.append(Message("assistant", "done"))
        return messages
    for i in range(rounds):
        call = tooletta.ToolCall("probe", {"s": "x"}, f"call_{i}")
        messages += [
            Message("assistant", "", tool_calls=[call]),
            Message("tool", "ok", tool_call_id=f"call_{i}"),
        ]
    messages.append(Message("assistant", "done"))
    return messages


class _CountingList(list):  # type: ignore[type-arg]
    """A list that counts the elements read from it (by index, slice or iteration)."""

    reads = 0

    def __getitem__(self, key: Any) -> Any:
        got = super().__getitem__(key)
        _CountingList.reads += len(got) if isinstance(key, slice) else 1
        return got

    def __iter__(self) -> Any:
        for item in super().__iter__():
            _CountingList.reads += 1
            yield item


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_history_rule_is_linear_in_the_conversation(fmt: Any) -> None:
    """Asking every turn of a long agent trace (one user message, then 300 calls and results)
    whether it keeps its reasoning reads a bounded number of messages per turn: the rule's
    scan is done once per conversation, not once per turn (counted, not timed)."""
    call = tooletta.ToolCall("f", {})
    messages = _CountingList([Message("user", "go")])
    for _ in range(150):
        messages += [Message("assistant", "", tool_calls=[call]), Message("tool", "ok")]
    messages.append(Message("assistant", "done"))
    ctx = conversation(messages, [], dict(fmt.options), None)
    _CountingList.reads = 0
    for index in range(len(messages)):
        if list.__getitem__(messages, index).role == "assistant":
            fmt.kept_in(index, ctx)
    assert _CountingList.reads <= 8 * len(messages), (fmt.name, _CountingList.reads)


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_rendering_is_linear_in_the_conversation(fmt: Any) -> None:
    """Rendering a long agent trace (one user message, then 200 calls and their results, ids
    given) reads a bounded number of messages per message, whatever the format looks up
    across turns (call numbers, the call a result answers, history rules): counted, not
    timed."""
    from tooletta.chat.lookup import resolve_format
    from tooletta.chat.messages import read_tool_definitions
    from tooletta.chat.render import render_text

    tools = writes_tools(fmt)  # (a format that writes none: a trace of answers)
    messages = _CountingList(_agent_trace(200, tools))
    _, dialect = resolve_format(None, fmt.name)
    _CountingList.reads = 0
    defs = read_tool_definitions(PROBE_TOOLS if tools else None)
    render_text(fmt, dialect, messages, defs, False, {})
    assert _CountingList.reads <= 12 * len(messages), (fmt.name, _CountingList.reads)


class _CountingText(str):
    """A text that counts how many characters its ``find`` calls scan."""

    scanned = 0

    def find(self, sub: Any, start: Any = None, end: Any = None) -> int:
        found = super().find(sub, start, end)
        begin = 0 if start is None else start
        stop = len(self) if end is None else min(end, len(self))
        _CountingText.scanned += (found + len(sub) if found >= 0 else stop) - begin
        return found


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_parsing_is_linear_in_the_conversation(fmt: Any) -> None:
    """Reading back a long agent trace scans each stretch of the text a bounded number of
    times (the next header of each kind is remembered; the hooks that write the ending are
    asked only near the end): counted, not timed."""
    tools = PROBE_TOOLS if writes_tools(fmt) else None  # (none: a trace of answers)
    messages = _agent_trace(150, tools is not None)
    text = tooletta.render_conversation(messages, dialect=fmt.name, tools=tools)
    _CountingText.scanned = 0
    tooletta.parse_conversation(_CountingText(text), dialect=fmt.name, tools=tools)
    assert _CountingText.scanned <= 12 * len(text), (fmt.name, _CountingText.scanned / len(text))
