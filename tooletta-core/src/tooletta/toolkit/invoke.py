"""The ``<invoke name="F"><parameter name="K">V</parameter></invoke>`` grammar, read and written.

MiniMax-M2, dots.llm and Step3 (with a ``steptml:`` prefix) write a call as an ``invoke``
element whose ``name`` attribute is the tool, holding one ``parameter`` element per argument
whose body is the raw value: strings verbatim, other values as JSON. :class:`InvokeSyntax`
names the tags of one spelling; :func:`read_invoke` / :func:`read_invokes` read calls with the
engine's primitives (string values stream as they arrive, other values are typed by the tool
schema when they close); :func:`render_invoke` writes one call back, refusing what the syntax
cannot carry. :func:`scan_invoke` and :func:`fast_invokes` are their one-shot shortcuts
(``Block.fast``): they read a whole, well-formed block with ``str.find`` and give exactly what
the readers give, or decline.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..engine import BlockError, BlockReader, FastReader, Incomplete, MarkerSet, Read, Reader
from ..errors import RenderError
from ..ir import ToolCall
from ..jsonout import to_json
from .args import ArgsWriter, typed_value
from .fastxml import kinds_of, one_shot, skip_ws, typed

__all__ = [
    "InvokeSyntax",
    "decode_entities",
    "fast_invokes",
    "free_of",
    "guarded",
    "quote_attribute",
    "read_attributes",
    "read_invoke",
    "read_invokes",
    "render_invoke",
    "render_value",
    "scan_attributes",
    "scan_invoke",
    "scan_name",
    "tag_boundary",
]

_ATTR_NAME = re.compile(r"[^\s=>/\"'<]*")
_UNQUOTED = re.compile(r"[^\s>\"'<]*")
_ENTITY = re.compile(r"&(quot|amp|lt|gt|apos|#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6});")
_NAMED = {"quot": '"', "amp": "&", "lt": "<", "gt": ">", "apos": "'"}
_TAG_END = " \t\r\n>"
_NEVER = re.compile("(?!)")


@dataclass(frozen=True)
class InvokeSyntax:
    """The tags of one spelling of the invoke/parameter grammar.

    ``invoke`` and ``parameter`` are the opening tags without their attributes and ``>``;
    ``name_attr`` is the attribute naming the tool and the parameter. ``entities=True`` decodes
    (and, when rendering, writes) ``&quot;``-style entities in attribute values, for formats
    whose templates escape them. ``trim`` is the framing removed around values (see
    :func:`tooletta.toolkit.typed_value`): ``""`` keeps the text the template wrote verbatim.
    """

    invoke: str = "<invoke"
    invoke_close: str = "</invoke>"
    parameter: str = "<parameter"
    parameter_close: str = "</parameter>"
    name_attr: str = "name"
    entities: bool = False
    trim: str = ""
    value_ends: MarkerSet = field(init=False, repr=False, compare=False)
    name_tag: re.Pattern[str] = field(init=False, repr=False, compare=False)
    """The rest of a start tag in the common case, `` name="F">`` (one-shot reading)."""
    parameter_tag: re.Pattern[str] | None = field(init=False, repr=False, compare=False)
    """Whitespace, then a parameter's start tag in the common case (one-shot reading)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "value_ends", MarkerSet((self.parameter_close,)))
        rest = f' {re.escape(self.name_attr)}="([^"]*)">'
        object.__setattr__(self, "name_tag", re.compile(rest))
        clash = self.invoke_close.startswith(self.parameter)  # then the closing tag wins
        tag = None if clash else re.compile(f"[ \t\r\n]*{re.escape(self.parameter)}{rest}")
        object.__setattr__(self, "parameter_tag", tag)


def guarded(read: BlockReader) -> BlockReader:
    """``read`` with a ``UnicodeError`` turned into a malformed block.

    msgspec refuses text holding a lone surrogate (``"\\ud800"``) with ``UnicodeEncodeError``;
    core's JSON helpers and ``coerce_value`` let it through. Until they catch it, a block
    holding such text is reported as unparsed instead of escaping as a crash.
    """

    def wrapped(r: Reader) -> Read[Any]:
        try:
            return (yield from read(r))
        except UnicodeError as exc:
            raise BlockError(f"text that cannot be encoded: {exc}", r.pos) from None

    wrapped.__doc__ = read.__doc__
    return wrapped


