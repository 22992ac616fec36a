"""Conversation format of the Qwen-based xLAM-2 ``-fc-r`` template (Salesforce/xLAM-2-3b-fc-r).

Pinned from the model's own template (``tokenizer_config.json`` ``chat_template``; vendored for
the tests, see ``tests/templates/SOURCES.md``). It is ChatML without the newline between turns
(``<|im_start|>ROLE\\n`` ... ``<|im_end|>``, the next turn right after):

* always a system turn: the (trimmed) system message then ``\\n``; without one, the default
  prompt ``You are a helpful assistant that can use tools. You are developed by Salesforce
  xLAM team.`` then ``\\n`` and, with tools, the fixed format instruction (which ends ``The
  available tools are:``) and a blank line. The format instruction is written only with the
  default prompt: a caller's system message is followed by the tools alone. Then each tool
  definition as ``tojson(indent=4)`` followed by a blank line;
* user, assistant and later system messages trimmed; tool results as ``tool`` turns, as given;
* an assistant turn with calls: the dialect's bare list (``[`` + each call's ``function`` as
  ``tojson`` joined by ``", "`` + ``]``), and nothing else: the template drops the content
  beside calls. We keep it (the dialect's form: the content, then the list in a ````` ```json
  ````` fence, which vLLM's parser splits the same way); the template writes no reasoning.

The Llama-based sizes (``Llama-xLAM-2-8b-fc-r``, ``-70b-fc-r``) use another template, and the
templates of ``xLAM-2-1b-fc-r`` and ``xLAM-2-32b-fc-r`` were not seen: none of them is routed
here (see the plugin README).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from tooletta import Message
from tooletta.plugin import (
    IM_END,
    IM_START,
    ChatFormat,
    Conversation,
    Turn,
    by_content,
    each_role,
    tool_json,
)

__all__ = ["DEFAULT_SYSTEM", "FORMAT_INSTRUCTION", "XlamQwenChat", "tools_block"]

DEFAULT_SYSTEM = (
    "You are a helpful assistant that can use tools. You are developed by Salesforce xLAM team."
)
"""The system prompt the template writes when the conversation has no system message."""
FORMAT_INSTRUCTION = (
    "You have access to a set of tools. When using tools, make calls in a single JSON array: "
    '\n\n[{"name": "tool_call_name", "arguments": {"arg1": "value1", "arg2": "value2"}}, ... '
    "(additional parallel tool calls as needed)]\n\nIf no tool is suitable, state that "
    "explicitly. If the user's input lacks required parameters, ask for clarification. Do not "
    "interpret or respond until tool results are returned. Once they are available, process "
    "them or make additional calls if needed. For tasks that don't require tools, such as "
    "casual conversation or general advice, respond directly in plain text. The available "
    "tools are:"
)
"""The template's fixed instruction text before the tool list (only after the default
system prompt)."""

_TOOL_START = '\n{\n    "'
"""How the first tool definition starts after the system message (``tojson(indent=4)`` of an
object)."""


def _turn(role: str) -> Turn:
    return Turn(f"{IM_START}{role}\n", IM_END)


@by_content
def tools_block(tools: Sequence[Mapping[str, object]]) -> str:
    """Each tool definition as ``tojson(indent=4)`` followed by a blank line (remembered by
    the tools' content)."""
    return "".join(tool_json(t, indent=4) + "\n\n" for t in tools)


class XlamQwenChat(ChatFormat):
    """Salesforce xLAM-2-3b-fc-r: ChatML turns back to back, the tools (and, without a system
    message, the default prompt and the format instruction) in an always-present system turn,
    trimmed texts, the calls as one bare JSON list."""

    name = "xlam2_qwen"
    source = "Salesforce/xLAM-2-3b-fc-r tokenizer_config.json chat_template"
    turns = each_role(_turn)
    end_of_turn = IM_END
    special_tokens: ClassVar[tuple[str, ...]] = (IM_START, IM_END)
    keeps_ids = False
    trim = frozenset(("system", "user", "assistant"))

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """Oddity: the trimmed system message (or the default prompt, then the format instruction
        when there are tools), a newline, then the tool definitions."""
        tools = tools_block(ctx.tools) if ctx.tools else ""
        if system is not None:
            return system.strip() + "\n" + tools
        if not ctx.tools:
            return DEFAULT_SYSTEM + "\n"
        return DEFAULT_SYSTEM + "\n" + FORMAT_INSTRUCTION + "\n\n" + tools

    def parse_system(self, body: str) -> str | None:
        """Oddity: the system message without the tool definitions; ``None`` for the default prompt
        (with or without the format instruction)."""
        default = DEFAULT_SYSTEM + "\n"
        if body == default or body.startswith(default + FORMAT_INSTRUCTION + "\n\n"):
            return None
        at = body.find(_TOOL_START)
        return body[:at] if at >= 0 else body.removesuffix("\n")

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """Oddity: as the base (no reasoning, no ids, the texts the template trims trimmed), without
        a first system message equal to the default prompt (the text is the same as with
        none, when there are no tools)."""
        out = super().expressible(messages)
        if out and out[0].role == "system" and out[0].content == DEFAULT_SYSTEM:
            out = out[1:]
        return out
