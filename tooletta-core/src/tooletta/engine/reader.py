"""The reader that block parsers use: a cursor over the growing text, and resumable primitives.

A block parser is a generator function ``read(r: Reader)``. It pulls text with the primitives
below (each one used with ``yield from``). A primitive that needs more text than has arrived
yields; the engine resumes it when more comes. Once the stream is finished (``r.final``), a
primitive that still lacks text raises :class:`Incomplete`. Because a primitive decides only on
text it has seen, and waits otherwise, a block parser gives the same result for every way the
text is split into deltas: streaming equals one-shot by construction.

Rules for parsers: keep positions across a ``yield`` only relative to ``r.pos`` (the engine
drops consumed text between deltas), and report what you find through the event methods
(``start_call``, ``args``, ``end_call``, ``content``, ``reasoning``).

Performance: the engine *is* the reader (:class:`~tooletta.engine.Engine` subclasses
:class:`Reader`), so an event is one method call. Primitives that return nothing (``ws``,
``expect``) answer without creating a generator when the text they need has arrived, which
is always the case in one-shot parsing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

from .markers import MarkerSet, marker_set

if TYPE_CHECKING:
    from .scanner import Engine

__all__ = ["DONE", "BlockError", "Decline", "Incomplete", "Read", "Reader"]

T = TypeVar("T")
Read = Generator[None, None, T]
"""The type of a resumable primitive or block parser returning ``T``."""

_WS = re.compile(r"[ \t\r\n]*")
_HSPACE = re.compile(r"[ \t]*")
_SPACE = " \t\r\n"


def _finished() -> Read[None]:
    return
    yield  # pragma: no cover - makes this a generator


DONE: Read[None] = _finished()
"""An exhausted reader: ``yield from DONE`` returns ``None`` at once.