def decode_entities(text: str) -> str:
    """Replace the XML entities ``&quot; &amp; &lt; &gt; &apos;`` and ``&#N;``/``&#xH;``."""
    if "&" not in text:
        return text

    def one(m: re.Match[str]) -> str:
        ref = m.group(1)
        if ref[0] != "#":
            return _NAMED[ref]
        code = int(ref[2:], 16) if ref[1] in "xX" else int(ref[1:])
        return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else m.group()

    return _ENTITY.sub(one, text)


def quote_attribute(value: str, entities: bool) -> str | None:
    """``value`` ready to stand between double quotes, or ``None`` when it cannot.

    With ``entities``, ``& < > "`` are escaped. Without, the format has no escapes, so a value
    holding ``"``, ``<``, ``>`` or a line break is refused (peers read names up to ``">``).
    """
    if entities:
        return (
            value.replace("&", "&amp;")
            .replace("<", "&lt;")
            .replace(">", "&gt;")
            .replace('"', "&quot;")
        )
    if type(value) is str and value.isidentifier():  # letters, digits and _ only
        return value
    for ch in '"<>\r\n':  # a loop, not any(): no generator for every name
        if ch in value:
            return None
    return value


def _read_run(r: Reader, pattern: re.Pattern[str]) -> Read[str]:
    """Consume the longest run matching ``pattern`` (a character class repeated)."""
    parts: list[str] = []
    while True:
        m = pattern.match(r.buf, r.pos)
        end = m.end() if m else r.pos
        parts.append(r.buf[r.pos : end])
        r.pos = end
        if end < len(r.buf) or r.final:
            return "".join(parts)
        yield


def read_attributes(r: Reader, entities: bool = False) -> Read[dict[str, str]]:
    """Read ``name="value" ...>`` up to and through the ``>`` that closes a start tag.

    Values may be double-quoted, single-quoted or bare; an attribute without ``=`` has the
    value ``""``. With ``entities``, entity references in values are decoded.
    """
    attrs: dict[str, str] = {}
    while True:
        yield from r.ws()
        ch = yield from r.peek()
        if not ch:
            raise Incomplete("text ended inside a start tag", r.pos)
        if ch == ">":
            r.pos += 1
            return attrs
        name = yield from _read_run(r, _ATTR_NAME)
        if not name:
            raise r.fail(f"unexpected {ch!r} in a start tag")
        yield from r.ws()
        value = ""
        if (yield from r.accept("=")):
            yield from r.ws()
            quote = yield from r.peek()
            if quote in ('"', "'"):
                r.pos += 1
                value, _ = yield from r.until((quote,))
            else:
                value = yield from _read_run(r, _UNQUOTED)
        attrs[name] = decode_entities(value) if entities else value


def scan_attributes(
    text: str, pos: int, entities: bool = False
) -> tuple[dict[str, str], int] | None:
    """:func:`read_attributes` on the whole text from ``pos``: the attributes and the position
    after the ``>``, or ``None`` where it would fail."""
    attrs: dict[str, str] = {}
    n = len(text)
    while True:
        pos = skip_ws(text, pos)
        if pos >= n:
            return None
        if text[pos] == ">":
            return attrs, pos + 1
        end = _ATTR_NAME.match(text, pos).end()  # type: ignore[union-attr]
        if end == pos:
            return None
        name = text[pos:end]
        pos = skip_ws(text, end)
        value = ""
        if text.startswith("=", pos):
            pos = skip_ws(text, pos + 1)
            quote = text[pos : pos + 1]
            if quote == '"' or quote == "'":
                close = text.find(quote, pos + 1)
                if close < 0:
                    return None
                value = text[pos + 1 : close]
                pos = close + 1
            else:
                end = _UNQUOTED.match(text, pos).end()  # type: ignore[union-attr]
                value = text[pos:end]
                pos = end
        attrs[name] = decode_entities(value) if entities else value


