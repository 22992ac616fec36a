"""Minimal repros of bugs the fuzzers found (issue 7), kept so they never come back.

Each test is the smallest input that showed the bug, found by ``tests/test_fuzz.py``
(hypothesis), ``fuzz/fuzz_engine.py`` (atheris) or the resource tests. Tests of bugs not yet
fixed are marked ``xfail(strict=True)``: the fix turns them into an XPASS failure, which is the
cue to delete the mark.
"""

from __future__ import annotations

import pytest

import tooletta
from tooletta import RenderError, ToolCall
from tooletta.engine import MAX_DEPTH, Engine
from tooletta.testing import check_stream_equals_parse, tools_for

SENTINEL = 987654321
HERMES_CALL = '<tool_call>\n{{"name": "f", "arguments": {{"a": {value}}}}}\n</tool_call>'


def _nested(n: int) -> str:
    return "[" * n + "]" * n


def _depth(value: object) -> int:
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level + 1)
            stack.extend((x, level + 1) for x in item)
    return deepest


# -- nesting -------------------------------------------------------------------------------


def test_json_nested_past_max_depth_is_unparsed_also_on_the_fast_path() -> None:
    text = HERMES_CALL.format(value=_nested(MAX_DEPTH + 50))
    result = tooletta.parse(text, "hermes")
    assert not result.calls and len(result.unparsed) == 1
    check_stream_equals_parse("hermes", text, None)  # one char at a time: the slow path


def test_json_nested_past_the_recursion_limit_is_unparsed_not_a_plugin_error() -> None:
    text = HERMES_CALL.format(value=_nested(5000))
    result = tooletta.parse(text, "hermes")  # was: PluginError from a RecursionError
    assert not result.calls and len(result.unparsed) == 1
    with pytest.raises(tooletta.ParseError):
        tooletta.parse(text, "hermes", strict=True)


@pytest.mark.parametrize(
    "dialect", ["qwen3_coder", "glm45", "cline", "minimax_m2", "seed_oss", "solar_open2"]
)
def test_schema_typed_value_nested_past_max_depth_is_not_accepted(dialect: str) -> None:
    """Found by atheris (solar_open2) and the resource tests (every XML/key-value dialect)."""
    tools = tools_for([ToolCall("f", {"a": [1]})])
    text = tooletta.render([ToolCall("f", {"a": [SENTINEL]})], dialect)
    text = text.replace(f"[{SENTINEL}]", _nested(MAX_DEPTH + 50))
    result = tooletta.parse(text, dialect, tools=tools)
    assert all(_depth(c.arguments) <= MAX_DEPTH + 1 for c in result.calls), "accepted"


def test_interop_deep_arguments_are_a_value_error() -> None:
    item = {"function": {"name": "f", "arguments": '{"a": ' + _nested(5000) + "}"}}
    with pytest.raises(ValueError):
        ToolCall.from_openai(item)


# -- render ----------------------------------------------------------------------------------


@pytest.mark.parametrize("dialect", ["hermes", "mistral", "canonical", "openai", "apertus"])
def test_render_refuses_lone_surrogates(dialect: str) -> None:
    for calls, content in [
        ([ToolCall("\ud800", {})], ""),
        ([ToolCall("f", {"\udfff": 1})], ""),
        ([ToolCall("f", {"a": "x\ud800"})], ""),
        ([ToolCall("f", {})], "\ud800"),
    ]:
        with pytest.raises(RenderError):
            tooletta.render(calls, dialect, content=content)


def test_functionary_v32_non_ascii_name_after_content_round_trips_or_is_refused() -> None:
    calls = [ToolCall("é", {})]
    try:
        text = tooletta.render(calls, "functionary_v32", content="x")
    except RenderError:
        return
    assert tooletta.parse(text, "functionary_v32").calls == calls, text


class _CountingEngine(Engine):
    """An engine that counts the characters it stores in its buffer (each copy of text)."""

    copied = 0

    @property
    def buf(self) -> str:
        return self.__dict__["_buf"]  # type: ignore[no-any-return]

    @buf.setter
    def buf(self, value: str) -> None:
        self.copied += len(value)
        self.__dict__["_buf"] = value


def _parse_counting_copies(dialect: str, text: str) -> tuple[tooletta.ParseResult, int]:
    """One-shot parse of ``text``, and how many characters the engine copied doing it."""
    engine = _CountingEngine(tooletta.get_dialect(dialect).grammar, dialect, deltas=False)
    engine.final = True
    engine.feed(text)
    engine.finish()
    return engine.result(), engine.copied


def test_declined_markers_are_not_copied_per_decline() -> None:
    """A marker that its reader declines (prose) is rescanned in place: one-shot parsing of
    many declined markers copies the text a bounded number of times, not once per decline
    (which made such text cost quadratic time)."""
    text = "<tool_call>x " * 2000
    result, copied = _parse_counting_copies("qwen3_coder", text)
    assert result.content == text and not result.calls and not result.unparsed
    assert copied <= 2 * len(text)


