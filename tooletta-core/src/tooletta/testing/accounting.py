"""The accounting law: nothing the model wrote is counted twice (positional accounting).

Every character of a response belongs to exactly one of: the content, the reasoning, a
call's block, or an unparsed block. Markup a dialect erases (end-of-turn tokens, the markers
around calls and reasoning) belongs to the block or region that holds it, and whitespace next
to markup may be dropped (the engine's whitespace rules), so whitespace is not counted.

Checked positionally, in one-shot parsing and in streaming:

* every unparsed record is the text at its offset, and the records come in order without
  overlapping (the same for the records a stream reports);
* for a dialect built on the engine (:class:`~tooletta.ScannerDialect`), nothing a block's
  reader emitted (content, reasoning, a finished call) was read from inside an unparsed
  record: the reader's position when it emitted lies outside every record, up to
  whitespace; and no block the engine read successfully overlaps a record.

A reader that emits content and then fails used to leave that content inside the block's
unparsed ``raw`` too (canonical, harmony, inkling: issue 14, item 8). The engine now ends the
record's text where the reader last emitted (see :mod:`tooletta.engine.scanner`).

:class:`AccountingTests` adds the law to :class:`~tooletta.testing.DialectTests`: each
fixture is broken just after each piece of its markup (the marker deleted, the text cut,
junk inserted) and checked whole and streamed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from .. import api
from ..dialect import ScannerDialect
from ..engine import Engine
from ..ir import UnparsedToolCall
from .fixtures import dialect_markup
from .streams import split_text

__all__ = [
    "AccountingTests",
    "accounting_variants",
    "check_nothing_counted_twice",
    "unparsed_ranges",
]

_SPACE = " \t\r\n"


def unparsed_ranges(text: str, records: Sequence[UnparsedToolCall]) -> list[tuple[int, int]]:
    """The ``(start, end)`` range of each unparsed record in ``text``, asserting that each
    record is the text at its offset and that the records are in order and do not overlap."""
    ranges: list[tuple[int, int]] = []
    prev = 0
    for rec in records:
        start, end = rec.offset, rec.offset + len(rec.raw)
        assert start >= 0 and text[start:end] == rec.raw, ("record is not the text", rec, text)
        assert start >= prev, ("records overlap or are out of order", records, text)
        ranges.append((start, end))
        prev = end
    return ranges


class _Tracer(Engine):
    """An engine that notes where its block readers emit: ``(position in the text, what)``
    for each non-whitespace content or reasoning text and each finished call."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.emitted: list[tuple[int, str]] = []
        self.all_spans: list[tuple[int, int]] = []
        super().__init__(*args, **kwargs)
        self.emitted.clear()  # what the prompt's prefix emitted is not shown either

    def _note(self, what: str) -> None:
        if self._gen is not None:  # a block's reader is running (not the content scanner)
            self.emitted.append((self._offset + self.pos, what))

    def content(self, text: str) -> None:
        """Note non-whitespace content a reader emits, then emit it."""
        if text.strip(_SPACE):
            self._note(f"content {text!r}")
        super().content(text)

    def reasoning(self, text: str) -> None:
        """Note non-whitespace reasoning a reader emits, then emit it."""
        if text.strip(_SPACE):
            self._note(f"reasoning {text!r}")
        super().reasoning(text)

    def end_call(self, arguments: dict[str, Any] | None = None) -> None:
        """Note a finished call, then finish it."""
        name = self._call.name if self._call is not None else "?"
        super().end_call(arguments)
        self._note(f"call {name!r}")

    def call(self, name: str, arguments: dict[str, Any], call_id: str | None = None) -> None:
        """Note a whole call, then emit it."""
        super().call(name, arguments, call_id)
        self._note(f"call {name!r}")

    def keep_spans(self) -> None:
        """Keep the spans of the last feed (a stream forgets them at the next one)."""
        self.all_spans.extend(self.spans)


def _tracer(dialect: ScannerDialect, tools: Any, *, deltas: bool) -> _Tracer:
    return _Tracer(
        dialect.grammar,
        dialect.info.name,
        dialect.schemas(tools),
        deltas=deltas,
        prefix=dialect.prompt_end,
    )


def _chunks(text: str, cuts: Iterable[int] | None) -> list[str]:
    return list(text) if cuts is None else split_text(text, cuts)


