"""Llama 3.x JSON tool calls: ``{"name": ..., "parameters": {...}}``, maybe behind a python tag.

Emitted by Llama 3.1 / 3.2 / 3.3 Instruct with their JSON tool-calling template (and Llama 4
served with vLLM's JSON template). Pinned from vLLM's
``examples/tool_chat_template_llama3.1_json.jinja``, whose assistant turn writes one call as::

    {"name": "get_weather", "parameters": {"city": "Paris", "days": 3}}

(``'{"name": "' + name + '", "parameters": ' + arguments|tojson + '}'``, then ``<|eot_id|>``;
the template drops the content and refuses several calls). Several calls are joined by
``"; "`` (vLLM's and SGLang's parsers split on it).

A call is recognised only where the format puts it: at the very start of the reply (after
whitespace) or after the ``<|python_tag|>`` special token. JSON elsewhere in prose stays
content, and detection leaves a reply that opens with a data object (no ``"parameters"``
or ``"arguments"`` member) to others (:func:`starts_with_call`). Parsing also accepts
``"arguments"`` for ``"parameters"``, a leading ``"type": "function"`` member, arguments given
as a JSON string, and an ``"id"`` member (kept). ``<|eot_id|>`` and ``<|eom_id|>`` are removed.

Rendering writes the template's form; with content (which the template cannot express) it
writes ``content``, a newline, ``<|python_tag|>`` and the calls, which vLLM and SGLang split the
same way.

Llama 4's call turn (its model repositories' template) is read too:
``<|python_start|>content<|python_end|>`` and then the call objects back to back (``;`` between
them is accepted); ``<|eot|>`` and ``<|eom|>`` are removed. The ``llama4_json`` variant
(:mod:`.llama4`) renders that form and is what Llama 4 Instruct model ids resolve to.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    Block,
    ChatFormat,
    Grammar,
    Read,
    Reader,
    erase,
    fast_json_chain,
    json_call_object,
    plain_render,
    space_ahead,
    text_ahead,
)
from tooletta_dialect_llama.models import MODELS

from .chat import Llama31Chat, Llama32Chat

__all__ = [
    "PYTHON_END",
    "PYTHON_START",
    "PYTHON_TAG",
    "STARTS",
    "LlamaJsonDialect",
    "register_dialects",
    "starts_with_call",
]

PYTHON_TAG = "<|python_tag|>"
"""The special token that may precede the calls."""
PYTHON_START = "<|python_start|>"
"""Llama 4: opens the call turn (its template writes the content between this token and
:data:`PYTHON_END`, then the call objects)."""
PYTHON_END = "<|python_end|>"
"""Llama 4: the token after which its template writes the call objects, back to back."""
STARTS = ('{"name"', '{"type": "function"')
"""How a call object begins when it opens the reply (recognised only there)."""

_DETECT_TAG = re.compile(r"<\|python_tag\|>\s*\{|<\|python_end\|>\s*\{")
_ID_KEYS = ("id",)
_ARGS_KEYS = ("parameters", "arguments")
_DECODER = json.JSONDecoder()
_EOT = "<|eot_id|>"
_EOM = "<|eom_id|>"
_LLAMA4_ENDS = ("<|eot|>", "<|eom|>")
_CHAIN: dict[str, Any] = {"id_keys": _ID_KEYS, "before": (PYTHON_TAG, _EOT, _EOM)}


def starts_with_call(text: str) -> bool:
    """Whether the JSON object opening ``text`` describes a call, not data that has a name.

    A complete object must have a string ``"name"`` and a ``"parameters"`` or ``"arguments"``
    member (``{"name": "Widget", "price": 9}`` is data); an object that does not decode (cut
    off, malformed) counts as a call, so the parser can report it.
    """
    try:
        obj, _ = _DECODER.raw_decode(text)
    except (ValueError, RecursionError):
        return True
    return (
        isinstance(obj, dict)
        and isinstance(obj.get("name"), str)
        and any(k in obj for k in _ARGS_KEYS)
    )


def _next_object(r: Reader, semicolon: bool) -> Read[bool]:
    """Move to the next call object when one follows after ``;`` (``semicolon``: Llama 3's
    separator, required) or right away or after ``;`` (Llama 4's back-to-back objects);
    whitespace around either is skipped. Nothing is consumed otherwise."""
    i = yield from space_ahead(r)
    if i < 0:
        return False
    if r.buf[r.pos + i] == ";":
        i = yield from space_ahead(r, i + 1)
        if i < 0:
            return False
    elif semicolon:
        return False
    for start in STARTS:
        if (yield from text_ahead(r, i, start)):
            r.pos += i
            return True
    return False


def read_leading(r: Reader) -> Read[None]:
    """A call object that opens the reply, and the ``;`` before a next one (its own block)."""
    yield from json_call_object(r, id_keys=_ID_KEYS)
    yield from _next_object(r, semicolon=True)


def read_tagged(r: Reader) -> Read[None]:
    """After ``<|python_tag|>``: call objects separated by ``;``."""
    while True:
        yield from json_call_object(r, id_keys=_ID_KEYS)
        if not (yield from _next_object(r, semicolon=True)):
            return


def read_after_python_end(r: Reader) -> Read[None]:
    """After Llama 4's ``<|python_end|>``: the call objects, back to back as its template
    writes them (``;`` between them is read too). With no object after it, the token is
    just removed."""
    if not (yield from _next_object(r, semicolon=False)):
        return
    while True:
        yield from json_call_object(r, id_keys=_ID_KEYS)
        if not (yield from _next_object(r, semicolon=False)):
            return


_BACK_TO_BACK = fast_json_chain(
    "",
    STARTS,
    id_keys=_ID_KEYS,
    before=(PYTHON_TAG, PYTHON_START, PYTHON_END, _EOT, _EOM, *_LLAMA4_ENDS),
)


def fast_after_python_end(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_after_python_end` for the form Llama 4's template
    writes: call objects back to back (whitespace between them allowed). Anything else (no
    object, a ``;`` between objects) is left to the reader."""
    start = pos
    while start < len(text) and text[start] in " \t\r\n":
        start += 1
    if not text.startswith(STARTS, start):
        return -1
    before = len(calls)
    end = _BACK_TO_BACK(text, start, tools, calls)
    if end < 0:
        return -1
    after = end
    while after < len(text) and text[after] in " \t\r\n":
        after += 1
    if text.startswith(";", after):
        del calls[before:]
        return -1
    return end


def _object(call: ToolCall) -> str:
    return f'{{"name": {to_json(call.name)}, "parameters": {to_json(call.arguments)}}}'


class LlamaJsonDialect(ScannerDialect):
    """Llama 3.x JSON calls: ``{"name", "parameters"}`` objects joined by ``; ``."""

    info = DialectInfo(
        name="llama3_json",
        aliases=("llama3", "llama"),
        priority=20,
        markers=(PYTHON_TAG, *STARTS, PYTHON_END),
        description='Llama 3.x JSON: [<|python_tag|>]{"name": ..., "parameters": {...}}, "; "'
        " between calls",
        source="vllm-project/vllm examples/tool_chat_template_llama3.1_json.jinja;"
        " vllm/tool_parsers/llama_tool_parser.py; sglang function_call/llama32_detector.py",
    )
    grammar = Grammar(
        blocks=(
            *(
                Block(
                    s,
                    read_leading,
                    keep_open=True,
                    at_start=True,
                    fast=fast_json_chain(";", STARTS, repeat=False, **_CHAIN),
                )
                for s in STARTS
            ),
            Block(PYTHON_TAG, read_tagged, fast=fast_json_chain(";", STARTS, **_CHAIN)),
            erase(PYTHON_START),
            Block(PYTHON_END, read_after_python_end, fast=fast_after_python_end),
            erase(_EOT),
            erase(_EOM),
            *(erase(t) for t in _LLAMA4_ENDS),
        )
    )
    content_separator = "\n" + PYTHON_TAG
    """A line break and ``<|python_tag|>`` between content and the calls (the calls alone
    are written bare, as the template writes them)."""
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (Llama31Chat(), Llama32Chat())
    """Conversation formats: Llama 3.1/3.3 (the default) and Llama 3.2 (:mod:`.chat`)."""

    def detect(self, text: str) -> bool:
        """The reply starts with a call object (see :func:`starts_with_call`), or
        ``<|python_tag|>`` or Llama 4's ``<|python_end|>`` is followed by ``{``."""
        reply = text.lstrip(" \t\r\n")
        if reply.startswith(STARTS) and starts_with_call(reply):
            return True
        return _DETECT_TAG.search(text) is not None

    def check_content(self, content: str) -> None:
        """Refuse content holding a marker, or starting like a call object."""
        super().check_content(content)
        if content.lstrip(" \t\r\n").startswith(STARTS):
            raise self.error("content starts like a call object")

    @plain_render
    def render(self, calls: Any, content: str = "") -> str:
        """The template's objects joined by ``"; "``; after content, behind ``<|python_tag|>``
        (:attr:`content_separator`). Writes what :meth:`tooletta.ScannerDialect.render`
        writes (the content checked, then, with calls, the separator when there is content
        and :meth:`render_calls`; no call is written as an empty text), hence marked
        :func:`~tooletta.plugin.plain_render`: an answer without calls skips it."""
        self.check_content(content)
        if not calls:
            return content
        body = self.render_calls(list(calls))
        return content + self.content_separator + body if content and body else content + body

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Each call as ``{"name": ..., "parameters": ...}``, joined by ``"; "``."""
        return "; ".join([_object(c) for c in calls])


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the llama3_json dialect and its llama4_json variant."""
    from .llama4 import Llama4JsonDialect

    for declared in (LlamaJsonDialect(), Llama4JsonDialect(), *MODELS):
        register(declared)
