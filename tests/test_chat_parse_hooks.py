"""Core chat hooks for headers with a variable part, grouped results with a separator, a
headerless system prompt, and endings that depend on the last turn (DeepSeek's and Kimi's
templates need them); checked on small declared formats."""

from __future__ import annotations

from typing import Any

import pytest

from tooletta import Message, ToolCall, get_dialect
from tooletta.chat import ChatFormat, Conversation, Turn, render_format, roles
from tooletta.chat.jinja import to_template_messages
from tooletta.chat.parse import parse_format


class _Named(ChatFormat):
    """Headers ``<ROLE:NAME>``; a tool result writes ``id=ID;`` before its content."""

    name = "named_test"
    turns = roles(
        user=Turn("<user:user>", "</e>"),
        assistant=Turn("<assistant:assistant>", "</e>"),
        tool=Turn("<tool:tool>", "</e>"),
    )
    end_of_turn = "</e>"

    def header(self, index: int, ctx: Conversation) -> str:
        message = ctx.messages[index]
        return f"<{message.role}:{message.name or message.role}>"

    def read_header(self, text: str, pos: int) -> tuple[str, int] | None:
        if not text.startswith("<", pos) or text.startswith("</", pos):
            return None
        close = text.find(">", pos)
        role = text[pos + 1 : close].partition(":")[0]
        return (role, close + 1) if role in self.turns else None

    def result_text(self, index: int, ctx: Conversation) -> str:
        return f"id={ctx.messages[index].tool_call_id};{ctx.messages[index].content}"

    def parse_result(self, body: str) -> str:
        return body.partition(";")[2]


class _Grouped(ChatFormat):
    """Results grouped in one turn, ``|`` between them; the system prompt has no header; no
    generation prompt after results."""

    name = "grouped_test"
    bos = "<s>"
    turns = roles(
        system=Turn(""),
        user=Turn("<u>", "</e>"),
        assistant=Turn("<a>", "</e>"),
        tool=Turn("<results>", "</results>"),
    )
    end_of_turn = "</e>"
    result_wrap = ("<r>", "</r>")
    group_results = True
    result_separator = "|"

    def implicit_role(self, previous: str | None) -> str | None:
        return "assistant" if previous == "tool" else None

    def header(self, index: int, ctx: Conversation) -> str:
        messages = ctx.messages
        if messages[index].role == "assistant" and index and messages[index - 1].role == "tool":
            return ""
        return super().header(index, ctx)

    def generation_prompt(self, ctx: Conversation) -> str:
        last = ctx.messages[-1].role if ctx.messages else None
        return "" if last == "tool" else "<a>"


def _hermes() -> Any:
    return get_dialect("hermes")


def _render(fmt: ChatFormat, messages: list[Message], prompt: bool = False) -> str:
    return render_format(fmt, _hermes(), messages, [], prompt, {}).text


def test_read_header_reads_headers_holding_a_name() -> None:
    messages = [
        Message("user", "hi", name="alice"),
        Message("assistant", "", tool_calls=[ToolCall("f", {"a": 1})]),
        Message("tool", "42", tool_call_id="c1", name="f"),
    ]
    text = _render(_Named(), messages)
    assert text.startswith("<user:alice>hi</e><assistant:assistant>")
    assert text.endswith("<tool:f>id=c1;42</e>")
    back = parse_format(_Named(), _hermes(), text, [])
    assert [(m.role, m.content) for m in back] == [
        ("user", "hi"),
        ("assistant", ""),
        ("tool", "42"),
    ]
    assert back[1].tool_calls == [ToolCall("f", {"a": 1})]
    assert back[2].name == "f"


def test_grouped_results_with_a_separator_round_trip() -> None:
    messages = [
        Message("system", "Be brief."),
        Message("user", "go"),
        Message("assistant", "", tool_calls=[ToolCall("f", {}), ToolCall("g", {})]),
        Message("tool", "1"),
        Message("tool", "2"),
        Message("assistant", "done"),
    ]
    text = _render(_Grouped(), messages)
    assert text.startswith("<s>Be brief.<u>go</e><a>")
    assert text.endswith("<results><r>1</r>|<r>2</r></results>done</e>")
    back = parse_format(_Grouped(), _hermes(), text, [])
    assert [(m.role, m.content) for m in back] == [
        ("system", "Be brief."),
        ("user", "go"),
        ("assistant", ""),
        ("tool", "1"),
        ("tool", "2"),
        ("assistant", "done"),
    ]
    assert [m.name for m in back[3:5]] == ["f", "g"]


class _Joined(_Grouped):
    """Results joined by ``;`` in one ``<results>`` turn, with no marks around each: read by
    :meth:`ChatFormat.read_results`, one per awaiting call."""

    name = "joined_test"
    result_wrap = ("", "")
    result_separator = ";"

    def read_results(self, text: str, pos: int, pending: int) -> tuple[list[str], int] | None:
        end = text.index("</results>", pos)
        parts = text[pos:end].split(";", max(pending - 1, 0))
        return parts, end + len("</results>")


def test_read_results_reads_results_without_marks_around_each() -> None:
    messages = [
        Message("user", "go"),
        Message("assistant", "", tool_calls=[ToolCall("f", {}), ToolCall("g", {})]),
        Message("tool", "1"),
        Message("tool", "2;3"),
        Message("assistant", "done"),
    ]
    text = _render(_Joined(), messages)
    assert text.endswith("<results>1;2;3</results>done</e>")
    back = parse_format(_Joined(), _hermes(), text, [])
    assert [(m.role, m.content, m.name) for m in back[2:]] == [
        ("tool", "1", "f"),
        ("tool", "2;3", "g"),
        ("assistant", "done", None),
    ]


def test_headerless_system_prompt_absent() -> None:
    text = _render(_Grouped(), [Message("user", "go"), Message("assistant", "ok")])
    assert text == "<s><u>go</e><a>ok</e>"
    back = parse_format(_Grouped(), _hermes(), text, [])
    assert [m.role for m in back] == ["user", "assistant"]


@pytest.mark.parametrize("last", ["user", "tool"])
def test_prompt_that_depends_on_the_last_turn_is_not_a_turn(last: str) -> None:
    messages = [Message("user", "go")]
    if last == "tool":
        messages += [Message("assistant", "", tool_calls=[ToolCall("f", {})]), Message("tool", "1")]
    text = _render(_Grouped(), messages, prompt=True)
    assert text.endswith("<a>" if last == "user" else "</results>")
    back = parse_format(_Grouped(), _hermes(), text, [])
    assert [m.role for m in back] == [m.role for m in messages]


def test_template_messages_can_carry_arguments_as_json_text() -> None:
    message = Message("assistant", "", tool_calls=[ToolCall("f", {"city": "東京", "n": 1})])
    as_text = to_template_messages([message], string_arguments=True)[0]
    assert as_text["tool_calls"][0]["function"]["arguments"] == '{"city": "東京", "n": 1}'
    as_dict = to_template_messages([message])[0]
    assert as_dict["tool_calls"][0]["function"]["arguments"] == {"city": "東京", "n": 1}
