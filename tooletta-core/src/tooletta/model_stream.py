"""A stream for a model known to write several dialects: the dialect is picked when the text
shows it.

``stream(model=...)`` for a model whose row names several dialects (Llama 4: ``llama4_json``
and ``pythonic``) cannot know which one a response is written in before its first markup.
:class:`ModelStream` holds the text back until the default (first) dialect's marker occurs in
it and that dialect accepts it (the same test as detection): then it opens the default's
parser, feeds it everything held and streams on. Otherwise the text is read at ``finish`` as
:func:`tooletta.parse` reads it (the first candidate accepting the whole text, else the
default): a later candidate accepting a part is no proof, as the default may still claim
the whole (Llama 4's JSON calls start with the ``<|python_start|>`` that pythonic accepts).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .ir import StreamUpdate
from .stream_checks import as_text, fed_after_finish, finished_twice

__all__ = ["ModelStream"]


class ModelStream:
    """Buffers deltas until the first of ``candidates`` (dialect names, the default first)
    claims the text, then streams through its parser; else decides at ``finish``.

    ``markers`` are the strings that make each candidate worth asking (by name), ``claims``
    asks a candidate whether it accepts the text so far, ``open`` starts the parser of a
    dialect name. Misuse is refused as the engine refuses it.
    """

    def __init__(
        self,
        candidates: Sequence[str],
        markers: dict[str, tuple[str, ...]],
        claims: Callable[[str, str], bool],
        open: Callable[[str], Any],
    ) -> None:
        self._candidates = tuple(candidates)
        self._markers = markers
        self._claims = claims
        self._open = open
        self._longest = max((len(m) for ms in markers.values() for m in ms), default=0)
        self._text = ""
        self._size = 0
        self._parser: Any = None
        self._done = False

    @property
    def dialect(self) -> str | None:
        """The dialect picked so far (``None`` while undecided)."""
        return self._picked

    _picked: str | None = None

    def _pick(self, text: str, delta: str) -> str | None:
        """The default dialect when a marker of it just arrived and it accepts the text."""
        name = self._candidates[0]
        window = text[-(len(delta) + self._longest) :] if self._longest else ""
        if any(m in window for m in self._markers.get(name, ())) and self._claims(name, text):
            return name
        return None

    def _start(self, name: str, text: str) -> StreamUpdate:
        self._picked = name
        self._parser = self._open(name)
        update: StreamUpdate = self._parser.feed(text)  # a guarded parser: checked updates
        return update

    def feed(self, delta: str) -> StreamUpdate:
        """Take the next delta; nothing is shown before the dialect is known."""
        if self._done:
            raise fed_after_finish(self._picked)
        if type(delta) is not str:
            delta = as_text(delta, self._picked, self._size)
        self._size += len(delta)
        if self._parser is not None:
            update: StreamUpdate = self._parser.feed(delta)
            return update
        self._text += delta
        name = self._pick(self._text, delta)
        if name is None:
            return StreamUpdate()
        text, self._text = self._text, ""
        return self._start(name, text)

    def finish(self) -> StreamUpdate:
        """End the text: the picked dialect's (else the default's) last update."""
        if self._done:
            raise finished_twice(self._picked)
        self._done = True
        first = StreamUpdate()
        if self._parser is None:
            text = self._text
            name = next((n for n in self._candidates if self._claims(n, text)), None)
            first = self._start(name or self._candidates[0], text)
        last: StreamUpdate = self._parser.finish()
        if not first:
            return last
        return StreamUpdate(
            first.content + last.content,
            [*first.calls, *last.calls],
            first.reasoning + last.reasoning,
            [*first.unparsed, *last.unparsed],
        )
