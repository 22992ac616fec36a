"""The pythonic family's call writers refuse what has no Python literal with a typed error,
also when ``render_calls`` is asked directly (not only through ``render``)."""

from __future__ import annotations

import pytest

import tooletta
from tooletta import RenderError, ToolCall

FAMILY = ("pythonic", "lfm2", "lfm25", "olmo3", "olmo3_instruct", "sarashina")
CALL_SYNTAX = tuple(name for name in FAMILY if name != "sarashina")
"""The dialects writing ``name(key=value)`` (sarashina writes a list of dicts: any name and
key is a string literal there)."""

NO_LITERAL = [
    ToolCall(name="f", arguments={"x": float("nan")}),
    ToolCall(name="f", arguments={"x": float("inf")}),
    ToolCall(name="f", arguments={"x": {"nested": [1, float("-inf")]}}),
]
NO_CALL_SYNTAX = [
    ToolCall(name="1f", arguments={}),
    ToolCall(name="f", arguments={"not an identifier": 1}),
]


def _refused(name: str, call: ToolCall) -> None:
    dialect = tooletta.get_dialect(name)
    with pytest.raises(RenderError):
        dialect.render_calls([call])
    with pytest.raises(RenderError):
        dialect.render([call])


@pytest.mark.parametrize("name", FAMILY)
@pytest.mark.parametrize("call", NO_LITERAL, ids=["nan", "inf", "nested-inf"])
def test_a_value_without_literal_is_a_render_error(name: str, call: ToolCall) -> None:
    _refused(name, call)


@pytest.mark.parametrize("name", CALL_SYNTAX)
@pytest.mark.parametrize("call", NO_CALL_SYNTAX, ids=["bad-name", "bad-key"])
def test_a_name_without_call_syntax_is_a_render_error(name: str, call: ToolCall) -> None:
    _refused(name, call)
