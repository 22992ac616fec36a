"""MiniMax-M3: every tag prefixed by the sentinel ``]<]minimax[>[``, arguments as elements.

Layout (MiniMax-M3's chat template; SGLang ``python/sglang/srt/function_call/minimax_m3.py``;
MiniMax-M3 structural tag; outputs recorded in the wild), with ``S`` standing for the
sentinel::

    Let me check.S<tool_call>
    S<invoke name="get_weather">S<city>ParisS</city>S<days>3S</days>S</invoke>
    S</tool_call>

Each argument is an element named after its key. An object is written as child elements, an
array as ``item`` children, any other value as its text (strings verbatim, others as JSON).
Whitespace between the sentinel and the ``<`` that follows is ignored (as SGLang does).
Reasoning is ``<mm:think>`` ... ``</mm:think>``; ``[e~[`` ends the turn. Leaves are typed by
the tool schema (nested schemas followed through ``properties``, ``items``, ``prefixItems``,
``additionalProperties``); without one, JSON when valid, else the text; an empty element is an
empty object or array when the schema says so. Without a schema, an element whose children
are all ``item`` is an array; a repeated child key collects its values in a list.

Render writes what the model's own chat template (``MiniMaxAI/MiniMax-M3``
``chat_template.jinja``, its ``to_xml`` macro) writes for an assistant turn's calls: the block
right after the content (no separator), an empty object or array argument as an empty element
(read back as its schema types it). Where the template's text would not read back, render keeps
a form that does: ``None`` is written ``null`` (the template leaves the member out) and an
empty object or array inside another value as ``{}`` / ``[]`` (the template's empty element
reads back as ``""`` without a nested schema). Parse reads both forms, and the ``\n`` that the
dialect wrote before the block when it was pinned from SGLang and vLLM.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from tooletta import DialectInfo, RenderError, ScannerDialect, ToolCall, to_json
from tooletta.plugin import (
    ArgsWriter,
    Block,
    BlockError,
    Grammar,
    InvokeSyntax,
    MarkerSet,
    Read,
    Reader,
    coerce_value,
    erase,
    free_of,
    guarded,
    is_string_schema,
    kinds_of,
    one_shot,
    one_shot_value,
    quote_attribute,
    read_attributes,
    reasoning_region,
    scan_name,
    schema_types,
    skip_ws,
    tag_boundary,
)

from .chat_m3 import MinimaxM3Chat

__all__ = ["SENTINEL", "MinimaxM3Dialect"]

SENTINEL = "]<]minimax[>["
"""The literal that precedes every MiniMax-M3 tool-call tag."""
CLOSE = SENTINEL + "</tool_call>"
MAX_NESTING = 64
"""Deepest element nesting read; deeper input is a malformed block."""

_WS = re.compile(r"[ \t\r\n]*")
_SPACE = " \t\r\n"
_SENT = MarkerSet((SENTINEL,))
_GT = MarkerSet((">",))
_DETECT = re.compile(re.escape(SENTINEL) + r"[ \t\r\n]*<tool_call>")


def _after_ws(r: Reader, literal: str) -> Read[int]:
    """How many whitespace characters precede ``literal`` at ``r.pos`` (-1: it does not
    follow). Consumes nothing; waits until the answer is known."""
    skipped = 0
    while True:
        buf = r.buf
        m = _WS.match(buf, r.pos + skipped)
        end = m.end() if m else r.pos + skipped
        skipped = end - r.pos
        avail = buf[end : end + len(literal)]
        if avail == literal:
            return skipped
        if r.final or not literal.startswith(avail):
            return -1
        yield


def _tag_name(r: Reader) -> Read[str]:
    """The name of a tag up to and through its ``>`` (surrounding spaces dropped)."""
    text, _ = yield from r.until(_GT)
    tag = text.strip(_SPACE)
    if not tag or "<" in tag:
        raise r.fail(f"bad tag name {text[:40]!r}")
    return tag


def _close_tag(r: Reader, tag: str) -> Read[None]:
    """The rest of a closing tag, after ``</``: it must close ``tag``."""
    name = yield from _tag_name(r)
    if name != tag:
        raise r.fail(f"mismatched closing tag </{name}>, expected </{tag}>")


def _next_tag(r: Reader) -> Read[bool]:
    """Sentinel, then ``</`` (True) or ``<`` (False), whitespace allowed around the sentinel."""
    yield from r.ws()
    yield from r.expect(SENTINEL)
    yield from r.ws()
    if (yield from r.accept("</")):
        return True
    yield from r.expect("<")
    return False


def _child_schema(
    schema: Mapping[str, Any] | None, tag: str, index: int
) -> Mapping[str, Any] | None:
    """The schema of child ``tag`` (the ``index``-th child) of an element typed ``schema``."""
    if not isinstance(schema, Mapping):
        return None
    if tag == "item" and "array" in schema_types(schema):
        prefix = schema.get("prefixItems")
        first = prefix[index] if isinstance(prefix, list) and index < len(prefix) else None
        if isinstance(first, Mapping):
            return first
        for key in ("additionalItems", "items"):
            sub = schema.get(key)
            if isinstance(sub, Mapping):
                return sub
        return None
    props = schema.get("properties")
    sub = props.get(tag) if isinstance(props, Mapping) else None
    if isinstance(sub, Mapping):
        return sub
    extra = schema.get("additionalProperties")
    return extra if isinstance(extra, Mapping) else None


def _leaf(text: str, schema: Mapping[str, Any] | None) -> Any:
    """A leaf element's value: typed by ``schema``; empty means null/{}/[] when it says so."""
    types = schema_types(schema)
    if not text.strip(_SPACE) and types and "string" not in types:
        if "null" in types:
            return None
        if "object" in types and "array" not in types:
            return {}
        if "array" in types and "object" not in types:
            return []
    return coerce_value(text, schema)


