"""Kit law: misusing a stream parser gives typed errors and loses nothing.

For any dialect's :func:`tooletta.stream` parser (the engine, the buffered stream, or a plugin's
own parser behind core's guard):

- a delta that is not ``str`` (``bytes``, a number, ``None``, a list) raises
  :class:`~tooletta.ParseError` naming the dialect, and changes nothing: the stream then reads
  the rest exactly as if that delta had never been fed;
- a ``str`` subclass is read as its text;
- ``feed`` after ``finish`` (an empty delta too) and a second ``finish`` raise
  :class:`~tooletta.StreamStateError` naming the dialect.

Nothing else may escape: no ``TypeError``, ``ValueError`` or ``AttributeError``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from .. import api
from ..errors import ParseError, RenderError, StreamStateError, ToolettaError
from ..ir import StreamUpdate, ToolCall

__all__ = ["NOT_TEXT", "StreamMisuseTests", "check_stream_misuse"]

NOT_TEXT: tuple[Any, ...] = (b"<x>", bytearray(b"y"), 123, 4.5, None, ["z"], ("w",), object())
"""Deltas that are not text; each must be refused with a ParseError."""

_CALL = ToolCall("get_weather", {"city": "Paris"})


class _Text(str):
    """A ``str`` subclass, as some frameworks hand out (it must read as its text)."""


def _expect(kind: type[ToolettaError], dialect: str, what: str, fn: Callable[[], Any]) -> None:
    try:
        fn()
    except kind as exc:
        name = api.get_dialect(dialect).info.name
        assert getattr(exc, "dialect", None) == name, (what, "names no dialect", exc)
        return
    except Exception as exc:  # the law's point: nothing but the typed error
        raise AssertionError(f"{dialect}: {what} raised {type(exc).__name__}: {exc}") from exc
    raise AssertionError(f"{dialect}: {what} raised nothing ({kind.__name__} expected)")


def _sample(dialect: str) -> tuple[str, Any]:
    """A text of the dialect with a call (and content where it can), and the tools it needs;
    prose when the dialect renders nothing."""
    from . import tools_for

    for content in ("Let me check.", ""):
        try:
            return api.render([_CALL], dialect, content=content), tools_for([_CALL])
        except RenderError:
            continue
    return "Plain prose only.", None


def _run(dialect: str, pieces: Sequence[Any], tools: Any, bad: Any = None) -> list[StreamUpdate]:
    """Stream ``pieces``, feeding ``bad`` (refused) between the two halves when given."""
    parser = api.stream(dialect, tools=tools)
    half = len(pieces) // 2
    updates = [parser.feed(p) for p in pieces[:half]]
    if bad is not None:
        _expect(ParseError, dialect, f"feed({bad!r})", lambda: parser.feed(bad))
    updates += [parser.feed(p) for p in pieces[half:]]
    updates.append(parser.finish())
    return updates


def check_stream_misuse(dialect: str, text: str | None = None, tools: Any = None) -> None:
    """The law above for ``dialect``, on ``text`` (default: a rendered call) fed in
    four-character deltas."""
    if text is None:
        text, tools = _sample(dialect)
    pieces = [text[i : i + 4] for i in range(0, len(text), 4)] or [""]
    want = _run(dialect, pieces, tools)
    for bad in NOT_TEXT:
        assert _run(dialect, pieces, tools, bad) == want, (dialect, "changed by", bad)
    assert _run(dialect, [_Text(p) for p in pieces], tools) == want, (dialect, "str subclass")

    parser = api.stream(dialect, tools=tools)
    for piece in pieces:
        parser.feed(piece)
    parser.finish()
    _expect(StreamStateError, dialect, "feed() after finish()", lambda: parser.feed("more"))
    _expect(StreamStateError, dialect, 'feed("") after finish()', lambda: parser.feed(""))
    _expect(StreamStateError, dialect, "a second finish()", parser.finish)
    _expect(StreamStateError, dialect, "a third finish()", parser.finish)


class StreamMisuseTests:
    """The kit's stream-misuse law as a test (a base of :class:`~tooletta.testing.DialectTests`)."""

    dialect: ClassVar[str]

    def test_stream_misuse(self) -> None:
        """Misusing a stream parser gives typed errors and loses nothing."""
        check_stream_misuse(self.dialect)
