"""The Qwen3-Coder XML call grammar, parametrised by its wrapper tag (Qwen3-Coder, Seed-OSS).

One call is ``<function=NAME>`` + ``<parameter=KEY>VALUE</parameter>``... + ``</function>``,
usually inside a wrapper (``<tool_call>``...``</tool_call>`` for Qwen3-Coder,
``<seed:tool_call>``...``</seed:tool_call>`` for Seed-OSS). Values are raw text typed by the
request's schema (:func:`tooletta.toolkit.typed_value`).

Tolerated, as vLLM's ``qwen3coder``/``seed_oss`` parsers do: a missing ``</parameter>`` (the
next ``<parameter=``, ``</function>`` or the wrapper's close ends the value), a missing
``</function>`` before the wrapper's close, several functions in one wrapper, a missing
wrapper close at the end of the text, and a bare ``<function=...>`` block with no wrapper at
all (followed, perhaps, by a stray wrapper close, which is dropped).

One-shot parsing reads well-formed blocks (every tag written) with :func:`fast_wrapped` and
:func:`fast_bare` (``Block.fast``); the tolerated forms above are left to the readers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..engine import Block, Decline, FastReader, Read, Reader
from ..engine.trim import trim_text
from ..errors import RenderError
from ..ir import ToolCall
from .args import ArgsWriter, one_shot_value, typed_value
from .fastxml import MAX_GAP, SPACE_RUN, skip_gap, tag_end
from .jsontext import json_without

__all__ = [
    "FUNC",
    "FUNC_END",
    "PARAM",
    "PARAM_END",
    "XmlTags",
    "call_blocks",
    "fast_bare",
    "fast_wrapped",
    "looks_like_function",
    "read_bare",
    "read_function",
    "read_wrapped",
    "render_call",
    "render_wrapped",
    "skip_optional",
]

FUNC = "<function="
FUNC_END = "</function>"
PARAM = "<parameter="
PARAM_END = "</parameter>"

_NAME_ENDS = (">", "\n", "<")
_BAD_NAME = re.compile(r"[\s<>]")
_WS = " \t\r\n"
_QUICK_NAME = 256
"""How far :func:`_fast_name` looks for the ``>`` of a common name before reading it in full."""
_N_PARAM = len(PARAM)
_N_PARAM_END = len(PARAM_END)
_N_FUNC_END = len(FUNC_END)


@dataclass(frozen=True)
class XmlTags:
    """One dialect's wrapper around the ``<function=...>`` grammar.

    ``call_close`` is the wrapper's closing tag (``</tool_call>``). ``pad`` is the template's
    layout of a value: ``True`` writes a newline on each side of it (Qwen3-Coder), ``False``
    writes it bare (Seed-OSS). Parsing always removes one newline on each side (vLLM's rule,
    ``trim="newline"``), so a padded or bare value reads back the same.
    """

    call_close: str
    pad: bool

    @cached_property
    def value_ends(self) -> tuple[str, ...]:
        """The markers that end a parameter value (built once per tags object)."""
        return (PARAM_END, PARAM, FUNC_END, self.call_close)


# -- reading ---------------------------------------------------------------------------------


def _name(raw: str, end: str) -> str | None:
    name = raw.strip(_WS)
    if end != ">" or not name or _BAD_NAME.search(name):
        return None
    return name


def read_function(r: Reader, tags: XmlTags) -> Read[str]:
    """Read one call from just after ``<function=``; return the marker that ended it
    (``</function>``, or the wrapper's close when ``</function>`` was left out)."""
    raw, end = yield from r.until(_NAME_ENDS)
    name = _name(raw, end)
    if name is None:
        raise r.fail("expected a function name and '>' after '<function='")
    r.start_call(name)
    w = ArgsWriter(r, name)
    ends = tags.value_ends
    lead = ""
    while True:
        if not lead:
            yield from r.ws()
            lead = yield from r.accept(PARAM, FUNC_END, tags.call_close)
        if lead == PARAM:
            raw, end = yield from r.until(_NAME_ENDS)
            key = _name(raw, end)
            if key is None:
                raise r.fail("expected a parameter name and '>' after '<parameter='")
            end = yield from typed_value(r, w, key, ends, trim="newline")
            lead = "" if end == PARAM_END else end
            continue
        if lead in (FUNC_END, tags.call_close):
            w.close()
            return lead
        raise r.fail(f"expected {PARAM!r} or {FUNC_END!r}")


def read_wrapped(r: Reader, tags: XmlTags) -> Read[None]:
    """Read a wrapper block from just after its opening tag: one or more functions.

    Prose that merely mentions the opening tag (followed by text, not by a tag or a JSON
    object) is given back as content (:class:`~tooletta.engine.Decline`), so it is never lost.
    """
    if not (yield from _opens_markup(r)):
        raise Decline
    yield from r.ws()
    yield from r.expect(FUNC)
    while True:
        end = yield from read_function(r, tags)
        if end == tags.call_close:
            return
        yield from r.ws()
        if (yield from r.at_end()):
            return  # the wrapper's close never came: the text ended after the call
        lit = yield from r.accept(tags.call_close, FUNC)
        if lit == tags.call_close:
            return
        if not lit:
            raise r.fail(f"expected {tags.call_close!r}")


def read_bare(r: Reader, tags: XmlTags) -> Read[None]:
    """Read a ``<function=...>`` block written without its wrapper.

    Prose that merely mentions ``<function=`` (not followed by ``NAME>`` and a parameter or
    ``</function>``) is given back as content (:class:`~tooletta.engine.Decline`).
    """
    if not (yield from looks_like_function(r)):
        raise Decline
    end = yield from read_function(r, tags)
    if end == FUNC_END:
        yield from skip_optional(r, tags.call_close)


def _opens_markup(r: Reader) -> Read[bool]:
    """Whether the next non-space character (within a short gap) is ``<`` or ``{``."""
    while True:
        buf = r.buf
        n = len(buf)
        i, gap_end = skip_gap(buf, r.pos)
        if i < n:
            return buf[i] in "<{" or i == gap_end
        if r.final:
            return True  # cut short right after the tag: an unfinished block, not prose
        yield


def looks_like_function(r: Reader) -> Read[bool]:
    """Whether ``NAME>``, optional whitespace, then ``<parameter=`` or ``</function>`` come next.

    Consumes nothing; waits only while the answer is open. The name may be of any length:
    each of its characters is looked at once, however the text arrives.
    """
    skip = 0
    while True:
        verdict, skip = _function_head(r.buf, r.pos, r.final, skip)
        if verdict is not None:
            return verdict
        yield


def _function_head(buf: str, pos: int, final: bool, skip: int = 0) -> tuple[bool | None, int]:
    """The answer of :func:`looks_like_function` for ``buf`` from ``pos`` (``None``: not
    known yet), and how far from ``pos`` the name is known to run (where the next look may
    resume: ``skip``)."""
    n = len(buf)
    i = _NAME_RUN.match(buf, pos + skip).end()  # type: ignore[union-attr]
    known = i - pos
    if i == n:
        return (False if final else None), known
    if buf[i] != ">" or i == pos:
        return False, known
    i += 1
    gap_end = min(n, i + MAX_GAP)  # skip_gap, inline: fast_bare asks this once per block
    while i < gap_end and buf[i] in _WS:
        i += 1
    if i == n:
        return (False if final else None), known
    tail = buf[i : i + max(len(PARAM), len(FUNC_END))]
    if tail.startswith((PARAM, FUNC_END)):
        return True, known
    if not final and i + len(tail) == n and (PARAM.startswith(tail) or FUNC_END.startswith(tail)):
        return None, known
    return False, known


def skip_optional(r: Reader, literal: str) -> Read[bool]:
    """Consume whitespace and ``literal`` if ``literal`` comes next; otherwise consume nothing."""
    while True:
        buf = r.buf
        n = len(buf)
        i, gap_end = skip_gap(buf, r.pos)
        tail = buf[i : i + len(literal)]
        if tail == literal:
            r.pos = i + len(literal)
            return True
        if r.final or (i == gap_end and i < n) or not literal.startswith(tail):
            return False
        yield


# -- one-shot shortcuts ----------------------------------------------------------------------
#
# Plain functions over the whole text that read exactly what the readers above read, for the
# common well-formed blocks, and give -1 for anything else (the reader then reads the block).
# Every scan stops where the reader's would (at the first '<' of a tag, or a short way ahead),
# so a block costs time linear in its own length whether it is read here or declined.

_NAME_RUN = re.compile(r"[^>\n<]*")
_FUNC_HEAD = re.compile(r"[ \t\r\n]*<function=(?:(\w+)>)?")
"""Whitespace and ``<function=``, with the name and its ``>`` when the name is a word."""
_PARAM = re.compile(
    r"[ \t\r\n]*(?:<parameter=(\w+)>(?:\r?\n)?((?:[^<]*[^<\r\n])?)(?:\r?\n)?</parameter>"
    r"|</function>)"
)
"""One parameter (and the whitespace before it) in the common form, a word for its name and
no ``<`` in its value, or else the function's close. Group 2 is the value as
:func:`read_function` gives it, trimmed (``trim_text(value, "newline")``), when that does not
end in a newline or ``\\r`` (no match then); group 1 is ``None`` at the close. Linear: each
part is followed by a literal it cannot hold."""
_NO_KINDS: dict[str, Any] = {}


def _no_kind(tool: str, key: str) -> tuple[str, None]:
    """What a value is typed by without tools: no schema."""
    return "", None


def _fast_name(text: str, i: int) -> tuple[str | None, int]:
    """The name of ``<function=`` or ``<parameter=`` from ``i``, as :func:`read_function`
    reads it (up to the first ``>``, newline or ``<``), and the offset after its ``>``;
    ``(None, -1)`` when the reader fails on it."""
    g = text.find(">", i, i + _QUICK_NAME)
    if g >= 0:
        raw = text[i:g]
        if raw.isidentifier():  # the common case: nothing to strip, nothing to refuse
            return raw, g + 1
    m = _NAME_RUN.match(text, i)
    g = m.end() if m else i
    if not text.startswith(">", g):
        return None, -1
    return _name(text[i:g], ">"), g + 1


def _fast_function(
    text: str, name: str, i: int, close: str, tools: Any, out: list[ToolCall]
) -> int:
    """Read the function ``name`` from just after its ``<function=NAME>`` as
    :func:`read_function` does, when every ``</parameter>`` and its ``</function>`` are
    written; append the call to ``out`` and return the offset after ``</function>``, or -1
    (nothing appended) for anything else. ``close`` is the wrapper's closing tag (it would end
    a value or the function)."""
    if tools is None:
        kinds = _NO_KINDS
        kind = _no_kind
    else:  # a ToolSchemas: without tools, every kind is ("", None), as the reader types
        kinds = tools.kinds(name)
        kind = tools.kind
    args: dict[str, Any] = {}
    match = _PARAM.match
    while True:
        m = match(text, i)
        if m is not None:  # the common case: one match, the value already trimmed
            key, raw = m.groups()
            if key is None:  # </function>
                out.append(ToolCall(name, args))
                return m.end()
            i = m.end()
        else:
            m = SPACE_RUN.match(text, i)
            if m:
                i = m.end()
            if not text.startswith(PARAM, i):
                return -1  # the wrapper's close (no </function>) or anything malformed
            key, i = _fast_name(text, i + _N_PARAM)
            if key is None:
                return -1
            e = tag_end(text, i, PARAM_END, (PARAM, FUNC_END, close))
            if e < 0:
                return -1
            raw = trim_text(text[i:e], "newline")
            i = e + _N_PARAM_END
        t, schema = kinds.get(key) or kind(name, key)
        args[key] = raw if t == "string" else one_shot_value(raw, t, schema)


def fast_wrapped(tags: XmlTags) -> FastReader:
    """The one-shot shortcut (``Block.fast``) for :func:`read_wrapped`.

    It reads a wrapper holding one or more well-formed functions (every ``</parameter>`` and
    ``</function>`` written), then the wrapper's close, exactly as the reader does; any
    other block (a tolerated missing tag, prose, malformed or truncated text, a value whose
    JSON nests too deeply) is left to the reader.
    """
    close = tags.call_close
    n_close = len(close)
    nl_close = "\n" + close  # the templates' layout after </function>
    head = _FUNC_HEAD.match

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        try:
            out: list[ToolCall] = []
            i = pos
            while True:  # whitespace, then a function (read_wrapped, read_function)
                m = head(text, i)
                if m is None:
                    return -1
                name = m.group(1)
                if name is None:
                    name, i = _fast_name(text, m.end())
                    if name is None:
                        return -1
                else:
                    i = m.end()
                i = _fast_function(text, name, i, close, tools, out)
                if i < 0:
                    return -1
                if text.startswith(nl_close, i):
                    calls += out
                    return i + 1 + n_close
                m = SPACE_RUN.match(text, i)
                if m and text.startswith(close, m.end()):
                    calls += out
                    return m.end() + n_close
                # else another function, or anything else (the head does not match)
        except Exception:  # the reader meets it too, and reports it its own way
            return -1

    return fast


def fast_bare(tags: XmlTags) -> FastReader:
    """The one-shot shortcut (``Block.fast``) for :func:`read_bare`.

    It reads a well-formed function (every ``</parameter>`` and its ``</function>`` written)
    and the stray wrapper close that may follow, exactly as the reader does; prose, a function
    ended by the wrapper's close, and anything malformed are left to the reader.
    """
    close = tags.call_close

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        try:
            if not _function_head(text, pos, True)[0]:
                return -1  # prose: the reader declines it
            name, i = _fast_name(text, pos)
            if name is None:
                return -1
            out: list[ToolCall] = []
            end = _fast_function(text, name, i, close, tools, out)
            if end < 0:
                return -1
            # skip_optional: a stray wrapper close after a short gap
            gap_end = min(len(text), end + MAX_GAP)
            j = end
            while j < gap_end and text[j] in _WS:
                j += 1
            if text.startswith(close, j):
                end = j + len(close)
            calls += out
            return end
        except Exception:  # the reader meets it too, and reports it its own way
            return -1

    return fast


# -- rendering -------------------------------------------------------------------------------


def _check_name(name: str, what: str, dialect: str) -> None:
    if not name or _BAD_NAME.search(name):
        raise RenderError(
            f"{what} {name!r} cannot be written in <function=/<parameter= tags "
            "(empty, or holding whitespace, '<' or '>')",
            dialect=dialect,
        )


def _scalar(value: Any) -> str:
    """Python ``str()`` of a scalar, as the chat templates' ``| string`` writes it."""
    if value is None:
        return "None"
    if isinstance(value, bool):
        return "True" if value else "False"
    return str(value)


def _value_text(value: Any, tags: XmlTags, dialect: str) -> str:
    ends = tags.value_ends
    if isinstance(value, str):
        for bad in ends:
            if bad in value:
                raise RenderError(f"a string value contains {bad!r}", dialect=dialect)
        if tags.pad:
            if value.endswith("\r"):
                raise RenderError(
                    "a string value ending in '\\r' cannot be written "
                    "(the template's newline after it would be read as a CRLF)",
                    dialect=dialect,
                )
            return value
        # bare values: one framing newline is removed on each side when parsing, so a value
        # that itself starts or ends with a newline gets one written around it
        head = "\n" if value.startswith(("\n", "\r\n")) else ""
        tail = "\n" if value.endswith("\n") else ""
        return head + value + tail
    if isinstance(value, float) and not math.isfinite(value):
        raise RenderError(f"{value!r} is not a JSON number", dialect=dialect)
    if isinstance(value, (dict, list)):
        return json_without(value, ends)
    return _scalar(value)


def render_call(name: str, arguments: dict[str, Any], tags: XmlTags, dialect: str) -> str:
    """``<function=NAME>`` with one ``<parameter=KEY>`` per argument, then ``</function>``.

    Strings are written verbatim; objects and arrays as JSON (``tojson``); other scalars as
    Python's ``str()`` does (``True``, ``None``, ``3``, ``1.5``), which the typing rules read
    back. Values that would end their tag early raise :class:`~tooletta.RenderError`.
    """
    bad_name = _BAD_NAME.search  # names are checked inline: _check_name only to raise
    if not name or bad_name(name):
        _check_name(name, "function name", dialect)
    parts = [f"{FUNC}{name}>\n"]
    nl = "\n" if tags.pad else ""
    for key, value in arguments.items():
        if not key or bad_name(key):
            _check_name(key, "parameter name", dialect)
        text = _value_text(value, tags, dialect)
        parts.append(f"{PARAM}{key}>{nl}{text}{nl}{PARAM_END}\n")
    parts.append(FUNC_END)
    return "".join(parts)


def render_wrapped(
    calls: Sequence[ToolCall],
    opening: str,
    tags: XmlTags,
    dialect: str,
    *,
    joiner: str = "\n",
    end: str = "",
) -> str:
    """Each call (:func:`render_call`) between ``opening`` and ``tags.call_close``, each on a
    line of its own and followed by ``end``, the calls joined by ``joiner``: by default as the
    Qwen3-Coder and Seed-OSS templates write them (one newline between calls)."""
    return joiner.join(
        [
            f"{opening}\n{render_call(c.name, c.arguments, tags, dialect)}\n{tags.call_close}{end}"
            for c in calls
        ]
    )


# -- grammar -----------------------------------------------------------------------------------


def call_blocks(opening: str, tags: XmlTags) -> tuple[Block, Block]:
    """The two blocks of a wrapped format: a call wrapper from ``opening`` to
    ``tags.call_close`` (:func:`read_wrapped`, :func:`fast_wrapped`), and a ``<function=...>``
    block written without it (:func:`read_bare`, :func:`fast_bare`)."""

    def read_call(r: Reader) -> Read[None]:
        yield from read_wrapped(r, tags)

    def read_function_block(r: Reader) -> Read[None]:
        yield from read_bare(r, tags)

    read_call.__doc__ = f"One ``{opening}`` block."
    read_function_block.__doc__ = f"A ``{FUNC}...>`` block written without its ``{opening}``."
    return (
        Block(opening, read_call, close=tags.call_close, fast=fast_wrapped(tags)),
        Block(FUNC, read_function_block, close=FUNC_END, fast=fast_bare(tags)),
    )
