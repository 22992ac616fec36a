"""Where each shape keeps reasoning, and what writers do with reasoning they cannot sign.

:attr:`Message.reasoning <tooletta.Message>` holds the reasoning text of an assistant turn,
whatever shape it came from:

==========================  ===============================================================
OpenAI Chat (compatible)    ``reasoning_content`` (vLLM, DeepSeek, LiteLLM; written) or
                            ``reasoning`` (newer vLLM, OpenRouter; read)
Hugging Face / TRL          ``reasoning_content`` (what chat templates read)
tinker-cookbook             ``{"type": "thinking", "thinking"}`` content parts
Anthropic                   ``thinking`` blocks (text + ``signature``); ``redacted_thinking``
                            blocks carry only encrypted ``data``
OpenAI Responses            ``reasoning`` items: ``content`` (``reasoning_text``) or
                            ``summary`` (``summary_text``) parts, ``encrypted_content``
==========================  ===============================================================

Several blocks or parts are joined with a blank line. The opaque data a provider needs back
verbatim is kept in :attr:`Message.extra <tooletta.Message>`:

``thinking_blocks``
    Anthropic's ``thinking`` and ``redacted_thinking`` blocks as they came (LiteLLM's key for
    them in OpenAI-style messages, so chat writers write it back too).
``reasoning_items``
    Responses ``reasoning`` items as they came (``id``, ``encrypted_content``...).
``item_ids``
    Responses item ids of the turn: ``{"message": "msg_…", "<call_id>": "fc_…"}`` (the API
    pairs a reasoning item with the item that follows it by these ids).

The last two mean nothing outside the Responses API, so chat-style writers leave them out.

Writers take a :data:`~tooletta.interop.ReasoningPolicy`: ``"keep"`` (default) writes all reasoning;
``"native"`` writes only what the target API produced itself and accepts back (Anthropic
blocks with their signatures, Responses items with their ids); ``"drop"`` writes none. Kept
blocks are written verbatim only while the reasoning text is still theirs; reasoning from
elsewhere (or edited) is written fresh: an Anthropic ``thinking`` block with an empty
``signature`` (the API verifies signatures, so send such turns with ``reasoning="native"``),
a Responses ``reasoning`` item with a derived ``rs_`` id and the text as ``reasoning_text``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

__all__ = [
    "ITEM_IDS",
    "REASONING_ITEMS",
    "REASONING_POLICIES",
    "RESPONSES_ONLY",
    "THINKING_BLOCKS",
    "ReasoningPolicy",
    "check_policy",
    "join_texts",
]

ReasoningPolicy = Literal["keep", "native", "drop"]
"""What a writer does with reasoning: write all of it, only the target's own, or none."""

REASONING_POLICIES: tuple[str, ...] = ("keep", "native", "drop")
"""Every reasoning policy name."""

THINKING_BLOCKS = "thinking_blocks"
"""``Message.extra`` key of Anthropic ``thinking`` / ``redacted_thinking`` blocks."""

REASONING_ITEMS = "reasoning_items"
"""``Message.extra`` key of Responses ``reasoning`` items."""

ITEM_IDS = "item_ids"
"""``Message.extra`` key of the Responses item ids of a turn."""

RESPONSES_ONLY = frozenset({REASONING_ITEMS, ITEM_IDS})
"""``extra`` keys chat-style writers leave out (they mean something to Responses only)."""


def check_policy(policy: str) -> None:
    """Raise ``ValueError`` for an unknown reasoning policy name."""
    if policy not in REASONING_POLICIES:
        raise ValueError(
            f"unknown reasoning policy {policy!r}; expected one of {REASONING_POLICIES}"
        )


def join_texts(texts: Iterable[Any]) -> str:
    """The non-empty strings of ``texts``, joined by a blank line."""
    return "\n\n".join(t for t in texts if isinstance(t, str) and t)
