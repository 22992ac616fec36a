"""The ``response_template`` exports of ``nemotron`` and its Super v1.5 variant
(:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from typing import Any

from tooletta.interop.hf.spec import EACH, Export, template, think

__all__ = ["LLAMA_NEMOTRON_SUPER_V15", "NEMOTRON"]

_CALLS: dict[str, Any] = {
    "open_pattern": r"\s*<TOOLCALL>(?=\s*\[)",
    "close_pattern": r"\s*</TOOLCALL>\s*",
    "content": "json",
    "transform": EACH,
    "transform_each": True,
}

NEMOTRON = Export(
    template(
        "<SPECIAL_11>Assistant\n",
        dict(_CALLS),
        ends=("<SPECIAL_12>", "<|eot_id|>"),
        reasoning=think(),
    )
)
LLAMA_NEMOTRON_SUPER_V15 = Export(
    template(
        "<|start_header_id|>assistant<|end_header_id|>\n\n",
        dict(_CALLS),
        ends=("<|eot_id|>",),
        reasoning=think(),
    )
)
"""Super v1.5's assistant turn (Llama 3 header, ``<|eot_id|>``): the same calls, the block
right after the content (the pattern takes any whitespace before it)."""
