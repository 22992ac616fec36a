"""Issue 14, items 1-5: render refuses what parse cannot read back (and parse reads what the
formats' own templates write). One regression test per item, over every installed dialect
where the item is about all of them."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

import tooletta
from tooletta import ParseResult, RenderError, ToolCall
from tooletta.dialect import to_json
from tooletta.expressible import check_calls, max_depth_of
from tooletta.testing import (
    assemble,
    check_depth_limit,
    check_empty_name,
    check_long_identifiers,
    check_long_integers,
    check_non_finite_refused,
    check_stream_equals_parse,
    nested,
    stream_text,
    tools_for,
)

DIALECTS = [i.name for i in tooletta.list_dialects()]


# -- item 1: NaN and infinities ---------------------------------------------------------------


@pytest.mark.parametrize("dialect", DIALECTS)
def test_item1_nan_refused_by_render(dialect: str) -> None:
    """The issue's repro: NaN was written as ``NaN`` (JSON formats: unreadable) or read back
    as the string ``'NaN'`` (text formats). Now every dialect refuses it, and the infinities,
    anywhere in the arguments."""
    with pytest.raises(RenderError, match="nan"):
        tooletta.render([ToolCall("f", {"k": float("nan")})], dialect)
    check_non_finite_refused(dialect)


def test_item1_nan_refused_in_model_turns_and_conversations() -> None:
    """``render(model=...)`` and ``render_conversation`` write calls through the chat formats:
    they refuse what ``render`` refuses."""
    from tooletta import Message

    bad = [ToolCall("f", {"x": [float("inf")]})]
    with pytest.raises(RenderError, match="inf"):
        tooletta.render(bad, model="Qwen/Qwen3-8B")
    turns = [Message(role="user", content="hi"), Message(role="assistant", tool_calls=bad)]
    with pytest.raises(RenderError, match="inf"):
        tooletta.render_conversation(turns, model="Qwen/Qwen3-8B")


def test_item1_to_json_refuses_nan_as_documented() -> None:
    for bad in (float("nan"), float("inf"), [float("-inf")], {"a": {"b": float("nan")}}):
        with pytest.raises(RenderError):
            to_json(bad)
    assert to_json({"x": 1.5, "y": "é"}) == '{"x": 1.5, "y": "é"}'


# -- item 3: far past the recursion limit -----------------------------------------------------


@pytest.mark.parametrize("dialect", DIALECTS)
def test_item3_depth_5000_is_a_render_error(dialect: str) -> None:
    """Depth 5000 raised ``PluginError ... RecursionError while rendering`` in ten dialects."""
    for kind in ("list", "dict"):
        with pytest.raises(RenderError, match="deeper"):
            tooletta.render([ToolCall("f", {"k": nested(5000, kind)})], dialect)


class _Recursing:
    """A third-party dialect that declares no depth limit and writes values recursively."""

    info = tooletta.DialectInfo(name="recursing-render-test")
    max_depth = 10**6

    def parse(self, text: str, tools: Any = None) -> ParseResult:
        return ParseResult(content=text)

    def render(self, calls: Any, content: str = "") -> str:
        def write(value: Any) -> str:
            if isinstance(value, list):
                return "[" + ",".join(write(v) for v in value) + "]"
            return repr(value)

        return content + "".join(write(c.arguments.get("k")) for c in calls)


def test_item3_recursion_in_any_renderer_is_a_render_error() -> None:
    """api.render turns a RecursionError anywhere in a plugin's render into a RenderError."""
    with contextlib.suppress(tooletta.DuplicateDialectError):
        tooletta.register_dialect(_Recursing())
    assert tooletta.render([ToolCall("f", {"k": nested(3)})], "recursing-render-test")
    with pytest.raises(RenderError, match="too deeply"):
        tooletta.render([ToolCall("f", {"k": nested(5000)})], "recursing-render-test")


# -- item 2: deeper than parse reads ----------------------------------------------------------


@pytest.mark.parametrize("dialect", DIALECTS)
def test_item2_render_and_parse_agree_on_depth(dialect: str) -> None:
    """Arguments nested 513-1000 deep rendered in 44 dialects whose parse refused them. Now
    arguments exactly as deep as the dialect reads round-trip, and one level more is refused."""
    check_depth_limit(dialect)


def test_item2_lower_limits_are_declared() -> None:
    declared = {
        "minimax_m3": 64,
        "gemma4": 128,
        "functiongemma": 128,
        "pythonic": 100,
        "lfm2": 100,
        "olmo3": 100,
        "sarashina": 99,
        "hermes": tooletta.engine.MAX_DEPTH,
        "qwen3_coder": tooletta.engine.MAX_DEPTH,
    }
    for dialect, limit in declared.items():
        assert max_depth_of(tooletta.get_dialect(dialect)) == limit, dialect
    too_deep = {"k": nested(64)}  # the arguments object is the 65th level
    with pytest.raises(RenderError, match="deeper than 64"):
        tooletta.render([ToolCall("f", too_deep)], "minimax_m3")


