"""A template switch the caller misspelled is said, not silently ignored.

``render_conversation(..., **options)`` passes the switches a template reads and ignores the
others (the same call serves every model, and a template reads only its own). A name that is
not one of the format's switches but is close to one (``enable_thinkin`` for
``enable_thinking``) is almost surely a typo that would render the default silently: it is
reported once per format and name with a :class:`~tooletta.ToolettaWarning`.
"""

from __future__ import annotations

import difflib
import warnings
from collections.abc import Mapping
from typing import Any

from ..errors import ToolettaWarning
from .format import ChatFormat

__all__ = ["COMMON_SWITCHES", "warn_misspelled"]

COMMON_SWITCHES = frozenset(
    {"strftime_now", "date_string", "enable_thinking", "reasoning_effort", "tools_in_user_message"}
)
"""Switches callers pass to every model (Hugging Face's ``apply_chat_template`` keywords and
the best-known template variables): never reported when a format does not read them."""

_SAID: set[tuple[str, str]] = set()


def warn_misspelled(fmt: ChatFormat, options: Mapping[str, Any], stacklevel: int = 4) -> None:
    """Warn for each name in ``options`` that is neither a switch of ``fmt`` nor a common one
    but is close to a switch of ``fmt`` (once per format and name)."""
    known = fmt.options
    for name in options:
        if name in known or name in COMMON_SWITCHES or (fmt.name, name) in _SAID:
            continue
        close = difflib.get_close_matches(name, [*known, *COMMON_SWITCHES], n=1, cutoff=0.8)
        _SAID.add((fmt.name, name))
        if close:
            warnings.warn(
                f"{name!r} is not a switch of the {fmt.name} template (ignored); "
                f"did you mean {close[0]!r}?",
                ToolettaWarning,
                stacklevel=stacklevel,
            )
