"""Declarations of tooletta.chat.declare added for the Kimi and LongCat formats.

* The ``after_last_answer`` history rule of :func:`tooletta.chat.declare.keeps` (Kimi
  K2-Thinking's): only the turns after the last assistant turn without calls keep their
  reasoning, every turn when there is none; the same answer through a format's
  :meth:`~tooletta.chat.ChatFormat.kept_in` (the anchor found once per conversation) and its
  :meth:`~tooletta.chat.ChatFormat.keeps_reasoning`.
* :class:`~tooletta.chat.declare.Preamble` (Kimi K3, LongCat): text before the first
  message, written by the default ``before_turn`` and skipped by ``skip_before_turn``."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from support import bracket_turns, kind_message, rule_chat
from tooletta import Message, catalog
from tooletta.chat import ChatFormat, Conversation, Preamble, keeps, render_format
from tooletta.chat.declare import KEEP_RULES
from tooletta.chat.parse import parse_format

_RunChat = rule_chat("after_last_answer")
_message = kind_message


def _expected(messages: list[Message], index: int) -> bool:
    answers = [i for i, m in enumerate(messages) if m.role == "assistant" and not m.tool_calls]
    return index > (answers[-1] if answers else -1)


def test_the_rule_is_declared() -> None:
    assert "after_last_answer" in KEEP_RULES


def test_a_run_after_the_last_answer_keeps_its_reasoning() -> None:
    messages = [_message(k) for k in (0, 1, 0, 2, 3, 2, 3)]
    kept = [keeps("after_last_answer", i, messages) for i in range(len(messages))]
    assert kept == [False, False, True, True, True, True, True]


def test_the_last_answer_itself_does_not_keep() -> None:
    messages = [_message(k) for k in (0, 2, 3, 1)]
    assert [keeps("after_last_answer", i, messages) for i in (1, 3)] == [False, False]


def test_without_an_answer_every_turn_keeps() -> None:
    messages = [_message(k) for k in (0, 2, 3, 2)]
    assert all(keeps("after_last_answer", i, messages) for i in range(len(messages)))


@given(st.lists(st.integers(0, 3), max_size=12))
def test_the_rule_and_the_format_hooks_agree(kinds: list[int]) -> None:
    messages = [_message(k) for k in kinds]
    fmt = _RunChat()
    ctx = Conversation(messages, (), {}, None)
    for index in range(len(messages)):
        want = _expected(messages, index)
        assert keeps("after_last_answer", index, messages) is want
        assert keeps("after_last_answer", index, messages, ctx) is want
        assert fmt.kept_in(index, ctx) is want
        assert fmt.keeps_reasoning(index, messages) is want


# -- Preamble: text before the first message, outside any turn ------------------------------

_HEAD, _END = "[DECL]", "[/DECL]"
_NOTE_HEAD, _NOTE_END = "[NOTE]", "[/NOTE]"


def _preamble_text(ctx: Conversation) -> str:
    out = _HEAD + ",".join(str(t["name"]) for t in ctx.tools) + _END if ctx.tools else ""
    note = ctx.options.get("note")
    return out + (_NOTE_HEAD + str(note) + _NOTE_END if note else "")


class _PreambleChat(ChatFormat):
    """A toy format whose declarations and note stand before the first message."""

    name = "toy_preamble"
    bos = "<s>"
    turns = bracket_turns()
    end_of_turn = "<e>"
    merge_system = False
    preamble = Preamble(_preamble_text, ((_HEAD, _END), (_NOTE_HEAD, _NOTE_END)))


class _StartOnlyChat(_PreambleChat):
    name = "toy_preamble_start"
    bos = ""
    preamble = Preamble(_preamble_text, ((_HEAD, _END),), start_only=True)


_TOOLS = [{"name": "f"}, {"name": "g"}]
_DIALECT = catalog.get_dialect("hermes")


def test_the_preamble_stands_before_the_first_message_only() -> None:
    messages = [Message("system", "s"), Message("user", "u"), Message("assistant", "a")]
    text = render_format(_PreambleChat(), _DIALECT, messages, _TOOLS, False, {"note": "n"}).text
    assert text == "<s>[DECL]f,g[/DECL][NOTE]n[/NOTE][S]s[/S][U]u[/U][A]a<e>"


def test_without_messages_the_preamble_comes_before_the_prompt() -> None:
    text = render_format(_PreambleChat(), _DIALECT, [], _TOOLS, True, {}).text
    assert text == "<s>[DECL]f,g[/DECL][A]"


def test_nothing_to_write_writes_nothing() -> None:
    messages = [Message("user", "u")]
    assert render_format(_PreambleChat(), _DIALECT, messages, (), False, {}).text == "<s>[U]u[/U]"


def test_the_parser_skips_the_blocks_in_order() -> None:
    fmt = _PreambleChat()
    text = "<s>[DECL]f[/DECL][NOTE]n[/NOTE][U]u[/U]"
    assert fmt.skip_before_turn(text, 3) == text.index("[U]")
    assert fmt.skip_before_turn(text, text.index("[NOTE]")) == text.index("[U]")
    assert fmt.skip_before_turn(text, text.index("[U]")) == text.index("[U]")
    assert fmt.skip_before_turn("[DECL] never ends", 0) == 0


def test_a_start_only_preamble_is_skipped_at_the_start_only() -> None:
    fmt = _StartOnlyChat()
    text = "[DECL]f[/DECL][U]u[/U][DECL]g[/DECL]"
    assert fmt.skip_before_turn(text, 0) == text.index("[U]")
    assert fmt.skip_before_turn(text, text.index("[/U]") + 4) == text.index("[/U]") + 4


@given(
    st.lists(st.sampled_from(["user", "assistant"]), max_size=4),
    st.lists(st.sampled_from(["f", "g", "h"]), max_size=3),
    st.sampled_from(["", "n", "note text"]),
    st.booleans(),
)
def test_render_and_parse_agree(
    roles_: list[str], names: list[str], note: str, prompt: bool
) -> None:
    messages = [Message(role, f"m{i}") for i, role in enumerate(roles_)]
    tools = [{"name": name} for name in names]
    fmt = _PreambleChat()
    text = render_format(fmt, _DIALECT, messages, tools, prompt, {"note": note}).text
    back = parse_format(fmt, _DIALECT, text, tools) if not prompt else None
    if back is not None:
        assert [(m.role, m.content) for m in back] == [(m.role, m.content) for m in messages]
