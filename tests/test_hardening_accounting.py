"""Hardening issue 14, item 8: text counted twice.

Content, reasoning or a call read from inside a block that then failed used to be kept in that
block's unparsed ``raw`` too (canonical, harmony, inkling; calls in nearly every dialect). Now
what a reader emitted stands (a stream has sent it) and the unparsed record starts where the
reader last emitted: every character is in exactly one of the content, the reasoning, a call's
block or an unparsed block. The kit checks it for every dialect
(:func:`tooletta.testing.check_nothing_counted_twice`).
"""

from __future__ import annotations

from typing import Any

import pytest

import tooletta
from tooletta import ToolCall
from tooletta.engine import Block, Decline, Engine, Grammar, Read, Reader, parse_with
from tooletta.testing import assemble, check_stream_equals_parse, tools_for
from tooletta.testing.accounting import accounting_variants, check_nothing_counted_twice

DIALECTS = [i.name for i in tooletta.list_dialects()]

# (dialect, text, content, reasoning, call names, records as (offset, raw))
CONTENT_CASES: list[tuple[str, str, str, str, list[str], list[tuple[int, str]]]] = [
    (
        "canonical",
        '{"content": "Hello there", "tool_calls": [{"name": 5}]}',
        "Hello there",
        "",
        [],
        [(25, ', "tool_calls": [{"name": 5}]}')],
    ),
    (
        "harmony",
        "<|channel|>final<|message|>Hello world<|start|>assistant<|channel|>oops",
        "Hello world",
        "",
        [],
        [(38, "<|start|>assistant<|channel|>oops")],
    ),
    (
        "harmony",
        "<|channel|>analysis<|message|>Thinking hard<|channel|>commentary to=functions.f"
        "<|message|>{bad}<|call|>",
        "",
        "Thinking hard",
        [],
        [(43, "<|channel|>commentary to=functions.f<|message|>{bad}<|call|>")],
    ),
    (
        "inkling",
        "<|message_model|><|content_text|>Hello world<|message_model|>oops",
        "Hello world",
        "",
        [],
        [(44, "<|message_model|>oops")],
    ),
    (
        "inkling",
        "<|message_model|><|content_thinking|>hmm<|message_model|>f"
        '<|content_invoke_tool_json|>{"name":"g","args":{}}<|end_message|>',
        "",
        "hmm",
        [],
        [
            (
                40,
                '<|message_model|>f<|content_invoke_tool_json|>{"name":"g","args":{}}'
                "<|end_message|>",
            )
        ],
    ),
]

CALL_CASES: list[tuple[str, str, list[str], list[tuple[int, str]]]] = [
    ("canonical", '[{"name":"a","arguments":{}}, {"name": 5}]', ["a"], [(28, ', {"name": 5}]')]),
    (
        "canonical",
        '{"tool_calls": [{"name":"a","arguments":{}}], "content": 5',
        ["a"],
        [(44, ', "content": 5')],
    ),
    (
        "harmony",
        "<|channel|>commentary to=functions.f json<|message|>{} junk<|call|>",
        ["f"],
        [(54, " junk<|call|>")],
    ),
    (
        "hermes",
        '<tool_call>\n{"name": "f", "arguments": {}}\n<tool_call>\n{"name": "g"',
        ["f"],
        [(42, '\n<tool_call>\n{"name": "g"')],
    ),
]


def _records(result: Any) -> list[tuple[int, str]]:
    return [(u.offset, u.raw) for u in result.unparsed]


@pytest.mark.parametrize(
    ("dialect", "text", "content", "reasoning", "names", "records"),
    CONTENT_CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(CONTENT_CASES)],
)
def test_item8_failed_block_content_not_counted_twice(
    dialect: str,
    text: str,
    content: str,
    reasoning: str,
    names: list[str],
    records: list[tuple[int, str]],
) -> None:
    result = tooletta.parse(text, dialect)
    assert result.content == content
    assert result.reasoning == reasoning
    assert [c.name for c in result.calls] == names
    assert _records(result) == records
    check_nothing_counted_twice(dialect, text, None, None)
    check_nothing_counted_twice(dialect, text, None, [])
    for cut in range(len(text)):
        check_stream_equals_parse(dialect, text, [cut])
    check_stream_equals_parse(dialect, text, None)


@pytest.mark.parametrize(
    ("dialect", "text", "names", "records"),
    CALL_CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(CALL_CASES)],
)
def test_item8_failed_block_calls_not_counted_twice(
    dialect: str, text: str, names: list[str], records: list[tuple[int, str]]
) -> None:
    """A call finished before its block failed stays a call (a stream has sent it whole);
    the record holds only the rest of the block."""
    result = tooletta.parse(text, dialect)
    assert [c.name for c in result.calls] == names
    assert _records(result) == records
    check_nothing_counted_twice(dialect, text, None, None)
    for cut in range(len(text)):
        check_stream_equals_parse(dialect, text, [cut])


