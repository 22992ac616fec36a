"""Salesforce xLAM tool calls: a bare JSON list ``[{"name": ..., "arguments": {...}}, ...]``.

Emitted by xLAM-2 ``-fc-r`` models. Pinned from the model template of
``Salesforce/xLAM-2-3b-fc-r`` (its conversation format is ``chat.XlamQwenChat``) and
vLLM's ``examples/tool_chat_template_xlam_llama.jinja``, whose assistant turns write the calls
as one list::

    [{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}]

(``'{"name": "' + name + '", "arguments": ' + arguments|tojson + '}'`` joined by ``", "``,
then ``<|eot_id|>``; the template drops the content). The places vLLM's ``xlam`` parser
looks are accepted too:

* the list opening the reply (after whitespace and an optional ``<think>`` region), when it
  starts like a call list (``[{"name"``); any other text, ``[]`` included, is content;
* a fenced list, ````` ```json ````` (or a bare ````` ``` `````) then ``[``, anywhere in the text;
* a list after ``[TOOL_CALLS]`` and a list or object inside ``<tool_call>`` ... ``</tool_call>``
  (detection leaves those texts to the ``mistral`` and ``hermes``/``granite`` dialects).

Detection also leaves lists of named data records (items without ``"arguments"``) to others
(:func:`is_call_list`).

``<think>`` ... ``</think>`` is reasoning; ``<|eot_id|>`` and ``<|im_end|>`` are removed. The
format has no ids (an ``"id"`` member is kept if present). Rendering writes the template's
list; with content it writes the content, then the list in a ````` ```json ````` fence, which is
how vLLM's parser separates content from calls.
"""

from __future__ import annotations

import json
import re
from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    Block,
    Grammar,
    Read,
    Reader,
    erase,
    fast_json_array,
    fast_json_payload,
    json_call_array,
    json_call_object,
    json_next,
    plain_render_without_calls,
    reasoning_region,
    space_ahead,
    text_ahead,
)
from tooletta.plugin import quote_json_string as json_string
from tooletta_dialect_xlam.models import MODELS

from .chat import XlamQwenChat

__all__ = ["FENCES", "XlamDialect", "is_call_list", "register_dialects"]

FENCES = ("```json\n[", "```json [", "```json[", "```\n[")
"""Fence openings (up to the list's ``[``) whose list is read as calls."""
FENCE_CLOSE = "```"
TOOL_CALLS = "[TOOL_CALLS]"

_ID_KEYS = ("id",)
_NAME_KEY = '"name"'
_CALL_LIST = re.compile(r'\[\s*\{\s*"name"')
_FENCED = re.compile(r'```(?:json)?\s*\[\s*\{\s*"name"')
_THINK = re.compile(r"\s*<think>.*?</think>", re.DOTALL)
_DECODER = json.JSONDecoder()
_FENCES_CHECKED = 8
_EOT = "<|eot_id|>"
_IM_END = "<|im_end|>"
_AFTER = (TOOL_CALLS, "<tool_call>", *FENCES, "<think>", _EOT, _IM_END)
"""The markers that may follow a list without a closing marker (where to look for its end)."""


def is_call_list(text: str, at: int = 0) -> bool:
    """Whether the JSON list at ``text[at]`` holds calls, not data items that have a name.

    Every item of a complete list must be an object with a string ``"name"`` and an
    ``"arguments"`` (or ``"parameters"``) member; a list that does not decode (cut off,
    malformed) counts as calls, so the parser can report it.
    """
    try:
        items, _ = _DECODER.raw_decode(text, at)
    except (ValueError, RecursionError):
        return True
    return isinstance(items, list) and all(
        isinstance(item, dict)
        and isinstance(item.get("name"), str)
        and ("arguments" in item or "parameters" in item)
        for item in items
    )


def call_list_ahead(r: Reader, offset: int) -> Read[bool]:
    """Whether the text at ``offset`` (just after a ``[``) continues a call list.

    That is: whitespace, ``{`` and (after whitespace) the key ``"name"``. An empty list is
    not taken for calls: it stays content.
    """
    i = yield from space_ahead(r, offset)
    if i < 0 or r.buf[r.pos + i] != "{":
        return False
    j = yield from space_ahead(r, i + 1)
    return j >= 0 and (yield from text_ahead(r, j, _NAME_KEY))


def read_items(r: Reader) -> Read[None]:
    """Call objects separated by commas, up to the list's ``]`` (read after its ``[``)."""
    first = True
    while not (yield from json_next(r, "]", first)):
        first = False
        yield from json_call_object(r, id_keys=_ID_KEYS)


