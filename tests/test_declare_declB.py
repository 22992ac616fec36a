"""The ``after_last_answer`` history rule of :func:`tooletta.chat.declare.keeps` (Kimi
K2-Thinking's): only the turns after the last assistant turn without calls keep their
reasoning, every turn when there is none; the same answer through a format's
:meth:`~tooletta.chat.ChatFormat.kept_in` (the anchor found once per conversation) and its
:meth:`~tooletta.chat.ChatFormat.keeps_reasoning`."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tooletta import Message, ToolCall
from tooletta.chat import ChatFormat, Conversation, Turn, keeps, roles
from tooletta.chat.declare import KEEP_RULES
from tooletta.chat.format import Reasoning


class _RunChat(ChatFormat):
    """A toy format declaring the rule."""

    name = "toy_after_last_answer"
    turns = roles(user=Turn("[U]", "[/U]"), assistant=Turn("[A]", "<e>"), tool=Turn("[T]", "[/T]"))
    end_of_turn = "<e>"
    reasoning = Reasoning("<t>", "</t>", strip="", keep="after_last_answer")


def _message(kind: int) -> Message:
    if kind == 0:
        return Message("user", "q")
    if kind == 1:
        return Message("assistant", "answer", reasoning="r")
    if kind == 2:
        return Message("assistant", "", tool_calls=[ToolCall("f", {})], reasoning="r")
    return Message("tool", "result")


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
