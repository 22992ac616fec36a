"""Formats whose whole text is one JSON document (canonical, OpenAI): a list of calls, or an
object around them (content and calls)."""

from __future__ import annotations

import re
from typing import ClassVar

from ..dialect import ScannerDialect
from ..engine import Block, BlockReader, FastReader, Grammar

__all__ = ["JsonDocumentDialect", "document_grammar"]


def document_grammar(
    read_list: BlockReader, read_object: BlockReader, fast_list: FastReader | None = None
) -> Grammar:
    """The grammar of a JSON document format: ``read_list`` from a ``[`` at the start of the
    text (with ``fast_list``, its one-shot shortcut), ``read_object`` from a ``{`` there; each
    reads to the end of the text."""
    return Grammar(
        blocks=(
            Block("[", read_list, keep_open=True, at_start=True, fast=fast_list),
            Block("{", read_object, keep_open=True, at_start=True),
        )
    )


class JsonDocumentDialect(ScannerDialect):
    """A dialect whose text is one JSON document: set ``info``, ``start`` and a ``grammar``
    made by :func:`document_grammar`, and implement ``render``. Any content can be written
    (it is a JSON string)."""

    start: ClassVar[re.Pattern[str]]
    """What a text of this format starts with (leading whitespace included)."""

    def detect(self, text: str) -> bool:
        """True when the text starts as this format's JSON does (:attr:`start`)."""
        return self.start.match(text) is not None

    def check_content(self, content: str) -> None:
        """Any content can be written: it is a JSON string."""
