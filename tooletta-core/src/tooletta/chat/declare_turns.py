"""Declarations of how a template writes a turn's header and its calls' ids, each holding the
writer and its reader (see :mod:`tooletta.chat.declare` for the others):

* :class:`Headerless`: turns of one role the template writes without a header after some
  roles (Mistral's assistant turns, which never have one; Apertus's and DeepSeek's assistant
  turn going on after tool results), read back as that role where no header starts;
* :class:`CallIds`: the ids the template writes for a turn's calls when they are not the
  calls' own (Mistral's templates refuse any id but 9 characters of ``[A-Za-z0-9]``: a
  missing or invalid one is derived), which the text then carries.

A format sets them as the class attributes ``headerless`` and ``call_ids``;
:class:`~tooletta.chat.ChatFormat`'s default hooks (:meth:`~tooletta.chat.ChatFormat.header`,
:meth:`~tooletta.chat.ChatFormat.implicit_role`, :meth:`~tooletta.chat.ChatFormat.calls_text`,
:meth:`~tooletta.chat.ChatFormat.expressible`) read them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..ir import ToolCall

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


@dataclass(frozen=True)
class CallIds:
    """The ids a template writes for the calls of one assistant turn, when they may differ
    from the calls' own ids (derived for a missing or invalid one, as Mistral's templates
    need 9 characters of ``[A-Za-z0-9]``).

    ``write`` gives the turn's calls with the written ids (from the calls alone: the turn's
    ids depend on nothing else). The default :meth:`~tooletta.chat.ChatFormat.calls_text`
    writes the calls so, and :meth:`~tooletta.chat.ChatFormat.expressible` gives them back
    so (the text carries the written ids; a tool result answering a call is named after the
    call with its written id).
    """

    write: WriteIds

    def apply(self, calls: Sequence[ToolCall]) -> list[ToolCall]:
        """``calls`` with the ids written for them (an empty list as it is)."""
        return self.write(calls) if calls else list(calls)
