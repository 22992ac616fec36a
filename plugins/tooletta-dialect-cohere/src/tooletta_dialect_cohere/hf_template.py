"""The Cohere dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export, template, think

__all__ = ["COHERE", "COMMAND_R_PLUS"]

_CHATBOT = "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>"

COHERE = Export(
    template(
        _CHATBOT,
        {
            "open": "<|START_ACTION|>",
            "close_pattern": r"\s*<\|END_ACTION\|>\s*",
            "content": "json",
            "transform": {
                "type": "function",
                "id": "{tool_call_id}",
                "function": {"name": "{tool_name}", "arguments": "{parameters}"},
            },
            "transform_each": True,
        },
        ends=("<|END_RESPONSE|>", "<|END_TEXT|>", "<|END_OF_TURN_TOKEN|>"),
        reasoning=think("<|START_THINKING|>", "<|END_THINKING|>"),
        extra={
            "markup": {
                "open_pattern": r"<\|START_(?:RESPONSE|TEXT)\|>",
                "close_pattern": "",
                "content": "text",
            }
        },
    ),
    note="Command A's action list; Command R's 'Action: ```json' form is not read",
)

COMMAND_R_PLUS = Export(
    template(
        _CHATBOT,
        {
            "open_pattern": r"\s*Action:\s*```json\s*",
            "close_pattern": r"\s*```\s*",
            "content": "json",
            "transform": {
                "type": "function",
                "function": {"name": "{tool_name}", "arguments": "{parameters}"},
            },
            "transform_each": True,
        },
        ends=("<|END_OF_TURN_TOKEN|>",),
    ),
    note="Command R+'s 'Action: ```json' list only (no action blocks)",
)
