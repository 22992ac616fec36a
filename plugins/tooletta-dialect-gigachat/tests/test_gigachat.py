"""Conformance and format tests for the gigachat3 and gigachat35 dialects."""

from __future__ import annotations

from pathlib import Path

import tooletta
from tooletta import ToolCall
from tooletta.testing import (
    MARKUP_PUNCTUATION,
    DialectTests,
    TypedDialectTests,
    check_arguments_stream,
    check_render_refuses,
    schema_tools,
)
from tooletta.testing.settings import DialectSettings

FIXTURES = Path(__file__).parent / "fixtures"


class _Markup(DialectSettings):
    """Markup-like strings in values and content round-trip or are refused."""

    markup = (
        "<|message_sep|>",
        "function call<|role_sep|>",
        "<|function_call|>",
        "<|role_sep|>",
        "</s>",
        "<｜GCML｜tool_calls>",
        "</｜GCML｜tool_calls>",
        '<｜GCML｜invoke name="f">',
        "</｜GCML｜invoke>",
        '<｜GCML｜parameter name="v" string="true">',
        "</｜GCML｜parameter>",
        "<think>",
        "</think>",
        *MARKUP_PUNCTUATION,
    )
    markup_size = 8
    markup_content = None
    markup_keys = True

    def markup_calls(self, value: str, other: str) -> list[list[ToolCall]]:
        return [*super().markup_calls(value, other), [ToolCall("f", {"x": [value]})]]


class TestGigaChat3(_Markup, DialectTests):
    dialect = "gigachat3"
    fixtures = FIXTURES / "gigachat3.json"
    names = ("gigachat",)
    models = ("ai-sage/GigaChat3-10B-A1.8B",)


class TestGigaChat35(_Markup, TypedDialectTests):
    """Parameters without a ``string`` attribute are typed by the schema."""

    dialect = "gigachat35"
    fixtures = FIXTURES / "gigachat35.json"
    models = ("ai-sage/GigaChat3.5-Lightning",)

    def render_param(self, name: str, raw: str) -> str:
        return gcml(raw, name=name)


def test_gigachat3_render_matches_template() -> None:
    call = ToolCall("get_weather", {"city": "Paris", "days": 3})
    assert tooletta.render([call], "gigachat3", content="Let me check.") == (
        "Let me check.<|message_sep|>\n\nfunction call<|role_sep|>\n"
        '{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}'
    )
    assert tooletta.render([call], "gigachat3").startswith("<|message_sep|>\n\nfunction call")


def test_gigachat35_render_matches_template() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 3}), ToolCall("get_time", {})]
    assert tooletta.render(calls, "gigachat35", content="Let me check.") == (
        "Let me check.\n\n<｜GCML｜tool_calls>\n"
        '<｜GCML｜invoke name="get_weather">\n'
        '<｜GCML｜parameter name="city" string="true">Paris</｜GCML｜parameter>\n'
        '<｜GCML｜parameter name="days" string="false">3</｜GCML｜parameter>\n'
        "</｜GCML｜invoke>\n"
        '<｜GCML｜invoke name="get_time">\n</｜GCML｜invoke>\n'
        "</｜GCML｜tool_calls>"
    )


def test_gigachat3_arguments_stream_verbatim() -> None:
    text = 'Ok<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "f", "arguments": {"a": [1]}}'
    check_arguments_stream("gigachat3", text, '{"a": [1]}', pieces=2)


def test_gigachat35_string_streams_before_the_tag_closes() -> None:
    parser = tooletta.stream("gigachat35")
    parser.feed('<｜GCML｜tool_calls>\n<｜GCML｜invoke name="f">\n<｜GCML｜parameter name="q" ')
    parser.feed('string="true">hello wor')
    frags = [d.arguments for d in parser.feed("ld and more").calls]
    assert "".join(frags).startswith("ld")


def gcml(raw: str, attr: str = "", name: str = "v") -> str:
    return (
        f'<｜GCML｜tool_calls>\n<｜GCML｜invoke name="f">\n<｜GCML｜parameter name="{name}"{attr}>'
        f"{raw}</｜GCML｜parameter>\n</｜GCML｜invoke>\n</｜GCML｜tool_calls>"
    )


def test_gigachat35_explicit_string_attribute_wins_over_schema() -> None:
    text = gcml("42", ' string="true"')
    result = tooletta.parse(text, "gigachat35", tools=schema_tools({"v": "integer"}))
    assert result.calls == [ToolCall("f", {"v": "42"})]


def test_gigachat35_render_refuses_breaking_values() -> None:
    check_render_refuses("gigachat35", values=("a</｜GCML｜parameter>b",), names=('f"x',))


def test_detection_tells_the_two_apart() -> None:
    g3 = 'Ok<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "f", "arguments": {}}'
    assert tooletta.detect(g3) == "gigachat3"
    assert tooletta.detect(gcml("1")) == "gigachat35"
