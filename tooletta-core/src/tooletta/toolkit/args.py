"""Building a call's arguments as JSON text, incrementally, from typed key/value pairs.

XML and key/value dialects read one parameter at a time. :class:`ArgsWriter` turns those pairs into
the arguments JSON a stream sends (``{"city": "Paris", "days": 3}``), fragment by fragment, and into
the dict one-shot parsing returns. :func:`~tooletta.toolkit.typed_value` reads one raw value up to
its closing marker: a ``string`` parameter streams character by character as it arrives; any other
value is typed (see :mod:`tooletta.toolkit.schema`) when it closes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from json.encoder import encode_basestring  # what json.dumps(str, ensure_ascii=False) uses
from typing import Any

import msgspec

from ..engine.markers import MarkerSet
from ..engine.reader import Read, Reader
from ..engine.trim import Trimmer, trim_text
from ..limits import MAX_DEPTH, too_deep
from .schema import coerce_value, is_string_schema

__all__ = ["ArgsWriter", "one_shot_value", "typed_value"]


_decode = msgspec.json.decode
_SHALLOW = 2 * MAX_DEPTH
"""JSON text no longer than this cannot nest deeper than MAX_DEPTH (see ``too_deep``)."""


def _escape(text: str) -> str:
    """The inside of a JSON string literal for ``text``."""
    return encode_basestring(text)[1:-1]


def _dumps(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False)``, without building an encoder for a string."""
    if type(value) is str:
        return encode_basestring(value)
    return json.dumps(value, ensure_ascii=False)


class ArgsWriter:
    """Writes one call's arguments: ``key()``, then a value, per parameter; ``close()`` last.

    In one-shot parsing (``r.deltas`` false) no JSON text is written: only the dict is built.
    """

    __slots__ = ("_frag", "_r", "_started", "tool", "values")

    def __init__(self, r: Reader, tool: str):
        self._r = r
        self._frag = r.deltas  # write JSON fragments (only a stream sends them)
        self._started = False
        self.tool = tool
        self.values: dict[str, Any] = {}

    def schema(self, key: str) -> Mapping[str, Any] | None:
        """The schema of parameter ``key`` of this tool (``None`` when unknown)."""
        return self._r.tools.param(self.tool, key) if self._r.tools else None

    def key(self, key: str) -> None:
        """Start parameter ``key``."""
        if self._frag:
            self._r.args(f"{', ' if self._started else '{'}{_dumps(key)}: ")
        self._started = True

    def value(self, key: str, value: Any) -> None:
        """Write a whole typed value for ``key`` (after :meth:`key`)."""
        self.values[key] = value
        if self._frag:
            self._r.args(_dumps(value))

    def string_part(self, text: str) -> None:
        """Write part of a string value (after :meth:`open_string`)."""
        if text and self._frag:
            self._r.args(_escape(text))

    def open_string(self) -> None:
        """Begin a streamed string value."""
        if self._frag:
            self._r.args('"')

    def close_string(self, key: str, value: str) -> None:
        """End a streamed string value whose whole text is ``value``."""
        self.values[key] = value
        if self._frag:
            self._r.args('"')

    def close(self) -> None:
        """Finish the arguments and end the call."""
        if self._frag:
            self._r.args("}" if self._started else "{}")
        self._r.end_call(self.values)

    def pair(self, key: str, raw: str) -> None:
        """Write a whole key/value pair, typing ``raw`` by the schema."""
        self.key(key)
        self.value(key, coerce_value(raw, self.schema(key)))


def typed_value(
    r: Reader,
    w: ArgsWriter,
    key: str,
    ends: Sequence[str] | MarkerSet,
    *,
    trim: str = "",
    eof: bool = False,
) -> Read[str]:
    """Read the value of ``key`` up to the first of ``ends`` and write it typed; return the end
    marker found ("" at the end of the text when ``eof``).

    ``trim`` is the framing the template adds around values: ``"newline"`` strips exactly one
    newline on each side (Qwen3-Coder), ``"space"`` strips all surrounding whitespace, ``""``
    keeps the text verbatim. A string parameter streams as it arrives, holding back only what
    ``trim`` might still remove.
    """
    w.key(key)
    schema = w.schema(key)
    if not is_string_schema(schema):
        raw, marker = yield from r.until(ends, eof=eof)
        w.value(key, coerce_value(trim_text(raw, trim), schema))
        return marker
    if not r.deltas:
        # one-shot: nothing streams, so the whole value at once (what a Trimmer gives for it)
        raw, marker = yield from r.until(ends, eof=eof)
        w.close_string(key, trim_text(raw, trim))
        return marker
    w.open_string()
    out = Trimmer(w.string_part, trim)
    _, marker = yield from r.until(ends, out.feed, eof=eof)
    w.close_string(key, out.close())
    return marker


_MAX_DIGITS = 4300
"""Digits ``int()`` converts under Python's default limit (longer: ``coerce_value`` decides)."""


def one_shot_value(raw: str, kind: str, schema: Mapping[str, Any] | None) -> Any:
    """``coerce_value(raw, schema)``, quicker for the common one-type schemas; ``kind`` is
    the type :meth:`~tooletta.toolkit.ToolSchemas.kind` gives for ``schema``.

    Same result and same exceptions as :func:`~tooletta.toolkit.coerce_value`.
    """
    if kind == "string":
        return raw
    if kind == "integer" or kind == "number":
        if raw.isdecimal() and len(raw) <= _MAX_DIGITS:  # ``[+-]?\d+``, nothing to strip
            return int(raw)
    elif kind == "object":
        try:  # around it only JSON whitespace, what strip() removes
            value = _decode(raw)
        except (msgspec.DecodeError, UnicodeError, RecursionError):
            pass  # coerce_value says what it is (a string, or BlockError when too deep)
        else:  # decode_bounded(raw) without the calls: no deeper than MAX_DEPTH
            if type(value) is dict and (len(raw) <= _SHALLOW or not too_deep(raw, value)):
                return value
    elif kind == "boolean":
        if raw == "true":
            return True
        if raw == "false":
            return False
    return coerce_value(raw, schema)
