"""Plain chat dicts, read without asking which shape each is.

Most conversations arrive as OpenAI / Hugging Face chat dicts with nothing unusual in them.
:func:`~tooletta.interop.read_messages` tells apart, message by message, every shape it
accepts (Anthropic messages, Responses items, SDK objects, legacy function results, content
parts...), at ~3 µs a message; :func:`read_plain_dicts` reads the plain ones in one loop and
hands anything else back, so that the general reader reads it (or says why it cannot).
``tests/test_read_plain_dicts.py`` checks, on generated dicts of every shape, that what it
reads is what the general reader reads.
"""

from __future__ import annotations

from typing import Any

from ..ir import Message
from .calls import read_tool_call

__all__ = ["read_plain_dicts"]

_PLAIN_KEYS = frozenset(
    {"role", "content", "tool_calls", "tool_call_id", "name", "reasoning_content", "reasoning"}
)
"""The keys of the chat dicts :func:`_read_plain_dicts` reads."""
_PLAIN_ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})


def read_plain_dicts(messages: list[Any]) -> list[Message] | None:
    """The messages of a list of plain chat dicts, read as
    :func:`~tooletta.interop.read_messages` reads them without asking which shape each
    is; ``None`` when any is not plain (then read that way, which also says why one cannot
    be).

    Plain: a ``dict`` whose keys are among ``role``, ``content``, ``tool_calls``,
    ``tool_call_id``, ``name``, ``reasoning_content`` and ``reasoning``; ``role`` one of the
    chat roles (not the legacy ``function``); ``content``, ``name``, ``tool_call_id`` and
    ``reasoning`` each a ``str`` or ``None``; ``tool_calls`` only on an answer, a list of
    calls each read by :func:`~tooletta.interop.read_tool_call`. Such a dict is neither
    an Anthropic message nor a Responses item (no ``type``, no content list), keeps nothing
    in ``extra`` and follows no Responses reasoning item (no message before it has one), so
    the general reader would make of it exactly this message: ``reasoning_content``, else
    ``reasoning``, as the reasoning when it is non-empty text."""
    out: list[Message] = []
    append = out.append
    keys = _PLAIN_KEYS
    roles = _PLAIN_ROLES
    for m in messages:
        if type(m) is not dict or not m.keys() <= keys:
            return None
        role = m.get("role")
        content = m.get("content")
        name = m.get("name")
        call_id = m.get("tool_call_id")
        if (
            type(role) is not str
            or role not in roles
            or (content is not None and type(content) is not str)
            or (name is not None and type(name) is not str)
            or (call_id is not None and type(call_id) is not str)
        ):
            return None
        reasoning = m.get("reasoning_content")
        other = m.get("reasoning")
        if (reasoning is not None and type(reasoning) is not str) or (
            other is not None and type(other) is not str
        ):
            return None  # (a non-text reasoning is kept in extra by the general reader)
        if not reasoning:
            reasoning = other if other else ""
        raw = m.get("tool_calls")
        if raw:
            if role != "assistant" or type(raw) is not list:
                return None
            try:
                calls = [read_tool_call(c) for c in raw]
            except ValueError:
                return None  # the general reader names the message
        else:
            calls = []
        append(
            Message(
                role=role,
                content=content,
                tool_calls=calls,
                tool_call_id=call_id,
                name=name,
                reasoning=reasoning,
            )
        )
    return out
