"""Thinking Machines "Inkling" (TML v0) messages: text, thinking and tool-invocation messages.

A model turn is a sequence of messages ``<|message_model|>[AUTHOR]<|content_KIND|>PAYLOAD
<|end_message|>`` closed by ``<|content_model_end_sampling|>``. Pinned from SGLang's Inkling
support (``python/sglang/srt/parser/inkling_renderer.py``, ``inkling_tokenizer.py``,
``function_call/inkling_detector.py``):

* ``<|content_text|>`` (and ``<|content_invoke_tool_text|>``) bodies are content;
* ``<|content_thinking|>`` bodies are reasoning;
* ``<|message_model|>NAME<|content_invoke_tool_json|>{"name":"NAME","args":{...}}`` is a call;
  the author in the header must equal the payload's ``name`` (a mismatch is unparsed, as
  SGLang rejects it). The arguments key is ``args`` (``arguments`` is accepted too).

Whitespace around message bodies is dropped; consecutive text (or thinking) messages are
joined by a blank line. No ids. Rendering reproduces SGLang's renderer: a text message for
the content, one invoke message per call with the payload written as ``{"name":NAME,"args":
ARGS}`` (compact separators, keys sorted recursively, non-ASCII kept), then
``<|content_model_end_sampling|>``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl
from tooletta.plugin import (
    Block,
    BlockError,
    Grammar,
    Read,
    Reader,
    call_object_reader,
    decode_bounded,
    erase,
    fast_json_call,
    fast_repeat,
    json_call_object,
    json_key,
    json_next,
    json_string,
    json_value,
    marker_set,
    message_body,
)
from tooletta_dialect_inkling.models import MODELS

__all__ = ["InklingDialect", "register_dialects"]

MODEL = "<|message_model|>"
TEXT = "<|content_text|>"
THINK = "<|content_thinking|>"
INVOKE = "<|content_invoke_tool_json|>"
INVOKE_TEXT = "<|content_invoke_tool_text|>"
END = "<|end_message|>"
END_SAMPLING = "<|content_model_end_sampling|>"
KINDS = (TEXT, THINK, INVOKE, INVOKE_TEXT)
_HEADER_STOP = (*KINDS, END, MODEL, END_SAMPLING)
_BODY_STOP = (END, MODEL, END_SAMPLING)


def _body(r: Reader, kind: str) -> Read[str]:
    """A text or thinking body up to its end; returns the marker that ended it."""
    out = message_body(r, kind)
    _, marker = yield from r.until(_BODY_STOP, out.feed, eof=True)
    out.close()
    return marker


def _invoke(r: Reader, author: str) -> Read[None]:
    """``{"name": AUTHOR, "args": {...}}`` with the call started from the header's author."""
    yield from r.ws()
    if not author:
        yield from json_call_object(r, args_keys=("args", "arguments"), close=END)
        return
    r.start_call(author)
    yield from r.expect("{")
    seen_args = False
    first = True
    while not (yield from json_next(r, "}", first)):
        first = False
        key = yield from json_key(r)
        if key == "name":
            name = yield from json_string(r)
            if name != author:
                raise r.fail(f"payload name {name!r} differs from the header's {author!r}")
        elif key in ("args", "arguments") and not seen_args:
            seen_args = True
            at = r.pos
            nxt = yield from r.peek()
            if nxt == "{":
                yield from json_value(r, r.args, keep=False)
            elif nxt == '"':
                r.args(_object_text((yield from json_string(r)), at))
            else:
                raise r.fail("args must be a JSON object")
        else:
            yield from json_value(r)
    if not seen_args:
        r.args("{}")
    r.end_call()


def _object_text(text: str, at: int) -> str:
    """JSON text of the object held in a JSON string (``""`` means ``{}``)."""
    try:
        value = decode_bounded(text, at) if text.strip() else {}
    except (msgspec.DecodeError, UnicodeError):
        raise BlockError("args must be a JSON object", at) from None
    if not isinstance(value, dict):
        raise BlockError("args must be a JSON object", at)
    return msgspec.json.encode(value).decode()


