"""Conformance and format tests for gemma4 and functiongemma."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tooletta_dialect_gemma import G4_CLOSE, G4_OPEN, plain_calls

import tooletta
from tooletta import ToolCall
from tooletta.testing import DialectTests, check_render_refuses, check_stream_equals_parse
from tooletta.testing.settings import DialectSettings

FIXTURES = Path(__file__).parent / "fixtures"


class _Markup(DialectSettings):
    """Markup in string values, list items and keys round-trips, or render refuses a string
    holding the format's string delimiter."""

    markup = (
        '<|"|',
        '|"|>',
        "<|tool_call>",
        "<tool_call|>",
        "<turn|>",
        "<escape",
        "escape>",
        "<start_function_call>",
        "<end_function_call>",
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "call:",
        "true",
        "5",
        "null",
        '"',
        "\\",
        "\n",
        " ",
    )
    markup_filler = None
    markup_untyped = True
    markup_examples = 60
    delimiter = ""

    def markup_calls(self, value: str, other: str) -> list[list[ToolCall]]:
        return [[ToolCall("f", {"s": value, "l": [value], "d": {value or "k": value}})]]

    def may_refuse(self, calls: list[ToolCall], content: str) -> bool:
        return self.delimiter in calls[0].arguments["s"]


class TestGemma4(_Markup, DialectTests):
    dialect = "gemma4"
    fixtures = FIXTURES / "gemma4.json"
    names = ("GEMMA4",)
    delimiter = '<|"|>'


class TestGemma42607(TestGemma4):
    """The kit's laws for the ``gemma4_2607`` variant (Gemma 4's canonical template: ``None``
    written ``null``), on ``gemma4``'s golden cases (one parser reads both)."""

    dialect = "gemma4_2607"
    names = ("gemma4_2607",)
    models = ("google/gemma-4-31B-it", "google/gemma-4-26B-A4B-it")

    def test_golden_detect(self) -> None:
        """Detection names the parser of these texts, ``gemma4``: a rendering variant claims
        no text of its own (the variant's texts read the same)."""
        for case in self.cases():
            if case["calls"] and case.get("detect", True):
                assert tooletta.detect(case["text"]) == "gemma4", case["name"]


class TestFunctionGemma(_Markup, DialectTests):
    dialect = "functiongemma"
    fixtures = FIXTURES / "functiongemma.json"
    names = ("FunctionGemma",)
    delimiter = "<escape>"


WEATHER = ToolCall("get_weather", {"days": 3, "city": "Paris"})


def _fragments(dialect: str, text: str) -> list[tuple[str, str]]:
    """(text fed so far, argument fragment) for one character at a time."""
    parser = tooletta.stream(dialect)
    out = []
    for i, ch in enumerate(text):
        for d in parser.feed(ch).calls:
            if d.arguments:
                out.append((text[: i + 1], d.arguments))
    for d in parser.finish().calls:
        out.append((text, d.arguments))
    return out


# -- render vs the real templates --------------------------------------------------------------


def test_gemma4_render_matches_template() -> None:
    # gemma4.jinja: '<|tool_call>call:' + name + '{' + dictsort k:v joined by ',' + '}<tool_call|>',
    # the calls before the content in the model turn
    text = tooletta.render([WEATHER], "gemma4", content="Let me check.")
    assert (
        text == '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|>Let me check.'
    )
    call = ToolCall(
        "create_event",
        {
            "title": "Standup",
            "options": {"remind": True, "minutes": 10},
            "attendees": ["ann", "bob"],
        },
    )
    assert tooletta.render([call, ToolCall("now", {})], "gemma4") == (
        '<|tool_call>call:create_event{attendees:[<|"|>ann<|"|>,<|"|>bob<|"|>],'
        'options:{minutes:10,remind:true},title:<|"|>Standup<|"|>}<tool_call|>'
        "<|tool_call>call:now{}<tool_call|>"
    )


def test_gemma4_render_dictsort_is_case_insensitive_and_none() -> None:
    call = ToolCall("f", {"b": None, "A": -2.5, "a": False})
    assert tooletta.render([call], "gemma4") == (
        "<|tool_call>call:f{A:-2.5,a:false,b:None}<tool_call|>"
    )
    assert tooletta.parse(tooletta.render([call], "gemma4"), "gemma4").calls == [call]


