"""A field's value: its content parser, then its ``transform``; and the calls in a value.

The content parsers are those of the ``response_template`` spec (``text``, ``int``,
``float``, ``bool``, ``json`` with its ``unquoted_keys`` / ``string_delims`` /
``allow_non_json`` switches, ``xml-inline``, ``kv-lines``, ``python-call-list``), written
from the spec's documentation (transformers ``docs/source/en/chat_response_parsing.md``),
with one deliberate difference: a value a format writes as untyped text (``xml-inline`` and
``kv-lines`` values without a ``value_parser``, or with ``text``) is typed the tooletta way
(by the request's tool schema; without one, JSON where it is valid), as in every tooletta
dialect whose values are text.

Malformed input raises :class:`ValueError` (the reader turns it into an unparsed block).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from ...engine.jsonread import decode_bounded
from ...engine.reader import BlockError
from ._regex import Match, compile_pattern

__all__ = [
    "Typer",
    "apply_transform",
    "calls_in",
    "kv_pair",
    "lax_json",
    "parse_content",
    "python_call_list",
    "sub_value",
]

Typer = Callable[[str, str], Any]
"""Types one untyped text value: ``typer(key, text) -> value``."""

_PLACEHOLDER = re.compile(r"\{(\w+(?:\.\w+)*)\}")


def _untyped(key: str, text: str) -> Any:
    return text


def _text(text: str, args: Mapping[str, Any]) -> str:
    return text.strip() if args.get("strip", True) else text


def _decode(text: str) -> Any:
    """JSON, or :class:`ValueError` (also for nesting deeper than the engine allows)."""
    try:
        return decode_bounded(text)
    except (msgspec.DecodeError, UnicodeError, BlockError) as exc:
        raise ValueError(f"not JSON: {exc}") from None


def _free_chars(text: str) -> tuple[str, str]:
    """Two private-use characters that ``text`` does not hold (placeholder delimiters)."""
    free = (c for c in map(chr, range(0xE000, 0xF900)) if c not in text)
    return next(free), next(free)


def lax_json(text: str, args: Mapping[str, Any]) -> Any:
    """The ``json`` parser: JSON, after the spec's switches for what models write.

    ``string_delims`` (``[[open, close], ...]``): text between such markers is a string;
    ``unquoted_keys``: bare identifier keys (after ``{`` or ``,``) are quoted;
    ``allow_non_json``: text that is still not JSON is kept as a (stripped) string.
    """
    delims = args.get("string_delims") or []
    working = text
    captured: list[str] = []
    if delims:
        lo, hi = _free_chars(text)
        for pair in delims:
            if not (isinstance(pair, (list, tuple)) and len(pair) == 2):
                raise ValueError("json: string_delims items must be [open, close] pairs")
            pattern = re.compile(re.escape(pair[0]) + "(.*?)" + re.escape(pair[1]), re.DOTALL)

            def keep(m: re.Match[str]) -> str:
                captured.append(m.group(1))
                return f"{lo}{len(captured) - 1}{hi}"

            working = pattern.sub(keep, working)
    if args.get("unquoted_keys"):
        working = re.sub(
            r'"(?:\\.|[^"\\])*"|(?<=[{,])(\s*)(\w+)(\s*):',
            lambda m: m.group(0) if m.group(2) is None else f'{m[1]}"{m[2]}"{m[3]}:',
            working,
        )
    if captured:
        for i, s in enumerate(captured):
            working = working.replace(f"{lo}{i}{hi}", json.dumps(s, ensure_ascii=False))
    try:
        return _decode(working)
    except ValueError:
        if args.get("allow_non_json"):
            return _text(text, args)
        raise


def sub_value(raw: str, parser: Any, key: str, typer: Typer) -> Any:
    """One ``xml-inline`` / ``kv-lines`` value through its ``value_parser``.

    Untyped text (no parser, or ``text``) goes through ``typer``; so does a string a
    ``json`` parser with ``allow_non_json`` kept (the request's schema then decides).
    """
    if parser is None:
        return typer(key, raw)
    if not isinstance(parser, Mapping):
        raise ValueError("value_parser must be a dict")
    name = parser.get("name", "text")
    args = parser.get("args", {})
    if not isinstance(args, Mapping):
        raise ValueError("value_parser args must be a dict")
    if name == "text":
        return typer(key, _text(raw, args))
    value = parse_content(raw, name, args, typer)
    if name == "json" and isinstance(value, str):
        return typer(key, value)
    return value


def _tags(text: str, args: Mapping[str, Any], typer: Typer) -> dict[str, Any]:
    tag = compile_pattern(args["tag_pattern"])
    parser = args.get("value_parser")
    merge = bool(args.get("merge_duplicates", False))
    out: dict[str, Any] = {}
    merged: set[str] = set()
    pos = 0
    while pos <= len(text):
        m, _ = tag.search(text, pos, final=True)
        if m is None:
            break
        xml_pair(out, merged, m, parser, merge, typer)
        pos = m.end if m.end > m.start else m.end + 1
    return out


def xml_pair(
    out: dict[str, Any],
    merged: set[str],
    m: Match,
    parser: Any,
    merge: bool,
    typer: Typer,
) -> tuple[str, Any] | None:
    """Add one ``tag_pattern`` match to ``out``; return ``(key, value)`` (``None`` when the
    match has no key)."""
    key = m.groups.get("key")
    if key is None:
        return None
    value = sub_value(m.groups.get("value", ""), parser, key, typer)
    if key in out and merge:
        if key not in merged:
            out[key] = [out[key]]
            merged.add(key)
        out[key].append(value)
    else:
        out[key] = value
    return key, value


def kv_pair(line: str, args: Mapping[str, Any], typer: Typer) -> tuple[str, Any] | None:
    """One ``kv-lines`` line as ``(key, value)``; ``None`` for a line without a pair."""
    kv_sep = args.get("kv_sep", ":")
    line = _text(line, args)
    if not line or kv_sep not in line:
        return None
    key, value = line.split(kv_sep, 1)
    key, value = _text(key, args), _text(value, args)
    return key, sub_value(value, args.get("value_parser"), key, typer)


def _kv_lines(text: str, args: Mapping[str, Any], typer: Typer) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for line in text.split(args.get("line_sep", "\n")):
        pair = kv_pair(line, args, typer)
        if pair is not None:
            out[pair[0]] = pair[1]
    return out


def parse_content(text: str, parser: str, args: Mapping[str, Any], typer: Typer = _untyped) -> Any:
    """A region's text through the content parser ``parser`` with ``args``."""
    if parser == "text":
        return _text(text, args)
    if parser == "int":
        return int(_text(text, args))
    if parser == "float":
        return float(_text(text, args))
    if parser == "bool":
        return _text(text, args).lower() in ("true", "1")
    if parser == "json":
        return lax_json(text, args)
    if parser == "xml-inline":
        return _tags(text, args, typer)
    if parser == "kv-lines":
        return _kv_lines(text, args, typer)
    if parser == "python-call-list":
        return python_call_list(text)
    raise ValueError(f"unknown content parser {parser!r}")


def apply_transform(transform: Any, scope: Mapping[str, Any]) -> Any:
    """Build a value from a ``transform``: ``"{name}"`` / ``"{content.key}"`` strings are
    looked up in ``scope``; everything else is kept as written."""
    if isinstance(transform, dict):
        return {k: apply_transform(v, scope) for k, v in transform.items()}
    if isinstance(transform, list):
        return [apply_transform(v, scope) for v in transform]
    if not isinstance(transform, str):
        return transform
    whole = _PLACEHOLDER.fullmatch(transform)
    if whole is None:
        return transform
    root, *keys = whole.group(1).split(".")
    if root not in scope:
        raise ValueError(f"transform placeholder {transform!r} is not defined")
    value = scope[root]
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            raise ValueError(f"transform placeholder {transform!r} has no key {key!r}")
        value = value[key]
    return value


def calls_in(value: Any) -> list[tuple[str, dict[str, Any], str | None]]:
    """The ``(name, arguments, id)`` of each call in a ``tool_calls`` value: one call shaped
    ``{"type": "function", "function": {"name", "arguments"}, "id"?}`` (or the bare function
    object), or a list of them. Arguments may be a dict or a JSON string holding one."""
    items = value if isinstance(value, list) else [value]
    out = []
    for item in items:
        if not isinstance(item, dict):
            raise ValueError("a tool call must be an object")
        fn = item.get("function", item)
        if not isinstance(fn, dict):
            raise ValueError("a tool call's function must be an object")
        name = fn.get("name")
        if not isinstance(name, str) or not name:
            raise ValueError("tool call has no name")
        args = fn.get("arguments", fn.get("parameters", {}))
        if isinstance(args, str):
            args = _decode(args) if args.strip() else {}
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise ValueError("arguments must be an object")
        call_id = item.get("id", fn.get("id"))
        out.append((name, args, call_id if isinstance(call_id, str) and call_id else None))
    return out


# -- python-call-list ----------------------------------------------------------------------

_WS = re.compile(r"[ \t\n\r]*")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[-.][A-Za-z0-9_]+)*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?")
_STRING = re.compile(r"""'((?:[^'\\\n\r]|\\.)*)'|"((?:[^"\\\n\r]|\\.)*)\"""", re.DOTALL)
_ESCAPES = {
    "\\": "\\",
    "'": "'",
    '"': '"',
    "/": "/",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
}
_CONSTANTS: dict[str, Any] = {
    "True": True,
    "true": True,
    "False": False,
    "false": False,
    "None": None,
    "null": None,
}
_MAX_INT = 2**53 - 1
_HEX = frozenset("0123456789abcdefABCDEF")
_MAX_DEPTH = 100


class _Calls:
    """The spec's strict grammar for ``[name(key=value, ...), ...]``."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def fail(self, message: str) -> ValueError:
        return ValueError(f"python-call-list: {message} at position {self.pos}")

    def at(self, ch: str) -> bool:
        m = _WS.match(self.text, self.pos)
        self.pos = m.end() if m else self.pos
        return self.text.startswith(ch, self.pos)

    def expect(self, ch: str) -> None:
        if not self.at(ch):
            raise self.fail(f"expected {ch!r}")
        self.pos += 1

    def items(self, close: str, item: Callable[[], Any]) -> list[Any]:
        out: list[Any] = []
        if self.at(close):
            self.pos += 1
            return out
        while True:
            out.append(item())
            if self.at(close):
                self.pos += 1
                return out
            self.expect(",")

    def unique(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise self.fail(f"repeated name {key!r}")
            out[key] = value
        return out

    def string(self) -> str:
        m = _STRING.match(self.text, self.pos)
        if m is None:
            raise self.fail("invalid string")
        body = m.group(1) if m.group(1) is not None else m.group(2)
        out: list[str] = []
        i = 0
        while i < len(body):
            ch = body[i]
            if "\ud800" <= ch <= "\udfff":
                raise self.fail("lone surrogate in a string")
            if ch != "\\":
                out.append(ch)
                i += 1
                continue
            nxt = body[i + 1]
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
                i += 2
                continue
            code = _hex4(body, i + 1)
            if code is None:
                raise self.fail(f"unsupported escape {body[i : i + 2]!r}")
            i += 6
            if 0xD800 <= code <= 0xDBFF:
                low = _hex4(body, i + 1) if body.startswith("\\u", i) else None
                if low is not None and 0xDC00 <= low <= 0xDFFF:
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
            if 0xD800 <= code <= 0xDFFF:
                raise self.fail("lone surrogate escape in a string")
            out.append(chr(code))
        self.pos = m.end()
        return "".join(out)

    def value(self, depth: int) -> Any:
        if self.at("'") or self.at('"'):
            return self.string()
        if self.at("[") or self.at("{"):
            if depth >= _MAX_DEPTH:
                raise self.fail(f"nested more than {_MAX_DEPTH} levels deep")
            opener = self.text[self.pos]
            self.pos += 1
            if opener == "[":
                return self.items("]", lambda: self.value(depth + 1))
            return self.unique(self.items("}", lambda: self.pair(depth + 1)))
        m = _NUMBER.match(self.text, self.pos)
        if m is not None:
            self.pos = m.end()
            if m.group(1) is None and m.group(2) is None:
                if len(m.group()) > 17 or abs(int(m.group())) > _MAX_INT:
                    raise self.fail("integer out of range")
                return int(m.group())
            number = float(m.group())
            if number in (float("inf"), float("-inf")):
                raise self.fail("number too large")
            return number
        m = _NAME.match(self.text, self.pos)
        if m is not None and m.group() in _CONSTANTS:
            self.pos = m.end()
            return _CONSTANTS[m.group()]
        raise self.fail("expected a string, number, list, dict, True, False or None")

    def pair(self, depth: int) -> tuple[str, Any]:
        if not (self.at("'") or self.at('"')):
            raise self.fail("dict keys must be strings")
        key = self.string()
        self.expect(":")
        return key, self.value(depth)

    def name(self, what: str) -> str:
        self.at("")
        m = _NAME.match(self.text, self.pos)
        if m is None:
            raise self.fail(f"expected {what}")
        self.pos = m.end()
        return m.group()

    def argument(self) -> tuple[str, Any]:
        key = self.name("a keyword argument")
        self.expect("=")
        return key, self.value(0)

    def call(self) -> dict[str, Any]:
        name = self.name("a function name")
        self.expect("(")
        return {"name": name, "arguments": self.unique(self.items(")", self.argument))}

    def calls(self) -> list[dict[str, Any]]:
        self.expect("[")
        out = self.items("]", self.call)
        self.at("")
        if self.pos != len(self.text):
            raise self.fail("unexpected text after the closing ']'")
        return out


def _hex4(text: str, at: int) -> int | None:
    """The code of ``uXXXX`` at ``at`` (``None`` when it is not one)."""
    digits = text[at + 1 : at + 5]
    if text[at : at + 1] != "u" or len(digits) != 4 or not all(c in _HEX for c in digits):
        return None
    return int(digits, 16)


def python_call_list(text: str) -> list[dict[str, Any]]:
    """``[get_weather(city="Paris"), ping()]`` as ``[{"name", "arguments"}, ...]``."""
    return _Calls(text).calls()
