"""The declaration added in the second conversion pass for Gemma 4 and GLM-5.2:
:attr:`tooletta.chat.SystemBlock.lead` (text the template writes at the start of the opening
system turn from its options, such as Gemma 4's ``<|think|>`` flag), with
:attr:`~tooletta.chat.SystemBlock.lead_joiner` and :attr:`~tooletta.chat.SystemBlock.leads`
(what the reader takes off)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tooletta import Message, get_dialect
from tooletta.chat import ChatFormat, SystemBlock, ToolsTurn, Turn, roles
from tooletta.chat.conversation import conversation
from tooletta.chat.parse import parse_format
from tooletta.chat.render import render_format, render_text

FLAG = "<|think|>\n"
HEAD = "<tools>"
TOOLS = ({"type": "function", "function": {"name": "f", "parameters": {}}},)


def declare(tools: Sequence[Mapping[str, Any]]) -> str:
    """A tool declaration writer for the tests."""
    return HEAD + ",".join(t["function"]["name"] for t in tools) + "</tools>"


def flag(options: Mapping[str, Any]) -> str:
    """``FLAG`` when ``thinking`` is on."""
    return FLAG if options.get("thinking") else ""


FLAGGED = SystemBlock(tools=declare, head=HEAD, lead=flag, leads=(FLAG,))


def effort(options: Mapping[str, Any]) -> str:
    """An effort line, none when ``effort`` is not given."""
    level = options.get("effort")
    return f"Effort: {level}" if level else ""


EFFORT = ToolsTurn(
    declare, head=HEAD, lead=effort, lead_joiner="|", leads=("Effort: low", "Effort: high")
)


def test_no_lead_writes_as_before() -> None:
    plain = SystemBlock(tools=declare, head=HEAD)
    for system in (None, "", "Be brief."):
        for tools in ((), TOOLS):
            for options in (None, {}, {"thinking": False}):
                assert FLAGGED.write(system, tools, options=options) == plain.write(system, tools)
    assert FLAGGED.write("Hi", TOOLS) == "Hi\n\n<tools>f</tools>"


def test_a_lead_opens_the_body_and_makes_a_turn_alone() -> None:
    on = {"thinking": True}
    assert FLAGGED.write(None, (), options=on) == FLAG
    assert FLAGGED.write("", (), options=on) == FLAG
    assert FLAGGED.write("Hi", (), options=on) == FLAG + "Hi"
    assert FLAGGED.write(None, TOOLS, options=on) == FLAG + "<tools>f</tools>"
    assert FLAGGED.write("Hi", TOOLS, options=on) == FLAG + "Hi\n\n<tools>f</tools>"


def test_the_reader_takes_the_lead_off() -> None:
    assert FLAGGED.read(FLAG) is None
    assert FLAGGED.read(FLAG + "Hi") == "Hi"
    assert FLAGGED.read(FLAG + "<tools>f</tools>") is None
    assert FLAGGED.read(FLAG + "Hi\n\n<tools>f</tools>") == "Hi"
    assert FLAGGED.read("Hi") == "Hi"


def test_a_joined_lead_in_a_tools_turn() -> None:
    assert EFFORT.write(None, (), options={"effort": "low"}) == "Effort: low"
    assert EFFORT.write(None, TOOLS, options={"effort": "high"}) == (
        "Effort: high|<tools>f</tools>"
    )
    assert EFFORT.write(None, TOOLS, options={}) == "<tools>f</tools>"
    assert EFFORT.write(None, (), options={}) is None
    assert EFFORT.read("Effort: low") is None
    assert EFFORT.read("Effort: high|<tools>f</tools>") is None
    assert EFFORT.read("Effort: medium") == "Effort: medium"  # no lead it writes
    assert EFFORT.read("Effort: low|Hi") == "Hi"


@given(
    st.one_of(st.none(), st.text(max_size=20)),
    st.booleans(),
)
def test_written_with_a_lead_reads_back_as_without(system: str | None, tools: bool) -> None:
    """The lead changes nothing read back (an empty system message alone with the lead is
    the lead alone, read as none; a message that starts with a lead loses it)."""
    if system is not None and (system == "" or system.startswith(FLAG)):
        system = "x" + system
    declared = TOOLS if tools else ()
    body = FLAGGED.write(system, declared, options={"thinking": True})
    plain = FLAGGED.write(system, declared)
    assert body is not None
    assert FLAGGED.read(body) == (None if plain is None else FLAGGED.read(plain))


class _Flagged(ChatFormat):
    """A format whose system turn opens with a thinking flag."""

    name = "flagged_test"
    turns = roles(
        system=Turn("<s>", "</s>"),
        user=Turn("<u>", "</u>"),
        assistant=Turn("<a>", "</a>"),
    )
    end_of_turn = "</a>"
    system_block = FLAGGED


def test_the_format_passes_its_options_to_the_lead() -> None:
    fmt = _Flagged()
    dialect = get_dialect("hermes")
    messages = [Message("system", "Be brief."), Message("user", "hi")]
    text = render_text(fmt, dialect, messages, (), False, {"thinking": True})
    assert text == "<s>" + FLAG + "Be brief.</s><u>hi</u>"
    spans = render_format(fmt, dialect, messages, (), False, {"thinking": True}, True)
    assert spans.text == text
    assert parse_format(fmt, dialect, text, ()) == messages
    alone = render_text(fmt, dialect, [Message("user", "hi")], (), False, {"thinking": True})
    assert alone == "<s>" + FLAG + "</s><u>hi</u>"
    assert parse_format(fmt, dialect, alone, ()) == [Message("user", "hi")]
    ctx = conversation(messages, (), {"thinking": True}, dialect)
    assert fmt.expressible_for(messages, ctx) == messages
