"""A mark for a dialect's ``render`` override written for speed only: it writes what
:meth:`tooletta.ScannerDialect.render` writes (``self.check_content(content)``, then the
content, then, with calls, ``content_separator`` when there is content and
``self.render_calls(calls)``) and does nothing else. The conversation renderer then writes an
answer without calls without asking the dialect, and a learned format's writer asks
``render_calls`` directly (:mod:`tooletta.chat.shortcuts`)."""

from __future__ import annotations

from typing import TypeVar

__all__ = ["MARK", "NO_CALLS_MARK", "plain_render", "plain_render_without_calls"]

MARK = "tooletta_plain_render"
"""The attribute :func:`plain_render` sets on the function."""

_F = TypeVar("_F")


def plain_render(render: _F) -> _F:
    """Mark ``render`` (a :class:`~tooletta.ScannerDialect` subclass's ``render(calls,
    content="")``) as writing what :meth:`tooletta.ScannerDialect.render` writes. A subclass
    that overrides ``render`` again is not marked by it."""
    setattr(render, MARK, True)
    return render


NO_CALLS_MARK = "tooletta_plain_render_without_calls"
"""The attribute :func:`plain_render_without_calls` sets on the function."""


def plain_render_without_calls(render: _F) -> _F:
    """Mark ``render`` (a :class:`~tooletta.ScannerDialect` subclass's ``render(calls,
    content="")``) as writing, given no calls, what :meth:`tooletta.ScannerDialect.render`
    writes: ``self.check_content(content)``, then ``content`` unchanged, and nothing else
    (its text or error with calls may differ). The conversation renderer then writes an answer
    without calls without asking the dialect; with calls it is asked. Narrower than
    :func:`plain_render`; a subclass that overrides ``render`` again is not marked by it."""
    setattr(render, NO_CALLS_MARK, True)
    return render
