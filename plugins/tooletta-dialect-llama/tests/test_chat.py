"""Llama 3.x conversations: native rendering against the models' own templates (vendored)."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat.jinja import render_jinja
from tooletta.testing import check_model_formats
from tooletta.testing.conversations import (
    CALL_SAMPLES,
    PROBE_TOOLS,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
    random_conversations,
    replace,
    sample_conversations,
)

TEMPLATES = Path(__file__).parent / "templates"
TOKENS = {"bos_token": "<|begin_of_text|>"}
TWO_CALLS = "the template raises on two calls in one turn ('This model only supports single "
CONTENT = "tool-calls at once!') and drops the content beside calls"
DIFFERENCES = dict.fromkeys(CALL_SAMPLES, TWO_CALLS + CONTENT)
"""The sample conversations the templates cannot render (see the README's Conversations)."""


def single_calls(messages: list[Message]) -> list[Message]:
    """``messages`` as the Llama 3 templates can render them: the first call of each turn,
    no content beside it, and only the result that answers it."""
    out: list[Message] = []
    answered = 0
    for m in messages:
        if m.tool_calls:
            out.append(replace(m, content="", tool_calls=m.tool_calls[:1]))
            answered = 0
        elif m.role == "tool":
            answered += 1
            if answered == 1:
                out.append(m)
        else:
            out.append(m)
    return out


class LlamaCases(ConversationTests):
    """The shared samples, plus each tool sample with one call per turn (which the templates
    render: the exact check covers tool declarations, calls and ``ipython`` results)."""

    tokens = TOKENS
    differences = DIFFERENCES

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        cases = sample_conversations(ids=self.ids)
        for name, (messages, uses_tools) in list(cases.items()):
            if name in DIFFERENCES:
                cases[name + "_one_call"] = (single_calls(messages), uses_tools)
        return cases


class TestLlama31Chat(LlamaCases):
    model = "meta-llama/Llama-3.1-8B-Instruct"
    template = TEMPLATES / "meta-llama-Llama-3.1-8B-Instruct.jinja"
    options = ({}, {"tools_in_user_message": False}, {"date_string": "02 Jan 2025"})


class TestLlama33Chat(LlamaCases):
    model = "meta-llama/Llama-3.3-70B-Instruct"
    template = TEMPLATES / "meta-llama-Llama-3.3-70B-Instruct.jinja"
    options = ({}, {"tools_in_user_message": False})


def _pinned_now(fmt: str) -> str:
    return "05 Mar 2025" if fmt == "%d %b %Y" else fmt


class TestLlama32Chat(LlamaCases):
    model = "meta-llama/Llama-3.2-3B-Instruct"
    template = TEMPLATES / "meta-llama-Llama-3.2-3B-Instruct.jinja"
    options = (
        {"strftime_now": _pinned_now},
        {"date_string": "26 Jul 2024", "tools_in_user_message": False},
    )


def test_formats_route_by_model() -> None:
    from tooletta.chat import resolve_format

    assert resolve_format("meta-llama/Llama-3.1-8B-Instruct", None)[0].name == "llama31"
    assert resolve_format("meta-llama/Llama-3.3-70B-Instruct", None)[0].name == "llama31"
    assert resolve_format("meta-llama/Llama-3.2-3B-Instruct", None)[0].name == "llama32"
    assert resolve_format("meta-llama/Llama-3.2-1B-Instruct", None)[0].name == "llama32"
    assert resolve_format(None, "llama3_json")[0].name == "llama31"


def test_llama31_and_llama33_templates_are_one() -> None:
    a = (TEMPLATES / "meta-llama-Llama-3.1-8B-Instruct.jinja").read_bytes()
    assert a == (TEMPLATES / "meta-llama-Llama-3.3-70B-Instruct.jinja").read_bytes()


def test_two_calls_are_joined_by_the_dialect_separator() -> None:
    """Where the template raises, the turn holds one object per call joined by ``; ``."""
    messages, _ = sample_conversations()["reasoning_multi_turn"]
    text = tooletta.render_conversation(
        messages, model="meta-llama/Llama-3.1-8B-Instruct", tools=SAMPLE_TOOLS
    )
    assert (
        "<|start_header_id|>assistant<|end_header_id|>\n\n"
        '{"name": "get_weather", "parameters": {"city": "Paris", "days": 2}}; '
        '{"name": "get_time", "parameters": {"tz": "Europe/Paris"}}<|eot_id|>'
    ) in text
    with pytest.raises(RenderError, match="single tool-calls"):
        render_jinja(
            (TEMPLATES / "meta-llama-Llama-3.1-8B-Instruct.jinja").read_text(),
            messages,
            tools=SAMPLE_TOOLS,
            tokens=TOKENS,
        )


def test_content_beside_calls_is_kept_behind_python_tag() -> None:
    """The template drops the content beside a call; we keep it before ``<|python_tag|>``."""
    text = tooletta.render(
        [ToolCall("get_time", {"tz": "UTC"})],
        model="meta-llama/Llama-3.3-70B-Instruct",
        content="  Let me check. ",
    )
    assert text == 'Let me check.\n<|python_tag|>{"name": "get_time", "parameters": {"tz": "UTC"}}'


def test_render_model_turn_one_call_is_the_template_form() -> None:
    text = tooletta.render(
        [ToolCall("get_weather", {"city": "Paris"})], model="meta-llama/Llama-3.2-3B-Instruct"
    )
    assert text == '{"name": "get_weather", "parameters": {"city": "Paris"}}'


def test_tool_results_are_json_string_literals() -> None:
    messages = [
        Message("user", "time?"),
        Message("assistant", "", tool_calls=[ToolCall("get_time", {"tz": "UTC"})]),
        Message("tool", 'say "hi"\n'),
    ]
    text = tooletta.render_conversation(messages, model="meta-llama/Llama-3.1-8B-Instruct")
    assert '<|start_header_id|>ipython<|end_header_id|>\n\n"say \\"hi\\"\\n"<|eot_id|>' in text
    back = tooletta.parse_conversation(text, model="meta-llama/Llama-3.1-8B-Instruct")
    assert back[-1].content == 'say "hi"\n'


@pytest.mark.parametrize("ids", [False, True])
def test_round_trip_with_tools_in_system_turn(ids: bool) -> None:
    """With the tools in the system turn, and with call ids (which the format drops)."""
    for messages, uses_tools in sample_conversations(ids=ids).values():
        check_conversation_round_trip(
            messages,
            model="meta-llama/Llama-3.1-8B-Instruct",
            tools=SAMPLE_TOOLS if uses_tools else None,
            tools_in_user_message=False,
        )


def test_tools_need_a_first_user_message() -> None:
    messages = [Message("system", "s"), Message("assistant", "hi")]
    with pytest.raises(RenderError, match="first user message"):
        tooletta.render_conversation(
            messages, model="meta-llama/Llama-3.1-8B-Instruct", tools=SAMPLE_TOOLS
        )
    text = tooletta.render_conversation(
        messages,
        model="meta-llama/Llama-3.1-8B-Instruct",
        tools=SAMPLE_TOOLS,
        tools_in_user_message=False,
    )
    assert text.endswith("<|start_header_id|>assistant<|end_header_id|>\n\nhi<|eot_id|>")


def test_builtin_tools_are_refused() -> None:
    with pytest.raises(RenderError, match="builtin_tools"):
        tooletta.render_conversation(
            [Message("user", "hi")],
            model="meta-llama/Llama-3.1-8B-Instruct",
            builtin_tools=["brave_search"],
        )


def test_trimmed_texts_and_empty_system_message() -> None:
    messages = [Message("system", "  "), Message("user", " hi \n"), Message("assistant", " yo ")]
    text = tooletta.render_conversation(messages, model="meta-llama/Llama-3.1-8B-Instruct")
    expected = render_jinja(
        (TEMPLATES / "meta-llama-Llama-3.1-8B-Instruct.jinja").read_text(),
        messages,
        tokens=TOKENS,
    )
    assert text == expected
    back = tooletta.parse_conversation(text, model="meta-llama/Llama-3.1-8B-Instruct")
    assert [(m.role, m.content) for m in back] == [("user", "hi"), ("assistant", "yo")]


# -- Llama 4 ----------------------------------------------------------------------------------

LLAMA4 = "meta-llama/Llama-4-Scout-17B-16E-Instruct"
LLAMA4_TEMPLATE = TEMPLATES / "meta-llama-Llama-4-Scout-17B-16E-Instruct.jinja"


LLAMA4_DROPS_TOOLS = (
    "with tools_in_user_message=False and no system message the template writes the tools "
    "nowhere; we write the system turn that carries them"
)


class TestLlama4Chat(ConversationTests):
    """The template Hugging Face wrote into the Llama 4 Instruct repositories: every sample,
    two calls and content beside calls included, renders exactly."""

    model = LLAMA4
    template = LLAMA4_TEMPLATE
    tokens = TOKENS
    list_content = ("user", "assistant")


class TestLlama4ChatIds(TestLlama4Chat):
    """Call ids (which the template does not write) are dropped."""

    ids = True


class TestLlama4MaverickChat(TestLlama4Chat):
    """Maverick's repository carries the same template (one conversion script)."""

    model = "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8"


class TestLlama4ChatToolsInSystem(TestLlama4Chat):
    """The tools in the system turn: exact wherever the conversation has a system message."""

    options = ({"tools_in_user_message": False},)
    differences = MappingProxyType(
        {"tools_no_system": LLAMA4_DROPS_TOOLS, "pending_call": LLAMA4_DROPS_TOOLS}
    )

    def test_round_trip(self) -> None:
        """The round trip, with the tools in the system turn."""
        for messages, uses_tools in sample_conversations(ids=self.ids).values():
            check_conversation_round_trip(
                messages,
                model=self.model,
                tools=SAMPLE_TOOLS if uses_tools else None,
                tools_in_user_message=False,
            )


def test_llama4_models_route_to_the_json_variant() -> None:
    from tooletta.chat import resolve_format

    models = (
        LLAMA4,
        "meta-llama/Llama-4-Maverick-17B-128E-Instruct",
        "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8",
        "unsloth/Llama-4-Scout-17B-16E-Instruct-GGUF",
    )
    check_model_formats("llama4_json", dict.fromkeys(models, "llama4"))
    assert resolve_format(None, "llama4_json")[0].name == "llama4"
    assert resolve_format(None, "llama4")[0].name == "llama4"
    # base models have no chat template: they keep the pythonic routing of before
    assert tooletta.dialect_for_model("meta-llama/Llama-4-Scout-17B-16E") == "pythonic"


CALLS2 = [ToolCall("get_weather", {"city": "Paris", "days": 2}), ToolCall("get_time", {})]


def test_llama4_model_turn_is_the_template_form() -> None:
    """``<|python_start|>`` content ``<|python_end|>``, then the objects back to back."""
    got = tooletta.render(CALLS2, model=LLAMA4, content="Let me check.")
    assert got == (
        '<|python_start|>Let me check.<|python_end|>{"name": "get_weather", "parameters": '
        '{"city": "Paris", "days": 2}}{"name": "get_time", "parameters": {}}'
    )
    assert tooletta.render(CALLS2[1:], model=LLAMA4) == (
        '<|python_start|><|python_end|>{"name": "get_time", "parameters": {}}'
    )
    assert tooletta.render([], model=LLAMA4, content="Hi.") == "Hi."
    assert tooletta.render(CALLS2[1:], "llama4") == tooletta.render(CALLS2[1:], model=LLAMA4)


def test_llama4_turn_parses_back_with_both_names_and_is_detected() -> None:
    text = tooletta.render(CALLS2, "llama4_json", content="Let me check.") + "<|eot|>"
    for name in ("llama4_json", "llama3_json"):
        got = tooletta.parse(text, name)
        assert (got.content, got.calls, got.unparsed) == ("Let me check.", CALLS2, [])
    assert tooletta.detect(text) == "llama3_json"
    # a "; " between the objects (the Llama 3 separator) is read too
    joined = text.replace("}}{", "}}; {")
    assert tooletta.parse(joined, "llama4_json").calls == CALLS2


def test_llama3_json_default_render_is_unchanged() -> None:
    assert tooletta.render(CALLS2, "llama3_json") == (
        '{"name": "get_weather", "parameters": {"city": "Paris", "days": 2}}; '
        '{"name": "get_time", "parameters": {}}'
    )


def test_llama4_pythonic_output_stays_pythonic() -> None:
    text = '<|python_start|>[get_time(tz="UTC")]<|python_end|><|eot|>'
    assert tooletta.detect(text) == "pythonic"
    assert tooletta.parse(text, "llama4_pythonic").calls == [ToolCall("get_time", {"tz": "UTC"})]


def test_llama4_refuses_content_holding_its_tokens() -> None:
    for content in ("a <|python_end|> b", "<|python_start|>", '{"name": "x"}', "done<|eot|>"):
        with pytest.raises(RenderError):
            tooletta.render(CALLS2, "llama4_json", content=content)


def test_llama4_tools_in_system_turn_without_system_message() -> None:
    """Where the template drops the tools (no system message, ``tools_in_user_message=False``),
    we write the system turn that carries them (the template's own system-turn text)."""
    messages, _ = sample_conversations()["tools_no_system"]
    text = tooletta.render_conversation(
        messages, model=LLAMA4, tools=SAMPLE_TOOLS, tools_in_user_message=False
    )
    template = render_jinja(
        LLAMA4_TEMPLATE.read_text(),
        messages,
        tools=SAMPLE_TOOLS,
        tokens=TOKENS,
        tools_in_user_message=False,
    )
    assert "Given the following functions" not in template
    assert "You have access to the following functions" not in template
    with_system = [Message("system", ""), *messages]
    expected = render_jinja(
        LLAMA4_TEMPLATE.read_text(),
        with_system,
        tools=SAMPLE_TOOLS,
        tokens=TOKENS,
        tools_in_user_message=False,
    )
    assert text == expected
    assert text.startswith(
        "<|begin_of_text|><|header_start|>system<|header_end|>\n\nEnvironment: ipython\n"
        "You have access to the following functions."
    )
    back = tooletta.parse_conversation(text, model=LLAMA4)
    assert [m.role for m in back] == [m.role for m in messages]


def test_llama4_tools_need_a_first_user_message() -> None:
    """The template raises with no message after the system message, and writes any other
    first message under a ``user`` header; we raise for both."""
    for messages in (
        [Message("system", "s")],
        [Message("system", "s"), Message("assistant", "hi")],
    ):
        with pytest.raises(RenderError, match="first user message"):
            tooletta.render_conversation(messages, model=LLAMA4, tools=SAMPLE_TOOLS)
    with pytest.raises(RenderError, match="no first user message"):
        render_jinja(
            LLAMA4_TEMPLATE.read_text(), [Message("system", "s")], tools=SAMPLE_TOOLS, tokens=TOKENS
        )
    text = tooletta.render_conversation(
        [Message("system", "s"), Message("assistant", "hi")],
        model=LLAMA4,
        tools=SAMPLE_TOOLS,
        tools_in_user_message=False,
    )
    assert text.endswith("<|header_start|>assistant<|header_end|>\n\nhi<|eot|>")


def test_llama4_trims_only_the_system_and_first_tool_user_message() -> None:
    messages = [
        Message("system", " sys \n"),
        Message("user", " hi \n"),
        Message("assistant", " yo "),
        Message("user", " again "),
    ]
    for tools in (None, SAMPLE_TOOLS):
        check_matches_template(
            LLAMA4_TEMPLATE.read_text(), messages, model=LLAMA4, tools=tools, tokens=TOKENS
        )
    text = tooletta.render_conversation(messages, model=LLAMA4)
    back = tooletta.parse_conversation(text, model=LLAMA4)
    assert [m.content for m in back] == ["sys", " hi \n", " yo ", " again "]
    text = tooletta.render_conversation(messages, model=LLAMA4, tools=SAMPLE_TOOLS)
    back = tooletta.parse_conversation(text, model=LLAMA4)
    assert [m.content for m in back] == ["sys", "hi", " yo ", " again "]


def test_llama4_empty_system_message_is_written_and_reads_back_as_none() -> None:
    messages = [Message("system", "  "), Message("user", "hi")]
    check_matches_template(LLAMA4_TEMPLATE.read_text(), messages, model=LLAMA4, tokens=TOKENS)
    text = tooletta.render_conversation(messages, model=LLAMA4)
    assert text.startswith("<|begin_of_text|><|header_start|>system<|header_end|>\n\n<|eot|>")
    check_conversation_round_trip(messages, model=LLAMA4)


def test_llama4_multipart_contents_are_written_as_their_text() -> None:
    """The template writes only the first text part of a list system message and ``str()``
    of a list first user message carrying the tools; we write the parts' joined text."""
    parts = [{"type": "text", "text": "one "}, {"type": "text", "text": "two"}]
    messages = [
        {"role": "system", "content": parts},
        {"role": "user", "content": parts},
    ]
    text = tooletta.render_conversation(messages, model=LLAMA4, tools=SAMPLE_TOOLS)
    assert "Environment: ipython\none two<|eot|>" in text
    assert text.endswith("}\n\none two<|eot|>")
    from tooletta.chat.messages import read_conversation

    template = render_jinja(
        LLAMA4_TEMPLATE.read_text(), read_conversation(messages), tools=SAMPLE_TOOLS, tokens=TOKENS
    )
    assert "Environment: ipython\none<|eot|>" in template
    assert "[{'type': 'text'" in template


def test_llama4_tool_results_are_json_string_literals() -> None:
    messages = [
        Message("user", "time?"),
        Message("assistant", "", tool_calls=[ToolCall("get_time", {"tz": "UTC"})]),
        Message("tool", 'say "hi"\n'),
    ]
    text = tooletta.render_conversation(messages, model=LLAMA4)
    assert '<|header_start|>ipython<|header_end|>\n\n"say \\"hi\\"\\n"<|eot|>' in text
    assert tooletta.parse_conversation(text, model=LLAMA4)[-1].content == 'say "hi"\n'


def _writable_in_llama4(messages: list[Message]) -> bool:
    """Whether Llama 4's format writes ``messages``: its JSON call syntax refuses an answer
    whose text starts like a call object (``{"name"``, which the reader would take for a call);
    a random text may start so (hypothesis drew ``'{"name"'``)."""
    try:
        tooletta.render_conversation(messages, model=LLAMA4, tools=PROBE_TOOLS)
    except RenderError as refused:
        if "starts like a call object" in str(refused):
            return False
        raise
    return True


def _matches_llama4(messages: list[Message], prompt: bool) -> None:
    """The Llama 4 format renders ``messages`` (probe tools declared) as its template does."""
    check_matches_template(
        LLAMA4_TEMPLATE.read_text(),
        messages,
        model=LLAMA4,
        tools=PROBE_TOOLS,
        tokens=TOKENS,
        add_generation_prompt=prompt,
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_conversations(), st.booleans())
@example(
    [
        Message("user", "q"),
        Message("assistant", '{"name"', tool_calls=[ToolCall("probe", {"s": "x"})]),
        Message("tool", "r"),
        Message("assistant", "a"),
    ],
    False,
).via("an answer starting like a call object: refused by the format, not drawn")
def test_llama4_random_conversations(messages: list[Message], prompt: bool) -> None:
    assume(_writable_in_llama4(messages))
    _matches_llama4(messages, prompt)
    check_conversation_round_trip(messages, model=LLAMA4, tools=PROBE_TOOLS)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_conversations(trimmed=False), st.booleans())
def test_llama4_untrimmed_random_conversations_match_the_template(
    messages: list[Message], prompt: bool
) -> None:
    assume(_writable_in_llama4(messages))
    _matches_llama4(messages, prompt)
