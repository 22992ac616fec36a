"""Gemma tool calls: ``call:NAME{key:value,...}`` with special-token string delimiters.

* ``gemma4`` (Gemma 4): ``<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|>``.
  Strings sit between ``<|"|>`` tokens and are raw (no escaping); numbers and ``true``/
  ``false`` are bare; ``{...}`` and ``[...]`` nest; keys are bare. Reasoning is the thought
  channel, ``<|channel>thought\\n`` ... ``<channel|>``.
* ``functiongemma`` (FunctionGemma 270M): the same grammar in
  ``<start_function_call>call:NAME{k:<escape>v<escape>}<end_function_call>``. As vLLM reads
  it, an ``<escape>``-delimited value that is valid JSON is that JSON value
  (``<escape>5<escape>`` is 5), any other is the string.

The arguments stream as JSON converted from the key:value syntax as it arrives: string values
character by character, other values once they close (a FunctionGemma value that may still
turn out to be JSON waits for its closing ``<escape>``). Values are typed by their own syntax
(``tools`` is accepted and not needed): a bare token is a number, ``true``/``false``,
``null``/``None`` (null), or else the string it spells. No call ids.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from typing import Any, ClassVar

import msgspec

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl
from tooletta.plugin import (
    Block,
    ChatFormat,
    FastReader,
    Grammar,
    Read,
    Reader,
    bracket_nesting,
    erase,
    json_next,
    plain_render_without_calls,
    reasoning_region,
    write_literal,
)
from tooletta_dialect_gemma.models import MODELS

from .canonical import Gemma4CanonicalChat
from .chat import Gemma4Chat
from .interleaved import Gemma4InterleavedChat
from .revised import Gemma4RevisedChat

__all__ = [
    "FunctionGemmaDialect",
    "Gemma4CanonicalChat",
    "Gemma4Chat",
    "Gemma4Dialect",
    "Gemma4InterleavedChat",
    "Gemma4RevisedChat",
    "Syntax",
    "plain_calls",
    "read_arguments",
    "register_dialects",
    "write_value",
]

MAX_DEPTH = 128
"""Deepest nesting of ``{}``/``[]`` accepted in arguments (deeper is malformed)."""

_SCALAR_END = re.compile(r"[,}\]{\[<]")
_KEY_END = re.compile(r"[:,{}\[\]<]")
_INT = re.compile(r"[+-]?\d+\Z")
_FLOAT = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][+-]?\d+)?\Z")
_BARE_KEY = re.compile(r"[^:,{}\[\]<\s](?:[^:,{}\[\]<]*[^:,{}\[\]<\s])?\Z")
_WORDS: dict[str, Any] = {"true": True, "false": False, "null": None, "None": None}
_JSON_START = frozenset('"{[-0123456789')
_decode = msgspec.json.decode


def _esc(text: str) -> str:
    """The inside of a JSON string literal for ``text``."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _decodes(text: str) -> tuple[bool, Any]:
    try:
        return True, _decode(text)
    except msgspec.DecodeError:
        return False, None


def scalar(text: str) -> Any:
    """The value of a bare token: a number, ``true``/``false``, null (``null``/``None``), or
    the (stripped) text itself."""
    t = text.strip()
    if t in _WORDS:
        return _WORDS[t]
    if _INT.match(t):
        try:
            return int(t)
        except ValueError:  # more digits than int() converts
            return t
    if _FLOAT.match(t):
        number = float(t)
        return number if math.isfinite(number) else t
    return t


class _Out:
    """Where argument JSON goes: the call's fragments (when streaming)."""

    __slots__ = ("emit",)

    def __init__(self, r: Reader):
        self.emit: Callable[[str], None] = r.args if r.engine.deltas else _drop


def _drop(text: str) -> None:
    """Discard (one-shot parsing builds the values directly)."""


class Syntax:
    """One Gemma flavour: its string delimiter and how a delimited value is typed."""

    __slots__ = ("delim", "json_strings")

    def __init__(self, delim: str, json_strings: bool):
        self.delim = delim
        self.json_strings = json_strings

    def string(self, r: Reader, out: _Out) -> Read[Any]:
        """A delimited value (read from just after the opening delimiter)."""
        if not self.json_strings:
            parts: list[str] = []

            def sink(piece: str) -> None:
                parts.append(piece)
                out.emit(_esc(piece))

            out.emit('"')
            yield from r.until((self.delim,), sink)
            out.emit('"')
            return "".join(parts)
        typer = _JsonOrString(out)
        yield from r.until((self.delim,), typer.feed)
        return typer.close()


