"""The ``response_template`` export of ``inkling`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export, message, region

__all__ = ["INKLING"]

INKLING = Export(
    message(
        "<|message_model|>",
        {
            "reasoning_content": {
                "open": "<|message_model|><|content_thinking|>",
                "close_pattern": r"<\|end_message\|>\s*",
                "content": "text",
                "repeats": True,
                "join": "\n\n",
            },
            "tool_calls": region(
                r"\s*(?:<\|message_model\|>[^<]*)?<\|content_invoke_tool_json\|>",
                r"\s*<\|end_message\|>\s*",
                content="json",
                transform={
                    "type": "function",
                    "function": {"name": "{content.name}", "arguments": "{content.args}"},
                },
            ),
            "content": {
                "open": "<|message_model|><|content_text|>",
                "close_pattern": r"<\|end_message\|>\s*",
                "content": "text",
                "repeats": True,
                "join": "\n\n",
            },
        },
    ),
    note="text outside the messages is dropped; a tool's arguments are under 'args'",
)
