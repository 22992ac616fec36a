"""NVIDIA Nemotron 3 Super and Ultra: Nemotron 3 Nano's template with a reasoning-effort hint.

Both templates are Nano's (``nemotron3``) with one more switch, off by default, which appends
a hint to the last user message (``loop.index0 == ns.last_user_idx``) when it is truthy:

* Super (``nemotron3_super``): ``low_effort`` appends ``\\n\\n{reasoning effort: low}``;
* Ultra (``nemotron3_ultra``): ``medium_effort`` appends ``\\n\\n{reasoning effort: efficient}``,
  and the reasoning is written ``<think>\\nR</think>C`` (Nano: ``<think>\\nR\\n</think>\\nC``),
  a truncated turn with calls keeping the content after ``</think>`` untrimmed.

The hint is text in the user turn: read back, it is part of that message's content (nothing
in the text tells it from a user who typed it), which is what :meth:`expressible_for` says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import msgspec

from tooletta import Message
from tooletta.plugin import Conversation, Reasoning, defaults, text_of

from .chat import Nemotron3Chat

__all__ = ["Nemotron3SuperChat", "Nemotron3UltraChat"]


class _EffortHint(Nemotron3Chat):
    """Nemotron 3 Nano's turns, with :attr:`effort`'s hint after the last user message."""

    effort: ClassVar[tuple[str, str]]
    """The switch and the text appended to the last user message when it is truthy."""

    def hinted(self, index: int, ctx: Conversation) -> bool:
        """Whether the message at ``index`` is the last user message and the switch is on."""
        return bool(ctx.options.get(self.effort[0])) and index == ctx.last_user

    def user_text(self, index: int, ctx: Conversation) -> str:
        """Oddity: the last user message's text followed by the hint when the switch is on."""
        text = super().user_text(index, ctx)
        return text + self.effort[1] if self.hinted(index, ctx) else text

    def expressible_for(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """Oddity: as Nano's; with the switch on, the last user message's content carries
        the hint (read back as part of it)."""
        out = super().expressible_for(messages, ctx)
        if not ctx.options.get(self.effort[0]) or ctx.last_user < 0:
            return out
        content = text_of(messages[ctx.last_user].content) + self.effort[1]
        users = [i for i, m in enumerate(out) if m.role == "user"]
        last = users[-1]
        out[last] = msgspec.structs.replace(out[last], content=content)
        return out


class Nemotron3SuperChat(_EffortHint):
    """NVIDIA Nemotron 3 Super: Nano's template; ``low_effort`` (default false) appends
    ``\\n\\n{reasoning effort: low}`` to the last user message."""

    name = "nemotron3_super"
    source = "nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16 chat_template.jinja (d51eab0d)"
    options = defaults(enable_thinking=True, truncate_history_thinking=True, low_effort=False)
    effort = ("low_effort", "\n\n{reasoning effort: low}")


class Nemotron3UltraChat(_EffortHint):
    """NVIDIA Nemotron 3 Ultra: Nano's template with ``medium_effort`` (default false:
    ``\\n\\n{reasoning effort: efficient}`` after the last user message), the reasoning
    written ``<think>\\nR</think>`` right before the content."""

    name = "nemotron3_ultra"
    source = "nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16 chat_template.jinja (TRL's copy)"
    options = defaults(enable_thinking=True, truncate_history_thinking=True, medium_effort=False)
    effort = ("medium_effort", "\n\n{reasoning effort: efficient}")
    reasoning = Reasoning("<think>\n", "</think>", strip="", keep="after_last_user")

    def reasoning_text(self, reasoning: str, kept: bool, last: bool) -> str:
        """Oddity: ``<think>\\nR</think>`` for kept, non-blank reasoning."""
        return f"<think>\n{reasoning}</think>" if kept and reasoning.strip() else ""

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """Oddity: Nano's turn with ``<think>\\nR</think>`` before the content; a truncated
        turn with calls keeps what follows ``</think>`` as it is (Nano trims it)."""
        content = text_of(message.content)
        if message.reasoning.strip():
            full = f"<think>\n{message.reasoning}</think>{content}"
        elif "<think>" in content or "</think>" in content:
            full = content
        else:
            full = "<think></think>" + content
        if not message.tool_calls:
            if not kept and "<think>" in full and "</think>" in full:
                full = "<think></think>" + full.split("</think>")[-1]
            return full.strip()
        ctx.dialect.check_content(content)
        if not full.strip():
            head = "<think></think>"
        elif kept:
            head = full.strip() + "\n"
        else:
            rest = full
            if "</think>" in rest:
                rest = rest.split("</think>")[-1]
            elif "<think>" in rest:
                rest = rest.split("<think>")[0]
            head = "<think></think>" + rest + "\n"
        return head + str(ctx.dialect.render(list(message.tool_calls)))
