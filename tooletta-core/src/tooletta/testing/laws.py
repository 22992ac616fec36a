"""DESIGN.md's four laws, each checked for one dialect and one text (or list of calls).

1. round trip (:func:`~tooletta.testing.check_round_trip`);
2. streaming equals one-shot (:func:`~tooletta.testing.check_stream_equals_parse`);
3. bounded hold-back (:func:`~tooletta.testing.check_holdback`);
4. bad input gives typed errors or ``unparsed`` data, and loses nothing
   (:func:`~tooletta.testing.check_bad_input`, :func:`~tooletta.testing.check_nothing_lost`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from .. import api
from ..dialect import ScannerDialect
from ..errors import ParseError, RenderError, ToolettaError
from ..ir import ParseResult, ToolCall
from .accounting import check_nothing_counted_twice
from .fixtures import dialect_markup, tools_for
from .shortcuts import check_shortcuts_agree
from .streams import assemble, split_text, stream_text

__all__ = [
    "check_bad_input",
    "check_holdback",
    "check_nothing_lost",
    "check_round_trip",
    "check_stream_equals_parse",
]


def check_stream_equals_parse(
    dialect: str, text: str, cuts: Iterable[int] | None = None, tools: Any = None
) -> None:
    """Assert law 2 for one text and one split (``cuts=None``: one character at a time),
    and that the dialect's one-shot shortcuts agree with its readers on it."""
    check_shortcuts_agree(dialect, text, tools)
    expected = api.parse(text, dialect, tools=tools)
    chunks = list(text) if cuts is None else split_text(text, cuts)
    updates, last = stream_text(dialect, chunks, tools)
    got = assemble([*updates, last])
    assert got.content == expected.content, (got.content, expected.content, chunks)
    assert got.reasoning == expected.reasoning, (got.reasoning, expected.reasoning, chunks)
    assert got.calls == expected.calls, (got.calls, expected.calls, chunks)
    strip = [(u.raw, u.offset, u.error) for u in expected.unparsed]
    assert [(u.raw, u.offset, u.error) for u in got.unparsed] == strip, (got.unparsed, chunks)


def check_round_trip(
    dialect: str,
    calls: Sequence[ToolCall],
    content: str = "",
    ids: str = "none",
    *,
    untyped: bool = False,
    exact_content: bool = False,
) -> bool:
    """Assert law 1 for ``calls``; False when the dialect refuses to render them.

    The text is parsed with the schema :func:`tools_for` derives from ``calls``, and streamed
    (one character at a time, and in one piece) to the same result.

    ``ids``: ``"none"`` (the format has no ids: parsed ids must be ``None``), ``"kept"``
    (given ids round-trip exactly; missing ones may be generated), ``"generated"``
    (missing or invalid ids are replaced by the dialect's id policy: parsed ids are only
    required to be present). Content comes back up to surrounding whitespace; with
    ``exact_content`` it comes back as ``content.strip()`` exactly. ``untyped``: the format
    types its own values, so parsing without ``tools`` gives the same calls too.
    """
    try:
        text = api.render(calls, dialect, content=content)
    except RenderError:
        return False
    expected = [(c.name, c.arguments) for c in calls]
    result = api.parse(text, dialect, tools=tools_for(calls))
    assert not result.unparsed, (text, result.unparsed)
    got = list(result.calls)
    assert [(c.name, c.arguments) for c in got] == expected, (text, got)
    if untyped:
        bare = api.parse(text, dialect).calls
        assert [(c.name, c.arguments) for c in bare] == expected, (text, bare)
    if ids == "none":
        assert all(c.id is None for c in got), got
    elif ids == "kept":
        for want, have in zip(calls, got):
            assert want.id is None or have.id == want.id, (text, got)
    else:
        assert all(c.id for c in got), got
    if content:
        assert result.content.strip() == content.strip(), (text, result.content, content)
    if exact_content:
        assert result.content == content.strip(), (text, result.content, content)
    check_stream_equals_parse(dialect, text, None, tools_for(calls))
    check_stream_equals_parse(dialect, text, [], tools_for(calls))
    return True


def check_nothing_lost(dialect: str, text: str, tools: Any = None) -> None:
    """Assert the accounting property (lenient mode): nothing the model wrote vanishes.

    Every unparsed record's ``raw`` is the text at its ``offset``, and every non-whitespace
    character outside the blocks the dialect read (and outside its markers) appears in the
    content, the reasoning or an unparsed record. For dialects not built on the engine the
    second check runs only on texts where no call was parsed.
    """

    result = api.parse(text, dialect, tools=tools)
    for rec in result.unparsed:
        assert text[rec.offset : rec.offset + len(rec.raw)] == rec.raw, (rec, text)
    obj = api.get_dialect(dialect)
    if isinstance(obj, ScannerDialect):
        engine = obj.stream(tools)
        engine.feed(text)
        engine.finish()
        outside, prev = [], 0
        for start, end in engine.spans:
            outside.append(text[prev:start])
            prev = end
        outside.append(text[prev:])
        text = " ".join(outside)
    elif result.calls:
        return
    marks = dialect_markup(dialect)

    def letters(s: str) -> Counter[str]:
        for m in marks:
            s = s.replace(m, " ")
        return Counter(ch for ch in s if not ch.isspace())

    def plain(s: str) -> Counter[str]:
        return Counter(ch for ch in s if not ch.isspace())

    kept = plain(result.content) + plain(result.reasoning)
    for rec in result.unparsed:
        kept += plain(rec.raw)
    missing = letters(text) - kept
    assert not missing, (dict(missing), text, result)


def check_bad_input(dialect: str, text: str, tools: Any = None) -> None:
    """Assert law 4 for one (possibly malformed) text, in every mode."""
    result = api.parse(text, dialect, tools=tools)
    assert isinstance(result, ParseResult)
    try:
        api.parse(text, dialect, tools=tools, strict=True)
    except ParseError as exc:
        assert exc.dialect is not None and exc.position is not None
    except ToolettaError:
        pass
    parser = api.stream(dialect, tools=tools)
    for i in range(0, len(text), 3):
        parser.feed(text[i : i + 3])
    parser.finish()
    api.detect(text)
    check_nothing_lost(dialect, text, tools)
    check_nothing_counted_twice(dialect, text, tools, range(0, len(text), 3))


def check_holdback(dialect: str, text: str) -> None:
    """Assert law 3 for a prose ``text`` fed one character at a time: content is shown as soon
    as it cannot be a marker, so what is held back is whitespace or shorter than the longest
    marker. Texts the dialect does not read as plain content are skipped."""
    longest = max((len(m) for m in api.get_dialect(dialect).info.markers), default=0)
    if api.parse(text, dialect).content != text:
        return  # this dialect reads this prose as something else
    parser = api.stream(dialect)
    shown = 0
    for fed, ch in enumerate(text, 1):
        shown += len(parser.feed(ch).content)
        held = text[shown:fed]
        assert held.isspace() or len(held) < max(longest, 1), (fed, held)
    parser.finish()
