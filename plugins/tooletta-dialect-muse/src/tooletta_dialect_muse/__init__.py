"""Muse Glimmer's ATEM tool calls: harmony-like messages addressed by recipient.

A Muse Glimmer completion is a sequence of messages. The generation prompt ends with
``<|start|>assistant``, so the first message starts at its recipient; every later one repeats
the header. With a reasoning message first and one call (split at ``<|eom|>`` here; the
completion has no line break there)::

     to=self<|message|>I should check the weather.<|eom|>
    <|start|>assistant to=get_weather<|message|><atem:function_calls>
    <atem:invoke name="get_weather">
    <atem:parameter name="city">Paris</atem:parameter>
    <atem:parameter name="days">3</atem:parameter>
    </atem:invoke>
    </atem:function_calls><|eot|>

A message addressed ``to=self`` is reasoning, ``to=user`` (or no recipient) is the answer
(content), any other recipient is a tool: its body is an ``<atem:function_calls>`` block of
``<atem:invoke name="F">`` elements with one ``<atem:parameter name="K">V</atem:parameter>``
per argument. A message ends with ``<|eom|>`` (the turn goes on) or ``<|eot|>`` (the turn
ends); ``<|end_of_text|>`` is removed too. The chat template writes one call per message, so
parallel calls are separate messages joined by ``<|eom|><|start|>assistant``. There are no
call ids.

Values: strings verbatim (the template says "spaces for string values are not stripped"),
``true``/``false``/``null``, objects and lists through ``tojson``, numbers as written. They are
typed back by the request's tool schema (no schema: JSON when valid, else the text). The call's
name is the invoke's ``name`` (peers ignore a recipient that disagrees). When ``tools`` are
given and the name is not one of them, the namespace the model doubles
(``get_weather.get_weather`` for a tool offered as ``get_weather``) is undone, and a name whose
last dotted segment matches exactly one tool is mapped to it, as SGLang and vLLM do.

Lenient reading: a message body without the ``<atem:function_calls>`` wrapper (bare invokes), a
missing end token, and a bare ``<atem:function_calls>`` block in unframed text are all read.
An invoke inside a reasoning or answer message is text, never a call. A message to a tool
that holds no invoke is malformed (kept as ``unparsed``).

Rendering writes the completion after ``<|start|>assistant`` as the template does
(``meta-models/Muse-Glimmer-30B`` ``chat_template.jinja``, its ``render_atem`` macro): each
call is `` to=NAME<|message|>`` + the ATEM block, the last ended by ``<|eot|>``, the others by
``<|eom|>``; content without calls is `` to=user<|message|>CONTENT<|eot|>``. Deviation: the
template drops the content of an assistant message that has tool calls; we write it first as
a ``to=user`` message ended by ``<|eom|>`` (the turn goes on), so it reads back as content.

Pinned from SGLang's ``python/sglang/srt/function_call/muse_glimmer_detector.py`` and
``muse_glimmer_format.py``, vLLM's muse_glimmer tool/reasoning parser tests, and ports of the
model's ``chat_template.jinja`` (``render_atem`` and the assistant-turn layout).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    ArgsWriter,
    Block,
    Decline,
    Grammar,
    Incomplete,
    InvokeSyntax,
    MarkerSet,
    Read,
    Reader,
    ToolSchemas,
    Trimmer,
    erase,
    guarded,
    one_shot,
    read_attributes,
    render_invoke,
    scan_invoke,
    tag_boundary,
    typed_value,
)
from tooletta_dialect_muse.models import MODELS

__all__ = ["MuseDialect", "register_dialects", "resolve_name"]

START = "<|start|>"
MESSAGE = "<|message|>"
EOM = "<|eom|>"
EOT = "<|eot|>"
EOS = "<|end_of_text|>"
TO = "to="
CALLS_OPEN = "<atem:function_calls>"
CALLS_CLOSE = "</atem:function_calls>"
SYNTAX = InvokeSyntax(
    invoke="<atem:invoke",
    invoke_close="</atem:invoke>",
    parameter="<atem:parameter",
    parameter_close="</atem:parameter>",
)
PROSE_RECIPIENTS = frozenset({"self", "user"})
"""Recipients whose messages are prose: ``self`` is reasoning, ``user`` the answer."""

_ENDS = (EOM, EOT, EOS)
_BODY_STOP = (*_ENDS, START)
_HEADER_STOP = (MESSAGE, *_ENDS, START)
_RECIPIENT = re.compile(r"[^\s<]*")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_LOOKS = re.compile(r"<atem:function_calls>|<atem:invoke\s")

_REASONED: weakref.WeakSet[Any] = weakref.WeakSet()


def resolve_name(name: str, tools: ToolSchemas | None) -> str:
    """The tool ``name`` stands for, given the request's ``tools``.

    Unchanged without tools, when ``tools`` has it, or when it has no dot. Otherwise
    ``ns.ns`` becomes ``ns`` when ``ns`` is a tool (the template's doubled namespace), and a
    name whose last segment is the last segment of exactly one tool becomes that tool.
    """
    if not tools or name in tools or "." not in name:
        return name
    head, _, tail = name.partition(".")
    if head == tail and head in tools:
        return head
    leaf = name.rsplit(".", 1)[-1]
    matches = [n for n in tools.names() if n.rsplit(".", 1)[-1] == leaf]
    return matches[0] if len(matches) == 1 else name


def _recipient(header: str) -> str | None:
    """The recipient a header names (its last ``to=`` word), or ``None``."""
    found = None
    for word in header.split():
        if word.startswith(TO):
            found = word[len(TO) :]
    return found or None


class _Prose:
    """Writes one prose message: content or reasoning, trimmed, after a blank line when an
    earlier message of the same kind wrote something."""

    __slots__ = ("_r", "_reasoning", "_started", "trim")

    def __init__(self, r: Reader, reasoning: bool) -> None:
        self._r = r
        self._reasoning = reasoning
        self._started = False
        self.trim = Trimmer(self._write, "space")

    def _write(self, text: str) -> None:
        if not self._started:
            self._started = True
            engine = self._r.engine
            if self._reasoning:
                if engine in _REASONED:
                    text = "\n\n" + text
                _REASONED.add(engine)
            elif self._r.shown:
                text = "\n\n" + text
        if self._reasoning:
            self._r.reasoning(text)
        else:
            self._r.content(text)


def _read_invoke(r: Reader) -> Read[None]:
    """One ``<atem:invoke name="F">`` element, from just after ``<atem:invoke``."""
    yield from tag_boundary(r, SYNTAX.invoke)
    attrs = yield from read_attributes(r)
    name = attrs.get(SYNTAX.name_attr)
    if name is None:
        raise r.fail("<atem:invoke> without a name attribute")
    name = resolve_name(name, r.tools)
    r.start_call(name)
    w = ArgsWriter(r, name)
    while True:
        yield from r.ws()
        got = yield from r.accept(SYNTAX.invoke_close, SYNTAX.parameter)
        if got == SYNTAX.invoke_close:
            break
        if not got:
            if (yield from r.at_end()):
                raise Incomplete("text ended inside <atem:invoke>", r.pos)
            raise r.fail("expected <atem:parameter or </atem:invoke>")
        yield from tag_boundary(r, SYNTAX.parameter)
        pattrs = yield from read_attributes(r)
        key = pattrs.get(SYNTAX.name_attr)
        if key is None:
            raise r.fail("<atem:parameter> without a name attribute")
        yield from typed_value(r, w, key, SYNTAX.value_ends)
    w.close()


def _read_calls(r: Reader, wrapped: bool, bare: bool = False) -> Read[str]:
    """Invokes up to the end of a tool message; return the token that ended it ("" at the
    end of the text, ``<|start|>`` when the next message follows without an end token).

    ``wrapped``: ``<atem:function_calls>`` was already read. ``bare``: a block in unframed
    text, which ends at its ``</atem:function_calls>``. A body without invokes fails.
    """
    count = 0
    while True:
        yield from r.ws()
        got = yield from r.accept(SYNTAX.invoke, CALLS_OPEN, CALLS_CLOSE, *_BODY_STOP)
        if got == SYNTAX.invoke:
            yield from _read_invoke(r)
            count += 1
            continue
        if got == CALLS_OPEN and not wrapped:
            wrapped = True
            continue
        if got == CALLS_CLOSE and wrapped:
            if bare:
                if not count:
                    raise r.fail("<atem:function_calls> without <atem:invoke>")
                return got
            wrapped = False
            continue
        if got in _BODY_STOP or (not got and (yield from r.at_end())):
            if not count:
                raise r.fail("a message to a tool without <atem:invoke>")
            return got
        raise r.fail("expected <atem:invoke or the end of the message")


def _messages(r: Reader, recipient: str | None) -> Read[None]:
    """Message bodies from just after ``<|message|>``; a body that runs into the next
    ``<|start|>`` continues with that message."""
    while True:
        if recipient is None or recipient in PROSE_RECIPIENTS:
            out = _Prose(r, recipient == "self")
            _, marker = yield from r.until(_BODY_STOP, out.trim.feed, eof=True)
            out.trim.close()
        else:
            marker = yield from _read_calls(r, False)
        if marker != START:
            return
        header, marker = yield from r.until(_HEADER_STOP, eof=True)
        recipient = _recipient(header)
        if marker != MESSAGE:
            if recipient is None or recipient in PROSE_RECIPIENTS:
                return  # a bare header (the model stopped before its body): nothing lost
            raise r.fail("a message header without <|message|>")


@guarded
def read_start(r: Reader) -> Read[None]:
    """A message from ``<|start|>``: ``assistant to=RECIPIENT<|message|>BODY``."""
    header, marker = yield from r.until(_HEADER_STOP, eof=True)
    recipient = _recipient(header)
    if marker != MESSAGE:
        if recipient is None or recipient in PROSE_RECIPIENTS:
            return
        raise r.fail("a message header without <|message|>")
    yield from _messages(r, recipient)


@guarded
def read_first(r: Reader) -> Read[None]:
    """The completion's first header, `` to=RECIPIENT<|message|>`` (its ``<|start|>assistant``
    is in the prompt); prose that merely starts with ``to=`` is declined. The recipient (a
    tool's name) may be of any length: it is read as it arrives, each character once."""
    parts: list[str] = []
    while True:
        m = _RECIPIENT.match(r.buf, r.pos)
        end = m.end() if m else r.pos
        parts.append(r.buf[r.pos : end])
        r.pos = end
        if end < len(r.buf):
            break
        if r.final:
            raise Decline  # a truncated header stays text
        yield
    if not (yield from r.accept(MESSAGE)):
        raise Decline
    recipient = "".join(parts)
    if not recipient:
        raise Decline
    yield from _messages(r, recipient)


@guarded
def read_calls_block(r: Reader) -> Read[None]:
    """A bare ``<atem:function_calls>`` block in unframed text."""
    marker = yield from _read_calls(r, True, bare=True)
    if marker == START:
        yield from read_start(r)


# -- one-shot shortcuts: tool messages read whole (prose messages are left to the readers) --

_HEADER_END = MarkerSet(_HEADER_STOP)
_FAST_HEADER = re.compile(r"assistant to=([^\s<]+)<\|message\|>")
"""A header in the template's layout (``\\s`` is what ``str.split`` splits at)."""
_BODY_TOKEN = re.compile(
    "[ \t\r\n]*("
    + "|".join(
        re.escape(m)
        for m in sorted((SYNTAX.invoke, CALLS_OPEN, CALLS_CLOSE, *_BODY_STOP), key=len)[::-1]
    )
    + ")"
)
"""Whitespace, then a token of a tool message's body, longest first (the one the reader's
``accept`` takes)."""


def _fast_calls(
    text: str, pos: int, tools: Any, calls: list[ToolCall], wrapped: bool, bare: bool
) -> int:
    """One-shot :func:`_read_calls`: the position after the token that ended the message,
    or -1 (the text ended, the next message followed, or the reader would fail)."""
    count = 0
    invoke = SYNTAX.invoke
    if not wrapped and text.startswith(CALLS_OPEN, pos):  # the template's layout
        wrapped = True
        pos += len(CALLS_OPEN)
    while True:
        m = _BODY_TOKEN.match(text, pos)  # whitespace, then what the reader's accept() takes
        if m is None:
            return -1
        got = m.group(1)
        pos = m.start(1)
        if got == invoke:
            pos = scan_invoke(text, pos + len(got), SYNTAX, tools, calls, resolve_name)
            if pos < 0:
                return -1
            count += 1
        elif got == CALLS_OPEN and not wrapped:
            wrapped = True
            pos += len(got)
        elif got == CALLS_CLOSE and wrapped:
            if bare:
                return pos + len(got) if count else -1
            wrapped = False
            pos += len(got)
        elif got and got in _BODY_STOP and got != START and count:
            return pos + len(got)
        else:
            return -1


def _fast_message(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """A tool message's header from ``pos`` (after ``<|start|>``), then its body."""
    m = _FAST_HEADER.match(text, pos)
    if m is not None:  # no "<" before <|message|>: no other marker ends the header
        recipient = m.group(1)  # its only "to=" word
        if recipient in PROSE_RECIPIENTS:
            return -1
        return _fast_calls(text, m.end(), tools, calls, False, False)
    at, marker = _HEADER_END.find(text, pos)
    if marker != MESSAGE:
        return -1
    recipient = _recipient(text[pos:at])
    if recipient is None or recipient in PROSE_RECIPIENTS:
        return -1
    return _fast_calls(text, at + len(MESSAGE), tools, calls, False, False)


@one_shot
def fast_start(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_start` for a tool message ended by its token."""
    return _fast_message(text, pos, tools, calls)


@one_shot
def fast_first(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_first` for a first message to a tool."""
    end = _RECIPIENT.match(text, pos).end()  # type: ignore[union-attr]
    if not text.startswith(MESSAGE, end):
        return -1
    recipient = text[pos:end]
    if not recipient or recipient in PROSE_RECIPIENTS:
        return -1
    return _fast_calls(text, end + len(MESSAGE), tools, calls, False, False)


@one_shot
def fast_calls_block(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_calls_block` for a block closed by
    ``</atem:function_calls>``."""
    return _fast_calls(text, pos, tools, calls, True, True)


def _recipient_ok(name: str) -> bool:
    return (
        bool(name)
        and name not in PROSE_RECIPIENTS
        and not any(ch.isspace() or ch == "<" for ch in name)
    )


class MuseDialect(ScannerDialect):
    """Muse Glimmer: `` to=NAME<|message|><atem:function_calls>`` + ``<atem:invoke>`` elements;
    ``to=self`` is reasoning, ``to=user`` content."""

    info = DialectInfo(
        name="muse",
        aliases=("muse_glimmer",),
        priority=90,
        markers=(CALLS_OPEN, SYNTAX.invoke),
        description="Muse Glimmer ATEM: to=RECIPIENT<|message|> channels, atem:invoke XML calls",
        source=(
            "sgl-project/sglang python/sglang/srt/function_call/muse_glimmer_detector.py and "
            "muse_glimmer_format.py; vllm-project/vllm tests of muse_glimmer_tool_parser; "
            "meta-models/Muse-Glimmer-30B chat_template.jinja (render_atem)"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(TO, read_first, close=CALLS_CLOSE, at_start=True, fast=fast_first),
            Block(START, read_start, close=CALLS_CLOSE, fast=fast_start),
            Block(CALLS_OPEN, read_calls_block, close=CALLS_CLOSE, fast=fast_calls_block),
            erase(EOM),
            erase(EOT),
            erase(EOS),
        )
    )

    def detect(self, text: str) -> bool:
        """An ``<atem:function_calls>`` block or an ``<atem:invoke`` element."""
        return _LOOKS.search(text) is not None

    def _atem(self, call: ToolCall) -> str:
        if not _recipient_ok(call.name):
            raise self.error(f"tool name {call.name!r} cannot be a Muse recipient")
        for value in call.arguments.values():
            if not isinstance(value, str) and _LONE_SURROGATE.search(to_json(value)):
                # typing decodes JSON with msgspec, which refuses lone surrogates
                raise self.error("a non-string value holds a lone surrogate")
        invoke = render_invoke(call.name, call.arguments, SYNTAX, self.error)
        return f"{TO}{call.name}{MESSAGE}{CALLS_OPEN}\n{invoke}\n{CALLS_CLOSE}"

    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """The completion after ``<|start|>assistant`` (see the module docstring)."""
        self.check_content(content)
        messages: list[str] = []
        if content:
            messages.append(f" {TO}user{MESSAGE}{content}{EOM if calls else EOT}")
        for i, call in enumerate(calls):
            end = EOT if i == len(calls) - 1 else EOM
            messages.append(f" {self._atem(call)}{end}")
        return f"{START}assistant".join(messages)

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The calls as ATEM messages (see :meth:`render`)."""
        return self.render(calls)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the muse dialect."""
    for declared in (MuseDialect(), *MODELS):
        register(declared)