A primitive that has nothing to return and needs no more text returns it instead of a fresh
generator (creating and finishing a generator costs more than the work of most primitives).
"""
for _ in DONE:  # exhaust it
    pass


class BlockError(Exception):
    """A block is malformed: the engine keeps it as unparsed data (or raises in strict mode)."""

    def __init__(self, message: str, position: int | None = None):
        super().__init__(message)
        self.message = message
        self.position = position


class Incomplete(BlockError):
    """The text ended inside a block."""


class Decline(Exception):
    """Raised by a block reader that finds its opening marker was prose, not markup.

    The engine then shows the marker as content and goes on scanning right after it, as if
    no block had opened. Only possible before the block has started a call.
    """


class Reader:
    """Cursor over the text of the current block, with resumable primitives and event methods.

    ``buf`` is the text that has arrived (from some point before the block), ``pos`` the
    cursor in it, ``final`` whether the text has ended, ``tools`` the request's tool schemas.
    The engine (:class:`~tooletta.engine.Engine`) is the one concrete reader: it implements
    the event methods.
    """

    __slots__ = ("_found", "_memo", "buf", "deltas", "final", "pos", "tools")

    buf: str
    pos: int
    final: bool
    tools: Any
    deltas: bool
    """Whether a stream wants argument fragments (``args``): False in one-shot parsing, where a
    call's arguments are what ``end_call`` is given (or the fragments decoded)."""
    _memo: tuple[str, Any] | None
    _found: dict[MarkerSet, tuple[str, int, int, str]] | None
    """Once the text is whole: per marker set, the last search (text, from, found at, marker;
    ``len(text)`` and "" when none) that :meth:`until` reuses."""
    """The last JSON value decoded while finding its end (text, value): ``end_call``
    reuses it instead of decoding the same text again."""

    @property
    def engine(self) -> Engine:
        """The engine scanning this text (the reader itself)."""
        return cast("Engine", self)

    # -- events (implemented by the engine) -------------------------------------------------

    def start_call(self, name: str, call_id: str | None = None) -> None:
        """Begin a call (its first delta carries the name and id)."""
        raise NotImplementedError

    def set_id(self, call_id: str) -> None:
        """Attach an id to the current call when the format writes it after the name."""
        raise NotImplementedError

    def args(self, fragment: str) -> None:
        """Append a fragment of the current call's arguments JSON text ("" is ignored)."""
        raise NotImplementedError

    def end_call(self, arguments: dict[str, Any] | None = None) -> None:
        """Finish the current call; ``arguments`` defaults to decoding the fragments sent."""
        raise NotImplementedError

    def call(self, name: str, arguments: dict[str, Any], call_id: str | None = None) -> None:
        """Emit a whole call at once (``start_call``, its arguments as JSON, ``end_call``)."""
        raise NotImplementedError

    def content(self, text: str) -> None:
        """Emit user-visible text found inside a block (e.g. a response channel)."""
        raise NotImplementedError

    def reasoning(self, text: str) -> None:
        """Emit reasoning text found inside a block ("" is ignored)."""
        raise NotImplementedError

    def commit(self) -> None:
        """Count the block's text read so far as accounted for by what was emitted from it:
        if the block fails later, its unparsed record starts here (see *Accounting* in
        :mod:`tooletta.engine.scanner`). Emitting content, reasoning or a finished call does
        this by itself; a reader calls it after markup that closes what it emitted (the ``]``
        of a list of calls), so that its one-shot shortcut, which reads through that markup,
        gives the same record."""
        raise NotImplementedError

    @property
    def shown(self) -> bool:
        """True once non-whitespace content has been shown before this block."""
        raise NotImplementedError

    def fail(self, message: str) -> BlockError:
        """Build the error for a malformed block at the current position (``raise r.fail(...)``)."""
        return BlockError(message, self.pos)

    # -- primitives -----------------------------------------------------------------------

    def more(self, what: str) -> Read[None]:
        """Wait for more text; raise :class:`Incomplete` when the stream has ended."""
        if self.final:
            raise Incomplete(f"text ended inside {what}", self.pos)
        yield

    def at_end(self) -> Read[bool]:
        """True when the text has ended exactly here (waits until that is known)."""
        while self.pos >= len(self.buf):
            if self.final:
                return True
            yield
        return False

    def ws(self) -> Read[None]:
        """Skip spaces, tabs and newlines (waits until a non-space or the end is seen)."""
        buf = self.buf
        pos = self.pos
        if pos < len(buf):
            if buf[pos] not in _SPACE:
                return DONE
            m = _WS.match(buf, pos)
            pos = self.pos = m.end() if m else pos
            if pos < len(buf):
                return DONE
        if self.final:
            return DONE
        return self._ws_wait()

    def _ws_wait(self) -> Read[None]:
        while True:
            m = _WS.match(self.buf, self.pos)
            self.pos = m.end() if m else self.pos
            if self.pos < len(self.buf) or self.final:
                return
            yield

    def hspace(self) -> None:
        """Skip spaces and tabs that have arrived (does not wait)."""
        m = _HSPACE.match(self.buf, self.pos)
        if m:
            self.pos = m.end()

    def peek(self) -> Read[str]:
        """The next character without consuming it ("" at the end of the text)."""
        while self.pos >= len(self.buf):
            if self.final:
                return ""
            yield
        return self.buf[self.pos]

    def which(self, literals: tuple[str, ...]) -> str | None:
        """Which of ``literals`` comes next ("" when none does), or ``None`` while that is
        still undecided (more text could change the answer). Does not wait; the longest
        match wins."""
        buf = self.buf
        pos = self.pos
        best = ""
        undecided = False
        for lit in literals:
            if buf.startswith(lit, pos):
                if len(lit) > len(best):
                    best = lit
            elif len(buf) - pos < len(lit) and lit.startswith(buf[pos:]):
                undecided = True
        if undecided and not self.final:
            return None
        return best

    def startswith(self, *literals: str) -> Read[str]:
        """Which of ``literals`` comes next ("" when none does); consumes nothing.

        Waits until the answer cannot change. The longest match wins.
        """
        while True:
            got = self.which(literals)
            if got is not None:
                return got
            yield

    def accept(self, *literals: str) -> Read[str]:
        """Consume whichever of ``literals`` comes next and return it ("" when none does)."""
        while True:
            got = self.which(literals)
            if got is not None:
                self.pos += len(got)
                return got
            yield

    def item_or_end(self, item: str, end: str) -> Read[bool]:
        """After whitespace, consume ``item`` (``True``: another item of a list follows) or
        ``end`` (``False``: the list is closed); fail naming both when neither comes.

        The head of the usual loop over a list's items:
        ``while (yield from r.item_or_end("<parameter", "</invoke>")): ...``."""
        yield from self.ws()
        got = yield from self.accept(item, end)
        if not got:
            raise self.fail(f"expected {item!r} or {end!r}")
        return got == item

    def expect(self, literal: str) -> Read[None]:
        """Consume ``literal`` or fail."""
        if self.buf.startswith(literal, self.pos):
            self.pos += len(literal)
            return DONE
        return self._expect_wait(literal)

    def close_or_end(self, close: str) -> Read[None]:
        """Skip whitespace, then consume ``close`` unless the text ends there: a block cut off
        by the end of the output (the model stopped at its end-of-turn token, or ran out of
        tokens) keeps what it read. Anything else fails as :meth:`expect` does."""
        yield from self.ws()
        if not (yield from self.at_end()):
            yield from self.expect(close)

    def _expect_wait(self, literal: str) -> Read[None]:
        got = yield from self.accept(literal)
        if not got:
            if self.pos >= len(self.buf) and self.final:
                raise Incomplete(f"text ended where {literal!r} was expected", self.pos)
            raise self.fail(f"expected {literal!r}")

    def until(
        self,
        markers: Sequence[str] | MarkerSet,
        sink: Callable[[str], None] | None = None,
        *,
        eof: bool = False,
    ) -> Read[tuple[str, str]]:
        """Read up to the first of ``markers``; return ``(text, marker)`` and move past it.

        With ``sink``, the text is passed on as it arrives (holding back only what could still
        be the start of a marker) and the returned text is "": while the sink runs, ``pos`` is
        just past the text it is given (before the marker), so that what it emits counts as
        read up to there. With ``eof=True`` the end of the text also ends the read, returning
        marker "".
        """
        ms = markers if isinstance(markers, MarkerSet) else marker_set(markers)
        parts: list[str] = []
        while True:
            buf = self.buf
            pos = self.pos
            if self.final:
                # the text is whole: a search that found the first marker at i from lo answers
                # every later search from [lo, i] (readers of malformed blocks that search
                # past their block again and again stay linear)
                found = self._found
                if found is None:
                    found = self._found = {}
                hit = found.get(ms)
                if hit is not None and hit[0] is buf and hit[1] <= pos and pos <= hit[2]:
                    marker = hit[3]
                    i = hit[2] if marker else -1
                else:
                    i, marker = ms.find(buf, pos)
                    found[ms] = (buf, pos, i if i >= 0 else len(buf), marker)
            else:
                i, marker = ms.find(buf, pos)
            if i >= 0 and (self.final or not ms.extends(buf, i)):
                piece = buf[pos:i]
                if sink is not None:
                    if piece:
                        self.pos = i  # what the sink emits was read up to the marker
                        sink(piece)
                    self.pos = i + len(marker)
                    return "", marker
                self.pos = i + len(marker)
                if parts:
                    parts.append(piece)
                    return "".join(parts), marker
                return piece, marker
            if self.final:
                if not eof:
                    raise Incomplete(f"text ended before any of {list(ms.markers)!r}", pos)
                piece = buf[pos:]
                self.pos = len(buf)
                if sink is not None:
                    sink(piece)  # even when empty: a sink may act on the end
                    return "", ""
                parts.append(piece)
                return "".join(parts), ""
            cut = ms.partial_start(buf, pos) if i < 0 else i
            piece = buf[pos:cut]
            self.pos = cut
            if piece:
                if sink is not None:
                    sink(piece)
                else:
                    parts.append(piece)
            yield

    def take(self, pattern: re.Pattern[str]) -> Read[str]:
        """Consume and return the longest run of characters that ``pattern`` matches from
        here, piece by piece (waits while the run reaches the end of the text that has
        arrived, so that the answer is the same for every split; "" when none matches).

        ``pattern`` must match a run one character at a time (a character class with ``*``,
        as ``[^\\s\\[\\]{}"]*``): the run is matched again on every piece from where the last
        one stopped, each character once.
        """
        parts: list[str] = []
        while True:
            buf = self.buf
            m = pattern.match(buf, self.pos)
            end = m.end() if m else self.pos
            parts.append(buf[self.pos : end])
            self.pos = end
            if end < len(buf) or self.final:
                return "".join(parts)
            yield

    def rest(self) -> Read[str]:
        """Everything up to the end of the text."""
        parts: list[str] = []
        while True:
            parts.append(self.buf[self.pos :])
            self.pos = len(self.buf)
            if self.final:
                return "".join(parts)
            yield

    def decoded(self, text: str) -> tuple[bool, Any]:
        """``(True, value)`` when ``text`` is the very string a JSON primitive just decoded
        (handed over once), else ``(False, None)``."""
        memo = self._memo
        if memo is not None and memo[0] is text:
            self._memo = None
            return True, memo[1]
        return False, None

    def find_ahead(self, marker: str) -> int:
        """Index of ``marker`` in the text that has already arrived, or -1 (does not wait)."""
        return self.buf.find(marker, self.pos)
