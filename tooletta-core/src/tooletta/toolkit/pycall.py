"""One-shot reading of Python call syntax and Python literals, for fast readers (``Block.fast``).

The incremental readers of the pythonic formats parse each call with :func:`ast.parse` and
read the values off the tree (never evaluating anything): exact, but building a Python object
per syntax node costs some 70 times a msgspec decode of the same values. Here the text of a
whole block is translated to JSON by a few C-level passes (regular-expression splits and
``str.replace``) and decoded once by msgspec:

* string literals, in either quote style, become JSON strings (only escapes JSON spells the
  same way are accepted: ``\\n \\r \\t \\b \\f \\\\ \\" \\'`` and ``\\uXXXX`` for a
  printable, non-surrogate character);
* ``True``/``False``/``None`` become ``true``/``false``/``null`` (those JSON spellings, which
  the readers accept too, stay);
* a call ``name(k=v, ...)`` becomes ``["\\u0002", ["\\u0001", v, ...], "\\u0003"]``: its name
  and keyword names are taken out (kept, in order) and replaced by markers that no accepted
  literal can hold, so the decoded structure proves where each call and keyword was;
* everything else (numbers, brackets, commas, colons, whitespace) is kept as it is.

Any Python outside that JSON-shaped subset (a tuple, a set, a comment, a string prefix, an
implicit concatenation, a trailing comma other than after a list's last call, ``+1``, an
expression, a positional or repeated argument...) leaves text JSON does not accept or fails a
check, and the fast reader declines: the incremental reader reads the block (and reports what
it reports).
What does decode is, value for value, what ``ast`` reads: JSON numbers, strings, lists and
objects are Python literals with the same values (duplicate keys keep the last value, at the
first key's place, in both). The translation calls nothing that depends on the warning filters.

Public pieces:

* :func:`fast_py_list`, :func:`fast_py_calls`: fast readers for a list of calls
  (``[f(a=1), g(b=2)]``) and for calls one per line (or exactly one call);
* :func:`py_literal_at`: a Python literal (list or dict) starting at a position, and its end.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Iterator
from typing import Any, Literal

import msgspec

from ..engine import FastReader
from ..ir import ToolCall

__all__ = ["MAX_NESTING", "bracket_nesting", "fast_py_calls", "fast_py_list", "py_literal_at"]

MAX_NESTING = 100
"""Deepest bracket nesting a call (from its ``(``) or a literal may have: what the readers'
bracket scanner accepts (``tooletta_dialect_pythonic.pysyntax.MAX_NESTING``)."""

_SPACE = " \t\r\n"
_WS = "[ \\t\\r\\n]*"
_WS_RE = re.compile(_WS)

# A string literal in either quote style, on one line. The closing quote is optional, so the
# pattern never fails at a quote (no quadratic retrying); an unclosed string sets the empty
# group of its style, which is how it is detected.
_STRINGS = re.compile(
    r"""("[^"\\\n]*(?:\\.[^"\\\n]*)*(?:"|())|'[^'\\\n]*(?:\\.[^'\\\n]*)*(?:'|()))"""
)

# Calls and keywords are found in the reversed code, where each starts with a fixed character
# (``(``, ``=``) that a search finds fast; the name after it is the name before it, reversed.
# A match may start inside a longer name (``1f(``, ``x.a=``): what is left before it then
# stands right before a JSON string or bracket, where JSON accepts no name character.
_REV_KWARG = re.compile("=(?<!==)" + _WS + "([A-Za-z0-9_]*[A-Za-z_])")
"""``NAME =`` (not ``==``), reversed: an ASCII identifier (keywords are checked after)."""
_REV_CALL = re.compile(r"\(" + _WS + r"([A-Za-z0-9_.\-]*[A-Za-z_])")
"""``NAME (``, NAME as the readers' ``read_name`` reads it (``tools.search``, ``get-time``)."""
_KEYWORDS = frozenset((*keyword.kwlist, "__debug__"))
"""Names Python refuses as keyword arguments (``__debug__``: some versions)."""

_MK, _MC, _ME = "\x01", "\x02", "\x03"
_KWARG_OUT_REV = '"\\u0001",'[::-1]
_CALL_OUT_REV = '["\\u0002",['[::-1]
_CALL_END = '],"\\u0003"]'
_SEPARATORS = re.compile(r'\][ \t\r\n,]*\["\\u0002"')
"""Whitespace and commas between two calls written one per line."""
_CALLS_JOINED = '],["\\u0002"'

_WORDS = tuple(
    (word, re.compile(word + r"(?<![\w.\-]" + word + r")(?![\w.\-])"), json)
    for word, json in (("True", "true"), ("False", "false"), ("None", "null"))
)
_BAD_ESCAPE = re.compile(r"""\\(?![nrtbf"']|u(?!00[01]|[dD][89a-fA-F])[0-9a-fA-F]{4})""")
"""An escape JSON would read differently (or not at all), once ``\\\\`` pairs are out of the
way: ``\\x``, octal, ``\\N{}``, ``\\a``, ``\\v``, ``\\/``, a line continuation, a surrogate or
a control character ``\\u0000``-``\\u001f`` (which could spell a marker)."""
_RAW_QUOTE = re.compile('"(?<![\\\\\\x00]")(?!\\x00)')
"""A ``"`` inside a single-quoted string (neither escaped nor a delimiter)."""
_AS_PARENS = bytes.maketrans(b"[{]}", b"(())")
_NOT_BRACKETS: dict[str, bytes] = {}
"""Per set of brackets counted: the other ASCII characters (deleted before counting)."""

_LIST_HEAD = re.compile(
    r"\[" + _WS + r"[A-Za-z_][A-Za-z0-9_.\-]*" + _WS + r"\(" + _WS + r"(?:\)|[^\W\d]\w*"
    r"[ \t\r\n]*=(?!=))"
)
"""A list that opens with a call (``looks_like_call`` in the pythonic reader)."""
_LIST_END = re.compile(r"\)" + _WS + "(?:," + _WS + r")?\]")

_LIST, _LINES, _ONE = 0, 1, 2
_TRIES = 8
"""Ends tried for a block whose first possible end falls inside a string."""


class _Cut(Exception):
    """The text tried ends inside a string or a bracket: its real end may lie further on."""


class _Call(msgspec.Struct, array_like=True):
    """A translated call: its marker, the keyword markers and values, the end marker."""

    mark: Literal["\x02"]
    args: list[Any]
    end: Literal["\x03"]


_decode_calls = msgspec.json.Decoder(list[_Call]).decode
_decode = msgspec.json.decode
_FAILS = (msgspec.DecodeError, UnicodeError, RecursionError, ValueError, MemoryError)


def bracket_nesting(code: str, limit: int, brackets: str = "()[]{}") -> bool | None:
    """Whether the ``brackets`` of ``code`` (ASCII, no strings in it) balance and nest at most
    ``limit`` deep: ``True``; ``False`` when they do not balance or nest deeper; ``None`` when
    brackets are left open (the text ends inside one). Other characters are ignored; all the
    brackets are made parentheses and each pass takes out the innermost pairs."""
    others = _NOT_BRACKETS.get(brackets)
    if others is None:
        others = _NOT_BRACKETS[brackets] = bytes(c for c in range(128) if chr(c) not in brackets)
    pairs = code.encode("ascii").translate(_AS_PARENS, others)
    for _ in range(limit):
        fewer = pairs.replace(b"()", b"")
        if not fewer:
            return True
        if len(fewer) == len(pairs):
            return None if b")" not in fewer else False
        pairs = fewer
    return False


def _shallow(code: str, limit: int) -> bool:
    """:func:`bracket_nesting` of ``code``, raising :class:`_Cut` when brackets are left
    open (the text ends inside one)."""
    nesting = bracket_nesting(code, limit)
    if nesting is None:
        raise _Cut
    return nesting


def _strings_json(joined: str) -> str | None:
    """Python string literals joined by NUL, as JSON strings joined by NUL (``None`` when one
    has an escape JSON does not spell the same)."""
    escapes = "\\" in joined
    if escapes:
        if "\x01" in joined:
            return None
        joined = joined.replace("\\\\", "\x01")  # every backslash left starts an escape
        if _BAD_ESCAPE.search(joined):
            return None
    if "'" in joined:
        # a delimiter sits next to a NUL (or an end), the content never does
        if escapes:
            joined = joined.replace("\\'", "'")
        joined = _RAW_QUOTE.sub('\\\\"', "\x00" + joined + "\x00")
        joined = joined.replace("\x00'", '\x00"').replace("'\x00", '"\x00')[1:-1]
    if escapes:
        joined = joined.replace("\x01", "\\\\")
    return joined


def _no_trailing_comma(code: str) -> str:
    """``code`` (a translated list of calls) without the comma the list readers accept after
    its last call, which JSON does not."""
    body = code.rstrip(_SPACE)
    if not body.endswith("]"):
        return code
    head = body[:-1].rstrip(_SPACE)
    if head.endswith(",") and head[:-1].rstrip(_SPACE).endswith(_CALL_END):
        return head[:-1] + code[len(head) :]
    return code


def _to_json(source: str, form: int | None, limit: int) -> tuple[str, list[str], list[str]] | None:
    """``source`` as JSON text, with the call names and keyword names taken out of it (in
    order); ``None`` when it cannot be (then JSON would not hold it, or not the same).

    ``form``: ``None`` for a literal (no calls), else how the calls are laid out. Raises
    :class:`_Cut` when the last string runs to the end of ``source`` without closing, or
    brackets are left open.
    """
    pieces = _STRINGS.split(source)
    n = len(pieces) >> 2
    if pieces[2::4].count(None) != n or pieces[3::4].count(None) != n:
        if not pieces[-1] and (pieces[-2] is not None or pieces[-3] is not None):
            raise _Cut
        return None  # a string that does not close on its line
    code = "\x00".join(pieces[0::4])
    if not code.isascii() or "\\" in code or not _shallow(code, limit):
        return None  # outside strings, JSON has no backslash and no non-ASCII character
    names: list[str] = []
    kwargs: list[str] = []
    if form is not None:
        rev = code[::-1]
        parts = _REV_CALL.split(rev)
        found = parts[1::2]
        if not found:
            return None
        names = "\x00".join(found)[::-1].split("\x00")
        rev = _CALL_OUT_REV.join(parts[0::2])
        parts = _REV_KWARG.split(rev)
        found = parts[1::2]
        if found:
            kwargs = "\x00".join(found)[::-1].split("\x00")
            if not _KEYWORDS.isdisjoint(kwargs):
                return None
            rev = _KWARG_OUT_REV.join(parts[0::2])
        code = rev[::-1]
        if code.count(")") != len(names):
            return None
        code = code.replace(")", _CALL_END)
        if form == _LIST:
            code = _no_trailing_comma(code)
        else:
            if form == _LINES:
                code = _CALLS_JOINED.join(_SEPARATORS.split(code)).strip(_SPACE + ",")
            code = "[" + code + "]"
    for word, pattern, json in _WORDS:
        if word in code:
            code = pattern.sub(json, code)
    if not n:
        return code, names, kwargs
    texts = pieces[1::4]
    joined = "\x00".join(texts)
    if "'" in joined or "\x00" in joined:
        strings = _strings_json(joined)
        if strings is None:
            return None
        texts = strings.split("\x00")
        if len(texts) != n:
            return None  # a NUL in a string
    elif "\\" in joined and _BAD_ESCAPE.search(joined.replace("\\\\", "")):
        return None  # double quotes only: the strings are JSON once their escapes are
    codes = code.split("\x00")
    if len(codes) != n + 1:
        return None  # a NUL in the code
    out = codes + texts  # the right length
    out[0::2] = codes
    out[1::2] = texts
    return "".join(out), names, kwargs


def _read_calls(source: str, form: int, limit: int) -> list[ToolCall] | None:
    """The calls ``source`` holds, laid out as ``form`` says, or ``None`` (:class:`_Cut`
    when a string runs past its end)."""
    found = _to_json(source, form, limit)
    if found is None:
        return None
    text, names, kwargs = found
    try:
        items = _decode_calls(text)
    except _FAILS:
        return None
    if len(items) != len(names) or (form == _ONE and len(items) != 1):
        return None
    calls: list[ToolCall] = []
    at = 0
    for item, name in zip(items, names):
        args = item.args
        if not args:
            calls.append(ToolCall(name, {}))
            continue
        n = len(args) >> 1
        if args[::2].count(_MK) * 2 != len(args):
            return None  # a positional argument, or a keyword not at the top
        values = dict(zip(kwargs[at : at + n], args[1::2]))
        if len(values) != n:
            return None  # a repeated keyword
        at += n
        calls.append(ToolCall(name, values))
    if at != len(kwargs):
        return None  # keywords inside values
    return calls


def _skip_ws(text: str, pos: int) -> int:
    if pos < len(text) and text[pos] in _SPACE:
        return _WS_RE.match(text, pos).end()  # type: ignore[union-attr]
    return pos


def _stops(text: str, start: int, close: str) -> Iterator[tuple[int, int]]:
    """``(where the text read stops, where the block ends)`` at each ``close`` in turn, then
    at the end of the text (which ends these blocks too)."""
    n = len(close)
    k = text.find(close, start)
    while k >= 0:
        yield k, k + n
        k = text.find(close, k + n)
    yield len(text), len(text)


def _list_stops(text: str, start: int) -> Iterator[tuple[int, int]]:
    """Each ``)`` then ``]`` (whitespace between) in turn: where a list of calls may end."""
    for m in _LIST_END.finditer(text, start):
        yield m.end(), m.end()


def _read_first(
    text: str, start: int, stops: Iterator[tuple[int, int]], form: int, limit: int
) -> tuple[list[ToolCall], int] | None:
    """The calls from ``start`` to the first of ``stops`` that does not cut a string or a
    bracket (the first few tried), and where the block ends; ``None`` when they are not read
    here."""
    for _, (stop, end) in zip(range(_TRIES), stops):
        try:
            found = _read_calls(text[start:stop], form, limit)
        except _Cut:
            continue
        return (found, end) if found else None
    return None


def fast_py_list(close: str | None = None, *, bare: bool = False) -> FastReader:
    """The one-shot shortcut (``Block.fast``) for a block that is a Python list of calls,
    ``[f(a=1), g(b="x")]``, after optional whitespace.

    It reads what the pythonic family's ``read_call_list`` reads from the ``[`` (one call at
    least, a comma after the last one allowed; syntax outside the JSON-shaped subset is left
    to the reader). The block ends just after the ``]``; with ``close``, only whitespace may
    follow it, then ``close`` (or the end of the text), and the block ends after that.
    ``bare``: the block starts at the ``[`` (a keep-open marker), which is prose unless a call
    opens the list.
    """

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        start = pos if bare else _skip_ws(text, pos)
        if bare:
            if _LIST_HEAD.match(text, start) is None:
                return -1
        elif not text.startswith("[", start):
            return -1
        stops = _list_stops(text, start) if close is None else _stops(text, start, close)
        found = _read_first(text, start, stops, _LIST, MAX_NESTING + 1)
        if found is None:
            return -1
        calls.extend(found[0])
        return found[1]

    return fast


def fast_py_calls(close: str, *, single: bool = False) -> FastReader:
    """The one-shot shortcut (``Block.fast``) for a block of calls written one per line
    (``f(a=1)\\ng(b=2)``, commas between them tolerated) up to ``close`` (or the end of the
    text), which ends it.

    With ``single``, the block is exactly one call with only whitespace around it.
    """
    form = _ONE if single else _LINES

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        found = _read_first(text, pos, _stops(text, pos, close), form, MAX_NESTING)
        if found is None:
            return -1
        calls.extend(found[0])
        return found[1]

    return fast


def py_literal_at(text: str, pos: int) -> tuple[Any, int] | None:
    """The value of the Python list or dict literal that opens at ``text[pos]`` and the
    position just after it, or ``None`` when it is not read here.

    Read as ``ast.literal_eval`` reads it, with ``true``/``false``/``null`` also accepted,
    nesting at most :data:`MAX_NESTING` deep; only JSON-shaped literals are read (a tuple,
    a set, a trailing comma, an escape JSON spells differently... give ``None``). Its end is
    the first closing bracket after which the brackets balance, or when that falls inside a
    string or leaves brackets open (strings holding brackets), one of the next few.
    """
    opener = text[pos : pos + 1]
    if opener == "[":
        closer = "]"
    elif opener == "{":
        closer = "}"
    else:
        return None
    depth = 0
    at = pos
    end = text.find(closer, pos)
    while end >= 0:
        depth += text.count(opener, at, end) - 1
        if depth == 0:
            break
        at = end + 1
        end = text.find(closer, at)
    else:
        return None
    for _ in range(_TRIES):
        try:
            found = _to_json(text[pos : end + 1], None, MAX_NESTING)
            if found is None:
                return None
            return _decode(found[0]), end + 1
        except _Cut:
            end = text.find(closer, end + 1)
            if end < 0:
                return None
        except _FAILS:
            return None
    return None
