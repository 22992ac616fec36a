"""A declaration of template text written right after the opening system turn, with its
reader (see :mod:`tooletta.chat.declare` for the others): :class:`AfterSystem`, a
:class:`~tooletta.chat.Preamble` placed after the system turn instead of before it (Apertus's
developer turn, which holds the thinking switch and the tool declarations, written even
without tools).

A format sets it as its :attr:`~tooletta.chat.ChatFormat.preamble`; the default
:meth:`~tooletta.chat.ChatFormat.before_turn` and
:meth:`~tooletta.chat.ChatFormat.skip_before_turn` read it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .conversation import Conversation
from .declare import Preamble

__all__ = ["AfterSystem"]


@dataclass(frozen=True)
class AfterSystem(Preamble):
    """Text the template writes after the opening system turn, outside any turn: before the
    first message after a leading system message (a message of one of ``system_roles`` at
    index 0), before the message at index 0 when there is none, and before the generation
    prompt when no message follows. ``write`` writes it from the conversation (its options
    and tools; ``""``: nothing), once.

    The parser skips each of ``blocks`` (``(head, end)``) that starts where it reads, as a
    :class:`~tooletta.chat.Preamble`'s (``open_ends`` too).
    """

    system_roles: frozenset[str] = frozenset({"system"})

    def text(self, index: int, ctx: Conversation) -> str:
        """The text written before the message at ``index`` (``index == len(ctx.messages)``:
        after the last message): all of it before the first message after a leading system
        message, else nothing."""
        messages = ctx.messages
        first = 1 if messages and messages[0].role in self.system_roles else 0
        return self.write(ctx) if index == first else ""
