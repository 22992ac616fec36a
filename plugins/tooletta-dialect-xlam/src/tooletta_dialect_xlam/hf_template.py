"""The ``response_template`` export of ``xlam`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import EACH, Export, template, think

__all__ = ["XLAM"]

XLAM = Export(
    template(
        "<|start_header_id|>assistant<|end_header_id|>\n\n",
        {
            "open_pattern": r"\s*(?:<tool_call>|\[TOOL_CALLS\]|```(?:json)?)?\s*(?=\[\s*\{)",
            "close_pattern": r"\s*</tool_call>\s*|\s*```\s*|(?=<\|eot_id\|>|<\|im_end\|>)|\Z",
            "content": "json",
            "transform": EACH,
            "transform_each": True,
        },
        ends=("<|eot_id|>", "<|im_end|>"),
        reasoning=think(),
    )
)
