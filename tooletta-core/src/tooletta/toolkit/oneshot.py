"""Helpers for one-shot block readers (``Block.fast``) over the whole text.

A one-shot reader reads a well-formed block at once, exactly as the block's generator reader
would, and declines (``-1``) anything else. These helpers search the text as the readers do:
:func:`tag_end` finds a closing tag as ``Reader.until`` does, stopping where the reader would;
:data:`SPACE_RUN` skips what ``Reader.ws`` skips. (Values are typed with
:func:`tooletta.toolkit.args.one_shot_value`.)
"""

from __future__ import annotations

import re

__all__ = ["SPACE_RUN", "tag_end"]

SPACE_RUN = re.compile(r"[ \t\r\n]*")
"""The whitespace ``Reader.ws`` skips (``SPACE_RUN.match(text, i).end()``: where it stops)."""


def tag_end(text: str, i: int, want: str, stops: tuple[str, ...]) -> int:
    """Where ``want`` first occurs from ``i`` if it comes before every tag of ``stops``,
    else -1 (also when neither comes).

    What ``Reader.until((want, *stops))`` finds, for tags that begin with ``<`` and hold no
    other ``<`` (so no two overlap): it looks at each ``<`` in turn and stops at the first
    of those tags, so it reads no further than the reader.
    """
    while True:
        j = text.find("<", i)
        if j < 0 or text.startswith(want, j):
            return j
        if text.startswith(stops, j):
            return -1
        i = j + 1
