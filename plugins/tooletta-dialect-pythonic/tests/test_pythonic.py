"""Conformance and format tests for pythonic, olmo3, lfm2 and sarashina."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import ToolCall
from tooletta.testing import DialectTests, check_render_refuses, check_stream_equals_parse
from tooletta.testing.settings import DialectSettings

FIXTURES = Path(__file__).parent / "fixtures"


class _Markup(DialectSettings):
    """Markup in string values, list items and keys round-trips (or render refuses)."""

    markup = (
        "[",
        "]",
        "(",
        ")",
        "'",
        '"',
        "'''",
        "\\",
        "#",
        "<|python_start|>",
        "<|python_end|>",
        "<function_calls>",
        "</function_calls>",
        "<|tool_call_start|>",
        "<|tool_call_end|>",
        "<|tool_calls|>",
        "f(a=1)",
        "\n",
        "\x00",
        "\u2028",
    )
    markup_filler = None
    markup_untyped = True
    markup_examples = 60

    def markup_calls(self, value: str, other: str) -> list[list[ToolCall]]:
        return [[ToolCall("f", {"s": value, "l": [value], "d": {value: value}})]]


class TestPythonic(_Markup, DialectTests):
    dialect = "pythonic"
    fixtures = FIXTURES / "pythonic.json"
    names = ("llama4_pythonic", "Llama4-Pythonic")


class TestOlmo3(_Markup, DialectTests):
    dialect = "olmo3"
    fixtures = FIXTURES / "olmo3.json"


class TestLfm2(_Markup, DialectTests):
    dialect = "lfm2"
    fixtures = FIXTURES / "lfm2.json"


class TestSarashina(_Markup, DialectTests):
    dialect = "sarashina"
    fixtures = FIXTURES / "sarashina.json"


WEATHER = ToolCall("get_weather", {"city": "Paris", "days": 3})


def _deltas(dialect: str, text: str) -> list[tuple[str, list[Any]]]:
    """(text fed so far, call deltas of that feed) for one character at a time."""
    parser = tooletta.stream(dialect)
    out = []
    for i, ch in enumerate(text):
        update = parser.feed(ch)
        if update.calls:
            out.append((text[: i + 1], list(update.calls)))
    parser.finish()
    return out


# -- render vs the real templates --------------------------------------------------------------


def test_pythonic_render_llama4_layout() -> None:
    # Llama 4 template: content, then '[' with no separator; values as valid Python literals
    text = tooletta.render(
        [WEATHER, ToolCall("get_time", {"tz": "CET"})], "pythonic", content="Let me check."
    )
    assert text == 'Let me check.[get_weather(city="Paris", days=3), get_time(tz="CET")]'
    assert tooletta.render([WEATHER], "pythonic") == '[get_weather(city="Paris", days=3)]'


def test_pythonic_render_literals() -> None:
    call = ToolCall("f", {"s": 'a"b\\c\n\u2028é', "n": None, "t": True, "l": [1.5, {"k": False}]})
    text = tooletta.render([call], "pythonic")
    assert text == '[f(s="a\\"b\\\\c\\n\\u2028é", n=None, t=True, l=[1.5, {"k": False}])]'
    assert tooletta.parse(text, "pythonic").calls == [call]


def test_olmo3_render_matches_template() -> None:
    # tool_chat_template_olmo3.jinja:
    # "<function_calls>\n" + calls joined by "\n" + "\n</function_calls>"
    calls = [
        ToolCall("get_weather", {"city": "Paris", "days": 3}),
        ToolCall("search", {"q": "x", "f": {"a": [1, True]}, "exact": False, "limit": None}),
    ]
    assert tooletta.render(calls, "olmo3") == (
        "<function_calls>\n"
        "get_weather(city='Paris', days=3)\n"
        "search(q='x', f={\"a\": [1, true]}, exact=false, limit=null)\n"
        "</function_calls>"
    )
    assert tooletta.render([WEATHER], "olmo3", content="Let me check.") == (
        "Let me check.\n<function_calls>\nget_weather(city='Paris', days=3)\n</function_calls>"
    )


def test_olmo3_escapes_quotes_the_template_leaves_raw() -> None:
    call = ToolCall("say", {"text": "It's"})
    text = tooletta.render([call], "olmo3")
    assert "say(text='It\\'s')" in text
    assert tooletta.parse(text, "olmo3").calls == [call]


def test_lfm2_render_matches_template() -> None:
    # LFM2.5-8B-A1B.jinja:
    # content + "<|tool_call_start|>[" + calls|join(", ") + "]<|tool_call_end|>"
    calls = [WEATHER, ToolCall("f", {"opts": {"v": True}, "tags": ["a", "b"], "n": None})]
    assert tooletta.render(calls, "lfm2", content="Let me check.") == (
        "Let me check.<|tool_call_start|>[get_weather(city='Paris', days=3), "
        "f(opts={\"v\": true}, tags=['a', 'b'], n=None)]<|tool_call_end|>"
    )


def test_sarashina_render_repr_style() -> None:
    text = tooletta.render([WEATHER], "sarashina", content="Let me check.")
    assert text == (
        "Let me check.<|tool_calls|>"
        "[{'name': 'get_weather', 'arguments': {'city': 'Paris', 'days': 3}}]"
    )
    # the same as Python's repr of the list of dicts
    item = {"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}
    assert text.endswith(repr([item]))


# -- names, detection --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ('[get_weather(city="Paris")]', "pythonic"),
        ("<|python_start|>[f()]<|python_end|>", "pythonic"),
        ('Sure.\n[get_weather(city="Paris")]<|eot|>', "pythonic"),
        ("<function_calls>\nf(a=1)\n</function_calls>", "olmo3"),
        ("<|tool_call_start|>[f(a=1)]<|tool_call_end|>", "lfm2"),
        ("[{'name': 'f', 'arguments': {}}]", "sarashina"),
        ('x<|tool_calls|>[{"name": "f"}]', "sarashina"),
    ],
)
def test_detect(text: str, want: str) -> None:
    assert tooletta.detect(text) == want


@pytest.mark.parametrize(
    "text",
    [
        "See [1] and [2].",
        "Call it like [f(x)] in the docs.",
        "[f(a=1)] is the syntax; use it wisely.\nReally.",
        "Options: [{'name': 'a', 'arguments': {}}]",
        '[{"name": "f", "arguments": {}}]',
        "<function_calls><invoke name='x'></invoke></function_calls>",
    ],
)
def test_prose_is_not_claimed(text: str) -> None:
    assert tooletta.detect(text) not in ("pythonic", "olmo3", "sarashina")


# -- streaming ---------------------------------------------------------------------------------


def test_calls_stream_one_by_one() -> None:
    text = '[get_weather(city="Paris", days=3), get_time(tz="CET")]'
    seen = _deltas("pythonic", text)
    # call 0: name once the list is known to hold calls, arguments at its ')'
    assert seen[0][0] == '[get_weather(city="'
    assert seen[0][1][0].name == "get_weather" and seen[0][1][0].arguments == ""
    assert seen[1][0] == '[get_weather(city="Paris", days=3)'
    assert json.loads(seen[1][1][0].arguments) == {"city": "Paris", "days": 3}
    assert seen[2][0] == '[get_weather(city="Paris", days=3), get_time('
    assert seen[2][1][0].index == 1 and seen[2][1][0].name == "get_time"
    assert seen[3][0] == text[:-1]


@pytest.mark.parametrize("dialect", ["olmo3", "lfm2"])
def test_calls_stream_one_by_one_in_blocks(dialect: str) -> None:
    calls = [WEATHER, ToolCall("get_time", {"tz": "CET"})]
    text = tooletta.render(calls, dialect)
    seen = _deltas(dialect, text)
    first_args = next(fed for fed, ds in seen if ds[0].index == 0 and ds[0].arguments)
    assert first_args.endswith("days=3)")
    assert "get_time" not in first_args


def test_prose_bracket_is_shown_promptly() -> None:
    parser = tooletta.stream("pythonic")
    shown = "".join(parser.feed(ch).content for ch in "Note [see below] ok")
    assert shown == "Note [see below] ok"
    assert parser.finish().content == ""


def test_whitespace_before_prose_bracket_kept() -> None:
    for text in ("a [b]\n", "  [x]  ", "[f(x)] y", "x\n\n[1, 2]\n"):
        assert tooletta.parse(text, "pythonic").content == text
        check_stream_equals_parse("pythonic", text)


def test_linear_streaming_of_a_long_argument() -> None:
    big = "x" * 200_000
    parser = tooletta.stream("pythonic")
    text = f'[write(body="{big}", n=1)]'
    for i in range(0, len(text), 7):
        parser.feed(text[i : i + 7])
    parser.finish()


# -- values: typed by their own syntax; tools accepted and not needed --------------------------


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("'007'", "007"),
        ("7", 7),
        ("-7", -7),
        ("+2.5", 2.5),
        ("1e3", 1000.0),
        ("True", True),
        ("false", False),
        ("None", None),
        ("null", None),
        ("[1, 'a', (2, 3)]", [1, "a", [2, 3]]),
        ("{'k': {'n': None}}", {"k": {"n": None}}),
        ("'a' 'b'", "ab"),
        ("f'plain'", "plain"),
        ("r'C:\\tmp'", "C:\\tmp"),
    ],
)
def test_values_typed_by_syntax(source: str, value: Any) -> None:
    tools = [{"type": "function", "function": {"name": "f", "parameters": {}}}]
    for dialect, text in (
        ("pythonic", f"[f(v={source})]"),
        ("olmo3", f"<function_calls>\nf(v={source})\n</function_calls>"),
        ("lfm2", f"<|tool_call_start|>[f(v={source})]<|tool_call_end|>"),
        ("sarashina", f"[{{'name': 'f', 'arguments': {{'v': {source}}}}}]"),
    ):
        for t in (None, tools):
            result = tooletta.parse(text, dialect, tools=t)
            assert result.calls == [ToolCall("f", {"v": value})], (dialect, result)
            check_stream_equals_parse(dialect, text, None, t)


@pytest.mark.parametrize(
    "args",
    [
        "(1)",
        "(a=x)",
        "(a=1+2)",
        "(a=__import__('os'))",
        "(a=float('nan'))",
        "(a=1e999)",
        "(a=b'x')",
        "(a={1: 2})",
        "(a=[*b])",
        "(a=1, a=2)",
        "(from=1)",
        "(a=lambda: 1)",
    ],
)
def test_non_literals_are_unparsed_never_evaluated(args: str) -> None:
    result = tooletta.parse(f"[f{args}]", "pythonic")
    if result.calls == [] and not result.unparsed:  # declined as prose: "[f(1)]"
        assert result.content == f"[f{args}]"
        return
    assert result.calls == [] and len(result.unparsed) == 1
    with pytest.raises(tooletta.ParseError):
        tooletta.parse(f"[f{args}]", "pythonic", strict=True)


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    text = "[f(a=" + "[" * 5000 + "]" * 5000 + ")]"
    result = tooletta.parse(text, "pythonic")
    assert result.calls == [] and len(result.unparsed) == 1


# -- render refuses what it cannot write -------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        ToolCall("f", {"class": 1}),
        ToolCall("f", {"a b": 1}),
        ToolCall("f", {1: "an int key"}),  # type: ignore[dict-item]
        ToolCall("bad name", {}),
        ToolCall("f", {"x": float("inf")}),
        ToolCall("f", {"x": object()}),
    ],
)
@pytest.mark.parametrize("dialect", ["pythonic", "olmo3", "lfm2"])
def test_render_refuses(call: ToolCall, dialect: str) -> None:
    check_render_refuses(dialect, calls=[[call]])


def test_render_refuses_content_that_reads_as_calls() -> None:
    check_render_refuses("pythonic", contents=("[f(a=1)]",))
    check_render_refuses("sarashina", contents=("[{'name': 'f'}] ",))
    assert tooletta.render([WEATHER], "pythonic", content="see [1]").startswith("see [1][")