class _JsonOrString:
    """A FunctionGemma value: JSON when the whole text decodes as JSON, else the string.

    Text that cannot start a JSON value is a string from its first character, and streams as
    one; otherwise the value waits for its closing delimiter.
    """

    __slots__ = ("after", "mode", "out", "parts", "word")

    def __init__(self, out: _Out):
        self.out = out
        self.parts: list[str] = []
        self.mode = 0  # 0 undecided, 1 JSON-looking (decided at the end), 2 a string
        self.word = ""  # the start of true/false/null spelled so far
        self.after = False  # whitespace came after the word

    def feed(self, piece: str) -> None:
        """Take the next piece of the value."""
        self.parts.append(piece)
        if self.mode == 2:
            self.out.emit(_esc(piece))
        elif self.mode == 0 and not self._undecided(piece):
            self.mode = 2
            text = "".join(self.parts)
            self.parts = [text]
            self.out.emit('"' + _esc(text))

    def _undecided(self, piece: str) -> bool:
        """Scan a piece while the value may still be JSON; False once it is surely text."""
        for ch in piece:
            if ch in " \t\r\n":
                self.after = bool(self.word)
            elif self.after:
                return False
            elif not self.word and ch in _JSON_START:
                self.mode = 1
                return True
            else:
                self.word += ch
                if not any(w.startswith(self.word) for w in ("true", "false", "null")):
                    return False
        return True

    def close(self) -> Any:
        """The whole value, once its closing delimiter has come."""
        text = "".join(self.parts)
        if self.mode == 2:
            self.out.emit('"')
            return text
        ok, value = _decodes(text)
        if not ok:
            value = text
        self.out.emit(json.dumps(value, ensure_ascii=False))
        return value


def _span(r: Reader, pattern: re.Pattern[str]) -> Read[str]:
    """Read up to (not including) the first match of ``pattern`` (or the end of the text)."""
    k = 0
    while True:
        m = pattern.search(r.buf, r.pos + k)
        if m is not None or r.final:
            end = m.start() if m is not None else len(r.buf)
            text = r.buf[r.pos : end]
            r.pos = end
            return text
        k = len(r.buf) - r.pos
        yield


def _value(r: Reader, syn: Syntax, out: _Out, depth: int) -> Read[Any]:
    yield from r.ws()
    lit = yield from r.accept(syn.delim, "{", "[")
    if lit == syn.delim:
        return (yield from syn.string(r, out))
    if lit in ("{", "[") and depth >= MAX_DEPTH:
        raise r.fail(f"arguments nested deeper than {MAX_DEPTH}")
    if lit == "{":
        return (yield from _object(r, syn, out, depth + 1))
    if lit == "[":
        return (yield from _array(r, syn, out, depth + 1))
    raw = yield from _span(r, _SCALAR_END)
    if not raw.strip():
        raise r.fail("expected a value")
    value = scalar(raw)
    out.emit(json.dumps(value, ensure_ascii=False))
    return value


def _key(r: Reader, syn: Syntax) -> Read[str]:
    if (yield from r.accept(syn.delim)):
        key, _ = yield from r.until((syn.delim,))
    else:
        key = (yield from _span(r, _KEY_END)).strip()
        if not key:
            raise r.fail("expected a key")
    yield from r.ws()
    yield from r.expect(":")
    return key


def _object(r: Reader, syn: Syntax, out: _Out, depth: int) -> Read[dict[str, Any]]:
    """A ``{key:value,...}`` body, read from just after ``{``."""
    out.emit("{")
    values: dict[str, Any] = {}
    first = True
    while not (yield from json_next(r, "}", first, trailing=True)):
        key = yield from _key(r, syn)
        out.emit(("" if first else ", ") + json.dumps(key, ensure_ascii=False) + ": ")
        first = False
        values[key] = yield from _value(r, syn, out, depth)
    out.emit("}")
    return values


