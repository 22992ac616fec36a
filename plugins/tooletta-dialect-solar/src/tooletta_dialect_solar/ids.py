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
    found = _MADE.get(seed)
    if found is None:
        if len(_MADE) > 4096:
            _MADE.clear()
        digest = hashlib.sha256(seed.encode()).digest()[:10]
        found = _MADE[seed] = "".join([_ID_CHARS[b % 36] for b in digest])
    return found


_MADE: dict[str, str] = {}
"""Ids made, by their seed (a call is rendered again for its result's name, and datasets
repeat calls): the hash is the costly part."""
