"""What is proved once per dialect object about how it writes an assistant turn without
calls, so that the conversation renderer writes such a turn without asking the dialect.

:meth:`tooletta.chat.ChatFormat.calls_text` given no calls is ``dialect.render([],
content=content)``. For :meth:`tooletta.ScannerDialect.render` (and overrides marked with
:func:`tooletta.toolkit.rendermark.plain_render`, or, for answers without calls only,
:func:`~tooletta.toolkit.rendermark.plain_render_without_calls`) that is ``content`` once the
dialect's ``check_content(content)`` has passed (it refuses content holding the dialect's markers);
for a learned format's writers the same holds by their definitions
(:mod:`tooletta.chat.learn.dialects`). Any other dialect is asked, as before.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from ..dialect import ScannerDialect
from ..toolkit.rendermark import MARK, NO_CALLS_MARK

__all__ = [
    "LAST",
    "PLAIN_MARK",
    "UNPROVED",
    "plain_without_calls",
    "renders_as_scanner",
    "without_calls",
]

Check = Callable[[str], Any]

UNPROVED: Any = object()
"""What :func:`without_calls` gives for a dialect whose ``render`` must be asked."""

_KNOWN: dict[int, tuple[Any, Any]] = {}
LAST: list[tuple[Any, Any]] = [(None, UNPROVED)]
"""The dialect :func:`without_calls` was last asked about, with its answer, as one tuple: a
caller reads ``LAST[0]`` and, when its dialect is that one, has the answer without a call."""


def without_calls(dialect: Any) -> Check | None:
    """The check ``dialect`` makes of an answer's content when it writes no calls, its text
    being the content unchanged (``None``: it checks nothing); :data:`UNPROVED` when that is
    not known of ``dialect`` (its ``render`` must be asked). Found once per dialect object."""
    last = LAST[0]
    if last[0] is dialect:
        return last[1]  # type: ignore[no-any-return]
    known = _KNOWN.get(id(dialect))
    if known is None or known[0] is not dialect:
        known = (dialect, _prove(dialect, 0))
        if len(_KNOWN) > 256:
            _KNOWN.clear()
        _KNOWN[id(dialect)] = known
    LAST[0] = known  # one tuple: a thread reads the dialect and its check together
    return known[1]  # type: ignore[no-any-return]


def _prove(dialect: Any, depth: int) -> Any:
    kind = type(dialect)
    learned = sys.modules.get("tooletta.chat.learn.dialects")  # not imported: none is learned
    if learned is not None:
        if kind is learned.NoCalls:
            return None  # render: the content, calls refused
        if kind is learned.InstalledCalls:  # no calls: str(inner.render([], content=content))
            return _prove(dialect.inner, depth + 1) if depth < 4 else UNPROVED
        if kind is learned.JsonCalls and "render" not in vars(dialect):
            return dialect.check_content  # render: checked, then content (+ lead and calls)
    if not renders_as_scanner(dialect) and not _plain_without_calls(dialect):
        return UNPROVED
    check: Check = dialect.check_content
    return check


def renders_as_scanner(dialect: Any) -> bool:
    """Whether ``dialect.render`` is :meth:`tooletta.ScannerDialect.render` (or an override
    marked with :func:`~tooletta.toolkit.rendermark.plain_render`), with its
    ``check_content`` and ``render_calls`` found on its class."""
    if not isinstance(dialect, ScannerDialect):
        return False
    own = vars(dialect)
    if "render" in own or "check_content" in own or "render_calls" in own:
        return False  # set on the object itself
    render = getattr(type(dialect), "render", None)
    return render is ScannerDialect.render or getattr(render, MARK, False) is True


def _plain_without_calls(dialect: Any) -> bool:
    """Whether ``dialect.render``, found on its class, is an override marked with
    :func:`~tooletta.toolkit.rendermark.plain_render_without_calls` (given no calls: what
    :meth:`tooletta.ScannerDialect.render` writes), with its ``check_content`` found on its
    class too."""
    if not isinstance(dialect, ScannerDialect):
        return False
    own = vars(dialect)
    if "render" in own or "check_content" in own:
        return False  # set on the object itself
    render = getattr(type(dialect), "render", None)
    return getattr(render, NO_CALLS_MARK, False) is True


PLAIN_MARK = "tooletta_plain_without_calls"
"""The attribute :func:`plain_without_calls` sets on the function."""


def plain_without_calls(calls_text: Any) -> Any:
    """Mark a :meth:`~tooletta.chat.ChatFormat.calls_text` override that, given no calls,
    returns what :class:`~tooletta.chat.ChatFormat`'s does (``dialect.render([],
    content=content)``)."""
    setattr(calls_text, PLAIN_MARK, True)
    return calls_text