def test_item2_the_check_walks_cycles_and_counts_levels() -> None:
    loop: list[Any] = []
    loop.append(loop)
    loop.append(loop)
    with pytest.raises(RenderError):
        check_calls([ToolCall("f", {"k": loop})], "test", 512)
    check_calls([ToolCall("f", {"k": nested(2)})], "test", 3)  # {"k": [[1]]}: 3 levels
    with pytest.raises(RenderError):
        check_calls([ToolCall("f", {"k": nested(3)})], "test", 3)
    check_calls([ToolCall("f", {"k": (1, {"a": 2.5}), "s": "x", "n": None})], "test", 3)


# -- item 5: empty names, NUL, LFM2.5's unescaped strings -------------------------------------


@pytest.mark.parametrize("dialect", DIALECTS)
def test_item5_empty_name_is_never_a_call(dialect: str) -> None:
    check_empty_name(dialect)


@pytest.mark.parametrize(
    ("dialect", "text"),
    [
        ("hermes", '<tool_call>\n{"name": "", "arguments": {"k": "v"}}\n</tool_call>'),
        (
            "step3",
            "<｜tool_calls_begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜>"
            '<steptml:invoke name="">\n<steptml:parameter name="k">v</steptml:parameter>\n'
            "</steptml:invoke>"
            "<｜tool_call_end｜>\n<｜tool_calls_end｜>",
        ),
    ],
)
def test_item5_empty_name_is_unparsed(dialect: str, text: str) -> None:
    """The issue's repros: ``{"name": "", ...}`` was accepted as a call."""
    result = tooletta.parse(text, dialect)
    assert result.calls == [] and len(result.unparsed) == 1, result
    assert "empty function name" in result.unparsed[0].error
    updates, last = stream_text(dialect, list(text))
    assert assemble([*updates, last]).calls == []
    check_stream_equals_parse(dialect, text, range(0, len(text), 5))


def test_item5_empty_name_refused_by_render_whatever_the_dialect() -> None:
    for dialect in DIALECTS:
        with pytest.raises(RenderError, match="no function name"):
            tooletta.render([ToolCall("", {"k": "v"})], dialect)


# -- item 4: long names and keys --------------------------------------------------------------


@pytest.mark.parametrize("dialect", DIALECTS)
def test_item4_long_names_and_keys_round_trip_or_are_refused(dialect: str) -> None:
    check_long_identifiers(dialect)


@pytest.mark.parametrize("dialect", ["pythonic", "lfm2", "olmo3"])
def test_item5_nul_in_a_python_string_is_read(dialect: str) -> None:
    """vLLM's parser tests: ``[f(a='x\\x00y')]`` is a call (Python's parser refuses a NUL
    anywhere, so the reader stands it in for the parse and puts it back)."""
    calls = [ToolCall("f", {"a": "x\x00y", "b": ["\x00"], "c": {"k\x00": 1}})]
    body = "f(a='x\x00y', b=['\x00'], c={'k\x00': 1})"
    text = {
        "pythonic": f"[{body}]",
        "lfm2": f"<|tool_call_start|>[{body}]<|tool_call_end|>",
        "olmo3": f"<function_calls>\n{body}\n</function_calls>",
    }[dialect]
    result = tooletta.parse(text, dialect)
    assert result.calls == calls and not result.unparsed, result
    check_stream_equals_parse(dialect, text)
    check_stream_equals_parse(dialect, text, [])


def test_item5_nul_outside_strings_stays_malformed() -> None:
    for text in ("[f(a=1\x00)]", "[f\x00(a=1)]", "[f(a\x00=1)]"):
        result = tooletta.parse(text, "pythonic")
        assert not result.calls, (text, result)
        check_stream_equals_parse("pythonic", text)


def _lfm25(value: str) -> str:
    """A call as the LFM2.5 template writes it: ``"'" + arg_value + "'"``, unescaped."""
    return f"<|tool_call_start|>[run(cmd='{value}', n=2)]<|tool_call_end|>"


