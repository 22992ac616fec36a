"""GigaChat tool calls: GigaChat 3 (``function call`` role message with JSON) and GigaChat 3.5
(GCML, a DSML-like XML block). They are different formats, so they are different dialects.

**gigachat3**, pinned from ``ggml-org/llama.cpp`` ``models/templates/GigaChat3-10B-A1.8B.jinja``
and the vLLM / SGLang ``gigachat3`` parsers. A message is ``ROLE<|role_sep|>\\nCONTENT
<|message_sep|>\\n\\n``; an assistant turn with a tool call is the assistant message followed
by a ``function call`` message, so the completion (after ``assistant<|role_sep|>\\n``) is::

    Let me check.<|message_sep|>

    function call<|role_sep|>
    {"name": "get_weather", "arguments": {"city": "Paris"}}

The inline ``<|function_call|>{json}`` form is read too; ``</s>`` is removed. No ids, no
reasoning. The template renders only the first call; several calls are rendered as several
``function call`` messages (parsing reads them all).

**gigachat35**, pinned from ``models/templates/GigaChat3.5.jinja`` and SGLang's
``gigachat35_detector.py``: content, then (after a blank line) a GCML block::

    <｜GCML｜tool_calls>
    <｜GCML｜invoke name="get_weather">
    <｜GCML｜parameter name="city" string="true">Paris</｜GCML｜parameter>
    <｜GCML｜parameter name="days" string="false">3</｜GCML｜parameter>
    </｜GCML｜invoke>
    </｜GCML｜tool_calls>

``string="true"`` values are raw text (kept verbatim, streamed as they arrive); ``string="false"``
values are JSON (kept as the raw string when they do not decode); a parameter without the
attribute is typed by the request's tool schemas. Reasoning is ``<think>`` ... ``</think>``;
``<|message_sep|>`` and ``</s>`` are removed. ``｜`` is U+FF5C FULLWIDTH VERTICAL LINE.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import msgspec

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    ArgsWriter,
    Block,
    ChatFormat,
    Grammar,
    Read,
    Reader,
    coerce_value,
    decode_bounded,
    erase,
    fast_after,
    fast_json_object,
    fast_repeat,
    json_call_object,
    kinds_of,
    one_shot,
    plain_render,
    reasoning_region,
    scan_arguments,
    skip_ws,
    typed,
    typed_value,
)
from tooletta_dialect_gigachat.models import MODELS

from .chat import GigaChat3Chat

__all__ = ["GigaChat3Dialect", "GigaChat35Dialect", "register_dialects"]

# -- GigaChat 3 --------------------------------------------------------------------------------

MESSAGE_SEP = "<|message_sep|>"
FUNCTION_CALL_ROLE = "function call<|role_sep|>"
FUNCTION_CALL_INLINE = "<|function_call|>"
EOS = "</s>"
_SPACE = " \t\r\n"
_ARGS_KEYS = ("arguments", "parameters")
_FAST_CALL = fast_json_object(
    args_keys=_ARGS_KEYS, before=(MESSAGE_SEP, FUNCTION_CALL_ROLE, FUNCTION_CALL_INLINE, EOS)
)
"""The one-shot reader of :func:`read_call` (the object ends before the next marker)."""


def _after_space(r: Reader, literal: str) -> Read[bool]:
    """True (and move past it) when ``literal`` follows, after optional whitespace; otherwise
    consume nothing, so the whitespace stays content."""
    skip = 0  # whitespace already seen after r.pos
    while True:
        buf = r.buf
        i = r.pos + skip
        n = len(buf)
        while i < n and buf[i] in _SPACE:
            i += 1
        skip = i - r.pos
        tail = buf[i : i + len(literal)]
        if tail == literal:
            r.pos = i + len(literal)
            return True
        if not literal.startswith(tail) or r.final:
            return False
        yield


def read_call(r: Reader) -> Read[None]:
    """One JSON call object ``{"name": ..., "arguments": {...}}``."""
    yield from json_call_object(r, args_keys=_ARGS_KEYS)


def read_message_sep(r: Reader) -> Read[None]:
    """The end of a message; a ``function call`` message may follow."""
    if (yield from _after_space(r, FUNCTION_CALL_ROLE)):
        yield from read_call(r)


class GigaChat3Dialect(ScannerDialect):
    """``CONTENT<|message_sep|>\\n\\nfunction call<|role_sep|>\\n{json}`` (GigaChat 3)."""

    info = DialectInfo(
        name="gigachat3",
        aliases=("gigachat",),
        priority=90,
        markers=(FUNCTION_CALL_ROLE, FUNCTION_CALL_INLINE),
        description="GigaChat 3: <|message_sep|> then 'function call<|role_sep|>' + JSON",
        source=(
            "ggml-org/llama.cpp models/templates/GigaChat3-10B-A1.8B.jinja; "
            "vllm-project/vllm vllm/tool_parsers/gigachat3_tool_parser.py; "
            "sgl-project/sglang python/sglang/srt/function_call/gigachat3_detector.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(
                MESSAGE_SEP,
                read_message_sep,
                close=MESSAGE_SEP,
                fast=fast_repeat(
                    fast_after(FUNCTION_CALL_ROLE, _FAST_CALL, optional=True), MESSAGE_SEP
                ),
            ),
            Block(FUNCTION_CALL_ROLE, read_call, close=MESSAGE_SEP, fast=_FAST_CALL),
            Block(FUNCTION_CALL_INLINE, read_call, close=MESSAGE_SEP, fast=_FAST_CALL),
            erase(EOS),
        )
    )

    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (GigaChat3Chat(),)

    @plain_render
    def render(self, calls: Any, content: str = "") -> str:
        """The template's completion: content, then a ``function call`` message per call.
        Marked :func:`~tooletta.plugin.plain_render`: it writes what
        :meth:`tooletta.ScannerDialect.render` writes (the content checked, then the content,
        then :meth:`render_calls`, which is this with no content; no separator), so an answer
        without calls skips it."""
        self.check_content(content)
        calls = list(calls)
        if not calls:
            return content
        return content + "".join(
            f"{MESSAGE_SEP}\n\n{FUNCTION_CALL_ROLE}\n"
            f'{{"name": {to_json(c.name)}, "arguments": {to_json(c.arguments)}}}'
            for c in calls
        )

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The calls as ``function call`` messages (see :meth:`render`)."""
        return self.render(calls)


