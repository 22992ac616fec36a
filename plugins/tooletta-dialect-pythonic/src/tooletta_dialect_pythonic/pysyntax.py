"""Python call syntax: find where a call ends as the text streams, read it with ``ast``.

Reading is in two steps. :class:`BracketScan` follows a bracketed Python expression
incrementally (strings in either quote style, triple quotes, escapes, comments), so a reader
knows where each call's closing ``)`` is without re-reading what came before: its cost is
linear in the text. The finished text is then parsed with :func:`ast.parse` and its values
are read by :func:`literal`, which accepts only literals (never evaluates anything).

Rendering writes Python literals back: :func:`py_str` escapes a string for either quote style
and :func:`py_value` writes any JSON value in Python (``True``/``None``) or JSON-word
(``true``/``null``) spelling.
"""

from __future__ import annotations

import ast
import keyword
import math
import re
import warnings
from collections.abc import Callable
from typing import Any

from tooletta import RenderError
from tooletta.plugin import BlockError, Incomplete, Read, Reader, write_literal

__all__ = [
    "MAX_NESTING",
    "BracketScan",
    "bracketed",
    "call_arguments",
    "char_at",
    "is_kwarg_name",
    "is_tool_name",
    "keyword_stand_ins",
    "literal",
    "looks_like_call",
    "py_str",
    "py_value",
    "read_name",
    "render_call",
    "span",
    "starts_at",
    "value_of",
]

MAX_NESTING = 100
"""Deepest bracket nesting accepted in a call (deeper input is malformed, never a crash)."""

_CODE = re.compile(r"""['"#()\[\]{}<]""")
_IN_STR = {"'": re.compile(r"[\\']"), '"': re.compile(r'[\\"]')}
_CLOSER = {"(": ")", "[": "]", "{": "}"}
_NAME_START = re.compile(r"[A-Za-z_]")
_NAME_REST = re.compile(r"[A-Za-z0-9_.\-]*")
_TOOL_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*\Z")
_KW_START = re.compile(r"[^\W\d]")
_KW_REST = re.compile(r"\w*")
_WS = re.compile(r"[ \t\r\n]*")
_WORDS: dict[str, Any] = {"true": True, "false": False, "null": None}


class BracketScan:
    """Where a bracketed Python expression ends, found incrementally.

    Feed it the text from the opening bracket with :meth:`scan`; it keeps its state (open
    brackets, the string it is in) between calls, so each character is looked at once.
    """

    __slots__ = ("comment", "quote", "stack", "triple")

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.quote = ""
        self.triple = False
        self.comment = False

    def scan(self, buf: str, i: int, final: bool) -> tuple[int, bool]:
        """Scan ``buf`` from ``i``: ``(end, True)`` when the outer bracket closed (``end`` is
        just after it), else ``(resume, False)`` with the index to resume from once more text
        has arrived. Raises :class:`BlockError` on a mismatched bracket, too deep nesting, or a
        ``<`` outside strings (no Python literal has one: it is the next marker)."""
        n = len(buf)
        while i < n:
            if self.comment:
                j = buf.find("\n", i)
                if j < 0:
                    return n, False
                self.comment = False
                i = j + 1
                continue
            q = self.quote
            if q:
                m = _IN_STR[q].search(buf, i)
                if m is None:
                    return n, False
                j = m.start()
                if buf[j] == "\\":
                    if j + 1 >= n:
                        return j, False  # the escaped character has not arrived
                    i = j + 2
                elif not self.triple:
                    self.quote = ""
                    i = j + 1
                elif buf.startswith(q * 3, j):
                    self.quote = ""
                    i = j + 3
                elif j + 3 > n and not final and buf[j:] == q * (n - j):
                    return j, False  # may still become the closing triple quote
                else:
                    i = j + 1
                continue
            m = _CODE.search(buf, i)
            if m is None:
                return n, False
            j = m.start()
            ch = buf[j]
            if ch in "'\"":
                if j + 3 > n and not final and buf[j:] == ch * (n - j):
                    return j, False  # an empty string or a triple quote: not known yet
                self.quote = ch
                self.triple = buf.startswith(ch * 3, j)
                i = j + (3 if self.triple else 1)
            elif ch == "#":
                self.comment = True
                i = j + 1
            elif ch in "([{":
                if len(self.stack) >= MAX_NESTING:
                    raise BlockError(f"arguments nested deeper than {MAX_NESTING}", j)
                self.stack.append(_CLOSER[ch])
                i = j + 1
            elif ch == "<":
                raise BlockError("unexpected '<' in call arguments", j)
            else:
                if not self.stack or self.stack.pop() != ch:
                    raise BlockError(f"unbalanced {ch!r} in call arguments", j)
                i = j + 1
                if not self.stack:
                    return i, True
        return i, False


