"""The ``response_template`` export of ``muse`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export, message, tagged

__all__ = ["MUSE"]

MUSE = Export(
    message(
        "<|start|>assistant",
        {
            "reasoning_content": {
                "open_pattern": r"\s*(?:<\|start\|>assistant)?\s*to=self<\|message\|>",
                "close_pattern": r"<\|eom\|>\s*|<\|eot\|>\s*|(?=<\|start\|>)",
                "content": "text",
            },
            "tool_calls": tagged(
                r"\s*(?:(?:<\|start\|>assistant)?\s*to=[^<]*<\|message\|>)?\s*"
                r"(?:<atem:function_calls>)?\s*<atem:invoke name=\"(?P<name>[^\"]+)\">",
                r"\s*</atem:invoke>\s*(?:</atem:function_calls>\s*)?(?:<\|eom\|>\s*|<\|eot\|>\s*)?",
                r"<atem:parameter name=\"(?P<key>[^\"]+)\">(?P<value>.*?)</atem:parameter>",
            ),
            "content": {
                "open_pattern": r"\s*(?:<\|start\|>assistant)?\s*to=user<\|message\|>",
                "close_pattern": r"<\|eom\|>\s*|<\|eot\|>\s*|(?=<\|start\|>)",
                "content": "text",
            },
        },
    ),
    note="text outside the channels is dropped",
)
