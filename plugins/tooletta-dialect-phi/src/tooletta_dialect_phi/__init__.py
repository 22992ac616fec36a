"""``functools[...]`` tool calls: Phi-4-mini and FireFunction v2.

The marker is the plain text ``functools`` immediately followed by a JSON list of
``{"name": ..., "arguments": {...}}`` objects; there is no closing marker. Pinned from:

* the FireFunction v2 chat template (llama.cpp
  ``models/templates/fireworks-ai-llama-3-firefunction-v2.jinja``), whose assistant turn is
  ``content|trim + ' functools[' + calls|join(', ') + ']' + '<|eot_id|>'`` with each call
  ``'{"name": "' + name + '", "arguments": ' + arguments + '}'``;
* Phi-4-mini's tool system prompt (vLLM ``examples/tool_chat_template_phi4_mini.jinja``):
  "prefix function calls with functools marker (no closing marker required)", formatted as
  ``functools[{"name": [function name], "arguments": [function arguments as JSON]}, ...]``.
  (That template cannot render tool calls itself.)

Text before the marker is content. ``functools[`` not followed by a call list (``{"`` or
``]``, see :data:`OPENINGS`), such as Python code indexing a dict, stays content.
``"parameters"`` is accepted for ``"arguments"``, as are arguments given as a JSON string.
``<|end|>`` (Phi) and ``<|eot_id|>`` (FireFunction) are removed. The format has no ids.

Rendering: ``functools[...]`` for calls alone (Phi-4-mini's form), and
``content + " functools[...]"`` with content (FireFunction v2's template).
"""

from __future__ import annotations

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
    json_call_object,
    json_next,
    space_ahead,
)
from tooletta_dialect_phi.models import MODELS

from .chat import FireFunctionV2Chat

__all__ = ["MARKER", "OPENINGS", "Phi4MiniDialect", "register_dialects"]

MARKER = "functools["
"""The marker, up to the list's ``[``."""
OPENINGS = (
    "functools[{",
    "functools[]",
    "functools[ {",
    "functools[\n{",
    "functools[\n  {",
    "functools[\n    {",
    "functools[\n\t{",
)
"""How a call list begins (up to its first object's ``{``): a block opens only there, so
``functools[key]`` in prose never does."""

_DETECT = re.compile(r'functools\[\s*(?:\]|\{\s*")')
_END = "<|end|>"
_EOT = "<|eot_id|>"
_FAST = fast_json_array(at=len(MARKER) - 1, before=(MARKER, _END, _EOT))


def call_list_ahead(r: Reader, offset: int) -> Read[bool]:
    """Whether the text at ``offset`` (just after ``[``) may continue a list of call objects.

    True for whitespace then ``]``, or ``{`` and ``"``, and when the text ends before that is
    known (a cut-off call is reported unparsed rather than shown as prose).
    """
    i = yield from space_ahead(r, offset)
    if i < 0:
        return True
    ch = r.buf[r.pos + i]
    if ch == "]":
        return True
    if ch != "{":
        return False
    j = yield from space_ahead(r, i + 1)
    return j < 0 or r.buf[r.pos + j] == '"'


def _reader(opening: str) -> Any:
    def read_functools(r: Reader) -> Read[None]:
        if not (yield from call_list_ahead(r, len(MARKER))):
            # not a call list: the opening is text (consumed whole, so it reads as it was)
            r.pos += len(opening)
            r.content(opening)
            return
        r.pos += len(MARKER)
        first = True
        while not (yield from json_next(r, "]", first)):
            first = False
            yield from json_call_object(r)

    read_functools.__doc__ = f"From {opening!r}: call objects up to ``]`` (or the text back)."
    return read_functools


class Phi4MiniDialect(ScannerDialect):
    """``functools[{"name": ..., "arguments": {...}}, ...]`` (Phi-4-mini, FireFunction v2)."""

    info = DialectInfo(
        name="phi4_mini",
        aliases=("phi4_mini_json", "functools", "firefunction_v2"),
        priority=90,
        markers=(MARKER,),
        description='Phi-4-mini / FireFunction v2: functools[{"name": ..., "arguments": {...}}]',
        source="ggml-org/llama.cpp models/templates/fireworks-ai-llama-3-firefunction-v2.jinja;"
        " vllm examples/tool_chat_template_phi4_mini.jinja,"
        " vllm/tool_parsers/phi4mini_tool_parser.py",
    )
    grammar = Grammar(
        blocks=(
            *(Block(o, _reader(o), keep_open=True, fast=_FAST) for o in OPENINGS),
            erase(_END),
            erase(_EOT),
        )
    )
    content_separator = " "
    chat_formats = (FireFunctionV2Chat(),)
    """The FireFunction v2 conversation format (:mod:`.chat`)."""

    def detect(self, text: str) -> bool:
        """``functools[`` followed by a list of objects (or an empty list)."""
        return _DETECT.search(text) is not None

    def render_calls(self, calls: list[ToolCall]) -> str:
        """``functools[`` + the call objects joined by ``", "`` + ``]``."""
        items = (
            f'{{"name": {to_json(c.name)}, "arguments": {to_json(c.arguments)}}}' for c in calls
        )
        return MARKER + ", ".join(items) + "]"


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the phi4_mini dialect."""
    for declared in (Phi4MiniDialect(), *MODELS):
        register(declared)
