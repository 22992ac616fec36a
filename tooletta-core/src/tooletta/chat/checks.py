"""What :func:`tooletta.render_conversation` refuses in the messages before any format
writes them: text its format would read as markup (a forged turn), unless allowed.

One pass over the messages, run by every conversation render path
(:func:`~tooletta.render_conversation`, :func:`~tooletta.chat.render_spans` and so
:func:`~tooletta.training.tokenize_conversation`), whatever the format's hooks do.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import RenderError
from ..ir import Message
from .markup import Markup, find_markup, markup_of
from .messages import text_of

__all__ = ["check_conversation"]


def check_conversation(
    fmt: Any, dialect: Any, messages: Sequence[Message], allow_markup: bool = False
) -> None:
    """Raise :class:`~tooletta.RenderError` for the first message text that ``fmt`` would
    read as markup (naming the message, the field and the token); ``allow_markup``: none
    is refused."""
    if allow_markup:
        return
    turn, body = markup_of(fmt, dialect)
    if body.pattern is None:
        return
    if find_markup(_SEP.join(_texts(messages)), body) is None:
        return  # the common case: one scan of all the text, no call per field
    quoted = fmt.quoted_fields
    for index, message in enumerate(messages):
        role = message.role
        content = message.content
        if type(content) is not str:
            content = text_of(content)
        if role == "assistant":
            _check(fmt, index, "content", content, body)
            if message.reasoning:
                _check(fmt, index, "reasoning", message.reasoning, body)
            for call in message.tool_calls:
                _check_str(fmt, index, "name", call.name, turn)
                _check_str(fmt, index, "id", call.id, turn)
        else:
            field = "tool result" if role == "tool" else "system" if role == "system" else "content"
            if field not in quoted:
                _check(fmt, index, field, content, turn)
            if message.reasoning:
                _check(fmt, index, "reasoning", message.reasoning, turn)
        if message.name is not None:
            _check_str(fmt, index, "name", message.name, turn)
        if message.tool_call_id is not None:
            _check_str(fmt, index, "id", message.tool_call_id, turn)


_SEP = "\x00"


def _texts(messages: Sequence[Message]) -> list[str]:
    """Every text of ``messages`` the markup check reads (joined, a token found may span
    two of them: the check per field then decides)."""
    parts: list[str] = []
    add = parts.append
    for message in messages:
        content = message.content
        add(content if type(content) is str else text_of(content))
        if message.reasoning:
            add(message.reasoning)
        for call in message.tool_calls:
            if type(call.name) is str:
                add(call.name)
            if type(call.id) is str:
                add(call.id)
        if type(message.name) is str:
            add(message.name)
        if type(message.tool_call_id) is str:
            add(message.tool_call_id)
    return parts


def _check_str(fmt: Any, index: int, field: str, value: Any, markup: Markup) -> None:
    if type(value) is str:
        _check(fmt, index, field, value, markup)


def _check(fmt: Any, index: int, field: str, text: str, markup: Markup) -> None:
    token = find_markup(text, markup)
    if token is not None:
        raise RenderError(
            f"message {index}: the {field} holds the marker {token!r}, a token the {fmt.name} "
            "chat format reads as markup (the text would read back as other messages); "
            "allow_markup=True writes it as is"
        )