def _check_positions(
    text: str,
    ranges: Sequence[tuple[int, int]],
    emitted: Sequence[tuple[int, str]],
    spans: Sequence[tuple[int, int]],
    how: str,
) -> None:
    for pos, what in emitted:
        for start, end in ranges:
            # emitted at pos: the reader had read up to pos; nothing of a record may be in that
            if start < pos <= end and text[start:pos].strip(_SPACE):
                raise AssertionError(
                    f"{how}: {what} was emitted at {pos}, after reading "
                    f"{text[start:pos]!r} of the unparsed record {text[start:end]!r} "
                    f"at {start} (counted twice)"
                )
    for s, e in spans:
        for start, end in ranges:
            if max(s, start) < min(e, end) and text[max(s, start) : min(e, end)].strip(_SPACE):
                raise AssertionError(
                    f"{how}: the block read at {s}..{e} {text[s:e]!r} overlaps the unparsed "
                    f"record {text[start:end]!r} at {start} (counted twice)"
                )


def check_nothing_counted_twice(
    dialect: str, text: str, tools: Any = None, cuts: Iterable[int] | None = None
) -> None:
    """Assert the accounting law for ``text`` (lenient mode): one-shot, and streamed split
    at ``cuts`` (``None``: one character at a time). See the module docstring."""
    result = api.parse(text, dialect, tools=tools)
    ranges = unparsed_ranges(text, result.unparsed)
    chunks = _chunks(text, cuts)
    obj = api.get_dialect(dialect)
    if not isinstance(obj, ScannerDialect):
        parser = api.stream(dialect, tools=tools)
        sent = [r for c in chunks for r in parser.feed(c).unparsed]
        unparsed_ranges(text, [*sent, *parser.finish().unparsed])
        return
    # one-shot, as parse() reads it (blocks' shortcuts included)
    engine = _tracer(obj, tools, deltas=False)
    engine.final = True
    engine.feed(text)
    engine.finish()
    got = engine.result()
    assert got.unparsed == result.unparsed, ("traced parse differs", got, result)
    _check_positions(text, ranges, engine.emitted, engine.spans, "parse")
    # streamed: what has been sent cannot be taken back, so the same must hold as it goes
    stream = _tracer(obj, tools, deltas=True)
    records: list[UnparsedToolCall] = []
    for chunk in chunks:
        records.extend(stream.feed(chunk).unparsed)
        stream.keep_spans()
    records.extend(stream.finish().unparsed)
    stream.keep_spans()
    streamed = unparsed_ranges(text, records)
    _check_positions(text, streamed, stream.emitted, stream.all_spans, f"stream {chunks!r}")


def accounting_variants(dialect: str, text: str, limit: int = 12) -> list[str]:
    """``text`` broken just after pieces of its markup, where a block has begun and may
    already have emitted: at each of the first ``limit`` markup occurrences, the marker
    deleted, the text cut one character after it, junk inserted after it, and the text
    after it repeated from the start (a block running into another)."""
    spots: set[tuple[int, int]] = set()
    for marker in dialect_markup(dialect):
        at = text.find(marker)
        while at >= 0:
            spots.add((at, at + len(marker)))
            at = text.find(marker, at + 1)
    out: list[str] = []
    for start, end in sorted(spots)[:limit]:
        out.append(text[:start] + text[end:])
        out.append(text[: end + 1])
        out.append(text[:end] + '\x00{"' + text[end:])
        out.append(text[:end] + text[end:][: len(text) // 2] + text)
    return out


class AccountingTests:
    """The accounting law over a dialect's golden fixtures, broken near their markup (mixed
    into :class:`~tooletta.testing.DialectTests`, which supplies ``dialect`` and ``cases``)."""

    dialect: ClassVar[str]

    @classmethod
    def cases(cls) -> list[dict[str, Any]]:  # pragma: no cover - DialectTests defines it
        """The golden cases."""
        return []

    def test_nothing_counted_twice(self) -> None:
        """Broken fixtures: no character is both shown (content, reasoning, a call) and kept
        as unparsed, in one-shot parsing and in streaming (three characters at a time)."""
        for case in self.cases():
            tools = case.get("tools")
            for text in [case["text"], *accounting_variants(self.dialect, case["text"])]:
                check_nothing_counted_twice(self.dialect, text, tools, range(0, len(text), 3))