def _build(children: list[tuple[str, Any]], schema: Mapping[str, Any] | None) -> Any:
    """An element's value from its children: a list of ``item`` values, or an object."""
    types = schema_types(schema)
    if "array" in types and "object" not in types:
        as_list = True
    elif "object" in types and "array" not in types:
        as_list = False
    else:
        as_list = all(tag == "item" for tag, _ in children)
    if as_list:
        return [value for _, value in children]
    out: dict[str, Any] = {}
    repeated: set[str] = set()
    for tag, value in children:
        if tag not in out:
            out[tag] = value
        elif tag in repeated:
            out[tag].append(value)
        else:
            repeated.add(tag)
            out[tag] = [out[tag], value]
    return out


def _read_children(r: Reader, tag: str, schema: Mapping[str, Any] | None, depth: int) -> Read[Any]:
    """The children of element ``tag``, from just after the first child's ``<`` through
    ``</tag>``."""
    if depth > MAX_NESTING:
        raise r.fail(f"elements nested deeper than {MAX_NESTING}")
    children: list[tuple[str, Any]] = []
    while True:
        child = yield from _tag_name(r)
        value = yield from _read_value(r, child, _child_schema(schema, child, len(children)), depth)
        children.append((child, value))
        if (yield from _next_tag(r)):
            yield from _close_tag(r, tag)
            return _build(children, schema)


def _read_value(r: Reader, tag: str, schema: Mapping[str, Any] | None, depth: int) -> Read[Any]:
    """The value of element ``tag``, from just after ``<tag>`` through its closing tag."""
    text, _ = yield from r.until(_SENT)
    yield from r.ws()
    if (yield from r.accept("</")):
        yield from _close_tag(r, tag)
        return _leaf(text, schema)
    if text.strip(_SPACE):
        raise r.fail(f"text before a child element of <{tag}>")
    yield from r.expect("<")
    return (yield from _read_children(r, tag, schema, depth + 1))


