"""Formats whose response is several messages (Harmony, Inkling): each message's text body
joins one content or one reasoning, a blank line between the messages of a kind."""

from __future__ import annotations

import weakref
from typing import Any

from ..engine.reader import Reader
from ..engine.trim import Trimmer

__all__ = ["JoinedBody", "message_body"]

_SEEN: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
"""For each engine (one response), the kinds a message body has already written."""


class JoinedBody:
    """Writes one message body of a kind (``"content"`` or ``"reasoning"``), after a blank
    line when an earlier message of that kind wrote something in the same response."""

    __slots__ = ("_emit", "_kind", "_prefix", "_seen")

    def __init__(self, r: Reader, kind: str) -> None:
        self._seen = _SEEN.setdefault(r.engine, set())
        self._kind = kind
        self._emit = r.content if kind == "content" else r.reasoning
        self._prefix: str | None = "\n\n" if kind in self._seen else ""

    def __call__(self, text: str) -> None:
        """Write the next piece of the body (the first one after the separator, if any)."""
        if self._prefix is not None:
            self._seen.add(self._kind)
            text = self._prefix + text
            self._prefix = None
        self._emit(text)


def message_body(r: Reader, kind: str) -> Trimmer:
    """A writer for one message body of ``kind``: surrounding whitespace removed, joined to
    the earlier bodies of that kind by a blank line. Feed it the body, close it at the end."""
    return Trimmer(JoinedBody(r, kind), "space")
