"""The one scanner behind both ``parse()`` and ``stream()``.

The engine alternates between two modes. In content mode it looks for the grammar's opening
markers, passing text through as content and holding back only a suffix that could still
become a marker. When a marker opens a block it hands the text to the block's reader (a
resumable generator, see :mod:`tooletta.engine.reader`) until the reader returns. One-shot
parsing is the same engine fed the whole text at once, so streaming equals one-shot by
construction; the conformance kit checks it for every dialect.

Whitespace around markup: whitespace right before an opening marker is dropped, and so is
whitespace right after a block when only markup or the end follows, or when no content has
been shown yet. All other text is kept verbatim.

Accounting: every character of the text ends up in one place, the content, the reasoning, a
call's block or an unparsed record (whitespace next to markup aside). A block whose reader
fails after emitting something (content, reasoning, a finished call) keeps what it emitted: a
stream has sent it and cannot take it back, and one-shot parsing, the same engine, gives the
same. The block's text up to where its reader last emitted (its *commit point*, moved back
over whitespace) then counts as read, and the unparsed record holds the rest, from there
through the block's closing marker. A reader that declines its block after emitting fails it
instead, since rescanning the block would show that text again.

Cost: per delta, the engine appends the delta to its buffer (dropping consumed text only once enough
has piled up, so no delta copies more than a few hundred characters), resumes the current reader or
scans for a marker, and builds at most one :class:`~tooletta.CallDelta` per call touched. A delta
that changes nothing returns the shared :data:`~tooletta.engine.EMPTY_UPDATE`. One-shot parsing
(``deltas=False``) builds no stream objects at all, and :func:`~tooletta.engine.parse_with` reads a
reply of the usual shape (content, then blocks their one-shot shortcuts read, then text without
markers) without building an engine: the fixed cost of a parse (see ``_whole``).
"""

from __future__ import annotations

import re
from collections.abc import Generator
from typing import Any, cast

import msgspec

from ..ir import CallDelta, ParseResult, StreamUpdate, ToolCall, UnparsedToolCall
from ..stream_checks import as_text, fed_after_finish, finished_twice
from .grammar import Block, FastReader, Grammar
from .markers import MarkerSet
from .reader import BlockError, Decline, Reader

__all__ = ["EMPTY_UPDATE", "Engine"]

EMPTY_UPDATE = StreamUpdate()
"""The update returned when a delta changes nothing (shared, never allocated per delta)."""

_SPACE = " \t\r\n"
_WS = re.compile(r"[ \t\r\n]*")
_COMPACT = 512
"""Consumed text is dropped from the buffer once this much has piled up (or all of it)."""
_END = object()
"""What ``next(reader, _END)`` gives when the block reader has returned."""

_FOLD = 32
"""Sent argument fragments of a call are joined into one string once this many have piled up:
a stream keeps a call's arguments text until the call ends (to decode it), and a string per
4-character fragment would cost ~13 times the text."""

_DECLINE_BUDGET = 16
"""Declines after which, if they outnumber the blocks read, a parse stops taking shortcuts."""
_NO_NAME = "a call with an empty function name"
"""Why a block whose call has no name is malformed (no client could dispatch it)."""
_DECLINES = (BlockError, Decline, UnicodeError, RecursionError, ValueError)
"""Exceptions a block's ``fast`` reader may meet in text its reader then reads (and reports)."""
_NO_CALLS: list[ToolCall] = cast("list[ToolCall]", ())
"""A stream's (never filled) list of finished calls, shared: one-shot parsing keeps them,
a stream sends them as deltas. A tuple, so that a stray ``append`` fails loudly."""
_NONE: Any = ()
"""The empty value of the engine's rarely used lists (reasoning, unparsed records, a block's
consumed text), shared until the first item: an engine allocates them only when used. A
tuple, so that a stray ``append`` fails loudly."""
_decode = msgspec.json.decode
_encode = msgspec.json.encode


def _skip_ws(text: str, pos: int) -> int:
    m = _WS.match(text, pos)
    return m.end() if m else pos


class _Call:
    __slots__ = ("args", "folded", "id", "id_sent", "index", "name", "nsent", "sent")

    def __init__(self, index: int, name: str, call_id: str | None):
        self.index = index
        self.name = name
        self.id = call_id
        self.args: list[str] = []
        self.sent = False  # has the first delta (with the name) gone out
        self.id_sent = call_id is not None
        self.nsent = 0  # how many fragments of ``args`` have gone out
        self.folded = 0  # ``args[:folded]`` are sent fragments joined (see ``_FOLD``)


