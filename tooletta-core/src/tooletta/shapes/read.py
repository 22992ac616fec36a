"""Read a conversation in any supported shape into neutral messages."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ._util import as_dict
from .anthropic import is_anthropic_message, read_anthropic_message
from .chat import read_chat_message
from .message import Message
from .plain import read_plain_dicts
from .reasoning import REASONING_ITEMS
from .responses import add_responses_item, is_responses_item

__all__ = ["read_messages"]


def read_messages(messages: Iterable[Any]) -> list[Message]:
    """Read messages in any supported shape, told apart message by message.

    Accepted: :class:`~tooletta.interop.Message` objects; OpenAI Chat messages (string
    arguments, legacy ``function_call``, ``role: "tool"`` and ``role: "function"`` results);
    Hugging Face / TRL and tinker-cookbook messages (dict arguments, named results); Anthropic
    messages and responses (``tool_use`` / ``tool_result`` / ``thinking`` blocks; a user turn
    may give several messages); OpenAI Responses items (the ``reasoning``, message and
    ``function_call`` items of one turn join into one assistant message). SDK objects are
    read through ``model_dump`` (a ``None`` value counts as absent), so an object and its dump
    read the same. Reasoning fills :attr:`Message.reasoning <tooletta.Message>`, with the
    opaque data providers need back in ``extra`` (:mod:`~tooletta.interop.reasoning`). Ids
    are never rewritten. A list of plain chat dicts is read in one loop
    (:func:`~tooletta.shapes.plain.read_plain_dicts`), as the message-by-message reading
    reads it.

    Raises ``ValueError`` (naming the message's position) for what cannot be read.
    """
    if type(messages) is list:
        plain = read_plain_dicts(messages)
        if plain is not None:
            return plain
    out: list[Message] = []
    for i, obj in enumerate(messages):
        try:
            _read_into(out, obj)
        except ValueError as exc:
            raise ValueError(f"message {i}: {exc}") from None
    return out


def _read_into(out: list[Message], obj: Any) -> None:
    if isinstance(obj, Message):
        out.append(obj)
        return
    data = as_dict(obj, "message")
    if is_anthropic_message(data):
        out.extend(read_anthropic_message(data))
    elif is_responses_item(data) or _continues_reasoning_item(out, data):
        add_responses_item(out, data)
    else:
        out.append(read_chat_message(data))


def _continues_reasoning_item(out: list[Message], data: dict[str, Any]) -> bool:
    """An assistant message right after a Responses ``reasoning`` item is that turn's text,
    even in the short ``{"role", "content"}`` form that does not say it is an item."""
    if not out or data.get("role") != "assistant" or data.get("tool_calls"):
        return False
    last = out[-1]
    return (
        REASONING_ITEMS in last.extra
        and last.role == "assistant"
        and not last.content
        and not last.tool_calls
    )
