"""The key/value writers' shortcuts (kvcall.render_value, check_name) answer as the general
path does."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooletta import RenderError, to_json
from tooletta.toolkit.kvcall import KvTags, check_name, render_value

TAGS = KvTags(
    close="</tool_call>",
    key_open="<arg_key>",
    key_close="</arg_key>",
    value_open="<arg_value>",
    value_close="</arg_value>",
)


@given(st.one_of(st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False)))
def test_render_value_writes_scalars_as_json(value: object) -> None:
    if isinstance(value, float) and value - value != 0:
        with pytest.raises(RenderError):
            render_value(value, TAGS, "glm45")
        return
    assert render_value(value, TAGS, "glm45") == to_json(value)


def test_render_value_refuses_an_integer_past_the_digit_limit() -> None:
    with pytest.raises(RenderError):
        render_value(10**5000, TAGS, "glm45")


def test_render_value_refuses_a_string_holding_a_closing_tag() -> None:
    with pytest.raises(RenderError, match="arg_value"):
        render_value("a</arg_value>b", TAGS, "glm45")


@given(st.text())
def test_check_name_agrees_with_its_pattern(name: str) -> None:
    assert check_name(name) == (bool(name) and re.search(r"[\s<>{}\[\]\"]", name) is None)
