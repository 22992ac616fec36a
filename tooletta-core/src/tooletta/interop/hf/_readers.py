"""The block readers an imported template's grammar is made of.

Each block opens at a literal marker (found by the engine); its reader first matches the
rest of the field's ``open_pattern`` there (:func:`open_field`, declining when it does not
match, so the marker stays content), then reads the field's body and its close. Tool calls
stream: a JSON body through the engine's JSON readers (arguments fragment by fragment), an
``xml-inline`` or ``kv-lines`` body one parameter at a time as each is decided; any other
body (``python-call-list``, ``json`` with the lax switches, unusual ``transform`` shapes) is
read whole and its calls sent at its close. A malformed body raises :class:`BlockError`: the
engine keeps the block as unparsed data and reads on after it.

Where a ``response_template`` ends a region is decided as transformers decides it: the
earliest match of the close pattern (for ``xml-inline`` and ``kv-lines`` bodies, and for
text); a JSON body ends where the JSON value does (so a closing tag inside a string
argument does not cut it), then the close must follow.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from json.encoder import encode_basestring
from typing import Any

from ...engine import MAX_DEPTH, BlockError, Decline, Read, Reader, json_call_object, json_value
from ...engine.markers import MarkerSet, marker_set
from ...engine.reader import Incomplete
from ...engine.trim import Trimmer
from ...toolkit.args import ArgsWriter
from ...toolkit.reading import end_json_call
from ...toolkit.schema import coerce_value
from ._regex import NEED, Lit, Match, Opener, Pattern, Seq, compile_pattern, is_space
from ._template import Delimiter, FieldSpec
from ._values import Typer, apply_transform, calls_in, kv_pair, parse_content, xml_pair

__all__ = [
    "CallShape",
    "Candidate",
    "call_shape",
    "expect_close",
    "open_field",
    "read_field",
    "read_to_close",
]

Sink = Callable[[str], None]


@dataclass(frozen=True)
class Candidate:
    """A field that may open (``kind="open"``) or the leftover field that may end
    (``kind="close"``) at one marker, with the opener to match there."""

    kind: str
    field: FieldSpec
    opener: Opener


def _decide(r: Reader, tries: Sequence[tuple[Any, Pattern]]) -> tuple[Any, Match | None, bool]:
    """Match each pattern at ``r.pos``: the best ``(item, match)`` (longest; the first on a
    tie) and whether some pattern is still undecided."""
    best: tuple[Any, Match] | None = None
    pending = False
    for item, pattern in tries:
        got = pattern.match(r.buf, r.pos, final=r.final)
        if got == NEED:
            pending = True
        elif isinstance(got, Match) and (best is None or got.end > best[1].end):
            best = (item, got)
    if best is None:
        return None, None, pending
    return best[0], best[1], pending


_EAGER = 64
"""Undecided text shorter than this is matched again on every delta; longer text only once
it has doubled, so that a long undecided match costs linear time in all."""


def _due(seen: int, waited: int) -> bool:
    """Whether an undecided match that had ``waited`` characters, now with ``seen``, should be
    tried again (the answer can only have changed with more text; trying later is safe)."""
    return waited < 0 or seen < _EAGER or seen >= 2 * waited


def open_field(r: Reader, candidates: Sequence[Candidate]) -> Read[tuple[Candidate, Match]]:
    """At a marker (``r.pos``), the candidate whose pattern matches there (the longest; an
    opener before a close), consumed; :class:`Decline` when none does."""
    tries = [(c, c.opener.pattern) for c in candidates]
    waited = -1
    while True:
        seen = len(r.buf) - r.pos
        if not r.final and not _due(seen, waited):
            yield
            continue
        item, m, pending = _decide(r, tries)
        if pending and not r.final:
            waited = seen
            yield
            continue
        if item is None or m is None:
            raise Decline
        r.pos = m.end
        return item, m


def read_to_close(
    r: Reader, close: Delimiter | None, sink: Sink | None
) -> Read[tuple[str, dict[str, str]]]:
    """Read a region's text up to its close and move past the close; return ``(text,
    captures)``. With ``sink`` the text is passed on as it arrives (holding back only what
    may be the close) and the returned text is "". The end of the text ends it too."""
    parts: list[str] = []
    out = sink if sink is not None else parts.append
    if close is not None and close.starts.anywhere:
        return "", {}
    openers = close.starts.openers if close is not None else ()
    ms = marker_set([o.marker for o in openers])
    while True:
        buf, pos = r.buf, r.pos
        i, _ = ms.find(buf, pos) if ms else (-1, "")
        if i >= 0 and (r.final or not ms.extends(buf, i)):
            if i > pos:
                out(buf[pos:i])
            r.pos = i
            tries = [(o, o.pattern) for o in openers if buf.startswith(o.marker, i)]
            _, m, pending = _decide(r, tries)
            if pending and not r.final:
                yield
                continue
            if m is not None:
                r.pos = m.end
                return "".join(parts), m.groups
            out(buf[i])  # not a close after all
            r.pos = i + 1
            continue
        if r.final:
            if pos < len(buf):
                out(buf[pos:])
            r.pos = len(buf)
            return "".join(parts), {}
        cut = ms.partial_start(buf, pos) if ms and i < 0 else (i if i >= 0 else len(buf))
        if cut > pos:
            out(buf[pos:cut])
            r.pos = cut
        yield


def expect_close(
    r: Reader, close: Delimiter | None, ends: MarkerSet | None = None
) -> Read[dict[str, str]]:
    """The close must come next (after whitespace): move past it and return its captures.

    The end of the text closes too (a reply cut after its last call), and so does another
    of the grammar's markers (``ends``), which is left for the scanner: a missing close is
    forgiven where nothing is lost.
    """
    if close is None or close.starts.anywhere:
        return {}
    tries = [(o, o.pattern) for o in close.starts.openers]
    for attempt in range(2):
        while True:
            if r.pos >= len(r.buf):
                if r.final:
                    return {}
                yield
                continue
            _, m, pending = _decide(r, tries)
            if pending and not r.final:
                yield
                continue
            if m is not None:
                r.pos = m.end
                return m.groups
            break
        if attempt == 0:
            yield from r.ws()
    while ends:
        marker = ends.match(r.buf, r.pos, r.final)
        if marker is None:
            yield
            continue
        if marker:
            return {}
        break
    raise r.fail("expected the end of the tool call")


# -- what a tool-call field's value looks like -----------------------------------------------


@dataclass(frozen=True)
class CallShape:
    """How a ``tool_calls`` field spells a call, when tooletta can stream it.

    ``kind``: ``object`` (the body is ``{"name", "arguments"}`` JSON), ``args`` (the name is
    the open pattern's group ``name`` and the body the arguments: JSON, ``xml-inline`` or
    ``kv-lines``) or ``whole`` (anything else: read whole, then the ``transform``).
    """

    kind: str
    name: str | None = None
    id: str | None = None
    lax: bool = False
    """A ``json`` body with the lax switches (``string_delims``, ``unquoted_keys``)."""


_WRAPPERS: tuple[dict[str, str], ...] = ({"type": "function"}, {})


def _placeholder(value: Any) -> str | None:
    if isinstance(value, str) and value.startswith("{") and value.endswith("}"):
        inner = value[1:-1]
        if inner.replace("_", "a").replace(".", "a").isalnum():
            return inner
    return None


def call_shape(field: FieldSpec) -> CallShape:
    """The :class:`CallShape` of a ``tool_calls`` field."""
    t = field.transform
    if field.transform_each or field.content not in ("json", "xml-inline", "kv-lines"):
        return CallShape("whole")
    if field.content == "json" and field.content_args.get("allow_non_json"):
        return CallShape("whole")
    lax = field.content == "json" and any(
        field.content_args.get(k) for k in ("string_delims", "unquoted_keys")
    )
    opened = field.open.pattern.names if field.open is not None else frozenset()
    call_id = None
    if isinstance(t, dict):
        rest = {k: v for k, v in t.items() if k not in ("function", "id")}
        if rest not in _WRAPPERS:
            return CallShape("whole")
        if "id" in t:
            call_id = _placeholder(t["id"])
            if call_id not in opened:
                return CallShape("whole")
        fn = t.get("function")
    else:
        fn = t
    if field.content == "json" and (fn is None or fn == "{content}"):
        return CallShape("whole") if lax else CallShape("object", id=call_id)
    if isinstance(fn, dict) and set(fn) == {"name", "arguments"}:
        name = _placeholder(fn["name"])
        if name in opened and fn["arguments"] == "{content}":
            return CallShape("args", name=name, id=call_id, lax=lax)
    return CallShape("whole")


# -- readers -------------------------------------------------------------------------------


def typer_for(r: Reader, tool: str | None) -> Typer:
    """Types a text value by ``tool``'s schema for its key (no schema: JSON where valid)."""
    tools = r.tools

    def typed(key: str, text: str) -> Any:
        schema = tools.param(tool, key) if tools and tool is not None else None
        return coerce_value(text, schema)

    return typed


