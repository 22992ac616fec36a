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
    :class:`~tooletta.chat.Preamble`'s; ``open_ends``: a block whose ``end`` never comes runs
    to the end of the text (skipped whole), where a preamble's is left to the turns.
    """

    system_roles: frozenset[str] = frozenset({"system"})
    open_ends: bool = False

    def text(self, index: int, ctx: Conversation) -> str:
        """The text written before the message at ``index`` (``index == len(ctx.messages)``:
        after the last message): all of it before the first message after a leading system
        message, else nothing."""
        messages = ctx.messages
        first = 1 if messages and messages[0].role in self.system_roles else 0
        return self.write(ctx) if index == first else ""

    def skip(self, text: str, pos: int) -> int:
        """Where the blocks that start at ``pos`` of ``text`` end (the end of the text for an
        open one when ``open_ends``); ``pos`` when none starts there."""
        if self.start_only and pos:
            return pos
        for head, end in self.blocks:
            if text.startswith(head, pos):
                at = text.find(end, pos)
                if at >= 0:
                    pos = at + len(end)
                elif self.open_ends:
                    return len(text)
        return pos
