"""Conformance and format tests for the cline dialect."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
from tooletta import ToolCall
from tooletta.testing import (
    TypedDialectTests,
    check_arguments_stream,
    check_render_refuses,
    check_stream_equals_parse,
)


class TestCline(TypedDialectTests):
    dialect = "cline"
    fixtures = Path(__file__).parent / "fixtures" / "cline.json"
    names = ("cline", "roo", "roo_code", "Roo-Code")
    needs_tools = True
    typing_rules = (
        ("string", "\n  two\n lines \n", "two\n lines"),
        ("integer", " 42 ", 42),
        (None, "a&lt;b", "a&lt;b"),
    )
    markup = (
        "<x>",
        "</x>",
        "<f>",
        "</f>",
        "<read_file>",
        "</content>",
        "<thinking>",
        "\n",
        " ",
        "x",
        "&lt;",
        "東京",
        "<",
    )
    markup_content = "Working."
    exact_content = True
    markup_examples = 60

    def render_param(self, name: str, raw: str) -> str:
        return f"<f>\n<{name}>{raw}</{name}>\n</f>"


def test_render_matches_prompt_examples() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 3})]
    assert tooletta.render(calls, "cline", content="Let me check.") == (
        "Let me check.\n<get_weather>\n<city>Paris</city>\n<days>3</days>\n</get_weather>"
    )
    call = ToolCall("write_to_file", {"path": "a.txt", "content": "line 1\nline 2"})
    assert tooletta.render([call], "cline") == (
        "<write_to_file>\n<path>a.txt</path>\n<content>\nline 1\nline 2\n</content>\n"
        "</write_to_file>"
    )
    assert tooletta.parse(tooletta.render([call], "cline"), "cline").calls == [call]


def test_builtin_tools_keep_strings() -> None:
    text = (
        "<execute_command>\n<command>ls</command>\n<requires_approval>false</requires_approval>\n"
    )
    text += "</execute_command>"
    call = ToolCall("execute_command", {"command": "ls", "requires_approval": "false"})
    assert tooletta.parse(text, "cline").calls == [call]
    assert tooletta.detect(text) == "cline"


def test_string_values_stream_as_generated() -> None:
    text = "<write_to_file>\n<path>a.py</path>\n<content>\nprint('hello world')\n</content>\n"
    text += "</write_to_file>"
    parser = tooletta.stream("cline")
    got: list[str] = []
    for ch in text[: text.index("world")]:
        got.extend(d.arguments for d in parser.feed(ch).calls)
    assert "".join(got) == '{"path": "a.py", "content": "print(\'hello'
    check_arguments_stream("cline", text, {"path": "a.py", "content": "print('hello world')"})


def test_write_to_file_content_ends_at_the_last_closing_tag() -> None:
    text = (
        "<write_to_file>\n<content>\na </content> b\n</content>  \n<path>x.md</path>\n"
        "</write_to_file>"
    )
    want = ToolCall("write_to_file", {"content": "a </content> b", "path": "x.md"})
    assert tooletta.parse(text, "cline").calls == [want]
    check_stream_equals_parse("cline", text)
    # other tools end a value at the first closing tag
    text = "<read_file>\n<path>a </path> b</path>\n</read_file>"
    assert tooletta.parse(text, "cline").calls == [ToolCall("read_file", {"path": "a"})]


def test_unknown_tags_and_text_inside_a_tool_are_ignored() -> None:
    text = "<read_file>\n<path>a.txt</path>\nnote <br> here\n<bogus>x</bogus>\n</read_file>"
    result = tooletta.parse(text, "cline")
    assert result.calls == [ToolCall("read_file", {"path": "a.txt"})]
    assert result.content == ""
    check_stream_equals_parse("cline", text)


@pytest.mark.parametrize(
    "text",
    [
        "Call <read_file> next.",
        "<read_file>",
        "<read_file>\n",
        "<read_file> and <path>x</path>",
        "a <b>c</b> d < e <<read_file>>",
        "<read_file>\n\nthen text <path>x</path></read_file>",
    ],
)
def test_prose_is_never_a_call(text: str) -> None:
    result = tooletta.parse(text, "cline")
    assert result.calls == [] and result.unparsed == [] and result.content == text
    assert tooletta.detect(text) != "cline"
    check_stream_equals_parse("cline", text)


def test_declined_tag_keeps_surrounding_whitespace() -> None:
    text = "Intro  \n\n<read_file> is a tool.\n\n"
    assert tooletta.parse(text, "cline").content == text
    check_stream_equals_parse("cline", text)


def test_thinking_stays_content() -> None:
    text = "<thinking>\nCheck the file.\n</thinking>\n<read_file>\n<path>a</path>\n</read_file>"
    result = tooletta.parse(text, "cline")
    assert result.content == "<thinking>\nCheck the file.\n</thinking>"
    assert result.reasoning == ""


def test_render_refuses_what_cannot_round_trip() -> None:
    check_render_refuses(
        "cline",
        calls=(
            [ToolCall("f", {"v": " padded"})],
            [ToolCall("f", {"v": "x\n"})],
            [ToolCall("f", {"v": "a</v>b"})],
            [ToolCall("f", {"v": {"k": "</v>"}})],
        ),
        keys=("bad key",),
        names=("bad name",),
        contents=("see <f> here", "see <read_file> here"),
    )
