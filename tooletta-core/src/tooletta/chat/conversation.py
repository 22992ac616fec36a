"""What a conversation format's hooks see of one render: :class:`Conversation` (the messages,
tools, options and dialect, with what is found once per conversation), and the small scans the
formats and declarations share (:func:`last_user`, :func:`last_index`, :func:`first_of`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar, overload

from ..ir import Message
from . import clock

__all__ = ["Conversation", "calling_turn", "conversation", "first_of", "last_index", "last_user"]


_T = TypeVar("_T")


class _once(cached_property[_T]):
    """:func:`functools.cached_property` without the lock Python 3.11 takes on a first read
    (about a microsecond, paid by every conversation that reads :attr:`Conversation.last_user`
    once). Two threads reading it first at once would both compute the same value."""

    @overload
    def __get__(self, instance: None, owner: type[Any] | None = None) -> _once[_T]: ...

    @overload
    def __get__(self, instance: object, owner: type[Any] | None = None) -> _T: ...

    def __get__(self, instance: object, owner: type[Any] | None = None) -> Any:
        if instance is None:
            return self
        value = instance.__dict__[self.attrname or self.func.__name__] = self.func(instance)
        return value


@dataclass(frozen=True)
class Conversation:
    """What the hooks of a :class:`ChatFormat` see: the messages, the tool definitions (OpenAI
    Chat shape), the template's options (defaults merged with the caller's), the dialect
    object that writes the assistant's calls, and whether a generation prompt ends the text
    (some templates write the last turn differently then: gpt-oss)."""

    messages: Sequence[Message]
    tools: Sequence[Mapping[str, Any]]
    options: Mapping[str, Any]
    dialect: Any
    add_generation_prompt: bool = False

    @_once
    def last_user(self) -> int:
        """The index of the last user message (``-1``: none), found once."""
        return last_user(self.messages)

    @_once
    def memo(self) -> dict[str, Any]:
        """A table for what a format finds once per conversation and reads for every turn
        (Kimi K2-Thinking's last answer, for its history rule), keyed by names the format
        picks; empty until a hook writes in it. It lives as long as the conversation: one
        render."""
        return {}

    def once(self, key: str, compute: Callable[[], _T]) -> _T:
        """``compute()``, computed once per conversation and kept in :attr:`memo` under
        ``key`` (a history rule's scan, asked for every turn)."""
        memo = self.memo
        if key in memo:
            return memo[key]  # type: ignore[no-any-return]
        value = memo[key] = compute()
        return value

    def strftime_now(self, fmt: str) -> str:
        """The current local time formatted as a template's ``strftime_now(fmt)`` writes it.

        A ``strftime_now`` option (a callable taking the format) pins it, as the same keyword
        does for ``apply_chat_template`` (it shadows the template global of that name)."""
        pinned = self.options.get("strftime_now")
        if callable(pinned):
            return str(pinned(fmt))
        return clock.formatted(fmt)


_new = object.__new__


def first_of(text: str, tokens: Sequence[str], pos: int = 0) -> tuple[int, str]:
    """The first occurrence of any of ``tokens`` in ``text`` from ``pos`` (the longest at a
    tie) and that token; ``(-1, "")`` when none occurs. One scan up to that occurrence (a
    ``find`` per token would scan to the end of the text for each token that is absent
    nearby: quadratic over the turns of a long conversation)."""
    pattern = _FIRST_OF.get(tuple(tokens))
    if pattern is None:
        words = sorted({t for t in tokens if t}, key=len, reverse=True)
        if not words:
            return -1, ""
        if len(_FIRST_OF) > 256:
            _FIRST_OF.clear()
        pattern = _FIRST_OF[tuple(tokens)] = re.compile("|".join(map(re.escape, words)))
    m = pattern.search(text, pos)
    return (m.start(), m.group()) if m is not None else (-1, "")


_FIRST_OF: dict[tuple[str, ...], re.Pattern[str]] = {}


def last_index(messages: Sequence[Message], test: Callable[[Message], bool]) -> int:
    """The index of the last message of ``messages`` that passes ``test`` (``-1``: none)."""
    for index in range(len(messages) - 1, -1, -1):
        if test(messages[index]):
            return index
    return -1


def calling_turn(messages: Sequence[Message], index: int) -> int | None:
    """The index of the assistant message whose calls the tool result at ``index`` answers by
    order: the message right before the run of results that holds ``index`` (the result is
    the call at ``index - calling_turn - 1`` of it); ``None`` when that message is no
    assistant message (or there is none)."""
    at = index
    while at > 0 and messages[at - 1].role == "tool":
        at -= 1
    return at - 1 if at > 0 and messages[at - 1].role == "assistant" else None


def last_user(messages: Sequence[Message]) -> int:
    """The index of the last message of ``messages`` whose role is ``user`` (``-1``: none)."""
    for index in range(len(messages) - 1, -1, -1):  # last_index without a call per message
        if messages[index].role == "user":
            return index
    return -1


def conversation(
    messages: Sequence[Message],
    tools: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any],
    dialect: Any,
    add_generation_prompt: bool = False,
) -> Conversation:
    """``Conversation(messages, tools, options, dialect, add_generation_prompt)``, built
    without the frozen dataclass's ``__init__`` (five ``object.__setattr__`` calls: half the
    cost of a short conversation's bookkeeping). Equal to the one ``__init__`` builds."""
    ctx: Conversation = _new(Conversation)
    ctx.__dict__.update(
        messages=messages,
        tools=tools,
        options=options,
        dialect=dialect,
        add_generation_prompt=add_generation_prompt,
    )
    return ctx