class _Compiled:
    """Marker lookup tables for one grammar, built once and shared by every engine."""

    __slots__ = ("again", "all", "by_open", "fast", "has_start", "later", "start")

    def __init__(self, grammar: Grammar):
        self.by_open: dict[str, Block] = {}
        for block in grammar.blocks:
            self.by_open.setdefault(block.open, block)
        self.all = MarkerSet(self.by_open)
        self.later = MarkerSet(b.open for b in self.by_open.values() if not b.at_start)
        self.start = MarkerSet(b.open for b in self.by_open.values() if b.at_start)
        self.has_start = bool(self.start)
        self.fast: dict[str, tuple[FastReader, int]] = {
            m: (b.fast, 0 if b.keep_open else len(m))
            for m, b in self.by_open.items()
            if b.fast is not None
        }
        """Opening marker -> the block's one-shot reader and where, from the marker, it starts."""
        markers = tuple(self.by_open)
        self.again = frozenset(
            m
            for m in self.fast
            if not any(o != m and o.startswith(m) for o in markers)
            and not any(o[0] in _SPACE for o in markers)
        )
        """Openers with a shortcut that, when the next text after whitespace starts with them,
        are the next marker (no marker is longer and begins the same, none begins with a
        space), so a run of such blocks needs no marker search."""


_COMPILED: dict[int, tuple[Grammar, _Compiled]] = {}


def _compiled(grammar: Grammar) -> _Compiled:
    hit = _COMPILED.get(id(grammar))
    if hit is None or hit[0] is not grammar:
        hit = (grammar, _Compiled(grammar))
        _COMPILED[id(grammar)] = hit
    return hit[1]


def _plugin_bug(dialect: str, exc: Exception) -> Exception:
    """A reader raised something it must not: report it as the dialect's fault."""
    from ..errors import PluginError, ToolettaError

    if isinstance(exc, ToolettaError):
        return exc
    return PluginError(
        f"dialect {dialect!r} raised {type(exc).__name__} while reading: {exc}",
        plugin=dialect,
    )


def _fast_run(
    c: _Compiled,
    hit: tuple[FastReader, int],
    buf: str,
    i: int,
    marker: str,
    markers: MarkerSet | None,
    tools: Any,
    calls: list[ToolCall],
    spans: list[tuple[int, int]] | None,
    offset: int,
    dialect: str,
) -> tuple[int, int, bool]:
    """Read the block ``marker`` opens at ``i`` in ``buf`` with its one-shot reader ``hit``
    and, with ``markers`` (those content is scanned for), the blocks that follow it after
    only whitespace while their readers accept them: ``(end, blocks read, declined)``, with
    ``end`` just past the last block read (``-1``: none). Calls go to ``calls``, the blocks'
    offsets (``buf`` starting at ``offset``) to ``spans`` unless it is ``None``; ``declined``
    says that the run stopped at a block its reader declined (its calls removed)."""
    shortcuts = c.fast
    again = c.again
    size = len(buf)
    end = -1
    read = 0
    while True:
        n = len(calls)
        try:
            nxt = hit[0](buf, i + hit[1], tools, calls)
        except _DECLINES:  # what makes a reader fail a block: the reader says how
            nxt = -1
        except Exception as exc:
            raise _plugin_bug(dialect, exc) from exc
        for k in range(n, len(calls)):
            if not calls[k].name:  # the reader reports the block (start_call refuses it)
                nxt = -1
                break
        if nxt < 0:
            del calls[n:]
            return end, read, True
        read += 1
        end = nxt
        if spans is not None:
            at = offset + i
            spans.append((at if at > 0 else 0, offset + end))
        if markers is None or end >= size:  # (nothing after the block: no search)
            break
        j = end
        if marker in again:  # the same block again, after whitespace: no search needed
            while j < size and buf[j] in _SPACE:
                j += 1
        if j > end and buf.startswith(marker, j):
            i = j
        else:
            i, marker = markers.find(buf, end)
            if i < 0 or (i > end and buf[end:i].strip(_SPACE)):
                break
        got = shortcuts.get(marker)
        if got is None:
            break
        hit = got
    return end, read, False


