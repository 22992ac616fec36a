"""Every chat format: ordinary conversations in any order of roles (two users in a row, a
result no call asked for, an answer after an answer, an assistant first, no message) render
to a text that reads back as the format says it carries them, or are refused with a
ToolettaError (issue 22, item 6). Never a silent different reading."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message
from tooletta.chat import chat_formats_of
from tooletta.testing.role_orders import check_role_order, role_orders


def _formats() -> list[str]:
    names = set()
    for info in tooletta.list_dialects():
        for fmt in chat_formats_of(tooletta.get_dialect(info.name)):
            names.add(fmt.name)
    return sorted(names)


@pytest.mark.parametrize("fmt", _formats())
def test_any_order_of_roles_reads_back_or_is_refused(fmt: str) -> None:
    @settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
    @given(role_orders(), st.booleans(), st.booleans())
    def check(messages: list[Message], with_tools: bool, prompt: bool) -> None:
        check_role_order(messages, with_tools=with_tools, prompt=prompt, dialect=fmt)

    check()
