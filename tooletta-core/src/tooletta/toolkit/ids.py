"""Id policies: deterministic ids for dialects whose ids have rules."""

from __future__ import annotations

import hashlib
import re

from ..limits import stable_token

__all__ = ["mistral_id", "sanitize_id", "stable_token"]

_ALNUM = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def mistral_id(call_id: str | None, seed: str) -> str:
    """A valid Mistral id (exactly 9 of ``[A-Za-z0-9]``).

    A valid id is kept; otherwise one is derived by a stable hash of ``call_id`` (or of
    ``seed`` when there is none), so a call and its result map to the same id.
    """
    if call_id is not None and len(call_id) == 9 and call_id.isascii() and call_id.isalnum():
        return call_id  # valid: the ASCII characters isalnum accepts are [A-Za-z0-9]
    source = call_id if call_id is not None else seed
    made = _MADE.get(source)
    if made is None:
        if len(_MADE) > 4096:
            _MADE.clear()
        digest = hashlib.sha256(source.encode()).digest()
        made = _MADE[source] = "".join([_ALNUM[b % 62] for b in digest[:9]])
    return made


_MADE: dict[str, str] = {}
"""Derived Mistral ids by their source text (a call's id is derived again for the result
that answers it, and datasets repeat ids): the hash is the costly part."""


def sanitize_id(call_id: str) -> str:
    """An id restricted to ``[A-Za-z0-9_-]`` (Anthropic's rule), stable for the same input."""
    if not _UNSAFE.search(call_id):
        return call_id
    digest = hashlib.sha256(call_id.encode()).hexdigest()[:8]
    return f"{_UNSAFE.sub('_', call_id)}_{digest}"