class _HeldString:
    """Streams a string argument, holding a whitespace-only start until it is known to be a
    string (it could still turn out to be the whitespace before a child element)."""

    __slots__ = ("parts", "pending", "started", "w")

    def __init__(self, w: ArgsWriter):
        self.w = w
        self.pending = ""
        self.started = False
        self.parts: list[str] = []

    def feed(self, text: str) -> None:
        """Take the next piece of the value's text."""
        if not self.started:
            if not text.strip(_SPACE):
                self.pending += text
                return
            self.started = True
            self.w.open_string()
            text = self.pending + text
            self.pending = ""
        self.parts.append(text)
        self.w.string_part(text)

    def close(self, key: str) -> None:
        """The value ended: write the rest of it."""
        if not self.started:
            self.w.open_string()
            self.w.string_part(self.pending)
            self.parts = [self.pending]
        self.w.close_string(key, "".join(self.parts))


def _read_argument(r: Reader, w: ArgsWriter, key: str) -> Read[None]:
    """One top-level argument element (after ``<key>``): strings stream, others type at the
    end."""
    w.key(key)
    schema = w.schema(key)
    if not is_string_schema(schema):
        w.value(key, (yield from _read_value(r, key, schema, 1)))
        return
    held = _HeldString(w)
    yield from r.until(_SENT, held.feed)
    yield from r.ws()
    if (yield from r.accept("</")):
        yield from _close_tag(r, key)
        held.close(key)
        return
    if held.started:
        raise r.fail(f"text before a child element of <{key}>")
    yield from r.expect("<")
    w.value(key, (yield from _read_children(r, key, schema, 2)))


def _read_invoke(r: Reader) -> Read[None]:
    """One call, from just after ``<invoke`` through ``]<]minimax[>[</invoke>``."""
    yield from tag_boundary(r, "<invoke")
    attrs = yield from read_attributes(r)
    name = attrs.get("name")
    if name is None:
        raise r.fail("<invoke> without a name")
    r.start_call(name)
    w = ArgsWriter(r, name)
    while not (yield from _next_tag(r)):
        key = yield from _tag_name(r)
        yield from _read_argument(r, w, key)
    yield from _close_tag(r, "invoke")
    w.close()


@guarded
def read_block(r: Reader) -> Read[None]:
    """A sentinel: ``<tool_call>`` and its invokes, or a stray sentinel (dropped)."""
    skipped = yield from _after_ws(r, "<tool_call>")
    if skipped < 0:
        return
    r.pos += skipped + len("<tool_call>")
    while True:
        yield from r.ws()
        if (yield from r.at_end()):
            return
        yield from r.expect(SENTINEL)
        yield from r.ws()
        got = yield from r.accept("</tool_call>", "<invoke")
        if got == "</tool_call>":
            return
        if not got:
            raise r.fail("expected <invoke> or </tool_call>")
        yield from _read_invoke(r)


# -- one-shot shortcut: the same reading over the whole text, declining where it would fail --

_INVOKE = InvokeSyntax()
_N_SENTINEL = len(SENTINEL)


def _scan_tag_name(text: str, pos: int) -> tuple[str, int] | None:
    """:func:`_tag_name` from ``pos``: the name and the position after its ``>``."""
    end = text.find(">", pos)
    if end < 0:
        return None
    tag = text[pos:end].strip(_SPACE)
    if not tag or "<" in tag:
        return None
    return tag, end + 1


def _scan_next_tag(text: str, pos: int) -> tuple[bool, int] | None:
    """:func:`_next_tag` from ``pos``: closing or not, and the position after ``</`` or ``<``."""
    if not text.startswith(SENTINEL, pos):
        pos = skip_ws(text, pos)
        if not text.startswith(SENTINEL, pos):
            return None
    pos += _N_SENTINEL
    if text[pos : pos + 1] in _SPACE:
        pos = skip_ws(text, pos)
    if text.startswith("</", pos):
        return True, pos + 2
    if text.startswith("<", pos):
        return False, pos + 1
    return None


def _scan_close(text: str, pos: int, tag: str) -> int:
    """:func:`_close_tag` from ``pos`` (after ``</``): the position after it, or -1."""
    got = _scan_tag_name(text, pos)
    return got[1] if got is not None and got[0] == tag else -1