def bracketed(r: Reader) -> Read[str]:
    """Read the bracketed expression that starts at ``r.pos`` and return its text."""
    scan = BracketScan()
    parts: list[str] = []
    start = i = r.pos
    while True:
        try:
            i, done = scan.scan(r.buf, i, r.final)
        except BlockError as exc:
            r.pos = exc.position if exc.position is not None else r.pos
            raise r.fail(exc.message) from None
        parts.append(r.buf[start:i])
        r.pos = i
        if done:
            return "".join(parts)
        if r.final:
            raise Incomplete("text ended inside a call's arguments", r.pos)
        yield
        start = i = r.pos


def span(r: Reader, k: int, pattern: re.Pattern[str]) -> Read[int]:
    """Offset (from ``r.pos``) where a run of ``pattern`` starting at offset ``k`` ends.

    ``pattern`` must match a possibly empty run (``[...]*``). Waits until the run is known to
    have ended; consumes nothing.
    """
    while True:
        m = pattern.match(r.buf, r.pos + k)
        end = m.end() if m else r.pos + k
        if end < len(r.buf) or r.final:
            return end - r.pos
        k = end - r.pos
        yield


def char_at(r: Reader, k: int) -> Read[str]:
    """The character at offset ``k`` from ``r.pos`` ("" when the text ends first)."""
    while r.pos + k >= len(r.buf):
        if r.final:
            return ""
        yield
    return r.buf[r.pos + k]


def read_name(r: Reader) -> Read[str]:
    """Read a function name (``get_weather``, ``tools.search``, ``get-time``)."""
    first = yield from char_at(r, 0)
    if not first or not _NAME_START.match(first):
        raise r.fail("expected a function name")
    k = yield from span(r, 1, _NAME_REST)
    name = r.buf[r.pos : r.pos + k]
    r.pos += k
    return name


def starts_at(r: Reader, k: int, text: str) -> Read[bool]:
    """True when ``text`` comes at offset ``k`` from ``r.pos`` (waits until that is known)."""
    while len(r.buf) - r.pos - k < len(text) and not r.final:
        if not text.startswith(r.buf[r.pos + k :]):
            return False
        yield
    return r.buf.startswith(text, r.pos + k)


def looks_like_call(r: Reader, k: int) -> Read[bool]:
    """True when a call starts at offset ``k``: a name, ``(``, then ``)`` or ``key=``.

    Consumes nothing; looks only as far as that decision needs.
    """
    after = yield from _word_then(r, k, _NAME_START, _NAME_REST, "(")
    if after is None:
        return False
    k = yield from span(r, after, _WS)
    if (yield from char_at(r, k)) == ")":
        return True
    after = yield from _word_then(r, k, _KW_START, _KW_REST, "=")
    return after is not None and (yield from char_at(r, after)) != "="


def _word_then(
    r: Reader, k: int, start: re.Pattern[str], rest: re.Pattern[str], follow: str
) -> Read[int | None]:
    """The offset just past ``follow`` when a word (a ``start`` character, then ``rest``
    characters), optional whitespace and ``follow`` come at offset ``k``; ``None`` otherwise.
    Consumes nothing."""
    first = yield from char_at(r, k)
    if not first or not start.match(first):
        return None
    k = yield from span(r, k + 1, rest)
    k = yield from span(r, k, _WS)
    if (yield from char_at(r, k)) != follow:
        return None
    return k + 1


