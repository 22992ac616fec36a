"""The ``response_template`` export of ``internlm`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export, chatml, region

__all__ = ["INTERNLM"]

INTERNLM = Export(
    chatml(
        region(
            r"\s*<\|action_start\|>\s*<\|plugin\|>\s*",
            r"\s*<\|action_end\|>\s*",
            content="json",
            transform={
                "type": "function",
                "function": {"name": "{content.name}", "arguments": "{content.parameters}"},
            },
        ),
        reasoning=False,
    ),
    note="InternLM2's 'parameters' key (the model's own output), not 'arguments'",
)
