"""What a template keeps of an earlier assistant turn's content: :class:`HistoryCut`, the
text after a marker (Apriel 1.6 keeps what follows ``[BEGIN FINAL RESPONSE]``)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["HistoryCut"]


@dataclass(frozen=True)
class HistoryCut:
    """The content an assistant turn that is not the conversation's last message is written
    with: when it holds ``marker``, only the text after its last occurrence (``last=False``:
    after its first, up to the next), trimmed of ``strip`` (``None``: whitespace, ``""``:
    nothing); without the marker, the content as it is (Apriel 1.6's
    ``content.split('[BEGIN FINAL RESPONSE]')[-1] | trim`` for history turns).

    A format sets it as :attr:`~tooletta.chat.ChatFormat.history_cut`; the default
    :meth:`~tooletta.chat.ChatFormat.turn_body` writes earlier turns so and
    :meth:`~tooletta.chat.ChatFormat.expressible` gives their content back so.
    """

    marker: str
    last: bool = True
    strip: str | None = None

    def cut(self, content: str) -> str:
        """``content`` as an earlier turn writes it."""
        marker = self.marker
        if not marker or marker not in content:
            return content
        parts = content.split(marker)
        kept = parts[-1] if self.last else parts[1]
        return kept if self.strip == "" else kept.strip(self.strip)
