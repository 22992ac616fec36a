"""One-shot pieces for the fast readers (``Block.fast``) of XML-like formats.

A fast reader reads a whole block with ``str.find`` and types each value with the very
functions the block's reader uses, so that it gives exactly what the reader gives; anything
the reader treats specially it declines (returns ``-1``) and the reader reads the block.

* :func:`one_shot` wraps a fast reader: an exception the typing raises (JSON nested too
  deeply, a lone surrogate...) and a decline both leave ``calls`` as they were and return
  ``-1``, so the reader reads the block (and reports what it reports);
* :func:`kinds_of` finds what a parameter is typed by, the schema
  :meth:`ArgsWriter.schema <tooletta.toolkit.ArgsWriter.schema>` gives;
* :func:`typed` types a raw value as :func:`tooletta.toolkit.typed_value` does, and
  :func:`declared_value` one whose type the format declares as
  :func:`tooletta.toolkit.reading.read_value` does;
* :func:`skip_ws` (and :data:`SPACE_RUN`) skips what
  :meth:`Reader.ws <tooletta.engine.Reader.ws>` skips, :func:`skip_gap` the short
  whitespace gap a reader allows before a tag, :func:`tag_end` finds a closing tag
  where :meth:`Reader.until <tooletta.engine.Reader.until>` finds it;
* :func:`scan_attrs` reads ``key="value"`` attributes as
  :func:`tooletta.toolkit.reading.read_attrs` does;
* :func:`scan_arguments` reads the argument elements of one call (``<parameter name="K">V
  </parameter>`` and its kin) through the call's closing tag: the loop every one-shot
  reader of such a format runs, with the format's own start tags and values.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from ..engine import FastReader, MarkerSet
from ..engine.jsonread import decode_bounded
from ..engine.trim import trim_text
from ..ir import ToolCall
from .args import one_shot_value
from .reading import Declared
from .reading import typed_value as declared_typed

__all__ = [
    "MAX_GAP",
    "SPACE_RUN",
    "Kind",
    "declared_value",
    "kinds_of",
    "one_shot",
    "scan_arguments",
    "scan_attrs",
    "skip_gap",
    "skip_ws",
    "tag_end",
    "typed",
]

_SPACE = " \t\r\n"
SPACE_RUN = re.compile(r"[ \t\r\n]*")
"""The whitespace ``Reader.ws`` skips (``SPACE_RUN.match(text, i).end()``: where it stops)."""
MAX_GAP = 64
"""The most whitespace the XML and key/value readers look through for a tag (:func:`skip_gap`)."""
_READ_ATTR_NAME = re.compile(r"[A-Za-z_][\w.:-]*\Z")
"""The attribute names :func:`~tooletta.toolkit.reading.read_attrs` accepts."""
Kind = tuple[str, Mapping[str, Any] | None]
"""What a value is typed by (its one JSON type, "" when not one, and its schema)."""
ArgumentTag = Callable[[str, int], "tuple[str, str | None, int] | None"]
"""Reads an argument's start tag in the whole text from a position: ``(key, flag, position
after the tag)``, ``flag`` being what the tag says of the value (a type or ``string="true"``
attribute, ``None`` when it says nothing), or ``None`` where it is not one (see
:func:`scan_arguments`)."""
ArgumentValue = Callable[[str, int, str, "str | None"], "tuple[Any, int] | None"]
"""Reads an argument's value and closing tag in the whole text from a position, given its key
and flag: ``(value, position after the closing tag)``, or ``None`` where the reader would
fail (see :func:`scan_arguments`)."""
_NO_KINDS: Mapping[str, Kind] = {}


def one_shot(fast: FastReader) -> FastReader:
    """``fast`` made safe: when it declines (``-1``) or raises (typing met JSON nested too
    deeply, a lone surrogate, a huge integer...), the calls it appended are removed and
    ``-1`` is returned, so the reader reads the block and reports what it reports."""

    def wrapped(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        n = len(calls)
        try:
            end = fast(text, pos, tools, calls)
        except Exception:  # the reader meets it too, and reports it its own way
            end = -1
        if end < 0:
            del calls[n:]
        return end

    wrapped.__doc__ = fast.__doc__
    return wrapped


def tag_end(text: str, i: int, want: str, stops: tuple[str, ...]) -> int:
    """Where ``want`` first occurs from ``i`` if it comes before every tag of ``stops``,
    else -1 (also when neither comes).

    What ``Reader.until((want, *stops))`` finds, for tags that begin with ``<`` and hold no
    other ``<`` (so no two overlap): it looks at each ``<`` in turn and stops at the first
    of those tags, so it reads no further than the reader.
    """
    while True:
        j = text.find("<", i)
        if j < 0 or text.startswith(want, j):
            return j
        if text.startswith(stops, j):
            return -1
        i = j + 1


def skip_ws(text: str, pos: int) -> int:
    """The first position at or after ``pos`` that is not a space, tab or line break."""
    if pos < len(text) and text[pos] in _SPACE:
        return SPACE_RUN.match(text, pos).end()  # type: ignore[union-attr]
    return pos


def skip_gap(text: str, pos: int) -> tuple[int, int]:
    """``(i, gap_end)``: ``i`` the first position at or after ``pos`` that is not a space,
    tab or line break, looking no further than ``gap_end`` (:data:`MAX_GAP` characters on,
    or the end of ``text``); ``i == gap_end < len(text)`` when the gap is too long."""
    gap_end = min(len(text), pos + MAX_GAP)
    i = pos
    while i < gap_end and text[i] in _SPACE:
        i += 1
    return i, gap_end


def _no_kind(tool: str, key: str) -> tuple[str, None]:
    """What a value is typed by without tools: no schema."""
    return "", None


def kinds_of(tools: Any, tool: str) -> tuple[Mapping[str, Kind], Callable[[str, str], Kind]]:
    """``(kinds, kind)`` for the values of ``tool``: ``kinds.get(key) or kind(tool, key)`` is
    the ``(type, schema)`` a value of ``key`` is typed by (see
    :meth:`~tooletta.toolkit.ToolSchemas.kind`), the schema ``ArgsWriter.schema`` gives."""
    if tools is None:
        return _NO_KINDS, _no_kind
    return tools.kinds(tool), tools.kind


def typed(raw: str, kind: str, schema: Mapping[str, Any] | None, trim: str = "") -> Any:
    """The value :func:`tooletta.toolkit.typed_value` writes for the raw text ``raw`` of a
    parameter typed by ``(kind, schema)`` (:func:`kinds_of`): a string's text trimmed by
    ``trim``, any other value typed by its schema. May raise (see :func:`one_shot`)."""
    if trim:
        raw = trim_text(raw, trim)
    return raw if kind == "string" else one_shot_value(raw, kind, schema)


def declared_value(
    raw: str, declared: Declared, kind: str, schema: Mapping[str, Any] | None
) -> Any:
    """The value :func:`tooletta.toolkit.reading.read_value` writes for the raw text ``raw``
    of a parameter the format declares ``declared`` and typed by ``(kind, schema)``
    (:func:`kinds_of`). May raise (see :func:`one_shot`)."""
    if declared == "string":
        if kind == "string":
            return raw
    elif declared == "json" and kind != "string":
        try:  # decode_json(raw.strip()): JSON whitespace around the value is all strip() drops
            return decode_bounded(raw)
        except (msgspec.DecodeError, UnicodeError):
            pass
    return declared_typed(raw, declared, schema)


def scan_attrs(
    text: str,
    pos: int,
    ends: MarkerSet,
    unescape: Callable[[str], str] | None = None,
) -> tuple[dict[str, str], str, int] | None:
    """Read ``name="value"`` attributes from ``pos`` as
    :func:`~tooletta.toolkit.reading.read_attrs` with the same ``ends`` does, in the whole
    text: ``(attrs, end marker, position after it)``, or ``None`` where it would fail.

    ``ends`` holds the end markers and ``"="`` (``MarkerSet(("=", *ends))``)."""
    attrs: dict[str, str] = {}
    while True:
        pos = skip_ws(text, pos)
        end = ends.match(text, pos, True)
        if end and end != "=":
            return attrs, end, pos + len(end)
        i, marker = ends.find(text, pos)
        if marker != "=":
            return None
        key = text[pos:i].strip()
        if not _READ_ATTR_NAME.match(key):
            return None
        pos = skip_ws(text, i + 1)
        if not text.startswith('"', pos):
            return None
        close = text.find('"', pos + 1)
        if close < 0:
            return None
        value = text[pos + 1 : close]
        attrs[key] = unescape(value) if unescape is not None else value
        pos = close + 1


def scan_arguments(
    text: str,
    pos: int,
    name: str,
    calls: list[ToolCall],
    *,
    opener: str,
    closer: str,
    common: ArgumentTag,
    tag: ArgumentTag,
    value: ArgumentValue,
) -> int:
    """The argument elements of the call ``name`` from ``pos`` through ``closer`` (the call's
    closing tag), the call appended to ``calls``: the position after ``closer``, or ``-1``
    where the block's reader would fail.

    Each argument is tried first with ``common`` (whitespace and the start tag as the model
    usually writes it, one regular expression); otherwise whitespace is skipped, ``closer``
    ends the call, and anything but ``opener`` (the start tag's fixed head) declines; ``tag``
    reads the rest of the start tag from after ``opener``. ``value`` then reads the value and
    its closing tag. A key written twice keeps its last value. Typing may raise (wrap the
    fast reader in :func:`one_shot`).
    """
    values: dict[str, Any] = {}
    while True:
        got = common(text, pos)
        if got is None:
            pos = skip_ws(text, pos)
            if text.startswith(closer, pos):
                calls.append(ToolCall(name, values))
                return pos + len(closer)
            if not text.startswith(opener, pos):
                return -1
            got = tag(text, pos + len(opener))
            if got is None:
                return -1
        key, flag, pos = got
        read = value(text, pos, key, flag)
        if read is None:
            return -1
        values[key], pos = read
