"""The ``NAME<arg_key>K</arg_key><arg_value>V</arg_value>`` call grammar, parametrised by tags.

GLM-4.5+ (``<tool_call>NAME<arg_key>...``), Hunyuan v3 (``<tool_call>NAME<tool_sep><arg_key>
...`` with optional ``:opensource`` suffixes) and K2 Horizon (``<ifm|tool_call>NAME<ifm|arg_key>
...`` with an optional ``<ifm|arg_type>``) write a call the same way: a bare name, then
key/value pairs in their own tags, then the call's closing tag. :class:`KvTags` names one
dialect's tags; :func:`read_kv_call` reads one call from just after its opening tag, and
:func:`kv_call_block` is the grammar block of a call. Values are
raw text typed by the request's tool schemas (:func:`tooletta.toolkit.typed_value`).

Also handled, per dialect: a separator required after the name (Hunyuan), a JSON object for
the arguments after it (Hunyuan's JSON-body variant), a whole call (or a list of calls) written
as JSON instead of a name (K2 Horizon's ``json`` call format), and an inline type hint per
argument that applies when the schema does not pin one type (K2 Horizon ``xml_typed``).

One-shot parsing reads a call of names and key/value pairs with :func:`fast_kv_call`
(``Block.fast``); the JSON forms are left to the reader.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..engine import (
    Block,
    Decline,
    FastReader,
    Read,
    Reader,
    json_call_array,
    json_call_object,
    json_value,
)
from ..errors import RenderError
from ..ir import ToolCall
from .args import ArgsWriter, one_shot_value, typed_value
from .fastxml import MAX_GAP, SPACE_RUN, skip_gap, tag_end
from .jsontext import json_without
from .schema import schema_types

__all__ = [
    "HintedWriter",
    "KvTags",
    "check_name",
    "fast_kv_call",
    "kv_call_block",
    "looks_like_call",
    "read_kv_call",
    "render_key",
    "render_pairs",
    "render_value",
]

_BAD_NAME = re.compile(r"[\s<>{}\[\]\"]")
_NAME_RUN = re.compile(r"[^ \t\r\n<>{}\[\]\"]*")
"""The characters :func:`looks_like_call` takes as a bare name (no length limit)."""
_WS = " \t\r\n"
_JSON_TYPES = frozenset({"string", "integer", "number", "boolean", "object", "array", "null"})


@dataclass(frozen=True)
class KvTags:
    """The tags of one key/value call dialect.

    ``close`` ends a call (``</tool_call>``); ``closes`` are further endings accepted after
    a JSON body (Hunyuan's ``<end_of_tool_call>``). ``sep`` is a separator that must follow
    the name (Hunyuan's ``<tool_sep>``). ``type_open``/``type_close`` frame an optional type
    hint between a key and its value (K2 Horizon). ``json_call`` accepts a JSON call object or
    array in place of the name; ``json_args`` accepts a JSON arguments object after ``sep``.
    Values are read verbatim (``trim=""``): the templates write them bare.
    """

    close: str
    key_open: str
    key_close: str
    value_open: str
    value_close: str
    sep: str | None = None
    type_open: str | None = None
    type_close: str | None = None
    json_call: bool = False
    json_args: bool = False
    closes: tuple[str, ...] = ()

    @property
    def value_ends(self) -> tuple[str, str]:
        """The markers that end a value (the second one only when the value never closed)."""
        return (self.value_close, self.close)


class HintedWriter(ArgsWriter):
    """An :class:`~tooletta.toolkit.ArgsWriter` that also knows per-argument type hints.

    A hint (K2 Horizon's ``<ifm|arg_type>``) types a value when the schema does not pin one
    type (no schema, a union, an unknown key), as SGLang's ``k2_horizon`` parser does. The
    template's ``any`` means the raw text.
    """

    __slots__ = ("hints",)

    def __init__(self, r: Reader, tool: str):
        super().__init__(r, tool)
        self.hints: dict[str, Mapping[str, Any]] = {}

    def hint(self, key: str, text: str) -> None:
        """Record the inline type ``text`` of ``key`` (``integer``, ``string|null``, ``any``)."""
        schema = _hint_schema(text)
        if schema is not None:
            self.hints[key] = schema

    def schema(self, key: str) -> Mapping[str, Any] | None:
        """The schema of ``key``: the tool's when it pins one type, else the inline hint."""
        return _hinted(super().schema(key), self.hints.get(key))


def _hint_schema(text: str) -> dict[str, Any] | None:
    """The schema an inline type hint stands for (``None``: it names no JSON type)."""
    name = text.strip(_WS).split("[", 1)[0]
    if name == "any":
        return {"type": "string"}
    kinds = [k for k in name.split("|") if k in _JSON_TYPES]
    if kinds:
        return {"type": kinds[0] if len(kinds) == 1 else kinds}
    return None


def _hinted(
    base: Mapping[str, Any] | None, hint: Mapping[str, Any] | None
) -> Mapping[str, Any] | None:
    """The tool's schema ``base`` when it pins one type (or there is no hint), else ``hint``."""
    if hint is None or len(schema_types(base) - {"null"}) == 1:
        return base
    return hint


def check_name(name: str) -> bool:
    """A usable bare call name: non-empty, no whitespace, no ``<>{}[]"``."""
    if type(name) is str and name.isidentifier():  # letters, digits and _ only: usable
        return True
    return bool(name) and _BAD_NAME.search(name) is None


def _finish(r: Reader, tags: KvTags) -> Read[None]:
    """After a JSON body: the call's closing tag (or the end of the text)."""
    yield from r.ws()
    if (yield from r.at_end()):
        return
    if not (yield from r.accept(tags.close, *tags.closes)):
        raise r.fail(f"expected {tags.close!r}")


def _call_head(buf: str, pos: int, final: bool, skip: int = 0) -> tuple[bool | None, int]:
    """Whether a call (not prose) follows an opening tag: a tag or JSON, or a bare ``NAME``
    (of any length) followed by a tag. ``None`` while the text seen cannot tell; with it,
    how far (from ``pos``) the name is known to run, where the next look may resume."""
    n = len(buf)
    i = skip_gap(buf, pos)[0]
    if i == n:
        return (True if final else None), 0  # cut short after the tag: an unfinished block
    if buf[i] in "<{[" or buf[i] in _WS:
        return True, 0
    i = _NAME_RUN.match(buf, max(i, pos + skip)).end()  # type: ignore[union-attr]
    known = i - pos
    i = skip_gap(buf, i)[0]
    if i == n:
        return (True if final else None), known
    return buf[i] == "<", known


def looks_like_call(r: Reader) -> Read[bool]:
    """Whether a call follows the opening tag (see ``_call_head()``); consumes nothing,
    looks no further than the name and the whitespace after it, and reads each character of
    the name once however the text arrives."""
    skip = 0
    while True:
        verdict, skip = _call_head(r.buf, r.pos, r.final, skip)
        if verdict is not None:
            return verdict
        yield


def read_kv_call(r: Reader, tags: KvTags) -> Read[None]:
    """Read one call from just after its opening tag, through its closing tag.

    Prose that merely mentions the opening tag (``<tool_call> tags are...``) is given back as
    content (:class:`~tooletta.engine.Decline`), so it is never lost; anything that starts like
    a call and then goes wrong is a malformed block.
    """
    if not (yield from looks_like_call(r)):
        raise Decline
    if tags.json_call:
        yield from r.ws()
        first = yield from r.peek()
        if first == "{":
            yield from json_call_object(r, close=tags.close)
            yield from _finish(r, tags)
            return
        if first == "[":
            yield from json_call_array(r)
            yield from _finish(r, tags)
            return
    raw, end = yield from r.until(((tags.sep or tags.key_open), tags.close))
    name = raw.strip(_WS)
    if not check_name(name):
        raise r.fail("expected a tool name")
    if tags.sep is not None and end != tags.sep:
        raise r.fail(f"expected {tags.sep!r} after the tool name")
    r.start_call(name)
    if tags.sep is not None:
        yield from r.ws()
        if tags.json_args and (yield from r.peek()) == "{":
            yield from json_value(r, r.args, keep=False)
            r.end_call()
            yield from _finish(r, tags)
            return
        end = ""
    w = HintedWriter(r, name)
    while True:
        if end != tags.key_open:
            if end:  # the call's closing tag
                w.close()
                return
            yield from r.ws()
            end = yield from r.accept(tags.key_open, tags.close, *tags.closes)
            if not end:
                raise r.fail(f"expected {tags.key_open!r} or {tags.close!r}")
            continue
        raw, end = yield from r.until((tags.key_close, tags.close))
        key = raw.strip(_WS)
        if end != tags.key_close or not key:
            raise r.fail("expected an argument name")
        yield from r.ws()
        if tags.type_open and tags.type_close and (yield from r.accept(tags.type_open)):
            raw, end = yield from r.until((tags.type_close, tags.close))
            if end != tags.type_close:
                raise r.fail(f"expected {tags.type_close!r}")
            w.hint(key, raw)
            yield from r.ws()
        yield from r.expect(tags.value_open)
        end = yield from typed_value(r, w, key, tags.value_ends)
        if end != tags.value_close:
            raise r.fail(f"expected {tags.value_close!r}")
        end = ""


def kv_call_block(opening: str, tags: KvTags) -> Block:
    """The grammar block of one call: from ``opening`` (``<tool_call>``) through
    ``tags.close``, read by :func:`read_kv_call` and, one-shot, by :func:`fast_kv_call`."""

    def read_call(r: Reader) -> Read[None]:
        yield from read_kv_call(r, tags)

    read_call.__doc__ = f"One ``{opening}`` block: a name, then key/value pairs."
    return Block(opening, read_call, close=tags.close, fast=fast_kv_call(tags))


def _no_kind(tool: str, key: str) -> tuple[str, None]:
    """What a value is typed by without tools: no schema."""
    return "", None


def _one_type(schema: Mapping[str, Any] | None) -> str:
    """The one JSON type ``schema`` allows, else "" (as ``ToolSchemas.kind`` gives it)."""
    types = schema_types(schema)
    return next(iter(types)) if len(types) == 1 else ""


def fast_kv_call(tags: KvTags) -> FastReader:
    """The one-shot shortcut (``Block.fast``) for :func:`read_kv_call` with ``tags``.

    It reads a call written as a name and key/value pairs (with type hints, for tags that
    have them) through its closing tag, exactly as the reader does; any other block (a JSON
    call or JSON arguments, prose, malformed or truncated text, a value whose JSON nests too
    deeply) is left to the reader.
    """
    close = tags.close
    head = tags.sep or tags.key_open
    ends = (close, *tags.closes)
    key_open, key_close = tags.key_open, tags.key_close
    value_open, value_close = tags.value_open, tags.value_close
    type_open, type_close = tags.type_open or "", tags.type_close or ""
    typed = bool(type_open and type_close)
    literals = [head, key_open, key_close, value_open, value_close, *ends]
    if typed:
        literals += [type_open, type_close]
    if any(t[:1] != "<" or "<" in t[1:] for t in literals) or any(
        a != b and a.startswith(b) for a in literals for b in literals
    ):  # what tag_end and the pattern below rely on
        raise ValueError(
            "fast_kv_call needs tags that begin with '<', hold no other '<' "
            "and do not begin one another"
        )
    sep = tags.sep
    json_args = tags.json_args
    json_first = "{[" if tags.json_call else ""
    e = re.escape
    sp = r"[ \t\r\n]*"
    hint = f"(?:{e(type_open)}([^<]*){e(type_close)}{sp})?" if typed else ""
    # one pair (and the whitespace before it) with no '<' in its key, hint or value, or else
    # a closing tag; linear, as each part is followed by a literal it cannot hold
    pair = re.compile(
        f"{sp}(?:{e(key_open)}([^<]*){e(key_close)}{sp}{hint}"
        f"{e(value_open)}([^<]*){e(value_close)}|({'|'.join(e(t) for t in ends)}))"
    )
    match = pair.match
    stop = (close,)

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        try:
            # looks_like_call, then the name up to the separator or the first key
            m = SPACE_RUN.match(text, pos)
            i = m.end() if m else pos
            if i - pos >= MAX_GAP or text[i] in json_first:
                return -1
            g = _NAME_RUN.match(text, i).end()  # type: ignore[union-attr]
            m = SPACE_RUN.match(text, g)
            if m is not None:
                if m.end() - g >= MAX_GAP:
                    return -1  # where looks_like_call gives up: left to the reader
                g = m.end()
            if not text.startswith("<", g):
                return -1
            raw = text[i:g]
            name = raw.rstrip(_WS)
            if not (name.isidentifier() or check_name(name)):
                return -1
            if text.startswith(head, g):
                i = g if sep is None else g + len(sep)
            elif sep is None and text.startswith(close, g):
                calls.append(ToolCall(name, {}))  # no arguments
                return g + len(close)
            else:
                return -1
            if json_args:
                m = SPACE_RUN.match(text, i)
                if m and text.startswith("{", m.end()):
                    return -1  # JSON arguments: left to the reader
            if tools is None:
                kinds: Mapping[str, tuple[str, Any]] = {}
                kind = _no_kind
            else:  # a ToolSchemas: without tools, every kind is ("", None), as the reader
                kinds = tools.kinds(name)
                kind = tools.kind
            args: dict[str, Any] = {}
            hints: dict[str, Mapping[str, Any]] | None = None
            while True:
                m = match(text, i)
                if m is not None:  # the common case: one match
                    if typed:
                        kraw, hraw, raw, fin = m.groups()
                    else:
                        kraw, raw, fin = m.groups()
                        hraw = None
                    i = m.end()
                    if fin is not None:
                        break
                    key = kraw.strip(_WS)
                    if not key:
                        return -1
                else:  # tags inside a key or value: as read_kv_call reads them
                    m = SPACE_RUN.match(text, i)
                    if m:
                        i = m.end()
                    if not text.startswith(key_open, i):
                        return -1  # the closing tags match above: anything else is malformed
                    i += len(key_open)
                    j = tag_end(text, i, key_close, stop)
                    if j < 0:
                        return -1
                    key = text[i:j].strip(_WS)
                    if not key:
                        return -1
                    m = SPACE_RUN.match(text, j + len(key_close))
                    i = m.end() if m else j + len(key_close)
                    hraw = None
                    if typed and text.startswith(type_open, i):
                        i += len(type_open)
                        j = tag_end(text, i, type_close, stop)
                        if j < 0:
                            return -1
                        hraw = text[i:j]
                        m = SPACE_RUN.match(text, j + len(type_close))
                        i = m.end() if m else j + len(type_close)
                    if not text.startswith(value_open, i):
                        return -1
                    i += len(value_open)
                    j = tag_end(text, i, value_close, stop)
                    if j < 0:
                        return -1
                    raw = text[i:j]
                    i = j + len(value_close)
                t, schema = kinds.get(key) or kind(name, key)
                if hraw is not None:
                    hinted = _hint_schema(hraw)
                    if hinted is not None:
                        if hints is None:
                            hints = {}
                        hints[key] = hinted
                if hints is not None and key in hints:
                    schema = _hinted(schema, hints[key])
                    t = _one_type(schema)
                args[key] = raw if t == "string" else one_shot_value(raw, t, schema)
            calls.append(ToolCall(name, args))
            return i
        except Exception:  # the reader meets it too, and reports it its own way
            return -1

    return fast


def render_value(value: Any, tags: KvTags, dialect: str) -> str:
    """A value as the templates write it: strings verbatim, everything else as JSON.

    A string holding the value's or the call's closing tag cannot be written (raises
    :class:`~tooletta.RenderError`); in JSON text such a tag is escaped (``\\u003c``), which
    decodes to the same value.
    """
    kind = type(value)
    if isinstance(value, str):
        for bad in (tags.value_close, tags.close):  # a loop: this runs for every argument
            if bad in value:
                raise RenderError(f"a string value contains {bad!r}", dialect=dialect)
        return value
    if kind is int:  # JSON writes an int as its repr, which holds no tag
        try:
            return repr(value)
        except ValueError:  # past Python's digit limit: to_json reports it
            pass
    elif value is None or kind is bool:
        return "null" if value is None else "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        raise RenderError(f"{value!r} is not a JSON number", dialect=dialect)
    return json_without(value, (tags.value_close, tags.close))


def render_key(key: str, tags: KvTags, dialect: str) -> str:
    """An argument name, refused when it would not read back the same."""
    if not key or key != key.strip(_WS) or tags.key_close in key or tags.close in key:
        raise RenderError(f"argument name {key!r} cannot be written", dialect=dialect)
    return key


def render_pairs(
    arguments: Mapping[str, Any], tags: KvTags, dialect: str, between: str = "", after: str = ""
) -> str:
    """A call's arguments as ``key_open KEY key_close BETWEEN value_open VALUE value_close
    AFTER``, one after the other (``between`` and ``after``: what the template writes between
    a key and its value and after each value, such as a newline). Keys and values as
    :func:`render_key` and :func:`render_value` write them, refusing what would not read
    back."""
    return "".join(
        f"{tags.key_open}{render_key(k, tags, dialect)}{tags.key_close}{between}"
        f"{tags.value_open}{render_value(v, tags, dialect)}{tags.value_close}{after}"
        for k, v in arguments.items()
    )
