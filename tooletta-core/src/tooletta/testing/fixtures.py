"""Golden fixtures, the tool definitions the kit parses with, and a dialect's markup.

Golden fixtures are a JSON list of cases ``{"name", "text", "calls", "content",
"reasoning"?, "tools"?, "unparsed"?, "detect"?}``; ``calls`` items are ``{"name", "arguments",
"id"?}``; ``"detect": false`` marks a text that auto-detection leaves to another dialect.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .. import api
from ..ir import ToolCall
from ..toolkit.schema import JSON_TYPE_NAMES

__all__ = ["dialect_markup", "load_cases", "schema_tools", "tools_for"]


def load_cases(path: str | Path) -> list[dict[str, Any]]:
    """Read a golden-fixture file."""
    cases = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(cases, list):
        raise ValueError(f"{path}: fixtures must be a JSON list")
    return cases


def tools_for(calls: Sequence[ToolCall]) -> list[dict[str, Any]]:
    """OpenAI tool definitions whose schemas type every argument of ``calls`` by its value."""
    tools: dict[str, dict[str, Any]] = {}
    for call in calls:
        props = tools.setdefault(call.name, {})
        for key, value in call.arguments.items():
            kind = JSON_TYPE_NAMES.get(type(value), "string")
            if key not in props:
                props[key] = {"type": kind}
            elif props[key].get("type") != kind:
                props[key] = {}  # conflicting types: no schema for this key
    return [
        {
            "type": "function",
            "function": {"name": n, "parameters": {"type": "object", "properties": p}},
        }
        for n, p in tools.items()
    ]


def schema_tools(properties: Mapping[str, Any] | None = None, name: str = "f") -> list[Any]:
    """One OpenAI tool definition ``name`` whose parameters have ``properties``.

    A property given as a string is a type name (``{"x": "integer"}``); a mapping is the
    property's schema as is. ``None`` gives parameters without ``properties``.
    """
    params: dict[str, Any] = {"type": "object"}
    if properties is not None:
        params["properties"] = {
            k: {"type": v} if isinstance(v, str) else dict(v) for k, v in properties.items()
        }
    return [{"type": "function", "function": {"name": name, "parameters": params}}]


def dialect_markup(dialect: str) -> list[str]:
    """Every literal the dialect's grammar and info treat as markup: declared markers and
    block delimiters, longest first (then in alphabetical order, so the order is the same in
    every run)."""
    obj = api.get_dialect(dialect)
    found = set(obj.info.markers)
    for block in getattr(getattr(obj, "grammar", None), "blocks", ()):
        found.add(block.open)
        if block.close:
            found.add(block.close)
    return sorted((m for m in found if m), key=lambda m: (-len(m), m))
