"""Conformance and format tests for the functionary_v31 and functionary_v32 dialects."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import ToolCall
from tooletta.testing import (
    MARKUP_PUNCTUATION,
    DialectTests,
    check_arguments_stream,
    check_render_refuses,
    check_stream_equals_parse,
)
from tooletta.testing.settings import DialectSettings

FIXTURES = Path(__file__).parent / "fixtures"


class _Markup(DialectSettings):
    """Markup-like strings in values, code and content round-trip or are refused."""

    markup = (
        "<function=",
        "</function>",
        "<|python_tag|>",
        "<|eom_id|>",
        "<|eot_id|>",
        ">>>",
        ">>>all\n",
        ">>>f\n{",
        "all\n",
        "python\n",
        *MARKUP_PUNCTUATION,
    )
    markup_size = 8
    markup_content = None
    markup_keys = True

    def markup_calls(self, value: str, other: str) -> list[list[ToolCall]]:
        return [
            *super().markup_calls(value, other),
            [ToolCall("python", {"code": value})],
            [ToolCall("python", {"code": value}), ToolCall("g", {})],
        ]


class TestFunctionaryV31(_Markup, DialectTests):
    dialect = "functionary_v31"
    fixtures = FIXTURES / "functionary_v31.json"
    names = ("functionary_v3_1", "functionary-v3-1", "functionary_llama_3_1")


class TestFunctionaryV32(_Markup, DialectTests):
    dialect = "functionary_v32"
    fixtures = FIXTURES / "functionary_v32.json"
    names = ("functionary", "functionary_v3_2")

    def test_holdback_bounded(self) -> None:
        """Law 3, with the format's one exception: the completion's first word may be the first
        recipient (its ``>>>`` is in the prompt), so it is held until it is known not to be one
        (at most a name's 64 characters and ``\\n{``); afterwards only a partial ``>>>X`` is."""
        parser = tooletta.stream(self.dialect)
        text = "Prose, then more prose >>> and more " * 12
        assert tooletta.parse(text, self.dialect).content == text
        shown = 0
        for fed, ch in enumerate(text, 1):
            shown += len(parser.feed(ch).content)
            held = text[shown:fed]
            limit = 67 if shown == 0 else 4
            assert len(held.lstrip()) < limit, (fed, held)
        parser.finish()


CALLS = [ToolCall("get_weather", {"city": "Paris", "days": 3}), ToolCall("get_time", {})]


def test_v31_render_matches_template() -> None:
    assert tooletta.render(CALLS, "functionary_v31", content="Let me check.") == (
        'Let me check.<function=get_weather>{"city": "Paris", "days": 3}</function>'
        "<function=get_time>{}</function>"
    )
    code = ToolCall("python", {"code": "print(1)"})
    assert tooletta.render([code], "functionary_v31") == "<|python_tag|>print(1)"


def test_v32_render_matches_template() -> None:
    assert tooletta.render(CALLS, "functionary_v32", content="Let me check.") == (
        'all\nLet me check.>>>get_weather\n{"city": "Paris", "days": 3}>>>get_time\n{}'
    )
    assert tooletta.render([], "functionary_v32", content="Hi") == "all\nHi"
    code = ToolCall("python", {"code": "print(1)"})
    assert tooletta.render([code, CALLS[1]], "functionary_v32") == (
        "python\nprint(1)>>>get_time\n{}"
    )


def test_v32_python_code_that_would_not_read_back_is_json() -> None:
    code = ToolCall("python", {"code": "x = 1\n>>>all\n"})
    text = tooletta.render([code], "functionary_v32")
    assert text == 'python\n{"code": "x = 1\\n>>>all\\n"}'
    assert tooletta.parse(text, "functionary_v32").calls == [code]


def test_v32_refuses_a_call_named_all() -> None:
    check_render_refuses("functionary_v32", names=("all",))


@pytest.mark.parametrize("dialect", ["functionary_v31", "functionary_v32"])
def test_arguments_stream_verbatim(dialect: str) -> None:
    text = tooletta.render([ToolCall("f", {"a": [1, 2], "b": "x y"})], dialect)
    check_arguments_stream(dialect, text, '{"a": [1, 2], "b": "x y"}')


def test_raw_python_code_streams() -> None:
    parser = tooletta.stream("functionary_v31")
    parser.feed("<|python_tag|>print(")
    frags = [d.arguments for d in parser.feed('"hello world")').calls]
    assert "".join(frags).startswith('\\"hello')


def test_v32_offsets_are_in_the_callers_text() -> None:
    text = 'get_time\n{"tz": }<|eot_id|>'
    result = tooletta.parse(text, "functionary_v32")
    assert result.unparsed[0].offset == 0 and result.unparsed[0].raw == text
    check_stream_equals_parse("functionary_v32", text)


def test_v32_plain_text_is_content() -> None:
    for text in ("Hello there.", "  Indented start", "x" * 100 + "\n{}"):
        assert tooletta.parse(text, "functionary_v32").content == text
        check_stream_equals_parse("functionary_v32", text)


def test_detection() -> None:
    assert tooletta.detect('ok<function=f>{"a": 1}</function>') == "functionary_v31"
    assert tooletta.detect('all\nHi>>>f\n{"a": 1}') == "functionary_v32"
    assert tooletta.detect(">>> print(1)\n1") != "functionary_v32"
