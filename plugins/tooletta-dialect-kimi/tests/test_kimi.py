"""Conformance and format tests for the Kimi dialects."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import RenderError, ToolCall
from tooletta.testing import (
    DialectTests,
    EscapedMarkupSettings,
    TypedDialectTests,
    assemble,
    check_arguments_stream,
    check_typed_value,
    schema_tools,
    stream_text,
)

FIXTURES = Path(__file__).parent / "fixtures"


MARKUP = (
    "<|tool_calls_section_begin|>",
    "<|tool_call_begin|>",
    "<|tool_call_argument_begin|>",
    "<|tool_call_end|>",
    "<|tool_calls_section_end|>",
    "<|im_end|>",
    "<think>",
    "</think>",
    "<|open|>",
    "<|close|>",
    "<|sep|>",
    '<|open|>call tool="x"<|sep|>',
    "<|close|>argument<|sep|>",
    "<|close|>json<|sep|>",
    "<|close|>call<|sep|>",
    "&quot;",
    "&amp;",
    "\n## Calling: x\n",
    '"',
    "\\",
    "\n",
    " ",
    "{",
    "}",
)


class _Markup(EscapedMarkupSettings):
    """Markup in string values always round-trips (JSON or the JSON form), also untyped."""

    markup = MARKUP


class TestKimiK2(_Markup, DialectTests):
    dialect = "kimi_k2"
    fixtures = FIXTURES / "kimi_k2.json"
    ids = "generated"
    names = ("kimi_k2", "kimi-k2", "kimik2", "Kimi-K2", "moonshot-k2")
    models = (
        "moonshotai/Kimi-K2-Instruct-0905",
        "moonshotai/Kimi-K2-Thinking",
        "moonshotai/Kimi-K2.5",
        "moonshotai/Kimi-Linear-48B-A3B-Instruct",
    )


class TestKimiK3(_Markup, TypedDialectTests):
    """Arguments without a ``type`` attribute are typed by the schema."""

    dialect = "kimi_k3"
    fixtures = FIXTURES / "kimi_k3.json"
    names = ("kimi_k3", "kimi-k3", "kimik3")
    models = ("moonshotai/Kimi-K3",)

    def render_param(self, name: str, raw: str) -> str:
        return (
            '<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|>'
            f'<|open|>argument key="{name}"<|sep|>{raw}<|close|>argument<|sep|>'
            "<|close|>call<|sep|><|close|>tools<|sep|>"
        )


class TestKimiLegacy(_Markup, DialectTests):
    dialect = "kimi"
    fixtures = FIXTURES / "kimi.json"
    names = ("kimi", "moonshot")


WEATHER = ToolCall("get_weather", {"city": "Paris", "days": 3})
TIME = ToolCall("get_time", {"tz": "CET"})


# -- render: the real templates' assistant text ------------------------------------------------


def test_render_k2_matches_template() -> None:
    # llama.cpp models/templates/moonshotai-Kimi-K2-Thinking.jinja, render_toolcalls
    calls = [
        ToolCall("get_weather", {"city": "Paris", "days": 3}, "functions.get_weather:0"),
        ToolCall("get_time", {"tz": "CET"}, "functions.get_time:1"),
    ]
    assert tooletta.render(calls, "kimi_k2", content="Let me check.") == (
        "Let me check.<|tool_calls_section_begin|>"
        "<|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>"
        '{"city": "Paris", "days": 3}<|tool_call_end|>'
        "<|tool_call_begin|>functions.get_time:1<|tool_call_argument_begin|>"
        '{"tz": "CET"}<|tool_call_end|><|tool_calls_section_end|>'
    )


def test_k2_ids_kept_and_generated() -> None:
    calls = [
        ToolCall("mcp.search", {"q": "x"}, "functions.mcp.search:7"),  # kept
        ToolCall("get_time", {}, "call_abc"),  # not a Kimi id: generated
        ToolCall("now", {}),  # none: generated, IDX = position in the message
        ToolCall("other", {}, "functions.now:3"),  # names another tool: generated
        ToolCall("s", {}, "s:9"),  # a bare NAME:IDX reads back to the same name: kept
    ]
    text = tooletta.render(calls, "kimi_k2")
    got = tooletta.parse(text, "kimi_k2").calls
    assert [c.id for c in got] == [
        "functions.mcp.search:7",
        "functions.get_time:1",
        "functions.now:2",
        "functions.other:3",
        "s:9",
    ]
    assert [c.name for c in got] == [c.name for c in calls]


def test_k2_stream_sends_the_id_with_the_name() -> None:
    text = tooletta.render([WEATHER], "kimi_k2")
    updates, last = stream_text("kimi_k2", list(text))
    firsts = [d for u in updates for d in u.calls if d.name is not None]
    assert firsts and firsts[0].id == "functions.get_weather:0"
    assert assemble([*updates, last]).calls == [
        ToolCall(**{**_fields(WEATHER), "id": firsts[0].id})
    ]


def _fields(call: ToolCall) -> dict[str, Any]:
    return {"name": call.name, "arguments": call.arguments, "id": call.id}


def test_render_k3_matches_template() -> None:
    # llama.cpp models/templates/Kimi-K3.jinja, thinking=False, without the message wrapper
    assert tooletta.render([WEATHER], "kimi_k3", content="Let me check.") == (
        "<|open|>response<|sep|>Let me check.<|close|>response<|sep|><|open|>tools<|sep|>"
        '<|open|>call tool="get_weather" index="1"<|sep|>'
        '<|open|>argument key="city" type="string"<|sep|>Paris<|close|>argument<|sep|>'
        '<|open|>argument key="days" type="number"<|sep|>3<|close|>argument<|sep|>'
        "<|close|>call<|sep|><|close|>tools<|sep|>"
    )


def test_render_k3_escapes_attributes_and_types_values() -> None:
    # the template's rendering of this call (thinking=True), quoted from its output
    call = ToolCall(
        'q"&x',
        {'a"b': {"x": [1, True, None]}, "flag": False, "s": 'Zürich "q" 東京 😀', "n": 2.5},
    )
    text = tooletta.render([call, ToolCall("now", {})], "kimi_k3")
    assert text.endswith(
        '<|open|>call tool="q&quot;&amp;x" index="1"<|sep|>'
        '<|open|>argument key="a&quot;b" type="object"<|sep|>{"x": [1, true, null]}'
        '<|close|>argument<|sep|><|open|>argument key="flag" type="boolean"<|sep|>false'
        '<|close|>argument<|sep|><|open|>argument key="s" type="string"<|sep|>Zürich "q" 東京 😀'
        '<|close|>argument<|sep|><|open|>argument key="n" type="number"<|sep|>2.5'
        '<|close|>argument<|sep|><|close|>call<|sep|><|open|>call tool="now" index="2"<|sep|>'
        "<|close|>call<|sep|><|close|>tools<|sep|>"
    )
    assert tooletta.parse(text, "kimi_k3").calls == [call, ToolCall("now", {})]


def test_render_k3_uses_json_form_for_a_closer_in_a_string() -> None:
    call = ToolCall("echo", {"t": "a<|close|>argument<|sep|>b", "n": 1})
    text = tooletta.render([call], "kimi_k3")
    assert '<|open|>json type="object"<|sep|>' in text
    assert tooletta.parse(text, "kimi_k3").calls == [call]


def test_render_legacy_matches_0_1_0() -> None:
    # tooletta 0.1.0 KimiDialect.render: compact, sorted keys, ASCII escapes, blank line between
    calls = [ToolCall("search", {"query": "tool calling", "b": "é"}), ToolCall("now", {})]
    assert tooletta.render(calls, "kimi") == (
        '## Calling: search\n{"b":"\\u00e9","query":"tool calling"}\n\n## Calling: now\n{}'
    )
    assert tooletta.render(calls[1:], "moonshot", content="Hi.") == "Hi.\n\n## Calling: now\n{}"


@pytest.mark.parametrize("dialect", ["kimi_k2", "kimi_k3", "kimi"])
@pytest.mark.parametrize("name", ["", " padded", "bad name", "x<|tool_call_argument_begin|>"])
def test_render_refuses_names_that_would_read_back_differently(dialect: str, name: str) -> None:
    try:
        text = tooletta.render([ToolCall(name, {})], dialect)
    except RenderError:
        return
    assert [c.name for c in tooletta.parse(text, dialect).calls] == [name]


def test_content_with_markup_is_refused() -> None:
    with pytest.raises(RenderError):
        tooletta.render([WEATHER], "kimi_k2", content="<|tool_call_begin|>")
    with pytest.raises(RenderError):
        tooletta.render([WEATHER], "kimi_k3", content="x<|close|>response<|sep|>")
    with pytest.raises(RenderError):
        tooletta.render([WEATHER], "kimi", content="## Calling: x")


# -- names, detection, models ------------------------------------------------------------------


def test_detection() -> None:
    for dialect in ("kimi_k2", "kimi_k3", "kimi"):
        text = tooletta.render([WEATHER], dialect, content="Checking.")
        assert tooletta.detect(text) == dialect
    assert tooletta.detect("Docs: write ## Calling: name, then the JSON.") is None
    assert tooletta.detect("Plain <|open|>text<|sep|> mention.") is None


# -- streaming ----------------------------------------------------------------------------------


@pytest.mark.parametrize("dialect", ["kimi_k2", "kimi_k3", "kimi"])
def test_arguments_stream_as_generated(dialect: str) -> None:
    call = ToolCall("write", {"path": "a.txt", "text": "hello world, streamed", "n": [1, 2]})
    text = tooletta.render([call], dialect, content="Writing.")
    deltas = check_arguments_stream(dialect, text, call.arguments, pieces=5)
    assert [d.name for d in deltas if d.name] == ["write"]


def test_k2_section_before_think_close_ends_reasoning() -> None:
    text = (
        "<think>Looking it up<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0"
        '<|tool_call_argument_begin|>{"a": 1}<|tool_call_end|><|tool_calls_section_end|>'
    )
    result = tooletta.parse(text, "kimi_k2")
    assert result.reasoning == "Looking it up"
    assert result.calls == [ToolCall("f", {"a": 1}, "functions.f:0")]


def test_k2_im_end_never_reaches_argument_fragments() -> None:
    text = '<|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{"s": "ab<|im_end|>'
    updates, last = stream_text("kimi_k2", list(text))
    assert "<|im_end|>" not in "".join(d.arguments for u in [*updates, last] for d in u.calls)
    assert last.unparsed and not tooletta.parse(text, "kimi_k2").calls
    call = ToolCall("f", {"s": "a<|im_end|>b"}, "functions.f:0")
    assert tooletta.parse(tooletta.render([call], "kimi_k2"), "kimi_k2").calls == [call]


# -- typing (K3 declares type="..."; the schema refines) -----------------------------------------

TYPING: list[tuple[dict[str, Any] | None, str | None, str, Any]] = [
    # (schema, type attribute, raw value, expected)
    ({"type": "string"}, "string", "007", "007"),
    (None, "string", " 42 ", " 42 "),
    ({"type": "integer"}, "string", "42", 42),
    ({"type": "integer"}, "string", "4x", "4x"),
    ({"type": "boolean"}, "string", "True", True),
    ({"type": "array"}, "string", "[1, 'a']", [1, "a"]),
    ({"type": ["string", "null"]}, "string", "null", "null"),
    (None, "number", "3", 3),
    (None, "number", "2.5e3", 2500.0),
    ({"type": "integer"}, "number", "lots", "lots"),
    (None, "boolean", "true", True),
    (None, "null", "null", None),
    (None, "object", '{"a": [1, null]}', {"a": [1, None]}),
    ({"type": "object"}, "object", "{'a': 1}", {"a": 1}),
    ({"type": "string"}, "number", "3", "3"),
    (None, "array", "[oops", "[oops"),
    ({"type": "integer"}, None, "3", 3),
    ({"type": "string"}, None, "3", "3"),
    (None, None, "[1]", [1]),
    (None, None, "plain", "plain"),
]


@pytest.mark.parametrize(("schema", "kind", "raw", "expected"), TYPING)
def test_k3_typing_parse_and_stream(
    schema: dict[str, Any] | None, kind: str | None, raw: str, expected: Any
) -> None:
    attr = "" if kind is None else f' type="{kind}"'
    text = (
        '<|open|>tools<|sep|><|open|>call tool="f" index="1"<|sep|>'
        f'<|open|>argument key="v"{attr}<|sep|>{raw}<|close|>argument<|sep|>'
        "<|close|>call<|sep|><|close|>tools<|sep|>"
    )
    tools = schema_tools({"v": schema} if schema is not None else {})
    check_typed_value("kimi_k3", text, expected, tools, key="v")


def test_content_holding_a_marker_is_refused() -> None:
    with pytest.raises(tooletta.RenderError):
        tooletta.render([], "kimi_k2", content="a<|tool_calls_section_begin|>")


@pytest.mark.parametrize(
    ("call_id", "kept"),
    [
        ("functions.get_weather:3", True),
        ("get_weather:3", True),
        ("functions.get_weather:x", False),
        ("functions.get_time:3", False),
        ("functions.:3", False),
        ("functions.get_weather:", False),
        ("functions.get_weather:٣", True),
        ("call_abc", False),
    ],
)
def test_kimi_ids_are_kept_only_for_their_own_tool(call_id: str, kept: bool) -> None:
    from tooletta_dialect_kimi.k2ids import kimi_id

    written = kimi_id(ToolCall("get_weather", {}, call_id), 5)
    assert written == (call_id if kept else "functions.get_weather:5")
