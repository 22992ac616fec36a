"""Tool definitions in each ecosystem's shape.

- OpenAI Chat / Hugging Face: ``{"type": "function", "function": {"name", "description",
  "parameters", "strict"}}``
- OpenAI Responses: flat ``{"type": "function", "name", "description", "parameters",
  "strict"}``
- Anthropic: ``{"name", "description", "input_schema"}``
- tinker-cookbook ``ToolSpec``: flat ``{"name", "description", "parameters"}``
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from ._util import as_dict

__all__ = [
    "ToolSpec",
    "read_tools",
    "to_anthropic_tools",
    "to_openai_tools",
    "to_responses_tools",
    "to_tinker_tools",
]

_EMPTY_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}


class ToolSpec(msgspec.Struct, frozen=True, omit_defaults=True):
    """One function tool: ``name``, ``description``, ``parameters`` (a JSON Schema object;
    empty means none) and OpenAI's ``strict`` flag when given."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = {}
    strict: bool | None = None


def _read_tool(obj: Any) -> ToolSpec:
    if isinstance(obj, ToolSpec):
        return obj
    data = as_dict(obj, "tool definition")
    body = as_dict(data["function"], "function") if "function" in data else data
    name = body.get("name")
    if not isinstance(name, str) or not name:
        raise ValueError("a tool definition needs a name")
    schema = body.get("parameters", body.get("input_schema")) or {}
    description = body.get("description") or ""
    strict = body.get("strict")
    return ToolSpec(
        name=name,
        description=description if isinstance(description, str) else "",
        parameters=as_dict(schema, "JSON schema"),
        strict=strict if isinstance(strict, bool) else None,
    )


def read_tools(tools: Iterable[Any] | None) -> list[ToolSpec]:
    """Read tool definitions in any of the shapes above (``None`` gives ``[]``)."""
    return [_read_tool(t) for t in tools or []]


def _fields(spec: ToolSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"name": spec.name}
    if spec.description:
        out["description"] = spec.description
    if spec.parameters:
        out["parameters"] = spec.parameters
    return out


def to_openai_tools(tools: Iterable[Any] | None) -> list[dict[str, Any]]:
    """Chat Completions (and transformers) tool definitions."""
    out = []
    for spec in read_tools(tools):
        fn = _fields(spec)
        if spec.strict is not None:
            fn["strict"] = spec.strict
        out.append({"type": "function", "function": fn})
    return out


def to_responses_tools(tools: Iterable[Any] | None) -> list[dict[str, Any]]:
    """Responses API tool definitions (flat, no ``function`` wrapper)."""
    out = []
    for spec in read_tools(tools):
        item = {"type": "function", **_fields(spec)}
        if spec.strict is not None:
            item["strict"] = spec.strict
        out.append(item)
    return out


def to_anthropic_tools(tools: Iterable[Any] | None) -> list[dict[str, Any]]:
    """Anthropic tool definitions (``input_schema`` is required: an empty object schema when
    the tool takes no parameters)."""
    out = []
    for spec in read_tools(tools):
        item: dict[str, Any] = {"name": spec.name}
        if spec.description:
            item["description"] = spec.description
        item["input_schema"] = spec.parameters or dict(_EMPTY_SCHEMA)
        out.append(item)
    return out


def to_tinker_tools(tools: Iterable[Any] | None) -> list[dict[str, Any]]:
    """tinker-cookbook ``ToolSpec`` dicts (all three keys)."""
    return [
        {
            "name": s.name,
            "description": s.description,
            "parameters": s.parameters or dict(_EMPTY_SCHEMA),
        }
        for s in read_tools(tools)
    ]