def read_text(r: Reader, field: FieldSpec, out: Sink | None) -> Read[None]:
    """A text region: its body to ``out`` (``None``: dropped), framing whitespace trimmed
    as the ``text`` parser's ``strip`` says."""
    strip = field.content_args.get("strip", True) if field.content == "text" else True
    trim = Trimmer(out if out is not None else _drop, "space" if strip else "")
    yield from read_to_close(r, field.close, trim.feed)
    trim.close()


def _drop(text: str) -> None:
    return None


def read_call(
    r: Reader, field: FieldSpec, groups: dict[str, str], ends: MarkerSet | None = None
) -> Read[None]:
    """One ``tool_calls`` region, after its opener (``ends``: the grammar's markers)."""
    shape = call_shape(field)
    if shape.kind == "object":
        yield from json_call_object(r)
        if shape.id and groups.get(shape.id):
            r.set_id(groups[shape.id])
        yield from expect_close(r, field.close, ends)
        return
    if shape.kind == "args":
        name = groups.get(shape.name or "")
        if not name:
            raise r.fail("the tool call has no name")
        r.start_call(name, groups.get(shape.id) if shape.id else None)
        if field.content == "json" and shape.lax:
            yield from _lax_args(r, field, ends)
        elif field.content == "json":
            yield from _json_args(r, field, ends)
        elif field.content == "xml-inline":
            yield from _tag_args(r, field, name)
        else:
            yield from _line_args(r, field, name)
        return
    yield from _whole(r, field, groups)