class Engine(Reader):
    """Incremental scanner for one text (one model response); also the reader its block
    parsers read with (see :class:`~tooletta.engine.Reader`).

    ``feed(delta)`` returns a :class:`~tooletta.StreamUpdate`; ``finish()`` flushes what was held
    back and reports a block cut short as unparsed. ``result()`` gives the one-shot
    :class:`~tooletta.ParseResult` of everything fed; it needs ``deltas=False`` (one-shot parsing),
    in which no :class:`~tooletta.CallDelta` objects are built and the outputs are kept. A streaming
    engine keeps only what the next update needs, so its memory is bounded by the current block.
    ``prefix`` is markup the prompt already ended with (``"<think>"`` when the chat template opened
    the reasoning): it is read first, so the output starts inside that region.

    Memory: the state is in slots (a server holds one engine per open response).
    """

    __slots__ = (  # and the reader's (buf, pos, final...)
        "__weakref__",  # toolkit.messages keeps per-engine state in a WeakKeyDictionary
        "_after_markup",
        "_before_open",
        "_block",
        "_block_at",
        "_c",
        "_call",
        "_calls",
        "_commit",
        "_content",
        "_declined",
        "_finished",
        "_gen",
        "_live",
        "_ncalls",
        "_offset",
        "_origin",
        "_pending_ws",
        "_raw",
        "_raw_from",
        "_reasoning",
        "_rec_len",
        "_rec_tail",
        "_recovering",
        "_shortcuts",
        "_shown",
        "_unparsed",
        "dialect",
        "shortcut_blocks",
        "spans",
    )

    def __init__(
        self,
        grammar: Grammar,
        dialect: str,
        tools: Any = None,
        *,
        deltas: bool = True,
        prefix: str = "",
        shortcuts: bool = True,
    ) -> None:
        self.dialect = dialect
        self.deltas = deltas
        self._shortcuts = shortcuts and not deltas  # blocks' one-shot ``fast`` readers
        self.buf = ""
        self.pos = 0
        self.final = False
        self.tools = tools
        self._memo = None
        self._found = None  # allocated once the text is whole (one-shot parsing)
        self._declined = 0  # blocks the one-shot shortcuts declined
        self.shortcut_blocks = 0
        """Blocks read by their one-shot shortcut (``Block.fast``) so far."""
        self._c = _compiled(grammar)
        self._gen: Generator[None, None, Any] | None = None
        self._block: Block | None = None
        self._block_at = 0  # offset of the current block in the whole text
        self._commit = 0  # offset where the current block's reader last emitted something
        self._origin = 0  # where a failed block's closing marker is searched from, in its raw
        self._raw: list[str] = _NONE  # consumed text of the current block, for unparsed records
        self._raw_from = 0  # where the block's unconsumed text starts in self.buf
        self._rec_len = 0  # length of the raw text searched so far while recovering
        self._rec_tail = ""  # its last characters, in case the closing marker straddles
        self._before_open = ("", False)  # whitespace state to restore when a block declines
        self._recovering: BlockError | None = None
        self._offset = 0  # offset of self.buf[0] in the whole text
        self._finished = False
        # content and whitespace state
        self._shown = False  # has any non-whitespace content been emitted
        self._pending_ws = ""
        self._after_markup = False
        # outputs: everything (one-shot), or what the next update carries (streaming)
        self._content: list[str] = []
        self._reasoning: list[str] = _NONE
        self._calls: list[ToolCall] = _NO_CALLS if deltas else []  # a stream keeps none
        self._unparsed: list[UnparsedToolCall] = _NONE
        self._live: list[_Call] = []  # streaming: calls that may have something unsent
        self.spans: list[tuple[int, int]] = []
        """``(start, end)`` offsets of the blocks read successfully (for accounting checks):
        all of them in one-shot parsing; in a stream, those completed by the last ``feed``
        (and ``finish``), so that a stream's memory stays bounded by the current block."""
        self._call: _Call | None = None
        self._ncalls = 0
        if prefix:
            self._start_after(prefix)

    def _start_after(self, prefix: str) -> None:
        """Read ``prefix`` (markup the prompt ended with, such as ``<think>``) as if the
        model had written it, without showing it; offsets still count from the output."""
        self._offset = -len(prefix)
        self.feed(prefix)
        self._content.clear()
        self._reasoning = _NONE
        self.spans.clear()

    @property
    def shown(self) -> bool:
        """True once non-whitespace content has been shown."""
        return self._shown

    # -- events from readers ---------------------------------------------------------------

    def content(self, text: str) -> None:
        """Emit content, applying the whitespace rules; content that is not only whitespace
        counts as read up to the reader's position (see *Accounting* above)."""
        if self._show(text):
            self._commit = self._offset + self.pos

    def _show(self, text: str) -> bool:
        """Show ``text`` as content, applying the whitespace rules (the scanner's text outside
        blocks comes here directly); True when it is not only whitespace."""
        if not text:
            return False
        if self._shown and not self._pending_ws and text[-1] not in _SPACE:
            self._content.append(text)  # the common case: nothing to hold or strip
            self._after_markup = False
            return True
        stripped = text.rstrip(_SPACE)
        if not stripped:
            self._pending_ws += text
            return False
        if self._pending_ws:
            if self._shown or not self._after_markup:
                self._content.append(self._pending_ws)
            self._pending_ws = ""
        if not self._shown and self._after_markup:
            stripped = stripped.lstrip(_SPACE)
        self._content.append(stripped)
        self._shown = True
        self._after_markup = False
        if len(stripped) != len(text):
            self._pending_ws = text[len(text.rstrip(_SPACE)) :]
        return True

    def reasoning(self, text: str) -> None:
        """Emit reasoning text verbatim ("" is ignored)."""
        if text:
            if self._reasoning:
                self._reasoning.append(text)
            else:
                self._reasoning = [text]
            self._commit = self._offset + self.pos

    def commit(self) -> None:
        """Count the block's text read so far as accounted for (see *Accounting* above)."""
        self._commit = self._offset + self.pos

    def start_call(self, name: str, call_id: str | None = None) -> None:
        """Begin a call (an empty ``name`` is a malformed block: no client can dispatch it)."""
        if self._call is not None:
            raise BlockError("a call started before the previous one ended", self.pos)
        if not name:
            raise BlockError(_NO_NAME, self.pos)
        call = _Call(self._ncalls, name, call_id)
        self._ncalls += 1
        self._call = call
        if self.deltas:
            self._live.append(call)

    def set_id(self, call_id: str) -> None:
        """Attach an id to the current call."""
        call = self._call
        if call is None:
            raise BlockError("an id outside a call", self.pos)
        if call.id is None:
            call.id = call_id

    def args(self, fragment: str) -> None:
        """Append an arguments fragment to the current call ("" is ignored)."""
        if fragment:
            call = self._call
            if call is None:
                raise BlockError("arguments outside a call", self.pos)
            call.args.append(fragment)

    def end_call(self, arguments: dict[str, Any] | None = None) -> None:
        """Finish the current call, decoding its arguments unless given."""
        call = self._call
        if call is None:
            raise BlockError("a call ended that never started", self.pos)
        if arguments is None:
            text = "".join(call.args)
            memo = self._memo
            if memo is not None and memo[0] is text:  # decoded already (jsonread)
                self._memo = None
                value = memo[1]
            else:
                try:
                    value = _decode(text) if text else {}
                except (msgspec.DecodeError, UnicodeError) as exc:
                    raise BlockError(f"invalid JSON arguments: {exc}", self.pos) from None
            if not isinstance(value, dict):
                raise BlockError("arguments must be a JSON object", self.pos)
            arguments = value
        if not self.deltas:
            self._calls.append(ToolCall(call.name, arguments, call.id))
        self._call = None
        self._commit = self._offset + self.pos

    def call(self, name: str, arguments: dict[str, Any], call_id: str | None = None) -> None:
        """Emit a whole call at once: ``start_call``, the arguments as JSON, ``end_call``."""
        if self.deltas or self._call is not None:
            self.start_call(name, call_id)
            if self.deltas:
                self.args(_encode(arguments).decode())
            self.end_call(arguments)
            return
        if not name:
            raise BlockError(_NO_NAME, self.pos)
        self._ncalls += 1
        self._calls.append(ToolCall(name, arguments, call_id))
        self._commit = self._offset + self.pos

    # -- driving -----------------------------------------------------------------------------

    def feed(self, delta: str) -> StreamUpdate:
        """Take the next piece of text; return what can be shown now.

        A delta that is not ``str`` raises :class:`~tooletta.ParseError` and changes nothing
        (a ``str`` subclass is read as its text); ``feed`` after :meth:`finish` raises
        :class:`~tooletta.StreamStateError`.
        """
        if type(delta) is not str:  # the only check per delta: a finished engine changes class
            delta = as_text(delta, self.dialect, self._offset + len(self.buf))
        if not delta:
            return EMPTY_UPDATE
        if self.spans and self.deltas:
            self.spans.clear()  # a stream keeps only the spans of the current delta
        pos = self.pos
        if pos:
            buf = self.buf
            n = len(buf)
            if pos >= n or pos > _COMPACT:
                # drop text that every reader has consumed (positions are relative to pos),
                # keeping the current block's part of it for a possible unparsed record
                if (self._gen is not None or self._recovering is not None) and (
                    self._raw_from < pos
                ):
                    if self._raw:
                        self._raw.append(buf[self._raw_from : pos])
                    else:
                        self._raw = [buf[self._raw_from : pos]]
                self._raw_from = 0
                self._offset += pos
                self.buf = delta if pos >= n else buf[pos:] + delta
                self.pos = 0
            else:
                self.buf = buf + delta
        else:
            self.buf += delta
        gen = self._gen
        if gen is not None:
            # the common case inside a block: resume its reader right here
            try:
                if next(gen, _END) is not _END:
                    return self._update() if self.deltas else EMPTY_UPDATE
            except (BlockError, UnicodeError, RecursionError, Decline) as exc:
                self._reader_raised(exc)
            except Exception as exc:
                raise self._plugin_bug(exc) from exc
            else:
                self._block_done()
        self._run()
        return self._update() if self.deltas else EMPTY_UPDATE

    def finish(self) -> StreamUpdate:
        """End the text: flush held-back content and close or report an open block.

        Once only: afterwards ``feed`` and ``finish`` raise :class:`~tooletta.StreamStateError`
        (the engine becomes a finished engine, so that ``feed`` checks no flag per delta).
        """
        if self._finished:
            raise finished_twice(self.dialect)
        update = self._end()
        cls = type(self)
        self.__class__ = _FinishedEngine if cls is Engine else _finished_class(cls)
        return update

    def _end(self) -> StreamUpdate:
        """:meth:`finish`'s work, without the change of class (one-shot parsing)."""
        self.final = True
        self._run()
        self._finished = True
        if self._pending_ws and not self._after_markup:
            self._content.append(self._pending_ws)
        self._pending_ws = ""
        return self._update() if self.deltas else EMPTY_UPDATE

    def result(self) -> ParseResult:
        """The one-shot result of all text fed (after :meth:`finish`; ``deltas=False``)."""
        return ParseResult(
            content="".join(self._content),
            calls=self._calls or [],
            dialect=self.dialect,
            unparsed=self._unparsed or [],
            reasoning="".join(self._reasoning),
        )

    def _run(self) -> None:
        compiled = self._c
        while True:
            gen = self._gen
            if gen is not None:
                try:
                    step = next(gen, _END)
                except (BlockError, UnicodeError, RecursionError, Decline) as exc:
                    self._reader_raised(exc)
                    continue
                except Exception as exc:
                    raise self._plugin_bug(exc) from exc
                if step is not _END:
                    if self.final:  # a reader must not wait once the text has ended
                        self._fail(BlockError("text ended inside a tool-call block", self.pos))
                        continue
                    return
                self._block_done()
                continue
            if self._recovering is not None:
                if not self._recover():
                    return
                continue
            buf = self.buf
            pos = self.pos
            final = self.final
            if not self._shown and compiled.has_start:
                # openers valid only at the start of the reply (after whitespace)
                j = _skip_ws(buf, pos)
                if j >= len(buf) and not final:
                    self._text(buf[pos:])
                    self.pos = len(buf)
                    return
                marker = compiled.start.match(buf, j, final) if j < len(buf) else ""
                if marker:
                    # an ordinary marker starting at the same place wins when it is longer
                    other = compiled.later.match(buf, j, final)
                    if other is None:
                        marker = None
                    elif len(other) > len(marker):
                        marker = other
                if marker is None:
                    self._text(buf[pos:j])
                    self.pos = j
                    return
                if marker:
                    self._text(buf[pos:j])
                    if not (final and self._shortcuts and self._shortcut(marker, j)):
                        self._open(marker, j)
                    continue
            markers = compiled.later if (self._shown or compiled.has_start) else compiled.all
            i, marker = markers.find(buf, pos)
            if i < 0:
                cut = len(buf) if final else markers.partial_start(buf, pos)
                if cut > pos:
                    self._show(buf[pos:cut])
                self.pos = cut
                return
            if not final and markers.extends(buf, i):
                if i > pos:
                    self._show(buf[pos:i])
                self.pos = i
                return
            if i > pos:
                self._show(buf[pos:i])
            if final and self._shortcuts and self._shortcut(marker, i, markers):
                continue  # read whole by the blocks' one-shot readers
            self._open(marker, i)

    def _shortcut(self, marker: str, i: int, markers: MarkerSet | None = None) -> bool:
        """Read the block ``marker`` opens at ``i`` with its ``fast`` reader (one-shot, whole
        text); False, with nothing changed, when it has none or that declines the block.

        With ``markers`` (those content is scanned for), blocks that follow with only
        whitespace between them are read on in the same loop while their readers accept them.
        """
        hit = self._c.fast.get(marker)
        if hit is None:
            return False
        end, read, declined = _fast_run(
            self._c, hit, self.buf, i, marker, markers, self.tools, self._calls,
            self.spans, self._offset, self.dialect,
        )  # fmt: skip
        if declined:
            self._declined += 1
            if self._declined > _DECLINE_BUDGET and self._declined > self.shortcut_blocks + read:
                # mostly malformed text: a shortcut may search far before declining,
                # so the readers read the rest alone (and the cost stays linear)
                self._shortcuts = False
            if end < 0:
                return False
        self.shortcut_blocks += read
        self._ncalls = len(self._calls)
        self.pos = end
        self._after_markup = True
        self._pending_ws = ""
        return True

    def _open(self, marker: str, i: int) -> None:
        """Start the block ``marker`` opens at ``i`` in the buffer."""
        block = self._c.by_open[marker]
        self._before_open = (self._pending_ws, self._after_markup)
        self._pending_ws = ""
        self._block = block
        self._block_at = self._commit = self._offset + i
        self.pos = i if block.keep_open else i + len(marker)
        self._raw_from = i
        self._gen = block.read(self)

    def _text(self, text: str) -> None:
        if text:
            self._show(text)

    def _plugin_bug(self, exc: Exception) -> Exception:
        """A reader raised something it must not: report it as the dialect's fault."""
        return _plugin_bug(self.dialect, exc)

    def _reader_raised(self, exc: Exception) -> None:
        """The block reader raised: a malformed block, or a marker that was prose."""
        if isinstance(exc, BlockError):
            self._fail(exc)
        elif isinstance(exc, Decline):
            if self._call is not None:
                self._fail(BlockError("a block declined after starting a call", self.pos))
            elif self._commit > self._block_at:
                self._fail(BlockError("a block declined after emitting text", self.pos))
            else:
                self._decline()
        elif isinstance(exc, RecursionError):  # a decoder met nesting deeper than Python allows
            self._fail(BlockError("nested too deeply", self.pos))
        else:  # a UnicodeError, e.g. a lone surrogate reaching a UTF-8 decoder
            self._fail(BlockError(f"text is not valid Unicode: {exc}", self.pos))

    def _block_done(self) -> None:
        """The block reader returned: the block was read successfully (unless a call it
        started is still open: then it failed)."""
        self._gen = None
        if self._call is not None:
            self._fail(BlockError("block ended inside a call", self.pos))
            return
        start = self._block_at
        end = self._offset + self.pos
        self.spans.append((start if start > 0 else 0, end if end > 0 else 0))
        if self._raw:
            self._raw = _NONE
        self._after_markup = True
        self._pending_ws = ""

    def _decline(self) -> None:
        """The reader says its marker was prose: show it as content, rescan after it."""
        block = self._block
        assert block is not None
        self._gen = None
        self._pending_ws, self._after_markup = self._before_open
        if self._raw:  # the block began in text dropped from the buffer since: restore it
            self.buf = "".join(self._raw) + self.buf[self._raw_from :]
            self._raw = _NONE
            self.pos = len(block.open)
            self._offset = self._block_at
        else:  # the marker is still in the buffer: rescan from there, copying nothing
            self.pos = self._raw_from + len(block.open)
        self._show(block.open)

    def _fail(self, exc: BlockError) -> None:
        if self._gen is not None:
            self._gen.close()
        self._gen = None
        self._recovering = exc
        done = "".join(self._raw)  # the block's text from earlier deltas (once per failure)
        block = self._block
        assert block is not None
        self._origin = 0 if block.keep_open else len(block.open)
        if self._commit > self._block_at:
            done = self._cut_at_commit(done)
        self._raw = [done] if done else _NONE
        self._rec_len = len(done)
        self._rec_tail = done  # the first search covers the whole block from its opener

    def _cut_at_commit(self, done: str) -> str:
        """The reader of the failing block emitted before it failed: what it read up to there
        counts as read (a span), and the unparsed record starts at its commit point, moved back
        over whitespace (so that it does not depend on how the text was split). Takes and
        returns the record's text from earlier deltas."""
        start = self._block_at
        upto = self._commit - start  # the commit point in the block's text
        head = done[:upto]
        if upto > len(done):
            head += self.buf[self._raw_from : self._raw_from + upto - len(done)]
        cut = len(head.rstrip(_SPACE))
        if cut <= 0:
            return done
        end = start + cut
        if end > 0:  # (a block that began in the prompt's prefix: only the output's part)
            self.spans.append((start if start > 0 else 0, end))
        self._block_at = end
        self._origin = 0  # the opener is behind: any closing marker from here ends the record
        if cut >= len(done):
            self._raw_from += cut - len(done)
            return ""
        return done[cut:]

    def _recover(self) -> bool:
        """Skip a malformed block through its closing marker; False when that needs more text.

        The closing marker is searched only in text not searched before (with an overlap of
        the marker's length), so a block that never closes costs linear time.
        """
        exc = self._recovering
        block = self._block
        assert exc is not None and block is not None
        if not self._raw and self._skip_in_place(exc, block):
            return True
        new = self.buf[self._raw_from :]
        seen = self._rec_len
        if self._raw:
            self._raw.append(new)
        else:
            self._raw = [new]
        self._rec_len = seen + len(new)
        close = block.close
        origin = self._origin
        end = -1
        if close is not None:
            tail = self._rec_tail
            window = tail + new
            base = seen - len(tail)  # offset of window[0] in the raw text
            k = window.find(close, max(0, origin - base))
            if k >= 0:
                end = base + k
            else:
                self._rec_tail = window[-(len(close) - 1) :] if len(close) > 1 else ""
        if end < 0 and not self.final:
            self._raw_from = len(self.buf)
            self.pos = len(self.buf)
            return False
        raw = "".join(self._raw)
        stop = len(raw) if end < 0 else end + len(close or "")
        self._record(raw[:stop], exc)
        # content scanning resumes right after the skipped block
        self.buf = raw[stop:]
        self.pos = 0
        self._offset = self._block_at + stop
        self._recovering = None
        self._raw = _NONE
        self._rec_len = 0
        self._rec_tail = ""
        self._after_markup = True
        self._pending_ws = ""
        return True

    def _skip_in_place(self, exc: BlockError, block: Block) -> bool:
        """:meth:`_recover` for a block wholly in the buffer whose closing marker has arrived
        (or the text has ended): skip it without copying the rest of the buffer, so that
        text made of many malformed blocks costs linear time. False: not the case."""
        buf = self.buf
        start = self._raw_from
        close = block.close
        end = -1
        if close is not None:
            end = buf.find(close, start + self._origin)
        if end < 0 and not self.final:
            return False
        stop = len(buf) if end < 0 else end + len(close or "")
        self._record(buf[start:stop], exc)
        self.pos = stop
        self._recovering = None
        self._rec_len = 0
        self._rec_tail = ""
        self._after_markup = True
        self._pending_ws = ""
        return True

    def _record(self, raw: str, exc: BlockError) -> None:
        index = None
        call = self._call
        if call is not None:
            if self.deltas:
                # its unsent fragments are dropped; a client discards what it got (index)
                if call in self._live:
                    self._live.remove(call)
                index = call.index if call.sent else None
            self._call = None
        offset = self._block_at
        if offset < 0:  # the block began in the prefix: report only the output's part
            raw, offset = raw[-offset:], 0
        record = UnparsedToolCall(raw=raw, error=exc.message, offset=offset, index=index)
        if self._unparsed:
            self._unparsed.append(record)
        else:
            self._unparsed = [record]

    def _update(self) -> StreamUpdate:
        live = self._live
        content = self._content
        reasoning = self._reasoning
        unparsed = self._unparsed
        if len(live) == 1 and not (content or reasoning or unparsed):
            # the common case inside a call: at most a new arguments fragment
            call = live[0]
            if call.sent and (call.id_sent or call.id is None):
                frags = call.args
                n = len(frags)
                k = call.nsent
                if call is not self._call:
                    live.clear()
                if k == n:
                    return EMPTY_UPDATE
                call.nsent = n
                text = frags[k] if n - k == 1 else "".join(frags[k:])
                folded = call.folded
                if n - folded >= _FOLD:  # every fragment is sent: join those since the last fold
                    frags[folded:] = ["".join(frags[folded:])]
                    call.nsent = call.folded = folded + 1
                return StreamUpdate("", [CallDelta(call.index, None, None, text)])
        if not live:
            if not (content or reasoning or unparsed):
                return EMPTY_UPDATE
            deltas: list[CallDelta] = []
        else:
            deltas = []
            for call in live:
                frags = call.args
                n = len(frags)
                if call.nsent < n:
                    text = (
                        frags[call.nsent] if n - call.nsent == 1 else "".join(frags[call.nsent :])
                    )
                    call.nsent = n
                else:
                    text = ""
                if not call.sent:
                    call.sent = True
                    call.id_sent = call.id is not None
                    deltas.append(CallDelta(call.index, call.id, call.name, text))
                elif not call.id_sent and call.id is not None:
                    call.id_sent = True
                    deltas.append(CallDelta(call.index, call.id, None, text))
                elif text:
                    deltas.append(CallDelta(call.index, None, None, text))
            current = self._call
            if current is None:
                live.clear()
            elif len(live) != 1:
                self._live = [current]
            if not deltas and not (content or reasoning or unparsed):
                return EMPTY_UPDATE
        update = StreamUpdate(
            "".join(content) if content else "",
            deltas,
            "".join(reasoning) if reasoning else "",
            unparsed if unparsed else [],
        )
        if content:
            content.clear()
        if reasoning:
            reasoning.clear()
        if unparsed:
            self._unparsed = _NONE
        return update


