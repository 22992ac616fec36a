"""One-shot readers (:attr:`Block.fast <tooletta.engine.Block>`) for JSON call payloads.

Each builder returns a ``fast(text, pos, tools, calls) -> end`` function that reads, when the
whole text is present, exactly what one of the incremental readers of
:mod:`tooletta.engine.jsonread` reads (a call object, an array of them, a name then JSON
arguments...), with one msgspec decode per payload, and declines (``-1``) anything else.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec

from ..ir import ToolCall
from .grammar import FastReader
from .jsonread import (
    _NO_ARGS,
    _SHORT,
    _SPACE,
    _WS,
    MAX_DEPTH,
    _call_of,
    _decode,
    _keys_unrepeated,
    _plainly_spelled,
    _try_decode,
    _unrepeated,
    decode_bounded,
    ignored_call_key,
    too_deep,
)
from .reader import BlockError, Reader

__all__ = [
    "call_object_reader",
    "fast_after",
    "fast_json_args",
    "fast_json_array",
    "fast_json_call",
    "fast_json_chain",
    "fast_json_lines",
    "fast_json_named",
    "fast_json_object",
    "fast_json_payload",
    "fast_repeat",
    "fast_with_tail",
    "read_fast",
]


class _StandardCall(msgspec.Struct, forbid_unknown_fields=True):
    """``{"name": ..., "arguments": {...}}`` and nothing else (duplicate keys: the last)."""

    name: str
    arguments: dict[str, Any]


_decode_standard = msgspec.json.Decoder(_StandardCall).decode
_STANDARD_KEYS = {"name": 1, "arguments": 1}


def fast_json_call(
    close: str,
    *,
    name_keys: tuple[str, ...] = ("name",),
    args_keys: tuple[str, ...] = ("arguments", "parameters"),
    id_keys: tuple[str, ...] = (),
) -> FastReader:
    """The one-shot shortcut (``Block.fast``) for a block that is one JSON call object and
    then ``close`` (``<tool_call>{...}</tool_call>``), whitespace allowed around the object.

    It reads what :func:`json_call_object` with the same keys, then ``close``, reads; any
    other block (no ``close``, an object that does not decode or fit) is left to the reader.
    """
    n_close = len(close)
    every = (*name_keys, *args_keys, *id_keys)
    standard = "name" in name_keys and "arguments" in args_keys  # whatever the order
    standard = standard and every.count("name") == 1 and every.count("arguments") == 1

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        end = text.find(close, pos)
        if end < 0:
            return -1
        seg = text[pos:end]
        if len(seg) > MAX_DEPTH and seg.count("[") + seg.count("{") > MAX_DEPTH:
            return -1  # possibly deeper than MAX_DEPTH: the reader decides, with its limits
        if standard:
            try:  # the common case, {"name": ..., "arguments": {...}}, typed by msgspec
                std = _decode_standard(seg)
            except (msgspec.DecodeError, UnicodeError, RecursionError):
                pass
            else:
                # msgspec keeps the last copy of a repeated key, the reader the first
                if (
                    (seg.count('"name"') == 1 and seg.count('"arguments"') == 1)
                    and _plainly_spelled(seg)
                ) or _unrepeated(seg, _STANDARD_KEYS, lambda: [std.name, std.arguments]):
                    calls.append(ToolCall(std.name, std.arguments))
                    return end + n_close
                return -1
        obj = _try_decode(seg)
        if type(obj) is dict and not _keys_unrepeated(seg, obj, every):
            return -1
        call = _call_of(obj, name_keys, args_keys, id_keys)
        if call is None:
            return -1
        calls.append(call)
        return end + n_close

    return fast


# -- one-shot readers (``Block.fast``) for call objects read key by key --------------------------
#
# The incremental readers above read a call object key by key, the first occurrence of a key
# winning; msgspec decodes it to a dict where the last one wins. The readers below decode
# whole with msgspec and take the result only when no key that matters can occur twice:
# ``"key"`` is counted in the text (only an escape such as ``\u0061`` could spell it
# otherwise, and text holding one of those is left to the reader).

_WORD_KEY = re.compile(r"[A-Za-z0-9_]+\Z")
_FAILED = (msgspec.DecodeError, UnicodeError, RecursionError)
_CUTS = 8
"""Separators a chained call object is tried to end before (a string may hold one)."""


def _object_in_string(text: str) -> dict[str, Any] | None:
    """The object a JSON string of arguments holds (``""`` is ``{}``), as
    :func:`json_call_object` reads it, or ``None`` where that fails."""
    if not text.strip():
        return {}
    try:
        value = decode_bounded(text)
    except (msgspec.DecodeError, UnicodeError, BlockError):
        return None
    return value if type(value) is dict else None


class _Shape:
    """Typed msgspec decoders for call objects with exactly these keys, each once at most in
    the decoded value (a name, arguments that are an object, maybe a string id)."""

    __slots__ = ("has_id", "keys", "many", "one", "quoted")

    def __init__(self, name_key: str, args_key: str, id_key: str | None) -> None:
        fields: list[tuple[str, Any]] = [("name", str), ("arguments", dict[str, Any])]
        rename = {"name": name_key, "arguments": args_key}
        self.keys: tuple[str, ...] = (name_key, args_key)
        if id_key is not None:
            fields.append(("id", str | None))
            rename["id"] = id_key
            self.keys += (id_key,)
        self.has_id = id_key is not None
        self.quoted = tuple(f'"{key}"' for key in self.keys)
        struct: Any = msgspec.defstruct("Call", fields, rename=rename, forbid_unknown_fields=True)
        self.one: Callable[[str], Any] = msgspec.json.Decoder(struct).decode
        self.many: Callable[[str], list[Any]] = msgspec.json.Decoder(list[struct]).decode

    def calls(self, items: list[Any]) -> list[ToolCall]:
        """The calls of decoded call objects."""
        if self.has_id:
            return [ToolCall(c.name, c.arguments, c.id) for c in items]
        return [ToolCall(c.name, c.arguments) for c in items]


_SHAPES: dict[tuple[str, str, str | None], _Shape] = {}


def _shape(name_key: str, args_key: str, id_key: str | None) -> _Shape:
    key = (name_key, args_key, id_key)
    shape = _SHAPES.get(key)
    if shape is None:
        shape = _SHAPES[key] = _Shape(name_key, args_key, id_key)
    return shape


class _Keys:
    """The keys :func:`json_call_object` reads a call from (the first occurrence winning).

    Call objects are decoded typed, by the shape (keys) of the last ones read, when they
    have it; otherwise as dicts, read key by key as the reader does.
    """

    __slots__ = ("roles", "shape")

    def __init__(
        self, name_keys: tuple[str, ...], args_keys: tuple[str, ...], id_keys: tuple[str, ...]
    ) -> None:
        self.roles: dict[str, int] = {}
        """Each key -> what it gives: 0 the name, 1 the arguments, 2 the id."""
        for role, keys in enumerate((name_keys, args_keys, id_keys)):
            for key in keys:
                if not _WORD_KEY.match(key) or self.roles.setdefault(key, role) != role:
                    raise ValueError(f"one-shot readers need distinct ASCII-word keys: {key!r}")
        self.shape: _Shape | None = None
        if name_keys and args_keys:
            self.shape = _shape(name_keys[0], args_keys[0], None)

    def call(self, obj: dict[str, Any], have: dict[str, int]) -> ToolCall | None:
        """The call the incremental :func:`json_call_object` reads from the object ``obj``
        (decoded; if no key of the call is repeated in its text), or ``None`` where it
        fails. Counts the keys of the call that ``obj`` has in ``have``."""
        roles = self.roles
        name: str | None = None
        args: Any = _NO_ARGS
        call_id: str | None = None
        seen = [False, False, False]
        for key, value in obj.items():
            role = roles.get(key)
            if role is None:
                if ignored_call_key(key, value):
                    continue  # a key the reader skips
                return None  # the reader refuses it
            if seen[role]:
                return None  # two aliases of one key: the reader refuses it
            seen[role] = True
            have[key] = have.get(key, 0) + 1
            if role == 0:
                if type(value) is not str:
                    return None
                name = value
            elif role == 1:
                if type(value) is str:
                    value = _object_in_string(value)
                    if value is None:
                        return None
                elif type(value) is not dict:
                    return None
                args = value
            elif value is not None:
                call_id = str(value)
        if name is None:
            return None
        return ToolCall(name, {} if args is _NO_ARGS else args, call_id)

    def _learn(self, obj: dict[str, Any]) -> None:
        """Decode typed from now on by the shape of ``obj``, when it has one."""
        found: list[str | None] = [None, None, None]
        for key, value in obj.items():
            role = self.roles.get(key)
            if role is None or found[role] is not None:
                return
            kind = type(value)
            if kind is not (str, dict, str)[role] and not (role == 2 and value is None):
                return
            found[role] = key
        name_key, args_key, id_key = found
        if name_key is not None and args_key is not None:
            self.shape = _shape(name_key, args_key, id_key)

    def add(self, batch: _Batch, seg: str, array: bool) -> bool:
        """Add to ``batch`` the calls in ``seg``, one call object or (``array``) a JSON array
        of them, whitespace around, as :func:`json_call_object` / :func:`json_call_array`
        read them if no key is repeated (:meth:`check`); False where those fail."""
        shape = self.shape
        if shape is not None:
            try:
                typed = shape.many(seg) if array else [shape.one(seg)]
            except _FAILED:
                pass
            else:
                batch.add_typed(shape, typed)
                return True
        return self._add_any(batch, seg, array)

    def add_one(self, batch: _Batch, seg: str) -> bool:
        """:meth:`add` for one call object."""
        shape = self.shape
        if shape is not None:
            try:
                c = shape.one(seg)
            except _FAILED:
                pass
            else:
                batch.add_typed(shape, [c])
                return True
        return self._add_any(batch, seg, False)

    def _add_any(self, batch: _Batch, seg: str, array: bool) -> bool:
        """:meth:`add` for objects of any shape (decoded as dicts)."""
        try:
            value = _decode(seg)
        except _FAILED:
            return False
        if too_deep(seg, value):
            return False  # (before an id is turned into text: str() recurses)
        if array:
            if type(value) is not list:
                return False
            objs = value
        else:
            objs = [value]
        calls = batch.calls
        for obj in objs:
            if type(obj) is not dict:
                return False
            call = self.call(obj, batch.have)
            if call is None:
                return False
            calls.append(call)
        batch.objs += objs
        if objs:
            self._learn(objs[0])
        return True

    def check(self, batch: _Batch, whole: str) -> bool:
        """Whether the calls added to ``batch`` are what the reader reads: no key of a call
        repeated, nothing nested deeper than :data:`MAX_DEPTH`. ``whole`` is the text that
        held them (with nothing else than whitespace, separators and markers)."""

        def values() -> list[Any]:
            found = [v for c in batch.typed for v in (c.name, c.arguments, getattr(c, "id", 0))]
            return found + [v for obj in batch.objs for v in obj.values()]

        if not _unrepeated(whole, batch.have, values):
            return False
        if len(whole) > _SHORT:
            return not too_deep(whole, [c.arguments for c in batch.typed] + batch.objs)
        return True

    def read(self, seg: str, array: bool) -> list[ToolCall] | None:
        """The calls in ``seg`` (see :meth:`add`), or ``None`` when the reader would not read
        exactly these."""
        batch = _Batch()
        if self.add(batch, seg, array) and self.check(batch, seg):
            return batch.calls
        return None

    def one(self, seg: str) -> ToolCall | None:
        """The call in ``seg``, one call object (see :meth:`read`), or ``None``."""
        shape = self.shape
        if shape is not None:
            try:
                c = shape.one(seg)
            except _FAILED:
                pass
            else:  # the common case: checked inline
                quoted = shape.quoted
                if (
                    "\\u00" not in seg
                    and seg.count(quoted[0]) == 1
                    and seg.count(quoted[1]) == 1
                    and (len(quoted) == 2 or seg.count(quoted[2]) == 1)
                    and (len(seg) <= _SHORT or not too_deep(seg, c.arguments))
                ):
                    if shape.has_id:
                        return ToolCall(c.name, c.arguments, c.id)
                    return ToolCall(c.name, c.arguments)
        found = self.read(seg, False)
        return found[0] if found else None


class _Batch:
    """Calls decoded from the pieces of one text, to check together (:meth:`_Keys.check`)."""

    __slots__ = ("calls", "have", "objs", "typed")

    def __init__(self) -> None:
        self.calls: list[ToolCall] = []
        self.have: dict[str, int] = {}
        """How many call objects have each key of a call."""
        self.objs: list[dict[str, Any]] = []
        """Call objects decoded as dicts."""
        self.typed: list[Any] = []
        """Call objects decoded typed (:class:`_Shape`)."""

    def add_typed(self, shape: _Shape, typed: list[Any]) -> None:
        """Add call objects decoded typed by ``shape``."""
        n = len(typed)
        have = self.have
        for key in shape.keys:
            have[key] = have.get(key, 0) + n
        self.typed += typed
        self.calls += shape.calls(typed)


def call_object_reader(
    *,
    name_keys: tuple[str, ...] = ("name",),
    args_keys: tuple[str, ...] = ("arguments", "parameters"),
    id_keys: tuple[str, ...] = (),
) -> Callable[[str], ToolCall | None]:
    """A function giving the call that :func:`json_call_object` (without ``close``) reads
    from a text holding one call object (whitespace around it allowed), or ``None`` when it
    would fail or might read anything else: for one-shot readers of custom blocks.

    Keys are ASCII words.
    """
    return _Keys(name_keys, args_keys, id_keys).one


def _skip_ws(text: str, i: int) -> int:
    if i < len(text) and text[i] in _SPACE:
        return _WS.match(text, i).end()  # type: ignore[union-attr]
    return i


class _Stops:
    """Where the first of some markers (``before``) comes from a position on: how far a
    one-shot reader looks for the end of a value that no closing marker follows.

    Readers are called block after block on the same text, so the next occurrence of each
    marker is remembered and each stretch of the text searched once. Looking for a value
    costs the length of the stretch up to the stop; once a text has cost a reader more than
    :data:`_BUDGET` times its length (markers missing, so that every stop is far), the
    reader stops looking (``-1``) and the remaining blocks are left to the block reader: one
    text never costs more than linear time. The memo is keyed by the text's identity and
    length, without keeping the text: a stale one only bounds a search wrongly, and a value
    found is checked by decoding it anyway.
    """

    __slots__ = ("at", "key", "markers", "nexts", "size", "spent")

    def __init__(self, markers: tuple[str, ...]) -> None:
        self.markers = markers
        self.key = 0
        """The id of the text searched last (a race between threads only costs searches)."""
        self.size = -1
        self.at = 0
        self.spent = 0
        self.nexts: list[int] = []
        """The next occurrence of each marker from ``at`` (-1 none, -2 not searched)."""

    def __call__(self, text: str, pos: int) -> int:
        n = len(text)
        if self.key != id(text) or self.size != n or pos <= self.at:  # another text, or again
            self.key = id(text)
            self.size = n
            self.spent = 0
            nexts = self.nexts = [-2] * len(self.markers)
        else:
            nexts = self.nexts
        self.at = pos
        stop = n
        for k, i in enumerate(nexts):
            if i == -2 or 0 <= i < pos:
                i = nexts[k] = text.find(self.markers[k], pos)
            if 0 <= i < stop:
                stop = i
        spent = self.spent = self.spent + stop - pos
        return stop if spent <= _BUDGET * n + _SLACK else -1


_BUDGET = 2
_SLACK = 1 << 16


def _span(
    text: str, start: int, close: str | None, closer: str, stops: _Stops
) -> tuple[str, int] | None:
    """The text of a JSON value from ``start`` (whitespace around it included) and where its
    block ends: with ``close``, the value, whitespace, then ``close`` (or the end of the text);
    without, right after the value, taken to end at its last ``closer`` before ``stops``
    (decoding it checks that)."""
    if close is not None:
        end = text.find(close, start)
        if end < 0:
            return text[start:], len(text)
        return text[start:end], end + len(close)
    stop = stops(text, start)
    k = text.rfind(closer, start, stop) if stop >= 0 else -1
    if k < 0:
        return None
    return text[start : k + 1], k + 1


def _leads_with(seg: str, key: str) -> bool:
    """Whether the array in ``seg`` opens with an object whose first key is written ``key``."""
    i = _skip_ws(seg, 0)
    if not seg.startswith("[", i):
        return False
    i = _skip_ws(seg, i + 1)
    if not seg.startswith("{", i):
        return False
    return seg.startswith(key, _skip_ws(seg, i + 1))


def fast_json_array(
    close: str | None = None,
    *,
    name_keys: tuple[str, ...] = ("name",),
    args_keys: tuple[str, ...] = ("arguments", "parameters"),
    id_keys: tuple[str, ...] = (),
    at: int = 0,
    first_key: str | None = None,
    before: tuple[str, ...] = (),
) -> FastReader:
    """The one-shot shortcut (``Block.fast``) for :func:`json_call_array` with the same keys,
    read from ``at`` characters after the block's start (``-1``: the ``[`` ends the opening
    marker), then whitespace and ``close`` (or the end of the text).

    Without ``close`` the block ends right after the array, which is looked for before the
    first of ``before`` (markers that follow it, such as an end-of-turn token; the text after
    them is not searched). ``first_key`` (such as ``'"name"'``) is what the first object's
    first key must be written as, for readers that check it before reading a list of calls.
    """
    keys = _Keys(name_keys, args_keys, id_keys)
    stops = _Stops(before)

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        span = _span(text, pos + at, close, "]", stops)
        if span is None:
            return -1
        seg, end = span
        if first_key is not None and not _leads_with(seg, first_key):
            return -1
        found = keys.read(seg, True)
        if found is None:
            return -1
        calls.extend(found)
        return end

    return fast


def fast_json_object(
    close: str | None = None,
    *,
    name_keys: tuple[str, ...] = ("name",),
    args_keys: tuple[str, ...] = ("arguments", "parameters"),
    id_keys: tuple[str, ...] = (),
    before: tuple[str, ...] = (),
) -> FastReader:
    """The one-shot shortcut (``Block.fast``) for :func:`json_call_object` without ``close``
    (read key by key, the first occurrence of a key winning), then whitespace and ``close``
    (or the end of the text).

    Without ``close`` the block ends right after the object, which is looked for before the
    first of ``before`` (the markers that follow it: the next block's opener first).
    """
    keys = _Keys(name_keys, args_keys, id_keys)
    stops = _Stops(before)

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        if close is None:  # the common case, inline
            stop = stops(text, pos)
            end = text.rfind("}", pos, stop) + 1 if stop >= 0 else 0
            if not end:
                return -1
            seg = text[pos:end]
        else:
            end = text.find(close, pos)
            seg, end = (text[pos:], len(text)) if end < 0 else (text[pos:end], end + len(close))
        call = keys.one(seg)
        if call is None:
            return -1
        calls.append(call)
        return end

    return fast


def fast_json_payload(
    close: str | None = None,
    *,
    name_keys: tuple[str, ...] = ("name",),
    args_keys: tuple[str, ...] = ("arguments", "parameters"),
    id_keys: tuple[str, ...] = (),
    before: tuple[str, ...] = (),
) -> FastReader:
    """:func:`fast_json_array` or :func:`fast_json_object`, whichever the first character
    after whitespace (``[`` or ``{``) calls for: a reader that reads either."""
    array = fast_json_array(
        close, name_keys=name_keys, args_keys=args_keys, id_keys=id_keys, before=before
    )
    single = fast_json_object(
        close, name_keys=name_keys, args_keys=args_keys, id_keys=id_keys, before=before
    )

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        i = _skip_ws(text, pos)
        first = text[i : i + 1]
        if first == "[":
            return array(text, pos, tools, calls)
        if first == "{":
            return single(text, pos, tools, calls)
        return -1

    return fast


def fast_json_lines(
    close: str,
    *,
    name_keys: tuple[str, ...] = ("name",),
    args_keys: tuple[str, ...] = ("arguments", "parameters"),
    id_keys: tuple[str, ...] = (),
) -> FastReader:
    """The one-shot shortcut (``Block.fast``) for call objects read one after another by
    :func:`json_call_object` (without ``close``), separated by whitespace, up to ``close``
    (or the end of the text): MiniMax-M1's JSON lines. Only blocks with one object per line
    are read (each line decoded on its own)."""
    keys = _Keys(name_keys, args_keys, id_keys)

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        end = text.find(close, pos)
        if end < 0:
            stop = after = len(text)
        else:
            stop, after = end, end + len(close)
        whole = text[pos:stop]
        lines = [line for line in whole.split("\n") if line.strip(" \t\r")]
        batch = _Batch()
        shape = keys.shape
        if shape is not None:
            one = shape.one
            try:  # the common case: every line typed by the shape of the last calls
                typed = [one(line) for line in lines]
            except _FAILED:
                pass
            else:
                batch.add_typed(shape, typed)
                lines = []
        for line in lines:
            if not keys.add_one(batch, line):
                return -1
        if not keys.check(batch, whole):
            return -1
        calls.extend(batch.calls)
        return after

    return fast


def fast_json_chain(
    sep: str,
    starts: tuple[str, ...],
    *,
    name_keys: tuple[str, ...] = ("name",),
    args_keys: tuple[str, ...] = ("arguments", "parameters"),
    id_keys: tuple[str, ...] = (),
    before: tuple[str, ...] = (),
    repeat: bool = True,
) -> FastReader:
    """The one-shot shortcut (``Block.fast``) for call objects read by
    :func:`json_call_object` (without ``close``) and joined by ``sep``: after an object,
    whitespace, ``sep``, whitespace and one of ``starts`` lead to the next object; otherwise
    the block ends right after the object (Llama 3's ``{...}; {...}``).

    ``repeat=False`` reads one object, and the separator when another object follows (the
    block then ends where that object starts). Objects are looked for before the first of
    ``before``. ``sep=""``: the objects follow each other directly (whitespace allowed
    between them: Llama 4's ``{...}{...}``); an object then ends before the next of ``starts``.
    """
    keys = _Keys(name_keys, args_keys, id_keys)
    stops = _Stops(before)

    def next_cut(text: str, start: int, limit: int) -> int:
        """Where the separator after ``start`` is (the next object's start when ``sep`` is
        empty), ``-1`` when none comes before ``limit``."""
        if sep:
            return text.find(sep, start, limit)
        found = [i for i in (text.find(s, start + 1, limit) for s in starts) if i >= 0]
        return min(found) if found else -1

    def typed(text: str, pos: int, limit: int, shape: _Shape) -> tuple[list[Any], int] | None:
        """The common case, every object typed by ``shape`` and ending before the next
        separator: the objects and the block's end, or ``None``."""
        one = shape.one
        found = []
        start = pos
        n = len(text)
        while True:
            cut = next_cut(text, start, limit)
            k = text.rfind("}", start, cut if cut >= 0 else limit)
            try:
                found.append(one(text[start : k + 1]))
            except _FAILED:
                return None
            end = i = k + 1
            while i < n and text[i] in _SPACE:
                i += 1
            if text.startswith(sep, i):
                j = i + len(sep)
                while j < n and text[j] in _SPACE:
                    j += 1
                if text.startswith(starts, j):
                    if repeat:
                        start = j
                        continue
                    end = j
            return found, end

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        limit = stops(text, pos)
        if limit < 0:
            return -1
        batch = _Batch()
        shape = keys.shape
        got = typed(text, pos, limit, shape) if shape is not None else None
        if shape is not None and got is not None:
            found, end = got
            batch.add_typed(shape, found)
            if not keys.check(batch, text[pos:end]):
                return -1
            calls.extend(batch.calls)
            return end
        start = pos
        while True:
            cut = next_cut(text, start, limit)
            tries = 0
            # the object ends before the next separator, unless a string holds that one
            while True:
                k = text.rfind("}", start, cut if cut >= 0 else limit)
                if k >= 0 and keys.add_one(batch, text[start : k + 1]):
                    break
                if cut < 0 or tries == _CUTS:
                    return -1
                tries += 1
                cut = next_cut(text, cut + 1, limit)
            end = k + 1
            i = _skip_ws(text, end)
            if text.startswith(sep, i):
                j = _skip_ws(text, i + len(sep))
                if text.startswith(starts, j):
                    if repeat:
                        start = j
                        continue
                    end = j
            if not keys.check(batch, text[pos:end]):
                return -1
            calls.extend(batch.calls)
            return end

    return fast


def fast_json_args(
    head: Callable[[str, int], tuple[str | None, int] | None],
    close: str | None = None,
    *,
    before: tuple[str, ...] = (),
) -> FastReader:
    """The one-shot shortcut (``Block.fast``) for a block holding one call written as its name
    and then its arguments as a JSON object, which the reader reads with :func:`json_value`
    and decodes (Functionary's ``<function=NAME>{...}``, ReAct's ``Action Input:``).

    ``head(text, pos)`` reads the name from the block's start: ``(name, offset)``, with the
    offset where the object (after whitespace) starts; ``(None, offset)`` for a block that
    ends at ``offset`` holding no call; ``None`` to leave the block to the reader. After the
    object come whitespace and ``close`` (or the end of the text); without ``close`` the
    block ends right after the object, looked for before the first of ``before``.
    """
    stops = _Stops(before)

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        got = head(text, pos)
        if got is None:
            return -1
        name, start = got
        if name is None:
            return start
        if not text.startswith("{", _skip_ws(text, start)):
            return -1
        span = _span(text, start, close, "}", stops)
        if span is None:
            return -1
        seg, end = span
        try:
            args = _decode(seg)
        except _FAILED:
            return -1
        if type(args) is not dict or too_deep(seg, args):
            return -1
        calls.append(ToolCall(name, args))
        return end

    return fast


_decode_entries = msgspec.json.Decoder(list[dict[str, msgspec.Raw]]).decode
_decode_entry = msgspec.json.Decoder(dict[str, msgspec.Raw]).decode


def fast_json_named(*, before: tuple[str, ...] = ()) -> FastReader:
    """The one-shot shortcut (``Block.fast``) for a JSON list of objects that each map one
    function name to its arguments object, ``[{"NAME": {...}}, ...]`` (or one such object),
    read entry by entry: an empty object is skipped, any other member count fails (Apertus).

    The block ends right after the list (or object), looked for before the first of
    ``before``. An entry may not repeat its member: it has one ``:`` of its own, so the text
    may hold no more colons than the entries' arguments and one per entry.
    """
    stops = _Stops(before)

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        i = _skip_ws(text, pos)
        lead = text[i : i + 1]
        if lead != "[" and lead != "{":
            return -1
        span = _span(text, pos, None, "]" if lead == "[" else "}", stops)
        if span is None:
            return -1
        seg, end = span
        try:
            entries = _decode_entries(seg) if lead == "[" else [_decode_entry(seg)]
        except _FAILED:
            return -1
        colons = 0
        found = []
        for entry in entries:
            if not entry:
                continue
            if len(entry) != 1:
                return -1
            for name, raw in entry.items():
                body = bytes(raw)
                if ":" in name or not body.startswith(b"{"):
                    return -1
                try:
                    args = _decode(body)
                except _FAILED:
                    return -1
                if too_deep(body, args):
                    return -1
                colons += 1 + body.count(b":")
                found.append(ToolCall(name, args))
        if seg.count(":") != colons:
            return -1
        calls.extend(found)
        return end

    return fast


def read_fast(r: Reader, fast: FastReader) -> bool:
    """Read with the one-shot reader ``fast`` from ``r.pos`` inside a block, in one-shot
    parsing with shortcuts (the whole text present): emit the calls it finds, move past what
    it read and return True. False, with nothing done, in a stream or when it declines; the
    caller then reads incrementally.

    For a block that emits content too (so has no ``Block.fast``), such as a JSON envelope
    holding the content and a list of calls: the list can still be read in one step.
    """
    if not r.final or not getattr(r, "_shortcuts", False):
        return False
    found: list[ToolCall] = []
    end = fast(r.buf, r.pos, r.tools, found)
    if end < 0:
        return False
    r.pos = end  # first: the calls count as read up to the end of what they were read from
    for call in found:
        r.call(call.name, call.arguments, call.id)
    r.commit()  # (what the block's reader does at the end of a list of calls)
    return True


def fast_after(lead: str, reader: FastReader, *, optional: bool = False) -> FastReader:
    """``reader``, from just after ``lead``, which must come first (after whitespace).

    With ``optional``, a block where ``lead`` does not follow ends at once, holding no call
    (its whitespace is not consumed).
    """

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        i = _skip_ws(text, pos)
        if text.startswith(lead, i):
            return reader(text, i + len(lead), tools, calls)
        return pos if optional else -1

    return fast


def fast_repeat(reader: FastReader, opener: str, *, keep_open: bool = False) -> FastReader:
    """``reader``, then ``reader`` again for each block that ``opener`` opens right after the
    last one (whitespace between them allowed, and dropped as between any two blocks), as long
    as it reads them: what the engine does block by block, in one call.

    ``keep_open``: the block starts at ``opener`` (``Block.keep_open``; then ``opener`` may be
    the start of the block's markers, whose reader declines where none is). The engine would
    find each block where this does provided no other marker of the grammar starts with
    whitespace, and none is longer than ``opener`` and starts with it (unless ``keep_open``).
    """
    core = opener.lstrip(_SPACE)
    lead = opener[: len(opener) - len(core)]  # whitespace the opener starts with
    skip = 0 if keep_open else len(opener)

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        end = reader(text, pos, tools, calls)
        while end >= 0:
            j = _skip_ws(text, end)
            i = j - len(lead)
            if i < end or not text.startswith(core, j) or not text.startswith(lead, i):
                break
            nxt = reader(text, i + skip, tools, calls)
            if nxt < 0:
                break
            end = nxt
        return end

    return fast


def fast_with_tail(reader: FastReader, tail: str) -> FastReader:
    """``reader``, then ``tail`` when it follows (after whitespace, consumed with it)."""

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        end = reader(text, pos, tools, calls)
        if end < 0:
            return end
        i = _skip_ws(text, end)
        return i + len(tail) if text.startswith(tail, i) else end

    return fast