def _json_args(r: Reader, field: FieldSpec, ends: MarkerSet | None) -> Read[None]:
    """A JSON arguments object streamed verbatim, then the close (nothing at all between
    the opener and the close means no arguments)."""
    yield from r.ws()
    lead = yield from r.peek()
    if lead != "{":
        yield from _no_args(r, field, ends, lead)
        return
    text = yield from json_value(r, r.args)
    end_json_call(r, text)
    yield from expect_close(r, field.close, ends)


def _no_args(r: Reader, field: FieldSpec, ends: MarkerSet | None, lead: str) -> Read[None]:
    """A call whose body is empty: the close (or the end) must come next."""
    if lead:
        yield from expect_close(r, field.close, ends)
    r.args("{}")
    r.end_call({})


_WORD = re.compile(r"(\w+)([ \t\r\n]*):")
_WORD_RUN = re.compile(r"\w+")
_PLAIN = re.compile(r'[^"{}\[\],\w \t\r\n]+')


def _lax_args(r: Reader, field: FieldSpec, ends: MarkerSet | None) -> Read[None]:
    """Arguments in the ``json`` parser's lax form (``string_delims``: strings between
    custom markers; ``unquoted_keys``: bare keys), translated to JSON as they arrive and
    streamed; the value ends where its brackets balance, so a close marker inside a string
    does not cut it."""
    args = field.content_args
    delims = [(str(p[0]), str(p[1])) for p in args.get("string_delims") or () if len(p) == 2]
    opens = tuple(o for o, _ in delims)
    bare = bool(args.get("unquoted_keys"))
    yield from r.ws()
    lead = yield from r.peek()
    if lead != "{":
        yield from _no_args(r, field, ends, lead)
        return
    parts: list[str] = []
    depth = 0
    after_sep = False  # just after "{" or ",": where a bare key may stand
    while True:
        out: list[str] = []
        buf, pos, n = r.buf, r.pos, len(r.buf)
        done = False
        while pos < n:
            opener = _which(buf, pos, opens, r.final) if opens else ""
            if opener is None:
                break  # could still be a string marker: wait
            if opener:
                close = dict(delims)[opener]
                r.pos = pos + len(opener)
                out.append('"')
                _flush(r, parts, out)
                yield from r.until((close,), lambda s: _emit(r, parts, _escape(s)))
                out.append('"')
                buf, pos, n = r.buf, r.pos, len(r.buf)
                after_sep = False
                if depth == 0:
                    done = True
                    break
                continue
            ch = buf[pos]
            if ch == '"':
                r.pos = pos
                _flush(r, parts, out)
                yield from json_value(r, lambda s: _emit(r, parts, s))
                buf, pos, n = r.buf, r.pos, len(r.buf)
                after_sep = False
                continue
            if ch in "{[":
                depth += 1
                if depth > MAX_DEPTH:
                    raise BlockError(f"JSON nested deeper than {MAX_DEPTH}", pos)
                after_sep = ch == "{"
            elif ch in "}]":
                depth -= 1
                after_sep = False
                if depth <= 0:
                    out.append(ch)
                    pos += 1
                    done = True
                    break
            elif ch == ",":
                after_sep = True
            elif ch in " \t\r\n":
                pass
            elif bare and after_sep and (ch.isalnum() or ch == "_"):
                m = _WORD.match(buf, pos)
                if m is None:
                    run = _WORD_RUN.match(buf, pos)
                    end = run.end() if run else pos + 1
                    if not r.final and _WORD_TAIL.fullmatch(buf, pos):
                        break  # a key or a word: not known yet
                    out.append(buf[pos:end])
                    pos = end
                else:
                    out.append(f'"{m.group(1)}"{m.group(2)}:')
                    pos = m.end()
                after_sep = False
                continue
            else:
                m = _PLAIN.match(buf, pos) or _WORD_RUN.match(buf, pos)
                end = m.end() if m else pos + 1
                out.append(buf[pos:end])
                pos = end
                after_sep = False
                continue
            out.append(ch)
            pos += 1
        r.pos = pos
        _flush(r, parts, out)
        if done:
            break
        if r.final:
            raise Incomplete("text ended inside the arguments", r.pos)
        yield
    end_json_call(r, "".join(parts))
    yield from expect_close(r, field.close, ends)


