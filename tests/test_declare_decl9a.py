"""Declarations added for Nemotron Nano v2 and the Apriel formats (issue 20 item 6):
:class:`~tooletta.chat.ClosedSystemBlock` (a system block closed by fixed text, its message
edited), :attr:`ChatFormat.open_footers <tooletta.chat.ChatFormat.open_footers>` (a footer
the body may hold, read at the next header), :attr:`ChatFormat.body_end
<tooletta.chat.ChatFormat.body_end>`, :attr:`ChatFormat.last_ids
<tooletta.chat.ChatFormat.last_ids>`, :class:`~tooletta.chat.HistoryCut`,
:attr:`ChatFormat.results_by_calls <tooletta.chat.ChatFormat.results_by_calls>` and
:attr:`ChatFormat.late_system <tooletta.chat.ChatFormat.late_system>`. Each writes
what its reader gives back: hypothesis round trips through the block and through toy formats
rendered and parsed."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooletta import Message, RenderError, ToolCall, catalog
from tooletta.chat import (
    ChatFormat,
    ClosedSystemBlock,
    HistoryCut,
    SystemBlock,
    Turn,
    roles,
    text_of,
)
from tooletta.chat.declare_results import pending_at_runs, split_by_calls
from tooletta.chat.parse import parse_format
from tooletta.chat.render import render_format, render_text

HEAD = "## Tools\n"
TOOLS = [{"type": "function", "function": {"name": "f"}}]


def _declarations(tools: Any) -> str:
    return HEAD + ", ".join(t["function"]["name"] for t in tools) + "."


def _clean(text: str) -> str:
    return text.replace("/x", "").strip()


def _lead(options: Any) -> str:
    return "PROMPT\n"


BLOCKS = [
    ClosedSystemBlock(_declarations, head=HEAD, joiner="\n", after="\n"),
    ClosedSystemBlock(
        _declarations, head=HEAD, joiner="\n", after="\n", lead=_lead, leads=("PROMPT\n",)
    ),
    ClosedSystemBlock(
        _declarations, head=HEAD, always=True, empty_is_none=True, after="\n\n", edit=_clean
    ),
    ClosedSystemBlock(_declarations, head=HEAD, default="Be kind.", after="!"),
    ClosedSystemBlock(
        _declarations, head=HEAD, joiner="", always=True, empty_is_none=True, system_end="\n\n"
    ),
]
texts = st.lists(st.sampled_from(["a", " ", "\n", "/x", "#", "## Tools\n", "!"])).map("".join)


@given(st.sampled_from(BLOCKS), st.none() | texts, st.booleans())
def test_a_closed_block_reads_back_what_it_writes(
    block: ClosedSystemBlock, system: str | None, with_tools: bool
) -> None:
    """Written, the system message (edited) reads back, or is refused; no message, an empty
    one where it counts as none and the default one read back as none."""
    tools = TOOLS if with_tools else []
    try:
        body = block.write(system, tools)
    except RenderError:
        assert system is not None
        return
    if body is None:
        assert system is None
        return
    edited = block.edit(system) if system is not None and block.edit else system
    if edited == "" and block.empty_is_none:
        edited = None
    if edited == block.default:
        edited = None
    assert block.read(body) == edited


@given(st.none() | texts, st.booleans())
def test_without_after_and_edit_it_is_the_plain_block(system: str | None, tools: bool) -> None:
    """``after=""`` and no ``edit``: the body and the reading of :class:`SystemBlock`."""
    plain = SystemBlock(_declarations, head=HEAD, joiner="\n")
    closed = ClosedSystemBlock(_declarations, head=HEAD, joiner="\n")
    given_tools = TOOLS if tools else []
    try:
        want = plain.write(system, given_tools)
    except RenderError:
        with pytest.raises(RenderError):
            closed.write(system, given_tools)
        return
    assert closed.write(system, given_tools) == want
    if want is not None:
        assert closed.read(want) == plain.read(want)


def test_after_closes_every_body_but_a_lead_alone() -> None:
    block = BLOCKS[1]
    assert block.write(None, [], options={}) == "PROMPT\n"
    assert block.write("", [], options={}) == "PROMPT\n\n"
    assert block.write("s", TOOLS, options={}) == "PROMPT\ns\n## Tools\nf.\n"
    assert block.write(None, TOOLS, options={}) == "PROMPT\n## Tools\nf.\n"
    assert block.read("PROMPT\n") is None
    assert block.read("PROMPT\n\n") == ""
    assert block.read("PROMPT\ns\n\n## Tools\nf.\n") == "s\n"
    assert block.read("") is None  # never written: a body always ends with `after`


def test_the_message_reads_back_edited_and_always_a_turn() -> None:
    block = BLOCKS[2]
    assert block.write(None, []) == "\n\n"
    assert block.write(" a /x ", TOOLS) == "a\n\n## Tools\nf.\n\n"
    assert block.read("a\n\n## Tools\nf.\n\n") == "a"
    assert block.read(str(block.write("/x", []))) is None  # edited empty: none
    with pytest.raises(RenderError, match="would not read back"):
        block.write("a\n\n## Tools\n", TOOLS)


def test_system_end_follows_the_message_with_or_without_declarations() -> None:
    """``system_end`` (Llama-3.3-Nemotron-Super-49B-v1.5's blank line): after a given
    message whether declarations follow or not, never after the declarations alone, and
    taken off the message when read."""
    block = BLOCKS[4]
    assert block.write("s", []) == "s\n\n"
    assert block.write("s", TOOLS) == "s\n\n## Tools\nf."
    assert block.write(None, TOOLS) == block.write("", TOOLS) == "## Tools\nf."
    assert block.write(None, []) == ""
    assert block.read("s\n\n") == block.read("s\n\n## Tools\nf.") == "s"
    assert block.read("s\n\n\n\n") == "s\n\n"
    assert block.read("## Tools\nf.") is None and block.read("") is None
    with pytest.raises(RenderError, match="would not read back"):
        block.write("s## Tools\n", TOOLS)


class _ToyChat(ChatFormat):
    """``[U]`` user turns ending with a line break before the next header, ``[T]`` results
    followed by two line breaks, ``[A]`` assistant turns whose body ends with ``;`` before
    ``<e>`` and whose last message writes no call ids (the ``apriel`` dialect writes ids)."""

    name = "toy_decl9a"
    turns = roles(
        user=Turn("[U]", "\n"),
        assistant=Turn("[A]", "<e>"),
        tool=Turn("[T]", "\n\n"),
    )
    end_of_turn = "<e>"
    open_footers = frozenset({"user", "tool"})
    body_end = ";"
    last_ids = False


words = st.text(alphabet=st.sampled_from(["a", "b", " ", "\n", ";"]), max_size=6)


@st.composite
def _conversations(draw: st.DrawFn) -> list[Message]:
    messages: list[Message] = []
    for _ in range(draw(st.integers(0, 5))):
        messages.append(Message("user", draw(words)))
        calls = [
            ToolCall(draw(st.sampled_from(["f", "g"])), {}, draw(st.sampled_from(["c1", "c2"])))
            for _ in range(draw(st.integers(0, 2)))
        ]
        messages.append(Message("assistant", draw(words).strip("\n; "), tool_calls=calls))
        for _ in calls:
            messages.append(Message("tool", draw(words)))
    return messages


@settings(deadline=None)  # (the first example loads the plugins)
@given(_conversations(), st.booleans())
def test_a_toy_format_reads_back_what_it_writes(messages: list[Message], prompt: bool) -> None:
    """Open footers (bodies holding line breaks read whole), the body's end and the last
    message's calls without ids: rendered, parsed back as :meth:`expressible` says, the two
    renderers agreeing."""
    fmt, dialect = _ToyChat(), catalog.get_dialect("apriel")
    rendered = render_format(fmt, dialect, messages, (), prompt, {})
    assert render_text(fmt, dialect, messages, (), prompt, {}) == rendered.text
    assert parse_format(fmt, dialect, rendered.text, ()) == fmt.expressible(messages)


def test_the_body_end_is_model_text_and_the_last_calls_have_no_ids() -> None:
    fmt, dialect = _ToyChat(), catalog.get_dialect("apriel")
    call = ToolCall("f", {}, "c1")
    messages = [Message("user", "a\n"), Message("assistant", "x", tool_calls=[call])]
    messages += [Message("tool", "r\n\n"), Message("assistant", "y", tool_calls=[call])]
    rendered = render_format(fmt, dialect, messages, (), False, {})
    first, last = (rendered.text[s:e] for _, (s, e) in rendered.generated_spans())
    assert first.endswith(";<e>") and '"id": "c1"' in first
    assert last.endswith(";<e>") and '"id"' not in last
    assert fmt.expressible(messages)[-1].tool_calls == [ToolCall("f", {})]
    assert fmt.expressible(messages)[1].tool_calls == [call]
    assert parse_format(fmt, dialect, rendered.text, ())[2].content == "r\n\n"


@given(st.lists(st.sampled_from(["a", " ", "\n", "M", "b"])).map("".join), st.booleans())
def test_a_history_cut_keeps_the_text_after_the_marker(content: str, last: bool) -> None:
    """The text after the marker's last (or first, up to the next) occurrence, trimmed; the
    content as it is without the marker."""
    cut = HistoryCut("M", last=last)
    parts = content.split("M")
    if len(parts) == 1:
        assert cut.cut(content) == content
    else:
        assert cut.cut(content) == (parts[-1] if last else parts[1]).strip()
        assert "M" not in cut.cut(content) or not last
    assert HistoryCut("M", strip="").cut("xM a ") == " a "


class _HistoryChat(_ToyChat):
    """:class:`_ToyChat` whose earlier assistant turns keep only what follows ``|``."""

    name = "toy_decl9a_history"
    history_cut = HistoryCut("|")


@settings(deadline=None)  # (the first example loads the plugins)
@given(_conversations(), st.booleans())
def test_earlier_turns_are_cut_and_read_back_so(messages: list[Message], prompt: bool) -> None:
    """Rendered with the cut, earlier turns read back as :meth:`expressible` cuts them; the
    last message is written whole; the two renderers agree."""
    messages = [
        Message("assistant", "x|" + text_of(m.content), tool_calls=m.tool_calls)
        if m.role == "assistant"
        else m
        for m in messages
    ]
    fmt, dialect = _HistoryChat(), catalog.get_dialect("apriel")
    rendered = render_format(fmt, dialect, messages, (), prompt, {})
    assert render_text(fmt, dialect, messages, (), prompt, {}) == rendered.text
    read = parse_format(fmt, dialect, rendered.text, ())
    assert read == fmt.expressible(messages)
    for i, m in enumerate(messages):
        if m.role == "assistant":
            assert ("x|" in text_of(read[i].content)) is (i == len(messages) - 1)


class _JoinedChat(ChatFormat):
    """Results joined by ``", "`` in one ``[R]...[/R]`` turn, nothing closing each."""

    name = "toy_decl9a_joined"
    turns = roles(
        user=Turn("[U]", "[/U]"),
        assistant=Turn("[A]", "<e>"),
        tool=Turn("[R]", "[/R]"),
    )
    end_of_turn = "<e>"
    group_results = True
    result_separator = ", "
    results_by_calls = True
    keeps_ids = False


results = st.lists(st.sampled_from(["a", ", ", '{"k": [1, 2]}', '"s, t"', "[", "1"]), max_size=4)


@settings(deadline=None)  # (the first example loads the plugins)
@given(st.integers(0, 3), st.lists(results.map("".join), max_size=4))
def test_joined_results_split_back_by_the_calls_or_are_refused(
    calls: int, contents: list[str]
) -> None:
    """A run of results after a turn with ``calls`` calls: written joined, read back one per
    call (a JSON value whole), or refused typed when it would not read back as written."""
    call_list = [ToolCall("f", {}) for _ in range(calls)]
    messages = [Message("user", "q"), Message("assistant", "", tool_calls=call_list)]
    messages += [Message("tool", c) for c in contents]
    fmt, dialect = _JoinedChat(), catalog.get_dialect("apriel")
    try:
        text = render_text(fmt, dialect, messages, (), False, {})
    except RenderError as exc:
        assert "do not read back as written" in str(exc)
        assert len(contents) > calls or any(", " in c for c in contents)
        return
    assert render_format(fmt, dialect, messages, (), False, {}).text == text
    assert parse_format(fmt, dialect, text, ()) == fmt.expressible(messages)


def test_a_json_result_holding_the_separator_is_read_whole() -> None:
    assert split_by_calls('{"a": 1, "b": 2}, x, y', ", ", 2) == ['{"a": 1, "b": 2}', "x, y"]
    assert split_by_calls("a, b", ", ", 1) == ["a, b"]
    assert pending_at_runs(
        [Message("assistant", "", tool_calls=[ToolCall("f", {})] * 2), Message("tool", "r")]
    ) == {1: 2}


class _DroppingChat(_ToyChat):
    """:class:`_ToyChat` with an opening ``[S]`` turn whose template drops later system
    messages."""

    name = "toy_decl9a_dropping"
    turns = roles(
        system=Turn("[S]", "[/S]"),
        user=Turn("[U]", "\n"),
        assistant=Turn("[A]", "<e>"),
        tool=Turn("[T]", "\n\n"),
    )
    late_system = "dropped"


@settings(deadline=None)  # (the first example loads the plugins)
@given(_conversations(), st.lists(st.integers(0, 12), max_size=3), st.booleans())
def test_late_system_messages_write_nothing_and_are_not_carried(
    messages: list[Message], places: list[int], prompt: bool
) -> None:
    """System messages put anywhere: the first written in the opening turn, later ones
    nowhere (both renderers), and the text reads back as :meth:`expressible` says."""
    for place in places:
        messages.insert(min(place, len(messages)), Message("system", f"s{place}"))
    fmt, dialect = _DroppingChat(), catalog.get_dialect("apriel")
    rendered = render_format(fmt, dialect, messages, (), prompt, {})
    assert render_text(fmt, dialect, messages, (), prompt, {}) == rendered.text
    carried = fmt.expressible(messages)
    assert parse_format(fmt, dialect, rendered.text, ()) == carried
    late = [i for i, m in enumerate(messages) if m.role == "system" and i > 0]
    assert all(rendered.span(i) == (-1, -1) for i in late)
    opening = 1 if messages and messages[0].role == "system" else 0
    assert sum(m.role == "system" for m in carried) == opening


class _OpenSystemChat(_ToyChat):
    """:class:`_ToyChat` whose system turns (the opening one too) end with a line break."""

    name = "toy_decl9a_open_system"
    turns = roles(
        system=Turn("[S]", "\n"),
        user=Turn("[U]", "\n"),
        assistant=Turn("[A]", "<e>"),
        tool=Turn("[T]", "\n\n"),
    )
    open_footers = frozenset({"system", "user", "tool"})


@settings(deadline=None)  # (the first example loads the plugins)
@given(words, _conversations(), words)
def test_an_open_system_footer_reads_the_whole_message(
    system: str, messages: list[Message], late: str
) -> None:
    """The opening system turn and a later one, both holding line breaks, read back whole."""
    messages = [Message("system", system), *messages, Message("system", late)]
    fmt, dialect = _OpenSystemChat(), catalog.get_dialect("apriel")
    text = render_text(fmt, dialect, messages, (), False, {})
    assert parse_format(fmt, dialect, text, ()) == fmt.expressible(messages)


class _OpeningChat(_ToyChat):
    """:class:`_ToyChat` whose every system turn is written as the opening one: the lead
    ``P:`` then the message and the declarations, closed by ``.``."""

    name = "toy_decl9a_opening"
    turns = roles(
        system=Turn("[S]", "[/S]"),
        user=Turn("[U]", "\n"),
        assistant=Turn("[A]", "<e>"),
        tool=Turn("[T]", "\n\n"),
    )
    system_block = ClosedSystemBlock(
        _declarations, head=HEAD, joiner="\n", after=".", lead=lambda _: "P:", leads=("P:",)
    )
    late_system = "opening"


@settings(deadline=None)  # (the first example loads the plugins)
@given(_conversations(), st.lists(st.tuples(st.integers(1, 12), texts), max_size=3))
def test_late_system_messages_written_as_the_opening_one(
    messages: list[Message], late: list[tuple[int, str]]
) -> None:
    """Later system messages written as the opening turn is (its lead, declarations and
    ``after`` again): read back as given, or refused typed when they would not be."""
    messages = [Message("system", "s"), *messages]
    for place, text in late:
        messages.insert(min(place, len(messages)), Message("system", text))
    fmt, dialect = _OpeningChat(), catalog.get_dialect("apriel")
    try:
        text = render_text(fmt, dialect, messages, TOOLS, False, {})
    except RenderError as exc:
        assert "would not read back as written" in str(exc)
        return
    assert render_format(fmt, dialect, messages, TOOLS, False, {}).text == text
    assert f"[S]P:{late[0][1]}\n## Tools\nf..[/S]" in text if late else True
    assert parse_format(fmt, dialect, text, TOOLS) == fmt.expressible(messages)


def test_a_late_system_message_reads_back_through_the_block() -> None:
    fmt, dialect = _OpeningChat(), catalog.get_dialect("apriel")
    messages = [Message("user", "q"), Message("system", "be brief"), Message("user", "r")]
    text = render_text(fmt, dialect, messages, TOOLS, False, {})
    assert text.startswith("[S]P:## Tools\nf..[/S][U]q\n[S]P:be brief\n## Tools\nf..[/S]")
    assert parse_format(fmt, dialect, text, TOOLS) == messages
    assert fmt.parse_user("P:x.") == "x"
    assert fmt.parse_user("x.") == "x."  # no lead: a user's text as it is
    with pytest.raises(RenderError, match="message 1: a later system message"):
        render_text(fmt, dialect, [messages[0], Message("system", "## Tools\n")], TOOLS, False, {})
