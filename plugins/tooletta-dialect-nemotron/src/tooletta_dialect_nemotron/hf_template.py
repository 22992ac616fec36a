"""The ``response_template`` export of ``nemotron`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import EACH, Export, template, think

__all__ = ["NEMOTRON"]

NEMOTRON = Export(
    template(
        "<SPECIAL_11>Assistant\n",
        {
            "open_pattern": r"\s*<TOOLCALL>(?=\s*\[)",
            "close_pattern": r"\s*</TOOLCALL>\s*",
            "content": "json",
            "transform": EACH,
            "transform_each": True,
        },
        ends=("<SPECIAL_12>", "<|eot_id|>"),
        reasoning=think(),
    )
)
