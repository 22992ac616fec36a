"""One part at a time: the order of blocks (Anthropic) or output items (Responses) that a
stream of :class:`~tooletta.StreamUpdate` s becomes.

Both APIs stream an assistant turn as a sequence of parts, each opened, filled and closed
before the next opens: reasoning, text, one part per call. :class:`Segments` turns updates
into those steps; each event writer turns the steps into its own events. Within one update,
reasoning comes first, then content, then calls (as :class:`~tooletta.interop.ChunkWriter`
writes them).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from ..ir import StreamUpdate

__all__ = ["SegmentWriter", "Segments", "Step", "all_events"]

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


class SegmentWriter:
    """What both event writers share: the :class:`Segments` of one response, the opening
    events sent once before the first others, and the refusal of updates after the finish.

    A writer gives :meth:`_opening` (its first events) and :meth:`_events` (the events of
    one step); its ``finish`` starts from :meth:`_finishing`.
    """

    def __init__(self, *, reasoning: bool = True) -> None:
        self._segments = Segments(reasoning=reasoning)
        self._started = False
        self._finished = False

    @property
    def late_ids(self) -> dict[int, str]:
        """Ids the source sent after their call's part (block or item) had been sent
        (index -> id)."""
        return self._segments.late_ids

    @property
    def discarded(self) -> list[int]:
        """Indexes of calls reported malformed after their part (block or item) was sent."""
        return self._segments.discarded

    def _opening(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def _events(self, step: Step) -> list[dict[str, Any]]:
        raise NotImplementedError

    def _start(self) -> list[dict[str, Any]]:
        if self._started:
            return []
        self._started = True
        return self._opening()

    def write(self, update: StreamUpdate) -> list[dict[str, Any]]:
        """The events for one update (the opening events first)."""
        if self._finished:
            raise ValueError("the stream is finished")
        out = self._start()
        for step in self._segments.feed(update):
            out.extend(self._events(step))
        return out

    def _finishing(self, update: StreamUpdate | None) -> list[dict[str, Any]]:
        """The events of a last update (or the opening ones, still unsent), then those
        closing the open part; the writer takes no update after this."""
        out = self.write(update) if update is not None else self._start()
        for step in self._segments.close():
            out.extend(self._events(step))
        self._finished = True
        return out

    def finish(self, update: StreamUpdate | None = None) -> list[dict[str, Any]]:
        """The events of a last update and the end of the response."""
        raise NotImplementedError


def all_events(writer: SegmentWriter, updates: Iterable[StreamUpdate]) -> list[dict[str, Any]]:
    """Every event of a whole stream of ``updates``, written by ``writer``, its finish
    included."""
    out: list[dict[str, Any]] = []
    for update in updates:
        out.extend(writer.write(update))
    out.extend(writer.finish())
    return out
