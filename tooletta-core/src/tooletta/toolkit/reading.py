"""Reader helpers for special-token formats (DeepSeek, Kimi): sections, think regions,
attributes, declared-type values, JSON arguments with end-of-turn tokens erased.

* :func:`section` removes a marker that only frames the calls (each call is its own block);
* :func:`think_region` is a reasoning region that a tool-call section may also end;
* :func:`read_attrs` reads ``key="value"`` attributes up to the end of a tag;
* :func:`read_value` reads one parameter value whose type the format declares (DSML's
  ``string="true|false"``, Kimi K3's ``type="..."``), streaming it when it is a string,
  typing it at its close otherwise;
* :func:`json_args` streams JSON arguments verbatim, minus a leaked end-of-turn token, and
  ends the call (:func:`end_json_call` ends a call whose arguments streamed as JSON text);
* :func:`header_call_reader` reads a ``HEADER SEP {json} CLOSE`` call (Kimi K2, Solar Open),
  :func:`header_call_block` is the grammar block of one, and :func:`header_safe` says whether
  a writer may put a name or id in its header;
* :func:`fast_section` and :func:`fast_header_call` are the one-shot shortcuts
  (``Block.fast``) of sections and of ``HEADER SEP {json} CLOSE`` calls: plain functions that
  read a whole well-formed block, or decline it; :func:`json_args_at` and
  :func:`decode_args` read JSON arguments whole, for such functions.

``msgspec`` cannot decode a ``str`` holding a lone surrogate (it raises ``UnicodeEncodeError``,
not ``DecodeError``); the decoding here falls back to :mod:`json` for such text, and typing
keeps it as text, so bad input never escapes as anything but a parse error.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any, Literal

import msgspec

from ..engine import (
    Block,
    BlockError,
    BlockReader,
    FastReader,
    MarkerSet,
    Read,
    Reader,
    json_value,
)
from ..engine.jsonread import decode_bounded
from ..engine.trim import Trimmer
from ..ir import ToolCall
from ..limits import MAX_DEPTH, too_deep
from .args import ArgsWriter
from .schema import coerce_value, schema_types

__all__ = [
    "Declared",
    "Eraser",
    "decode_args",
    "decode_json",
    "end_json_call",
    "fast_header_call",
    "fast_section",
    "header_call_block",
    "header_call_reader",
    "header_safe",
    "json_args",
    "json_args_at",
    "read_attrs",
    "read_value",
    "section",
    "think_region",
    "typed_value",
]

Declared = Literal["string", "json"] | None
"""What the format says a value is (raw text, JSON text, or nothing when untyped)."""

_ATTR_NAME = re.compile(r"[A-Za-z_][\w.:-]*\Z")
_TOO_DEEP = f"JSON nested deeper than {MAX_DEPTH}"
_decode = msgspec.json.decode


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def decode_json(text: str) -> tuple[bool, Any]:
    """``(True, value)`` when ``text`` is one JSON value, else ``(False, None)``.

    JSON nested deeper than :data:`~tooletta.engine.MAX_DEPTH` raises
    :class:`~tooletta.engine.BlockError` (the block is malformed).
    """
    try:
        return True, decode_bounded(text)
    except msgspec.DecodeError:
        return False, None
    except UnicodeEncodeError:  # a lone surrogate: msgspec needs UTF-8
        return _decode_with_surrogates(text)


def _decode_with_surrogates(text: str) -> tuple[bool, Any]:
    """:func:`decode_json` for text holding a lone surrogate: the stdlib decoder reads it."""
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except ValueError:
        return False, None
    except RecursionError:
        raise BlockError(_TOO_DEEP) from None
    if too_deep(text, value):
        raise BlockError(_TOO_DEEP)
    return True, value


def _coerce(raw: str, schema: Mapping[str, Any] | None) -> Any:
    try:
        return coerce_value(raw, schema)
    except UnicodeEncodeError:  # a lone surrogate: not a number, literal or JSON
        return raw


def end_json_call(r: Reader, text: str) -> None:
    """End the current call with ``text``, the JSON arguments object its fragments spelled."""
    ok, value = r.decoded(text)
    if not ok:
        ok, value = decode_json(text)
    if not ok:
        raise BlockError("invalid JSON arguments", r.pos)
    if not isinstance(value, dict):
        raise BlockError("arguments must be a JSON object", r.pos)
    r.end_call(value)


_FOLD = 32
"""The pieces an :class:`Eraser` keeps are joined once this many have piled up since the last
join (a string per 4-character delta costs ~13 times its text; each character is copied once
more, so the cost stays linear)."""


class Eraser:
    """Passes text on with every ``token`` in it removed, holding back only a partial ``token``.

    The occurrences removed are those of the text as written (``text.replace(token, "")``):
    removing one never joins its neighbours into a new one. ``token`` must not overlap itself
    (end-of-turn tokens start with ``<`` and end with ``>``); then no occurrence can span
    what was passed on and what was held back, so the result does not depend on the split.
    """

    __slots__ = ("_folded", "_held", "_parts", "_token", "_w")

    def __init__(self, write: Callable[[str], None], token: str):
        self._w = write
        self._token = token
        self._held = ""
        self._parts: list[str] = []
        self._folded = 0  # ``_parts[:_folded]`` are pieces joined (see ``_FOLD``)

    def feed(self, text: str) -> None:
        """Take the next piece of text."""
        text = self._held + text
        n = len(text)
        cut = n
        token = self._token
        # the earliest start of a tail that could begin the token (only where its first
        # character is)
        i = text.find(token[0], max(0, n - len(token) + 1)) if token else -1
        while i != -1:
            if token.startswith(text[i:]):
                cut = i
                break
            i = text.find(token[0], i + 1)
        self._held = text[cut:]
        out = text[:cut].replace(self._token, "")
        if out:
            parts = self._parts
            parts.append(out)
            self._w(out)
            folded = self._folded
            if len(parts) - folded >= _FOLD:
                parts[folded:] = ["".join(parts[folded:])]
                self._folded = folded + 1

    def close(self) -> str:
        """Pass on what was held back; return all the text passed on."""
        if self._held:
            self._parts.append(self._held)
            self._w(self._held)
            self._held = ""
        return "".join(self._parts)


def json_args(r: Reader, erased: str) -> Read[None]:
    """Stream a JSON arguments object verbatim without ``erased`` in it, then end the call.

    ``erased`` is an end-of-turn token that leaks into a truncated turn: it never reaches the
    argument fragments (it holds no JSON structural character, so the value ends where it
    would without it).
    """
    out = Eraser(r.args, erased)
    yield from json_value(r, out.feed, keep=False)
    end_json_call(r, out.close())


def _skip(r: Reader) -> Read[None]:
    return
    yield  # pragma: no cover - makes this a generator


def section(token: str, fast: FastReader | None = None) -> Block:
    """A block that removes ``token``, a marker framing the calls (the calls are blocks too).

    ``fast``: its one-shot shortcut, typically :func:`fast_section` (reading on through the
    calls that follow).
    """
    return Block(open=token, read=_skip, fast=fast)


_WS = re.compile(r"[ \t\r\n]*")
_SPACE = " \t\r\n"


def _no_shortcut(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The shortcut of a block that has none: it declines every block."""
    return -1