_WORD_TAIL = re.compile(r"\w*[ \t\r\n]*")


def _which(buf: str, pos: int, literals: tuple[str, ...], final: bool) -> str | None:
    """Which of ``literals`` starts at ``pos`` ("" when none does; ``None`` while the text
    ends inside one)."""
    undecided = False
    for lit in literals:
        if buf.startswith(lit, pos):
            return lit
        if len(buf) - pos < len(lit) and lit.startswith(buf[pos:]):
            undecided = True
    return None if undecided and not final else ""


def _escape(text: str) -> str:
    return encode_basestring(text)[1:-1]


def _emit(r: Reader, parts: list[str], text: str) -> None:
    if text:
        parts.append(text)
        r.args(text)


def _flush(r: Reader, parts: list[str], out: list[str]) -> None:
    if out:
        _emit(r, parts, "".join(out))
        out.clear()


class _Body:
    """Finds where a region's body ends (its close) as text arrives, remembering how far it
    has looked so the search stays linear."""

    def __init__(self, close: Delimiter | None):
        self.close = close
        self.openers = close.starts.openers if close is not None else ()
        self.ms = marker_set([o.marker for o in self.openers])
        self.checked = 0  # from r.pos: no close starts before r.pos + checked

    def consumed(self, n: int) -> None:
        """``n`` characters were consumed at ``r.pos``."""
        self.checked = max(0, self.checked - n)

    def end(self, r: Reader) -> tuple[int, Match | None, bool]:
        """``(limit, close, decided)``: the body is known up to ``limit``; ``close`` is the
        close's match there when found; ``decided``: the body ends at ``limit``."""
        if self.close is not None and self.close.starts.anywhere:
            return r.pos, None, True
        buf = r.buf
        at = r.pos + self.checked
        ms = self.ms
        while ms:
            i, _ = ms.find(buf, at)
            if i < 0 or (not r.final and ms.extends(buf, i)):
                break
            tries = [(o, o.pattern) for o in self.openers if buf.startswith(o.marker, i)]
            got: list[Match] = []
            pending = False
            for _, pattern in tries:
                m = pattern.match(buf, i, final=r.final)
                if m == NEED:
                    pending = True
                elif isinstance(m, Match) and (not got or m.end > got[0].end):
                    got = [m]
            if pending and not r.final:
                self.checked = i - r.pos
                return i, None, False
            if got:
                self.checked = i - r.pos
                return i, got[0], True
            at = i + 1
        if r.final:
            self.checked = len(buf) - r.pos
            return len(buf), None, True
        cut = ms.partial_start(buf, at) if ms else len(buf)
        self.checked = cut - r.pos
        return cut, None, False


def _tail_literal(pattern: Pattern) -> str:
    """The literal text every match of ``pattern`` ends with, but for optional whitespace
    (or ""): a match cannot be complete before it has arrived."""
    node = pattern.node
    items = node.items if isinstance(node, Seq) else (node,)
    for item in reversed(items):
        if isinstance(item, Lit):
            return item.text
        if not is_space(item):
            return ""
    return ""