def _scan_children(
    text: str, pos: int, tag: str, schema: Mapping[str, Any] | None, depth: int
) -> tuple[Any, int] | None:
    """:func:`_read_children` from ``pos``: the value and the position after ``</tag>``."""
    if depth > MAX_NESTING:
        return None
    children: list[tuple[str, Any]] = []
    while True:
        got = _scan_tag_name(text, pos)
        if got is None:
            return None
        child, pos = got
        sub = None if schema is None else _child_schema(schema, child, len(children))
        value = _scan_value(text, pos, child, sub, depth)
        if value is None:
            return None
        children.append((child, value[0]))
        nxt = _scan_next_tag(text, value[1])
        if nxt is None:
            return None
        if nxt[0]:
            end = _scan_close(text, nxt[1], tag)
            return None if end < 0 else (_build(children, schema), end)
        pos = nxt[1]


def _scan_leaf(body: str, schema: Mapping[str, Any] | None, kind: str) -> Any:
    """``_leaf(body, schema)``, with ``kind`` the one type of ``schema`` ("" when unknown)."""
    if schema is None:
        return coerce_value(body, None)  # what _leaf does without a schema
    if kind and body.strip(_SPACE):  # not empty: what _leaf gives is coerce_value's
        return one_shot_value(body, kind, schema)
    return _leaf(body, schema)


def _scan_value(
    text: str, pos: int, tag: str, schema: Mapping[str, Any] | None, depth: int, kind: str = ""
) -> tuple[Any, int] | None:
    """:func:`_read_value` from ``pos`` (after ``<tag>``): the value and the position after
    its closing tag (``kind``: the one type of ``schema``, when known). Typing may raise
    what ``coerce_value`` raises."""
    at = text.find(SENTINEL, pos)
    if at < 0:
        return None
    body = text[pos:at]
    pos = at + _N_SENTINEL
    end = pos + len(tag) + 3
    if text.startswith("</", pos) and text.startswith(tag, pos + 2) and text[end - 1 : end] == ">":
        return _scan_leaf(body, schema, kind), end  # `</tag>` right after the sentinel
    pos = skip_ws(text, pos)
    if text.startswith("</", pos):
        end = _scan_close(text, pos + 2, tag)
        return None if end < 0 else (_scan_leaf(body, schema, kind), end)
    if body.strip(_SPACE) or not text.startswith("<", pos):
        return None
    return _scan_children(text, pos + 1, tag, schema, depth + 1)


