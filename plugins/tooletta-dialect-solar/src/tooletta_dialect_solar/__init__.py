"""Upstage Solar Open2: ``<|tool_call:start|>NAME`` then ``<|tool_arg:*|>`` key/value lines.

One call, every marker a single special token of the tokenizer::

    <|tool_call:start|>get_weather
    <|tool_arg:start|>city<|tool_arg:value|>Paris<|tool_arg:end|>
    <|tool_arg:start|>days<|tool_arg:value|>3<|tool_arg:end|>
    <|tool_call:end|>

The name is the rest of the start token's line; each argument is a line ending with
``<|tool_arg:end|>``; several calls are joined by a newline; content comes right before the
first call (no separator). The assistant turn of the chat template is
``<|think:start|>REASONING<|think:end|>CONTENT`` + the calls + ``\\n<|im:end|>``; the generation
prompt ends with ``<|think:start|>`` when reasoning is on (and with
``<|think:start|><|think:end|>`` when it is off), so a completion that starts inside reasoning
is parsed with ``prefix="<|think:start|>"``. A stray ``<|think:end|>``, ``<|im:end|>`` and
``<|endoftext|>`` are removed. There are no call ids.

Values are raw text: strings verbatim, other values as JSON. They are typed by the request's
tool schema (no schema: JSON when valid, else the text; vLLM keeps such values as strings).
Tolerated like vLLM: a missing ``<|tool_arg:end|>`` before the next ``<|tool_arg:start|>`` or
``<|tool_call:end|>``, and a name line ended directly by ``<|tool_arg:start|>`` or
``<|tool_call:end|>``. A call without ``<|tool_call:end|>`` at the end of the text, or an
argument without ``<|tool_arg:value|>``, is malformed (``unparsed``). Repeated keys: the last
one wins (vLLM keeps the first).

Rendering writes content, then the calls joined by ``\\n``, arguments in the call's order (the
template orders them by the tool schema's properties, which the renderer does not see); the
template's trailing ``\\n<|im:end|>`` ends the turn and is not written.

Pinned from vLLM's ``vllm/tool_parsers/solar_open2_tool_parser.py`` (markers, name line,
value rules) and its tests, SGLang's port of it, and the Solar Open2 chat-template layout as
reproduced by a serving stack's renderer oracle (``render_c_oracle`` helpers copied from
``ds4_server.c``: the tool-call instruction, call separator and assistant turn). Solar Open
(v1, llama.cpp ``SOLAR_OPEN``) is a different format (``<|tool_calls|><|tool_call:begin|>ID
<|tool_call:name|>NAME<|tool_call:args|>{json}<|tool_call:end|>``) and is not this dialect.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    ArgsWriter,
    Block,
    Grammar,
    Incomplete,
    MarkerSet,
    Read,
    Reader,
    erase,
    guarded,
    kinds_of,
    one_shot,
    reasoning_region,
    skip_ws,
    tag_end,
    typed,
    typed_value,
)
from tooletta_dialect_solar.models import MODELS

from .open1 import SolarOpenDialect

__all__ = ["SolarOpen2Dialect", "SolarOpenDialect", "register_dialects"]

CALL_START = "<|tool_call:start|>"
CALL_END = "<|tool_call:end|>"
ARG_START = "<|tool_arg:start|>"
ARG_VALUE = "<|tool_arg:value|>"
ARG_END = "<|tool_arg:end|>"
THINK_START = "<|think:start|>"
THINK_END = "<|think:end|>"
IM_END = "<|im:end|>"
EOS = "<|endoftext|>"

_NAME_STOPS = ("\n", ARG_START, CALL_END, CALL_START)
_KEY_STOPS = (ARG_VALUE, ARG_END, ARG_START, CALL_END, CALL_START)
_VALUE_STOPS = (ARG_END, ARG_START, CALL_END)
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_NAME_END = MarkerSet(_NAME_STOPS)
_KEY_END = MarkerSet(_KEY_STOPS)
_VALUE_END = MarkerSet(_VALUE_STOPS)
_FAST_KEY = re.compile(f"[ \\t\\r\\n]*{re.escape(ARG_START)}([^<]*){re.escape(ARG_VALUE)}")
"""Whitespace, then an argument's key (holding no ``<``: no marker can start in it)."""


@guarded
def read_call(r: Reader) -> Read[None]:
    """One call, from just after ``<|tool_call:start|>`` through ``<|tool_call:end|>``."""
    raw_name, marker = yield from r.until(_NAME_END)
    name = raw_name.strip()
    if not name or marker == CALL_START:
        raise r.fail("a tool call without a name line")
    r.start_call(name)
    w = ArgsWriter(r, name)
    got = "" if marker == "\n" else marker
    while True:
        if not got:
            yield from r.ws()
            got = yield from r.accept(ARG_START, CALL_END)
        if got == CALL_END:
            break
        if got != ARG_START:
            if (yield from r.at_end()):
                raise Incomplete("text ended inside a tool call", r.pos)
            raise r.fail(f"expected {ARG_START!r} or {CALL_END!r}")
        key, marker = yield from r.until(_KEY_END)
        if marker != ARG_VALUE:
            raise r.fail(f"an argument without {ARG_VALUE!r}")
        end = yield from typed_value(r, w, key, _VALUE_END)
        got = "" if end == ARG_END else end
    w.close()