# -- GigaChat 3.5 (GCML) -------------------------------------------------------------------------

TOOL_CALLS = "<｜GCML｜tool_calls>"
TOOL_CALLS_END = "</｜GCML｜tool_calls>"
INVOKE = "<｜GCML｜invoke"
INVOKE_END = "</｜GCML｜invoke>"
PARAMETER = "<｜GCML｜parameter"
PARAMETER_END = "</｜GCML｜parameter>"
_ATTR = re.compile(r'([A-Za-z_][\w-]*)\s*=\s*"([^"]*)"')


def _attributes(r: Reader, tag: str) -> Read[dict[str, str]]:
    """The ``name="value"`` attributes of a tag (of any length), read up to its ``>``."""
    text, _ = yield from r.until((">",))
    if "<" in text:
        raise r.fail(f"malformed {tag} tag")
    return dict(_ATTR.findall(text))


def _parameter(r: Reader, w: ArgsWriter) -> Read[None]:
    """One ``<｜GCML｜parameter name=".." string="..">VALUE</｜GCML｜parameter>``."""
    attrs = yield from _attributes(r, "parameter")
    key = attrs.get("name")
    if key is None:
        raise r.fail("a parameter without a name")
    kind = attrs.get("string", "").lower()
    if kind == "true":
        w.key(key)
        w.open_string()
        parts: list[str] = []

        def write(text: str) -> None:
            parts.append(text)
            w.string_part(text)

        yield from r.until((PARAMETER_END,), write)
        w.close_string(key, "".join(parts))
    elif kind == "false":
        w.key(key)
        raw, _ = yield from r.until((PARAMETER_END,))
        try:
            value = decode_bounded(raw)
        except msgspec.DecodeError:
            value = coerce_value(raw, w.schema(key))
        except UnicodeError:  # lone surrogates: not JSON, keep the text
            value = raw
        w.value(key, value)
    else:
        yield from typed_value(r, w, key, (PARAMETER_END,))


def read_tool_calls(r: Reader) -> Read[None]:
    """A ``<｜GCML｜tool_calls>`` block of invokes."""
    while (yield from r.item_or_end(INVOKE, TOOL_CALLS_END)):
        attrs = yield from _attributes(r, "invoke")
        name = attrs.get("name")
        if not name:
            raise r.fail("an invoke without a name")
        r.start_call(name)
        w = ArgsWriter(r, name)
        while (yield from r.item_or_end(PARAMETER, INVOKE_END)):
            yield from _parameter(r, w)
        w.close()


_FAST_PARAMETER = re.compile(r'[ \t\r\n]*<｜GCML｜parameter name="([^"<>]*)" string="([^"<>]*)">')
"""Whitespace, then a parameter's start tag in the common case (attributes up to its ``>``)."""


def _scan_attributes(text: str, pos: int) -> tuple[dict[str, str], int] | None:
    """:func:`_attributes` from ``pos``: the attributes and the position after the ``>``."""
    end = text.find(">", pos)
    if end < 0:
        return None
    tag = text[pos:end]
    if "<" in tag:
        return None
    return dict(_ATTR.findall(tag)), end + 1


