"""The ``response_template`` nemotron exports
(:func:`tooletta.interop.hf.to_response_template`), checked by tooletta's tests on the
dialect's golden fixtures through transformers' ``parse_response``."""

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
