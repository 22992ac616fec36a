"""Whole conversations, from any supported shape to each target shape.

Each function reads ``messages`` with :func:`~tooletta.interop.read_messages` (so any shape,
or :class:`~tooletta.interop.Message` objects, may come in), applies the target's id policy to
calls and results together, and writes the target's plain dicts. Reasoning is written where
the target has a place for it, under ``reasoning`` (``"keep"``, ``"native"`` or ``"drop"``;
:mod:`~tooletta.interop.reasoning`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .anthropic import write_anthropic
from .chat import write_chat
from .ids import IdMapper, IdPolicy
from .read import read_messages
from .reasoning import ReasoningPolicy
from .responses import write_responses

__all__ = [
    "messages_to_anthropic",
    "messages_to_hf",
    "messages_to_openai",
    "messages_to_responses",
    "messages_to_tinker",
]


def messages_to_openai(
    messages: Iterable[Any],
    *,
    ids: IdPolicy | IdMapper = "openai",
    legacy: bool = False,
    reasoning: ReasoningPolicy = "keep",
) -> list[dict[str, Any]]:
    """OpenAI Chat Completions messages: ``tool_calls`` with JSON-string arguments and ids
    (always: missing ones are derived, whatever ``ids`` says), ``{"role": "tool",
    "tool_call_id", "content"}`` results, reasoning as ``reasoning_content`` (what vLLM,
    DeepSeek and LiteLLM use; the OpenAI API itself takes no reasoning in chat messages, so
    pass ``reasoning="drop"`` for it).

    ``legacy=True`` writes the deprecated ``function_call`` / ``role: "function"`` form
    instead (one call per message; raises ``ValueError`` for more).
    """
    return write_chat(
        read_messages(messages), style="openai", ids=ids, legacy=legacy, reasoning=reasoning
    )


def messages_to_hf(
    messages: Iterable[Any],
    *,
    ids: IdPolicy | IdMapper = "keep",
    reasoning: ReasoningPolicy = "keep",
) -> list[dict[str, Any]]:
    """Hugging Face transformers / TRL messages: dict arguments, results with ``name`` (and
    ``tool_call_id`` when known), reasoning as ``reasoning_content`` (what chat templates
    read). Pass ``ids="mistral"`` for Mistral chat templates."""
    return write_chat(read_messages(messages), style="hf", ids=ids, reasoning=reasoning)


def messages_to_tinker(
    messages: Iterable[Any],
    *,
    ids: IdPolicy | IdMapper = "keep",
    reasoning: ReasoningPolicy = "keep",
) -> list[dict[str, Any]]:
    """tinker-cookbook ``Message`` dicts: ``ToolCall`` dicts with JSON-string arguments,
    string content (parts, led by a ``thinking`` part, when there is reasoning), results with
    both ``name`` and ``tool_call_id`` (when known)."""
    return write_chat(read_messages(messages), style="tinker", ids=ids, reasoning=reasoning)


def messages_to_anthropic(
    messages: Iterable[Any],
    *,
    ids: IdPolicy | IdMapper = "anthropic",
    reasoning: ReasoningPolicy = "keep",
) -> dict[str, Any]:
    """Anthropic ``messages.create`` arguments ``{"system"?, "messages"}`` (``tool_use`` and
    ``tool_result`` blocks, ids made ``[A-Za-z0-9_-]+``, reasoning as ``thinking`` blocks:
    see :func:`~tooletta.interop.anthropic.anthropic_thinking_blocks` for the signature)."""
    return write_anthropic(read_messages(messages), ids=ids, reasoning=reasoning)


def messages_to_responses(
    messages: Iterable[Any],
    *,
    ids: IdPolicy | IdMapper = "openai",
    item_ids: bool = False,
    reasoning: ReasoningPolicy = "keep",
) -> list[dict[str, Any]]:
    """An OpenAI Responses ``input`` list (``reasoning``, ``function_call`` and
    ``function_call_output`` items; see :func:`~tooletta.interop.responses.write_responses`)."""
    return write_responses(read_messages(messages), ids=ids, item_ids=item_ids, reasoning=reasoning)