def literal(node: ast.AST) -> Any:
    """The JSON value of a literal expression node; ``ValueError`` for anything else.

    Accepted: strings, numbers (with unary ``-``/``+``), ``True``/``False``/``None`` and their
    JSON spellings ``true``/``false``/``null``, lists, tuples and sets (as lists), dicts with
    string keys, and f-strings without placeholders. Non-finite numbers are refused.
    """
    if isinstance(node, ast.Constant):
        value = node.value
        if value is None or isinstance(value, (str, bool, int)):
            return value
        if isinstance(value, float) and math.isfinite(value):
            return value
        raise ValueError(f"unsupported literal {value!r}")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = node.operand
        value = inner.value if isinstance(inner, ast.Constant) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = value
            if isinstance(node.op, ast.USub):
                number = -number
            if isinstance(number, int) or math.isfinite(number):
                return number
        raise ValueError("unsupported unary expression")
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [literal(e) for e in node.elts]
    if isinstance(node, ast.Dict):
        out: dict[str, Any] = {}
        for k, v in zip(node.keys, node.values):
            if k is None:
                raise ValueError("'**' inside a dict")
            key = literal(k)
            if not isinstance(key, str):
                raise ValueError("dict keys must be strings")
            out[key] = literal(v)
        return out
    if isinstance(node, ast.Name) and node.id in _WORDS:
        return _WORDS[node.id]
    if isinstance(node, ast.JoinedStr):
        pieces = [v.value for v in node.values if isinstance(v, ast.Constant)]
        if len(pieces) == len(node.values) and all(isinstance(p, str) for p in pieces):
            return "".join(str(p) for p in pieces)
    raise ValueError(f"not a literal: {type(node).__name__}")