class _Finished:
    """What a finished engine answers: its ``feed`` and ``finish`` raise
    :class:`~tooletta.StreamStateError`; ``result()``, ``spans`` and the rest stay."""

    __slots__ = ()

    dialect: str

    def feed(self, delta: str) -> StreamUpdate:
        """Refuse text after the end."""
        raise fed_after_finish(self.dialect)

    def finish(self) -> StreamUpdate:
        """Refuse a second end."""
        raise finished_twice(self.dialect)


class _FinishedEngine(_Finished, Engine):
    """An :class:`Engine` after :meth:`Engine.finish`."""

    __slots__ = ()


_FINISHED: dict[type[Engine], type[Engine]] = {Engine: _FinishedEngine}


def _finished_class(cls: type[Engine]) -> type[Engine]:
    """The finished variant of an engine class (a subclass keeps its own methods)."""
    if issubclass(cls, _Finished):
        return cls
    found = _FINISHED.get(cls)
    if found is None:
        found = _FINISHED[cls] = type(
            f"Finished{cls.__name__}", (_Finished, cls), {"__slots__": ()}
        )
    return found


def parse_with(
    grammar: Grammar,
    dialect: str,
    text: str,
    tools: Any = None,
    prefix: str = "",
    *,
    shortcuts: bool = True,
) -> ParseResult:
    """One-shot parse of ``text`` with ``grammar`` (the engine fed everything at once).

    ``shortcuts=False`` reads every block with its incremental reader, never its ``fast`` one
    (to check that both agree).
    """
    if shortcuts and not prefix and type(text) is str:
        c = _compiled(grammar)
        if not c.has_start:
            return _whole(c, grammar, dialect, text, tools)
    engine = Engine(grammar, dialect, tools, deltas=False, prefix=prefix, shortcuts=shortcuts)
    engine.final = True  # the whole text is here: nothing waits, nothing is held back
    engine.feed(text)
    engine._end()
    return engine.result()