def fast_section(
    call_open: str, call: FastReader | Block, frames: tuple[str, ...] = ()
) -> FastReader:
    """The one-shot shortcut of a :func:`section` marker: it reads on through what follows as
    long as that is, after whitespace, ``call_open`` and a call ``call`` (the call block's own
    shortcut, or the call block, whose ``fast`` it takes) reads, or one of ``frames`` (the
    other section markers, removed as :func:`section` removes them). It stops before anything
    else, or a call ``call`` declines, which the engine then reads as it would have.

    Whitespace between these blocks is dropped, as it is between any two blocks. The engine
    would find each of them where this does provided no marker of the grammar starts with
    whitespace and none is longer than, and starts with, ``call_open`` or a frame.
    """
    n_open = len(call_open)
    if isinstance(call, Block):
        call = call.fast or _no_shortcut

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        end = pos
        n = len(text)
        while True:
            j = end
            if not text.startswith(call_open, j) and j < n and text[j] in _SPACE:
                j = _WS.match(text, j).end()  # type: ignore[union-attr]
            if text.startswith(call_open, j):
                nxt = call(text, j + n_open, tools, calls)
                if nxt < 0:
                    return end
                end = nxt
                continue
            for frame in frames:
                if text.startswith(frame, j):
                    end = j + len(frame)
                    break
            else:
                return end

    return fast


