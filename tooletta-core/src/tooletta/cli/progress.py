"""The progress line of a ``--jsonl`` run, and the messages printed above it.

The line is drawn on stderr only when stderr is a terminal and the input is a regular file
(its size is known). Messages (bad rows, the closing summary) first erase the line, then
print, then draw it again below them: a message never lands on the progress line.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import IO, TextIO

__all__ = ["Progress"]

_WIDTH = 30


class Progress:
    """Progress over ``total`` input bytes on ``stream``, and messages that keep clear of it."""

    def __init__(self, total: int | None, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = total if total and _is_terminal(self.stream) else None
        self.done = 0
        self.lines = 0
        self._drawn = ""

    @classmethod
    def of_input(cls, source: IO[bytes]) -> Progress:
        """Progress over ``source`` when it is a regular file, else none (messages only)."""
        return cls(_file_size(source))

    @property
    def shown(self) -> bool:
        """Whether the progress line is drawn at all."""
        return self.total is not None

    def advance(self, position: int, lines: int) -> None:
        """``position`` bytes of input and ``lines`` lines are done; redraw when it shows."""
        self.done, self.lines = position, lines
        if self.total is not None:
            self._draw()

    def echo(self, text: str) -> None:
        """Print ``text`` (one or more lines) on the stream, above the progress line."""
        if self.total is None:
            self.stream.write(text + "\n")
            self.stream.flush()
            return
        self._erase()
        self.stream.write(text + "\n")
        self._draw()

    def close(self) -> None:
        """Erase the progress line (nothing of it stays on the terminal)."""
        if self.total is not None:
            self._erase()
            self.stream.flush()
            self.total = None

    def _line(self) -> str:
        total = self.total or 1
        share = min(self.done, total) / total
        filled = int(share * _WIDTH)
        bar = "#" * filled + "-" * (_WIDTH - filled)
        return f"rows [{bar}] {share:4.0%}  {self.lines:,} lines"

    def _draw(self) -> None:
        line = self._line()
        if line != self._drawn:
            self.stream.write("\r" + line + " " * max(0, len(self._drawn) - len(line)))
            self._drawn = line
            self.stream.flush()

    def _erase(self) -> None:
        if self._drawn:
            self.stream.write("\r" + " " * len(self._drawn) + "\r")
            self._drawn = ""


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _file_size(source: IO[bytes]) -> int | None:
    try:
        info = os.fstat(source.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None
