"""The ``response_template`` export of ``phi4_mini`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import EACH, Export, template

__all__ = ["PHI4_MINI"]

PHI4_MINI = Export(
    template(
        "<|assistant|>",
        {
            "open_pattern": r"\s*functools(?=\[)",
            "close_pattern": r"\s*(?=<\|end\|>|<\|eot_id\|>)|\Z",
            "content": "json",
            "transform": EACH,
            "transform_each": True,
        },
        ends=("<|end|>", "<|eot_id|>"),
    ),
    note="a call's arguments must be under 'arguments'",
)