def test_functiongemma_render_docs_form() -> None:
    call = ToolCall("get_current_temperature", {"unit": "celsius", "location": "Paris"})
    assert tooletta.render([call], "functiongemma", content="Sure.") == (
        "Sure.<start_function_call>call:get_current_temperature"
        "{location:<escape>Paris<escape>,unit:<escape>celsius<escape>}<end_function_call>"
    )


def test_functiongemma_json_looking_strings_are_quoted() -> None:
    call = ToolCall("f", {"a": "5", "b": "true", "c": '"x"', "d": "5 apples", "e": 5})
    text = tooletta.render([call], "functiongemma")
    assert text == (
        '<start_function_call>call:f{a:<escape>"5"<escape>,b:<escape>"true"<escape>,'
        'c:<escape>"\\"x\\""<escape>,d:<escape>5 apples<escape>,e:5}<end_function_call>'
    )
    assert tooletta.parse(text, "functiongemma").calls == [call]


# -- render refuses strings holding the delimiter ----------------------------------------------


@pytest.mark.parametrize(
    ("dialect", "value"),
    [("gemma4", 'a<|"|>b'), ("gemma4", '<|"|>'), ("functiongemma", "x<escape>")],
)
def test_render_refuses_the_delimiter(dialect: str, value: str) -> None:
    shapes = ({"s": value}, {"l": [value]}, {"d": {"k": value}}, {value: 1})
    check_render_refuses(dialect, calls=[[ToolCall("f", args)] for args in shapes])


@pytest.mark.parametrize(
    "call", [ToolCall("f", {"x": float("nan")}), ToolCall("bad name", {}), ToolCall("f{", {})]
)
@pytest.mark.parametrize("dialect", ["gemma4", "functiongemma"])
def test_render_refuses_unwritable(call: ToolCall, dialect: str) -> None:
    check_render_refuses(dialect, calls=[[call]])


# -- names and detection -----------------------------------------------------------------------


def test_detection() -> None:
    assert tooletta.detect('x<|tool_call>call:f{a:<|"|>b<|"|>}<tool_call|>') == "gemma4"
    assert tooletta.detect("<start_function_call>call:f{}<end_function_call>") == "functiongemma"
    assert tooletta.detect("We call: f{a:1} here.") is None


# -- streaming ---------------------------------------------------------------------------------


def test_gemma4_strings_stream_char_by_char() -> None:
    text = '<|tool_call>call:note{text:<|"|>Hello, world<|"|>,n:12,ok:true}<tool_call|>'
    frags = _fragments("gemma4", text)
    joined = "".join(f for _, f in frags)
    assert json.loads(joined) == {"text": "Hello, world", "n": 12, "ok": True}
    # the string arrives as it is written, one character per delta
    at = [fed for fed, f in frags if f == "H"]
    assert at and at[0].endswith('<|"|>H')
    # a number is sent when it closes
    assert any(fed.endswith("n:12,") and f == "12" for fed, f in frags)


def test_functiongemma_text_streams_json_waits() -> None:
    text = (
        "<start_function_call>call:f{a:<escape>Paris<escape>,"
        "b:<escape>5<escape>,c:<escape>tr<escape>}<end_function_call>"
    )
    frags = _fragments("functiongemma", text)
    assert json.loads("".join(f for _, f in frags)) == {"a": "Paris", "b": 5, "c": "tr"}
    assert any(fed.endswith("<escape>P") and f == '"P' for fed, f in frags)
    assert any(fed.endswith("5<escape>") and f == "5" for fed, f in frags)


def test_calls_stream_one_by_one() -> None:
    text = tooletta.render([WEATHER, ToolCall("get_time", {"tz": "CET"})], "gemma4")
    parser = tooletta.stream("gemma4")
    names: list[tuple[int, str]] = []
    for i, ch in enumerate(text):
        for d in parser.feed(ch).calls:
            if d.name:
                names.append((i, d.name))
    parser.finish()
    assert [n for _, n in names] == ["get_weather", "get_time"]
    assert names[0][0] < text.index("<tool_call|>") < names[1][0]


def test_linear_streaming_of_a_long_string() -> None:
    big = "y" * 200_000
    text = f'<|tool_call>call:w{{body:<|"|>{big}<|"|>}}<tool_call|>'
    parser = tooletta.stream("gemma4")
    for i in range(0, len(text), 5):
        parser.feed(text[i : i + 5])
    parser.finish()