def _fast_parameter(text: str, pos: int) -> tuple[str, str | None, int] | None:
    """A parameter's start tag in the common case (:data:`_FAST_PARAMETER`)."""
    m = _FAST_PARAMETER.match(text, pos)
    return None if m is None else (m.group(1), m.group(2).lower(), m.end())


def _parameter_tag(text: str, pos: int) -> tuple[str, str | None, int] | None:
    """A parameter's start tag from after ``<｜GCML｜parameter``: its name, its ``string``
    flag and the position after the ``>``."""
    got = _scan_attributes(text, pos)
    if got is None or got[0].get("name") is None:
        return None
    return got[0]["name"], got[0].get("string", "").lower(), got[1]


def _scan_invoke(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """One invoke of :func:`read_tool_calls` from ``pos`` (after ``<｜GCML｜invoke``): the
    call appended, the position after ``</｜GCML｜invoke>`` returned (-1: the reader fails)."""
    got = _scan_attributes(text, pos)
    if got is None:
        return -1
    name = got[0].get("name")
    if not name:
        return -1
    kinds, kind = kinds_of(tools, name)

    def value(text: str, pos: int, key: str, flag: str | None) -> tuple[Any, int] | None:
        end = text.find(PARAMETER_END, pos)
        if end < 0:
            return None
        raw = text[pos:end]
        pos = end + len(PARAMETER_END)
        if flag == "true":
            return raw, pos
        if flag == "false":
            try:
                return decode_bounded(raw), pos
            except msgspec.DecodeError:
                return coerce_value(raw, (kinds.get(key) or kind(name, key))[1]), pos
            except UnicodeError:
                return raw, pos
        t, schema = kinds.get(key) or kind(name, key)
        return typed(raw, t, schema), pos

    return scan_arguments(
        text,
        got[1],
        name,
        calls,
        opener=PARAMETER,
        closer=INVOKE_END,
        common=_fast_parameter,
        tag=_parameter_tag,
        value=value,
    )


@one_shot
def fast_tool_calls(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_tool_calls` for a block closed by
    ``</｜GCML｜tool_calls>``."""
    while True:
        pos = skip_ws(text, pos)
        if text.startswith(TOOL_CALLS_END, pos):
            return pos + len(TOOL_CALLS_END)
        if not text.startswith(INVOKE, pos):
            return -1
        pos = _scan_invoke(text, pos + len(INVOKE), tools, calls)
        if pos < 0:
            return -1


def _attr_safe(text: str) -> bool:
    return bool(text) and not any(c in text for c in '"<>\n')


class GigaChat35Dialect(ScannerDialect):
    """``<｜GCML｜tool_calls>`` with ``<｜GCML｜invoke name="..">`` and typed parameters."""

    info = DialectInfo(
        name="gigachat35",
        priority=90,
        markers=(TOOL_CALLS,),
        description="GigaChat 3.5 GCML: <｜GCML｜tool_calls> / invoke / typed parameter tags",
        source=(
            "ggml-org/llama.cpp models/templates/GigaChat3.5.jinja; sgl-project/sglang "
            "python/sglang/srt/function_call/gigachat35_detector.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(TOOL_CALLS, read_tool_calls, close=TOOL_CALLS_END, fast=fast_tool_calls),
            reasoning_region("<think>", "</think>"),
            erase(MESSAGE_SEP),
            erase(EOS),
        )
    )
    content_separator = "\n\n"

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The GCML block as the GigaChat 3.5 template writes it."""
        return f"{TOOL_CALLS}\n" + "\n".join(self._invoke(c) for c in calls) + f"\n{TOOL_CALLS_END}"

    def _invoke(self, call: ToolCall) -> str:
        if not _attr_safe(call.name):
            raise self.error(f"tool name {call.name!r} cannot be written in a GCML attribute")
        params = [self._parameter(k, v) for k, v in call.arguments.items()]
        body = "\n".join(params) + "\n" if params else ""
        return f'{INVOKE} name="{call.name}">\n{body}{INVOKE_END}'

    def _parameter(self, key: str, value: Any) -> str:
        if not _attr_safe(key):
            raise self.error(f"parameter name {key!r} cannot be written in a GCML attribute")
        if isinstance(value, str):
            kind, text = "true", value
        else:
            kind, text = "false", to_json(value)
        if PARAMETER_END in text:
            raise self.error(f"the value of {key!r} contains {PARAMETER_END!r}")
        return f'{PARAMETER} name="{key}" string="{kind}">{text}{PARAMETER_END}'


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the gigachat3 and gigachat35 dialects and the gigachat31 variant."""
    from .v31 import GigaChat31Dialect

    for declared in (GigaChat3Dialect(), GigaChat31Dialect(), GigaChat35Dialect(), *MODELS):
        register(declared)