@pytest.mark.parametrize(
    "value",
    ["line1\nline2", 'say "hi"', 'a "b"\r\nc', "trailing\n", "\n", 'x = "1";\n\ty = 2'],
)
def test_item5_lfm25_template_strings_are_read_as_written(value: str) -> None:
    """LFM2.5's template writes string values without escaping (a raw newline or ``"``
    inside ``'...'``); vLLM reads them, and so do parse and stream."""
    text = "Running it." + _lfm25(value)
    result = tooletta.parse(text, "lfm2")
    assert result.calls == [ToolCall("run", {"cmd": value, "n": 2})], result
    assert result.content == "Running it." and not result.unparsed
    check_stream_equals_parse("lfm2", text)
    check_stream_equals_parse("lfm2", text, [])
    check_stream_equals_parse("lfm2", text, range(0, len(text), 4))


def test_item5_raw_line_breaks_stay_python_elsewhere() -> None:
    """Only LFM2 reads a raw line break inside a one-quote string; the Python-syntax formats
    keep Python's rule, and a line break between arguments is whitespace everywhere."""
    assert not tooletta.parse("[f(a='x\ny')]", "pythonic").calls
    spaced = "<|tool_call_start|>[f(\n  a='x',\n  b='''p\nq''')]<|tool_call_end|>"
    assert tooletta.parse(spaced, "lfm2").calls == [ToolCall("f", {"a": "x", "b": "p\nq"})]
    comment = "<|tool_call_start|>[f(a='x', # it's\n b='y\nz')]<|tool_call_end|>"
    assert tooletta.parse(comment, "lfm2").calls == [ToolCall("f", {"a": "x", "b": "y\nz"})]
    check_stream_equals_parse("lfm2", comment)


@pytest.mark.parametrize("dialect", ["glm45", "hunyuan_v3", "k2_horizon", "cline", "muse"])
def test_item4_issue_repro_no_call_lost_in_content(dialect: str) -> None:
    """``render([ToolCall("x"*1000, {"k": "v"})], d)`` then ``parse`` gave no call, nothing
    unparsed, and the markup in the content (muse: `` to=xxxx...``)."""
    calls = [ToolCall("x" * 1000, {"k": "v"})]
    try:
        text = tooletta.render(calls, dialect)
    except RenderError:
        assert dialect == "cline"  # past the documented MAX_TAG
        return
    result = tooletta.parse(text, dialect, tools=tools_for(calls))
    assert result.calls == calls and not result.unparsed and not result.content.strip()


def test_item4_cline_limit_is_the_documented_one() -> None:
    from tooletta_dialect_cline import MAX_TAG

    assert MAX_TAG == 250
    fits = [ToolCall("t" * MAX_TAG, {"p" * MAX_TAG: "v", "q": [1]}), ToolCall("u" * MAX_TAG, {})]
    text = tooletta.render(fits, "cline")
    assert tooletta.parse(text, "cline", tools=tools_for(fits)).calls == fits
    check_stream_equals_parse("cline", text, None, tools_for(fits))
    for calls in ([ToolCall("t" * (MAX_TAG + 1), {})], [ToolCall("t", {"p" * (MAX_TAG + 1): 1})]):
        with pytest.raises(RenderError, match="250"):
            tooletta.render(calls, "cline")


GLM_END = "</tool_call>"


class _Counting:
    """A compiled pattern's stand-in that counts the characters its matches consume."""

    def __init__(self, pattern: Any) -> None:
        self.pattern = pattern
        self.consumed = 0

    def match(self, text: str, pos: int = 0, *args: int) -> Any:
        m = self.pattern.match(text, pos, *args)
        if m is not None:
            self.consumed += m.end() - pos
        return m


