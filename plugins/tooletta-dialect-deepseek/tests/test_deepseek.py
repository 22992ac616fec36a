"""Conformance and format tests for the DeepSeek dialects."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tooletta_dialect_deepseek import DeepSeekV4Dialect

import tooletta
from tooletta import RenderError, ToolCall
from tooletta.testing import (
    DialectTests,
    EscapedMarkupSettings,
    TypedDialectTests,
    assemble,
    check_arguments_stream,
    check_round_trip,
    check_typed_value,
    markup_strings,
    schema_tools,
    stream_text,
    tools_for,
)

FIXTURES = Path(__file__).parent / "fixtures"
EOS = "<｜end▁of▁sentence｜>"


MARKUP = (
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁call▁begin｜>",
    "<｜tool▁sep｜>",
    "<｜tool▁call▁end｜>",
    "<｜tool▁calls▁end｜>",
    "```json\n",
    "\n```",
    EOS,
    "<think>",
    "</think>",
    "<｜DSML｜function_calls>",
    '<｜DSML｜invoke name="x">',
    '<｜DSML｜parameter name="k" string="true">',
    "</｜DSML｜parameter>",
    "</｜DSML｜ parameter>",
    "</｜DSML｜invoke>",
    "<｜DSML｜ calls>",
    '"',
    "\\",
    "\n",
    " ",
    "{",
    "}",
)


class _Markup(EscapedMarkupSettings):
    """Markup in string values always round-trips (JSON or DSML escapes), also untyped."""

    markup = MARKUP


class _Dsml(_Markup, TypedDialectTests):
    """DSML parameters without a ``string`` attribute are typed by the schema."""

    block = ""

    def render_param(self, name: str, raw: str) -> str:
        return (
            f'<｜DSML｜{self.block}>\n<｜DSML｜invoke name="f">\n'
            f'<｜DSML｜parameter name="{name}">{raw}</｜DSML｜parameter>\n'
            f"</｜DSML｜invoke>\n</｜DSML｜{self.block}>"
        )


class TestDeepSeekV3(_Markup, DialectTests):
    dialect = "deepseek_v3"
    fixtures = FIXTURES / "deepseek_v3.json"
    names = ("deepseek_v3", "deepseek-v3", "deepseekv3", "deepseek_r1", "DeepSeek-R1")
    models = (
        "deepseek-ai/DeepSeek-V3-0324",
        "deepseek-ai/DeepSeek-R1-0528",
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B",
    )


class TestDeepSeekV31(_Markup, DialectTests):
    dialect = "deepseek_v31"
    fixtures = FIXTURES / "deepseek_v31.json"
    names = ("deepseek_v31", "deepseekv31", "deepseek", "deepseek31")
    models = ("deepseek-ai/DeepSeek-V3.1-Terminus", "deepseek-ai/DeepSeek-V3.2-Exp")


class TestDeepSeekV32(_Dsml):
    dialect = "deepseek_v32"
    fixtures = FIXTURES / "deepseek_v32.json"
    names = ("deepseek_v32", "deepseekv32", "deepseek32")
    models = ("deepseek-ai/DeepSeek-V3.2",)
    block = "function_calls"


class TestDeepSeekV4(_Dsml):
    dialect = "deepseek_v4"
    fixtures = FIXTURES / "deepseek_v4.json"
    names = ("deepseek_v4", "deepseekv4", "deepseek_v41", "deepseekv41")
    models = ("deepseek-ai/DeepSeek-V4-Flash", "deepseek-ai/DeepSeek-V4.1-Flash")
    block = "tool_calls"


WEATHER = ToolCall("get_weather", {"city": "Paris", "days": 3})
TIME = ToolCall("get_time", {"tz": "CET"})


# -- render: the real templates' assistant text (end-of-turn token omitted) -----------------


def test_render_v3_matches_template() -> None:
    # vllm examples/tool_chat_template_deepseekv3.jinja (without its leaked indentation)
    assert tooletta.render([WEATHER, TIME], "deepseek_v3", content="Let me check.") == (
        "Let me check.<｜tool▁calls▁begin｜>"
        "<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n"
        '```json\n{"city": "Paris", "days": 3}\n```<｜tool▁call▁end｜>\n'
        "<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n"
        '```json\n{"tz": "CET"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
    )


def test_render_v31_matches_template() -> None:
    # llama.cpp models/templates/deepseek-ai-DeepSeek-V3.1.jinja
    assert tooletta.render([WEATHER], "deepseek_v31", content="Let me check.") == (
        "Let me check.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
        '{"city": "Paris", "days": 3}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
    )
    two = tooletta.render([WEATHER, TIME], "deepseek_v31")
    assert "<｜tool▁call▁end｜><｜tool▁call▁begin｜>get_time" in two


def _dsml(block: str, sp: str = "") -> str:
    d = "｜DSML｜"
    return (
        f"Let me check.\n\n<{d}{block}>\n"
        f'<{d}{sp}invoke name="get_weather">\n'
        f'<{d}{sp}parameter name="city" string="true">Paris</{d}{sp}parameter>\n'
        f'<{d}{sp}parameter name="days" string="false">3</{d}{sp}parameter>\n'
        f"</{d}{sp}invoke>\n</{d}{block}>"
    )


def test_render_dsml_matches_encoders() -> None:
    # vllm/tokenizers/deepseek_v32_encoding.py, deepseek_v4_encoding.py, deepseek_v41_encoding.py
    assert tooletta.render([WEATHER], "deepseek_v32", content="Let me check.") == _dsml(
        "function_calls"
    )
    assert tooletta.render([WEATHER], "deepseek_v4", content="Let me check.") == _dsml("tool_calls")
    v41 = DeepSeekV4Dialect(v41=True).render([WEATHER], content="Let me check.")
    assert v41 == _dsml(" calls", " ")
    assert tooletta.parse(v41, "deepseek_v41").calls == [WEATHER]
    assert tooletta.detect(v41) == "deepseek_v4"


def test_render_dsml_empty_arguments_and_no_content() -> None:
    text = tooletta.render([ToolCall("now", {})], "deepseek_v32")
    assert text == (
        '\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="now">\n\n</｜DSML｜invoke>\n'
        "</｜DSML｜function_calls>"
    )


def test_render_dsml_escapes_only_what_it_must() -> None:
    closer = "a </｜DSML｜parameter> b"
    call = ToolCall("echo", {"raw": 'x "q" \\ <｜DSML｜invoke', "closer": closer, "eos": EOS})
    text = tooletta.render([call], "deepseek_v32")
    assert 'string="true">x "q" \\ <｜DSML｜invoke</｜DSML｜parameter>' in text
    assert 'name="closer" string="false">"a \\u003c/｜DSML｜parameter> b"' in text
    assert tooletta.parse(text, "deepseek_v32").calls == [call]
    assert tooletta.parse(text, "deepseek_v32", tools=tools_for([call])).calls == [call]


@pytest.mark.parametrize("dialect", ["deepseek_v3", "deepseek_v31", "deepseek_v32", "deepseek_v4"])
@pytest.mark.parametrize("name", ["", " padded", "a\nb", "x<｜tool▁sep｜>y", 'q"'])
def test_render_refuses_names_that_would_read_back_differently(dialect: str, name: str) -> None:
    check_round_trip(dialect, [ToolCall(name, {})])


def test_content_with_markup_is_refused() -> None:
    with pytest.raises(RenderError):
        tooletta.render([WEATHER], "deepseek_v31", content="see <｜tool▁calls▁begin｜>")
    with pytest.raises(RenderError):
        tooletta.render([WEATHER], "deepseek_v4", content="<think>x</think>")


# -- names, detection, models ------------------------------------------------------------------


def test_detection_tells_v3_from_v31_by_the_first_call() -> None:
    v3 = tooletta.render([WEATHER], "deepseek_v3")
    v31 = tooletta.render([WEATHER], "deepseek_v31")
    assert tooletta.detect(v3) == "deepseek_v3"
    assert tooletta.detect(v31) == "deepseek_v31"
    assert tooletta.detect(tooletta.render([ToolCall("function", {"a": 1})], "deepseek_v31")) == (
        "deepseek_v31"
    )
    assert tooletta.detect(tooletta.render([WEATHER], "deepseek_v32")) == "deepseek_v32"
    assert tooletta.detect(tooletta.render([WEATHER], "deepseek_v4")) == "deepseek_v4"


def test_prose_is_not_a_call() -> None:
    for text in ("DeepSeek models call tools with special tokens.", "<think> and ``` fences"):
        assert tooletta.detect(text) is None


# -- streaming ------------------------------------------------------------------------------------


@pytest.mark.parametrize("dialect", ["deepseek_v3", "deepseek_v31", "deepseek_v32", "deepseek_v4"])
def test_arguments_stream_as_generated(dialect: str) -> None:
    call = ToolCall("write", {"path": "a.txt", "text": "hello world, streamed", "n": [1, 2]})
    text = tooletta.render([call], dialect, content="Writing.")
    deltas = check_arguments_stream(dialect, text, call.arguments, pieces=5)
    assert [d.name for d in deltas if d.name] == ["write"]


@pytest.mark.parametrize(
    ("dialect", "text"),
    [
        (
            "deepseek_v32",
            '<｜DSML｜invoke name="f">\n<｜DSML｜parameter name="s" string="true">ab'
            f"{EOS}cd</｜DSML｜parameter>\n</｜DSML｜invoke>",
        ),
        ("deepseek_v4", f'<｜DSML｜invoke name="f">\n{{"s": "ab{EOS}cd"}}\n</｜DSML｜invoke>'),
        (
            "deepseek_v31",
            f'<｜tool▁call▁begin｜>f<｜tool▁sep｜>{{"s": "ab{EOS}cd"}}<｜tool▁call▁end｜>',
        ),
        (
            "deepseek_v3",
            f'<｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n```json\n{{"s": "ab{EOS}cd"}}\n```'
            "<｜tool▁call▁end｜>",
        ),
    ],
)
def test_eos_never_reaches_argument_fragments(dialect: str, text: str) -> None:
    for size in (1, 3, len(text)):
        updates, last = stream_text(
            dialect, [text[i : i + size] for i in range(0, len(text), size)]
        )
        assert EOS not in "".join(d.arguments for u in [*updates, last] for d in u.calls)
        assert assemble([*updates, last]).calls == [ToolCall("f", {"s": "abcd"})]
    assert tooletta.parse(text, dialect).calls == [ToolCall("f", {"s": "abcd"})]
    truncated = text[: text.index(EOS) + len(EOS)]  # the turn ended mid-arguments
    updates, last = stream_text(dialect, list(truncated))
    assert EOS not in "".join(d.arguments for u in [*updates, last] for d in u.calls)
    assert not tooletta.parse(truncated, dialect).calls


# -- typing (DSML declares string="true|false"; the schema refines) -----------------------------

TYPING: list[tuple[dict[str, Any] | None, str | None, str, Any]] = [
    # (schema, string attribute, raw value, expected)
    ({"type": "string"}, "true", "007", "007"),
    (None, "true", " 42 ", " 42 "),
    ({"type": "integer"}, "true", "42", 42),
    ({"type": "integer"}, "true", "4x", "4x"),
    ({"type": "number"}, "true", "2.5", 2.5),
    ({"type": "boolean"}, "true", "False", False),
    ({"type": "null"}, "true", "None", None),
    ({"type": "object"}, "true", "{'a': 1}", {"a": 1}),
    ({"type": "array"}, "true", "[1, 2]", [1, 2]),
    ({"type": ["string", "null"]}, "true", "null", "null"),
    (None, "false", "3", 3),
    (None, "false", '{"a": [true, null]}', {"a": [True, None]}),
    (None, "false", "not json", "not json"),
    ({"type": "string"}, "false", "3", "3"),
    ({"type": "string"}, "false", '"quoted"', "quoted"),
    ({"type": "boolean"}, "false", "True", True),
    ({"type": "integer"}, None, "3", 3),
    ({"type": "string"}, None, "3", "3"),
    (None, None, "[1]", [1]),
    (None, None, "plain", "plain"),
]


@pytest.mark.parametrize(("schema", "flag", "raw", "expected"), TYPING)
def test_dsml_typing_parse_and_stream(
    schema: dict[str, Any] | None, flag: str | None, raw: str, expected: Any
) -> None:
    attr = "" if flag is None else f' string="{flag}"'
    text = (
        '<｜DSML｜tool_calls>\n<｜DSML｜invoke name="f">\n'
        f'<｜DSML｜parameter name="v"{attr}>{raw}</｜DSML｜parameter>\n'
        "</｜DSML｜invoke>\n</｜DSML｜tool_calls>"
    )
    tools = schema_tools({"v": schema} if schema is not None else {})
    check_typed_value("deepseek_v4", text, expected, tools, key="v")


def test_v41_render_round_trips() -> None:
    dialect = DeepSeekV4Dialect(v41=True)

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        st.dictionaries(
            st.sampled_from(["a", "b"]),
            st.one_of(markup_strings(MARKUP, filler=None), st.integers()),
        )
    )
    def run(args: dict[str, Any]) -> None:
        call = ToolCall("echo", dict(args))
        text = dialect.render([call], content="Hi.")
        result = tooletta.parse(text, "deepseek_v4")
        assert result.calls == [call] and result.content == "Hi."

    run()


@pytest.mark.parametrize("word", ["functon", "", "fn", "function2", "tool"])
def test_v3_damaged_type_word_is_not_read_as_intact(word: str) -> None:
    """The V3 call header is ``function<｜tool▁sep｜>``: any other word there (a damaged
    header) was read as if it were ``function``; now the call is unparsed with its text."""
    from tooletta.testing import check_stream_equals_parse

    text = tooletta.render([ToolCall("get_weather", {"city": "Paris"})], "deepseek_v3")
    broken = text.replace(">function<", f">{word}<")
    result = tooletta.parse(broken, "deepseek_v3")
    assert result.calls == []
    assert "type word" in result.unparsed[0].error and word in result.unparsed[0].raw
    check_stream_equals_parse("deepseek_v3", broken)
    with pytest.raises(tooletta.ParseError):
        tooletta.parse(broken, "deepseek_v3", strict=True)
