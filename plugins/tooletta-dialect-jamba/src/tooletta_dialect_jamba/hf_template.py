"""The Jamba dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import EACH, Export, template

__all__ = ["APRIEL", "JAMBA"]

_JAMBA = template(
    "<|start_of_role|>assistant<|end_of_role|>",
    {
        "open_pattern": r"\s*<tool_calls>",
        "close_pattern": r"\s*</tool_calls>\s*",
        "content": "json",
        "transform": EACH,
        "transform_each": True,
    },
    ends=("<|eos|>", "<|end|>"),
    reasoning={
        "open_pattern": "<think(?:ing)?>",
        "close_pattern": r"</think(?:ing)?>\s*",
        "content": "text",
    },
)

JAMBA = Export(_JAMBA)
APRIEL = Export(_JAMBA)
"""The jamba template: a line break before <tool_calls> reads the same."""
