"""What the fuzzers share: seed texts, hostile tokens, mutations and the checks.

Used by the hypothesis fuzz tests (``tests/test_fuzz.py``) and the atheris targets in this
folder, so both drive exactly the same inputs through exactly the same assertions:

* :func:`seeds` — real outputs of a dialect: its golden fixtures
  (``plugins/*/tests/fixtures/<dialect>.json``) and sample calls it renders;
* :func:`mutate` — a list of integer edits applied to a seed: truncations (tail and head),
  markers inserted, duplicated, deleted or moved, foreign special tokens, lone surrogates,
  NUL, huge numbers, nesting past :data:`tooletta.engine.MAX_DEPTH`, spans deleted or
  repeated;
* :func:`check_text` — the laws for one text and one chunking: lenient ``parse`` returns,
  strict ``parse`` raises only a :class:`~tooletta.ToolettaError` (never a ``PluginError``,
  which would mean a dialect crashed), streaming equals one-shot, ``detect`` answers, and
  nothing is lost (:func:`tooletta.testing.check_nothing_lost`) and nothing is counted twice
  (:func:`tooletta.testing.check_nothing_counted_twice`);
* :func:`check_render` — ``render`` of arbitrary calls raises :class:`~tooletta.RenderError`
  or reads back exactly (calls, ids as the format keeps them, content), streamed too;
* :func:`check_render_strict` — the same, and a RenderError whatever the dialect for what no
  parse reads back (:func:`must_refuse`: an empty name, NaN or an infinity, an integer past
  4300 characters, nesting past the dialect's ``max_depth``).
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tooletta
from tooletta import PluginError, RenderError, ToolCall, ToolettaError, UnknownDialectError
from tooletta.engine import MAX_DEPTH
from tooletta.testing import (
    FOREIGN_TOKENS,
    check_nothing_counted_twice,
    check_nothing_lost,
    check_stream_equals_parse,
    dialect_markup,
    tools_for,
)

__all__ = [
    "HOSTILE",
    "NESTED",
    "OPS",
    "all_markup",
    "check_render",
    "check_render_strict",
    "check_text",
    "depth",
    "dialect_names",
    "has_surrogate",
    "ids_mode",
    "known_bugs",
    "markup",
    "must_refuse",
    "mutate",
    "seeds",
]

ROOT = Path(__file__).resolve().parent.parent

SAMPLE_CALLS: list[list[ToolCall]] = [
    [ToolCall("get_weather", {"city": "Zürich", "days": 3})],
    [
        ToolCall("search", {"q": 'say "hi" \\ now\n', "filters": {"lang": ["en", "東京"]}}),
        ToolCall("now", {}),
    ],
    [ToolCall("calc", {"x": -1.5, "ok": True, "none": None, "items": [1, [2, {"k": "v"}]]})],
]

HOSTILE: list[str] = [
    "\x00",
    "\ud800",
    "\udfff",
    "a\udc80b",
    "\ufeff",
    "\u2028",
    "\r\n",
    "\\",
    '"',
    "'",
    "\\u",
    "\\ud800",
    '"\\',
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "<",
    ">",
    "</",
    "=",
    ":",
    ",",
    "```",
    "1" + "0" * 400,
    "-1e999999",
    "1e-999999",
    "18446744073709551616",
    "NaN",
    "Infinity",
    "[" * (MAX_DEPTH + 8),
    "]" * (MAX_DEPTH + 8),
    '{"a": ' * (MAX_DEPTH + 8),
    "(" * 300,
    '{"name": "f", "arguments": {}}',
    "\n\n",
    " " * 40,
]
"""Characters and strings that break naive parsers."""

NESTED: list[str] = [
    "[" * (MAX_DEPTH + 1) + "1" + "]" * (MAX_DEPTH + 1),
    '{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1),
    "[" * 700 + "]" * 700,
    "[" * 5000 + "]" * 5000,
    '{"a": ' * 5000 + "{}" + "}" * 5000,
    "[{" * 3000 + "}]" * 3000,
    "(" * 300 + ")" * 300,
]
"""Balanced values nested past :data:`~tooletta.engine.MAX_DEPTH` (and past Python's
recursion limit): each must be an unparsed error, never a crash or a silent success."""

_SCALAR = re.compile(
    r"(?:(?<=[:\[,=(])|(?<=[:\[,=(] ))"  # after a key, an opening bracket or an equals sign
    r'("[^"\\\n]*"|-?\d+(?:\.\d+)?|true|false|null)'
)

OPS = 10
"""Number of distinct edit operations understood by :func:`mutate`."""


_PLAIN_ID = re.compile(r"[A-Za-z0-9]{9}")
"""Ids every id-keeping format accepts (others may be replaced by the format's id policy)."""


@functools.cache
def dialect_names() -> tuple[str, ...]:
    """Every installed dialect, in detection order, as first seen (test dialects that other
    tests register in-process later are not picked up)."""
    return tuple(i.name for i in tooletta.list_dialects())


@functools.cache
def fixture_cases(dialect: str) -> tuple[dict[str, Any], ...]:
    """The golden cases a first-party plugin ships for ``dialect`` (empty if none)."""
    cases: list[dict[str, Any]] = []
    for path in sorted(ROOT.glob(f"plugins/*/tests/fixtures/{dialect}.json")):
        cases.extend(json.loads(path.read_text(encoding="utf-8")))
    return tuple(cases)


@functools.cache
def seeds(dialect: str) -> tuple[tuple[str, Any], ...]:
    """``(text, tools)`` pairs of real output: fixtures, then rendered sample calls."""
    out: list[tuple[str, Any]] = [(c["text"], c.get("tools")) for c in fixture_cases(dialect)]
    for calls in SAMPLE_CALLS:
        for content in ("", "Sure, let me check that."):
            try:
                out.append((tooletta.render(calls, dialect, content=content), tools_for(calls)))
            except RenderError:
                continue
    return tuple(out)


@functools.cache
def markup(dialect: str) -> tuple[str, ...]:
    """Every literal ``dialect`` treats as markup: declared markers and block delimiters."""
    return tuple(dialect_markup(dialect))


@functools.cache
def all_markup() -> tuple[str, ...]:
    """The markup of every installed dialect plus the conformance kit's foreign tokens."""
    found = set(FOREIGN_TOKENS)
    for name in dialect_names():
        found.update(markup(name))
    return tuple(sorted(found, key=lambda m: (-len(m), m)))


@functools.cache
def _pool(dialect: str) -> tuple[str, ...]:
    own = markup(dialect)
    return (*own, *own, *all_markup(), *HOSTILE)


def _occurrences(text: str, tokens: Sequence[str]) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for token in tokens:
        start = text.find(token)
        while start >= 0 and len(found) < 64:
            found.append((start, token))
            start = text.find(token, start + 1)
    return sorted(found)


def mutate(dialect: str, text: str, edits: Sequence[tuple[int, int, int]]) -> str:
    """Apply ``edits`` — ``(op, at, pick)`` integer triples, any values — to ``text``.

    ``op % OPS`` picks the operation, ``at`` a position, ``pick`` a token or a length:
    0 keep a prefix, 1 keep a suffix, 2 insert a token (own markup, other dialects' markup,
    hostile strings), 3 duplicate, 4 delete or 5 move one of the dialect's markers, 6 delete a
    span, 7 repeat a span, 8 replace a character by a hostile one, 9 replace a scalar value
    (a JSON or Python literal after ``:``, ``[``, ``,``, ``=`` or ``(``) by a deeply nested
    one (:data:`NESTED`) — skipped while that bug is known to be present (:func:`known_bugs`).
    """
    pool = _pool(dialect)
    own = markup(dialect)
    for op, at, pick in edits:
        op %= OPS
        at %= len(text) + 1
        if op == 0:
            text = text[:at]
        elif op == 1:
            text = text[at:]
        elif op == 2:
            text = text[:at] + pool[pick % len(pool)] + text[at:]
        elif op in (3, 4, 5):
            spots = _occurrences(text, own)
            if not spots:
                text = text[:at] + own[pick % len(own)] + text[at:] if own else text
                continue
            start, token = spots[pick % len(spots)]
            end = start + len(token)
            if op == 3:
                text = text[:end] + token + text[end:]
            elif op == 4:
                text = text[:start] + text[end:]
            else:
                rest = text[:start] + text[end:]
                at %= len(rest) + 1
                text = rest[:at] + token + rest[at:]
        elif op == 6:
            text = text[:at] + text[at + 1 + pick % 12 :]
        elif op == 7:
            span = text[at : at + 1 + pick % 40]
            text = text[:at] + span * (2 + pick % 3) + text[at:]
        elif op == 8:
            text = text[:at] + HOSTILE[pick % len(HOSTILE)] + text[at + 1 :]
        elif not known_bugs()["deep-nesting"]:
            found = list(_SCALAR.finditer(text, 0, len(text)))[:64]
            if found:
                m = found[at % len(found)]
                text = text[: m.start()] + NESTED[pick % len(NESTED)] + text[m.end() :]
    return text


def depth(value: Any) -> int:
    """How deeply lists and dicts nest in ``value`` (a scalar is 0; iterative, any depth)."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level + 1)
            stack.extend((x, level + 1) for x in item)
    return deepest


def check_text(dialect: str, text: str, cuts: Sequence[int] | None, tools: Any = None) -> None:
    """Assert the laws for ``text`` in ``dialect`` streamed as split at ``cuts``.

    ``cuts=None`` streams one character at a time. Raises ``AssertionError`` (or the escaped
    exception itself) when a law is broken.
    """
    result = tooletta.parse(text, dialect, tools=tools)  # lenient: must not raise
    assert isinstance(result, tooletta.ParseResult)
    for call in result.calls:  # the arguments object may hold a value nested MAX_DEPTH deep
        assert depth(call.arguments) <= MAX_DEPTH + 1, f"a call nested past {MAX_DEPTH} parsed"
    try:
        tooletta.parse(text, dialect, tools=tools, strict=True)
    except PluginError:
        raise
    except tooletta.ParseError as exc:
        assert exc.dialect is not None and exc.position is not None, exc
        assert result.unparsed, ("strict raised but lenient had nothing unparsed", exc)
    else:
        assert not result.unparsed, "lenient had unparsed blocks but strict did not raise"
    check_stream_equals_parse(dialect, text, cuts, tools)
    found = tooletta.detect(text)
    assert found is None or isinstance(found, str)
    tooletta.parse(text, "auto")
    check_nothing_lost(dialect, text, tools)
    check_nothing_counted_twice(dialect, text, tools, cuts)


@functools.cache
def ids_mode(dialect: str) -> str:
    """How ``dialect`` treats call ids: ``"kept"``, ``"generated"`` or ``"none"``."""
    calls = [ToolCall("get_weather", {"city": "Paris"}, "abcDEF123")]
    text = tooletta.render(calls, dialect)
    got = tooletta.parse(text, dialect, tools=tools_for(calls)).calls[0].id
    if got == "abcDEF123":
        return "kept"
    return "generated" if got else "none"


def check_render(
    dialect: str, calls: Sequence[ToolCall], content: str, cuts: Sequence[int] | None
) -> bool:
    """Assert ``render`` refuses ``calls``/``content`` or writes text that reads back exactly.

    Only :class:`~tooletta.RenderError` may come out of ``render``. The text must parse to the
    same names and arguments with nothing unparsed, keep ids as the format does
    (:func:`ids_mode`), keep the content (up to surrounding whitespace) and stream to the same
    result (``cuts`` are taken modulo the text's length). Returns False when the dialect
    refused.
    """
    try:
        text = tooletta.render(list(calls), dialect, content=content)
    except PluginError:
        raise
    except RenderError:
        return False
    except ToolettaError as exc:  # pragma: no cover - reported as a failure
        raise AssertionError(f"render raised {type(exc).__name__}, not RenderError") from exc
    assert isinstance(text, str)
    tools = tools_for(calls)
    result = tooletta.parse(text, dialect, tools=tools)
    assert not result.unparsed, ("rendered text has unparsed blocks", text, result.unparsed)
    want = [(c.name, c.arguments) for c in calls]
    got = [(c.name, c.arguments) for c in result.calls]
    assert got == want, ("calls changed", text, got, want)
    mode = ids_mode(dialect)
    if mode == "none":
        assert all(c.id is None for c in result.calls), (text, result.calls)
    elif mode == "kept":
        for a, b in zip(calls, result.calls):
            if a.id is not None and _PLAIN_ID.fullmatch(a.id):
                assert a.id == b.id, ("id changed", text, a.id, b.id)
    assert result.content.strip() == content.strip(), ("content changed", text, result.content)
    assert not result.reasoning.strip(), ("content became reasoning", text, result.reasoning)
    if cuts is not None:
        cuts = [c % (len(text) + 1) for c in cuts]
    check_stream_equals_parse(dialect, text, cuts, tools)
    return True


def _int_too_long(value: int) -> bool:
    try:
        return len(str(value)) > 4300  # msgspec's limit, sign included
    except ValueError:  # past Python's own int-to-str limit
        return True


def must_refuse(dialect: str, calls: Sequence[ToolCall]) -> str | None:
    """Why ``render`` must refuse ``calls`` in any dialect, or ``None``: an empty name, NaN or
    an infinity, an integer longer than 4300 characters, or arguments nested deeper than the
    dialect's ``max_depth`` (an oracle written apart from core's check)."""
    from tooletta.expressible import max_depth_of

    limit = max_depth_of(tooletta.get_dialect(dialect))
    for call in calls:
        if not call.name:
            return "an empty name"
        if depth(call.arguments) > limit:
            return f"arguments nested deeper than {limit}"
        stack: list[Any] = [call.arguments]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, float) and not math.isfinite(item):
                return f"{item!r}"
            elif isinstance(item, int) and not isinstance(item, bool) and _int_too_long(item):
                return "an integer past 4300 characters"
    return None


def check_render_strict(
    dialect: str, calls: Sequence[ToolCall], content: str, cuts: Sequence[int] | None
) -> bool:
    """:func:`check_render`, and a :class:`~tooletta.RenderError` (never anything else) when
    :func:`must_refuse` says no dialect can write ``calls``. Returns False when refused."""
    why = must_refuse(dialect, calls)
    if why is None:
        return check_render(dialect, calls, content, cuts)
    try:
        text = tooletta.render(list(calls), dialect, content=content)
    except RenderError:
        return False
    raise AssertionError(f"{dialect} rendered {why} as {text[:300]!r}")


# -- known bugs ---------------------------------------------------------------------------------


def _deep_nesting_bug() -> bool:
    json_call = '<tool_call>\n{{"name": "f", "arguments": {{"a": {}}}}}\n</tool_call>'
    xml_call = "<tool_call>\n<function=f>\n<parameter=a>\n{}\n</parameter>\n</function>"
    xml_call += "\n</tool_call>"
    typed = tools_for([ToolCall("f", {"a": [1]})])
    for n in (MAX_DEPTH + 50, 5000):
        nested = "[" * n + "]" * n
        for text, dialect, tools in (
            (json_call.format(nested), "hermes", None),
            (xml_call.format(nested), "qwen3_coder", typed),
        ):
            try:
                tooletta.get_dialect(dialect)
            except UnknownDialectError:
                continue  # not installed: nothing to probe
            try:
                result = tooletta.parse(text, dialect, tools=tools)
            except ToolettaError:
                return True
            if any(depth(c.arguments) > MAX_DEPTH + 1 for c in result.calls):
                return True
    return False


def _surrogate_render_bug() -> bool:
    try:
        tooletta.render([ToolCall("\ud800", {})], "canonical")
    except RenderError:
        return False
    return True


def has_surrogate(text: str) -> bool:
    """True when ``text`` holds a lone surrogate (not encodable as UTF-8)."""
    return any("\ud800" <= ch <= "\udfff" for ch in text)


@functools.cache
def known_bugs() -> dict[str, bool]:
    """Which of the bugs reported from fuzzing are still present (probed with their minimal
    repros, see ``tests/test_regressions.py``). The broad fuzz tests mark themselves
    ``xfail`` (not strict) while one they would trip over is present, and run for real the
    moment it is fixed; the minimal repros stay strict."""
    return {"deep-nesting": _deep_nesting_bug(), "surrogate-render": _surrogate_render_bug()}
