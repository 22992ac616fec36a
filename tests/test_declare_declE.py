"""The ``with_calls_after_last_user`` history rule of :func:`tooletta.chat.declare.keeps`
(Gemma 4's two formats): only the assistant turns with tool calls after the last user message
keep their reasoning, every turn with calls when there is no user message; the same answer
through a format's :meth:`~tooletta.chat.ChatFormat.kept_in` (the last user message found once
per conversation) and its :meth:`~tooletta.chat.ChatFormat.keeps_reasoning`."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from support import kind_message, rule_chat
from tooletta import Message, catalog
from tooletta.chat import Conversation, keeps, render_format
from tooletta.chat.declare import KEEP_RULES

RULE = "with_calls_after_last_user"


_CallsChat = rule_chat("with_calls_after_last_user")
_message = kind_message


def _expected(messages: list[Message], index: int) -> bool:
    users = [i for i, m in enumerate(messages) if m.role == "user"]
    return bool(messages[index].tool_calls) and index > (users[-1] if users else -1)


def test_the_rule_is_declared() -> None:
    assert RULE in KEEP_RULES


def test_only_the_calls_after_the_last_user_keep() -> None:
    messages = [_message(k) for k in (0, 2, 3, 1, 0, 2, 3, 2, 3, 1)]
    kept = [keeps(RULE, i, messages) for i in range(len(messages))]
    assert [i for i, k in enumerate(kept) if k] == [5, 7]


def test_an_answer_after_the_last_user_does_not_keep() -> None:
    messages = [_message(k) for k in (0, 1)]
    assert keeps(RULE, 1, messages) is False
    assert keeps("after_last_user", 1, messages) is True


def test_without_a_user_every_calls_turn_keeps() -> None:
    messages = [_message(k) for k in (2, 3, 1, 2)]
    assert [keeps(RULE, i, messages) for i in range(len(messages))] == [True, False, False, True]


@given(st.lists(st.integers(0, 3), max_size=12))
def test_the_rule_and_the_format_hooks_agree(kinds: list[int]) -> None:
    messages = [_message(k) for k in kinds]
    fmt = _CallsChat()
    ctx = Conversation(messages, (), {}, None)
    for index in range(len(messages)):
        want = _expected(messages, index)
        assert keeps(RULE, index, messages) is want
        assert keeps(RULE, index, messages, ctx) is want
        assert fmt.kept_in(index, ctx) is want
        assert fmt.keeps_reasoning(index, messages) is want


def test_the_renderer_writes_reasoning_only_where_the_rule_keeps_it() -> None:
    messages = [_message(k) for k in (0, 2, 3, 1, 0, 2, 3, 1)]
    text = render_format(_CallsChat(), catalog.get_dialect("hermes"), messages, (), False, {}).text
    assert text.count("<t>r</t>") == 1
    assert text.index("<t>r</t>") > text.rindex("[U]")
