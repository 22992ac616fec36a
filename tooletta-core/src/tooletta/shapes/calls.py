"""One tool call in each ecosystem's shape, both ways.

Every ``to_*`` function takes a :class:`~tooletta.ToolCall` and returns the plain dict the
target API or library uses; every ``from_*`` function reads that shape back (mappings and SDK
objects alike) and returns a :class:`~tooletta.ToolCall`. Reading never rewrites ids. Formats
that require an id (Anthropic ``tool_use``, Responses ``function_call``) get a deterministic
one derived from the call when it has none; conversation writers apply a proper
:class:`~tooletta.interop.IdMapper` first.

Shapes (ECOSYSTEM.md §1-§6):

- OpenAI Chat: ``{"id", "type": "function", "function": {"name", "arguments": "<JSON>"}}``
- legacy ``function_call``: ``{"name", "arguments": "<JSON>"}`` (no id)
- Hugging Face / TRL: ``{"type": "function", "function": {"name", "arguments": {...}}}``
- Anthropic: ``{"type": "tool_use", "id", "name", "input": {...}}``
- OpenAI Responses: ``{"type": "function_call", "id": "fc_…", "call_id", "name",
  "arguments": "<JSON>", "status"}``
- tinker-cookbook: ``{"function": {"name", "arguments": "<JSON>"}, "id", "type": "function"}``
"""

from __future__ import annotations

from typing import Any

from ..ir import ToolCall, coerce_arguments
from ._util import as_dict, dumps_arguments, stable_token

__all__ = [
    "from_anthropic_tool_use",
    "from_hf_tool_call",
    "from_openai_function_call",
    "from_openai_tool_call",
    "from_responses_function_call",
    "from_tinker_tool_call",
    "read_tool_call",
    "to_anthropic_tool_use",
    "to_hf_tool_call",
    "to_openai_function_call",
    "to_openai_tool_call",
    "to_responses_function_call",
    "to_tinker_tool_call",
]


def _seed(call: ToolCall) -> str:
    return f"{call.name}:{dumps_arguments(call.arguments)}"


