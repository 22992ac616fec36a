"""Training data: token ids and loss weights for any conversation in any model's format.

>>> from tooletta.training import tokenize_conversation  # doctest: +SKIP
>>> example = tokenize_conversation(messages, tokenizer, model="Qwen/Qwen3-8B")  # doctest: +SKIP
>>> example.input_ids, example.weights  # doctest: +SKIP

The tokenizer is duck-typed (a ``tokenizers.Tokenizer`` or a transformers tokenizer): core
gains no dependency. See :mod:`tooletta.training.tokenize` for how the ids are cut.
"""

from __future__ import annotations

from .datasets import TokenizeRows, load_tokenizer
from .tokenize import (
    TokenizedConversation,
    extension_holds,
    tokenize_conversation,
    tokenize_rendered,
    whole_text_agrees,
)
from .tokenizer import TokenizerAdapter, TokenizerError

__all__ = [
    "TokenizeRows",
    "TokenizedConversation",
    "TokenizerAdapter",
    "TokenizerError",
    "extension_holds",
    "load_tokenizer",
    "tokenize_conversation",
    "tokenize_rendered",
    "whole_text_agrees",
]
