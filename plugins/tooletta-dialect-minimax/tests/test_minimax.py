"""Conformance and format tests for the minimax_m1, minimax_m2 and minimax_m3 dialects."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import ToolCall
from tooletta.testing import (
    DialectTests,
    TypedDialectTests,
    assemble,
    check_arguments_stream,
    schema_tools,
    stream_text,
)
from tooletta.testing.settings import DialectSettings

FIXTURES = Path(__file__).parent / "fixtures"
S = "]<]minimax[>["


class _Markup(DialectSettings):
    """The markup property shared by the three dialects."""

    markup = (
        "</parameter>",
        '<parameter name="k">',
        "</invoke>",
        '<invoke name="x">',
        "<minimax:tool_call>",
        "</minimax:tool_call>",
        "<tool_calls>",
        "</tool_calls>",
        S,
        "]<]minimax[>",
        "<tool_call>",
        "</k>",
        "<item>",
        "<think>",
        "</mm:think>",
        "[e~[",
        "\n",
        " ",
        '"',
        "&quot;",
        "{",
        "1",
    )
    markup_filler = "abc<>/ "
    markup_examples = 60

    def markup_calls(self, value: str, other: str) -> list[list[ToolCall]]:
        return [[ToolCall("f", {"k": value})], [ToolCall("f", {"k": value, "n": {"v": [other]}})]]


class TestMinimaxM1(_Markup, DialectTests):
    dialect = "minimax_m1"
    fixtures = FIXTURES / "minimax_m1.json"
    names = ("minimax", "MiniMax_M1")
    models = ("MiniMaxAI/MiniMax-M1-80k",)

    def may_refuse(self, calls: list[ToolCall], content: str) -> bool:
        return False  # JSON can write any string


class TestMinimaxM2(_Markup, TypedDialectTests):
    dialect = "minimax_m2"
    fixtures = FIXTURES / "minimax_m2.json"
    names = ("minimax-m2", "minimax_m2")
    models = ("MiniMaxAI/MiniMax-M2.5",)
    typing_rules = (("string", " x\n", " x\n"),)

    def render_param(self, name: str, raw: str) -> str:
        body = f'<invoke name="f">\n<parameter name="{name}">{raw}</parameter>\n</invoke>\n'
        return f"<minimax:tool_call>\n{body}</minimax:tool_call>"


class TestMinimaxM3(_Markup, TypedDialectTests):
    dialect = "minimax_m3"
    fixtures = FIXTURES / "minimax_m3.json"
    names = ("minimax-m3",)
    models = ("MiniMaxAI/MiniMax-M3",)
    typing_rules = (("string", " x\n", " x\n"),)

    def render_param(self, name: str, raw: str) -> str:
        return (
            f'{S}<tool_call>\n{S}<invoke name="f">{S}<{name}>{raw}{S}</{name}>{S}</invoke>\n'
            f"{S}</tool_call>"
        )


# -- detection ----------------------------------------------------------------------------------


def test_m1_detect_needs_json_lines() -> None:
    m1 = tooletta.get_dialect("minimax_m1")
    assert m1.detect('<tool_calls>\n{"name": "f", "arguments": {}}\n</tool_calls>')
    assert not m1.detect('<tool_calls>[{"name": "f", "arguments": {}}]</tool_calls>')  # Jamba
    assert not m1.detect("I write <tool_calls> tags in my answers.")


def test_m3_detect_needs_tool_call_after_sentinel() -> None:
    m3 = tooletta.get_dialect("minimax_m3")
    assert m3.detect(f"{S}\n<tool_call>\n")
    assert not m3.detect(f"leaked {S} token")
    assert tooletta.detect(f"leaked {S} token") != "minimax_m3"


# -- render: the templates' exact text ------------------------------------------------------


def test_m1_render_matches_template() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 3}), ToolCall("now", {})]
    assert tooletta.render(calls, "minimax_m1") == (
        "<tool_calls>\n"
        '{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n'
        '{"name": "now", "arguments": {}}\n'
        "</tool_calls>"
    )


def test_m2_render_matches_template() -> None:
    calls = [
        ToolCall("get_weather", {"city": "Paris", "days": 3, "opts": {"u": "C"}, "x": None}),
        ToolCall("get_time", {}),
    ]
    assert tooletta.render(calls, "minimax_m2", content="Let me check.") == (
        "Let me check.\n<minimax:tool_call>\n"
        '<invoke name="get_weather">\n'
        '<parameter name="city">Paris</parameter>\n'
        '<parameter name="days">3</parameter>\n'
        '<parameter name="opts">{"u": "C"}</parameter>\n'
        '<parameter name="x">null</parameter>\n'
        "</invoke>\n"
        '<invoke name="get_time">\n'
        "</invoke>\n"
        "</minimax:tool_call>"
    )
    # the template writes the newline before the wrapper even without content
    assert tooletta.render_tool_calls([ToolCall("f", {})], "minimax_m2").startswith("\n<minimax:")


def test_m3_render_layout() -> None:
    """The template's form: the block right after the content, an empty object or array
    argument as an empty element (was: a ``\\n`` before the block and ``[]`` as text)."""
    calls = [
        ToolCall("get_weather", {"city": "Paris", "days": 3, "tags": ["a"], "o": {"u": "C"}}),
        ToolCall("g", {"e": [], "n": None}),
    ]
    assert tooletta.render(calls, "minimax_m3", content="Let me check.") == (
        f"Let me check.{S}<tool_call>\n"
        f'{S}<invoke name="get_weather">{S}<city>Paris{S}</city>{S}<days>3{S}</days>'
        f"{S}<tags>{S}<item>a{S}</item>{S}</tags>{S}<o>{S}<u>C{S}</u>{S}</o>{S}</invoke>\n"
        f'{S}<invoke name="g">{S}<e>{S}</e>{S}<n>null{S}</n>{S}</invoke>\n'
        f"{S}</tool_call>"
    )


@pytest.mark.parametrize(
    ("dialect", "calls"),
    [
        ("minimax_m2", [ToolCall("f", {"a": "x</parameter>y"})]),
        ("minimax_m2", [ToolCall('f"', {})]),
        ("minimax_m2", [ToolCall("f", {'k"': 1})]),
        ("minimax_m3", [ToolCall("f", {"a": f"x{S}y"})]),
        ("minimax_m3", [ToolCall("f", {"a b ": 1})]),
        ("minimax_m3", [ToolCall("f", {"a": {"item": 1}})]),
        ("minimax_m3", [ToolCall("f", {"a": {"b": "12"}})]),
        ("minimax_m3", [ToolCall("f", {"/a": 1})]),
    ],
)
def test_render_refuses_what_it_cannot_write(dialect: str, calls: list[ToolCall]) -> None:
    with pytest.raises(tooletta.RenderError):
        tooletta.render(calls, dialect)


def test_m2_json_values_escape_the_closing_tag() -> None:
    call = ToolCall("f", {"a": {"html": "</parameter><b>"}})
    text = tooletta.render([call], "minimax_m2")
    assert "\\u003c/parameter>" in text
    assert tooletta.parse(text, "minimax_m2").calls == [call]


def test_content_with_markers_is_refused() -> None:
    for dialect, marker in [
        ("minimax_m1", "<tool_calls>"),
        ("minimax_m2", "<minimax:tool_call>"),
        ("minimax_m3", S),
        ("minimax_m3", "<mm:think>"),
    ]:
        with pytest.raises(tooletta.RenderError):
            tooletta.render([ToolCall("f", {})], dialect, content=f"see {marker}")


# -- streaming --------------------------------------------------------------------------------


def test_m1_arguments_stream_as_generated() -> None:
    text = '<tool_calls>\n{"name": "f", "arguments": {"q": "hello world"}}\n</tool_calls>'
    check_arguments_stream("minimax_m1", text, {"q": "hello world"}, pieces=5)


def test_two_calls_in_one_delta() -> None:
    text = tooletta.render([ToolCall("a", {"x": 1}), ToolCall("b", {"y": "z"})], "minimax_m2")
    updates, last = stream_text("minimax_m2", [text])
    got = assemble([*updates, last])
    assert got.calls == [ToolCall("a", {"x": 1}), ToolCall("b", {"y": "z"})]


def test_unclosed_block_keeps_finished_calls_streaming() -> None:
    text = (
        '<minimax:tool_call>\n<invoke name="a">\n</invoke>\n'
        '<invoke name="b">\n<parameter name="x">1'
    )
    result = tooletta.parse(text, "minimax_m2")
    assert result.calls == [ToolCall("a", {})]
    assert len(result.unparsed) == 1
    updates, last = stream_text("minimax_m2", list(text))
    got = assemble([*updates, last])
    assert got.calls == [ToolCall("a", {})]
    assert len(got.unparsed) == 1


# -- typing -----------------------------------------------------------------------------------


def test_m3_nested_typing_follows_the_schema() -> None:
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer"},
            "s": {"type": "string"},
            "l": {"type": "array", "items": {"type": "number"}},
            "t": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}]},
        },
    }
    body = (
        f"{S}<n>5{S}</n>{S}<s>5{S}</s>{S}<l>{S}<item>1{S}</item>{S}<item>2.5{S}</item>{S}</l>"
        f"{S}<t>{S}<item>1{S}</item>{S}<item>true{S}</item>{S}</t>"
    )
    text = f'{S}<tool_call>\n{S}<invoke name="f">{S}<k>{body}{S}</k>{S}</invoke>\n{S}</tool_call>'
    want = {"k": {"n": 5, "s": "5", "l": [1, 2.5], "t": ["1", True]}}
    tools = schema_tools({"k": schema})
    assert tooletta.parse(text, "minimax_m3", tools=tools).calls == [ToolCall("f", want)]
    updates, last = stream_text("minimax_m3", list(text), tools)
    assert assemble([*updates, last]).calls == [ToolCall("f", want)]


def test_m3_malformed_nesting_is_unparsed() -> None:
    good = f'{S}<invoke name="a">{S}<x>1{S}</x>{S}</invoke>\n'
    bad = f'{S}<invoke name="b">{S}<x>1{S}</y>{S}</invoke>\n'
    text = f"Hi.\n{S}<tool_call>\n{good}{bad}{S}</tool_call> after"
    result = tooletta.parse(text, "minimax_m3")
    assert result.calls == [ToolCall("a", {"x": 1})]
    assert len(result.unparsed) == 1
    assert result.content == "Hi. after"
