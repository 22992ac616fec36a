"""The engine: marker scanning, hold-back, whitespace rules, recovery, linear cost."""

from __future__ import annotations

import re
import sys
import time
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooletta.engine import (
    Block,
    Decline,
    Engine,
    Grammar,
    MarkerSet,
    Read,
    Reader,
    erase,
    json_value,
    parse_with,
    reasoning_region,
)
from tooletta.ir import ToolCall
from tooletta.testing import assemble


def _read(r: Reader) -> Read[None]:
    name, _ = yield from r.until((" ",))
    r.start_call(name)
    yield from json_value(r, r.args)
    r.end_call()
    yield from r.ws()
    yield from r.expect("]]")


GRAMMAR = Grammar(
    blocks=(
        Block("[[", _read, close="]]"),
        reasoning_region("<think>", "</think>"),
        erase("<eot>"),
    )
)


def run(text: str, chunks: list[str] | None = None) -> tuple[object, object]:
    one = parse_with(GRAMMAR, "t", text)
    engine = Engine(GRAMMAR, "t")
    updates = [engine.feed(c) for c in (chunks if chunks is not None else list(text))]
    updates.append(engine.finish())
    return one, assemble(updates)


def test_markerset_find_and_partial() -> None:
    ms = MarkerSet(["<tool_call>", "<tool_calls>", "[["])
    assert ms.find("ab<tool_calls>", 0) == (2, "<tool_calls>")
    assert ms.find("ab[[x", 0) == (2, "[[")
    assert ms.partial_start("hello <tool_c", 0) == 6
    assert ms.partial_start("hello [", 0) == 6
    assert ms.partial_start("hello", 0) == 5
    assert not ms.extends("x<tool_call>", 1)
    longer = MarkerSet(["<|a|>", "<|a|><|b|>"])
    assert longer.extends("x<|a|>", 1)  # could still become the longer marker
    assert longer.find("x<|a|><|b|>", 0) == (1, "<|a|><|b|>")


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("Hi there.\n[[f {}]]", "Hi there."),
        ("Hi.\n[[f {}]]\nMore text.\n", "Hi.\nMore text.\n"),
        ("[[f {}]]\n\n[[g {}]]\n", ""),
        ("<think> why </think>\n\nAnswer.", "Answer."),
        ("  plain text\n", "  plain text\n"),
        ("end<eot>", "end"),
    ],
)
def test_whitespace_rules(text: str, content: str) -> None:
    one, streamed = run(text)
    assert one.content == content  # type: ignore[attr-defined]
    assert streamed.content == content  # type: ignore[attr-defined]


def test_reasoning_is_trimmed_and_unclosed_region_kept() -> None:
    one, streamed = run("<think>\n step one\n</think>ok")
    assert one.reasoning == "step one" == streamed.reasoning  # type: ignore[attr-defined]
    one, _ = run("<think>cut short")
    assert one.reasoning == "cut short"  # type: ignore[attr-defined]


def test_several_calls_in_one_delta_and_empty_arguments() -> None:
    text = 'a [[f {}]][[g {"x": [1, {"y": "]]"}]}]] b'
    one, streamed = run(text, [text])
    assert [c.name for c in one.calls] == ["f", "g"]  # type: ignore[attr-defined]
    assert one.calls[1].arguments == {"x": [1, {"y": "]]"}]}  # type: ignore[attr-defined]
    assert streamed.calls == one.calls  # type: ignore[attr-defined]


def test_malformed_block_kept_as_unparsed_and_scanning_resumes() -> None:
    text = "x [[f {bad]] y [[g {}]]"
    one, streamed = run(text)
    assert [c.name for c in one.calls] == ["g"]  # type: ignore[attr-defined]
    (bad,) = one.unparsed  # type: ignore[attr-defined]
    assert bad.raw == "[[f {bad]]" and bad.offset == 2
    assert one.content == "x y"  # type: ignore[attr-defined]
    assert streamed.calls == one.calls  # type: ignore[attr-defined]
    assert [(u.raw, u.offset) for u in streamed.unparsed] == [("[[f {bad]]", 2)]  # type: ignore[attr-defined]