def _name(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{where} has no name")
    return value


def _opt_id(value: Any) -> str | None:
    """A call's id: a string or ``None``; another type is refused (``ValueError``), never
    dropped nor turned into text."""
    if value is None or isinstance(value, str):
        return value
    raise ValueError(f"a tool call id must be a string, not {type(value).__name__}")


# -- OpenAI Chat Completions ----------------------------------------------------------------


def to_openai_tool_call(call: ToolCall) -> dict[str, Any]:
    """The Chat Completions ``tool_calls`` item: arguments as a JSON string, ``id`` when set."""
    return call.to_openai()


def from_openai_tool_call(obj: Any) -> ToolCall:
    """Read a Chat Completions ``tool_calls`` item (string or dict arguments).

    Custom tool calls (``type: "custom"``, free-form ``input``) have no JSON arguments and are
    refused with ``ValueError``, as are items without a name or with non-object arguments.
    """
    item = as_dict(obj, "tool call")
    if item.get("type") == "custom" or "custom" in item:
        raise ValueError("custom tool calls (free-form input) have no JSON arguments")
    return _read_function(item)


def _read_function(item: dict[str, Any]) -> ToolCall:
    fn = item.get("function")
    body = as_dict(fn, "function") if fn is not None else item
    name = _name(body.get("name"), "tool call")
    raw = body["arguments"] if "arguments" in body else body.get("parameters")
    return ToolCall(name=name, arguments=coerce_arguments(raw), id=_opt_id(item.get("id")))


def to_openai_function_call(call: ToolCall) -> dict[str, Any]:
    """The legacy ``function_call`` object ``{"name", "arguments"}`` (deprecated; no id)."""
    return {"name": call.name, "arguments": dumps_arguments(call.arguments)}


def from_openai_function_call(obj: Any) -> ToolCall:
    """Read a legacy ``function_call`` object into a call with ``id=None``."""
    body = as_dict(obj, "function_call")
    name = _name(body.get("name"), "function_call")
    return ToolCall(name=name, arguments=coerce_arguments(body.get("arguments")))


# -- Hugging Face transformers / TRL --------------------------------------------------------


def to_hf_tool_call(call: ToolCall) -> dict[str, Any]:
    """The transformers chat-template item: arguments as a **dict**, ``id`` when set."""
    out: dict[str, Any] = {
        "type": "function",
        "function": {"name": call.name, "arguments": dict(call.arguments)},
    }
    if call.id is not None:
        out["id"] = call.id
    return out


def from_hf_tool_call(obj: Any) -> ToolCall:
    """Read a transformers/TRL item (dict or string arguments; Llama's ``parameters`` too)."""
    return _read_function(as_dict(obj, "tool call"))


# -- Anthropic ------------------------------------------------------------------------------


def to_anthropic_tool_use(call: ToolCall) -> dict[str, Any]:
    """An Anthropic ``tool_use`` content block (``input`` is an object).

    A call without an id gets ``toolu_`` + 24 alphanumerics derived from its name and
    arguments; use an :class:`~tooletta.interop.IdMapper` for ids unique in a conversation.
    """
    call_id = call.id if call.id is not None else "toolu_" + stable_token(_seed(call), 24)
    return {"type": "tool_use", "id": call_id, "name": call.name, "input": dict(call.arguments)}


def from_anthropic_tool_use(obj: Any) -> ToolCall:
    """Read an Anthropic ``tool_use`` block (``caller`` and other extras are ignored)."""
    block = as_dict(obj, "tool_use block")
    name = _name(block.get("name"), "tool_use block")
    return ToolCall(
        name=name, arguments=coerce_arguments(block.get("input")), id=_opt_id(block.get("id"))
    )


# -- OpenAI Responses -----------------------------------------------------------------------


def to_responses_function_call(
    call: ToolCall, *, item_id: str | None = None, status: str = "completed"
) -> dict[str, Any]:
    """A Responses ``function_call`` output item.

    ``call_id`` is the call's id (results refer to it); ``id`` names the item: ``item_id``, or
    ``fc_`` + 24 alphanumerics derived from the call id. A call without an id gets a derived
    ``call_`` id.
    """
    call_id = call.id if call.id is not None else "call_" + stable_token(_seed(call), 24)
    return {
        "type": "function_call",
        "id": item_id if item_id is not None else "fc_" + stable_token(call_id, 24),
        "call_id": call_id,
        "name": call.name,
        "arguments": dumps_arguments(call.arguments),
        "status": status,
    }


def from_responses_function_call(obj: Any) -> ToolCall:
    """Read a Responses ``function_call`` item; the call's id is its ``call_id``."""
    item = as_dict(obj, "function_call item")
    name = _name(item.get("name"), "function_call item")
    return ToolCall(
        name=name,
        arguments=coerce_arguments(item.get("arguments")),
        id=_opt_id(item.get("call_id")),
    )


# -- tinker-cookbook ------------------------------------------------------------------------


def to_tinker_tool_call(call: ToolCall) -> dict[str, Any]:
    """tinker-cookbook's ``ToolCall`` as a plain dict (``model_validate`` accepts it).

    Exactly the model's fields: ``function`` (``name``, ``arguments`` as a JSON string),
    ``id`` (``None`` allowed) and ``type: "function"``.
    """
    return {
        "function": {"name": call.name, "arguments": dumps_arguments(call.arguments)},
        "id": call.id,
        "type": "function",
    }


def from_tinker_tool_call(obj: Any) -> ToolCall:
    """Read a tinker-cookbook ``ToolCall`` (the pydantic model or its dict)."""
    return _read_function(as_dict(obj, "tool call"))


# -- any shape ------------------------------------------------------------------------------


def read_tool_call(obj: Any) -> ToolCall:
    """Read a call in any of the shapes above, told apart by their keys (the plain Chat
    Completions item first, in one step: ``_plain_call``)."""
    plain = _plain_call(obj)
    if plain is not None:
        return plain
    item = as_dict(obj, "tool call")
    kind = item.get("type")
    if kind == "tool_use":
        return from_anthropic_tool_use(item)
    if kind == "function_call":
        return from_responses_function_call(item)
    return from_openai_tool_call(item)


_CALL_KEYS = frozenset({"id", "type", "function"})
_FUNCTION_KEYS = frozenset({"name", "arguments"})


def _plain_call(item: Any) -> ToolCall | None:
    """A Chat Completions ``tool_calls`` item ``{"id", "type": "function", "function": {"name",
    "arguments"}}`` (``id`` and ``type`` optional; arguments a JSON string or a dict) read as
    :func:`from_openai_tool_call` reads it, without its shape tests; ``None`` for any other
    item (read by the shape's reader). Raises ``ValueError`` as it does for arguments that
    are not a JSON object."""
    if type(item) is not dict or not item.keys() <= _CALL_KEYS:
        return None
    function = item.get("function")
    kind = item.get("type")
    if (kind is not None and kind != "function") or type(function) is not dict:
        return None
    if not function.keys() <= _FUNCTION_KEYS:
        return None
    name = function.get("name")
    call_id = item.get("id")
    if type(name) is not str or not name or (call_id is not None and type(call_id) is not str):
        return None
    return ToolCall(name=name, arguments=coerce_arguments(function.get("arguments")), id=call_id)
