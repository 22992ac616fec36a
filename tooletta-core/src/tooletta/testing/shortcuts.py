"""Checks on the one-shot shortcuts of a :class:`~tooletta.ScannerDialect`'s blocks
(:class:`Block.fast <tooletta.engine.Block>`): they must read text exactly as the block readers
do."""

from __future__ import annotations

from typing import Any

import msgspec

from .. import api
from ..dialect import ScannerDialect
from ..errors import ToolettaError
from ..ir import ParseResult

__all__ = ["check_shortcut_reads", "check_shortcuts_agree", "shortcut_blocks"]


def _one_shot(dialect: str, text: str, tools: Any, shortcuts: bool) -> Any:
    """The engine of a one-shot parse of ``text`` (``None`` for a dialect with no grammar)."""
    from ..engine import Engine

    d = api.get_dialect(dialect)
    if not isinstance(d, ScannerDialect):
        return None
    engine = Engine(
        d.grammar,
        d.info.name,
        d.schemas(tools),
        deltas=False,
        prefix=d.prompt_end,
        shortcuts=shortcuts,
    )
    engine.final = True
    engine.feed(text)
    engine.finish()
    return engine


def shortcut_blocks(dialect: str, text: str, tools: Any = None) -> int:
    """How many blocks of ``text`` a one-shot parse reads with their shortcut
    (:class:`Block.fast <tooletta.engine.Block>`), not their reader: to check one is taken."""
    engine = _one_shot(dialect, text, tools, True)
    return 0 if engine is None else int(engine.shortcut_blocks)


def check_shortcuts_agree(dialect: str, text: str, tools: Any = None) -> None:
    """Assert that the one-shot shortcuts of a :class:`~tooletta.ScannerDialect`'s blocks
    (:class:`Block.fast <tooletta.engine.Block>`) read ``text`` exactly as its block readers do:
    the same result, values of the same JSON types, or the same error."""
    d = api.get_dialect(dialect)
    if not isinstance(d, ScannerDialect) or not any(b.fast for b in d.grammar.blocks):
        return
    outcomes: list[Any] = []
    for shortcuts in (True, False):
        try:
            outcomes.append(_one_shot(dialect, text, tools, shortcuts).result())
        except ToolettaError as exc:
            outcomes.append((type(exc).__name__, str(exc)))
    fast, slow = outcomes
    assert fast == slow, (text, fast, slow)
    if not isinstance(fast, ParseResult):
        return
    # == takes 1 for 1.0 and True: compare the values' JSON too, which tells them apart
    try:
        typed = msgspec.json.encode(fast), msgspec.json.encode(slow)
    except UnicodeError:  # a lone surrogate cannot be encoded; == said enough
        return
    assert typed[0] == typed[1], (text, fast, slow)


def check_shortcut_reads(dialect: str, text: str, tools: Any = None) -> None:
    """Assert that a one-shot parse of ``text``, which holds calls, takes a block's shortcut
    and reads it as the block readers do: :func:`check_shortcuts_agree`, the calls read, and
    at least one block read by its shortcut (:func:`shortcut_blocks`)."""
    check_shortcuts_agree(dialect, text, tools)
    assert api.parse(text, dialect, tools=tools).calls, "the reader reads calls here"
    assert shortcut_blocks(dialect, text, tools)