def _scan_invoke(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """:func:`_read_invoke` from ``pos`` (after ``<invoke``): the call appended, the
    position after ``</invoke>`` returned (-1 where the reader fails)."""
    if text[pos : pos + 1] not in (" ", "\t", "\r", "\n", ">"):  # tag_boundary
        return -1
    name, pos = scan_name(text, pos, _INVOKE)
    if name is None:
        return -1
    kinds, kind = kinds_of(tools, name)
    values: dict[str, Any] = {}
    while True:
        nxt = _scan_next_tag(text, pos)
        if nxt is None:
            return -1
        if nxt[0]:
            end = _scan_close(text, nxt[1], "invoke")
            if end >= 0:
                calls.append(ToolCall(name, values))
            return end
        got = _scan_tag_name(text, nxt[1])
        if got is None:
            return -1
        key, pos = got
        t, schema = kinds.get(key) or kind(name, key)
        if t != "string":
            value = _scan_value(text, pos, key, schema, 1, t)
        else:  # _read_argument's string: the text, unless child elements follow
            at = text.find(SENTINEL, pos)
            if at < 0:
                return -1
            body = text[pos:at]
            pos = at + _N_SENTINEL
            end = pos + len(key) + 3
            if (
                text.startswith("</", pos)
                and text.startswith(key, pos + 2)
                and text[end - 1 : end] == ">"
            ):
                values[key] = body  # the common case: `</key>` right after the sentinel
                pos = end
                continue
            pos = skip_ws(text, pos)
            if text.startswith("</", pos):
                end = _scan_close(text, pos + 2, key)
                value = None if end < 0 else (body, end)
            elif body.strip(_SPACE) or not text.startswith("<", pos):
                return -1
            else:
                value = _scan_children(text, pos + 1, key, schema, 2)
        if value is None:
            return -1
        values[key], pos = value


@one_shot
def fast_block(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_block` for a ``<tool_call>`` block closed by
    ``]<]minimax[>[</tool_call>`` (a stray sentinel or an unclosed block is left to it)."""
    pos = skip_ws(text, pos)
    if not text.startswith("<tool_call>", pos):
        return -1
    pos += len("<tool_call>")
    while True:
        pos = skip_ws(text, pos)
        if not text.startswith(SENTINEL, pos):
            return -1
        pos = skip_ws(text, pos + _N_SENTINEL)
        if text.startswith("</tool_call>", pos):
            return pos + len("</tool_call>")
        if not text.startswith("<invoke", pos):
            return -1
        pos = _scan_invoke(text, pos + len("<invoke"), tools, calls)
        if pos < 0:
            return -1


def _check_tag(tag: str, error: Callable[[str], RenderError]) -> None:
    if not tag or tag != tag.strip(_SPACE) or tag.startswith("/") or any(c in tag for c in "<>"):
        raise error(f"the key {tag!r} cannot be written as an element name")


def _render_element(tag: str, value: Any, error: Callable[[str], RenderError], nested: bool) -> str:
    """``]<]minimax[>[<tag>...]<]minimax[>[</tag>`` for one value."""
    _check_tag(tag, error)
    if not nested and isinstance(value, (dict, list)) and not value:
        body = ""  # the template's empty element: the argument's schema types it
    elif isinstance(value, dict) and value:
        if list(value) == ["item"]:
            raise error("an object whose only key is 'item' would read back as an array")
        body = "".join(_render_element(k, v, error, True) for k, v in value.items())
    elif isinstance(value, list) and value:
        body = "".join(_render_element("item", v, error, True) for v in value)
    elif isinstance(value, str):
        if not free_of(value, SENTINEL):
            raise error(f"a string value contains {SENTINEL!r}")
        if nested:
            try:
                back = coerce_value(value, None)
            except BlockError:
                raise error("a nested string is JSON nested too deeply to read back") from None
            if not isinstance(back, str) or back != value:
                raise error(f"the nested string {value!r} would read back as {back!r}")
        body = value
    else:
        body = to_json(value)
    return f"{SENTINEL}<{tag}>{body}{SENTINEL}</{tag}>"


class MinimaxM3Dialect(ScannerDialect):
    """``]<]minimax[>[<tool_call>`` + ``<invoke name=...>`` + one element per argument."""

    info = DialectInfo(
        name="minimax_m3",
        priority=90,
        markers=(SENTINEL,),
        description="MiniMax-M3: ]<]minimax[>[-prefixed <tool_call>/<invoke>, args as elements",
        source=(
            "sgl-project/sglang python/sglang/srt/function_call/minimax_m3.py; "
            "vllm/tool_parsers/minimax_m3_tool_parser.py (tool_call_start_token)"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(SENTINEL, read_block, close=CLOSE, fast=fast_block),
            reasoning_region("<mm:think>", "</mm:think>"),
            erase("[e~["),
        )
    )
    content_separator = ""
    """The template writes the block right after the content."""
    max_depth = MAX_NESTING  # the invoke element is the readers' first level
    chat_formats = (MinimaxM3Chat(),)

    def detect(self, text: str) -> bool:
        """The sentinel followed (after whitespace) by ``<tool_call>``."""
        return _DETECT.search(text) is not None

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The block: ``<tool_call>``, one ``invoke`` line per call, ``</tool_call>``."""
        parts = [f"{SENTINEL}<tool_call>\n"]
        for call in calls:
            name = quote_attribute(call.name, False)
            if name is None or SENTINEL in name:
                raise self.error(f"the tool name {call.name!r} cannot be written")
            body = "".join(
                _render_element(k, v, self.error, False) for k, v in call.arguments.items()
            )
            parts.append(f'{SENTINEL}<invoke name="{name}">{body}{SENTINEL}</invoke>\n')
        parts.append(CLOSE)
        return "".join(parts)
