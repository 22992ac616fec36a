"""The Solar dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import NAMED_ID, Export, kv_tags, region, template, think

__all__ = ["SOLAR_OPEN", "SOLAR_OPEN2"]

SOLAR_OPEN2 = Export(
    template(
        "<|begin|>assistant",
        kv_tags(
            r"\s*<\|tool_call:start\|>\s*(?P<name>[^\s<]+)\s*",
            r"\s*<\|tool_call:end\|>\s*",
            r"<\|tool_arg:start\|>",
            r"<\|tool_arg:value\|>",
            r"<\|tool_arg:end\|>",
        ),
        ends=("<|im:end|>", "<|endoftext|>"),
        reasoning=think("<|think:start|>", "<|think:end|>"),
    )
)

SOLAR_OPEN = Export(
    template(
        "<|begin|>assistant",
        region(
            r"\s*(?:<\|begin\|>assistant)?(?:<\|tool_calls\|>)?\s*<\|tool_call:begin\|>"
            r"(?P<id>[^<]*)<\|tool_call:name\|>(?P<name>[^<]+?)<\|tool_call:args\|>",
            r"\s*<\|tool_call:end\|>\s*(?:<\|calls\|>\s*)?",
            content="json",
            transform=NAMED_ID,
        ),
        ends=("<|end|>",),
        reasoning={
            "open": "<|think|>",
            "close_pattern": r"<\|end\|>\s*(?:<\|begin\|>assistant)?",
            "content": "text",
        },
    ),
    note="<|content|> before a reply stays in the content",
)
