"""How every stream parser answers a caller that misuses it (the engine, the buffered stream
and the guard around plugins' own stream parsers share these errors).

A stream parser reads one response: ``feed(delta)`` with ``str`` deltas, then ``finish()``
once. A delta that is not ``str`` is a :class:`~tooletta.ParseError` (as text given to
``parse`` is) and changes nothing, so the stream goes on; ``feed`` after ``finish`` and a
second ``finish`` are a :class:`~tooletta.StreamStateError`.
"""

from __future__ import annotations

from typing import Any

from .errors import ParseError, StreamStateError

__all__ = ["as_text", "fed_after_finish", "finished_twice", "not_text"]


def not_text(delta: Any, dialect: str | None, position: int | None = None) -> ParseError:
    """The error for a delta that is not ``str`` (``position``: characters fed so far)."""
    kind = "None" if delta is None else type(delta).__name__
    hint = " (decode the model's bytes first)" if isinstance(delta, bytes | bytearray) else ""
    return ParseError(
        f"a stream delta must be str, not {kind}{hint}", dialect=dialect, position=position
    )


def as_text(delta: Any, dialect: str | None, position: int | None = None) -> str:
    """``delta`` as a plain ``str``: a ``str`` subclass is read as its text; anything else
    raises :func:`not_text`'s error."""
    if isinstance(delta, str):
        return str.__str__(delta)
    raise not_text(delta, dialect, position)


def fed_after_finish(dialect: str | None) -> StreamStateError:
    """The error for ``feed`` after ``finish``."""
    return StreamStateError(
        "feed() after finish(): a stream parser reads one response; "
        "start another with tooletta.stream()",
        dialect=dialect,
    )


def finished_twice(dialect: str | None) -> StreamStateError:
    """The error for a second ``finish``."""
    return StreamStateError(
        "finish() called twice: the first call returned the last update; "
        "start another stream with tooletta.stream()",
        dialect=dialect,
    )