def _array(r: Reader, syn: Syntax, out: _Out, depth: int) -> Read[list[Any]]:
    """A ``[value,...]`` body, read from just after ``[``."""
    out.emit("[")
    items: list[Any] = []
    while not (yield from json_next(r, "]", not items, trailing=True)):
        if items:
            out.emit(", ")
        items.append((yield from _value(r, syn, out, depth)))
    out.emit("]")
    return items


def read_arguments(r: Reader, syn: Syntax) -> Read[dict[str, Any]]:
    """The ``{...}`` arguments of a call, streamed to the current call as JSON."""
    return (yield from _object(r, syn, _Out(r), 1))


def _call_reader(
    syn: Syntax, opener: str, closers: tuple[str, ...]
) -> Callable[[Reader], Read[None]]:
    def read(r: Reader) -> Read[None]:
        yield from r.ws()
        yield from r.expect("call:")
        name, marker = yield from r.until(("{", "<"))
        name = name.strip()
        if marker != "{" or not name or any(c.isspace() for c in name):
            raise r.fail("expected call:NAME{")
        r.start_call(name)
        arguments = yield from read_arguments(r, syn)
        yield from r.ws()
        closed = (yield from r.accept(*closers)) or (yield from r.at_end())
        # tolerated: the next call right away, its closer gone missing
        if not closed and not (yield from r.startswith(opener)):
            raise r.fail(f"expected {closers[0]!r}")
        r.end_call(arguments)

    read.__doc__ = f"``{opener}call:NAME{{...}}{closers[0]}``: one call."
    return read


# -- one-shot reading ---------------------------------------------------------------------------
#
# A whole call block is translated to JSON and decoded once by msgspec: the text is split at the
# string delimiters; strings are JSON-escaped all at once; bare keys made of name characters are
# quoted; ``None`` becomes ``null``. What the reader reads differently from JSON (a bare string
# value, ``+1``, ``007``, ``1.``, ``True``, a trailing comma, a raw ``"``...) either stays in the
# text, where JSON refuses it, or is checked for, and the block is left to the reader.

_SPACE = " \t\r\n"
_REV_KEY = re.compile(":[ \t\r\n]*([A-Za-z0-9_.\\-]+)")
"""``KEY :`` reversed, for bare keys of name characters (any other key is left unquoted,
which JSON refuses)."""
_NONE = re.compile(r'None(?<![\w"]None)(?![\w"])')
_LEADS_JSON = re.compile(
    '\x7f[ \t\r\n]*(?:[-"{\\[0-9]|(?:t(?:r(?:ue?)?)?|f(?:a(?:l(?:se?)?)?)?|n(?:u(?:ll?)?)?)'
    "[ \t\r\n]*(?=\x7f|\\Z))"
)
"""A string (after a DEL) that may be JSON: those :func:`_maybe_json` looks at (all of them
but the empty ones, which are not JSON)."""
_HEADER = re.compile("[ \t\r\n]*call:([^{<]*)\\{")
"""``call:NAME{`` as :func:`_call_reader` reads it (``NAME`` ends at the first ``{`` or ``<``)."""
_HAS_SPACE = re.compile(r"\s")
_encode = msgspec.json.encode
_TRIES = 8


def _maybe_json(text: str) -> bool:
    """False when :class:`_JsonOrString` takes ``text`` for a string without decoding it."""
    word = ""
    after = False
    for ch in text:
        if ch in _SPACE:
            after = bool(word)
        elif after:
            return False
        elif not word and ch in _JSON_START:
            return True
        else:
            word += ch
            if not any(w.startswith(word) for w in ("true", "false", "null")):
                return False
    return True


class _Cut(Exception):
    """A string runs past the end of the text tried: the block ends further on."""