def json_args_at(
    text: str, start: int, close: str, erased: str = ""
) -> tuple[dict[str, Any], int] | None:
    """The arguments :func:`json_args` reads at ``start`` when the object is followed by
    whitespace and ``close`` (as readers that then ``ws`` and ``expect(close)`` require):
    ``(arguments, offset just past close)``; ``None`` for anything else (no object, no
    ``close``, ``erased`` inside, invalid or too deep JSON), which the reader decides.
    """
    j = start
    if not text.startswith("{", j):
        if j >= len(text) or text[j] not in _SPACE:
            return None
        j = _WS.match(text, j).end()  # type: ignore[union-attr]
        if not text.startswith("{", j):
            return None
    k = _find_marker(text, close, j)
    if k < 0:
        return None
    seg = text[j:k]
    if erased and erased[0] in seg and erased in seg:
        return None
    value = decode_args(seg)
    return None if value is None else (value, k + len(close))


_TRIES = 8
"""Occurrences of a marker's first character looked at before a plain ``str.find``."""


def _find_marker(text: str, marker: str, start: int) -> int:
    """``text.find(marker, start)``, by the marker's first character first (a one-character
    find costs much less than a long one on non-ASCII text)."""
    c = marker[0]
    k = text.find(c, start)
    tries = 0
    while k >= 0 and not text.startswith(marker, k):
        tries += 1
        if tries > _TRIES:
            return text.find(marker, k)
        k = text.find(c, k + 1)
    return k


_SHALLOW = 2 * MAX_DEPTH
"""Text this short cannot nest deeper than :data:`MAX_DEPTH`."""


def decode_args(seg: str) -> dict[str, Any] | None:
    """The JSON object ``seg`` holds (whitespace around it allowed), decoded as the readers
    decode arguments; ``None`` when it is not one object (invalid JSON, a lone surrogate,
    another value) or nests deeper than :data:`~tooletta.engine.MAX_DEPTH`. For one-shot
    readers, which leave such text to the reader."""
    try:
        value = _decode(seg) if len(seg) <= _SHALLOW else decode_bounded(seg)
    except (msgspec.DecodeError, UnicodeError, BlockError, RecursionError):
        return None
    return value if type(value) is dict else None


def _first_of(markers: tuple[str, ...]) -> Callable[[str, int], re.Match[str] | None]:
    """``search(text, pos)``: the first of ``markers`` from ``pos``, the longest one when
    several start at the same place (what :meth:`Reader.until` stops at)."""
    uniq = sorted(set(markers), key=lambda m: (-len(m), m))
    return re.compile("|".join(re.escape(m) for m in uniq)).search


def _holds_any(text: str, chars: str) -> bool:
    """True when ``text`` holds one of ``chars``."""
    if len(chars) == 1:
        return chars in text
    return any(c in text for c in chars)


def header_call_reader(
    sep: str,
    close: str,
    stops: tuple[str, ...],
    header: Callable[[str], tuple[str, str | None]] | None = None,
    erased: str = "",
    *,
    no_sep: str = "",
    no_name: str = "",
) -> BlockReader:
    """The reader of a call block ``HEADER SEP {json} CLOSE``, from after its opening marker:
    the header up to the first of ``stops`` (which holds ``sep``; another stop first fails
    with ``no_sep``), the call's name and id from it by ``header`` (``None``: the stripped
    header is the name, there is no id; an empty name fails with ``no_name``), the arguments
    streamed by :func:`json_args` with ``erased``, then whitespace and ``close``, which the
    end of the text may stand for. :func:`fast_header_call` with the same arguments is its
    one-shot shortcut."""
    missing_sep = no_sep or f"expected {sep!r} after the call header"
    missing_name = no_name or "a tool call without a name"

    def read(r: Reader) -> Read[None]:
        head, marker = yield from r.until(stops)
        if marker != sep:
            raise r.fail(missing_sep)
        name, call_id = (head.strip(), None) if header is None else header(head)
        if not name:
            raise r.fail(missing_name)
        r.start_call(name, call_id or None)
        yield from json_args(r, erased)
        yield from r.close_or_end(close)

    return read


