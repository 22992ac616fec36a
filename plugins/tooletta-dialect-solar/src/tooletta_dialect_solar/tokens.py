"""The special tokens of Solar Open 100B's template (each a single token of its tokenizer)."""

from __future__ import annotations

CALLS = "<|tool_calls|>"
CALLS_END = "<|calls|>"
CALL_BEGIN = "<|tool_call:begin|>"
NAME = "<|tool_call:name|>"
ARGS = "<|tool_call:args|>"
CALL_END = "<|tool_call:end|>"
THINK = "<|think|>"
CONTENT = "<|content|>"
END = "<|end|>"
BEGIN = "<|begin|>"
ASSISTANT = BEGIN + "assistant"
"""The assistant header (and the generation prompt)."""
