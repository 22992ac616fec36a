"""The invoke writers' shortcuts (invoke.render_value, quote_attribute) answer as the general
path does."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooletta import RenderError, to_json
from tooletta.toolkit.invoke import quote_attribute, render_value


def _error(message: str) -> RenderError:
    return RenderError(message, dialect="dots3")


@given(st.one_of(st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False)))
def test_render_value_writes_scalars_as_json(value: object) -> None:
    if isinstance(value, float) and value - value != 0:
        with pytest.raises(RenderError):
            render_value(value, "</parameter>", _error)
        return
    assert render_value(value, "</parameter>", _error) == to_json(value)


def test_render_value_refuses_an_integer_past_the_digit_limit() -> None:
    with pytest.raises(RenderError):
        render_value(10**5000, "</parameter>", _error)


@given(st.text())
def test_quote_attribute_refuses_what_ends_an_attribute(name: str) -> None:
    bad = any(ch in name for ch in '"<>\r\n')
    assert quote_attribute(name, False) == (None if bad else name)
