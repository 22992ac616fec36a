"""Solar Open call ids: kept, or made in the shape the template's instructions ask for."""

from __future__ import annotations

import hashlib

from tooletta import ToolCall, to_json

__all__ = ["call_id"]

_ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"


def call_id(call: ToolCall, position: int) -> str:
    """The call's id, or a stable one of the template's shape (10 of ``[a-z0-9]``)."""
    if call.id:
        return call.id
    seed = f"{position}:{call.name}:{to_json(call.arguments)}"
    return "".join(_ID_CHARS[b % 36] for b in hashlib.sha256(seed.encode()).digest()[:10])
