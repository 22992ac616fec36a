"""Tool definitions in each ecosystem's shape.

The public home of ``tooletta.shapes.tools``, which holds the code below the
conversation layer (:mod:`tooletta.chat` reads these shapes without importing interop)."""

from __future__ import annotations

from ..shapes.tools import (
    ToolSpec,
    read_tools,
    to_anthropic_tools,
    to_openai_tools,
    to_responses_tools,
    to_tinker_tools,
)

__all__ = [
    "ToolSpec",
    "read_tools",
    "to_anthropic_tools",
    "to_openai_tools",
    "to_responses_tools",
    "to_tinker_tools",
]
