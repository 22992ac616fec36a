"""DeepSeek's special tokens, shared by the tool-call dialects and the chat formats.

Every token is ASCII ``<`` and ``>`` around U+FF5C FULLWIDTH VERTICAL LINE (``｜``) and words
joined by U+2581 LOWER ONE EIGHTH BLOCK (``▁``), as in the model's tokenizer.
"""

from __future__ import annotations

__all__ = [
    "ASSISTANT",
    "BOS",
    "CALLS_BEGIN",
    "CALLS_END",
    "CALL_BEGIN",
    "CALL_END",
    "EOS",
    "OUTPUTS_BEGIN",
    "OUTPUTS_END",
    "OUTPUT_BEGIN",
    "OUTPUT_END",
    "SEP",
    "USER",
]

BOS = "<｜begin▁of▁sentence｜>"
EOS = "<｜end▁of▁sentence｜>"
USER = "<｜User｜>"
ASSISTANT = "<｜Assistant｜>"
CALLS_BEGIN = "<｜tool▁calls▁begin｜>"
CALLS_END = "<｜tool▁calls▁end｜>"
CALL_BEGIN = "<｜tool▁call▁begin｜>"
CALL_END = "<｜tool▁call▁end｜>"
SEP = "<｜tool▁sep｜>"
OUTPUTS_BEGIN = "<｜tool▁outputs▁begin｜>"
OUTPUTS_END = "<｜tool▁outputs▁end｜>"
OUTPUT_BEGIN = "<｜tool▁output▁begin｜>"
OUTPUT_END = "<｜tool▁output▁end｜>"