def header_call_block(
    opening: str,
    sep: str,
    close: str,
    stops: tuple[str, ...],
    header: Callable[[str], tuple[str, str | None]] | None = None,
    erased: str = "",
    *,
    no_sep: str = "",
    no_name: str = "",
) -> Block:
    """The block of a call ``OPENING HEADER SEP {json} CLOSE``: read by
    :func:`header_call_reader` and, one-shot, by :func:`fast_header_call` with the same
    arguments, which reads on through the calls that follow it at once (``then=opening``).
    The block's ``fast`` is the call shortcut a :func:`fast_section` of the format takes."""
    return Block(
        opening,
        header_call_reader(sep, close, stops, header, erased, no_sep=no_sep, no_name=no_name),
        close=close,
        fast=fast_header_call(sep, close, stops, header, erased, then=opening),
    )


def header_safe(text: str, markers: tuple[str, ...]) -> bool:
    """True when a writer may put ``text`` (a call's name or id) in a call header as is: it
    is not empty, has no whitespace around it (the reader strips the header) and holds none
    of the format's ``markers`` (the reader stops at them)."""
    if not text or text != text.strip():
        return False
    for marker in markers:  # noqa: SIM110 - a loop, not all() over a generator: per call
        if marker in text:
            return False
    return True


def fast_header_call(
    sep: str,
    close: str,
    stops: tuple[str, ...],
    header: Callable[[str], tuple[str, str | None]] | None = None,
    erased: str = "",
    *,
    then: str = "",
) -> FastReader:
    """The one-shot shortcut of a call block ``HEADER SEP {json} CLOSE`` whose reader reads
    the header with ``r.until(stops)`` (``stops`` holds ``sep``), then :func:`json_args` with
    ``erased``, then whitespace and ``close``.

    ``header`` turns the header's text into the call's name and id as the reader does (it
    must not raise; ``None``: the stripped header is the name, there is no id). An empty
    name, a first stop other than ``sep`` and arguments :func:`json_args_at` does not read
    are left to the reader. ``then``: the block's opening marker, when the calls that follow
    it at once are to be read in the same loop (the preconditions of :func:`fast_section`
    apply).
    """
    search = _first_of(stops)
    n_sep = len(sep)
    n_close = len(close)
    n_then = len(then)
    c_sep = sep[0]
    c_close = close[0]
    others = "".join(sorted({m[0] for m in stops if m} - {c_sep}))
    longer = tuple(m for m in stops if len(m) > n_sep and m.startswith(sep))
    erase_at = bool(erased) and erased[0] == c_close  # found while looking for ``close``

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        end = -1  # past the last call read
        while True:
            # the header: up to ``sep`` when no stop starts before it. Markers are found by
            # their first character (a one-character find costs much less than a long one on
            # non-ASCII text); the stops' search decides anything else, in linear time.
            s = text.find(c_sep, pos)
            if (
                s < 0
                or not text.startswith(sep, s)
                or (others and _holds_any(text[pos:s], others))
                or (longer and text.startswith(longer, s))
            ):
                m = search(text, pos)
                if m is None or m.group() != sep:
                    return end
                s = m.start()
            if header is None:
                name = text[pos:s].strip()
                call_id = None
            else:
                name, call_id = header(text[pos:s])
            if not name:
                return end
            j = s + n_sep  # the arguments: json_args_at, inline
            if not text.startswith("{", j):
                if j >= len(text) or text[j] not in _SPACE:
                    return end
                j = _WS.match(text, j).end()  # type: ignore[union-attr]
                if not text.startswith("{", j):
                    return end
            k = text.find(c_close, j)  # _find_marker, inline, looking for ``erased`` too
            tries = 0
            while k >= 0 and not text.startswith(close, k):
                if erase_at and text.startswith(erased, k):
                    return end
                tries += 1
                if tries > _TRIES:
                    k = text.find(close, k)
                    break
                k = text.find(c_close, k + 1)
            if k < 0:
                return end
            seg = text[j:k]
            if erased and (tries > _TRIES or not erase_at) and erased in seg:
                return end
            try:
                value = _decode(seg) if len(seg) <= _SHALLOW else decode_bounded(seg)
            except (msgspec.DecodeError, UnicodeError, BlockError, RecursionError):
                return end
            if type(value) is not dict:  # pragma: no cover - "{..." decodes to a dict
                return end
            calls.append(ToolCall(name, value, call_id))
            end = k + n_close
            if not (n_then and text.startswith(then, end)):
                return end
            pos = end + n_then

    return fast