@one_shot
def fast_call(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_call`: the same markers searched in the whole
    text (a call the text ends inside is left to the reader)."""
    lt = text.find("<", pos)  # every marker but "\n" starts with "<"
    at, marker = text.find("\n", pos, len(text) if lt < 0 else lt), "\n"
    if at < 0:
        at, marker = _NAME_END.find(text, pos)
    name = text[pos:at].strip()
    if at < 0 or not name or marker == CALL_START:
        return -1
    pos = at + len(marker)
    got = "" if marker == "\n" else marker
    kinds, kind = kinds_of(tools, name)
    values: dict[str, Any] = {}
    while True:
        m = _FAST_KEY.match(text, pos) if not got else None
        if m is not None:  # the common case: whitespace, `<|tool_arg:start|>K<|tool_arg:value|>`
            key = m.group(1)
            pos = m.end()
        else:
            if not got:
                pos = skip_ws(text, pos)
                got = (
                    ARG_START
                    if text.startswith(ARG_START, pos)
                    else CALL_END
                    if text.startswith(CALL_END, pos)
                    else ""
                )
                pos += len(got)
            if got == CALL_END:
                calls.append(ToolCall(name, values))
                return pos
            if got != ARG_START:
                return -1
            at, marker = _KEY_END.find(text, pos)
            if marker != ARG_VALUE:
                return -1
            key = text[pos:at]
            pos = at + len(ARG_VALUE)
        at, marker = tag_end(text, pos, ARG_END, _VALUE_STOPS), ARG_END
        if at < 0:  # another marker first (or none)
            at, marker = _VALUE_END.find(text, pos)
            if at < 0:
                return -1
        t, schema = kinds.get(key) or kind(name, key)
        values[key] = typed(text[pos:at], t, schema)
        pos = at + len(marker)
        got = "" if marker == ARG_END else marker


def _clean(text: str, follow: str, stops: Sequence[str]) -> bool:
    """True when a reader of ``text + follow`` stops exactly at ``follow``."""
    probe = text + follow
    return all(probe.find(m) < 0 or probe.find(m) >= len(text) for m in stops)


class SolarOpen2Dialect(ScannerDialect):
    """Solar Open2: ``<|tool_call:start|>NAME\\n`` + ``<|tool_arg:start|>K<|tool_arg:value|>V
    <|tool_arg:end|>\\n`` per argument + ``<|tool_call:end|>``."""

    info = DialectInfo(
        name="solar_open2",
        aliases=("solar",),
        priority=90,
        markers=(CALL_START,),
        description="Upstage Solar Open2: <|tool_call:start|>NAME + <|tool_arg:*|> key/values",
        source=(
            "vllm-project/vllm vllm/tool_parsers/solar_open2_tool_parser.py; SGLang's port of it; "
            "Solar Open2 chat-template layout (ds4_server.c render oracle)"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(CALL_START, read_call, close=CALL_END, fast=fast_call),
            reasoning_region(THINK_START, THINK_END),
            erase(THINK_END),
            erase(IM_END),
            erase(EOS),
        )
    )

    def _value(self, value: Any) -> str:
        if isinstance(value, str):
            if not _clean(value, ARG_END, _VALUE_STOPS):
                raise self.error("a string value contains a tool-argument marker")
            return value
        text = to_json(value)
        if _LONE_SURROGATE.search(text):
            # typing decodes JSON with msgspec, which refuses lone surrogates: refuse, not lie
            raise self.error("a non-string value holds a lone surrogate")
        if not _clean(text, ARG_END, _VALUE_STOPS):
            text = text.replace("<", "\\u003c")
        return text

    def _call(self, call: ToolCall) -> str:
        name = call.name
        if not name or name != name.strip() or not _clean(name, "\n", _NAME_STOPS):
            raise self.error(f"tool name {name!r} cannot be written on the start line")
        parts = [f"{CALL_START}{name}\n"]
        for key, value in call.arguments.items():
            if not _clean(key, ARG_VALUE, _KEY_STOPS):
                raise self.error(f"argument name {key!r} holds a tool-argument marker")
            parts.append(f"{ARG_START}{key}{ARG_VALUE}{self._value(value)}{ARG_END}\n")
        parts.append(CALL_END)
        return "".join(parts)

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The calls joined by newlines (content, if any, comes right before them)."""
        return "\n".join(self._call(c) for c in calls)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the solar_open2 and solar_open dialects."""
    for declared in (SolarOpen2Dialect(), SolarOpenDialect(), *MODELS):
        register(declared)