def _arguments(text: str, syn: Syntax) -> dict[str, Any] | None:
    """The arguments object ``text`` (from ``{`` to just before the closing marker) as the
    reader reads it, or ``None`` when it is not read here."""
    pieces = text.split(syn.delim)
    if not len(pieces) & 1:
        raise _Cut
    code = "\x00".join(pieces[0::2])
    if not code.isascii() or '"' in code or "\\" in code:
        return None
    if len(code) > MAX_DEPTH and bracket_nesting(code, MAX_DEPTH, "[]{}") is not True:
        return None
    parts = _REV_KEY.split(code[::-1])
    if len(parts) > 1:
        parts[1::2] = (':"' + '"\x00:"'.join(parts[1::2]) + '"').split("\x00")
        code = "".join(parts)[::-1]
    if "None" in code:
        code = _NONE.sub("null", code)
    strings = pieces[1::2]
    if strings:
        joined = "\x7f".join(strings)
        if joined.count("\x7f") != len(strings) - 1:
            return None  # a DEL in a string: it separates them here
        texts = ('"' + _encode(joined).decode()[1:-1].replace("\x7f", '"\x7f"') + '"').split("\x7f")
        if syn.json_strings:
            joined = "\x7f" + joined
            for m in _LEADS_JSON.finditer(joined):
                i = joined.count("\x7f", 0, m.end()) - 1
                if pieces[2 * i + 2].lstrip(_SPACE).startswith(":"):
                    continue  # a key: keys are never JSON
                raw = strings[i]
                if _maybe_json(raw):
                    try:
                        _decode(raw)
                    except msgspec.DecodeError:
                        continue
                    texts[i] = raw
        codes = code.split("\x00")
        if len(codes) != len(texts) + 1:
            return None
        out = codes + texts
        out[0::2] = codes
        out[1::2] = texts
        code = "".join(out)
    value = _decode(code)
    return value if type(value) is dict else None


def _fast_call(syn: Syntax, close: str) -> FastReader:
    """The one-shot shortcut (``Block.fast``) of a call block read by :func:`_call_reader`,
    for a block that ``close`` ends (or the end of the text)."""
    n_close = len(close)

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        m = _HEADER.match(text, pos)
        if m is None:
            return -1
        name = m.group(1).strip()
        if not name or _HAS_SPACE.search(name):
            return -1
        brace = m.end() - 1
        stop = text.find(close, brace)
        for _ in range(_TRIES):
            end = len(text) if stop < 0 else stop
            try:
                arguments = _arguments(text[brace:end], syn)
            except _Cut:
                if stop < 0:
                    return -1
                stop = text.find(close, stop + n_close)
                continue
            except (msgspec.MsgspecError, UnicodeError, RecursionError, ValueError):
                return -1
            if arguments is None:
                return -1
            calls.append(ToolCall(name, arguments))
            return end if stop < 0 else stop + n_close
        return -1

    return fast


def _call_block(syn: Syntax, opener: str, close: str, *stops: str) -> Block:
    """The block of one call: ``opener``, the call read by :func:`_call_reader` up to
    ``close`` (or one of ``stops``, which the model may write instead), with its one-shot
    shortcut (:func:`_fast_call`)."""
    return Block(
        opener, _call_reader(syn, opener, (close, *stops)), close=close, fast=_fast_call(syn, close)
    )


def write_value(
    value: Any,
    string: Callable[[str], str],
    key: Callable[[str], str],
    sort: bool = True,
    none: str = "None",
) -> str:
    """A JSON value in Gemma's key:value syntax; ``string`` writes a string value and ``key``
    a key that cannot be bare.

    Keys are bare when they read back unchanged, else written by ``key``; mapping keys
    are sorted as Jinja's ``dictsort`` does (case-insensitively). ``None`` is written
    ``none``: ``None``, as the earlier templates' ``{{ value }}`` does (``null`` for the
    canonical template of July 2026, whose ``format_argument`` writes it so). Raises
    :class:`~tooletta.RenderError` (a ``ValueError``) for what the syntax cannot hold.
    """
    return write_literal(
        value,
        string,
        lambda k: k if _BARE_KEY.match(k) else key(k),
        words=("true", "false", none),
        comma=",",
        colon=":",
        sort=str.lower if sort else None,
    )


class _NotPlain(Exception):
    """A value :func:`plain_calls` does not vouch for."""


_PLAIN_NAME = re.compile(r"[A-Za-z0-9_.\-]+\Z")
"""Call names and keys that read back by construction (bare, in every reader)."""
_PLAIN_DEPTH = 32


