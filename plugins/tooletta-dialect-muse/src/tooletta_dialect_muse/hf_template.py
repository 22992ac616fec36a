"""The ``response_template`` export of ``muse`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import NAMED, TEXT_RAW, Export, region

__all__ = ["MUSE"]

MUSE = Export(
    {
        "defaults": {"role": "assistant"},
        "start_anchor": "<|start|>assistant",
        "fields": {
            "reasoning_content": {
                "open_pattern": r"\s*(?:<\|start\|>assistant)?\s*to=self<\|message\|>",
                "close_pattern": r"<\|eom\|>\s*|<\|eot\|>\s*|(?=<\|start\|>)",
                "content": "text",
            },
            "tool_calls": region(
                r"\s*(?:(?:<\|start\|>assistant)?\s*to=[^<]*<\|message\|>)?\s*"
                r"(?:<atem:function_calls>)?\s*<atem:invoke name=\"(?P<name>[^\"]+)\">",
                r"\s*</atem:invoke>\s*(?:</atem:function_calls>\s*)?(?:<\|eom\|>\s*|<\|eot\|>\s*)?",
                content="xml-inline",
                content_args={
                    "tag_pattern": (
                        r"<atem:parameter name=\"(?P<key>[^\"]+)\">(?P<value>.*?)"
                        r"</atem:parameter>"
                    ),
                    "value_parser": TEXT_RAW,
                },
                transform=NAMED,
            ),
            "content": {
                "open_pattern": r"\s*(?:<\|start\|>assistant)?\s*to=user<\|message\|>",
                "close_pattern": r"<\|eom\|>\s*|<\|eot\|>\s*|(?=<\|start\|>)",
                "content": "text",
            },
        },
    },
    note="text outside the channels is dropped",
)
