"""Declarations of how a template writes a turn's header and its calls' ids, each holding the
writer and its reader (see :mod:`tooletta.chat.declare` for the others):

* :class:`Headerless`: turns of one role the template writes without a header after some
  roles (Mistral's assistant turns, which never have one; Apertus's and DeepSeek's assistant
  turn going on after tool results), read back as that role where no header starts;
* :class:`CallIds`: the ids the template writes for a turn's calls when they are not the
  calls' own (Mistral's templates refuse any id but 9 characters of ``[A-Za-z0-9]``: a
  missing or invalid one is derived; Kimi's count the calls before them in the
  conversation), which the text then carries.

A format sets them as the class attributes ``headerless`` and ``call_ids``;
:class:`~tooletta.chat.ChatFormat`'s default hooks (:meth:`~tooletta.chat.ChatFormat.header`,
:meth:`~tooletta.chat.ChatFormat.implicit_role`, :meth:`~tooletta.chat.ChatFormat.calls_text`,
:meth:`~tooletta.chat.ChatFormat.expressible`) read them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import msgspec

from ..ir import Message, ToolCall
from .conversation import Conversation

__all__ = ["CallIds", "Headerless"]


@dataclass(frozen=True)
class Headerless:
    """Turns of ``role`` that the template writes without a header after a message of one
    of the roles ``after``; ``after=None``: always (after any message, and as the first
    message), as Mistral writes every assistant turn.

    The default :meth:`~tooletta.chat.ChatFormat.header` writes no header for such a turn
    (the role's declared header otherwise), and the default
    :meth:`~tooletta.chat.ChatFormat.implicit_role` reads text where no header starts, after
    a message of one of those roles, as a turn of ``role``. Apertus's and DeepSeek's
    assistant turn goes on after tool results and another assistant message:
    ``Headerless("assistant", frozenset({"tool", "assistant"}))``.

    Unlike :attr:`~tooletta.chat.ChatFormat.implicit_roles`, it writes those turns too.
    """

    role: str = "assistant"
    after: frozenset[str] | None = None

    def implicit(self, previous: str | None) -> str | None:
        """The role of a turn written without a header after a message of role ``previous``
        (``None``: the turn is the first), ``None`` when every turn there has one."""
        if self.after is None or (previous is not None and previous in self.after):
            return self.role
        return None

    def omits(self, role: str, previous: str | None) -> bool:
        """Whether the template writes the turn of ``role`` after a message of role
        ``previous`` (``None``: the first turn) without a header."""
        return role == self.role and self.implicit(previous) is not None


WriteIds = Callable[[Sequence[ToolCall]], list[ToolCall]]
"""Gives a turn's calls with the ids the template writes for them (a new list, the calls in
order)."""
ConversationIds = Callable[[Sequence[Message]], Mapping[int, Sequence[str]]]
"""Gives the ids the template writes for the calls of a conversation's messages: per index of
an assistant message with calls, its calls' ids in order."""


@dataclass(frozen=True)
class CallIds:
    """The ids a template writes for the calls of an assistant turn, when they may differ
    from the calls' own ids.

    ``write`` gives one turn's calls with the written ids, from those calls alone (Mistral's
    templates need 9 characters of ``[A-Za-z0-9]``: a missing or invalid id is derived): the
    default :meth:`~tooletta.chat.ChatFormat.calls_text` writes calls so wherever it writes
    them (:func:`~tooletta.render` with ``model=`` too). ``across`` gives the ids of a whole
    conversation's calls, where a turn's ids depend on the turns before it (Kimi K2's
    ``functions.NAME:IDX`` counts the calls before): the default
    :meth:`~tooletta.chat.ChatFormat.assistant_text` writes a conversation's turns with them
    (a turn written alone keeps its calls' own ids). Either may be ``None``; with both,
    ``write`` applies to the calls ``across`` gave their ids.

    :meth:`~tooletta.chat.ChatFormat.expressible` gives the calls back with the written ids
    (the text carries them; a tool result answering a call is named after the call with its
    written id).
    """

    write: WriteIds | None = None
    across: ConversationIds | None = None

    def apply(self, calls: Sequence[ToolCall]) -> list[ToolCall]:
        """``calls`` with the ids ``write`` gives them (as they are without ``write``; an
        empty list as it is)."""
        write = self.write
        return write(calls) if calls and write is not None else list(calls)

    def in_conversation(
        self, index: int, messages: Sequence[Message], ids: Mapping[int, Sequence[str]]
    ) -> list[ToolCall]:
        """The calls of the message at ``index`` of ``messages`` with the ids ``ids`` (what
        ``across`` gave for ``messages``) holds for it (their own without an entry)."""
        calls = messages[index].tool_calls
        written = ids.get(index)
        if written is None:
            return list(calls)
        return [
            c if c.id == ident else msgspec.structs.replace(c, id=ident)
            for c, ident in zip(calls, written)
        ]

    def turn(self, index: int, ctx: Conversation) -> Message:
        """The assistant message at ``index`` of ``ctx.messages`` with the ids ``across``
        gives its calls (found once per conversation); the message as it is without
        ``across`` or calls."""
        message = ctx.messages[index]
        across = self.across
        if across is None or not message.tool_calls:
            return message
        ids = ctx.once("call_ids:across", lambda: across(ctx.messages))
        calls = self.in_conversation(index, ctx.messages, ids)
        return msgspec.structs.replace(message, tool_calls=calls)
