"""The declarations added in the second conversion pass for Gemma 4, GLM-5.2 and Kimi K3:
:attr:`tooletta.chat.SystemBlock.lead` (text the template writes at the start of the opening
system turn from its options, such as Gemma 4's ``<|think|>`` flag), with
:attr:`~tooletta.chat.SystemBlock.lead_joiner` and :attr:`~tooletta.chat.SystemBlock.leads`
(what the reader takes off); :attr:`tooletta.chat.Reasoning.switch` (an option that changes
the history rule to :attr:`~tooletta.chat.Reasoning.switched`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tooletta import Message, get_dialect
from tooletta.chat import ChatFormat, Reasoning, SystemBlock, ToolsTurn, Turn, keeps, roles
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


# -- Reasoning.switch: an option that changes the history rule ------------------------------

SWITCHED = Reasoning("<think>", "</think>", keep="after_last_user", switch="clear", switched="all")


def test_the_switch_picks_the_rule_by_the_options_truth() -> None:
    assert SWITCHED.rule({}) == "after_last_user"
    assert SWITCHED.rule({"clear": True}) == "after_last_user"
    for off in (False, None, 0, ""):
        assert SWITCHED.rule({"clear": off}) == "all"
    assert Reasoning("<t>", "</t>", keep="last").rule({"clear": False}) == "last"


class _Switched(ChatFormat):
    """A format whose history rule an option switches."""

    name = "switched_test"
    turns = roles(
        user=Turn("<u>", "</u>"),
        assistant=Turn("<a>", "</a>"),
    )
    end_of_turn = "</a>"
    reasoning = SWITCHED


_TURNS = st.lists(
    st.sampled_from(
        [Message("user", "q"), Message("assistant", "a", reasoning="r"), Message("assistant", "b")]
    ),
    max_size=6,
)


@given(_TURNS, st.sampled_from([{}, {"clear": True}, {"clear": False}, {"clear": None}]))
def test_kept_in_follows_the_switched_rule(
    messages: list[Message], options: dict[str, Any]
) -> None:
    fmt = _Switched()
    ctx = conversation(messages, (), options, None)
    rule = SWITCHED.rule(options)
    for index, message in enumerate(messages):
        if message.role == "assistant":
            assert fmt.kept_in(index, ctx) == keeps(rule, index, messages)
    expected = [
        m if m.role != "assistant" or keeps(rule, i, messages) else Message("assistant", m.content)
        for i, m in enumerate(messages)
    ]
    assert fmt.expressible_for(messages, ctx) == expected


def test_a_switched_rule_renders_and_reads_back() -> None:
    fmt = _Switched()
    dialect = get_dialect("hermes")
    messages = [
        Message("user", "q"),
        Message("assistant", "a", reasoning="r"),
        Message("user", "q2"),
        Message("assistant", "b", reasoning="s"),
    ]
    kept = render_text(fmt, dialect, messages, (), False, {"clear": False})
    assert kept == "<u>q</u><a><think>r</think>a</a><u>q2</u><a><think>s</think>b</a>"
    cleared = render_text(fmt, dialect, messages, (), False, {})
    assert cleared == "<u>q</u><a>a</a><u>q2</u><a><think>s</think>b</a>"
    assert parse_format(fmt, dialect, kept, ()) == messages
