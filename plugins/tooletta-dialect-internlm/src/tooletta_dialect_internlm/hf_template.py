"""The ``response_template`` internlm exports
(:func:`tooletta.interop.hf.to_response_template`), checked by tooletta's tests on the
dialect's golden fixtures through transformers' ``parse_response``."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export, region, template

__all__ = ["INTERNLM"]

INTERNLM = Export(
    template(
        "<|im_start|>assistant\n",
        region(
            r"\s*<\|action_start\|>\s*<\|plugin\|>\s*",
            r"\s*<\|action_end\|>\s*",
            content="json",
            transform={
                "type": "function",
                "function": {"name": "{content.name}", "arguments": "{content.parameters}"},
            },
        ),
        ends=("<|im_end|>",),
    ),
    note="InternLM2's 'parameters' key (the model's own output), not 'arguments'",
)
