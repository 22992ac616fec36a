"""VCPToolBox tool requests: ``<<<[TOOL_REQUEST]>>>`` blocks of ``key:「始」value「末」`` fields.

VCPToolBox (lioensky/VCPToolBox) injects this protocol into any model's system prompt and
parses the reply itself (``modules/vcpLoop/toolCallParser.js``). A call looks like::

    <<<[TOOL_REQUEST]>>>
    tool_name:「始」get_weather「末」,
    city:「始」Paris「末」,
    days:「始」3「末」
    <<<[END_TOOL_REQUEST]>>>

Fields are ``KEY:「始」VALUE「末」`` (KEY is ASCII ``[A-Za-z0-9_]+``), in any order, separated by
whitespace and/or one comma; values are raw text that may span lines and are trimmed.
``tool_name`` names the call; ``archery``, ``ink``, ``river`` and ``vref`` are VCP's execution
controls, not arguments, and are left out; every other key is an argument (``command`` and
``maid`` included). A value written ``「始ESCAPE」…「末ESCAPE」`` may hold the markers; the
escaped literals ``<<<[TOOL_REQUEST_ESCAPE]>>>``, ``<<<[END_TOOL_REQUEST_ESCAPE]>>>`` and
``「始ESCAPE」`` are restored as VCP does. ``<think>`` … ``</think>`` is reasoning.

Values are typed by the request's tool schemas (string parameters stream as they arrive;
without a schema a value that is valid JSON is decoded, as for every untyped dialect; VCP
itself keeps every value a string). Deviations from VCP, all in malformed input: a block
without a ``tool_name``, or with a value whose ``「末」`` never came, is kept as unparsed data
(VCP skips the first and keeps the fields before the second); the fuzzy marker matcher (off by
default in VCP) and the ``valet`` -> ``maid`` mirroring (a server-side convenience) are not
applied; only spaces, tabs and newlines are trimmed from values.

Rendering follows the documented layout (one field per line, ``,`` after all but the last);
non-string values are written as compact JSON (as VCP's JS encoder's ``JSON.stringify``).
Values that cannot be written so they read back the same are refused with a ``RenderError``:
those holding ``「末」``, ``「始ESCAPE」`` or the end marker, or with leading/trailing
whitespace (VCP trims it); so are keys that are not ``[A-Za-z0-9_]+`` or are control keys.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl
from tooletta.plugin import (
    ArgsWriter,
    Block,
    Grammar,
    MarkerSet,
    Read,
    Reader,
    Trimmer,
    coerce_value,
    is_string_schema,
    kinds_of,
    one_shot,
    reasoning_region,
    trim_text,
    typed,
)

__all__ = [
    "CLOSE",
    "CONTROL_KEYS",
    "OPEN",
    "VALUE_END",
    "VALUE_START",
    "VcpDialect",
    "read_request",
    "register_dialects",
]

OPEN = "<<<[TOOL_REQUEST]>>>"
"""Opens a tool request block."""
CLOSE = "<<<[END_TOOL_REQUEST]>>>"
"""Ends a tool request block."""
VALUE_START = "「始」"
"""Opens a field value (U+300C U+59CB U+300D)."""
VALUE_END = "「末」"
"""Ends a field value (U+300C U+672B U+300D)."""
ESCAPE_START = "「始ESCAPE」"
ESCAPE_END = "「末ESCAPE」"
NAME_KEY = "tool_name"
CONTROL_KEYS = frozenset({"archery", "ink", "river", "vref"})
"""VCP's execution controls (async call, history marking, ...): not tool arguments."""

_RESTORE = {
    "<<<[TOOL_REQUEST_ESCAPE]>>>": OPEN,
    "<<<[END_TOOL_REQUEST_ESCAPE]>>>": CLOSE,
    ESCAPE_START: VALUE_START,
}
_ESCAPE_ENDS = (ESCAPE_END, *_RESTORE)
_PLAIN_ENDS = (VALUE_END, CLOSE)
_KEY = re.compile(r"[A-Za-z0-9_]+")
_KEY_CHAR = re.compile(r"[A-Za-z0-9_]")
_SEPARATORS = re.compile(r"[ \t\r\n,]*")
_JUNK = re.compile(r"[^A-Za-z0-9_ \t\r\n,<]+")
_SPACE = " \t\r\n"


