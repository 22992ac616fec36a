"""Message text never becomes special-token ids.

A tokenizer recognises its special tokens anywhere in the text it encodes. The chat format's
own markup must be encoded so (``<|im_end|>`` is one id); a user message that merely contains
the string ``<|im_end|>`` must not: it would end the turn in the ids while the text says it
goes on (a prompt-injection vector, and a wrong training target).

How the two are told apart: when a message, its calls or the tool definitions hold one of the
tokenizer's special tokens, each such occurrence is replaced by a placeholder of plain letters,
the conversation is rendered, and the placeholders are put back. Every special token of that
rendering is the format's markup; the text put back is message text, encoded as ordinary
pieces (the tokenizer's special tokens not recognised in it). The text is checked to be the
one rendered from the messages themselves (a format that rewrote a placeholder is refused with
a :class:`~tooletta.training.TokenizerError`). A conversation without such text, nearly every
one, costs one scan of its strings.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import msgspec

from ..chat.render import RenderedConversation
from ..ir import Message
from .tokenizer import TokenizerError

__all__ = ["Defused", "check_restored", "defuse", "holds_special"]

_MARK = "QqTOOLETTA{}SPECIALqQ"
"""A placeholder: letters and digits, which every template writes unchanged (JSON, ``str()``,
``repr``)."""


def holds_special(
    messages: Sequence[Message],
    tools: Sequence[Mapping[str, Any]],
    pattern: re.Pattern[str] | None,
) -> bool:
    """Whether any string of ``messages`` or ``tools`` holds a match of ``pattern`` (one of
    the special tokens; ``None``: there are none)."""
    if pattern is None:
        return False
    encoded = msgspec.json.encode([messages, tools])
    return _bytes_pattern(pattern).search(encoded) is not None


def _bytes_pattern(pattern: re.Pattern[str]) -> re.Pattern[bytes]:
    """``pattern`` over UTF-8 bytes (the JSON of the messages is searched undecoded)."""
    found = _BYTES.get(pattern)
    if found is None:
        if len(_BYTES) > 64:
            _BYTES.clear()
        found = _BYTES[pattern] = re.compile(pattern.pattern.encode())
    return found


_BYTES: dict[re.Pattern[str], re.Pattern[bytes]] = {}


class Defused:
    """The messages and tools with every special token in their strings replaced by a
    placeholder (:attr:`originals` maps each placeholder back)."""

    def __init__(
        self,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]],
        pattern: re.Pattern[str],
    ) -> None:
        self.originals: dict[str, str] = {}
        self._pattern = pattern
        self.messages = [self._message(m) for m in messages]
        self.tools: list[Any] = [self._value(t) for t in tools]

    def _text(self, text: str) -> str:
        def mark(match: re.Match[str]) -> str:
            key = _MARK.format(len(self.originals))
            self.originals[key] = match.group()
            return key

        return self._pattern.sub(mark, text)

    def _value(self, value: Any) -> Any:
        if isinstance(value, str):
            return self._text(value)
        if isinstance(value, Mapping):
            return {k: self._value(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self._value(v) for v in value]
        return value

    def _message(self, message: Message) -> Message:
        calls = [
            msgspec.structs.replace(c, arguments=self._value(c.arguments))
            for c in message.tool_calls
        ]
        return msgspec.structs.replace(
            message,
            content=self._value(message.content),
            reasoning=self._text(message.reasoning),
            tool_calls=calls,
        )

    def restore(
        self, rendered: RenderedConversation, messages: Sequence[Message]
    ) -> tuple[RenderedConversation, list[tuple[int, int]]]:
        """The rendering with the placeholders put back (segments moved with them), and the
        character spans of the message text that holds special tokens."""
        if not self.originals:
            return rendered, []
        keys = re.compile("|".join(map(re.escape, self.originals)))
        parts: list[str] = []
        spans: list[tuple[int, int]] = []
        shifts: list[tuple[int, int]] = []  # (position in the rendering, shift after it)
        last, shift = 0, 0
        text = rendered.text
        for match in keys.finditer(text):
            original = self.originals[match.group()]
            parts.append(text[last : match.start()])
            start = match.start() + shift
            spans.append((start, start + len(original)))
            parts.append(original)
            shift += len(original) - len(match.group())
            shifts.append((match.end(), shift))
            last = match.end()
        parts.append(text[last:])
        moved = _mover(shifts)
        segments = [replace(s, start=moved(s.start), end=moved(s.end)) for s in rendered.segments]
        restored = RenderedConversation("".join(parts), segments, list(messages), rendered.format)
        return restored, spans


def _mover(shifts: list[tuple[int, int]]) -> Callable[[int], int]:
    def move(pos: int) -> int:
        delta = 0
        for at, shift in shifts:
            if at > pos:
                break
            delta = shift
        return pos + delta

    return move


def defuse(
    messages: Sequence[Message],
    tools: Sequence[Mapping[str, Any]],
    pattern: re.Pattern[str] | None,
) -> Defused | None:
    """A :class:`Defused` copy when the strings of ``messages`` or ``tools`` hold a match of
    ``pattern`` (:func:`~tooletta.training.tokenizer.token_pattern` of the special
    tokens); ``None`` (nothing to do) else."""
    if pattern is None or not holds_special(messages, tools, pattern):
        return None
    return Defused(messages, tools, pattern)


def check_restored(restored: str, plain: str) -> None:
    """The text rendered with placeholders, put back, must be the text rendered from the
    messages themselves."""
    if restored != plain:
        raise TokenizerError(
            "a message holds one of the tokenizer's special tokens and the chat format "
            "rewrote it: its text cannot be kept apart from the format's markup"
        )
