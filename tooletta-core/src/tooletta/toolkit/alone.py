"""A mark a dialect's ``render`` override carries when, given no calls, it writes the content
as it is after its ``check_content`` (as :meth:`tooletta.ScannerDialect.render` does): the
conversation renderer then writes an answer without calls without asking the dialect
(:mod:`tooletta.chat.shortcuts`)."""

from __future__ import annotations

from typing import TypeVar

__all__ = ["MARK", "content_alone"]

MARK = "tooletta_content_alone"
"""The attribute :func:`content_alone` sets on the function."""

_F = TypeVar("_F")


def content_alone(render: _F) -> _F:
    """Mark ``render`` (a dialect's ``render(calls, content="")``) as writing, for no calls,
    ``content`` unchanged once ``self.check_content(content)`` has passed, and doing nothing
    else then. A subclass that overrides ``render`` again is not marked by it."""
    setattr(render, MARK, True)
    return render
