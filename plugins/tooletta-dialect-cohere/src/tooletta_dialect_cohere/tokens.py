"""The Cohere special tokens and markers the dialect and its chat formats write."""

from __future__ import annotations

__all__ = [
    "ACTION",
    "ACTION_END",
    "COMMAND_R_OPENS",
    "END_OF_TURN",
    "FENCE",
    "RESPONSE",
    "RESPONSE_END",
    "TEXT",
    "TEXT_END",
    "THINKING",
    "THINKING_END",
]

ACTION = "<|START_ACTION|>"
ACTION_END = "<|END_ACTION|>"
THINKING = "<|START_THINKING|>"
THINKING_END = "<|END_THINKING|>"
RESPONSE = "<|START_RESPONSE|>"
RESPONSE_END = "<|END_RESPONSE|>"
TEXT = "<|START_TEXT|>"
TEXT_END = "<|END_TEXT|>"
END_OF_TURN = "<|END_OF_TURN_TOKEN|>"
COMMAND_R_OPENS = ("Action: ```json", "Action:\n```json", "Action:```json")
"""The openers of Command R's ``Action:`` list."""
FENCE = "```"
