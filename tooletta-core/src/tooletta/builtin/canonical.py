"""The canonical dialect: tooletta's own JSON form of a model turn.

Without content it is a JSON array of calls, each ``{"name", "arguments"[, "id"]}``::

    [{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "call_1"}]

With content it is an object ``{"content": "...", "tool_calls": [...]}``. The JSON must make
up the whole text (leading whitespace aside). Aliases: ``json``, ``tooletta``.
"""

from __future__ import annotations

import re
from typing import Any

from ..engine import (
    Read,
    Reader,
    fast_json_array,
    json_call_array,
    json_key,
    json_next,
    json_string,
    json_value,
    read_fast,
)
from ..hookspecs import hookimpl
from ..ir import DialectInfo, ToolCall
from ..jsonout import to_json
from ..toolkit.jsondoc import JsonDocumentDialect, document_grammar

__all__ = ["CanonicalDialect", "register_dialects"]

_CALL_KEYS: dict[str, Any] = {
    "name_keys": ("name",),
    "args_keys": ("arguments",),
    "id_keys": ("id",),
}
_FAST_ARRAY = fast_json_array(**_CALL_KEYS)


def _read_array(r: Reader) -> Read[None]:
    yield from json_call_array(r, **_CALL_KEYS)


def _read_envelope(r: Reader) -> Read[None]:
    yield from r.expect("{")
    first = True
    while not (yield from json_next(r, "}", first)):
        first = False
        key = yield from json_key(r)
        if key == "content":
            nxt = yield from r.peek()
            if nxt == "n":
                yield from json_value(r)  # null
            else:
                r.content((yield from json_string(r)))
        elif key == "tool_calls":
            if not read_fast(r, _FAST_ARRAY):
                yield from json_call_array(r, **_CALL_KEYS)
        else:
            yield from json_value(r)


class CanonicalDialect(JsonDocumentDialect):
    """tooletta's own JSON: an array of calls, or ``{"content", "tool_calls"}``."""

    response_template_gap = (
        "the whole reply is one JSON document holding both the content and the calls; a "
        "region's value goes to one message field"
    )
    """Why :func:`tooletta.interop.hf.to_response_template` has no template for it."""
    info = DialectInfo(
        name="canonical",
        aliases=("json", "tooletta"),
        priority=-100,
        markers=('"name"', '"tool_calls"', '"content"'),
        description="tooletta's canonical JSON: [{name, arguments, id}] or {content, tool_calls}",
        source="tooletta (this project)",
    )
    grammar = document_grammar(_read_array, _read_envelope, _FAST_ARRAY)
    start = re.compile(r'\s*(\[\s*(\{\s*"name"|\])|\{\s*"(content|tool_calls)")')

    def render(self, calls: Any, content: str = "") -> str:
        """The JSON array of calls, or the ``{"content", "tool_calls"}`` object with content."""
        items = [_call_dict(c) for c in calls]
        if content:
            return to_json({"content": content, "tool_calls": items})
        return to_json(items)


def _call_dict(call: ToolCall) -> dict[str, Any]:
    out: dict[str, Any] = {"name": call.name, "arguments": call.arguments}
    if call.id is not None:
        out["id"] = call.id
    return out


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the canonical dialect."""
    register(CanonicalDialect())
