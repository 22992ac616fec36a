"""Shared helpers that replaced code the plugins had copied: :meth:`ScannerDialect.writing`
(a shared writer's refusal named as the dialect's own) and :meth:`Reader.close_or_end` (a
block's closing tag, or the end of a cut-off text)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooletta import DialectInfo, RenderError, ScannerDialect
from tooletta.plugin import Block, Grammar, Read, Reader, json_call_object
from tooletta.testing.streams import assemble


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


def _read_call(r: Reader) -> Read[None]:
    yield from json_call_object(r)
    yield from r.close_or_end("</c>")


class _Closing(ScannerDialect):
    info = DialectInfo(name="closing_dups12", priority=1, markers=("<c>",))
    grammar = Grammar(blocks=(Block("<c>", _read_call),))


@pytest.mark.parametrize("tail", ["</c>", " \n</c>", "", "  \n"])
def test_a_block_ends_at_its_close_or_at_the_end_of_the_text(tail: str) -> None:
    result = _Closing().parse('<c>{"name": "f", "arguments": {"a": 1}}' + tail)
    assert [(c.name, c.arguments) for c in result.calls] == [("f", {"a": 1})]
    assert not result.unparsed


def test_anything_else_after_the_block_is_refused() -> None:
    result = _Closing().parse('<c>{"name": "f", "arguments": {}} </x> after')
    assert [u.error for u in result.unparsed] == ["expected '</c>'"]
    assert result.unparsed[0].raw == " </x> after"


@given(st.integers(min_value=1, max_value=40))
def test_streamed_in_pieces_the_close_reads_the_same(size: int) -> None:
    text = '<c>{"name": "f", "arguments": {"a": [1, 2]}}\n</c>tail'
    stream = _Closing().stream()
    pieces = [text[i : i + size] for i in range(0, len(text), size)]
    updates = [stream.feed(p) for p in pieces] + [stream.finish()]
    streamed, parsed = assemble(updates), _Closing().parse(text)
    assert (streamed.calls, streamed.content) == (parsed.calls, parsed.content)
    assert parsed.content == "tail" and not parsed.unparsed
