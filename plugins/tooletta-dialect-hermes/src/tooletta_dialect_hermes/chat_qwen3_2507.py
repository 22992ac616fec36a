"""The Qwen3-2507 and Qwen3-Next conversation formats (their chat templates).

The July 2025 releases split Qwen3's hybrid thinking into two models per size, and Qwen3-Next
ships the same two templates:

* Instruct (``Qwen/Qwen3-*-Instruct-2507``, ``Qwen/Qwen3-Next-*-Instruct``): the Qwen3
  template without any reasoning: no think block in any turn (not even the empty one Qwen3
  writes for the last turn), reasoning given with a message is not written, content is
  written as given (a ``<think>`` block inside it included), and the generation prompt is the
  bare ``<|im_start|>assistant\\n``. No ``enable_thinking`` switch.
* Thinking (``Qwen/Qwen3-*-Thinking-2507``, ``Qwen/Qwen3-Next-*-Thinking``): Qwen3's history
  rule (reasoning kept after the last user query, an empty block for the last turn), but the
  generation prompt always opens the think block (``<|im_start|>assistant\\n<think>\\n``) and
  there is no ``enable_thinking`` switch.

The tool declarations, calls and results are Qwen3's. Both templates write a message whose
content is not a string as empty text; these formats write its text parts, as a correct
template would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from tooletta.plugin import Prompt, Reasoning

from .chat import Qwen3Chat

__all__ = ["Qwen3Instruct2507Chat", "Qwen3Thinking2507Chat"]


class Qwen3Instruct2507Chat(Qwen3Chat):
    """Qwen3-2507 Instruct and Qwen3-Next Instruct: Qwen3's layout, never a think block."""

    name = "qwen3_instruct_2507"
    source = (
        "Qwen/Qwen3-Next-80B-A3B-Instruct chat template (the Qwen3-2507 Instruct models' "
        "template; copy in xorbitsai/inference llm_family.json)"
    )
    reasoning: ClassVar[Reasoning | None] = None
    options: ClassVar[Mapping[str, Any]] = {}
    prompt = None
    """``<|im_start|>assistant\\n``, whatever the options."""
    prompt_options: ClassVar[Sequence[Mapping[str, Any]]] = ()


class Qwen3Thinking2507Chat(Qwen3Chat):
    """Qwen3-2507 Thinking and Qwen3-Next Thinking: Qwen3's reasoning history, the prompt
    opening ``<think>\\n``."""

    name = "qwen3_thinking_2507"
    source = (
        "Qwen/Qwen3-4B-Thinking-2507 / Qwen/Qwen3-Next-80B-A3B-Thinking chat template "
        "(one template; copy in xorbitsai/inference llm_family.json)"
    )
    options: ClassVar[Mapping[str, Any]] = {}
    prompt = Prompt(on="<think>\n", off="<think>\n")
    """``<|im_start|>assistant\\n<think>\\n``: the model writes its reasoning first."""
