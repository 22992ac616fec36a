"""LongCat-Flash tool calls: one ``<longcat_tool_call>`` block per call.

Two payloads are in use inside the same tags, and both are read:

* JSON (LongCat-Flash-Chat / -Thinking; the format vLLM's ``longcat`` parser reads, a
  Hermes parser with LongCat's tag names)::

      <longcat_tool_call>
      {"name": "get_weather", "arguments": {"city": "Paris"}}
      </longcat_tool_call>

* key/value pairs, GLM-style (later LongCat releases and the LongCat API)::

      <longcat_tool_call>get_weather
      <longcat_arg_key>city</longcat_arg_key>
      <longcat_arg_value>Paris</longcat_arg_value>
      </longcat_tool_call>

  Values are untyped text: typed by the request's tool schemas (see
  :func:`tooletta.toolkit.coerce_value`); a string parameter streams as it arrives.

Reasoning is ``<longcat_think>`` ... ``</longcat_think>``; the end-of-turn ``</longcat_s>`` is
removed. No ids. Rendering writes the JSON form with the newline layout of the LongCat model
card (calls joined by one newline, a newline between content and the first call),
arguments through ``tojson``. The ``longcat_flash_chat`` variant (:mod:`.flash_chat`) writes
LongCat-Flash-Chat's template form (no line breaks around the blocks) and declares its
conversation format (:mod:`.chat`).
"""

from __future__ import annotations

from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    ArgsWriter,
    Block,
    Grammar,
    Read,
    Reader,
    erase,
    fast_json_call,
    fast_repeat,
    json_call_object,
    reasoning_region,
    typed_value,
)
from tooletta_dialect_longcat.models import MODELS

__all__ = ["LongCatDialect", "call_block", "register_dialects"]

OPEN = "<longcat_tool_call>"
CLOSE = "</longcat_tool_call>"
KEY = "<longcat_arg_key>"
KEY_END = "</longcat_arg_key>"
VALUE = "<longcat_arg_value>"
VALUE_END = "</longcat_arg_value>"


def read_call(r: Reader) -> Read[None]:
    """One ``<longcat_tool_call>`` block, JSON or key/value, then the closing tag (or the end)."""
    yield from r.ws()
    first = yield from r.peek()
    if first == "{":
        yield from json_call_object(r, close=CLOSE)
        yield from r.close_or_end(CLOSE)
        return
    raw, marker = yield from r.until((KEY, CLOSE), eof=True)
    name = raw.strip()
    if not name or any(c.isspace() or c in "<>{" for c in name):
        raise r.fail("expected a function name or a JSON object")
    r.start_call(name)
    w = ArgsWriter(r, name)
    while marker == KEY:
        key, _ = yield from r.until((KEY_END,))
        yield from r.ws()
        yield from r.expect(VALUE)
        yield from typed_value(r, w, key.strip(), (VALUE_END,))
        yield from r.ws()
        marker = yield from r.accept(KEY, CLOSE)
        if not marker and not (yield from r.at_end()):
            raise r.fail(f"expected {KEY!r} or {CLOSE!r}")
    w.close()


def call_block(call: ToolCall) -> str:
    """One call in the JSON form: the tags, a line break on each side of the object."""
    return (
        f'{OPEN}\n{{"name": {to_json(call.name)}, "arguments": {to_json(call.arguments)}}}\n{CLOSE}'
    )


class LongCatDialect(ScannerDialect):
    """``<longcat_tool_call>{"name": ..., "arguments": {...}}</longcat_tool_call>`` per call."""

    info = DialectInfo(
        name="longcat",
        aliases=("longcat_flash",),
        priority=90,
        markers=(OPEN,),
        description="LongCat: <longcat_tool_call>{json} or NAME + arg_key/arg_value pairs",
        source=(
            "vllm-project/vllm vllm/tool_parsers/longcat_tool_parser.py; LongCat-Flash model "
            "cards (meituan-longcat on Hugging Face)"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(OPEN, read_call, close=CLOSE, fast=fast_repeat(fast_json_call(CLOSE), OPEN)),
            reasoning_region("<longcat_think>", "</longcat_think>"),
            erase("</longcat_s>"),
        )
    )
    content_separator = "\n"

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Each call in the JSON form, joined by newlines."""
        return "\n".join(call_block(c) for c in calls)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the longcat dialect and its longcat_flash_chat variant."""
    from .flash_chat import LongCatFlashChatDialect

    for declared in (LongCatDialect(), LongCatFlashChatDialect(), *MODELS):
        register(declared)