def _plain(value: Any, depth: int, none: str = "None") -> str:
    """``value`` as :func:`write_value` writes it for Gemma 4 (``None`` as ``none``), or
    :class:`_NotPlain` when its reading back is not certain without reading it: only exact
    ``str`` (without ``<``: no delimiter, no marker), ``int`` (of at most 63 bits), finite
    ``float``, ``bool``, ``None``, and ``dict`` (keys of name characters) and ``list`` of
    those, 32 deep."""
    kind = type(value)
    if kind is str:
        if "<" in value:
            raise _NotPlain
        text: str = value
        return G4_STR + text + G4_STR
    if kind is int:
        if value.bit_length() > 63:
            raise _NotPlain
        return str(value)
    if kind is float:
        if value - value != 0:
            raise _NotPlain
        return repr(value)
    if value is None:
        return none
    if kind is bool:
        return "true" if value else "false"
    if depth >= _PLAIN_DEPTH:
        raise _NotPlain
    if kind is dict:
        for key in value:  # every key checked before any is sorted (str.lower)
            if type(key) is not str or _PLAIN_NAME.match(key) is None:
                raise _NotPlain
        keys = sorted(value, key=str.lower) if len(value) > 1 else value
        return (
            "{" + ",".join([key + ":" + _plain(value[key], depth + 1, none) for key in keys]) + "}"
        )
    if kind is list:
        return "[" + ",".join([_plain(item, depth + 1, none) for item in value]) + "]"
    raise _NotPlain


def plain_calls(
    calls: list[ToolCall], call_open: str, call_close: str, none: str = "None"
) -> str | None:
    """The Gemma 4 text of ``calls`` when it reads back to them by construction (names and
    keys of name characters, values as :func:`_plain` takes them, ``None`` written
    ``none``): the text ``Gemma4Dialect.render_calls`` writes, without the reading back that
    checks the rest; ``None`` otherwise."""
    out = []
    try:
        for c in calls:
            name = c.name
            arguments = c.arguments
            if type(name) is not str or _PLAIN_NAME.match(name) is None:
                return None
            if type(arguments) is not dict:
                return None
            out.append(call_open + "call:" + name + _plain(arguments, 1, none) + call_close)
    except _NotPlain:
        return None
    return "".join(out)