@pytest.mark.parametrize(
    ("module", "dialect", "text"),
    [
        ("kvcall", "glm45", "<tool_call>{}<arg_key>k</arg_key><arg_value>v</arg_value>" + GLM_END),
        ("xmlcall", "qwen3_coder", "<function={}>\n<parameter=k>\nv\n</parameter>\n</function>"),
    ],
)
def test_item4_long_names_are_read_once_as_they_stream(
    module: str, dialect: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The name scans that replaced the 256-character lookahead resume where they stopped:
    streaming a 20000-character name one character at a time reads each character once (a
    rescan per delta would read 200 million)."""
    import importlib

    mod = importlib.import_module(f"tooletta.toolkit.{module}")
    counting = _Counting(mod._NAME_RUN)
    monkeypatch.setattr(mod, "_NAME_RUN", counting)
    name = "n" * 20_000
    updates, last = stream_text(dialect, list(text.format(name)))
    assert assemble([*updates, last]).calls == [ToolCall(name, {"k": "v"})]
    assert len(name) <= counting.consumed <= 2 * len(name), counting.consumed


# -- found by the render fuzz target (fuzz/fuzz_render.py) --------------------------------------


@pytest.mark.parametrize("dialect", DIALECTS)
def test_fuzz_render_integers_too_long_to_read_are_refused(dialect: str) -> None:
    """Integers past 4300 digits raised ``PluginError`` (Python's int-to-str limit) in five
    dialects; a negative one of 4300 digits rendered in 26 dialects whose JSON decoder
    (msgspec, which counts the sign) refused it. Now refused by render; the longest that
    every decoder reads still round-trips."""
    check_long_integers(dialect)


def test_fuzz_render_kimi_legacy_surrogates_refused() -> None:
    """The legacy Kimi format writes ASCII JSON, so a lone surrogate became an escape no
    decoder accepts (and two surrogates read back as the one character they pair into)."""
    for value in ("a\udc98b", "x\ud83d", "\ud83d\ude42", {"k\udc00": 1}):
        with pytest.raises(RenderError, match="surrogate"):
            tooletta.render([ToolCall("f", {"k": value})], "kimi")
    calls = [ToolCall("f", {"k": "🙂 \\ud800"})]
    assert tooletta.parse(tooletta.render(calls, "kimi"), "kimi").calls == calls


def test_fuzz_render_gigachat35_long_parameter_names_are_read() -> None:
    """GigaChat 3.5 refused tags longer than 1024 characters: a 3000-character key rendered
    and came back unparsed."""
    calls = [ToolCall("n" * 3000, {"k" * 3000: 1.5, "b": "x"})]
    text = tooletta.render(calls, "gigachat35")
    assert tooletta.parse(text, "gigachat35", tools=tools_for(calls)).calls == calls
    check_stream_equals_parse("gigachat35", text, range(0, len(text), 7), tools_for(calls))


def test_model_turn_refuses_reasoning_its_template_has_no_place_for() -> None:
    """``render(model=..., reasoning=...)`` never drops the reasoning silently: a template
    without a place for it (Qwen2.5, Llama 3.1) is refused, as ``render(dialect=...)`` is."""
    calls = [tooletta.ToolCall("f", {"a": 1})]
    for model in ("Qwen/Qwen2.5-7B-Instruct", "meta-llama/Llama-3.1-8B-Instruct"):
        with pytest.raises(RenderError, match="no place for reasoning"):
            tooletta.render(calls, model=model, reasoning="Let me think.")
        assert tooletta.render(calls, model=model, reasoning="  \n") == tooletta.render(
            calls, model=model
        )
    text = tooletta.render(calls, model="Qwen/Qwen3-8B", reasoning="Let me think.")
    assert text.startswith("<think>\nLet me think.\n</think>")


def test_every_format_refuses_calls_no_parse_reads_back() -> None:
    """Every conversation format checks the calls it writes (``calls_text``), as ``render``
    does: an empty name or a NaN argument is a RenderError, never text (QwQ's turn wrote its
    calls through the dialect directly)."""
    from tooletta import Message
    from tooletta.chat import chat_formats_of
    from tooletta.plugins import get_registry

    seen = set()
    for entry in get_registry().ordered():
        for fmt in chat_formats_of(entry.dialect):
            if fmt.name in seen:
                continue
            seen.add(fmt.name)
            for bad in (ToolCall("", {"a": 1}), ToolCall("f", {"a": float("nan")})):
                messages = [Message("user", "hi"), Message("assistant", "", tool_calls=[bad])]
                with pytest.raises(RenderError):
                    tooletta.render_conversation(messages, dialect=fmt.name)


# -- content markers: the first-character prefilter of ScannerDialect.check_content -------------


def _grammar_dialects() -> list[str]:
    out = []
    for name in DIALECTS:
        dialect = tooletta.get_dialect(name)
        grammar = getattr(dialect, "grammar", None)
        if grammar is not None and grammar.content_markers:
            out.append(name)
    return out


@pytest.mark.parametrize("dialect", _grammar_dialects())
def test_core_content_check_refuses_every_marker(dialect: str) -> None:
    """``ScannerDialect.check_content`` (looking first for the markers' first characters)
    refuses each marker a grammar forbids in content (every block's opener but those read
    only at the start) anywhere in content, and passes content holding none of the first
    characters. (Dialects may refuse more, or check by reading back instead.)"""
    from tooletta.dialect import ScannerDialect

    obj = tooletta.get_dialect(dialect)
    grammar = obj.grammar
    assert set(grammar.content_marker_leads) == {m[:1] for m in grammar.content_markers}
    for marker in grammar.content_markers:
        for content in (marker, f"Text {marker}", f"{marker} text", f"a\n{marker}\nb"):
            with pytest.raises(RenderError, match="marker"):
                ScannerDialect.check_content(obj, content)
    plain = "".join(
        c for c in "Plain text, 12 words: done." if c not in grammar.content_marker_leads
    )
    ScannerDialect.check_content(obj, plain)
