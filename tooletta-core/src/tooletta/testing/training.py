"""Offline tokenizers for training tests: a small byte-level BPE trained on the fly.

No network and no hub: :func:`bpe_tokenizer` trains a byte-level BPE (the kind GPT-2, Llama 3,
Qwen and most current models use) on the texts given, then adds the chat format's special
tokens, each one id, as the model's own tokenizer has them. Needs the ``tokenizers`` package.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["bpe_tokenizer"]


def bpe_tokenizer(
    texts: Iterable[str], special_tokens: Iterable[str] = (), vocab_size: int = 600
) -> Any:
    """A ``tokenizers.Tokenizer``: byte-level BPE trained on ``texts`` (so it merges what
    they repeat), with ``special_tokens`` added as single special ids."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(list(texts), trainer=trainer)
    tokenizer.add_special_tokens(list(dict.fromkeys(special_tokens)))
    return tokenizer