def test_anthropic_stream_refuses_input_nested_past_max_depth() -> None:
    """A streamed tool_use input nested deeper than MAX_DEPTH is a ValueError, like invalid
    JSON, never a RecursionError or an accepted value."""
    from tooletta.interop.anthropic_stream import AnthropicStreamAssembler

    assembler = AnthropicStreamAssembler()
    block = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}
    assembler.feed({"type": "content_block_start", "index": 0, "content_block": block})
    deep = '{"a": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}"
    delta = {"type": "input_json_delta", "partial_json": deep}
    assembler.feed({"type": "content_block_delta", "index": 0, "delta": delta})
    with pytest.raises(ValueError, match="nested deeper"):
        assembler.feed({"type": "content_block_stop", "index": 0})


@pytest.mark.parametrize("dialect", ["qwen3_coder", "glm45", "minimax_m2", "seed_oss"])
def test_integer_value_longer_than_python_converts_stays_text(dialect: str) -> None:
    """An integer-typed value with more digits than ``int()`` converts (4300) is kept as the
    model's text, in one-shot parsing and streaming alike, never a PluginError."""
    from tooletta.testing import schema_tools

    tools = schema_tools({"n": {"type": "integer"}, "x": {"type": "number"}})
    digits = "9" * 5000
    text = tooletta.render([ToolCall("f", {"n": digits, "x": digits})], dialect)
    result = tooletta.parse(text, dialect, tools=tools)
    assert result.calls == [ToolCall("f", {"n": digits, "x": digits})], result.unparsed
    check_stream_equals_parse(dialect, text, [], tools)
    check_stream_equals_parse(dialect, text, range(0, len(text), 7), tools)


def test_many_malformed_blocks_are_skipped_without_copying_the_text() -> None:
    """Each malformed block is skipped in place: one-shot parsing of many of them copies the
    text a bounded number of times, not the rest of the text once per block (quadratic)."""
    text = "<tool_call>{bad}</tool_call> " * 2000
    result, copied = _parse_counting_copies("hermes", text)
    assert len(result.unparsed) == 2000
    assert copied <= 2 * len(text)


@pytest.mark.parametrize(
    ("dialect", "unit", "end"),
    [
        (
            "minimax_m2",
            '<minimax:tool_call><invoke name="f"><parameter name="a">x</invoke>'
            "</minimax:tool_call> ",
            "</parameter>",
        ),
        (
            "deepseek_v32",
            '<｜DSML｜function_calls><｜DSML｜invoke name="f"><｜DSML｜parameter name="a" '
            'string="true">x</｜DSML｜invoke></｜DSML｜function_calls> ',
            "</｜DSML｜parameter>",
        ),
    ],
)
def test_values_running_past_their_block_are_not_searched_again_per_block(
    dialect: str, unit: str, end: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Blocks whose value never closes before the next block (a closing tag only at the very
    end of the text): each block's reader finds that far tag, fails, and the next block's
    reader would search the same text again (quadratic). A search of whole text is
    reused, and shortcuts stop after mostly declining, so the text searched stays linear."""
    from tooletta.engine.markers import MarkerSet

    scanned = 0
    find = MarkerSet.find

    def counting(self: MarkerSet, text: str, start: int = 0) -> tuple[int, str]:
        nonlocal scanned
        i, marker = find(self, text, start)
        scanned += (i if i >= 0 else len(text)) - start
        return i, marker

    monkeypatch.setattr(MarkerSet, "find", counting)
    text = unit * 400 + end
    result = tooletta.parse(text, dialect)
    assert len(result.unparsed) == 400 and not result.calls
    assert scanned <= 20 * len(text), scanned / len(text)


@pytest.mark.parametrize(
    "body",
    [
        '{"name": "a", "name": "b", "arguments": {}}',
        '{"name": "a", "arguments": {"x": 1}, "arguments": {"y": 2}}',
        '{"name": "a", "n\\u0061me": "b", "arguments": {}}',
        '{"name": "name", "arguments": {"name": "arguments", "arguments": [1]}}',
    ],
)
def test_repeated_keys_read_the_same_in_any_split(body: str) -> None:
    """msgspec keeps the last copy of a repeated key, the key-by-key reader refuses it: the
    whole-object paths (one-shot shortcut, and a stream once the closing tag has arrived)
    leave objects whose keys may repeat to the key-by-key reader, so every split agrees; a
    repeated key is never read as one of its copies (the other's data would be lost)."""
    text = f"Hi.\n<tool_call>\n{body}\n</tool_call>"
    check_stream_equals_parse("hermes", text)
    check_stream_equals_parse("hermes", text, [])
    check_stream_equals_parse("hermes", text, range(0, len(text), 5))
    result = tooletta.parse(text, "hermes")
    if '"name": "name"' in body:  # the keys repeat inside the arguments only
        assert result.calls[0].name == "name"
    else:
        assert not result.calls and "twice" in result.unparsed[0].error
