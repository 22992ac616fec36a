"""Limits every layer enforces, in the lowest floor: the IR and the engine both read them here.

This module imports nothing from tooletta, so :mod:`tooletta.ir` can use it without importing
the engine (which imports the IR).
"""

from __future__ import annotations

from typing import Any

__all__ = ["MAX_DEPTH", "derived_call_id", "stable_token", "too_deep"]

MAX_DEPTH = 512
"""Deepest nesting accepted in JSON arguments; deeper input is a parse error, never a crash."""

_SHORT = 2 * MAX_DEPTH
"""No JSON text this long or shorter nests deeper than MAX_DEPTH (that takes more openers and
as many closers)."""


def too_deep(text: str | bytes, value: Any) -> bool:
    """True when ``value``, decoded from the JSON ``text``, nests lists and dicts deeper than
    :data:`~tooletta.engine.MAX_DEPTH`.

    Free for almost every value: only a text longer than ``2 * MAX_DEPTH`` that holds more
    than ``MAX_DEPTH`` opening brackets can nest that deep, and only then is the value walked
    (iteratively, in time linear in its size).
    """
    if len(text) <= _SHORT:
        return False
    if isinstance(text, str):
        opens = text.count("[") + text.count("{")
    else:
        opens = text.count(b"[") + text.count(b"{")
    if opens <= MAX_DEPTH:
        return False
    level = [value]  # the containers at one depth, from the top down
    for _ in range(MAX_DEPTH):  # each turn finds the containers one level deeper
        deeper = []
        for item in level:
            if type(item) is dict:
                item = item.values()
            elif type(item) is not list:
                continue
            for child in item:
                if type(child) is dict or type(child) is list:
                    deeper.append(child)
        if not deeper:
            return False
        level = deeper
    return True


_ALNUM = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def stable_token(seed: str, length: int) -> str:
    """``length`` characters of ``[0-9A-Za-z]`` derived from ``seed`` by SHA-256 (stable).

    The generated part of every derived id (``call_…``, ``toolu_…``, ``fc_…``): the same
    seed always gives the same token, so converting the same data twice gives the same ids.
    """
    import hashlib  # here, not at import: loading OpenSSL slows every start

    out: list[str] = []
    counter = 0
    while len(out) < length:
        digest = hashlib.sha256(f"{counter}:{seed}".encode()).digest()
        out.extend(_ALNUM[b % 62] for b in digest)
        counter += 1
    return "".join(out[:length])


def derived_call_id(
    name: str, arguments_json: str, position: int = 0, prefix: str = "call_"
) -> str:
    """The id tooletta gives a call that has none: ``prefix`` + 24 alphanumerics derived from
    the call's ``position`` among the conversation's calls (0 for a call on its own), its
    ``name`` and its arguments as OpenAI-style JSON text (``json.dumps(arguments,
    ensure_ascii=False)``). The one id policy of every path that must write an id
    (:meth:`tooletta.ToolCall.to_openai`, :func:`tooletta.interop.messages_to_openai`,
    :func:`tooletta.interop.ensure_ids`, ``render(calls, "openai")``): the same call at the
    same position always gets the same id, whichever path wrote it."""
    return prefix + stable_token(f"{position}:{name}:{arguments_json}", 24)
