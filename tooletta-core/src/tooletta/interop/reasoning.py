"""Where each shape keeps reasoning, and what writers do with reasoning they cannot sign.

The public home of ``tooletta.shapes.reasoning``, which holds the code below the
conversation layer (:mod:`tooletta.chat` reads these shapes without importing interop)."""

from __future__ import annotations

from ..shapes.reasoning import (
    ITEM_IDS,
    REASONING_ITEMS,
    REASONING_POLICIES,
    RESPONSES_ONLY,
    THINKING_BLOCKS,
    ReasoningPolicy,
    check_policy,
    join_texts,
)

__all__ = [
    "ITEM_IDS",
    "REASONING_ITEMS",
    "REASONING_POLICIES",
    "RESPONSES_ONLY",
    "THINKING_BLOCKS",
    "ReasoningPolicy",
    "check_policy",
    "join_texts",
]