def think_region(open: str, close: str, ends: tuple[str, ...] = ()) -> Block:
    """Reasoning from ``open`` to ``close``, also ended (and consumed) by any of ``ends``.

    ``ends`` are section markers the model may write before closing its reasoning (it goes
    straight from thinking to its tool calls); they only frame calls, so consuming them loses
    nothing. Whitespace just inside the region is dropped; a region still open at the end of
    the text keeps everything after ``open`` as reasoning.
    """
    stops = MarkerSet((close, *ends))

    def read(r: Reader) -> Read[None]:
        out = Trimmer(r.reasoning, "space")
        yield from r.until(stops, out.feed, eof=True)
        out.close()

    return Block(open=open, read=read, close=close, markup=False)


def read_attrs(
    r: Reader, ends: tuple[str, ...], unescape: Callable[[str], str] | None = None
) -> Read[tuple[dict[str, str], str]]:
    """Read ``name="value"`` attributes up to one of ``ends``; return them and the end found.

    Values run to the next ``"`` (``unescape`` decodes them when the format escapes them).
    """
    attrs: dict[str, str] = {}
    stops = ("=", *ends)
    while True:
        yield from r.ws()
        end = yield from r.accept(*ends)
        if end:
            return attrs, end
        text, marker = yield from r.until(stops)
        key = text.strip()
        if marker != "=" or not _ATTR_NAME.match(key):
            raise r.fail(f"bad attribute {text.strip()[:40]!r}")
        yield from r.ws()
        yield from r.expect('"')
        value, _ = yield from r.until(('"',))
        attrs[key] = unescape(value) if unescape is not None else value


def _streams_as_string(declared: Declared, schema: Mapping[str, Any] | None) -> bool:
    types = schema_types(schema)
    if declared == "string":
        return not types or "string" in types
    return declared is None and types == {"string"}


def typed_value(raw: str, declared: Declared, schema: Mapping[str, Any] | None) -> Any:
    """Type a raw value by what the format declares, then by the parameter's schema.

    ``"string"``: the text verbatim (typed by the schema only when the schema rules out a
    string). ``"json"``: the decoded JSON (the text itself when the schema is a plain string
    and the JSON is not one); text that is not JSON follows the schema rules of
    :func:`~tooletta.toolkit.coerce_value`, which keep the raw text when nothing fits.
    ``None`` (undeclared): :func:`~tooletta.toolkit.coerce_value` alone.
    """
    types = schema_types(schema)
    if declared == "string":
        return raw if not types or "string" in types else _coerce(raw, schema)
    if declared == "json":
        ok, value = decode_json(raw.strip())
        if not ok:
            return _coerce(raw, schema)
        if types == {"string"} and not isinstance(value, str):
            return raw
        return value
    return _coerce(raw, schema)


def read_value(
    r: Reader,
    w: ArgsWriter,
    key: str,
    declared: Declared,
    ends: MarkerSet,
    erased: frozenset[str] = frozenset(),
) -> Read[str]:
    """Read the value of ``key`` up to the first of ``ends`` and write it; return the end found.

    ``ends`` may include ``erased`` markers, which are dropped from the value (a leaked
    end-of-turn token) instead of ending it. A string value streams as it arrives; any other
    value is typed by :func:`typed_value` once it has closed.
    """
    schema = w.schema(key)
    w.key(key)
    parts: list[str] = []
    as_string = _streams_as_string(declared, schema)
    sink: Callable[[str], None] = parts.append
    if as_string:
        w.open_string()

        def sink(text: str) -> None:
            parts.append(text)
            w.string_part(text)

    while True:
        _, marker = yield from r.until(ends, sink)
        if marker not in erased:
            break
    raw = "".join(parts)
    if as_string:
        w.close_string(key, raw)
    else:
        w.value(key, typed_value(raw, declared, schema))
    return marker