def read_bare(r: Reader) -> Read[None]:
    """A ``[`` opening the reply: a call list, or (when it does not start like one) content.

    A reply opening with ``[TOOL_CALLS]`` is read as that marker's list.
    """
    if (yield from text_ahead(r, 0, TOOL_CALLS)):
        r.pos += len(TOOL_CALLS)
        yield from read_after_token(r)
        return
    if (yield from call_list_ahead(r, 1)):
        yield from json_call_array(r, id_keys=_ID_KEYS)
        return
    r.pos += 1
    r.content("[")


def _fence_reader(opening: str) -> Any:
    def read_fence(r: Reader) -> Read[None]:
        if not (yield from call_list_ahead(r, 0)):
            r.content(opening)
            return
        yield from read_items(r)
        yield from r.close_or_end(FENCE_CLOSE)

    read_fence.__doc__ = f"A call list fenced by {opening!r} ... ``` (or content when not calls)."
    return read_fence


def read_after_token(r: Reader) -> Read[None]:
    """A call list after ``[TOOL_CALLS]``."""
    yield from json_call_array(r, id_keys=_ID_KEYS)


def read_tool_call(r: Reader) -> Read[None]:
    """A call list (or one call object) inside ``<tool_call>`` ... ``</tool_call>``."""
    yield from r.ws()
    first = yield from r.peek()
    if first == "[":
        yield from json_call_array(r, id_keys=_ID_KEYS)
    else:
        yield from json_call_object(r, id_keys=_ID_KEYS)
    yield from r.close_or_end("</tool_call>")


def _list(calls: list[ToolCall]) -> str:
    items = [
        '{"name": ' + json_string(c.name) + ', "arguments": ' + to_json(c.arguments) + "}"
        for c in calls
    ]
    return "[" + ", ".join(items) + "]"


class XlamDialect(ScannerDialect):
    """xLAM: a JSON list of ``{"name", "arguments"}`` objects (bare, or fenced after content)."""

    info = DialectInfo(
        name="xlam",
        priority=5,
        markers=(_NAME_KEY,),
        description='xLAM: a bare JSON list [{"name": ..., "arguments": {...}}] (or ```json'
        " fenced), <think> reasoning",
        source="Salesforce/xLAM-2-3b-fc-r tokenizer_config.json chat_template;"
        " vllm-project/vllm examples/tool_chat_template_xlam_llama.jinja;"
        " vllm/tool_parsers/xlam_tool_parser.py",
    )
    chat_formats = (XlamQwenChat(),)
    grammar = Grammar(
        blocks=(
            Block(
                "[",
                read_bare,
                keep_open=True,
                at_start=True,
                fast=fast_json_array(id_keys=_ID_KEYS, first_key=_NAME_KEY, before=_AFTER),
            ),
            *(
                Block(
                    f,
                    _fence_reader(f),
                    close=FENCE_CLOSE,
                    fast=fast_json_array(FENCE_CLOSE, id_keys=_ID_KEYS, at=-1, first_key=_NAME_KEY),
                )
                for f in FENCES
            ),
            Block(
                TOOL_CALLS, read_after_token, fast=fast_json_array(id_keys=_ID_KEYS, before=_AFTER)
            ),
            Block(
                "<tool_call>",
                read_tool_call,
                close="</tool_call>",
                fast=fast_json_payload("</tool_call>", id_keys=_ID_KEYS),
            ),
            reasoning_region("<think>", "</think>"),
            erase(_EOT),
            erase(_IM_END),
        )
    )

    def detect(self, text: str) -> bool:
        """The reply (after an optional ``<think>`` region) is a call list, or one of the first
        fenced lists is (see :func:`is_call_list`: a list of named data items is not)."""
        m = _THINK.match(text)
        rest = (text[m.end() :] if m else text).lstrip(" \t\r\n")
        if _CALL_LIST.match(rest) and is_call_list(rest):
            return True
        for n, fence in enumerate(_FENCED.finditer(text)):
            if n == _FENCES_CHECKED:
                break
            if is_call_list(text, text.index("[", fence.start())):
                return True
        return False

    def check_content(self, content: str) -> None:
        """Refuse content holding a marker, or starting like a call list (which holds a
        ``[``)."""
        super().check_content(content)
        if "[" in content and _CALL_LIST.match(content.lstrip(" \t\r\n")):
            raise self.error("content starts like a call list")

    @plain_render_without_calls  # no calls: check_content, then the content
    def render(self, calls: Any, content: str = "") -> str:
        """The template's bare list; after content, the list in a ```json fence."""
        self.check_content(content)
        if not calls:
            return content
        body = self.render_calls(calls if type(calls) is list else list(calls))
        return content + "\n```json\n" + body + "\n```" if content else body

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The calls as one JSON list, as the xLAM template writes it."""
        return _list(calls)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the xlam dialect."""
    for declared in (XlamDialect(), *MODELS):
        register(declared)
