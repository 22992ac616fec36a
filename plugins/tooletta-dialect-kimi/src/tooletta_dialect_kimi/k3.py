"""Kimi K3 tool calls: XTML, elements framed by ``<|open|>`` / ``<|close|>`` / ``<|sep|>``.

Pinned from the Kimi-K3 chat template (llama.cpp ``models/templates/Kimi-K3.jinja``): an
element is ``<|open|>TAG k="v"...<|sep|>`` ... ``<|close|>TAG<|sep|>``, attribute values
escaped (``&`` as ``&amp;``, ``"`` as ``&quot;``), nothing between elements. The assistant
message holds a ``think`` channel (reasoning), a ``response`` channel (the content) and a
``tools`` element (one line, wrapped here)::

    <|open|>response<|sep|>Let me check.<|close|>response<|sep|><|open|>tools<|sep|>
    <|open|>call tool="get_weather" index="1"<|sep|>
    <|open|>argument key="city" type="string"<|sep|>Paris<|close|>argument<|sep|>
    <|open|>argument key="days" type="number"<|sep|>3<|close|>argument<|sep|>
    <|close|>call<|sep|><|close|>tools<|sep|>

``type`` is ``string`` (the value is raw text, not escaped), ``number``, ``boolean``,
``null``, ``object`` or ``array`` (the value is JSON); the request's schema refines it. A
call's ``index`` is its 1-based position, not an id. The template's other form for opaque
arguments, ``<|open|>json type="object"<|sep|>{...}<|close|>json<|sep|>``, parses as the
arguments object. The message wrapper (``<|open|>message role="assistant"<|sep|>`` ...
``<|close|>message<|sep|><|end_of_msg|>``) is removed when present.

Rendering writes the template's non-thinking assistant body (the response channel, then the
tools element) without the message wrapper, which belongs to the prompt and the end of turn.
A string value holding the argument closer cannot be written raw; such a call is written in
the ``json`` form, with ``<`` escaped inside the JSON.

The model's text begins inside the think channel when the generation prompt opened it
(thinking mode, the template's default); a stream cannot know such text is reasoning before
the bare ``<|close|>think<|sep|>`` arrives, so it is content, and the closer stays in the
content for the caller to split on.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall
from tooletta.plugin import (
    ArgsWriter,
    Block,
    Declared,
    Grammar,
    MarkerSet,
    Read,
    Reader,
    declared_value,
    end_json_call,
    erase,
    json_value,
    json_without,
    kinds_of,
    one_shot,
    read_attrs,
    read_value,
    scan_arguments,
    scan_attrs,
    section,
    think_region,
)

from .chat_k3 import KimiK3Chat

__all__ = ["KimiK3Dialect", "escape_attr", "unescape_attr", "xtml_type"]

OPEN = "<|open|>"
CLOSE = "<|close|>"
SEP = "<|sep|>"
CALL_OPEN = f"{OPEN}call"
CALL_CLOSE = f"{CLOSE}call{SEP}"
ARG_OPEN = f"{OPEN}argument"
ARG_CLOSE = f"{CLOSE}argument{SEP}"
JSON_OPEN = f"{OPEN}json"
JSON_CLOSE = f"{CLOSE}json{SEP}"
RESPONSE_OPEN = f"{OPEN}response{SEP}"
RESPONSE_CLOSE = f"{CLOSE}response{SEP}"
TOOLS_OPEN = f"{OPEN}tools{SEP}"
TOOLS_CLOSE = f"{CLOSE}tools{SEP}"
THINK_OPEN = f"{OPEN}think{SEP}"
THINK_CLOSE = f"{CLOSE}think{SEP}"
MESSAGE_OPEN = f"{OPEN}message"
MESSAGE_CLOSE = f"{CLOSE}message{SEP}"
END_OF_MSG = "<|end_of_msg|>"
_ARG_END = MarkerSet((ARG_CLOSE,))


def escape_attr(value: str) -> str:
    """An attribute value as the template writes it (``&`` first, then ``"``)."""
    return value.replace("&", "&amp;").replace('"', "&quot;")


def unescape_attr(value: str) -> str:
    """The inverse of :func:`escape_attr` (``&quot;`` first, then ``&amp;``, as the peers do)."""
    return value.replace("&quot;", '"').replace("&amp;", "&")


def xtml_type(value: Any) -> str:
    """The template's ``xtml_type``: ints and floats are both ``number``."""
    if isinstance(value, bool):
        return "boolean"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object" if isinstance(value, dict) else "array"


def _tag_end(r: Reader) -> Read[None]:
    """The tag name must end here: attributes follow after a space, or the tag closes."""
    nxt = yield from r.peek()
    if nxt not in (" ", "\t", "\n", "\r") and not (yield from r.startswith(SEP)):
        raise r.fail("unknown element")


def read_message(r: Reader) -> Read[None]:
    """The message wrapper's opening tag: its attributes are skipped."""
    yield from _tag_end(r)
    yield from read_attrs(r, (SEP,), unescape_attr)


def read_call(r: Reader) -> Read[None]:
    """One ``call`` element, from after ``<|open|>call``: arguments typed by ``type``."""
    yield from _tag_end(r)
    attrs, _ = yield from read_attrs(r, (SEP,), unescape_attr)
    name = attrs.get("tool")
    if not name:
        raise r.fail("call without a tool attribute")
    r.start_call(name)
    w = ArgsWriter(r, name)
    has_args = has_json = False
    while True:
        yield from r.ws()
        tag = yield from r.accept(ARG_OPEN, JSON_OPEN, CALL_CLOSE)
        if tag == CALL_CLOSE:
            break
        if tag == ARG_OPEN and not has_json:
            yield from _tag_end(r)
            attrs, _ = yield from read_attrs(r, (SEP,), unescape_attr)
            key = attrs.get("key")
            if key is None:
                raise r.fail("argument without a key")
            kind = attrs.get("type")
            declared: Declared = None if kind is None else "string" if kind == "string" else "json"
            yield from read_value(r, w, key, declared, _ARG_END)
            has_args = True
        elif tag == JSON_OPEN and not (has_args or has_json):
            yield from _tag_end(r)
            yield from read_attrs(r, (SEP,), unescape_attr)
            end_json_call(r, (yield from json_value(r, r.args)))
            yield from r.ws()
            yield from r.expect(JSON_CLOSE)
            has_json = True
        else:
            raise r.fail("expected an argument, a json element or the end of the call")
    if not has_json:
        w.close()


_ATTRS = MarkerSet(("=", SEP))
_TAG_SPACE = " \t\n\r"
_CALL_TAG = re.compile(r'[ \t\r\n]+tool="([^"]*)"(?: index="[^"]*")?<\|sep\|>')
"""A call's start tag in the common case, after ``<|open|>call``."""
_ARG_TAG = re.compile(r'[ \t\r\n]*<\|open\|>argument key="([^"]*)" type="([^"]*)"<\|sep\|>')
"""Whitespace, then an argument's start tag in the common case."""


def _attrs_at(text: str, pos: int) -> tuple[dict[str, str], int] | None:
    """``_tag_end`` then ``read_attrs(r, (SEP,), unescape_attr)`` in the whole text."""
    ch = text[pos : pos + 1]
    if not (ch and ch in _TAG_SPACE) and not text.startswith(SEP, pos):
        return None
    got = scan_attrs(text, pos, _ATTRS, unescape_attr)
    return None if got is None else (got[0], got[2])


def _fast_argument(text: str, pos: int) -> tuple[str, str | None, int] | None:
    """An argument's start tag in the common case, `<|open|>argument key="K" type="T"<|sep|>`."""
    m = _ARG_TAG.match(text, pos)
    if m is None:
        return None
    return unescape_attr(m.group(1)), unescape_attr(m.group(2)), m.end()


def _argument_tag(text: str, pos: int) -> tuple[str, str | None, int] | None:
    """An argument's start tag from after ``<|open|>argument``: its key and type."""
    got = _attrs_at(text, pos)
    if got is None or got[0].get("key") is None:
        return None
    attrs, pos = got
    return attrs["key"], attrs.get("type"), pos


@one_shot
def fast_call(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_call` for a call of ``argument`` elements (the
    ``json`` form is left to the reader)."""
    m = _CALL_TAG.match(text, pos)
    if m is not None:
        name: str | None = unescape_attr(m.group(1))
        pos = m.end()
    else:
        got = _attrs_at(text, pos)
        if got is None:
            return -1
        name, pos = got[0].get("tool"), got[1]
    if not name:
        return -1
    tool = name
    kinds, kind = kinds_of(tools, tool)

    def value(text: str, pos: int, key: str, flag: str | None) -> tuple[Any, int] | None:
        end = text.find(ARG_CLOSE, pos)
        if end < 0:
            return None
        t, schema = kinds.get(key) or kind(tool, key)
        if flag == "string" and t == "string":
            return text[pos:end], end + len(ARG_CLOSE)
        declared: Declared = None if flag is None else "string" if flag == "string" else "json"
        return declared_value(text[pos:end], declared, t, schema), end + len(ARG_CLOSE)

    return scan_arguments(
        text,
        pos,
        tool,
        calls,
        opener=ARG_OPEN,
        closer=CALL_CLOSE,
        common=_fast_argument,
        tag=_argument_tag,
        value=value,
    )


class KimiK3Dialect(ScannerDialect):
    """Kimi K3 XTML: ``call`` elements with typed ``argument`` elements, content in ``response``."""

    info = DialectInfo(
        name="kimi_k3",
        aliases=("kimik3",),
        priority=90,
        markers=(TOOLS_OPEN, CALL_OPEN),
        description=(
            'Kimi K3 XTML: <|open|>call tool="F" index="N"<|sep|><|open|>argument key="K" '
            'type="T"<|sep|>V<|close|>argument<|sep|>...; content in the response channel'
        ),
        source="ggml-org/llama.cpp models/templates/Kimi-K3.jinja; vllm kimi_k3_tool_parser.py",
    )
    chat_formats = (KimiK3Chat(),)
    grammar = Grammar(
        blocks=(
            Block(CALL_OPEN, read_call, close=CALL_CLOSE, fast=fast_call),
            think_region(THINK_OPEN, THINK_CLOSE),
            section(RESPONSE_OPEN),
            section(RESPONSE_CLOSE),
            section(TOOLS_OPEN),
            section(TOOLS_CLOSE),
            Block(MESSAGE_OPEN, read_message, close=SEP, markup=False),
            erase(MESSAGE_CLOSE),
            erase(END_OF_MSG),
        )
    )

    def detect(self, text: str) -> bool:
        """A ``tools`` element, or a ``call`` element with attributes."""
        return TOOLS_OPEN in text or f"{CALL_OPEN} " in text

    def _call(self, call: ToolCall, index: int) -> str:
        if not call.name:
            raise self.error("cannot write an empty tool name")
        head = f'{CALL_OPEN} tool="{escape_attr(call.name)}" index="{index}"{SEP}'
        args = call.arguments
        if any(isinstance(v, str) and ARG_CLOSE in v for v in args.values()):
            body = f'{JSON_OPEN} type="object"{SEP}{json_without(args, (JSON_CLOSE,))}{JSON_CLOSE}'
            return head + body + CALL_CLOSE
        parts = [head]
        for key, value in args.items():
            text = value if isinstance(value, str) else json_without(value, (ARG_CLOSE,))
            attrs = f'key="{escape_attr(key)}" type="{xtml_type(value)}"'
            parts.append(f"{ARG_OPEN} {attrs}{SEP}{text}{ARG_CLOSE}")
        parts.append(CALL_CLOSE)
        return "".join(parts)

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The ``tools`` element: each call with its 1-based index."""
        body = "".join(self._call(c, i) for i, c in enumerate(calls, 1))
        return f"{TOOLS_OPEN}{body}{TOOLS_CLOSE}"

    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """The response channel holding ``content``, then the ``tools`` element."""
        self.check_content(content)
        out = f"{RESPONSE_OPEN}{content}{RESPONSE_CLOSE}"
        return out + self.render_calls(list(calls)) if calls else out