def _separators(r: Reader) -> Read[None]:
    """Skip whitespace and commas between fields (waits until something else comes)."""
    while True:
        m = _SEPARATORS.match(r.buf, r.pos)
        r.pos = m.end() if m else r.pos
        if r.pos < len(r.buf) or r.final:
            return
        yield


def _key(r: Reader) -> Read[str]:
    """A field key, or "" after skipping text that cannot start one (as VCP's scanner does)."""
    ch = yield from r.peek()
    if not ch:
        raise r.fail("text ended inside a tool request")
    if not _KEY_CHAR.match(ch):
        m = _JUNK.match(r.buf, r.pos)
        r.pos = m.end() if m else r.pos + 1
        return ""
    parts: list[str] = []
    while True:
        m = _KEY.match(r.buf, r.pos)
        if m is None:  # the key ended exactly at the end of the previous piece
            return "".join(parts)
        parts.append(m.group())
        r.pos = m.end()
        if r.pos < len(r.buf) or r.final:
            return "".join(parts)
        yield


def _value(r: Reader, sink: Callable[[str], None], escape: bool) -> Read[None]:
    """Pass a value's raw text to ``sink`` up to and through its end marker."""
    if escape:
        while True:
            _, marker = yield from r.until(_ESCAPE_ENDS, sink)
            if marker == ESCAPE_END:
                return
            sink(_RESTORE[marker])
    _, marker = yield from r.until(_PLAIN_ENDS, sink)
    if marker == CLOSE:
        raise r.fail(f"a value without {VALUE_END!r} before the end of the tool request")


def _pair(w: ArgsWriter, key: str, raw: str) -> None:
    """Write a whole key/value pair typed by the schema (text that cannot be decoded, such as
    a lone surrogate, stays text)."""
    schema = w.schema(key)
    try:
        value = coerce_value(raw, schema)
    except UnicodeError:
        value = raw
    w.key(key)
    w.value(key, value)


def _raw(r: Reader, escape: bool) -> Read[str]:
    """A whole value, trimmed."""
    parts: list[str] = []
    yield from _value(r, parts.append, escape)
    return trim_text("".join(parts), "space")


def read_request(r: Reader) -> Read[None]:
    """One ``<<<[TOOL_REQUEST]>>>`` block, from after its opening marker through its end.

    Fields read before ``tool_name`` are held (the call cannot start without its name); after
    it, string values stream as they arrive and other values are typed when they close.
    """
    name: str | None = None
    w: ArgsWriter | None = None
    held: list[tuple[str, str]] = []
    while True:
        yield from _separators(r)
        if (yield from r.accept(CLOSE)):
            break
        key = yield from _key(r)
        if not key:
            continue
        yield from r.ws()
        if not (yield from r.accept(":")):
            continue
        yield from r.ws()
        opener = yield from r.accept(ESCAPE_START, VALUE_START)
        if not opener:
            continue
        escape = opener == ESCAPE_START
        if key == NAME_KEY:
            value = yield from _raw(r, escape)
            if not value:
                continue
            if name is None:
                name = value
                r.start_call(name)
                w = ArgsWriter(r, name)
                for k, raw in held:
                    _pair(w, k, raw)
            elif value != name:
                raise r.fail(f"two tool names in one request: {name!r} and {value!r}")
        elif key in CONTROL_KEYS:
            yield from _raw(r, escape)
        elif w is None:
            held.append((key, (yield from _raw(r, escape))))
        elif is_string_schema(w.schema(key)):
            w.key(key)
            w.open_string()
            out = Trimmer(w.string_part, "space")
            yield from _value(r, out.feed, escape)
            w.close_string(key, out.close())
        else:
            _pair(w, key, (yield from _raw(r, escape)))
    if w is None:
        raise r.fail("a tool request without a tool_name")
    w.close()


