"""The ``response_template`` export of ``harmony`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import NAMED, Export, message, region

__all__ = ["HARMONY"]

HARMONY = Export(
    message(
        "<|start|>assistant",
        {
            "reasoning_content": {
                "open_pattern": r"\s*(?:<\|start\|>assistant)?<\|channel\|>analysis<\|message\|>",
                "close_pattern": r"<\|end\|>\s*|(?=<\|start\|>)",
                "content": "text",
            },
            "tool_calls": region(
                r"\s*(?:<\|start\|>assistant)?\s*(?:"
                r"<\|channel\|>(?:commentary|analysis) to=(?:functions\.)?(?P<name>[^\s<]+)"
                r"|to=(?:functions\.)?(?P<name>[^\s<]+)\s*<\|channel\|>(?:commentary|analysis))"
                r"\s*(?:<\|constrain\|>)?\s*(?:json)?<\|message\|>",
                r"<\|call\|>\s*|(?=<\|start\|>)|\Z",
                content="json",
                transform=NAMED,
            ),
            "content": {
                "open_pattern": (
                    r"\s*(?:<\|start\|>assistant)?<\|channel\|>(?:final|commentary)<\|message\|>"
                ),
                "close_pattern": r"<\|return\|>\s*|<\|end\|>\s*|(?=<\|start\|>)",
                "content": "text",
                "repeats": True,
                "join": "\n\n",
            },
        },
    ),
    note="text outside the channels is dropped (the template has no leftover field)",
)
