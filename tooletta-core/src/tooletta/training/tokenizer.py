"""One interface over the tokenizers users hold (duck-typed: core imports neither library).

Accepted: a ``tokenizers.Tokenizer`` (``encode(text, add_special_tokens=...)`` returns an
``Encoding`` with ``.ids``) and a transformers tokenizer (``encode(text,
add_special_tokens=...)`` returns a list of ids). Text is always encoded without the
tokenizer's own additions (no extra bos): the chat format writes its special tokens itself.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Sequence
from typing import Any

from ..errors import ToolettaError

__all__ = ["TokenizerAdapter", "TokenizerError", "adapter_for", "token_pattern"]


BATCH_FROM = 32
"""How many texts make ``tokenizers``' ``encode_batch`` worth its thread pool (measured: a
conversation's handful of pieces encodes ~10-30 % faster one by one, and does not wait for a
core another process holds)."""


def token_pattern(tokens: Sequence[str]) -> re.Pattern[str] | None:
    """A pattern matching any of ``tokens`` (the longest first); ``None`` for none."""
    words = sorted({t for t in tokens if t}, key=len, reverse=True)
    return re.compile("|".join(map(re.escape, words))) if words else None


_UNSET: Any = object()


def _is_tokenizers(tokenizer: Any) -> bool:
    """Whether ``tokenizer`` is a ``tokenizers.Tokenizer`` (by its module: core does not import
    the library)."""
    return type(tokenizer).__module__.split(".")[0] == "tokenizers"


class TokenizerError(ToolettaError):
    """The tokenizer cannot encode the format as it must be (e.g. a special token is not one id)."""


class TokenizerAdapter:
    """``encode(text) -> list[int]`` and ``decode(ids) -> str`` for either kind of tokenizer."""

    def __init__(self, tokenizer: Any) -> None:
        if not hasattr(tokenizer, "encode") or not hasattr(tokenizer, "decode"):
            raise TokenizerError(
                "tokenizer must be a tokenizers.Tokenizer or a transformers tokenizer "
                f"(with encode and decode), not {type(tokenizer).__name__}"
            )
        self.tokenizer = tokenizer
        self._single: dict[str, int] = {}
        self._specials: tuple[str, ...] | None = None
        self._plain: Any = None
        self._checked: set[tuple[str, ...]] = set()
        self._patterns: dict[tuple[str, ...], Any] = {}
        self._batch_fast: Any = _UNSET

    def encode(self, text: str) -> list[int]:
        """The ids of ``text``, special tokens written in it recognised, nothing added."""
        if not text:
            return []
        out = self.tokenizer.encode(text, add_special_tokens=False)
        ids = getattr(out, "ids", out)
        return list(ids)

    def encode_many(self, texts: Sequence[str]) -> list[list[int]]:
        """The ids of each of ``texts``: one batched call where the tokenizer has one (a list call
        of transformers; ``encode_batch`` of ``tokenizers`` from
        :data:`~tooletta.training.tokenizer.BATCH_FROM` texts on: below that its thread pool costs
        more than it saves, and waits for a busy core)."""
        if not texts:
            return []
        tok = self.tokenizer
        batch = getattr(tok, "encode_batch", None)
        if batch is not None and len(texts) < BATCH_FROM:  # a tokenizers.Tokenizer
            encode = tok.encode
            return [encode(t, add_special_tokens=False).ids if t else [] for t in texts]
        if batch is not None:
            return [list(e.ids) for e in batch(list(texts), add_special_tokens=False)]
        if callable(tok) and hasattr(tok, "batch_decode"):
            out = tok(list(texts), add_special_tokens=False)["input_ids"]
            return [list(ids) for ids in out]
        return [self.encode(t) for t in texts]

    def encode_pieces(self, texts: Sequence[str]) -> tuple[list[int], list[int]]:
        """The ids of ``texts`` encoded each on its own, concatenated, and how many ids each
        text gave: :meth:`encode_many`'s ids, in one call where the tokenizer allows it.

        A ``tokenizers.Tokenizer`` encodes each text with ``encode_batch_fast([text])``: through
        its added-token split, normaliser, pre-tokenizer and model, exactly as ``encode(text)``
        does, without the character offsets ``encode`` computes and nobody here reads (about a
        quarter of ``encode``'s CPU time on a conversation). One text per call: a batch of
        several is spread over the library's thread pool, whose hand-offs cost more CPU time
        than they save on a conversation's few pieces. Not when the tokenizer truncates or pads
        (``encode_many`` keeps its behaviour there)."""
        ids: list[int] = []
        sizes: list[int] = []
        fast = self._fast()
        if fast is not None:
            for text in texts:
                piece = fast([text], add_special_tokens=False)[0].ids
                ids += piece
                sizes.append(len(piece))
            return ids, sizes
        for piece in self.encode_many(texts):
            ids += piece
            sizes.append(len(piece))
        return ids, sizes

    def _fast(self) -> Any:
        """``encode_batch_fast`` of a ``tokenizers.Tokenizer`` that neither truncates nor pads
        (``None`` else), found once."""
        if self._batch_fast is _UNSET:
            tok = self.tokenizer
            fast = getattr(tok, "encode_batch_fast", None)
            plain = (
                getattr(tok, "truncation", None) is None and getattr(tok, "padding", None) is None
            )
            self._batch_fast = fast if callable(fast) and plain and _is_tokenizers(tok) else None
        return self._batch_fast

    def special_tokens(self) -> tuple[str, ...]:
        """The tokenizer's special tokens (its added tokens marked special), found once."""
        if self._specials is None:
            tok = self.tokenizer
            found: list[str] = []
            table = getattr(tok, "get_added_tokens_decoder", None)
            added = table() if callable(table) else getattr(tok, "added_tokens_decoder", None)
            if isinstance(added, dict):
                found = [str(t) for t in added.values() if getattr(t, "special", True)]
            found.extend(str(t) for t in getattr(tok, "all_special_tokens", ()) or ())
            self._specials = tuple(dict.fromkeys(t for t in found if t))
        return self._specials

    def check_single(self, tokens: tuple[str, ...]) -> None:
        """Each of ``tokens`` is one id (:meth:`single_id`), checked once per tuple."""
        if tokens not in self._checked:
            for token in tokens:
                self.single_id(token)
            self._checked.add(tokens)

    def special_pattern(self, leave: tuple[str, ...] = ()) -> Any:
        """A compiled pattern of :meth:`special_tokens` but ``leave`` (``None`` when none is
        left), compiled once per ``leave``."""
        if leave not in self._patterns:
            tokens = [t for t in self.special_tokens() if t not in leave]
            self._patterns[leave] = token_pattern(tokens)
        return self._patterns[leave]

    def encode_plain(self, text: str) -> list[int]:
        """The ids of ``text`` with no special token recognised in it: a special token's
        string is encoded as the ordinary pieces of its characters (message text)."""
        if not text:
            return []
        tok = self.tokenizer
        if hasattr(tok, "encode_special_tokens"):  # tokenizers.Tokenizer: a copy that splits
            if self._plain is None:
                plain = type(tok).from_str(tok.to_str())
                plain.encode_special_tokens = True
                self._plain = plain
            return list(self._plain.encode(text, add_special_tokens=False).ids)
        try:
            out = tok.encode(text, add_special_tokens=False, split_special_tokens=True)
        except TypeError:
            raise TokenizerError(
                "this tokenizer cannot encode a special token's string as text "
                "(needs a tokenizers.Tokenizer or a transformers fast tokenizer)"
            ) from None
        return list(getattr(out, "ids", out))

    def decode(self, ids: Sequence[int]) -> str:
        """The text of ``ids``, special tokens kept."""
        return str(self.tokenizer.decode(list(ids), skip_special_tokens=False))

    def single_id(self, token: str) -> int:
        """The one id of a special token; :class:`TokenizerError` when it is not one token."""
        if token not in self._single:
            ids = self.encode(token)
            if len(ids) != 1:
                raise TokenizerError(
                    f"the tokenizer encodes the format's token {token!r} as {len(ids)} ids; "
                    "add it as a special token (the model's own tokenizer has it)"
                )
            self._single[token] = ids[0]
        return self._single[token]


_ADAPTERS: weakref.WeakKeyDictionary[Any, TokenizerAdapter] = weakref.WeakKeyDictionary()


def adapter_for(tokenizer: Any) -> TokenizerAdapter:
    """The :class:`TokenizerAdapter` of ``tokenizer``: one per tokenizer object while that
    object lives, so the special tokens checked to be one id each are checked once, not for
    every conversation of a dataset (an adapter is returned as it is; a tokenizer that cannot
    be weakly referenced or hashed gets a new adapter each time)."""
    if isinstance(tokenizer, TokenizerAdapter):
        return tokenizer
    try:
        found = _ADAPTERS.get(tokenizer)
    except TypeError:  # not weakly referenceable, or not hashable
        return TokenizerAdapter(tokenizer)
    if found is None:
        found = _ADAPTERS[tokenizer] = TokenizerAdapter(tokenizer)
    return found