_VALUE_ENDS = MarkerSet(_PLAIN_ENDS)
_FAST_FIELD = re.compile(r"[ \t\r\n,]*([A-Za-z0-9_]+)[ \t\r\n]*:[ \t\r\n]*「始」")
"""Separators, then a field's key and its plain value opener (the common case)."""


@one_shot
def fast_request(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_request` for a request of plain fields (escaped
    values and anything else are left to the reader)."""
    name: str | None = None
    held: list[tuple[str, str]] = []
    values: dict[str, Any] = {}
    kinds: Any = None
    kind: Any = None
    while True:
        m = _FAST_FIELD.match(text, pos)
        if m is None:
            pos = _SEPARATORS.match(text, pos).end()  # type: ignore[union-attr]
            if text.startswith(CLOSE, pos):
                pos += len(CLOSE)
                break
            return -1  # junk, a key without a value, an escaped value: left to the reader
        key = m.group(1)
        pos = m.end()
        end, marker = _VALUE_ENDS.find(text, pos)  # where the reader's until() stops
        if marker != VALUE_END:
            return -1  # the request's end before the value's: the reader fails
        raw = text[pos:end]
        pos = end + len(VALUE_END)
        if key == NAME_KEY:
            value = trim_text(raw, "space")
            if not value:
                continue
            if name is None:
                name = value
                kinds, kind = kinds_of(tools, name)
                for k, r in held:
                    values[k] = _typed(r, (kinds.get(k) or kind(name, k))[1])
            elif value != name:
                return -1
        elif key in CONTROL_KEYS:
            continue
        elif name is None:
            held.append((key, trim_text(raw, "space")))
        else:
            t, schema = kinds.get(key) or kind(name, key)
            values[key] = typed(raw, t, schema, "space")
    if name is None:
        return -1
    calls.append(ToolCall(name, values))
    return pos


def _typed(raw: str, schema: Any) -> Any:
    """What :func:`_pair` writes for a trimmed value."""
    try:
        return coerce_value(raw, schema)
    except UnicodeError:
        return raw


def _text(value: Any) -> str:
    """A value as VCP text: strings verbatim, anything else as compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class VcpDialect(ScannerDialect):
    """VCPToolBox ``<<<[TOOL_REQUEST]>>>`` blocks with ``key:「始」value「末」`` fields."""

    info = DialectInfo(
        name="vcp",
        priority=90,
        markers=(OPEN,),
        description="VCPToolBox: <<<[TOOL_REQUEST]>>> key:「始」value「末」 ... "
        "<<<[END_TOOL_REQUEST]>>>",
        source="lioensky/VCPToolBox modules/vcpLoop/toolCallParser.js and plugin docs",
    )
    grammar = Grammar(
        blocks=(
            Block(OPEN, read_request, close=CLOSE, fast=fast_request),
            reasoning_region("<think>", "</think>"),
        )
    )
    content_separator = "\n"

    def _field(self, key: str, value: Any) -> str:
        text = _text(value)
        for bad in (VALUE_END, ESCAPE_START, CLOSE):
            if bad in text:
                raise self.error(f"the value of {key!r} contains {bad!r}")
        if text != text.strip():
            raise self.error(f"the value of {key!r} has leading or trailing whitespace")
        return f"{key}:{VALUE_START}{text}{VALUE_END}"

    def _request(self, call: ToolCall) -> str:
        if not call.name:
            raise self.error("a VCP tool request needs a non-empty tool name")
        fields = [self._field(NAME_KEY, call.name)]
        for key, value in call.arguments.items():
            if not _KEY.fullmatch(key):
                raise self.error(f"argument name {key!r} is not [A-Za-z0-9_]+")
            if key == NAME_KEY or key in CONTROL_KEYS:
                raise self.error(f"argument name {key!r} is reserved by VCP")
            fields.append(self._field(key, value))
        return f"{OPEN}\n" + ",\n".join(fields) + f"\n{CLOSE}"

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Each call as one tool request block, blocks joined by a newline."""
        return "\n".join(self._request(c) for c in calls)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the vcp dialect."""
    register(VcpDialect())
