"""The Granite dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import EACH, FUNCTION, Export, region, template

__all__ = ["GRANITE", "GRANITE_20B_FC"]

GRANITE = Export(
    template(
        "<|start_of_role|>assistant<|end_of_role|>",
        {
            "open_pattern": r"\s*(?:<\|tool_call\|>|<tool_call>)\s*(?=\[)",
            "close_pattern": r"\s*</tool_call>\s*|(?=<\|end_of_text\|>)|\Z",
            "content": "json",
            "transform": EACH,
            "transform_each": True,
        },
        ends=("<|end_of_text|>",),
    )
)

GRANITE_20B_FC = Export(
    template(
        "ASSISTANT:",
        region(
            r"\s*<function_call>\s*",
            r"\s*(?=<function_call>)|\s*<\|endoftext\|>\s*|\Z",
            content="json",
            transform=FUNCTION,
        ),
        ends=("<|endoftext|>",),
    )
)