def parse_expression(source: str) -> ast.Expression:
    """``ast.parse(source, mode="eval")`` with compile-time warnings silenced.

    An invalid escape such as ``"\\<"`` only warns (the backslash is kept); silencing it keeps
    the result the same whatever the warning filters are (under ``-W error`` it would otherwise
    become a :class:`SyntaxError`).
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(source, mode="eval")


_STRING_OR_COMMENT = re.compile(
    r"#[^\r\n]*"
    r"|'''[^'\\]*(?:(?:\\[\s\S]|'(?!''))[^'\\]*)*(?:'''|\Z)"
    r'|"""[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*(?:"""|\Z)'
    r"|'[^'\\]*(?:\\[\s\S][^'\\]*)*(?:'|\Z)"
    r'|"[^"\\]*(?:\\[\s\S][^"\\]*)*(?:"|\Z)'
)
"""A comment, or a string literal from its quote, where a one-quote string may run over line
breaks (as a template that does not escape them writes it)."""
_UNREADABLE = ("\x00",)
"""What :func:`ast.parse` refuses anywhere, even inside a string."""
_LINE_BREAKS = ("\n", "\r")
_TRIPLE = ("'''", '"""')


def _stand_ins(source: str, raw_newlines: bool) -> tuple[str, dict[int, str]] | None:
    """``source`` with each character Python's parser refuses inside a string literal (NUL
    anywhere; with ``raw_newlines``, a line break inside a one-quote string) replaced by a
    private-use character the text does not hold, and the table that turns those back;
    ``None`` when there is none to replace.

    Outside strings a stand-in is no Python either (an invalid character), so only the
    strings' values change: they read as the characters the text holds.
    """
    chars = [c for c in _UNREADABLE if c in source]
    if raw_newlines:
        chars += [c for c in _LINE_BREAKS if c in source]
    if not chars:
        return None
    free = (chr(cp) for cp in range(0xE000, 0xF900) if chr(cp) not in source)
    table = {c: next(free, "") for c in chars}
    if not all(table.values()):
        return None  # the text holds every private-use character: nothing can stand in
    for c in _UNREADABLE:
        if c in table:
            source = source.replace(c, table[c])
    breaks = str.maketrans({c: table[c] for c in _LINE_BREAKS if c in table})
    if breaks:

        def in_string(m: re.Match[str]) -> str:
            token = m.group()
            if token[0] == "#" or token.startswith(_TRIPLE):
                return token  # raw line breaks are Python there
            return token.translate(breaks)

        source = _STRING_OR_COMMENT.sub(in_string, source)
    return source, {ord(v): k for k, v in table.items()}


def _restore(value: Any, table: dict[int, str]) -> Any:
    """``value`` with the stand-ins of :func:`_stand_ins` turned back, in every string."""
    if isinstance(value, str):
        return value.translate(table)
    if isinstance(value, list):
        return [_restore(v, table) for v in value]
    if isinstance(value, dict):
        return {_restore(k, table): _restore(v, table) for k, v in value.items()}
    return value


def _parse(
    source: str, prefix: str, raw_newlines: bool
) -> tuple[ast.Expression, dict[int, str] | None]:
    """``parse_expression(prefix + source)`` and ``None``; when Python refuses a character
    the text holds inside a string (see :func:`_stand_ins`), the tree of the text with
    stand-ins and the table that turns them back. Raises the first attempt's error."""
    try:
        return parse_expression(prefix + source), None
    except (SyntaxError, ValueError) as exc:
        swapped = _stand_ins(source, raw_newlines)
        if swapped is None:
            raise
        try:
            return parse_expression(prefix + swapped[0]), swapped[1]
        except (SyntaxError, ValueError):
            raise exc from None


def value_of(text: str, position: int | None = None) -> Any:
    """The JSON value of the Python literal ``text`` (parsed with :func:`ast.parse`; a NUL
    inside a string is read as itself)."""
    try:
        tree, table = _parse(text.strip(), "", False)
        value = literal(tree.body)
    except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
        detail = exc.msg if isinstance(exc, SyntaxError) else str(exc)
        raise BlockError(f"invalid Python literal: {detail}", position) from None
    return value if table is None else _restore(value, table)


def call_arguments(
    args_text: str,
    position: int | None = None,
    *,
    raw_newlines: bool = False,
    keyword_names: bool = False,
) -> dict[str, Any]:
    """The keyword arguments of a call whose parenthesised part is ``args_text`` (``"(a=1)"``).

    Parsed with :func:`ast.parse` and read with :func:`literal`; positional arguments,
    non-literal values and syntax errors raise :class:`BlockError`. ``**{...}`` with a dict
    literal is merged in. A NUL inside a string is read as itself (Python's parser refuses
    it anywhere); with ``raw_newlines``, so is a line break inside a one-quote string (what
    a template that writes strings unescaped, such as LFM2.5's, produces). With
    ``keyword_names``, an argument named by a Python keyword (``f(from='x')``, which Python
    refuses but LFM2.5's template writes) is read as that name (see
    :func:`keyword_stand_ins`).
    """
    renames = None
    if keyword_names:
        swapped = keyword_stand_ins(args_text)
        if swapped is not None:
            args_text, renames = swapped
    try:
        tree, table = _parse(args_text, "f", raw_newlines)
    except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
        detail = exc.msg if isinstance(exc, SyntaxError) else str(exc)
        raise BlockError(f"invalid call syntax: {detail}", position) from None
    out = _keywords(tree, position)
    if renames is not None:
        out = {renames.get(k, k): v for k, v in out.items()}
    return out if table is None else _restore(out, table)


_KEYWORDS = "|".join(sorted(keyword.kwlist, key=len, reverse=True))
_STRING_OR_KEYWORD_ARG = re.compile(
    _STRING_OR_COMMENT.pattern
    + r"|(?P<lead>[(,][ \t\r\n]*)(?P<name>(?:"
    + _KEYWORDS
    + r")(?![\w]))(?P<eq>[ \t\r\n]*=)(?!=)"
)
"""A string or comment (kept as it is), or an argument named by a Python keyword: after
``(`` or ``,``, the keyword, then ``=`` (not ``==``)."""


def keyword_stand_ins(source: str) -> tuple[str, dict[str, str]] | None:
    """``source`` (a call's parenthesised part) with each argument named by a Python keyword
    (``from=``, ``class=``, ``True=``...) renamed to an identifier the text does not hold,
    and the table from those identifiers back to the keywords; ``None`` when no argument is
    so named. Strings and comments are left alone, so only names change. Text in which no
    argument is named by a keyword is valid Python or not exactly as before."""
    names: dict[str, str] = {}

    def rename(m: re.Match[str]) -> str:
        name = m.group("name")
        if name is None:
            return m.group()
        stand_in = names.get(name)
        if stand_in is None:
            stand_in = "_" + name.lower()
            while stand_in in source or stand_in in names.values():
                stand_in = "_" + stand_in
            names[name] = stand_in
        return m.group("lead") + stand_in + m.group("eq")

    out = _STRING_OR_KEYWORD_ARG.sub(rename, source)
    if not names:
        return None
    return out, {v: k for k, v in names.items()}


def _keywords(tree: ast.Expression, position: int | None) -> dict[str, Any]:
    """The keyword arguments of the call ``tree`` holds, each value read with
    :func:`literal`."""
    call = tree.body
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
        raise BlockError("expected a call", position)
    if call.args:
        raise BlockError("positional arguments are not supported", position)
    out: dict[str, Any] = {}
    for kw in call.keywords:
        try:
            value = literal(kw.value)
        except (ValueError, RecursionError) as exc:
            name = kw.arg or "**"
            raise BlockError(f"argument {name!r}: {exc}", position) from None
        if kw.arg is not None:
            if kw.arg in out:
                raise BlockError(f"argument {kw.arg!r} repeated", position)
            out[kw.arg] = value
        elif isinstance(value, dict):
            out.update(value)
        else:
            raise BlockError("'**' needs a dict literal", position)
    return out


def is_tool_name(name: str) -> bool:
    """True when ``name`` can be written as a call's function name."""
    return _TOOL_NAME.match(name) is not None


def is_kwarg_name(name: object) -> bool:
    """True when ``name`` can be written as a keyword argument (a string that is an ASCII
    identifier and no keyword)."""
    return (
        isinstance(name, str)
        and name.isascii()
        and name.isidentifier()
        and not keyword.iskeyword(name)
    )


_ESCAPE = re.compile(r"""[\\'"]|[^\x20-\x7e]""")
_SIMPLE = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def py_str(text: str, quote: str = "'") -> str:
    """``text`` as a Python string literal in ``quote`` (``'`` or ``"``).

    Backslashes, the quote, and unprintable characters are escaped (as ``repr`` does);
    printable non-ASCII characters are kept.
    """

    def esc(m: re.Match[str]) -> str:
        ch = m.group()
        simple = _SIMPLE.get(ch)
        if simple is not None:
            return simple
        if ch == quote:
            return "\\" + ch
        if ch in "'\"" or ch.isprintable():
            return ch
        return repr(ch)[1:-1]

    return quote + _ESCAPE.sub(esc, text) + quote


def py_value(
    value: Any, quote: str = "'", words: tuple[str, str, str] = ("True", "False", "None")
) -> str:
    """A JSON value as Python literal text; ``words`` spell true, false and null.

    Raises ``ValueError`` for values with no literal (non-finite floats, other types).
    """
    return write_literal(value, lambda s: py_str(s, quote), lambda k: py_str(k, quote), words=words)


def render_call(
    name: str,
    arguments: dict[str, Any],
    value: Callable[[Any], str],
    *,
    keyword_names: bool = False,
) -> str:
    """``name(k=v, ...)`` with each value written by ``value``; :class:`~tooletta.RenderError`
    (a ``ValueError``) when the name or a key cannot be written in Python call syntax. With
    ``keyword_names`` a key that is a Python keyword (``from``) is written as it is, as
    LFM2.5's template writes it (:func:`call_arguments` reads it back with
    ``keyword_names``)."""
    if not is_tool_name(name):
        raise RenderError(f"function name {name!r} cannot be written as a call")
    parts: list[str] = []
    for key, v in arguments.items():
        if not (is_kwarg_name(key) or (keyword_names and keyword.iskeyword(key))):
            raise RenderError(f"argument name {key!r} is not a Python identifier")
        parts.append(f"{key}={value(v)}")
    return f"{name}({', '.join(parts)})"
