"""Shared helpers that replaced code the plugins had copied: :meth:`ScannerDialect.writing`
(a shared writer's refusal named as the dialect's own)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooletta import DialectInfo, RenderError, ScannerDialect


class _Acme(ScannerDialect):
    info = DialectInfo(name="acme_dups12", priority=1)


@pytest.mark.parametrize(
    "raised", [RenderError("bad value"), ValueError("bad value"), TypeError("bad value")]
)
def test_a_writer_refusal_names_the_dialect(raised: Exception) -> None:
    with pytest.raises(RenderError) as caught, _Acme().writing():
        raise raised
    assert caught.value.dialect == "acme_dups12"
    assert str(caught.value) == str(RenderError("bad value", dialect="acme_dups12"))
    assert caught.value.__suppress_context__


def test_an_error_naming_a_dialect_passes_unchanged() -> None:
    original = RenderError("not mine", dialect="other")
    with pytest.raises(RenderError) as caught, _Acme().writing():
        raise original
    assert caught.value is original


def test_other_errors_are_not_caught() -> None:
    with pytest.raises(KeyError), _Acme().writing():
        raise KeyError("k")


@given(st.text(max_size=30))
def test_a_block_that_writes_returns_normally(text: str) -> None:
    with _Acme().writing():
        out = text + ""
    assert out == text

