"""The tokenizer adapter: one per tokenizer object, special tokens checked once, pieces
encoded one by one below ``BATCH_FROM`` and batched from there on."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooletta import Message
from tooletta.training import TokenizerAdapter, TokenizerError, tokenize_conversation
from tooletta.training.tokenizer import BATCH_FROM, adapter_for


class _Encoding:
    def __init__(self, ids: list[int]) -> None:
        self.ids = ids


class CountingTokenizer:
    """A character tokenizer in the shape of ``tokenizers.Tokenizer`` (special tokens of the
    Qwen3 format are one id each) that counts its calls."""

    SPECIAL: tuple[str, ...] = (
        "<|im_start|>",
        "<|im_end|>",
        "<think>",
        "</think>",
        "<tool_call>",
        "</tool_call>",
        "<tool_response>",
        "</tool_response>",
    )

    def __init__(self) -> None:
        self.encoded: list[str] = []
        self.batches = 0

    def _ids(self, text: str) -> list[int]:
        ids, pos = [], 0
        while pos < len(text):
            for number, token in enumerate(self.SPECIAL):
                if text.startswith(token, pos):
                    ids.append(100_000 + number)
                    pos += len(token)
                    break
            else:
                ids.append(ord(text[pos]))
                pos += 1
        return ids

    def encode(self, text: str, add_special_tokens: bool = False) -> _Encoding:
        self.encoded.append(text)
        return _Encoding(self._ids(text))

    def encode_batch(self, texts: list[str], add_special_tokens: bool = False) -> list[_Encoding]:
        self.batches += 1
        return [_Encoding(self._ids(t)) for t in texts]

    def decode(self, ids: list[int], skip_special_tokens: bool = False) -> str:
        return "".join(self.SPECIAL[i - 100_000] if i >= 100_000 else chr(i) for i in ids)


CONVERSATION = [
    Message("user", "Hi"),
    Message("assistant", "Hello."),
    Message("user", "Bye"),
    Message("assistant", "Bye."),
]


def test_one_adapter_per_tokenizer_object() -> None:
    tok = CountingTokenizer()
    assert adapter_for(tok) is adapter_for(tok)
    assert adapter_for(tok) is not adapter_for(CountingTokenizer())
    adapter = TokenizerAdapter(tok)
    assert adapter_for(adapter) is adapter


def test_special_tokens_are_checked_once_across_conversations() -> None:
    tok = CountingTokenizer()
    tokenize_conversation(CONVERSATION, tok, dialect="qwen3")
    checks = [t for t in tok.encoded if t in CountingTokenizer.SPECIAL]
    assert checks  # the first conversation checks each special token
    tok.encoded.clear()
    example = tokenize_conversation(CONVERSATION, tok, dialect="qwen3")
    assert not [t for t in tok.encoded if t in CountingTokenizer.SPECIAL]
    assert tok.decode(example.input_ids) == example.text


def test_a_tokenizer_that_cannot_be_weakly_referenced_still_works() -> None:
    class Unhashable(CountingTokenizer):
        __hash__ = None  # type: ignore[assignment]

    tok = Unhashable()
    assert adapter_for(tok) is not adapter_for(tok)
    example = tokenize_conversation(CONVERSATION, tok, dialect="qwen3")
    assert tok.decode(example.input_ids) == example.text


def test_a_special_token_that_is_not_one_id_is_refused_every_time() -> None:
    class NoSpecials(CountingTokenizer):
        SPECIAL = ()

    tok = NoSpecials()
    for _ in range(2):
        with pytest.raises(TokenizerError):
            tokenize_conversation(CONVERSATION, tok, dialect="qwen3")


@pytest.mark.parametrize("count", [1, BATCH_FROM - 1, BATCH_FROM, BATCH_FROM + 5])
def test_pieces_are_batched_only_from_batch_from_on(count: int) -> None:
    tok = CountingTokenizer()
    texts: list[Any] = [f"piece {i}<|im_end|>" for i in range(count)]
    out = TokenizerAdapter(tok).encode_many(texts)
    assert out == [tok._ids(t) for t in texts]
    assert tok.batches == (1 if count >= BATCH_FROM else 0)
    assert len(tok.encoded) == (0 if count >= BATCH_FROM else count)


# -- encode_pieces: one encode_batch_fast call, the ids of encoding each piece on its own --

PIECE_ALPHABET = ["a", "b", " ", "  ", "\n", "\n\n", "é", "日本", "1", "<|im_end|>", "<|im_start|>"]


def _real_tokenizers() -> list[Any]:
    """A byte-level BPE (the fixtures') and a Metaspace BPE whose pre-tokenizer treats a
    text's start apart (``prepend_scheme="first"``, as SentencePiece conversions do)."""
    pytest.importorskip("tokenizers")
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    from tooletta.testing.training import bpe_tokenizer

    corpus = ["ab ba  a\n\nb é日本 1 ab\nab " * 4, "<|im_start|>user\nab<|im_end|>\n"]
    byte_level = bpe_tokenizer(corpus, ["<|im_start|>", "<|im_end|>"])
    meta = Tokenizer(models.BPE(unk_token="<unk>"))
    meta.normalizer = normalizers.NFKC()
    meta.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="first")
    trainer = trainers.BpeTrainer(vocab_size=200, special_tokens=["<unk>"], show_progress=False)
    meta.train_from_iterator(corpus, trainer=trainer)
    meta.add_special_tokens(["<|im_start|>", "<|im_end|>"])
    return [byte_level, meta]


REAL = _real_tokenizers()


@given(
    pieces=st.lists(
        st.lists(st.sampled_from(PIECE_ALPHABET), min_size=1, max_size=8).map("".join),
        min_size=1,
        max_size=10,
    )
)
@settings(max_examples=150, deadline=None)
def test_encode_pieces_equals_encoding_each_piece(pieces: list[str]) -> None:
    for tok in REAL:
        adapter = TokenizerAdapter(tok)
        assert adapter._fast() is not None
        each = [tok.encode(p, add_special_tokens=False).ids for p in pieces]
        ids, sizes = adapter.encode_pieces(pieces)
        assert sizes == [len(e) for e in each]
        assert ids == [i for e in each for i in e]


def test_a_truncating_tokenizer_encodes_each_piece_as_before() -> None:
    from tooletta.testing.training import bpe_tokenizer

    tok = bpe_tokenizer(["ab ba ab ba"], ["<|im_end|>"])
    tok.enable_truncation(max_length=3)
    adapter = TokenizerAdapter(tok)
    assert adapter._fast() is None
    pieces = ["ab ba ab ba", "<|im_end|>", "ba ab ba ab"]
    each = adapter.encode_many(pieces)
    assert adapter.encode_pieces(pieces) == ([i for e in each for i in e], [len(e) for e in each])
    assert all(len(e) <= 3 for e in each)


def test_a_tokenizer_in_the_shape_of_tokenizers_is_not_asked_for_encode_batch_fast() -> None:
    tok = CountingTokenizer()
    adapter = TokenizerAdapter(tok)
    assert adapter._fast() is None  # not a tokenizers.Tokenizer
    assert adapter.encode_pieces(["ab", "<|im_end|>"]) == ([97, 98, 100_001], [2, 1])