def _tag_args(r: Reader, field: FieldSpec, tool: str) -> Read[None]:
    """``xml-inline`` arguments: each ``tag_pattern`` match is sent as soon as it is decided."""
    args = field.content_args
    tag = compile_pattern(args["tag_pattern"])
    tail = _tail_literal(tag)
    parser = args.get("value_parser")
    merge = bool(args.get("merge_duplicates", False))
    typer = typer_for(r, tool)
    writer = ArgsWriter(r, tool)
    values: dict[str, Any] = {}
    merged: set[str] = set()
    body = _Body(field.close)
    waited = -1  # from r.pos: the text an undecided match at r.pos had seen
    while True:
        limit, close, decided = body.end(r)
        while True:
            seen = limit - r.pos
            if not decided and waited >= 0:
                fresh = tail and r.buf.find(tail, r.pos + max(0, waited - len(tail)), limit) >= 0
                if not fresh and not _due(seen, waited):
                    break  # it cannot be complete yet: wait for more
            m, hold = tag.search(r.buf, r.pos, final=decided, end=limit)
            if m is None:
                step = hold - r.pos
                if step > 0:
                    body.consumed(step)
                    r.pos = hold
                waited = limit - r.pos if hold < limit else -1
                break
            waited = -1
            pair = _guarded(r, xml_pair, values, merged, m, parser, merge, typer)
            if pair is not None and not merge:
                writer.key(pair[0])
                writer.value(pair[0], pair[1])
            step = (m.end if m.end > m.start else m.end + 1) - r.pos
            body.consumed(step)
            r.pos += step
        if decided:
            break
        yield
    _finish_body(r, limit, close)
    if merge:
        for key, value in values.items():
            writer.key(key)
            writer.value(key, value)
    writer.close()


def _guarded(r: Reader, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, a value the template's parsers refuse making the block malformed."""
    try:
        return fn(*args)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise BlockError(str(exc) or type(exc).__name__, r.pos) from None


def _finish_body(r: Reader, limit: int, close: Match | None) -> None:
    r.pos = close.end if close is not None else max(r.pos, limit)


def _line_args(r: Reader, field: FieldSpec, tool: str) -> Read[None]:
    """``kv-lines`` arguments: each line is sent as soon as it is complete."""
    args = field.content_args
    sep = args.get("line_sep", "\n")
    if not isinstance(sep, str) or not sep:
        raise BlockError("kv-lines: line_sep must be a non-empty string", r.pos)
    typer = typer_for(r, tool)
    writer = ArgsWriter(r, tool)
    body = _Body(field.close)
    while True:
        limit, close, decided = body.end(r)
        while True:
            k = r.buf.find(sep, r.pos, limit)
            if k < 0:
                break
            _line(r, writer, r.buf[r.pos : k], args, typer)
            body.consumed(k + len(sep) - r.pos)
            r.pos = k + len(sep)
        if decided:
            _line(r, writer, r.buf[r.pos : limit], args, typer)
            break
        yield
    _finish_body(r, limit, close)
    writer.close()


def _line(r: Reader, writer: ArgsWriter, line: str, args: Any, typer: Typer) -> None:
    pair = _guarded(r, kv_pair, line, args, typer)
    if pair is not None:
        writer.key(pair[0])
        writer.value(pair[0], pair[1])


def _whole(r: Reader, field: FieldSpec, groups: dict[str, str]) -> Read[None]:
    """A body read whole, then the content parser and the ``transform``; its calls at once."""
    body, more = yield from read_to_close(r, field.close, None)
    captures = {**groups, **more}
    tool = captures.get("name")
    try:
        value = parse_content(body, field.content, field.content_args, typer_for(r, tool))
        if field.transform is None:
            result = value
        elif field.transform_each:
            if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
                raise ValueError("transform_each needs a list of objects")
            result = [apply_transform(field.transform, {**captures, **v}) for v in value]
        else:
            result = apply_transform(field.transform, {**captures, "content": value})
        calls = calls_in(result)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
        raise BlockError(str(exc) or type(exc).__name__, r.pos) from None
    for name, arguments, call_id in calls:
        r.call(name, arguments, call_id)


def read_field(
    r: Reader,
    field: FieldSpec,
    groups: dict[str, str],
    show: Sink,
    ends: MarkerSet | None = None,
) -> Read[None]:
    """A field's region after its opener, by the field's role (``show`` writes content;
    ``ends``: the grammar's markers)."""
    if field.role == "calls":
        yield from read_call(r, field, groups, ends)
    elif field.role == "content":
        yield from read_text(r, field, show)
    elif field.role == "reasoning":
        yield from read_text(r, field, r.reasoning)
    else:
        yield from read_text(r, field, None)
