"""Functionary v3.1 / v3.2 conversations: native rendering against the models' own templates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat import render_spans
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversations import SAMPLE_TOOLS, ConversationTests, sample_conversations

TEMPLATES = Path(__file__).parent / "templates"
V31 = TEMPLATES / "meetkai-functionary-medium-v3.1.jinja"
V32 = TEMPLATES / "meetkai-functionary-medium-v3.2.jinja"
M31 = "meetkai/functionary-medium-v3.1"
M32 = "meetkai/functionary-medium-v3.2"
TOKENS = {"bos_token": "<|begin_of_text|>"}


class TestFunctionaryV31Chat(ConversationTests):
    model = M31
    template = V31
    tokens = TOKENS


class TestFunctionaryV32Chat(ConversationTests):
    model = M32
    template = V32
    tokens = TOKENS
    string_arguments = True


def test_formats_route_by_model() -> None:
    from tooletta.chat import resolve_format

    assert resolve_format(M31, None)[0].name == "functionary_v31"
    assert resolve_format("meetkai/functionary-small-v3.2", None)[0].name == "functionary_v32"
    assert resolve_format(None, "functionary")[0].name == "functionary_v32"


def test_v31_turn_with_calls_ends_with_eom() -> None:
    messages, _ = sample_conversations()["tools_two_calls"]
    spans = render_spans(messages, model=M31, tools=SAMPLE_TOOLS)
    ends = [spans.text[e - 10 : e] for _, (_, e) in spans.generated_spans()]
    assert ends == ["<|eom_id|>", "<|eot_id|>"]
    assert tooletta.render(messages[2].tool_calls, model=M31, content="Let me check both.") == (
        'Let me check both.<function=get_weather>{"city": "Paris", "days": 2}</function>'
        '<function=get_time>{"tz": "Europe/Paris"}</function>'
    )


def test_v31_tool_list_is_html_escaped_as_hf_jinja_writes_it() -> None:
    """The template adds the name, description and ``tojson`` to ``|safe`` literals: a
    ``Markup``, which escapes them (quotes become ``&#34;``)."""
    tools = [
        {
            "type": "function",
            "function": {"name": "f", "description": "Say <b> & 'hi'", "parameters": {}},
        }
    ]
    messages = [Message("user", "q")]
    text = tooletta.render_conversation(messages, model=M31, tools=tools)
    assert text == render_jinja(V31.read_text(), messages, tools=tools, tokens=TOKENS)
    assert (
        "Use the function 'f' to 'Say &lt;b&gt; &amp; &#39;hi&#39;'\n{&#34;name&#34;: &#34;f&#34;"
    ) in text


def test_v32_generation_prompt_ends_with_recipient_marker() -> None:
    messages = [Message("user", "q")]
    text = tooletta.render_conversation(messages, model=M32, add_generation_prompt=True)
    assert text.endswith("<|start_header_id|>assistant<|end_header_id|>\n\n>>>")
    calls = [ToolCall("get_time", {"tz": "UTC"})]
    assert tooletta.render(calls, model=M32, content="One moment.") == (
        'all\nOne moment.>>>get_time\n{"tz": "UTC"}'
    )
    spans = render_spans([*messages, Message("assistant", "ok")], model=M32)
    (_, (start, end)), *_ = spans.generated_spans()
    assert spans.text[start:end] == "all\nok<|eot_id|>"  # the prompt's ">>>" is not generated


@pytest.mark.parametrize("model", [M31, M32])
def test_python_calls_are_written_as_raw_code(model: str) -> None:
    """The templates write a ``python`` call's arguments through ``tojson`` (v3.1) or as given
    (v3.2); the models write raw code (llama.cpp's parsers read it so): we write raw code."""
    calls = [ToolCall("python", {"code": "print(1)"})]
    text = tooletta.render(calls, model=model)
    assert text == ("<|python_tag|>print(1)" if model == M31 else "python\nprint(1)")
    messages = [Message("user", "q"), Message("assistant", "", tool_calls=calls)]
    back = tooletta.parse_conversation(
        tooletta.render_conversation(messages, model=model), model=model
    )
    assert back[-1].tool_calls == calls


def _v32_declared(tools: list[dict[str, Any]]) -> tuple[str, str]:
    messages = [Message("user", "q")]
    native = tooletta.render_conversation(messages, model=M32, tools=tools)
    return native, render_jinja(V32.read_text(), messages, tools=tools, tokens=TOKENS)


def _tool(properties: dict[str, Any], required: Any = None) -> list[dict[str, Any]]:
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        parameters["required"] = required
    function = {"name": "f", "description": "d", "parameters": parameters}
    return [{"type": "function", "function": function}]


SCHEMAS = [
    {"type": "string", "description": "A name", "default": "x", "examples": ["a", "it's"]},
    {"type": "string", "enum": ["c", "f", "c"], "nullable": True},
    {"type": "integer", "enum": [1, True]},
    {"type": "integer", "default": 3, "minimum": 0, "maximum": 9},
    {"type": "number", "maximum": 0},
    {"type": "string", "format": "date", "maxLength": 8, "minLength": 1},
    {"type": ["string", "null"]},
    {"type": ["integer"]},
    {"type": "float", "default": 1.5},
    {"oneOf": [{"type": "string", "format": "uri"}, {"type": "integer"}]},
    {"oneOf": [{"type": "string", "format": "a"}, {"type": "string", "format": "b"}]},
    {"oneOf": [{"type": "integer"}, {"type": "integer"}, {"description": "x"}]},
    {"description": "anything"},
    {},
    {"type": "array"},
    {"type": "array", "items": {}},
    {"type": "array", "items": {"type": "string"}, "description": "tags"},
    {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
    {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
    {"type": "array", "items": {"type": "array", "items": {"type": "string", "enum": ["x"]}}},
    {
        "type": "array",
        "items": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
    },
    {
        "type": "object",
        "description": "nested",
        "examples": [{"x": "y"}],
        "properties": {
            "x": {"type": "string"},
            "y": {"type": "object", "properties": {"z": {"type": "boolean"}}},
        },
        "required": ["x"],
    },
]


@pytest.mark.parametrize("schema", SCHEMAS)
def test_v32_declarations_match_the_template(schema: dict[str, Any]) -> None:
    native, template = _v32_declared(_tool({"p": schema, "q": {"type": "string"}}, ["q"]))
    assert native == template


@pytest.mark.parametrize("required", [None, "p", {"p": 1}, 3])
def test_v32_required_of_any_shape(required: Any) -> None:
    native, template = _v32_declared(_tool({"p": {"type": "string"}}, required))
    assert native == template


def test_v32_tools_without_parameters_or_name() -> None:
    tools = [
        {"type": "function", "function": {"name": "a", "description": "A."}},
        {"type": "function", "function": {"name": "", "description": "skipped"}},
        {"type": "function", "function": {"name": "b", "parameters": {"properties": {}}}},
        *SAMPLE_TOOLS,
    ]
    native, template = _v32_declared(tools)
    assert native == template


_names = st.text("abxy_", min_size=1, max_size=5)
_kinds = st.sampled_from(["string", "integer", "number", "boolean", "float", "null", "object"])
_values = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text("a b'", max_size=4))


def _schemas() -> st.SearchStrategy[Any]:
    optional = {
        "description": st.text("ab .", max_size=5),
        "default": _values,
        "nullable": st.booleans(),
        "enum": st.lists(_values, min_size=1, max_size=3),
        "format": st.sampled_from(["date", "uri"]),
        "maximum": st.integers(0, 3),
        "minLength": st.integers(0, 3),
        "examples": st.lists(_values, max_size=2),
    }
    leaf = st.fixed_dictionaries({"type": _kinds}, optional=optional)

    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.one_of(
            st.fixed_dictionaries(
                {"type": st.just("array")}, optional={"items": inner, **optional}
            ),
            st.fixed_dictionaries(
                {"type": st.just("object")},
                optional={
                    "properties": st.dictionaries(_names, inner, max_size=3),
                    "required": st.lists(_names, max_size=2),
                    "description": st.text("ab", max_size=3),
                },
            ),
            st.fixed_dictionaries(
                {"oneOf": st.lists(inner, min_size=1, max_size=3)},
                optional={"description": st.text("ab", max_size=3)},
            ),
            st.fixed_dictionaries({"type": st.lists(_kinds, min_size=1, max_size=3)}),
        )

    return st.recursive(leaf, extend, max_leaves=6)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(_names, _schemas(), min_size=1, max_size=3), st.lists(_names, max_size=2))
def test_v32_declarations_match_the_template_for_any_schema(
    properties: dict[str, Any], required: list[str]
) -> None:
    tools = _tool(properties, required)
    messages = [Message("user", "q")]
    native = tooletta.render_conversation(messages, model=M32, tools=tools)
    try:
        template = render_jinja(V32.read_text(), messages, tools=tools, tokens=TOKENS)
    except RenderError:  # the template raised (a type list inside oneOf: Jinja's unique)
        assume(False)
    assert native == template