# -- values typed by their own syntax; tools accepted ------------------------------------------


@pytest.mark.parametrize(
    ("g4", "fg", "value"),
    [
        ('<|"|>007<|"|>', "<escape>007<escape>", "007"),
        ("7", "7", 7),
        ("-7", "<escape>-7<escape>", -7),
        ("2.5", "2.5", 2.5),
        ("true", "<escape>true<escape>", True),
        ("false", "false", False),
        ("null", "null", None),
        ("None", "None", None),
        ("celsius", "celsius", "celsius"),
        ('[1,<|"|>a<|"|>]', "[1,<escape>a<escape>]", [1, "a"]),
        ("{k:{n:None}}", "{k:{n:None}}", {"k": {"n": None}}),
    ],
)
def test_values_typed_by_syntax(g4: str, fg: str, value: Any) -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "f",
                "parameters": {"type": "object", "properties": {"v": {"type": "string"}}},
            },
        }
    ]
    # "007" in an <escape> value is not JSON (leading zero), so it stays a string
    cases = [
        ("gemma4", f"<|tool_call>call:f{{v:{g4}}}<tool_call|>"),
        ("functiongemma", f"<start_function_call>call:f{{v:{fg}}}<end_function_call>"),
    ]
    for dialect, text in cases:
        for t in (None, tools):
            assert tooletta.parse(text, dialect, tools=t).calls == [ToolCall("f", {"v": value})]
            check_stream_equals_parse(dialect, text, None, t)


@pytest.mark.parametrize(
    "body",
    [
        "{a:}",
        "{a 1}",
        "{:1}",
        "{a:1,,b:2}",
        "{a:[1,2}",
        "{a:{b:1]}",
        "{a:1",
        "{a:" + "[" * 300 + "]" * 300 + "}",
    ],
)
def test_malformed_arguments_are_unparsed(body: str) -> None:
    text = f"ok<|tool_call>call:f{body}<tool_call|>after"
    result = tooletta.parse(text, "gemma4")
    assert result.calls == [] and len(result.unparsed) == 1
    assert result.content == "okafter"
    check_stream_equals_parse("gemma4", text)


# -- calls written without reading back ----------------------------------------------------------

_KEYS = st.sampled_from(
    ["a", "B", "b", "city", "x.y", "n-1", "_", "None", "true", "1", "é", "a b", 1]
)
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(st.sampled_from('ab <|">:{},[]\n\x7f'), max_size=8),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.tuples(inner),
        st.dictionaries(_KEYS, inner, max_size=3),
    ),
    max_leaves=8,
)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["f", "get_weather", "a.b-c", "é", "x:y"]),
            st.dictionaries(_KEYS, _VALUES, max_size=4),
        ),
        max_size=3,
    ),
    st.text(st.sampled_from("ab <|>\n"), max_size=6),
)
def test_calls_written_without_reading_back_read_back(
    calls: list[tuple[str, dict[str, Any]]], content: str
) -> None:
    # what plain_calls vouches for is what render_calls writes, and it reads back unchanged
    dialect = tooletta.get_dialect("gemma4")
    items = [ToolCall(name, args) for name, args in calls]
    text = plain_calls(items, G4_OPEN, G4_CLOSE)
    if text is None:
        return
    assert text == (dialect.render_calls(items) if items else "")
    if "<" in content:
        return
    assert dialect.render(items, content) == text + content
    back = dialect.parse(text + content)
    assert not back.unparsed
    assert [(c.name, c.arguments) for c in back.calls] == [(c.name, c.arguments) for c in items]
    assert back.content.strip() == content.strip()


def test_calls_not_vouched_for_are_still_read_back() -> None:
    # a tuple is written as a list, which reads back as another value: refused as before
    check_render_refuses("gemma4", calls=[[ToolCall("f", {"t": (1, 2)})]])
    assert plain_calls([ToolCall("f", {"t": (1, 2)})], G4_OPEN, G4_CLOSE) is None
    # keys of mixed types are not sorted (str.lower would fail on them): refused as before
    mixed = ToolCall("f", {"o": {1: "x", "a": 2}})
    assert plain_calls([mixed], G4_OPEN, G4_CLOSE) is None
    check_render_refuses("gemma4", calls=[[mixed]])