def test_cut_mid_call_is_unparsed_never_lost() -> None:
    text = 'ok [[f {"a": "unfinished'
    one, streamed = run(text)
    assert one.calls == [] and one.content == "ok"  # type: ignore[attr-defined]
    assert one.unparsed[0].raw == '[[f {"a": "unfinished'  # type: ignore[attr-defined]
    assert streamed.calls == []  # type: ignore[attr-defined]


def test_stream_discards_a_call_that_turns_out_malformed() -> None:
    engine = Engine(GRAMMAR, "t")
    updates = [engine.feed(c) for c in '[[f {"a": 1 junk]]']
    updates.append(engine.finish())
    sent = [d for u in updates for d in u.calls]
    assert sent and sent[0].name == "f"
    (record,) = [rec for u in updates for rec in u.unparsed]
    assert record.index == 0
    assert assemble(updates).calls == []


def test_hold_back_only_marker_prefixes() -> None:
    engine = Engine(GRAMMAR, "t")
    assert engine.feed("Hello [").content == "Hello"
    assert engine.feed("x").content == " [x"
    assert engine.feed(" <thi").content == ""
    assert engine.feed("ng>").content == " <thing>"


def test_deep_nesting_is_an_error_not_a_crash() -> None:
    text = "[[f " + "[" * 5000 + "]]"
    one = parse_with(GRAMMAR, "t", text)
    assert one.unparsed and not one.calls


def _stream(text: str) -> None:
    engine = Engine(GRAMMAR, "t")
    for i in range(0, len(text), 4):
        engine.feed(text[i : i + 4])
    engine.finish()


def _calls_to_stream(text: str) -> int:
    """Python and C function calls made while streaming ``text`` (deterministic)."""
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        _stream(text)
    finally:
        sys.setprofile(None)
    return count


