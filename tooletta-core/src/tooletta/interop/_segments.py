"""One part at a time: the order of blocks (Anthropic) or output items (Responses) that a
stream of :class:`~tooletta.StreamUpdate` s becomes.

Both APIs stream an assistant turn as a sequence of parts, each opened, filled and closed
before the next opens: reasoning, text, one part per call. :class:`Segments` turns updates
into those steps; each event writer turns the steps into its own events. Within one update,
reasoning comes first, then content, then calls (as :class:`~tooletta.interop.ChunkWriter`
writes them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..ir import StreamUpdate

__all__ = ["Segments", "Step"]

Kind = Literal["reasoning", "text", "call"]


@dataclass(frozen=True)
class Step:
    """``open`` a part (a call's carries its ``name`` and ``call_id``), add ``text`` to the
    open part (``delta``), or ``close`` it. ``index`` is the call's index in the stream."""

    action: Literal["open", "delta", "close"]
    kind: Kind
    index: int | None = None
    text: str = ""
    name: str = ""
    call_id: str | None = None


class Segments:
    """Tracks the open part of one streamed turn.

    ``late_ids`` records ids a source sent after its call opened (a part's id is fixed when it
    opens); ``discarded`` the indexes of calls the parser later reported malformed (their parts
    were already sent). Raises ``ValueError`` when a call's arguments continue after another
    part opened: neither API can reopen a part.
    """

    def __init__(self, *, reasoning: bool = True) -> None:
        self.reasoning = reasoning
        self.late_ids: dict[int, str] = {}
        self.discarded: list[int] = []
        self.calls: list[int] = []  # call indexes, in the order they opened
        self._open: tuple[Kind, int | None] | None = None

    def _switch(self, out: list[Step], kind: Kind, index: int | None = None) -> None:
        if self._open is not None:
            out.append(Step("close", *self._open))
        self._open = (kind, index)

    def feed(self, update: StreamUpdate) -> list[Step]:
        """The steps of one update."""
        out: list[Step] = []
        if update.reasoning and self.reasoning:
            self._text(out, "reasoning", update.reasoning)
        if update.content:
            self._text(out, "text", update.content)
        for d in update.calls:
            if d.index not in self.calls:
                self._switch(out, "call", d.index)
                self.calls.append(d.index)
                out.append(Step("open", "call", d.index, name=d.name or "", call_id=d.id))
            elif d.id is not None:
                self.late_ids[d.index] = d.id
            if not d.arguments:
                continue
            if self._open != ("call", d.index):
                raise ValueError(
                    f"call {d.index} continues after another part started; "
                    "a streamed turn can only add to its open part"
                )
            out.append(Step("delta", "call", d.index, text=d.arguments))
        for rec in update.unparsed:
            if rec.index is not None and rec.index in self.calls:
                self.discarded.append(rec.index)
        return out

    def _text(self, out: list[Step], kind: Kind, text: str) -> None:
        if self._open != (kind, None):
            self._switch(out, kind)
            out.append(Step("open", kind))
        out.append(Step("delta", kind, text=text))

    def close(self) -> list[Step]:
        """The step closing the open part, if any."""
        out: list[Step] = []
        if self._open is not None:
            out.append(Step("close", *self._open))
            self._open = None
        return out
