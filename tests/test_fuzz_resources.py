"""Bounded resources for every installed dialect (issue 7.4).

* a stream holds back at most the longest marker's length of content (plus whitespace), also
  when the prose is full of marker prefixes and after a completed call;
* nesting deeper than :data:`tooletta.engine.MAX_DEPTH` (up to far past Python's recursion
  limit) is an unparsed error, never a ``RecursionError`` or a silently accepted call — in
  the JSON dialects, the XML/key-value ones, the pythonic (``ast``-based) ones and interop;
* a stream's memory is bounded by the current call: many completed calls retain nothing.
"""

from __future__ import annotations

import contextlib
import gc
import tracemalloc
from collections.abc import Callable
from typing import Any

import pytest

import tooletta
from support import load_fuzzlib
from tooletta import ParseError, RenderError, ToolCall, ToolettaError
from tooletta.engine import MAX_DEPTH
from tooletta.testing import check_stream_equals_parse, tools_for

fuzzlib = load_fuzzlib()
DIALECTS = fuzzlib.dialect_names()
_SPACE = " \t\r\n"


# -- held-back text -------------------------------------------------------------------------


def _openers(dialect: str) -> list[str]:
    return [m for m in fuzzlib.markup(dialect) if len(m) >= 2]


def _longest(dialect: str) -> int:
    return max((len(m) for m in fuzzlib.markup(dialect)), default=1)


def _prefix_prose(dialect: str) -> str:
    """Prose scattered with every proper prefix of every marker, each broken off by ``§``."""
    words = []
    for marker in _openers(dialect):
        for k in range(1, len(marker)):
            words.append(f"w{k} {marker[:k]}§")
    return " ".join(words)


def _held(parser: Any, text: str, start: int, want: str) -> None:
    """Feed ``text`` one character at a time; from ``start`` on, check what is held back.

    ``want`` is the content the text after ``start`` yields. At every step the content shown
    since ``start`` must be a prefix of ``want`` missing at most the longest marker's length
    of what has been fed (plus whitespace).
    """
    longest = _longest(parser.dialect) if hasattr(parser, "dialect") else 16
    shown: list[str] = []
    for fed in range(len(text)):
        update = parser.feed(text[fed])
        if fed >= start:
            shown.append(update.content)
            got = "".join(shown).lstrip(_SPACE)
            possible = text[start : fed + 1].lstrip(_SPACE)
            assert possible.startswith(got), (got, possible)
            held = possible[len(got) :]
            assert len(held.lstrip(_SPACE)) <= longest, (fed, held)
    parser.finish()


@pytest.mark.parametrize("dialect", DIALECTS)
def test_holdback_bounded_in_prose_full_of_marker_prefixes(dialect: str) -> None:
    text = _prefix_prose(dialect) or "plain prose"
    if tooletta.parse(text, dialect).content != text:
        pytest.skip("this dialect reads such prose as something else")
    _held(tooletta.stream(dialect), text, 0, text)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_holdback_bounded_after_a_completed_call(dialect: str) -> None:
    call = ToolCall("get_weather", {"city": "Paris"})
    try:
        head = tooletta.render([call], dialect)
    except RenderError:
        pytest.skip("cannot render a call")
    tail = "\n" + (_prefix_prose(dialect) or "plain prose")
    text = head + tail
    tools = tools_for([call])
    result = tooletta.parse(text, dialect, tools=tools)
    if len(result.calls) != 1 or result.unparsed or result.content != tail.lstrip(_SPACE):
        pytest.skip("prose after a call is not plain content in this dialect")
    _held(tooletta.stream(dialect, tools=tools), text, len(head), result.content)


# -- nesting past MAX_DEPTH -------------------------------------------------------------------

SENTINEL = 987654321
NESTINGS = {
    "list-just-past-limit": "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    "dict-just-past-limit": '{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1),
    "list-past-recursion-limit": "[" * 5000 + "]" * 5000,
    "dict-past-recursion-limit": '{"a": ' * 5000 + "1" + "}" * 5000,
    "mixed-100k": "[{" * 50_000 + "}]" * 50_000,
    "unclosed-100k": "[" * 100_000,
}


def _nested_texts(dialect: str) -> list[tuple[str, str]]:
    call = ToolCall("get_weather", {"a": SENTINEL})
    try:
        text = tooletta.render([call], dialect)
    except RenderError:
        return []
    assert str(SENTINEL) in text, text
    return [(name, text.replace(str(SENTINEL), value)) for name, value in NESTINGS.items()]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_nesting_past_max_depth_is_unparsed_not_a_crash(dialect: str) -> None:
    tools = tools_for([ToolCall("get_weather", {"a": [1]})])
    for name, text in _nested_texts(dialect):
        for schema in (None, tools):
            result = tooletta.parse(text, dialect, tools=schema)
            for call in result.calls:
                assert fuzzlib.depth(call.arguments) <= MAX_DEPTH + 1, (name, "parsed anyway")
            try:
                tooletta.parse(text, dialect, tools=schema, strict=True)
            except ParseError as exc:
                assert exc.position is not None
        check_stream_equals_parse(dialect, text, range(0, len(text), 997), tools)


def _deep_arguments(n: int) -> str:
    return '{"a": ' + "[" * n + "]" * n + "}"


@pytest.mark.parametrize("n", [MAX_DEPTH + 1, 5000, 100_000])
def test_interop_readers_refuse_deep_arguments_cleanly(n: int) -> None:
    from tooletta import interop

    args = _deep_arguments(n)
    item = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": args}}
    readers: list[Callable[[], object]] = [
        lambda: ToolCall.from_openai(item),
        lambda: interop.read_tool_call(item),
        lambda: interop.read_messages([{"role": "assistant", "tool_calls": [item]}]),
        lambda: interop.messages_to_anthropic([{"role": "assistant", "tool_calls": [item]}]),
    ]
    for read in readers:
        # refused with the documented error types (never RecursionError), or read
        with contextlib.suppress(ValueError, ToolettaError):
            read()


# -- memory of a stream ----------------------------------------------------------------------


def _retained(dialect: str, text: str, tools: Any, warm: int, more: int) -> int:
    """Bytes a stream parser still holds after ``more`` further copies of ``text``."""
    parser = tooletta.stream(dialect, tools=tools)

    def feed(times: int) -> None:
        for _ in range(times):
            for i in range(0, len(text), 7):
                parser.feed(text[i : i + 7])

    feed(warm)
    gc.collect()
    # What lives now (the parser's steady state, and the rest of the test session's heap)
    # leaves the collector's view: the collection after the feeds then walks only what they
    # made, not a whole suite's objects (a full collection of those is most of this test's
    # time in a long session).
    gc.freeze()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        feed(more)
        gc.collect()
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
        gc.unfreeze()
    stats = after.filter_traces([tracemalloc.Filter(True, "*tooletta*")]).compare_to(
        before.filter_traces([tracemalloc.Filter(True, "*tooletta*")]), "filename"
    )
    return sum(s.size_diff for s in stats)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_stream_memory_is_bounded_by_the_current_call(dialect: str) -> None:
    calls = [ToolCall("get_weather", {"city": " ".join(["Paris"] * 20)})]
    try:
        text = tooletta.render(calls, dialect, content="Some prose first.") + "\n"
    except RenderError:
        text = tooletta.render(calls, dialect) + "\n"
    tools = tools_for(calls)
    grown = _retained(dialect, text, tools, warm=50, more=400)
    # 400 more calls may not cost more than a few hundred bytes in all (no per-call growth)
    assert grown < 2048, f"{dialect}: {grown} bytes retained after 400 completed calls"
