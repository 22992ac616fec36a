"""OpenAI Responses API items: messages, ``reasoning``, ``function_call`` and
``function_call_output``.

The public home of ``tooletta.shapes.responses``, which holds the code below the
conversation layer (:mod:`tooletta.chat` reads these shapes without importing interop)."""

from __future__ import annotations

from ..shapes.responses import (
    add_responses_item,
    is_responses_item,
    read_responses_item,
    reasoning_item_text,
    responses_reasoning_items,
    write_responses,
)

__all__ = [
    "add_responses_item",
    "is_responses_item",
    "read_responses_item",
    "reasoning_item_text",
    "responses_reasoning_items",
    "write_responses",
]
