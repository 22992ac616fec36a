"""MiniMax-M2.5's and MiniMax-M2.7's chat templates: the ``minimax_m25`` and ``minimax_m27``
formats.

The two later releases ship MiniMax-M2's ``chat_template.jinja`` with one change that shows in
a conversation: the default identity, written as the system prompt when there is no system
message, names the model (``You are a helpful assistant. Your name is MiniMax-M2.5 and is
built by MiniMax.``; M2's says ``You are a helpful assistant.``). Their model cards publish
the same sentence as the default system prompt. Turns, tool declarations, calls, results and
reasoning are M2's, so each format is ``minimax_m2`` with its own default identity.

The other difference from the M2 template vendored here (``message.tool_calls[-1].name``
where M2's copy reads ``.function.name``) only feeds the template's "tool result without a
call" check, which writes nothing.

Templates: the models' ``chat_template`` as Xinference's model hub records it
(``tests/templates/SOURCES.md``).
"""

from __future__ import annotations

from dataclasses import replace

from tooletta.plugin import defaults
from tooletta_dialect_minimax.chat import MinimaxM2Chat

__all__ = ["M25_IDENTITY", "M27_IDENTITY", "MinimaxM25Chat", "MinimaxM27Chat"]

M25_IDENTITY = "You are a helpful assistant. Your name is MiniMax-M2.5 and is built by MiniMax."
"""What MiniMax-M2.5's template writes as the system prompt without a system message."""
M27_IDENTITY = "You are a helpful assistant. Your name is MiniMax-M2.7 and is built by MiniMax."
"""What MiniMax-M2.7's template writes as the system prompt without a system message."""

_XINFERENCE = "xorbitsai/inference xinference/model/llm/llm_family.json at 7ecec16b"


class MinimaxM25Chat(MinimaxM2Chat):
    """MiniMax-M2.5's chat template: ``minimax_m2`` with the model's named default identity."""

    name = "minimax_m25"
    source = f"MiniMaxAI/MiniMax-M2.5 chat_template ({_XINFERENCE})"
    system_block = replace(MinimaxM2Chat.system_block, default=M25_IDENTITY)
    """M2's system turn with :data:`M25_IDENTITY` as the default (``model_identity``)."""
    options = defaults(model_identity=M25_IDENTITY)


class MinimaxM27Chat(MinimaxM2Chat):
    """MiniMax-M2.7's chat template: ``minimax_m2`` with the model's named default identity."""

    name = "minimax_m27"
    source = f"MiniMaxAI/MiniMax-M2.7 chat_template ({_XINFERENCE})"
    system_block = replace(MinimaxM2Chat.system_block, default=M27_IDENTITY)
    """M2's system turn with :data:`M27_IDENTITY` as the default (``model_identity``)."""
    options = defaults(model_identity=M27_IDENTITY)
