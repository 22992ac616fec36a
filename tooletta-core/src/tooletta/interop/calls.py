"""One tool call in each ecosystem's shape, both ways.

The public home of ``tooletta.shapes.calls``, which holds the code below the
conversation layer (:mod:`tooletta.chat` reads these shapes without importing interop)."""

from __future__ import annotations

from ..shapes.calls import (
    from_anthropic_tool_use,
    from_hf_tool_call,
    from_openai_function_call,
    from_openai_tool_call,
    from_responses_function_call,
    from_tinker_tool_call,
    read_tool_call,
    to_anthropic_tool_use,
    to_hf_tool_call,
    to_openai_function_call,
    to_openai_tool_call,
    to_responses_function_call,
    to_tinker_tool_call,
)

__all__ = [
    "from_anthropic_tool_use",
    "from_hf_tool_call",
    "from_openai_function_call",
    "from_openai_tool_call",
    "from_responses_function_call",
    "from_tinker_tool_call",
    "read_tool_call",
    "to_anthropic_tool_use",
    "to_hf_tool_call",
    "to_openai_function_call",
    "to_openai_tool_call",
    "to_responses_function_call",
    "to_tinker_tool_call",
]