class _GemmaBase(ScannerDialect):
    """Shared rendering: each call as ``OPEN call:NAME{...} CLOSE``, checked by reading back."""

    max_depth = MAX_DEPTH  # the arguments' own braces are the readers' first level
    syntax: Syntax
    call_open: str
    call_close: str
    none_word = "None"
    """How a ``None`` value is written (``null`` in the ``gemma4_2607`` variant)."""

    def write_string(self, text: str) -> str:
        """A string value between delimiters; refuses one holding the delimiter."""
        delim = self.syntax.delim
        if delim in text:
            raise self.error(f"a string value contains the delimiter {delim!r}")
        return delim + text + delim

    def write_key(self, text: str) -> str:
        """A key that cannot be bare, between delimiters (keys are never JSON-decoded)."""
        return _GemmaBase.write_string(self, text)

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The calls, one block each, no separator."""
        out = []
        for c in calls:
            if not c.name or any(ch in c.name for ch in "{<") or any(ch.isspace() for ch in c.name):
                raise self.error(f"function name {c.name!r} cannot be written")
            with self.writing():
                args = write_value(
                    dict(c.arguments), self.write_string, self.write_key, none=self.none_word
                )
            out.append(f"{self.call_open}call:{c.name}{args}{self.call_close}")
        return "".join(out)

    def checked(self, calls: list[ToolCall], content: str, text: str) -> str:
        """``text`` if it reads back to ``calls`` and ``content``, else ``RenderError``."""
        back = self.parse(text)
        same = [(c.name, c.arguments) for c in back.calls] == [(c.name, c.arguments) for c in calls]
        if back.unparsed or not same or back.content.strip() != content.strip():
            raise self.error("these calls or this content would not read back unchanged")
        return text


# -- gemma4 -----------------------------------------------------------------------------------

G4_OPEN = "<|tool_call>"
G4_CLOSE = "<tool_call|>"
G4_STR = '<|"|>'
G4_THOUGHT = "<|channel>"
G4_THOUGHT_END = "<channel|>"


class Gemma4Dialect(_GemmaBase):
    """``<|tool_call>call:NAME{k:<|"|>v<|"|>,n:3}<tool_call|>`` (Gemma 4).

    Rendered as the Gemma 4 chat template writes the model turn: the calls first, then the
    content (the template's order), keys sorted by ``dictsort``, no spaces. Deviations, for
    a lossless form: keys that would not read back bare are delimited like strings, and a
    string holding ``<|"|>`` is refused (the template writes it raw, which breaks it).
    """

    syntax = Syntax(G4_STR, json_strings=False)
    call_open = G4_OPEN
    call_close = G4_CLOSE
    info = DialectInfo(
        name="gemma4",
        priority=90,
        markers=(G4_OPEN,),
        description='Gemma 4: <|tool_call>call:NAME{k:<|"|>v<|"|>}<tool_call|>',
        source=(
            "ggml-org/llama.cpp models/templates/gemma4.jinja; vllm-project/vllm "
            "examples/tool_chat_template_gemma4.jinja; sglang function_call/gemma4_detector.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            _call_block(syntax, G4_OPEN, G4_CLOSE, "<turn|>"),
            reasoning_region(G4_THOUGHT + "thought", G4_THOUGHT_END),
            reasoning_region(G4_THOUGHT, G4_THOUGHT_END),
            erase("<|tool_response>"),
            erase("<turn|>"),
            erase("<eos>"),
        )
    )
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (
        Gemma4Chat(),
        Gemma4RevisedChat(),
        Gemma4InterleavedChat(),
    )

    @plain_render_without_calls  # every reader of the grammar starts at a content marker
    def render(self, calls: Any, content: str = "") -> str:
        """The calls, then the content, as the Gemma 4 template orders the model turn.

        Calls and content that read back by construction (:func:`plain_calls`; content
        without ``<``, which every marker of this dialect holds) are written straight; any
        other is written and then checked by reading it back."""
        items = calls if type(calls) is list else list(calls)
        if "<" not in content:
            text = plain_calls(items, G4_OPEN, G4_CLOSE, self.none_word)
            if text is not None:
                return text + content
        self.check_content(content)
        text = (self.render_calls(items) if items else "") + content
        return self.checked(items, content, text)


# -- functiongemma ----------------------------------------------------------------------------

FG_OPEN = "<start_function_call>"
FG_CLOSE = "<end_function_call>"
FG_STR = "<escape>"


class FunctionGemmaDialect(_GemmaBase):
    """``<start_function_call>call:NAME{k:<escape>v<escape>}<end_function_call>``
    (FunctionGemma).

    Rendered as Google's documentation writes calls (content first, then the calls; keys
    sorted, no spaces; the official chat template was not available to pin more). A string
    that would read back as JSON (``"5"``, ``"true"``) is written JSON-quoted inside the
    delimiters so it stays a string; one holding ``<escape>`` is refused.
    """

    syntax = Syntax(FG_STR, json_strings=True)
    call_open = FG_OPEN
    call_close = FG_CLOSE
    info = DialectInfo(
        name="functiongemma",
        priority=90,
        markers=(FG_OPEN,),
        description="FunctionGemma: <start_function_call>call:NAME{k:<escape>v<escape>}...",
        source=(
            "ai.google.dev FunctionGemma formatting guide; "
            "vllm tool_parsers/functiongemma_tool_parser.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            _call_block(syntax, FG_OPEN, FG_CLOSE),
            erase("<start_function_response>"),
            erase("<end_of_turn>"),
        )
    )

    def write_string(self, text: str) -> str:
        """A string value; JSON-quoted when the bare text would read back as JSON."""
        if FG_STR in text:
            raise self.error(f"a string value contains the delimiter {FG_STR!r}")
        ok, _ = _decodes(text)
        return FG_STR + (json.dumps(text, ensure_ascii=False) if ok else text) + FG_STR

    def render(self, calls: Any, content: str = "") -> str:
        """The content, then the calls."""
        self.check_content(content)
        items = list(calls)
        text = content + (self.render_calls(items) if items else "")
        return self.checked(items, content, text)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register gemma4, its variant ``gemma4_2607`` (the canonical template's calls) and
    functiongemma."""
    from .variant import Gemma4CanonicalDialect

    dialects = (Gemma4Dialect(), Gemma4CanonicalDialect(), FunctionGemmaDialect())
    for declared in (*dialects, *MODELS):
        register(declared)
