"""Small helpers of the shape modules and interop: object access, JSON text, stable tokens."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..toolkit.ids import stable_token

__all__ = ["as_dict", "dumps_arguments", "stable_token", "without_none"]


def as_dict(obj: Any, what: str = "object") -> dict[str, Any]:
    """A plain ``dict`` view of a mapping or an SDK object (pydantic ``model_dump``).

    Raises ``ValueError`` for anything else, naming ``what`` was expected.
    """
    if isinstance(obj, dict):
        return obj
    if isinstance(obj, Mapping):
        return dict(obj)
    dump = getattr(obj, "model_dump", None)
    if callable(dump):
        value = dump()
        if isinstance(value, dict):
            return value
    raise ValueError(f"expected a {what} (a mapping), not {type(obj).__name__}")


def dumps_arguments(arguments: Mapping[str, Any]) -> str:
    """Arguments as OpenAI-style JSON text (non-ASCII kept), as ``ToolCall.to_openai`` writes."""
    return json.dumps(arguments, ensure_ascii=False)


def without_none(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` without the keys whose value is ``None``.

    An SDK object's ``model_dump()`` writes ``None`` for every field the API did not send;
    readers treat such keys as absent, so an object and its dump read the same as the wire.
    """
    if all(v is not None for v in data.values()):
        return data
    return {k: v for k, v in data.items() if v is not None}