def scan_name(text: str, pos: int, syntax: InvokeSyntax) -> tuple[str | None, int]:
    """The ``syntax.name_attr`` attribute of a start tag whose attributes start at ``pos``
    and the position after its ``>``, as :func:`read_attributes` reads them (``None``: there
    is none, or the reader fails)."""
    m = syntax.name_tag.match(text, pos)
    if m is not None:  # the common case: `` name="F">``
        value = m.group(1)
        return (decode_entities(value) if syntax.entities else value), m.end()
    got = scan_attributes(text, pos, syntax.entities)
    if got is None:
        return None, -1
    return got[0].get(syntax.name_attr), got[1]


def tag_boundary(r: Reader, tag: str) -> Read[None]:
    """After an opening tag's name: fail unless whitespace or ``>`` follows it."""
    ch = yield from r.peek()
    if not ch:
        raise Incomplete(f"text ended inside {tag!r}", r.pos)
    if ch not in _TAG_END:
        raise r.fail(f"expected attributes after {tag!r}")


def read_invoke(r: Reader, syntax: InvokeSyntax) -> Read[None]:
    """Read one call from just after ``syntax.invoke`` through its ``invoke_close``.

    The call starts as soon as its name is read; each parameter streams through
    :func:`~tooletta.toolkit.typed_value` (string parameters as they arrive).
    """
    yield from tag_boundary(r, syntax.invoke)
    attrs = yield from read_attributes(r, syntax.entities)
    name = attrs.get(syntax.name_attr)
    if name is None:
        raise r.fail(f"{syntax.invoke!r} without a {syntax.name_attr!r} attribute")
    r.start_call(name)
    w = ArgsWriter(r, name)
    while True:
        yield from r.ws()
        got = yield from r.accept(syntax.invoke_close, syntax.parameter)
        if got == syntax.invoke_close:
            break
        if not got:
            if r.pos >= len(r.buf) and r.final:
                raise Incomplete(f"text ended inside {syntax.invoke!r}", r.pos)
            raise r.fail(f"expected {syntax.parameter!r} or {syntax.invoke_close!r}")
        yield from tag_boundary(r, syntax.parameter)
        pattrs = yield from read_attributes(r, syntax.entities)
        key = pattrs.get(syntax.name_attr)
        if key is None:
            raise r.fail(f"{syntax.parameter!r} without a {syntax.name_attr!r} attribute")
        yield from typed_value(r, w, key, syntax.value_ends, trim=syntax.trim)
    w.close()


def read_invokes(r: Reader, syntax: InvokeSyntax, close: str) -> Read[None]:
    """Read invokes separated by whitespace up to and through ``close``.

    Text that ends after a complete invoke (``close`` never came) is accepted.
    """
    while True:
        yield from r.ws()
        got = yield from r.accept(close, syntax.invoke)
        if got == close:
            return
        if got:
            yield from read_invoke(r, syntax)
            continue
        if (yield from r.at_end()):
            return
        raise r.fail(f"expected {syntax.invoke!r} or {close!r}")


def scan_invoke(
    text: str,
    pos: int,
    syntax: InvokeSyntax,
    tools: Any,
    calls: list[ToolCall],
    rename: Callable[[str, Any], str] | None = None,
) -> int:
    """One-shot :func:`read_invoke`: the call from ``pos`` (just after ``syntax.invoke``)
    through ``invoke_close``, appended to ``calls``; return the position after it, or ``-1``
    where the reader would fail. ``rename(name, tools)`` maps the name the model wrote.

    Typing may raise (wrap the fast reader in :func:`~tooletta.toolkit.fastxml.one_shot`).
    """
    n = len(text)
    if pos >= n or text[pos] not in _TAG_END:
        return -1
    name, pos = scan_name(text, pos, syntax)
    if name is None:
        return -1
    if rename is not None:
        name = rename(name, tools)
    kinds, kind = kinds_of(tools, name)
    values: dict[str, Any] = {}
    clash = syntax.parameter_tag is None
    match = _NEVER.match if syntax.parameter_tag is None else syntax.parameter_tag.match
    entities = syntax.entities
    parameter = syntax.parameter
    invoke_close = syntax.invoke_close
    param_close = syntax.parameter_close
    n_close = len(param_close)
    trim = syntax.trim
    find = text.find
    while True:
        m = match(text, pos)
        if m is not None:  # the common case: whitespace and `<parameter name="K">`
            key: str = decode_entities(m.group(1)) if entities else m.group(1)
            pos = m.end()
        else:
            pos = skip_ws(text, pos)
            if text.startswith(invoke_close, pos) and (
                clash or not text.startswith(parameter, pos)
            ):
                calls.append(ToolCall(name, values))
                return pos + len(invoke_close)
            if not text.startswith(parameter, pos):
                return -1
            pos += len(parameter)
            if pos >= n or text[pos] not in _TAG_END:
                return -1
            got, pos = scan_name(text, pos, syntax)
            if got is None:
                return -1
            key = got
        end = find(param_close, pos)
        if end < 0:
            return -1
        t, schema = kinds.get(key) or kind(name, key)
        if t == "string" and not trim:
            values[key] = text[pos:end]
        else:
            values[key] = typed(text[pos:end], t, schema, trim)
        pos = end + n_close


