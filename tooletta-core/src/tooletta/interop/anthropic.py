"""Anthropic Messages: ``tool_use`` blocks in assistant turns, ``tool_result`` blocks in user
turns, the system prompt as a top-level parameter (ECOSYSTEM.md §6), and reasoning as
``thinking`` / ``redacted_thinking`` blocks (:mod:`~tooletta.interop.reasoning`).

The public home of ``tooletta.shapes.anthropic``, which holds the code below the
conversation layer (:mod:`tooletta.chat` reads these shapes without importing interop)."""

from __future__ import annotations

from ..shapes.anthropic import *  # noqa: F403 (this module is their public home)
from ..shapes.anthropic import __all__ as __all__
