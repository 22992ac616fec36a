"""``header_call_reader`` and its one-shot shortcut ``fast_header_call``, built from the same
arguments, read ``HEADER SEP {json} CLOSE`` calls alike, whole or streamed."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from support import stream_in_lengths
from tooletta.engine import Block, Grammar, parse_with
from tooletta.ir import ToolCall
from tooletta.plugin import fast_header_call, header_call_reader

OPEN, SEP, CLOSE, EOT = "<c>", "<a>", "</c>", "<eot>"
STOPS = (SEP, CLOSE, OPEN)


def _header(text: str) -> tuple[str, str | None]:
    name, _, call_id = text.strip().partition("#")
    return name, call_id or None


READ = header_call_reader(SEP, CLOSE, STOPS, _header, EOT, no_name="no name here")
GRAMMAR = Grammar(
    blocks=(Block(OPEN, READ, close=CLOSE, fast=fast_header_call(SEP, CLOSE, STOPS, _header, EOT)),)
)


def test_a_call_with_its_id() -> None:
    result = parse_with(GRAMMAR, "t", 'hi <c> f#7 <a> {"x": [1, 2]} </c>')
    assert result.calls == [ToolCall("f", {"x": [1, 2]}, "7")]
    assert result.content == "hi"  # content is trimmed before a call


def test_failures_carry_their_messages() -> None:
    no_sep = parse_with(GRAMMAR, "t", "<c> f </c>", shortcuts=False)
    assert no_sep.unparsed and "expected '<a>' after the call header" in no_sep.unparsed[0].error
    no_name = parse_with(GRAMMAR, "t", "<c> #1 <a> {} </c>", shortcuts=False)
    assert no_name.unparsed and "no name here" in no_name.unparsed[0].error


CALL = st.tuples(
    st.sampled_from(["f", "get_weather", " g ", ""]),
    st.sampled_from(["", "#1", "#x9"]),
    st.sampled_from(['{"a": 1}', "{}", '{"s": "<c>"}', '{"a": 1', "[1]", '{"a": 1}' + EOT]),
    st.sampled_from(["", " ", "\n"]),
    st.sampled_from([CLOSE, "", "x" + CLOSE]),
)


@given(st.lists(CALL, max_size=4), st.lists(st.integers(1, 7), max_size=10))
def test_shortcut_reader_and_stream_agree(calls: list[tuple[str, ...]], cuts: list[int]) -> None:
    text = "pre " + "".join(f"{OPEN}{n}{i}{SEP}{a}{w}{c}" for n, i, a, w, c in calls)
    fast = parse_with(GRAMMAR, "t", text)
    slow = parse_with(GRAMMAR, "t", text, shortcuts=False)
    assert fast == slow
    assert stream_in_lengths(GRAMMAR, text, cuts).calls == slow.calls