def _message(r: Reader, kind: str | None) -> Read[None]:
    """Messages from just after ``<|message_model|>`` (``kind=None``) or a content-kind token.

    A body that runs into the next ``<|message_model|>`` (its ``<|end_message|>`` missing)
    continues with that message.
    """
    while True:
        author = ""
        if kind is None:
            header, kind = yield from r.until(_HEADER_STOP)
            if kind not in KINDS:
                raise r.fail("a message without a content kind")
            author = header.strip()
        if kind == INVOKE:
            yield from _invoke(r, author)
            yield from r.ws()
            if not (yield from r.at_end()) and not (yield from r.accept(END)):
                raise r.fail(f"expected {END!r} after the tool call")
            return
        marker = yield from _body(r, "reasoning" if kind == THINK else "content")
        if marker != MODEL:
            return
        kind = None


def read_model_message(r: Reader) -> Read[None]:
    """A ``<|message_model|>`` message."""
    yield from _message(r, None)


_HEADER_MARKERS = marker_set(_HEADER_STOP)
_ARGS_KEYS = ("args", "arguments")
_FAST_UNNAMED = fast_json_call(END, args_keys=_ARGS_KEYS)
_read_payload = call_object_reader(args_keys=_ARGS_KEYS)


def fast_model_message(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_model_message` for a tool invocation (text and
    thinking messages are left to the reader).

    With an author, the payload reads as :func:`json_call_object` reads it when its name is
    the author (arguments in a string come out the same once re-encoded); one without a
    name is left to the reader.
    """
    i, kind = _HEADER_MARKERS.find(text, pos)
    if kind != INVOKE:
        return -1
    author = text[pos:i].strip()
    start = i + len(INVOKE)
    if not author:
        return _FAST_UNNAMED(text, start, tools, calls)
    end = text.find(END, start)
    stop, after = (len(text), len(text)) if end < 0 else (end, end + len(END))
    call = _read_payload(text[start:stop])
    if call is None or call.name != author:
        return -1
    calls.append(call)
    return after


def _kind_reader(kind: str) -> Callable[[Reader], Read[None]]:
    def read(r: Reader) -> Read[None]:
        yield from _message(r, kind)

    read.__doc__ = f"A message body after a bare {kind!r} (its header is missing)."
    return read


def _payload(call: ToolCall) -> str:
    """The invoke payload as SGLang's renderer writes it."""
    try:
        args = json.dumps(
            call.arguments,
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=False,
            allow_nan=False,
        )
    except (TypeError, ValueError) as exc:
        raise ValueError(f"arguments are not JSON: {exc}") from None
    return '{"name":' + json.dumps(call.name, ensure_ascii=False) + ',"args":' + args + "}"


class InklingDialect(ScannerDialect):
    """``<|message_model|>NAME<|content_invoke_tool_json|>{"name":...,"args":{...}}
    <|end_message|>`` per call; text and thinking messages around them."""

    info = DialectInfo(
        name="inkling",
        aliases=("tml_v0",),
        priority=90,
        markers=(INVOKE, MODEL),
        description="Inkling (TML v0): <|message_model|>NAME<|content_invoke_tool_json|>{json}",
        source=(
            "sgl-project/sglang python/sglang/srt/parser/inkling_renderer.py, "
            "parser/inkling_tokenizer.py, function_call/inkling_detector.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(
                MODEL, read_model_message, close=END, fast=fast_repeat(fast_model_message, MODEL)
            ),
            *(Block(k, _kind_reader(k), close=END) for k in KINDS),
            erase(END),
            erase(END_SAMPLING),
            erase("<|endoftext|>"),
        )
    )

    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """A text message for ``content``, one invoke message per call, then the end token."""
        self.check_content(content)
        parts = [f"{MODEL}{TEXT}{content}{END}"] if content else []
        for call in calls:
            name = call.name
            if not name or name != name.strip() or "<|" in name:
                raise self.error(f"tool name {name!r} cannot be written in a message header")
            try:
                payload = _payload(call)
            except ValueError as exc:
                raise self.error(str(exc)) from None
            parts.append(f"{MODEL}{name}{INVOKE}{payload}{END}")
        return "".join(parts) + END_SAMPLING if parts else ""

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The calls' invoke messages (see :meth:`render`)."""
        return self.render(calls)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the inkling dialect."""
    for declared in (InklingDialect(), *MODELS):
        register(declared)