def test_item8_record_start_does_not_depend_on_the_split() -> None:
    """The commit point is moved back over whitespace: a stream that emitted the body before
    its trailing whitespace arrived gives the same record as one-shot parsing."""
    text = "<|channel|>final<|message|>Hello world  \n <|start|>assistant<|channel|>oops"
    result = tooletta.parse(text, "harmony")
    assert result.content == "Hello world"
    assert _records(result) == [(38, "  \n <|start|>assistant<|channel|>oops")]
    for cut in range(len(text)):
        for other in (cut + 1, cut + 3):
            check_stream_equals_parse("harmony", text, [cut, other])
    check_stream_equals_parse("harmony", text, None)


def test_item8_content_still_streams_before_the_block_ends() -> None:
    """Content is not held back until its block is known to be well formed (which would
    delay every harmony answer to its end): it is shown as it arrives."""
    head = "<|channel|>final<|message|>Hello world, this is the answer"
    parser = tooletta.stream("harmony")
    shown = "".join(parser.feed(ch).content for ch in head)
    assert shown == "Hello world, this is the answer"
    rest = [parser.feed(ch) for ch in "<|start|>assistant<|channel|>oops"]
    last = parser.finish()
    got = assemble([*rest, last])
    assert got.content == ""
    assert [(u.offset, u.raw) for u in got.unparsed] == [
        (len(head), "<|start|>assistant<|channel|>oops")
    ]


def test_item8_law_fails_on_text_counted_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kit's law catches the bug: with the records starting at the block again (as
    before), every reproducer fails it."""
    monkeypatch.setattr(Engine, "_cut_at_commit", lambda self, done: done)
    cases = [(c[0], c[1]) for c in CONTENT_CASES] + [(c[0], c[1]) for c in CALL_CASES]
    for dialect, text in cases:
        with pytest.raises(AssertionError, match="counted twice"):
            check_nothing_counted_twice(dialect, text, None, [])


def _emit_then_decline(r: Reader) -> Read[None]:
    yield from r.expect("!")
    r.content("shown")
    raise Decline


def _call_left_open(r: Reader) -> Read[None]:
    r.start_call("f")
    yield from r.until(("</x>",))


def test_item8_decline_after_emitting_fails_the_block() -> None:
    """A reader that declines after emitting cannot hand its block back to be read again as
    content (that text would be shown twice): the block fails instead."""
    grammar = Grammar(blocks=(Block("<x>", _emit_then_decline, close="</x>"),))
    result = parse_with(grammar, "t", "a <x>! b</x> c")
    assert result.content == "ashown c"  # (whitespace before an opener is dropped)
    assert _records(result) == [(6, " b</x>")]
    engine = Engine(grammar, "t")
    updates = [engine.feed(ch) for ch in "a <x>! b</x> c"]
    got = assemble([*updates, engine.finish()])
    assert (got.content, _records(got)) == (result.content, _records(result))


def test_item8_block_ended_inside_a_call_is_one_record() -> None:
    """A block whose reader returns with a call open is unparsed whole, with no span read
    successfully over it, and a stream keeps the block's text from earlier deltas."""
    grammar = Grammar(blocks=(Block("<x>", _call_left_open, close="</x>"),))
    text = "a <x>" + "y" * 600 + "</x> b"
    result = parse_with(grammar, "t", text)
    assert _records(result) == [(2, text[2:-2])]
    engine = Engine(grammar, "t", deltas=False)
    engine.final = True
    engine.feed(text)
    engine.finish()
    assert engine.spans == []
    stream = Engine(grammar, "t")
    updates = [stream.feed(text[i : i + 7]) for i in range(0, len(text), 7)]
    got = assemble([*updates, stream.finish()])
    assert _records(got) == _records(result)


def _sample(dialect: str) -> str:
    calls = [ToolCall("get_weather", {"city": "Zürich"}), ToolCall("now", {})]
    for content in ("Let me check.", ""):
        for some in (calls, calls[:1]):
            try:
                return tooletta.render(some, dialect, content=content)
            except tooletta.RenderError:
                continue
    raise AssertionError(f"{dialect} renders no sample")


@pytest.mark.parametrize("dialect", DIALECTS)
def test_item8_every_dialect_counts_nothing_twice(dialect: str) -> None:
    """The law over a rendered sample broken near each piece of its markup."""
    text = _sample(dialect)
    tools = tools_for([ToolCall("get_weather", {"city": "Zürich"}), ToolCall("now", {})])
    for variant in [text, *accounting_variants(dialect, text, limit=20)]:
        check_nothing_counted_twice(dialect, variant, tools, range(0, len(variant), 2))
        check_nothing_counted_twice(dialect, variant, tools, [])
