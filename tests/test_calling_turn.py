"""``tooletta.chat.calling_turn``: the assistant turn whose calls a tool result answers by order
(the scan Jinja's message form and the Mistral, MiniMax-M1 and Solar formats share)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tooletta import Message
from tooletta.chat import calling_turn
from tooletta.plugin import calling_turn as face_calling_turn

_ROLES = st.lists(st.sampled_from(["system", "user", "assistant", "tool"]), max_size=8)


def _by_definition(roles: list[str], index: int) -> int | None:
    before = [i for i in range(index) if roles[i] != "tool"]
    if not before or any(roles[i] != "tool" for i in range(before[-1] + 1, index)):
        return None
    return before[-1] if roles[before[-1]] == "assistant" else None


@given(_ROLES, st.data())
def test_the_message_before_the_run_of_results_if_it_is_an_assistant_one(
    roles: list[str], data: st.DataObject
) -> None:
    messages = [Message(role, "x") for role in roles]
    for index in range(len(messages)):
        assert calling_turn(messages, index) == _by_definition(roles, index)
    assert face_calling_turn is calling_turn


def test_examples() -> None:
    roles = ["user", "assistant", "tool", "tool", "user", "tool"]
    messages = [Message(r, "x") for r in roles]
    assert calling_turn(messages, 2) == 1
    assert calling_turn(messages, 3) == 1
    assert calling_turn(messages, 5) is None
    assert calling_turn([Message("tool", "r")], 0) is None
