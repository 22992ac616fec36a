"""Conformance and format tests for the solar_open2 dialect (Upstage Solar Open2)."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import ToolCall
from tooletta.testing import (
    DialectTests,
    TypedDialectTests,
    check_arguments_stream,
    check_render_refuses,
    check_stream_equals_parse,
    schema_tools,
)

CS, CE = "<|tool_call:start|>", "<|tool_call:end|>"
AS, AV, AE = "<|tool_arg:start|>", "<|tool_arg:value|>", "<|tool_arg:end|>"


class TestSolarOpen2(TypedDialectTests):
    dialect = "solar_open2"
    fixtures = Path(__file__).parent / "fixtures" / "solar_open2.json"
    names = ("solar_open2", "solar-open2", "Solar", "SOLAR_OPEN2")
    models = ("upstage/Solar-Open2-100B", "someone/solar-open2-gguf")
    markup = (CS, CE, AS, AV, AE, "<|tool_call:", "<|tool_arg:", "<|think:end|>", "\n", " ", "{")
    markup_filler = "ab<|> "
    markup_examples = 60
    typing_rules = (("string", " x\n", " x\n"),)

    def markup_calls(self, value: str, other: str) -> list[list[ToolCall]]:
        return [[ToolCall("f", {"k": value})], [ToolCall("f", {"k": value, "n": {"v": [other]}})]]

    def render_param(self, name: str, raw: str) -> str:
        return f"{CS}f\n{AS}{name}{AV}{raw}{AE}\n{CE}"


def test_render_matches_template() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 3}), ToolCall("now", {})]
    assert tooletta.render(calls, "solar_open2", content="Let me check.") == (
        "Let me check.<|tool_call:start|>get_weather\n"
        "<|tool_arg:start|>city<|tool_arg:value|>Paris<|tool_arg:end|>\n"
        "<|tool_arg:start|>days<|tool_arg:value|>3<|tool_arg:end|>\n"
        "<|tool_call:end|>\n"
        "<|tool_call:start|>now\n<|tool_call:end|>"
    )


def test_render_values_as_json() -> None:
    call = ToolCall("f", {"o": {"a": [1, None]}, "b": False, "s": "x y"})
    assert tooletta.render([call], "solar_open2") == (
        f'{CS}f\n{AS}o{AV}{{"a": [1, null]}}{AE}\n{AS}b{AV}false{AE}\n{AS}s{AV}x y{AE}\n{CE}'
    )


def test_render_refuses_what_cannot_be_written() -> None:
    check_render_refuses(
        "solar_open2",
        values=[f"a{AE}b", f"a{CE}", f"x{AS}y"],
        names=["", " padded", "two\nlines", f"a{AS}b"],
        keys=[f"k{AV}", f"k{CE}"],
        contents=[f"x{CS}y", "x<|think:start|>y"],
    )


def test_json_value_holding_markers_is_escaped() -> None:
    call = ToolCall("f", {"o": {"s": f"a{AE}b"}})
    text = tooletta.render([call], "solar_open2")
    assert "\\u003c" in text
    assert tooletta.parse(text, "solar_open2").calls == [call]


def test_reasoning_with_prompt_prefix() -> None:
    text = f"I should check.<|think:end|>Sure.{CS}f\n{CE}\n<|im:end|>"
    result = tooletta.get_dialect("solar_open2").parse(text, prefix="<|think:start|>")
    assert result.reasoning == "I should check."
    assert result.content == "Sure."
    assert result.calls == [ToolCall("f", {})]
    # without the prefix, the stray end of reasoning is only removed
    assert tooletta.parse(text, "solar_open2").content == "I should check.Sure."


def test_aliases_models_detection() -> None:
    assert tooletta.get_dialect("solar").info.name == "solar_open2"
    assert tooletta.dialect_for_model("upstage/Solar-Open2-100B") == "solar_open2"
    assert tooletta.detect(f"{CS}f\n{CE}") == "solar_open2"


def test_name_line_variants() -> None:
    for text, want in [
        (f"{CS}now{CE}", ToolCall("now", {})),
        (f"{CS} f \n{AS}a{AV}1{AE}{CE}", ToolCall("f", {"a": 1})),
        (f"{CS}f{AS}a{AV}1{AE}\n{CE}", ToolCall("f", {"a": 1})),
    ]:
        assert tooletta.parse(text, "solar_open2").calls == [want], text
        check_stream_equals_parse("solar_open2", text)


@pytest.mark.parametrize(
    "text",
    [
        f"{CS}\n{CE}",  # no name
        f"{CS}f\n{AS}a{AV}1{AE}",  # truncated: no end of call
        f"{CS}f\nprose{CE}",  # text where an argument belongs
    ],
)
def test_malformed_calls_are_unparsed(text: str) -> None:
    result = tooletta.parse(text, "solar_open2")
    assert not result.calls and len(result.unparsed) == 1
    with pytest.raises(tooletta.ParseError):
        tooletta.parse(text, "solar_open2", strict=True)


def test_arguments_stream_as_generated() -> None:
    text = f"{CS}search\n{AS}q{AV}a long query string{AE}\n{CE}"
    check_arguments_stream(
        "solar_open2",
        text,
        '{"q": "a long query string"}',
        tools=schema_tools({"q": "string"}, "search"),
    )


OB, ON, OA, OE = (
    "<|tool_call:begin|>",
    "<|tool_call:name|>",
    "<|tool_call:args|>",
    "<|tool_call:end|>",
)
OS, OC = "<|tool_calls|>", "<|calls|>"


class TestSolarOpen(DialectTests):
    dialect = "solar_open"
    fixtures = Path(__file__).parent / "fixtures" / "solar_open.json"
    ids = "kept"
    names = ("solar_open", "SOLAR_OPEN", "solar-open-100b")
    models = ("upstage/Solar-Open-100B", "someone/Solar-Open-100B-GGUF")
    markup = (OB, ON, OA, OE, OS, OC, "<|end|>", "<|think|>", "<|content|>", '"', "\\", "{")
    markup_filler = "ab<|> "
    markup_examples = 60


def test_solar_open_render_matches_template() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris"}, "a1b2c3d4e5"), ToolCall("now", {}, "b")]
    assert tooletta.render(calls, "solar_open") == (
        f'{OS}{OB}a1b2c3d4e5{ON}get_weather{OA}{{"city": "Paris"}}{OE}{OB}b{ON}now{OA}{{}}{OE}{OC}'
    )


def test_solar_open_generates_template_shaped_ids() -> None:
    text = tooletta.render([ToolCall("f", {"a": 1})], "solar_open")
    (call,) = tooletta.parse(text, "solar_open").calls
    assert call.id is not None and len(call.id) == 10 and call.id.isalnum()
    assert call.id == call.id.lower()
    assert tooletta.render([ToolCall("f", {"a": 1})], "solar_open") == text  # stable


def test_solar_open_end_token_in_a_string_is_escaped() -> None:
    call = ToolCall("f", {"s": "a<|end|>b"}, "x")
    text = tooletta.render([call], "solar_open")
    assert "\\u003c" in text
    assert tooletta.parse(text, "solar_open").calls == [call]


def test_solar_open_render_refuses_markup_in_names_and_ids() -> None:
    check_render_refuses("solar_open", names=["", " f", f"a{OA}b"], contents=[f"x{OB}y"])
    with pytest.raises(tooletta.RenderError):
        tooletta.render([ToolCall("f", {}, f"a{ON}b")], "solar_open")


def test_solar_open_is_not_solar_open2() -> None:
    text = f"{OS}{OB}i{ON}f{OA}{{}}{OE}{OC}"
    assert tooletta.detect(text) == "solar_open"
    assert tooletta.detect(f"{CS}f\n{CE}") == "solar_open2"
    assert tooletta.dialect_for_model("upstage/Solar-Open2-100B") == "solar_open2"


@pytest.mark.parametrize(
    "text",
    [
        f"{OS}{OB}i{OA}{{}}{OE}{OC}",  # no name marker
        f"{OS}{OB}i{ON}f{OA}[1]{OE}{OC}",  # arguments not an object
        f'{OS}{OB}i{ON}f{OA}{{"a": 1',  # cut off inside the arguments
    ],
)
def test_solar_open_malformed_calls_are_unparsed(text: str) -> None:
    result = tooletta.parse(text, "solar_open")
    assert not result.calls
    check_stream_equals_parse("solar_open", text)


def test_solar_open_arguments_stream() -> None:
    text = f'{OS}{OB}i{ON}search{OA}{{"q": "a long query"}}{OE}{OC}'
    check_arguments_stream("solar_open", text, '{"q": "a long query"}')