def _cpu_time_to_stream(text: str) -> float:
    """The least CPU time of three streams of ``text`` (other jobs on the machine do not add
    to a process's CPU time, as they do to wall-clock time)."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        _stream(text)
        best = min(best, time.process_time() - start)
    return best


def test_streaming_work_is_linear() -> None:
    unit = 'Some prose <x> [[f {"k": "v\\"q", "n": [1, 2, {"z": null}]}]]\n'
    small, large = _calls_to_stream(unit * 200), _calls_to_stream(unit * 800)
    assert large < small * 4.4, (small, large)  # 4x the text, ~4x the calls
    small_t, large_t = _cpu_time_to_stream(unit * 200), _cpu_time_to_stream(unit * 800)
    assert large_t < small_t * 8, (small_t, large_t)  # no quadratic copying in C either


def _maybe(r: Reader) -> Read[None]:
    """A block that is markup only when a digit follows its marker."""
    ch = yield from r.peek()
    if not ch.isdigit():
        raise Decline
    r.start_call("n")
    yield from json_value(r, r.args)
    r.end_call({})


MAYBE = Grammar(blocks=(Block("@@", _maybe),))


@pytest.mark.parametrize("text", ["email me @@home today", "x @@ y", "tail @@"])
def test_declined_marker_is_content_exactly(text: str) -> None:
    one = parse_with(MAYBE, "m", text)
    assert one.content == text and not one.calls and not one.unparsed
    for size in (1, 2, len(text)):
        engine = Engine(MAYBE, "m")
        updates = [engine.feed(text[i : i + size]) for i in range(0, len(text), size)]
        updates.append(engine.finish())
        assert assemble(updates).content == text


def test_prefix_starts_inside_reasoning() -> None:
    text = "thinking...\n</think>\n\nAnswer [[f {}]]"
    one = parse_with(GRAMMAR, "t", text, None, "<think>\n")
    assert one.reasoning == "thinking..." and one.content == "Answer"
    assert [c.name for c in one.calls] == ["f"]
    engine = Engine(GRAMMAR, "t", prefix="<think>\n")
    updates = [engine.feed(ch) for ch in text]
    updates.append(engine.finish())
    got = assemble(updates)
    assert (got.reasoning, got.content, got.calls) == (one.reasoning, one.content, one.calls)
    bad = parse_with(GRAMMAR, "t", "[[f {oops]]", None, "<think></think>")
    assert bad.unparsed[0].offset == 0


def test_quiet_deltas_share_the_empty_update() -> None:
    from tooletta.engine import EMPTY_UPDATE

    engine = Engine(GRAMMAR, "t")
    assert engine.feed("Hi <thi") is not EMPTY_UPDATE
    assert engine.feed("n") is EMPTY_UPDATE  # still a possible marker: nothing to show
    engine.feed('g> [[f {"a": "')
    assert engine.feed("") is EMPTY_UPDATE


def test_one_call_delta_per_call_per_feed() -> None:
    engine = Engine(GRAMMAR, "t")
    update = engine.feed('[[f {"a": 1}]] [[g {"b": [2, "]]"]}]] [[h {')
    assert [(d.index, d.name) for d in update.calls] == [(0, "f"), (1, "g"), (2, "h")]
    assert [d.arguments for d in update.calls] == ['{"a": 1}', '{"b": [2, "]]"]}', "{"]
    update = engine.feed('"c": "x"')
    assert [(d.index, d.name, d.arguments) for d in update.calls] == [(2, None, '"c": "x"')]


def test_stream_spans_cover_only_the_last_feed() -> None:
    engine = Engine(GRAMMAR, "t")
    engine.feed("[[f {}]] " * 50)
    assert len(engine.spans) == 50  # one feed: every block (what accounting checks use)
    engine.feed("[[g {}]]")
    assert engine.spans == [(450, 458)]  # a stream keeps no record per past block
    assert len(parse_with(GRAMMAR, "t", "[[f {}]] " * 50).calls) == 50


def test_markerset_holds_back_a_whole_marker_at_the_end() -> None:
    ms = MarkerSet(["<a>", "<a><b>"])
    assert ms.partial_start("x <a>", 0) == 2
    assert ms.extends("x <a>", 2)
    assert not MarkerSet(["<a>"]).extends("x <a>", 2)
    assert ms.match("<a", 0, False) is None and ms.match("<a", 0, True) == ""


def test_json_scan_skips_strings_with_brackets_and_escapes() -> None:
    args = '{"a": "}]\\"[{", "b": [{"c": "\\\\"}, "x\\u005d"], "d": {}}'
    text = f"[[f {args}]]"
    one = parse_with(GRAMMAR, "t", text)
    assert one.calls[0].arguments == {"a": '}]"[{', "b": [{"c": "\\"}, "x]"], "d": {}}
    for size in (1, 2, 3, 5):
        _, streamed = run(text, [text[i : i + size] for i in range(0, len(text), size)])
        assert streamed.calls == one.calls  # type: ignore[attr-defined]


def _fast_read(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """``_read``'s one-shot shortcut for ``NAME {...}]]`` (a word, one space, an object)."""
    space = text.find(" ", pos)
    close = text.find("]]", pos)
    if not (pos < space < close) or not text[pos:space].isalnum():
        return -1
    if not (text.startswith("{", space + 1) and text[close - 1] == "}"):
        return -1
    try:
        args = msgspec.json.decode(text[space + 1 : close])
    except msgspec.DecodeError:
        return -1
    if type(args) is not dict:
        return -1
    calls.append(ToolCall(text[pos:space], args))
    return close + 2


FAST = Grammar(
    blocks=(
        Block("[[", _read, close="]]", fast=_fast_read),
        reasoning_region("<think>", "</think>"),
        erase("<eot>"),
    )
)
PIECES = [" ", "\n", "  \t", "Hi", " x ", "[[f {}]]", '[[g {"a": 1}]]', "[[ {}]]", "[[bad"]
PIECES += ['[[h {"a": "]]"}]]', "<eot>", "<think>r</think>", "[", "]]", "é🙂"]


