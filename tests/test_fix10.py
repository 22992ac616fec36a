"""What :meth:`~tooletta.chat.ChatFormat.expressible` gives back equals what
:func:`~tooletta.parse_conversation` reads back, for the openings the sample conversations miss:
an opening developer message (read back as the system message by the formats that take one, of
:attr:`~tooletta.chat.ChatFormat.system_roles`), and a template's default system prompt or an
empty system message given explicitly.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

import tooletta
from support import installed_formats, tag_turns
from tooletta import Message, ToolettaError, get_dialect
from tooletta.chat import ChatFormat, SystemBlock
from tooletta.chat.conversation import conversation
from tooletta.chat.parse import parse_format
from tooletta.chat.render import render_text
from tooletta.testing.conversations import (
    SAMPLE_TOOLS,
    check_conversation_round_trip,
    sample_conversations,
)

FORMATS = [fmt for fmt, _ in installed_formats().values()]


def _developer_openings() -> dict[str, tuple[list[Message], bool]]:
    """The sample conversations opened by a developer message: the system message made one,
    or one put first; plus one whose text the trimming formats trim."""
    out = {}
    for name, (messages, uses_tools) in sample_conversations(ids=True).items():
        if messages[0].role == "system":
            first = msgspec.structs.replace(messages[0], role="developer")
            out[name] = ([first, *messages[1:]], uses_tools)
        else:
            out[name] = ([Message("developer", "Be brief."), *messages], uses_tools)
    spaced = [
        Message("developer", "  Be brief.\n"),
        Message("user", "Hi"),
        Message("assistant", "Hello"),
    ]
    out["spaced"] = (spaced, False)
    return out


# -- item 1: an opening developer message ------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS, ids=lambda f: f.name)
def test_an_opening_developer_message_reads_back_as_expressible_says(fmt: Any) -> None:
    """Over every installed format: a conversation opening with a developer message is
    refused (the format has no place for one) or parsed back as ``expressible_for`` says,
    with and without tools (the system turn's read-back then says ``system``)."""
    taken = 0
    for name, (messages, uses_tools) in _developer_openings().items():
        for tools in (SAMPLE_TOOLS if uses_tools else None, SAMPLE_TOOLS):
            try:
                check_conversation_round_trip(messages, dialect=fmt.name, tools=tools)
            except ToolettaError:
                continue  # no developer turn in this format
            except AssertionError as exc:
                raise AssertionError(f"{name} (tools={tools is not None}): {exc}") from None
            taken += 1
    if "developer" in fmt.system_roles:
        assert taken, f"{fmt.name} takes a developer message as a system one, yet refused all"


def test_the_formats_taking_a_developer_message_are_checked() -> None:
    takers = {f.name for f in FORMATS if "developer" in f.system_roles}
    assert {"gemma4", "gemma4-interleaved", "gpt_oss"} <= takers


class _Declared(ChatFormat):
    """A declared format taking a developer message as its system one (the default
    ``expressible``, no override)."""

    name = "fix10_declared"
    turns = tag_turns()
    end_of_turn = "</a>"
    system_roles = frozenset({"system", "developer"})
    trim = frozenset({"system"})


class _DeclaredBlock(_Declared):
    system_block = SystemBlock(default="You are X.")


def _read(fmt: ChatFormat, messages: Sequence[Message]) -> list[Message]:
    dialect = get_dialect("hermes")
    text = render_text(fmt, dialect, messages, [], False, fmt.options)
    return parse_format(fmt, dialect, text, [])


@pytest.mark.parametrize("fmt", [_Declared(), _DeclaredBlock()], ids=lambda f: type(f).__name__)
@pytest.mark.parametrize("content", ["Be brief.", "  Be brief.\n", "You are X."])
def test_the_default_expressible_gives_an_opening_developer_message_back_as_system(
    fmt: ChatFormat, content: str
) -> None:
    messages = [Message("developer", content), Message("user", "Hi"), Message("assistant", "Yo")]
    ctx = conversation(messages, (), fmt.options, get_dialect("hermes"))
    want = fmt.carried(messages, ctx)
    assert want == fmt.expressible(messages)
    assert _read(fmt, messages) == want
    if content != "You are X." or fmt.system_block is None:
        assert want[0] == Message("system", content.strip())


# -- item 3: a default or an empty system message, given explicitly ----------------------------


def _system_cases() -> dict[str, list[str]]:
    """Per format, the system messages to give explicitly: the template's own default prompt
    (as given, and spaced where the format trims it), an empty one, blanks. Apriel 1.5 has no
    default message: its reasoning prompt, which starts every system turn, stands for it."""
    r_plus = str(importlib.import_module("tooletta_dialect_cohere.chat_r_plus").DEFAULT_SYSTEM)
    reasoning = importlib.import_module("tooletta_dialect_jamba.chat").APRIEL15_REASONING_PROMPT
    fire = "You are a helpful assistant with access to functions."
    return {
        "command_r_plus": [r_plus, " " + r_plus, "", " "],
        "firefunction_v2": [fire, " " + fire + "\n", "", " "],
        "apriel15": [str(reasoning), "", " ", "\n"],
        "command_r7b": ["", " "],  # no default: an empty message is a turn of its own
    }


def _with_system(system: str, calls: bool) -> list[Message]:
    if calls:
        messages, _ = sample_conversations(ids=True)["tools_no_system"]
    else:
        messages = [Message("user", "Hi"), Message("assistant", "Hello")]
    return [Message("system", system), *messages]


@pytest.mark.parametrize("name", sorted(_system_cases()))
def test_a_default_or_empty_system_message_reads_back_as_expressible_says(name: str) -> None:
    """Command R+, FireFunction v2, Apriel 1.5: a system message that is the template's
    default prompt (read back as none), or empty, or blank, with and without tools, with and
    without calls: parsed back as ``expressible_for`` says, and ``expressible`` (no tools)
    agrees where no tools are declared."""
    fmt = next(f for f in FORMATS if f.name == name)
    for system in _system_cases()[name]:
        for tools in (None, SAMPLE_TOOLS):
            for calls in (False, True) if tools else (False,):
                messages = _with_system(system, calls)
                try:
                    check_conversation_round_trip(messages, dialect=name, tools=tools)
                except AssertionError as exc:
                    where = f"{system[:30]!r}, tools={tools is not None}, calls={calls}"
                    raise AssertionError(f"{where}: {exc}") from None
                if tools is None:
                    text = tooletta.render_conversation(messages, dialect=name)
                    back = tooletta.parse_conversation(text, dialect=name)
                    want = fmt.expressible(messages)
                    assert [(m.role, m.content) for m in want] == [
                        (m.role, m.content) for m in back
                    ]


@pytest.mark.parametrize("name", ["command_r_plus", "firefunction_v2"])
def test_the_default_system_message_is_carried_as_none(name: str) -> None:
    """The template's default prompt given explicitly is the text written without one: it
    reads back as no message, and ``expressible`` gives none."""
    fmt = next(f for f in FORMATS if f.name == name)
    default = _system_cases()[name][0]
    messages = _with_system(default, False)
    pinned: dict[str, Any] = (
        {"datetime": "Dec 02 2026 06:00:00 GMT"} if name == "firefunction_v2" else {}
    )
    alone = tooletta.render_conversation(messages[1:], dialect=name, **pinned)
    assert tooletta.render_conversation(messages, dialect=name, **pinned) == alone
    assert [m.role for m in fmt.expressible(messages)] == ["user", "assistant"]
