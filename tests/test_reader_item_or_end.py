"""``Reader.item_or_end``: the head of a loop over a list's items, the same read whole or in
any pieces."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from support import stream_in_lengths
from tooletta.engine import Block, Grammar, Read, Reader, parse_with
from tooletta.ir import ToolCall


def _read_list(r: Reader) -> Read[None]:
    """``<list> <f/> <g/> </list>``: one call per item, named by the item's tag."""
    while (yield from r.item_or_end("<", "</list>")):
        name, _ = yield from r.until(("/>",))
        r.call(name, {})


GRAMMAR = Grammar(blocks=(Block("<list>", _read_list, close="</list>"),))


def test_items_then_the_end() -> None:
    result = parse_with(GRAMMAR, "t", "a<list> <f/>\n<g/> </list>b")
    assert result.calls == [ToolCall("f", {}), ToolCall("g", {})]
    assert result.content == "ab"


def test_neither_fails_naming_both() -> None:
    result = parse_with(GRAMMAR, "t", "<list> x </list>")
    assert result.calls == []
    assert result.unparsed and "'<' or '</list>'" in result.unparsed[0].error


@given(st.lists(st.integers(1, 5), max_size=12))
def test_any_split_reads_the_same(cuts: list[int]) -> None:
    text = "<list><f/> <g/>  </list>"
    whole = parse_with(GRAMMAR, "t", text)
    streamed = stream_in_lengths(GRAMMAR, text, cuts)
    assert streamed.calls == whole.calls == [ToolCall("f", {}), ToolCall("g", {})]