def _whole(c: _Compiled, grammar: Grammar, dialect: str, text: str, tools: Any) -> ParseResult:
    """:func:`parse_with` of a whole ``str`` (no prefix, no opener valid only at the start).

    The usual shapes of a reply are read without an engine: text without markers; content,
    then blocks their one-shot readers read (only whitespace between them), then text
    without markers. Their content is what the engine's whitespace rules give: the text
    before the first block without its trailing whitespace (whitespace before markup is
    dropped), then the text after the last block, verbatim after shown content, else without
    its leading whitespace (whitespace alone after markup is dropped). Anything else is
    handed to an engine in the state it would have reached itself at that point (the content
    before the first block shown, the blocks read so far its own), which reads the rest.
    """
    markers = c.all
    i, marker = markers.find(text, 0)
    if i < 0:
        return ParseResult(text, [], dialect, [], "")
    hit = c.fast.get(marker)
    calls: list[ToolCall] = []
    end, read, declined = -1, 0, False
    if hit is not None:
        end, read, declined = _fast_run(
            c, hit, text, i, marker, markers, tools, calls, None, 0, dialect
        )
        if not declined and end >= 0 and (end == len(text) or markers.find(text, end)[0] < 0):
            before = text[:i].rstrip(_SPACE)
            after = text[end:]
            if after and after.strip(_SPACE):
                content = before + after if before else after.lstrip(_SPACE)
            else:
                content = before
            return ParseResult(content, calls, dialect, [], "")
    # the engine takes over where ``_run`` would be after trying the first block's shortcut
    engine = Engine(grammar, dialect, tools, deltas=False)
    engine.final = True
    engine.buf = text
    if i > 0:
        engine._show(text[:i])
    if declined:
        engine._declined = 1
    if read:
        engine._calls.extend(calls)
        engine._ncalls = len(calls)
        engine.shortcut_blocks = read
        engine.pos = end
        engine._after_markup = True
        engine._pending_ws = ""
    else:
        engine._open(marker, i)
    # one ``_run`` with ``final`` set reads the rest (it returns only once every reader has
    # returned and the rest is shown): ``_end``'s second ``_run`` would find nothing left
    engine._run()
    engine._finished = True
    if engine._pending_ws and not engine._after_markup:
        engine._content.append(engine._pending_ws)
    engine._pending_ws = ""
    return engine.result()
