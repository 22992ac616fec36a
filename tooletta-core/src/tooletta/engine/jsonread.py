"""Resumable JSON primitives: scan a JSON value as it arrives, verbatim, in linear time.

The scanner tracks only what decides where a value ends: nesting depth, whether it is inside
a string, and escapes. Between structural characters it skips ahead with one regular-expression
search, so a long string or number costs one C-level scan. Validation of the finished value is
left to ``msgspec`` (one decode per call), which is both strict and fast.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

import msgspec

from ..ir import ToolCall
from ..limits import MAX_DEPTH, too_deep
from .reader import DONE, BlockError, Read, Reader

__all__ = [
    "IGNORED_CALL_KEYS",
    "MAX_DEPTH",
    "decode_bounded",
    "json_call_array",
    "json_call_object",
    "json_key",
    "json_next",
    "json_string",
    "json_value",
    "loads",
    "too_deep",
]


_SPACE = " \t\r\n"
_WS = re.compile(r"[ \t\r\n]*")
_RUN = re.compile(r'[^"{}\[\]]*(?:"[^"\\]*(?:\\[\s\S][^"\\]*)*"[^"{}\[\]]*)*')
"""Plain text and complete strings inside a container: everything up to the next bracket or
the opening quote of a string the text does not close yet."""
_IN_STRING = re.compile(r'["\\]')
_SCALAR_END = re.compile(r"[\s,}\]:;<\[{\"]")
_decode = msgspec.json.decode


IGNORED_CALL_KEYS: Mapping[str, str] = MappingProxyType({"type": "function"})
"""Keys a call object may hold besides its name, arguments and id, each with the one value
that carries nothing (OpenAI's ``"type": "function"`` tag, which Llama 3.2 writes too). Any
other key, or another value, is data the call would lose: :func:`json_call_object` refuses
the object (unparsed in lenient mode)."""


def ignored_call_key(key: str, value: Any) -> bool:
    """Whether the member ``key: value`` (decoded) of a call object carries nothing
    (``IGNORED_CALL_KEYS``)."""
    wanted = IGNORED_CALL_KEYS.get(key)
    return wanted is not None and type(value) is str and value == wanted


def loads(text: str, position: int | None = None) -> Any:
    """Decode JSON text, turning a decode failure (or nesting deeper than
    :data:`~tooletta.engine.MAX_DEPTH`) into a :class:`BlockError`."""
    try:
        return decode_bounded(text, position)
    except (msgspec.DecodeError, UnicodeError) as exc:
        raise BlockError(f"invalid JSON: {exc}", position) from None


_TOO_DEEP = f"JSON nested deeper than {MAX_DEPTH}"
_SHORT = 2 * MAX_DEPTH  # no shorter text nests deeper than MAX_DEPTH (see too_deep)


def decode_bounded(text: str | bytes, position: int | None = None) -> Any:
    """Decode JSON text with msgspec, refusing nesting deeper than
    :data:`~tooletta.engine.MAX_DEPTH`.

    Such nesting, however deep, raises :class:`BlockError` (never ``RecursionError``); text
    that is not JSON raises ``msgspec.DecodeError`` or ``UnicodeError`` as msgspec does, for
    callers that keep such text as it is.
    """
    try:
        value = _decode(text)
    except RecursionError:
        raise BlockError(_TOO_DEEP, position) from None
    if len(text) > _SHORT and too_deep(text, value):
        raise BlockError(_TOO_DEEP, position)
    return value


def json_value(
    r: Reader, sink: Callable[[str], None] | None = None, *, keep: bool = True
) -> Read[str]:
    """Read one JSON value starting at ``r.pos`` (after optional whitespace) and return its text.

    With ``sink``, the value's text is also passed on fragment by fragment as it arrives.
    Objects, arrays and strings end at their closing character; a bare scalar (number,
    ``true``...) ends at the first character that cannot belong to it.

    ``keep=False`` (with a ``sink`` that has the text): an object, array or string is not kept
    while it streams in, and "" is returned for it (a stream holding a long value then holds
    it once, not once more as fragments here).
    """
    yield from r.ws()
    first = yield from r.peek()
    if not first:
        raise r.fail("expected a JSON value")
    parts: list[str] = []
    start = r.pos
    if first in "{[":
        # the fast path: the whole value has arrived (always so in one-shot parsing)
        text = _whole_value(r, start, "}" if first == "{" else "]")
        if text is not None:
            if sink is not None:
                sink(text)
            return text if keep or sink is None else ""
    if first in '{["':
        depth = 0
        in_string = first == '"'
        scan = start + 1 if in_string else start
        while True:
            buf = r.buf
            n = len(buf)
            done = False
            while scan < n:
                if in_string:
                    m = _IN_STRING.search(buf, scan)
                    if m is None:
                        scan = n
                        break
                    if m.group() == "\\":
                        if m.end() >= n:
                            scan = m.start()  # wait for the escaped character
                            break
                        scan = m.end() + 1
                        continue
                    in_string = False
                    scan = m.end()
                    if depth == 0:
                        done = True
                        break
                    continue
                # inside a container: skip plain text and whole strings in one C-level match
                scan = _RUN.match(buf, scan).end()  # type: ignore[union-attr]
                if scan >= n:
                    break
                ch = buf[scan]
                scan += 1
                if ch == '"':
                    in_string = True  # a string the text so far does not close
                elif ch in "{[":
                    depth += 1
                    if depth > MAX_DEPTH:
                        raise BlockError(f"JSON nested deeper than {MAX_DEPTH}", scan - 1)
                else:
                    depth -= 1
                    if depth <= 0:
                        done = True
                        break
            piece = buf[start:scan]
            if sink is not None and piece:
                sink(piece)
            if done:
                r.pos = scan
                if not keep and sink is not None:
                    return ""
                if parts:
                    parts.append(piece)
                    return "".join(parts)
                return piece
            if keep or sink is None:
                parts.append(piece)
            r.pos = scan
            start = scan
            if r.final:
                raise BlockError("text ended inside a JSON value", r.pos)
            yield
            scan = r.pos
            start = r.pos
    # a scalar
    while True:
        m = _SCALAR_END.search(r.buf, r.pos)
        if m is not None or r.final:
            end = m.start() if m is not None else len(r.buf)
            piece = r.buf[r.pos : end]
            r.pos = end
            parts.append(piece)
            if sink is not None and piece:
                sink(piece)
            text = "".join(parts)
            if not text:
                raise r.fail("expected a JSON value")
            return text
        piece = r.buf[r.pos :]
        r.pos = len(r.buf)
        parts.append(piece)
        if sink is not None and piece:
            sink(piece)
        yield


_FAST_TRIES = 8
"""Closing brackets a value is tried to end at before it is scanned character-class-wise."""


def _whole_value(r: Reader, start: int, closer: str) -> str | None:
    """The text of the object or array at ``start`` when it has fully arrived, else ``None``.

    Each ``closer`` where the brackets balance is tried, by msgspec, as the value's end: a
    complete JSON value is never a prefix of a longer one, so the first that decodes is the
    end the incremental scan would find (only text where strings hold brackets, or a value
    not complete yet, falls back to it). The decoded value is kept for ``end_call``.
    """
    buf = r.buf
    k = buf.find(closer, start + 1)
    tries = 0
    while k >= 0 and tries < _FAST_TRIES:
        tries += 1
        seg = buf[start : k + 1]
        braces = seg.count("{")
        if braces == seg.count("}"):
            squares = seg.count("[")
            if squares == seg.count("]") and braces + squares <= MAX_DEPTH:
                try:
                    value = _decode(seg)
                except (msgspec.DecodeError, UnicodeError, RecursionError):
                    pass
                else:
                    r.pos = k + 1
                    r._memo = (seg, value)
                    return seg
        k = buf.find(closer, k + 1)
    return None


def json_string(r: Reader) -> Read[str]:
    """Read a JSON string literal and return its decoded value."""
    yield from r.ws()
    ch = yield from r.peek()
    if ch != '"':
        raise r.fail("expected a JSON string")
    at = r.pos
    text = yield from json_value(r)
    value = loads(text, at)
    if not isinstance(value, str):  # pragma: no cover - json_value on '"' always gives a string
        raise BlockError("expected a JSON string", at)
    return value


def json_next(r: Reader, close: str, first: bool, *, trailing: bool = False) -> Read[bool]:
    """Step between the items of a JSON array (``close`` is ``"]"``) or the members of an
    object (``"}"``), read after the opening bracket or an item: skip whitespace; True when
    ``close`` ends the container (it is consumed); else, unless this is the ``first`` item, read
    the ``,`` and the whitespace after it, and False: the next item starts at ``r.pos``.
    ``trailing`` allows a comma before ``close``, as Python literals and Gemma's syntax do.

    The loop over a container is then::

        first = True
        while not (yield from json_next(r, "]", first)):
            first = False
            yield from read_item(r)
    """
    yield from r.ws()
    if (yield from r.accept(close)):
        return True
    if not first:
        yield from r.expect(",")
        yield from r.ws()
        if trailing and (yield from r.accept(close)):
            return True
    return False


def json_key(r: Reader) -> Read[str]:
    """Read an object member's key and the ``:`` after it (with the whitespace around it);
    the member's value starts at ``r.pos``."""
    key = yield from json_string(r)
    yield from r.ws()
    yield from r.expect(":")
    yield from r.ws()
    return key


def json_call_object(
    r: Reader,
    *,
    name_keys: tuple[str, ...] = ("name",),
    args_keys: tuple[str, ...] = ("arguments", "parameters"),
    id_keys: tuple[str, ...] = (),
    close: str | None = None,
) -> Read[None]:
    """Read one JSON object describing a call, such as ``{"name": ..., "arguments": {...}}``.

    Emits the call as it arrives: the name as soon as it is read, the arguments object verbatim
    fragment by fragment. ``close`` is the marker that follows the object in this dialect; when
    it has already arrived, the whole object is decoded by msgspec in one step (the fast path,
    taken only when it succeeds, with the same result as the incremental path). Arguments written
    as a JSON string holding an object are accepted too. A missing arguments key means ``{}``.
    A key that is none of ``name_keys``, ``args_keys`` and ``id_keys`` (except the ones of
    ``IGNORED_CALL_KEYS`` with their value), or one of them twice (two aliases included),
    is refused with a :class:`BlockError`: its data would otherwise be lost, so the object is
    kept as unparsed text (lenient) or raised (strict).
    """
    if close is not None:
        # the fast path, without a generator when the whole object has arrived
        buf = r.buf
        pos = r.pos
        if pos < len(buf) and buf[pos] in _SPACE:
            m = _WS.match(buf, pos)
            pos = m.end() if m else pos
        if pos < len(buf):
            r.pos = pos
            end = buf.find(close, pos)
            if end > pos:
                seg = buf[pos:end].rstrip()
                obj = _try_decode(seg)
                if obj is not None and _emit_whole(r, obj, name_keys, args_keys, id_keys, seg):
                    r.pos = end
                    return DONE
            return _json_call_object(r, name_keys, args_keys, id_keys, None)
    return _json_call_object(r, name_keys, args_keys, id_keys, close)


def _json_call_object(
    r: Reader,
    name_keys: tuple[str, ...],
    args_keys: tuple[str, ...],
    id_keys: tuple[str, ...],
    close: str | None,
) -> Read[None]:
    """The incremental path of :func:`json_call_object` (``close``: try the fast path first)."""
    yield from r.ws()
    if close is not None:
        end = r.find_ahead(close)
        if end > r.pos:
            seg = r.buf[r.pos : end].rstrip()
            obj = _try_decode(seg)
            if obj is not None and _emit_whole(r, obj, name_keys, args_keys, id_keys, seg):
                r.pos = end
                return
    yield from r.expect("{")
    name: str | None = None
    call_id: str | None = None
    held: list[str] | None = None  # argument text read before the name
    arguments: dict[str, Any] | None = None
    started = False
    first = True
    seen: list[tuple[str, ...]] = []  # which of the name, arguments and id keys were read
    while not (yield from json_next(r, "}", first)):
        first = False
        at = r.pos
        key = yield from json_key(r)
        group = _group_of(key, name_keys, args_keys, id_keys)
        if group is not None:
            if group in seen:
                raise BlockError(f"the call object has {key!r} twice (or an alias of it)", at)
            seen.append(group)
        if key in name_keys and name is None:
            name = yield from json_string(r)
            r.start_call(name, call_id)
            started = True
            if held is not None:
                for piece in held:
                    r.args(piece)
        elif key in args_keys and held is None and arguments is None:
            at = r.pos
            lead = yield from r.peek()
            if lead == '"':
                text = yield from json_string(r)
                arguments = _object_from_string(text, at)
                encoded = msgspec.json.encode(arguments).decode()
                held = [encoded]
                if started:
                    r.args(encoded)
            elif lead == "{":
                if started:
                    yield from json_value(r, r.args, keep=False)
                    held = []
                else:
                    text = yield from json_value(r)
                    held = [text]
            else:
                raise BlockError("arguments must be a JSON object", at)
        elif key in id_keys and call_id is None:
            value = loads((yield from json_value(r)), at)
            if value is not None:
                call_id = str(value)
                if started:
                    r.set_id(call_id)
        else:
            value = loads((yield from json_value(r)), r.pos)
            if not ignored_call_key(key, value):
                raise BlockError(f"unknown key {key!r} in the call object", at)
    if name is None:
        raise BlockError("tool call has no name", r.pos)
    if held is None:
        r.args("{}")
    r.end_call(arguments)


def _group_of(
    key: str, name_keys: tuple[str, ...], args_keys: tuple[str, ...], id_keys: tuple[str, ...]
) -> tuple[str, ...] | None:
    """The keys ``key`` is one of (name, arguments or id keys), or ``None``."""
    for group in (name_keys, args_keys, id_keys):
        if key in group:
            return group
    return None


def _try_decode(text: str) -> Any:
    """The decoded value, or ``None`` (then the incremental path decides, with its limits)."""
    if len(text) > MAX_DEPTH and text.count("[") + text.count("{") > MAX_DEPTH:
        return None  # possibly deeper than MAX_DEPTH: leave it to the depth-tracking path
    try:
        return _decode(text)
    except (msgspec.DecodeError, UnicodeError, RecursionError):
        return None


def _object_from_string(text: str, at: int) -> dict[str, Any]:
    value = loads(text, at) if text.strip() else {}
    if not isinstance(value, dict):
        raise BlockError("arguments must be a JSON object", at)
    return value


_ASCII_ESCAPE = re.compile(r"\\u00[2-7]")


def _plainly_spelled(seg: str) -> bool:
    """True when no JSON string in ``seg`` writes a printable ASCII character as an escape
    (``\\u0061``): then a string equal to an ASCII word is written as that word in quotes."""
    return "\\u00" not in seg or _ASCII_ESCAPE.search(seg) is None


def _mentions(values: list[Any], word: str) -> int:
    """How many strings equal ``word`` (dict keys included) anywhere inside ``values``."""
    count = 0
    stack = list(values)
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is str:
            if item == word:
                count += 1
        elif kind is dict:
            if word in item:
                count += 1
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
    return count


def _unrepeated(seg: str, have: dict[str, int], values: Callable[[], list[Any]]) -> bool:
    """True when no key of ``have`` can occur twice in one of the objects decoded from the
    JSON text ``seg``; ``have`` maps each key to how many of them have it (keys none has need
    not be there), ``values()`` gives all their values.

    Each occurrence of a key is a ``"key"`` in the text, and so is each string equal to it
    inside the values: the key is not repeated when the text holds no more than those.
    """
    if not _plainly_spelled(seg):
        return False
    inside: list[Any] | None = None
    for key, n in have.items():
        found = seg.count(f'"{key}"')
        if found != n:
            if inside is None:
                inside = values()
            if found - _mentions(inside, key) != n:
                return False
    return True


def _emit_whole(
    r: Reader,
    obj: Any,
    name_keys: tuple[str, ...],
    args_keys: tuple[str, ...],
    id_keys: tuple[str, ...],
    seg: str,
) -> bool:
    """Emit a fully decoded call object (decoded from ``seg``); False (emitting nothing) when
    it does not fit, or when a key that matters may be repeated (msgspec keeps the last copy,
    the key-by-key path the first: that path decides)."""
    if type(obj) is dict and not _keys_unrepeated(seg, obj, (*name_keys, *args_keys, *id_keys)):
        return False
    call = _call_of(obj, name_keys, args_keys, id_keys)
    if call is None:
        return False
    r.call(call.name, call.arguments, call.id)
    return True


def _keys_unrepeated(seg: str, obj: dict[str, Any], keys: tuple[str, ...]) -> bool:
    """True when none of ``keys`` that ``obj`` (decoded from ``seg``) has occurs twice in it."""
    return _unrepeated(seg, {k: 1 for k in keys if k in obj}, lambda: list(obj.values()))


def _call_of(
    obj: Any, name_keys: tuple[str, ...], args_keys: tuple[str, ...], id_keys: tuple[str, ...]
) -> ToolCall | None:
    """The call a fully decoded call object describes, or ``None`` when it does not fit."""
    if type(obj) is not dict:
        return None
    for key, value in obj.items():
        if (
            key not in name_keys
            and key not in args_keys
            and key not in id_keys
            and not ignored_call_key(key, value)
        ):
            return None  # the reader refuses it
    name: Any = None
    found = 0
    for k in name_keys:
        if k in obj:
            if not found:
                name = obj[k]
            found += 1
    if found > 1 or not isinstance(name, str):
        return None
    args: Any = _NO_ARGS
    found = 0
    for k in args_keys:
        if k in obj:
            args = obj[k]
            found += 1
    if found > 1:
        return None
    if args is _NO_ARGS:
        args = {}
    elif isinstance(args, str):
        try:
            args = _decode(args) if args.strip() else {}
        except (msgspec.DecodeError, UnicodeError):
            return None
    if not isinstance(args, dict):
        return None
    call_id: Any = None
    found = 0
    for k in id_keys:
        if k in obj:
            if not found:
                call_id = obj[k]
            found += 1
    if found > 1:
        return None
    return ToolCall(name, args, None if call_id is None else str(call_id))


_NO_ARGS: Any = object()


def json_call_array(
    r: Reader,
    *,
    name_keys: tuple[str, ...] = ("name",),
    args_keys: tuple[str, ...] = ("arguments", "parameters"),
    id_keys: tuple[str, ...] = (),
) -> Read[None]:
    """Read a JSON array of call objects (``[{"name": ..., "arguments": ...}, ...]``).

    Each element streams as :func:`json_call_object` does; an empty array holds no calls. The
    closing ``]`` counts as read with the calls (:meth:`~tooletta.engine.Reader.commit`).
    """
    yield from r.ws()
    yield from r.expect("[")
    first = True
    while not (yield from json_next(r, "]", first)):
        first = False
        yield from json_call_object(r, name_keys=name_keys, args_keys=args_keys, id_keys=id_keys)
    r.commit()
