"""Every chat format: ordinary conversations in any order of roles (two users in a row, a
result no call asked for, an answer after an answer, an assistant first, no message) render
to a text that reads back as the format says it carries them, or are refused with a
ToolettaError (issue 22, item 6). Never a silent different reading."""

from __future__ import annotations

import pytest

import tooletta
from tooletta.chat import chat_formats_of
from tooletta.testing.role_orders import role_order_property


def _formats() -> list[str]:
    names = set()
    for info in tooletta.list_dialects():
        for fmt in chat_formats_of(tooletta.get_dialect(info.name)):
            names.add(fmt.name)
    return sorted(names)


@pytest.mark.parametrize("fmt", _formats())
def test_any_order_of_roles_reads_back_or_is_refused(fmt: str) -> None:
    role_order_property(dialect=fmt, max_examples=80)()
