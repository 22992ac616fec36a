"""Messages and tools as a conversation renderer reads them, from any accepted shape."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

import msgspec

from ..errors import RenderError
from ..ir import Message
from ..jsonout import to_json
from ..shapes.read import read_messages

__all__ = [
    "by_content",
    "content_key",
    "read_conversation",
    "read_tool_definitions",
    "text_of",
    "tool_json",
]

_KEY = msgspec.msgpack.Encoder(uuid_format="bytes").encode


def content_key(value: Any) -> bytes:
    """The cache key of a tool definition: msgspec's MessagePack encoding, exact and
    order-keeping, which (unlike its JSON encoding) keeps NaN and infinities apart from
    ``null``, floats apart from integers and bytes, UUIDs and datetimes apart from strings, so
    a value JSON cannot write never shares a key with one it can. Types msgspec writes as
    plain values and ``json`` refuses (sets, Decimals, Enums, dataclasses) do share one: such a
    definition is then written as its plain form when that was seen first. Raises
    ``TypeError`` for what msgspec cannot encode (then nothing is cached)."""
    return _KEY(value)


_TOOL_JSON: dict[tuple[int | None, tuple[str, str] | None, bytes], str] = {}


def tool_json(
    tool: Any, *, indent: int | None = None, separators: tuple[str, str] | None = None
) -> str:
    """A tool definition (or a list of them) as ``tojson`` writes it, remembered by content:
    a dataset declares the same tools in every row, and msgspec reads a definition ten times
    faster than ``json`` writes it (the cache key is :func:`~tooletta.chat.messages.content_key`).

    ``indent`` and ``separators`` are ``json.dumps``'s (templates write ``tojson(indent=4)``,
    compact ``separators=(",", ":")``...); UTF-8 is kept. Raises
    :class:`~tooletta.RenderError` for what is not JSON."""
    try:
        key = (indent, separators, _KEY(tool))
    except (TypeError, ValueError, OverflowError):
        return _dumps(tool, indent, separators)
    text = _TOOL_JSON.get(key)
    if text is None:
        if len(_TOOL_JSON) > 4096:
            _TOOL_JSON.clear()
        text = _TOOL_JSON[key] = _dumps(tool, indent, separators)
    return text


_Written = TypeVar("_Written")


def by_content(write: Callable[[Any], _Written]) -> Callable[[Any], _Written]:
    """``write`` (a pure function of one JSON value: tool declarations as a template writes
    them) remembered by its argument's content, like :func:`tool_json`: a dataset declares the
    same tools in every row. Arguments msgspec cannot encode are written each time."""
    memo: dict[bytes, _Written] = {}

    @functools.wraps(write)
    def remembered(value: Any) -> _Written:
        try:
            key = _KEY(value)
        except (TypeError, ValueError, OverflowError):
            return write(value)
        found = memo.get(key, _MISSING)
        if found is _MISSING:
            if len(memo) > 1024:
                memo.clear()
            found = memo[key] = write(value)
        return found  # type: ignore[no-any-return]

    return remembered


_MISSING: Any = object()


def _dumps(value: Any, indent: int | None, separators: tuple[str, str] | None) -> str:
    if indent is None and separators is None:
        return to_json(value)
    try:
        return json.dumps(
            value, ensure_ascii=False, allow_nan=False, indent=indent, separators=separators
        )
    except RecursionError:
        raise RenderError("tool definitions are nested too deeply to write") from None
    except (TypeError, ValueError) as exc:
        raise RenderError(f"tool definitions are not JSON: {exc}") from None


TEXT_PART_TYPES = ("text", "input_text")
"""The ``type`` of a content part that holds text (Chat Completions, Responses)."""


def text_of(content: Any, separator: str = "") -> str:
    """The visible text of a message's content: a string, or the text parts of a list
    (``{"type": "text", "text": ...}`` parts and plain strings), joined by ``separator``;
    ``None`` is empty. A text part whose ``text`` is not a string is refused
    (:class:`~tooletta.RenderError`): writing ``5`` for ``{"type": "text", "text": 5}`` would
    read back as the string ``"5"``."""
    if type(content) is str:
        return content
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for index, item in enumerate(content):
            if isinstance(item, str):
                parts.append(item)
            elif isinstance(item, Mapping) and item.get("type") in TEXT_PART_TYPES:
                text = item.get("text")
                if not isinstance(text, str):
                    raise RenderError(
                        f"content part {index} is a text part whose text is "
                        f"{'missing' if text is None else type(text).__name__}, not a str"
                    )
                parts.append(text)
        return separator.join(parts)
    raise RenderError(f"message content must be text or a list, not {type(content).__name__}")


def non_text_part(content: Any) -> str | None:
    """Why a list of content parts holds a part :func:`text_of` does not write (an image, an
    audio clip, a file, a part of no known shape), naming the first; ``None`` when every part
    is text (or ``content`` is no list)."""
    if not isinstance(content, list):
        return None
    for index, item in enumerate(content):
        if isinstance(item, str):
            continue
        if isinstance(item, Mapping):
            kind = item.get("type")
            if kind in TEXT_PART_TYPES:
                continue
            what = f"of type {kind!r}" if isinstance(kind, str) else "a part with no text type"
        else:
            what = f"a {type(item).__name__}, not a text part"
        return f"content part {index} is {what}"
    return None


def read_conversation(messages: Iterable[Any]) -> list[Message]:
    """``messages`` as :class:`~tooletta.Message` objects.

    Accepts ``Message`` objects and every chat shape :func:`tooletta.interop.read_messages`
    reads (OpenAI / Hugging Face / tinker dicts, Anthropic messages, Responses items, SDK
    objects). A ``reasoning_content`` (or ``reasoning``, or ``thinking``: the key gpt-oss's
    template reads) key becomes :class:`Message.reasoning <tooletta.Message>`.
    Raises :class:`~tooletta.RenderError` naming the message that cannot be read.
    """
    if type(messages) is list:
        for m in messages:  # the common case: Message objects with nothing to lift
            if type(m) is not Message or (m.extra and not m.reasoning):
                break
        else:
            return messages.copy()
    elif isinstance(messages, (str, bytes, Mapping)):
        raise RenderError("messages must be a list of messages")
    if isinstance(messages, list) and all(type(m) is Message for m in messages):
        return [_lift_reasoning(m) for m in messages]
    try:
        read = read_messages(messages)
    except ValueError as exc:
        raise RenderError(str(exc)) from None
    return [_lift_reasoning(m) for m in read]


def _lift_reasoning(message: Message) -> Message:
    if message.reasoning or not message.extra:
        return message
    for key in ("reasoning_content", "reasoning", "thinking"):
        value = message.extra.get(key)
        if isinstance(value, str):
            extra = {k: v for k, v in message.extra.items() if k != key}
            return msgspec.structs.replace(message, reasoning=value, extra=extra)
    return message


def read_tool_definitions(tools: Iterable[Any] | None) -> list[dict[str, Any]]:
    """Tool definitions in the OpenAI Chat shape ``{"type": "function", "function": {...}}``,
    the form chat templates receive. Definitions already in that shape are kept as given (a
    template writes them key by key, in their order); other shapes (flat Responses-style,
    Anthropic, tinker) are converted."""
    if not tools:
        return []
    out: list[dict[str, Any]] = []
    for tool in tools:
        if type(tool) is dict and type(tool.get("function")) is dict:
            out.append(tool)
            continue
        if isinstance(tool, Mapping) and isinstance(tool.get("function"), Mapping):
            out.append(dict(tool))
            continue
        from ..shapes.tools import to_openai_tools  # only for other shapes (a lookup per call)

        try:
            out.extend(to_openai_tools([tool]))
        except (ValueError, TypeError, KeyError) as exc:
            raise RenderError(f"bad tool definition: {exc}") from None
    return out
