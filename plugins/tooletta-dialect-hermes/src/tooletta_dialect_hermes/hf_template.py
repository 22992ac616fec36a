"""The ``response_template`` hermes exports (:func:`tooletta.interop.hf.to_response_template`),
checked by tooletta's tests on the dialect's golden fixtures through transformers'
``parse_response``."""

from __future__ import annotations

from tooletta.interop.hf.spec import FUNCTION, Export, region, template, think

__all__ = ["HERMES"]

HERMES = Export(
    template(
        "<|im_start|>assistant\n",
        region(r"\s*<tool_call>", r"</tool_call>\s*", content="json", transform=FUNCTION),
        ends=("<|im_end|>",),
        reasoning=think(),
    )
)
