"""The declarations added for the Gemma 4 formats (session 9):
:attr:`tooletta.chat.ChatFormat.implicit_roles` and :func:`tooletta.chat.implicit_after` (the
role of a turn written without a header, by the role before it),
:attr:`tooletta.chat.ChatFormat.results_end` (how a turn with calls that results follow ends)
and ``SystemBlock.empty_reads_none`` (an empty system message, written, reads back as none).
Each is checked as a writer and its reader: rendered conversations read back as
:meth:`~tooletta.chat.ChatFormat.expressible` says."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooletta import Message, ParseError, ToolCall, get_dialect
from tooletta.chat import (
    ChatFormat,
    Conversation,
    Prompt,
    SystemBlock,
    Turn,
    implicit_after,
    roles,
)
from tooletta.chat.conversation import conversation
from tooletta.chat.guard import format_problem
from tooletta.chat.parse import parse_format
from tooletta.chat.render import render_format, render_text
from tooletta.plugin import implicit_after as face_implicit_after

_KINDS = st.lists(st.sampled_from(["user", "call", "answer", "tool"]), max_size=10)


def _message(kind: str, n: int) -> Message:
    if kind == "call":
        return Message("assistant", "", tool_calls=[ToolCall("f", {"n": n})])
    if kind == "answer":
        return Message("assistant", f"done {n}")
    return Message(kind, f"{kind} {n}")


def _messages(kinds: Sequence[str]) -> list[Message]:
    return [_message(kind, n) for n, kind in enumerate(kinds)]


def _round_trip(fmt: ChatFormat, messages: list[Message]) -> str:
    """Render ``messages`` (both renderers agree) and check they read back as
    :meth:`~tooletta.chat.ChatFormat.expressible` says; the text."""
    dialect = get_dialect("hermes")
    text = render_format(fmt, dialect, messages, [], False, {}).text
    assert render_text(fmt, dialect, messages, [], False, {}) == text
    assert parse_format(fmt, dialect, text, []) == fmt.expressible(messages)
    return text


class _Base(ChatFormat):
    name = "decl9b_base"
    end_of_turn = "</a>"
    turns = roles(
        system=Turn("<s>", "</s>\n"),
        user=Turn("<u>", "</u>\n"),
        assistant=Turn("<a>", "</a>\n"),
        tool=Turn("<t>", "</t>\n"),
    )


# -- implicit_roles ---------------------------------------------------------------------------


def test_implicit_after_maps_each_previous_role_to_the_role() -> None:
    table = implicit_after("tool", "assistant")
    assert dict(table) == {"tool": "assistant", "assistant": "assistant"}
    assert dict(implicit_after(None, "system", role="user")) == {None: "user", "system": "user"}
    assert dict(implicit_after()) == {}
    with pytest.raises(TypeError):
        table["user"] = "assistant"  # type: ignore[index]
    assert face_implicit_after is implicit_after


def test_implicit_role_answers_from_the_table() -> None:
    class Continued(_Base):
        implicit_roles = implicit_after("tool")

    assert [Continued().implicit_role(p) for p in ("tool", "user", None)] == [
        "assistant",
        None,
        None,
    ]
    assert [_Base().implicit_role(p) for p in ("tool", "assistant", "user", None)] == [None] * 4


class _Headerless(_Base):
    """The assistant goes on without a header after tool results (as Gemma 4's turn does)."""

    name = "decl9b_headerless"
    implicit_roles = implicit_after("tool")

    def header(self, index: int, ctx: Conversation) -> str:
        messages = ctx.messages
        if messages[index].role == "assistant" and index and messages[index - 1].role == "tool":
            return ""
        return super().header(index, ctx)


@settings(deadline=None)
@given(_KINDS)
def test_headerless_turns_read_back_by_the_declared_role(kinds: list[str]) -> None:
    messages = _messages(kinds)
    text = _round_trip(_Headerless(), messages)
    continued = any(a == "tool" and b in ("call", "answer") for a, b in itertools.pairwise(kinds))
    if continued:  # without the declaration, the headerless turn is no turn
        with pytest.raises(ParseError):
            parse_format(_Base(), get_dialect("hermes"), text, [])


def test_a_bad_implicit_roles_table_is_a_problem() -> None:
    for bad in (("tool", "assistant"), {"tool": 1}, {1: "assistant"}, None):
        fmt = _Base()
        fmt.implicit_roles = bad  # type: ignore[misc,assignment]
        problem = format_problem(fmt)
        assert problem is not None and "implicit_roles" in problem
    assert format_problem(_Headerless()) is None


# -- results_end ------------------------------------------------------------------------------


class _ResultsEnd(_Base):
    name = "decl9b_results_end"
    end_tokens: ClassVar[tuple[str, ...]] = ("<eom>",)
    results_end = ("<eom>", "")


def _expected_end(messages: Sequence[Message], index: int) -> tuple[str, str]:
    follows = index + 1 < len(messages) and messages[index + 1].role == "tool"
    return ("<eom>", "") if messages[index].tool_calls and follows else ("</a>", "\n")


@settings(deadline=None)
@given(_KINDS)
def test_results_end_ends_only_the_calls_turns_that_results_follow(kinds: list[str]) -> None:
    messages = _messages(kinds)
    fmt = _ResultsEnd()
    ctx = conversation(messages, (), {}, None)
    for index, message in enumerate(messages):
        if message.role == "assistant":
            ends = (fmt.end_token(index, ctx), fmt.assistant_footer(index, ctx))
            assert ends == _expected_end(messages, index)
            assert fmt.turn_stop(index, ctx) == ends[0]
    _round_trip(fmt, messages)


def test_results_end_comes_after_last_end_and_before_calls_end() -> None:
    class Both(_ResultsEnd):
        end_tokens = ("<eom>", "<eoc>", "<eos>")
        calls_end = ("<eoc>", "")
        last_end = ("<eos>", "")

    messages = _messages(["user", "call", "tool", "call", "user", "call"])
    ctx = conversation(messages, (), {}, None)
    fmt = Both()
    assert [fmt.end_token(i, ctx) for i in (1, 3, 5)] == ["<eom>", "<eoc>", "<eos>"]
    _round_trip(fmt, messages)


def test_a_results_end_that_is_no_pair_of_str_is_a_problem() -> None:
    for bad in (("<x>",), ["<x>", ""], ("<x>", 1)):
        fmt = _ResultsEnd()
        fmt.results_end = bad  # type: ignore[misc,assignment]
        problem = format_problem(fmt)
        assert problem is not None and "results_end" in problem
    assert format_problem(_ResultsEnd()) is None


# -- SystemBlock.empty_reads_none -------------------------------------------------------------


def _tools(tools: Sequence[Mapping[str, Any]]) -> str:
    return "".join(f"<tool>{t['name']}</tool>" for t in tools)


_BLOCK = SystemBlock(tools=_tools, head="<tool>", joiner="", empty_reads_none=True)
_TEXT = st.text(st.sampled_from("ab <>/\n"), max_size=12)


@given(_TEXT, st.booleans())
def test_an_empty_system_message_is_written_and_reads_back_as_none(
    system: str, with_tools: bool
) -> None:
    tools = [{"name": "f"}] if with_tools else []
    try:
        body = _BLOCK.write(system, tools)
    except Exception:  # refused: it would not read back as written (it holds the head)
        assert "<tool>" in system
        return
    plain = SystemBlock(tools=_tools, head="<tool>", joiner="")
    assert body == plain.write(system, tools)  # written as without the field
    assert body is not None
    assert _BLOCK.read(body) == (system or None)
    assert plain.read(body) == (None if with_tools and not system else system)


class _EmptyNone(_Base):
    name = "decl9b_empty_none"
    system_block = _BLOCK


@settings(deadline=None)
@given(_TEXT.filter(lambda s: "<" not in s), _KINDS)
def test_a_format_drops_an_empty_system_message_it_writes(system: str, kinds: list[str]) -> None:
    messages = [Message("system", system), *_messages(kinds)]
    fmt = _EmptyNone()
    text = _round_trip(fmt, messages)
    assert text.startswith("<s>" + system + "</s>\n")
    assert [m.role for m in fmt.expressible(messages)][:1] == (
        ["system"] if system else [m.role for m in messages[1:2]]
    )


# -- continue_prompt --------------------------------------------------------------------------


class _Continued(_ResultsEnd):
    """Results inside the model's turn (as Gemma 4's): a calls turn that results follow
    ends with ``<eom>``, the results and the answer after them have no header of their own."""

    name = "decl9b_continued"
    turns = roles(
        system=Turn("<s>", "</s>\n"),
        user=Turn("<u>", "</u>\n"),
        assistant=Turn("<a>", "</a>\n"),
        tool=Turn("<t>", "</t>"),
    )
    implicit_roles = implicit_after("tool")
    prompt = Prompt(off="<think></think>", default=False)
    continue_prompt = Prompt(off="<go>", default=False, head="")

    def header(self, index: int, ctx: Conversation) -> str:
        messages = ctx.messages
        if messages[index].role == "assistant" and index and messages[index - 1].role == "tool":
            return ""
        return super().header(index, ctx)


def _inside(messages: Sequence[Message]) -> bool:
    return bool(messages) and messages[-1].role == "tool"


@settings(deadline=None)
@given(_KINDS, st.sampled_from([{}, {"enable_thinking": True}, {"enable_thinking": False}]))
def test_continue_prompt_is_the_prompt_inside_the_models_turn(
    kinds: list[str], options: dict[str, Any]
) -> None:
    messages = _messages(kinds)
    fmt = _Continued()
    ctx = conversation(messages, (), options, None, True)
    thinking = options.get("enable_thinking", False)
    if _inside(messages):
        assert fmt.generation_prompt(ctx) == ("" if thinking else "<go>")
    else:
        assert fmt.generation_prompt(ctx) == "<a>" + ("" if thinking else "<think></think>")
    plain = _ResultsEnd()
    assert plain.generation_prompt(ctx) == "<a>"  # undeclared: the header everywhere
    dialect = get_dialect("hermes")
    text = render_format(fmt, dialect, messages, [], True, options).text
    assert render_text(fmt, dialect, messages, [], True, options) == text
    assert parse_format(fmt, dialect, text, []) == fmt.expressible(messages)


def test_a_turn_its_end_token_leaves_open_ends_inside_the_models_turn() -> None:
    class Open(_Continued):
        calls_end = ("<eom>", "")

    messages = _messages(["user", "call"])
    ctx = conversation(messages, (), {}, None, True)
    assert Open().generation_prompt(ctx) == "<go>"  # the call's results are to come
    assert _Continued().generation_prompt(ctx) == "<a><think></think>"  # closed by </a>
    empty = conversation([], (), {}, None, True)
    assert Open().generation_prompt(empty) == "<a><think></think>"


# -- calls_content ----------------------------------------------------------------------------


class _NoCallsContent(_Base):
    name = "decl9b_no_calls_content"
    calls_content = False


_CONTENTS = st.lists(
    st.tuples(st.sampled_from(["user", "call", "answer", "tool"]), _TEXT), max_size=8
)


def _with_contents(items: list[tuple[str, str]]) -> list[Message]:
    out = []
    for n, (kind, text) in enumerate(items):
        m = _message(kind, n)
        out.append(Message(m.role, text.replace("<", "").strip() or "x", tool_calls=m.tool_calls))
    return out


@settings(deadline=None)
@given(_CONTENTS)
def test_a_calls_turn_is_written_without_its_content(items: list[tuple[str, str]]) -> None:
    messages = _with_contents(items)
    fmt = _NoCallsContent()
    _round_trip(fmt, messages)
    dialect = get_dialect("hermes")
    ctx = conversation(messages, (), {}, dialect)
    for index, m in enumerate(messages):
        if m.role != "assistant":
            continue
        body = fmt.assistant_text(index, ctx)
        bare = Message("assistant", "", tool_calls=m.tool_calls)
        assert body == _Base().turn_body(bare if m.tool_calls else m, False, False, ctx)
    carried = fmt.expressible(messages)
    assert [m.content for m in carried if m.tool_calls] == ["" for m in messages if m.tool_calls]
    assert [m.content for m in carried if not m.tool_calls] == [
        m.content for m in messages if not m.tool_calls
    ]


def test_a_calls_content_that_is_no_bool_is_a_problem() -> None:
    fmt = _NoCallsContent()
    fmt.calls_content = 0  # type: ignore[misc,assignment]
    problem = format_problem(fmt)
    assert problem is not None and "calls_content" in problem


# -- trim_opening -----------------------------------------------------------------------------


class _Trimmed(_Base):
    name = "decl9b_trimmed"
    trim = frozenset({"system", "user"})


class _OpeningAsGiven(_Trimmed):
    name = "decl9b_opening_as_given"
    trim_opening = False


class _OnlyOpening(_Base):
    name = "decl9b_only_opening"
    trim_opening = True


_SPACED = st.text(st.sampled_from("ab \n"), max_size=8).filter(lambda s: s.strip())


@settings(deadline=None)
@given(_SPACED, _SPACED, _KINDS)
def test_trim_opening_trims_the_first_system_message_apart(
    first: str, later: str, kinds: list[str]
) -> None:
    messages = [Message("system", first), *_messages(kinds), Message("system", later)]
    for fmt, opening, rest in (
        (_Trimmed(), first.strip(), later.strip()),
        (_OpeningAsGiven(), first, later.strip()),
        (_OnlyOpening(), first.strip(), later),
        (_Base(), first, later),
    ):
        text = _round_trip(fmt, messages)
        assert text.startswith("<s>" + opening + "</s>\n")
        assert text.endswith("<s>" + rest + "</s>\n")
        carried = fmt.expressible(messages)
        assert (carried[0].content, carried[-1].content) == (opening, rest)


def test_a_trim_opening_that_is_no_bool_is_a_problem() -> None:
    fmt = _OpeningAsGiven()
    fmt.trim_opening = "no"  # type: ignore[misc,assignment]
    problem = format_problem(fmt)
    assert problem is not None and "trim_opening" in problem
