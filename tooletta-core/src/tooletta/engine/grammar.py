"""The declarative part of a dialect: which markers open blocks, and who reads each block."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..ir import ToolCall
from .reader import Read, Reader
from .trim import Trimmer

__all__ = ["Block", "FastReader", "Grammar", "erase", "reasoning_region"]

BlockReader = Callable[[Reader], Read[Any]]
FastReader = Callable[[str, int, Any, list[ToolCall]], int]
"""A block's one-shot shortcut: ``fast(text, pos, tools, calls) -> end`` (see :class:`Block`)."""


@dataclass(frozen=True)
class Block:
    """A kind of block in the model's text.

    ``open`` is the literal that starts it. ``read`` is a generator function that reads the
    block from just after ``open`` (or from ``open`` itself with ``keep_open=True``, for formats
    whose payload begins with the marker, such as a bare ``[`` or ``{``) and reports calls,
    content or reasoning through the reader's events. ``close`` is the literal that ends a block
    of this kind; after a malformed block the engine skips to it (through it) and keeps the
    skipped text as unparsed data. Without ``close``, a malformed block runs to the end of the
    text. ``at_start=True`` recognises ``open`` only before any content has been emitted (for
    formats whose calls make up the whole reply, such as bare JSON). ``markup=False`` marks a
    block that is not a tool call (a reasoning region, an end-of-turn token): whitespace
    handling is the same, but detection ignores it.

    ``fast`` is an optional one-shot shortcut for ``read``, used only when the whole text is
    present (``parse``, never ``stream``): a plain function called as
    ``fast(text, pos, tools, calls)`` with ``pos`` where ``read`` would start and ``tools``
    the request's :class:`~tooletta.toolkit.ToolSchemas`. When the block is one it can read
    whole (typically well-formed calls and nothing else) it appends the block's calls to
    ``calls`` and returns the offset just past the block; otherwise it returns ``-1`` having
    appended nothing, and ``read`` reads the block (raising what makes a reader fail a block,
    a ``BlockError``, ``Decline``, ``ValueError``, ``UnicodeError`` or ``RecursionError``,
    declines too; any other exception is the plugin's bug, a ``PluginError``). It must give
    exactly what ``read`` gives:
    every test that compares a stream with ``parse`` (golden cases, any split, round trips,
    fuzzing) checks that, since streams never take the shortcut.
    """

    open: str
    read: BlockReader
    close: str | None = None
    keep_open: bool = False
    at_start: bool = False
    markup: bool = True
    fast: FastReader | None = None


@dataclass(frozen=True)
class Grammar:
    """Everything the engine needs to scan a dialect: its kinds of block.

    Text outside every block is content. A call written inside a reasoning region is reasoning
    text, as the model's own template treats it.
    """

    blocks: tuple[Block, ...]

    @cached_property
    def content_markers(self) -> tuple[str, ...]:
        """The openers content must not hold to read back as content, every block's but
        those recognised only before any content (``at_start``)."""
        return tuple(block.open for block in self.blocks if not block.at_start)

    @cached_property
    def content_marker_leads(self) -> tuple[str, ...]:
        """The first characters of :attr:`content_markers`, each once (most formats' markers
        all start with ``<`` or ``[``): content holding none of them holds no marker, which
        one scan per character tells."""
        return tuple(dict.fromkeys(marker[:1] for marker in self.content_markers if marker))


def _erase(r: Reader) -> Read[None]:
    return
    yield  # pragma: no cover - makes this a generator


def erase(token: str) -> Block:
    """A block that removes ``token`` from the text (an end-of-turn token that leaked)."""
    return Block(open=token, read=_erase, markup=False)


def reasoning_region(open: str, close: str) -> Block:
    """A block whose text, up to ``close``, is reasoning (``<think>`` ... ``</think>``).

    Whitespace just inside the tags is dropped. A region that is still open when the text
    ends keeps everything after ``open`` as reasoning.
    """

    def read(r: Reader) -> Read[None]:
        out = Trimmer(r.reasoning, "space")
        yield from r.until((close,), out.feed, eof=True)
        out.close()

    return Block(open=open, read=read, close=close, markup=False)