def _engine_result(grammar: Grammar, text: str) -> Any:
    engine = Engine(grammar, "t", deltas=False)
    engine.final = True
    engine.feed(text)
    engine._end()
    return engine.result()


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=8).map("".join))
def test_one_shot_without_an_engine_reads_as_the_engine(text: str) -> None:
    want = _engine_result(FAST, text)
    assert parse_with(FAST, "t", text) == want
    assert parse_with(FAST, "t", text, shortcuts=False) == want


ONE_SHOT_TEXTS = [
    "",
    "Hi [[f {}]] [[g {}]]\n  tail",
    "[[f {}]] prose [[g {}]]",
    "   ",
    "Hi [[f {}]]  ",
    "  [[f {}]]\n\n[[g {}]] tail \n",
    "[[f {",
    "<think>half",
    "a <eot> b <think>r</think> c",
    "[[f {oops]] rest [[g {}]]",
    "x [",
]


@pytest.mark.parametrize("text", ONE_SHOT_TEXTS)
def test_one_shot_path_reads_as_feed_then_finish(text: str) -> None:
    assert parse_with(GRAMMAR, "t", text) == _engine_result(GRAMMAR, text)
    assert parse_with(FAST, "t", text) == _engine_result(FAST, text)


def test_one_shot_parse_runs_the_scanner_loop_once(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = []
    real = Engine._run

    def counted(self: Engine) -> None:
        runs.append(1)
        real(self)

    monkeypatch.setattr(Engine, "_run", counted)
    assert [c.name for c in parse_with(GRAMMAR, "t", "Hi [[f {}]] [[g {}]] bye").calls] == [
        "f",
        "g",
    ]
    assert len(runs) == 1  # no ``feed`` then ``finish``: the whole text in one pass


_NAME = re.compile(r"[a-z_]*")


def _read_named(r: Reader) -> Read[None]:
    name = yield from r.take(_NAME)
    if not name:
        raise r.fail("expected a name")
    yield from r.expect(">>")
    r.call(name, {})


TAKE = Grammar(blocks=(Block("<<", _read_named, close=">>"),))


@pytest.mark.parametrize(
    ("text", "names", "unparsed"),
    [
        ("<<get_weather>>", ["get_weather"], []),
        ("a <<f>> b <<g_h>>", ["f", "g_h"], []),
        ("<<>>", [], ["<<>>"]),
        ("<<f1>>", [], ["<<f1>>"]),
        ("<<f", [], ["<<f"]),
    ],
)
def test_take_reads_the_longest_run(text: str, names: list[str], unparsed: list[str]) -> None:
    one, streamed = (parse_with(TAKE, "t", text), _streamed(TAKE, list(text)))
    for result in (one, streamed):
        assert [c.name for c in result.calls] == names
    assert [u.raw for u in one.unparsed] == unparsed


def _streamed(grammar: Grammar, chunks: list[str]) -> Any:
    engine = Engine(grammar, "t")
    updates = [engine.feed(c) for c in chunks]
    updates.append(engine.finish())
    return assemble(updates)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["<<", "f", "get", "_", ">>", " ", "x1"]), max_size=8).map("".join),
    st.data(),
)
def test_take_streams_as_one_shot(text: str, data: st.DataObject) -> None:
    """Reader.take waits while its run reaches the end of what has arrived: every split of
    the text reads as the whole text."""
    cuts = sorted(data.draw(st.sets(st.integers(0, len(text)), max_size=4)))
    chunks = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]
    one, streamed = parse_with(TAKE, "t", text), _streamed(TAKE, chunks)
    assert (streamed.content, streamed.calls) == (one.content, one.calls)
    assert [u.raw for u in streamed.unparsed] == [u.raw for u in one.unparsed]