def fast_invokes(
    syntax: InvokeSyntax, close: str, rename: Callable[[str, Any], str] | None = None
) -> FastReader:
    """The one-shot shortcut (``Block.fast``) of a block that :func:`read_invokes` reads with
    ``syntax`` and ``close``: whitespace-separated invokes, then ``close``. A block that is
    not that, whole and well-formed (no ``close``, a stray tag, a value typing rejects), is
    left to the reader."""
    invoke = syntax.invoke
    close_first = len(close) >= len(invoke)  # the longer literal wins where both match

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        while True:
            pos = skip_ws(text, pos)
            if close_first and text.startswith(close, pos):
                return pos + len(close)
            if text.startswith(invoke, pos):
                pos = scan_invoke(text, pos + len(invoke), syntax, tools, calls, rename)
                if pos < 0:
                    return -1
            elif text.startswith(close, pos):
                return pos + len(close)
            else:
                return -1

    return one_shot(fast)


def free_of(text: str, marker: str) -> bool:
    """True when ``marker`` first occurs in ``text + marker`` right after ``text``."""
    if marker[:1] not in text:  # no earlier occurrence can start inside text
        return True
    return (text + marker).find(marker) == len(text)


def render_value(value: Any, close: str, error: Callable[[str], RenderError]) -> str:
    """A parameter body: a string verbatim, anything else as JSON (``tojson``).

    A string that holds ``close`` cannot be written (the format has no escapes); JSON that
    would hold it has its ``<`` written ``\\u003c`` (the same value once decoded).
    """
    if isinstance(value, str):
        if not free_of(value, close):
            raise error(f"a string value contains {close!r}")
        return value
    kind = type(value)
    if kind is int:  # JSON writes an int as its repr (past the digit limit: to_json refuses)
        try:
            text = repr(value)
        except ValueError:
            text = to_json(value)
    elif value is None or kind is bool:
        text = "null" if value is None else "true" if value else "false"
    else:
        text = to_json(value)
    if not free_of(text, close):
        text = text.replace("<", "\\u003c")
    return text


def render_invoke(
    name: str,
    arguments: Mapping[str, Any],
    syntax: InvokeSyntax,
    error: Callable[[str], RenderError],
    *,
    empty: str = "\n",
) -> str:
    """One call: ``<invoke name="F">\\n`` then ``<parameter name="K">V</parameter>\\n`` per
    argument, then ``</invoke>`` (``empty`` is the body of a call without arguments)."""
    qname = quote_attribute(name, syntax.entities)
    if qname is None:
        raise error(f"the tool name {name!r} cannot be written in an attribute")
    parts = [f'{syntax.invoke} {syntax.name_attr}="{qname}">']
    params = []
    for key, value in arguments.items():
        qkey = quote_attribute(key, syntax.entities)
        if qkey is None:
            raise error(f"the argument name {key!r} cannot be written in an attribute")
        body = render_value(value, syntax.parameter_close, error)
        params.append(
            f'{syntax.parameter} {syntax.name_attr}="{qkey}">{body}{syntax.parameter_close}\n'
        )
    parts.append("\n" + "".join(params) if params else empty)
    parts.append(syntax.invoke_close)
    return "".join(parts)
