"""The declarations added for the Apertus, Granite 3.3 and gpt-oss formats:
:attr:`tooletta.chat.SystemBlock.dated` (a default system message holding today's date),
:attr:`tooletta.chat.Prompt.after_system` (no prompt after the opening system message alone),
the keep rules ``"after_last_answer"`` and ``"until_answer"``,
:attr:`tooletta.chat.ChatFormat.turn_stops` (what ends a turn with calls and one without),
:attr:`tooletta.chat.ChatFormat.open_last` (a last turn left without its end token) and
:attr:`~tooletta.chat.ChatFormat.calls_end` / :attr:`~tooletta.chat.ChatFormat.last_end` (the
end token and what follows it of a turn with calls, of the last message)."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support import tag_turns
from tooletta import Message, ParseError, ToolCall, get_dialect
from tooletta.chat import ChatFormat, Prompt, Reasoning, SystemBlock, Turn, roles
from tooletta.chat.conversation import conversation
from tooletta.chat.declare import keeps
from tooletta.chat.guard import format_problem
from tooletta.chat.parse import parse_format
from tooletta.chat.render import render_format, render_text

DEFAULT = "Helpful. Today: {date}. Be brief."


def test_a_dated_default_is_written_with_today_in_its_format() -> None:
    block = SystemBlock(default=DEFAULT, dated="%B %d, %Y")
    written = block.write(None, (), lambda fmt: date(2026, 12, 2).strftime(fmt))
    assert written == "Helpful. Today: December 02, 2026. Be brief."


def test_a_dated_default_without_a_clock_uses_the_library_clock() -> None:
    block = SystemBlock(default="Current date: {date}", dated="%Y-%m-%d")
    written = block.write(None, ())
    assert written is not None
    assert block.read(written) is None


@given(st.dates(min_value=date(1000, 1, 1), max_value=date(9999, 12, 31)))
def test_a_dated_default_reads_back_as_none_whatever_its_date(day: date) -> None:
    for fmt in ("%Y-%m-%d", "%B %d, %Y", "%d %b %Y", "%A %j %%"):
        block = SystemBlock(default=DEFAULT, dated=fmt)
        written = block.write(None, (), day.strftime)
        assert written is not None
        assert block.read(written) is None
        assert block.is_default(written)


@given(st.text(max_size=30))
def test_a_given_system_message_is_written_and_read_as_given(system: str) -> None:
    block = SystemBlock(default=DEFAULT, dated="%Y-%m-%d")
    assert block.write(system, ()) == system
    expected = None if block.is_default(system) else system
    assert block.read(system) == expected


def test_a_message_like_the_default_with_another_shape_of_date_is_a_message() -> None:
    block = SystemBlock(default="Current date: {date}", dated="%Y-%m-%d")
    assert block.read("Current date: 2026-12-02") is None
    assert block.read("Current date: 2026-12-2") == "Current date: 2026-12-2"
    assert block.read("Current date: today") == "Current date: today"
    assert block.read("Current date: 2026-12-02 and more") == "Current date: 2026-12-02 and more"


def test_the_default_is_matched_literally_around_the_date() -> None:
    block = SystemBlock(default="a.b (c) {date}", dated="%Y")
    assert block.read("a.b (c) 2026") is None
    assert block.read("axb (c) 2026") == "axb (c) 2026"


def test_an_undated_default_compares_as_text() -> None:
    block = SystemBlock(default="Default {date}")
    assert block.write(None, ()) == "Default {date}"
    assert block.read("Default {date}") is None
    assert block.read("Default 2026") == "Default 2026"


class _Fmt(ChatFormat):
    name = "declD_test"
    turns = tag_turns()
    end_of_turn = "</a>"
    system_block = SystemBlock(default="Now: {date}", dated="%Y-%m-%d")
    prompt = Prompt(after_system=False)


def test_the_format_writes_the_dated_default_with_the_conversations_clock() -> None:
    fmt = _Fmt()
    pinned = {"strftime_now": lambda f: date(2026, 1, 31).strftime(f)}
    ctx = conversation([Message("user", "hi")], (), pinned, None)
    assert fmt.system_text(None, ctx) == "Now: 2026-01-31"
    assert fmt.parse_system("Now: 1999-12-31") is None
    messages = [Message("system", "Now: 2000-01-01"), Message("user", "hi")]
    assert fmt.expressible(messages) == [Message("user", "hi")]


def test_after_system_false_writes_no_prompt_after_the_system_message_alone() -> None:
    fmt = _Fmt()

    def prompt(messages: list[Message]) -> str:
        return fmt.generation_prompt(conversation(messages, (), {}, None, True))

    assert prompt([Message("system", "s")]) == ""
    assert prompt([]) == "<a>"
    assert prompt([Message("user", "u")]) == "<a>"
    assert prompt([Message("system", "s"), Message("user", "u")]) == "<a>"
    assert prompt([Message("user", "u"), Message("system", "s")]) == "<a>"
    assert Prompt().after_system


def _answer() -> Message:
    return Message("assistant", "done")


def _call() -> Message:
    return Message("assistant", "", tool_calls=[ToolCall("f", {})])


def test_after_last_answer_keeps_the_turns_after_the_last_answer() -> None:
    messages = [
        Message("user", "q"),
        _call(),
        Message("tool", "r"),
        _answer(),
        Message("user", "q2"),
        _call(),
        Message("tool", "r"),
        _answer(),
    ]
    kept = [i for i in range(len(messages)) if keeps("after_last_answer", i, messages)]
    assert kept == []
    kept = [i for i in range(7) if keeps("after_last_answer", i, messages[:7])]
    assert kept == [4, 5, 6]
    no_answer = [Message("user", "q"), _call(), Message("tool", "r"), _call()]
    assert all(keeps("after_last_answer", i, no_answer) for i in range(4))


def test_until_answer_keeps_calls_until_an_answer_and_the_last_message() -> None:
    messages = [Message("user", "q"), _call(), Message("tool", "r"), _answer()]
    assert [keeps("until_answer", i, messages) for i in (1, 3)] == [False, True]
    longer = [*messages, Message("user", "q2"), _call(), Message("tool", "r")]
    assert [keeps("until_answer", i, longer) for i in (1, 3, 5)] == [False, False, True]
    assert keeps("until_answer", 1, messages[:2])


_roles = st.sampled_from(["user", "assistant", "answer", "tool"])


@given(st.lists(_roles, max_size=8))
def test_the_answer_rules_agree_with_their_definition_and_memo(names: list[str]) -> None:
    messages = [
        _answer() if n == "answer" else _call() if n == "assistant" else Message(n, "x")
        for n in names
    ]
    answers = [i for i, n in enumerate(names) if n == "answer"]
    ctx = conversation(messages, (), {}, None)
    for index in range(len(messages)):
        answer_after = any(a > index for a in answers)
        after = not answer_after and index not in answers
        assert keeps("after_last_answer", index, messages) == after
        assert keeps("after_last_answer", index, messages, ctx) == after
        until = after or index == len(messages) - 1
        assert keeps("until_answer", index, messages) == until
        assert keeps("until_answer", index, messages, ctx) == until


class _Until(_Fmt):
    reasoning = Reasoning("<think>", "</think>", keep="until_answer")


def test_kept_in_agrees_with_keeps_reasoning_for_the_answer_rules() -> None:
    fmt = _Until()
    messages = [Message("user", "q"), _call(), Message("tool", "r"), _answer(), _call()]
    ctx = conversation(messages, (), {}, None)
    for index in (1, 3, 4):
        assert fmt.kept_in(index, ctx) == fmt.keeps_reasoning(index, messages)


class _Stops(_Fmt):
    turn_stops = ("<calls-end>", "<answer-end>")


def test_turn_stops_name_the_stop_of_a_turn_with_calls_and_of_one_without() -> None:
    messages = [Message("user", "q"), _call(), Message("tool", "r"), _answer()]
    ctx = conversation(messages, (), {}, None)
    assert [_Stops().turn_stop(i, ctx) for i in (1, 3)] == ["<calls-end>", "<answer-end>"]
    assert [_Fmt().turn_stop(i, ctx) for i in (1, 3)] == ["</a>", "</a>"]
    assert format_problem(_Stops()) is None


def test_a_turn_stops_declaration_that_is_no_pair_of_str_is_a_problem() -> None:
    for attr in ("turn_stops", "calls_end", "last_end"):
        for bad in (("<x>",), ["<x>", "<y>"], ("<x>", 1), "<x><y>"):
            fmt = _Fmt()
            setattr(fmt, attr, bad)
            problem = format_problem(fmt)
            assert problem is not None and attr in problem


class _Open(_Fmt):
    open_last = True


def test_open_last_reads_a_last_turn_without_its_end_token_to_the_end() -> None:
    dialect = get_dialect("hermes")
    text = "<u>hi</u><a>first</a><u>again</u><a>left open"
    read = parse_format(_Open(), dialect, text, [])
    assert [(m.role, m.content) for m in read] == [
        ("user", "hi"),
        ("assistant", "first"),
        ("user", "again"),
        ("assistant", "left open"),
    ]
    closed = parse_format(_Open(), dialect, "<u>hi</u><a>done</a>", [])
    assert closed == parse_format(_Fmt(), dialect, "<u>hi</u><a>done</a>", [])
    with pytest.raises(ParseError):
        parse_format(_Fmt(), dialect, text, [])
    fmt = _Fmt()
    fmt.open_last = 1  # type: ignore[misc,assignment]
    problem = format_problem(fmt)
    assert problem is not None and "open_last" in problem


class _Ends(ChatFormat):
    name = "declD_ends"
    end_of_turn = "</a>"
    turns = roles(
        user=Turn("<u>", "</u>\n"),
        assistant=Turn("<a>", "</a>\n"),
        tool=Turn("<t>", "</t>\n"),
    )
    end_tokens = ("<eom>", "<eos>")
    calls_end = ("<eom>", "")
    last_end = ("<eos>", "")


def test_calls_end_and_last_end_write_the_declared_end_and_what_follows() -> None:
    fmt = _Ends()
    messages = [
        Message("user", "q"),
        _call(),
        Message("tool", "r"),
        _answer(),
        Message("user", "q2"),
        _call(),
    ]
    ctx = conversation(messages, (), {}, None)
    ends = [(fmt.end_token(i, ctx), fmt.assistant_footer(i, ctx)) for i in (1, 3, 5)]
    assert ends == [("<eom>", ""), ("</a>", "\n"), ("<eos>", "")]
    dialect = get_dialect("hermes")
    full = render_format(fmt, dialect, messages, [], False, {}).text
    fast = render_text(fmt, dialect, messages, [], False, {})
    assert full == fast
    call = str(dialect.render([ToolCall("f", {})], content=""))
    assert full == (f"<u>q</u>\n<a>{call}<eom><t>r</t>\n<a>done</a>\n<u>q2</u>\n<a>{call}<eos>")
    plain = _Fmt()
    assert (plain.end_token(1, ctx), plain.assistant_footer(1, ctx)) == ("</a>", "")
