"""Conversation formats of GLM-4.5/4.6 and GLM-4.7 (their chat templates).

Both (``zai-org/GLM-4.6`` and ``zai-org/GLM-4.7`` ``chat_template.jinja``; vendored for the
tests from llama.cpp's ``models/templates/GLM-4.6.jinja`` and ``GLM-4.7-Flash.jinja``) start
with ``[gMASK]<sop>``, declare tools in an opening ``<|system|>`` turn (the fixed instruction
text below, one ``tojson`` line per tool), write every system message as a turn of its own,
group tool results after one ``<|observation|>``, and have no end-of-turn token: the model ends
its turn by generating the next role token (``<|observation|>`` after calls, else
``<|user|>``), which counts as generated text. Reasoning is kept after the last user message
only; other turns get an empty think block (4.6: ``\\n<think></think>``; 4.7: ``</think>``).
The 4.7 generation prompt opens ``<think>`` itself, so the model generates from after it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from tooletta import Message
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Reasoning,
    ToolsTurn,
    TruthyPrompt,
    Turn,
    by_content,
    defaults,
    roles,
    tool_json,
)

__all__ = ["CLEARED_REASONING", "Glm45VChat", "Glm46Chat", "Glm46VChat", "Glm47Chat"]

_TOOLS_HEAD = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
)
_TOOLS_TAIL_46 = (
    "</tools>\n\nFor each function call, output the function name and arguments within the "
    "following XML format:\n<tool_call>{function-name}\n<arg_key>{arg-key-1}</arg_key>\n"
    "<arg_value>{arg-value-1}</arg_value>\n<arg_key>{arg-key-2}</arg_key>\n"
    "<arg_value>{arg-value-2}</arg_value>\n...\n</tool_call>"
)
_TOOLS_TAIL_47 = (
    "</tools>\n\nFor each function call, output the function name and arguments within the "
    "following XML format:\n<tool_call>{function-name}<arg_key>{arg-key-1}</arg_key>"
    "<arg_value>{arg-value-1}</arg_value><arg_key>{arg-key-2}</arg_key>"
    "<arg_value>{arg-value-2}</arg_value>...</tool_call>"
)
_SPECIAL = (
    "[gMASK]",
    "<sop>",
    "<|system|>",
    "<|user|>",
    "<|assistant|>",
    "<|observation|>",
    "<think>",
    "</think>",
    "<tool_call>",
    "</tool_call>",
    "<arg_key>",
    "</arg_key>",
    "<arg_value>",
    "</arg_value>",
    "<tool_response>",
    "</tool_response>",
)


@by_content
def _tool_lines(tools: list[Any]) -> str:
    """One ``tojson`` line per tool, remembered by the tools' content."""
    return "".join(tool_json(t) + "\n" for t in tools)


class _GlmChat(ChatFormat):
    """What GLM-4.6 and GLM-4.7 share (reasoning kept by the default ``after_last_user``
    rule: turns after the last user message, every turn when there is none)."""

    bos = "[gMASK]<sop>"
    merge_system = False
    stop_tokens = ("<|observation|>", "<|user|>")
    special_tokens = _SPECIAL
    group_results = True
    keeps_ids = False
    options = defaults(enable_thinking=True)
    turn_stops = ("<|observation|>", "<|user|>")
    """No end-of-turn token: the model ends its turn with the next role token,
    ``<|observation|>`` after calls (the results follow), ``<|user|>`` else (trained on the
    conversation's last turn too, where the template writes nothing after it)."""
    prompt_options = ({"enable_thinking": False},)
    """Thinking off's prompt (4.6: ``<|assistant|>\\n<think></think>``; 4.7:
    ``<|assistant|></think>``), read back as no message. It is also what an empty assistant
    turn ending the conversation writes (no end token): a text ending so reads as a prompt
    (see the plugin README)."""

    user_nothink: ClassVar[str] = ""
    """What the template appends to a user's text when thinking is off (GLM-4.6:
    ``/nothink``, unless the text already ends with it); read back as the user's text."""

    def user_text(self, index: int, ctx: Conversation) -> str:
        """Oddity: the content, with :attr:`user_nothink` appended to a user's when thinking
        is off (read back as the user's text: it may be their own)."""
        message = ctx.messages[index]
        text = self.text(message.content)
        suffix = self.user_nothink
        if not suffix or message.role != "user":
            return text
        if not ctx.options.get("enable_thinking", True) and not text.endswith(suffix):
            text += suffix
        return text

    def expressible_for(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """Oddity: an empty assistant turn ending the text is written as thinking off's
        prompt, so reads back as none (see :meth:`without_prompt_like_end`); with thinking
        off every user text carries the :attr:`user_nothink` the template appends (see
        :meth:`user_text`)."""
        out = self.without_prompt_like_end(self.expressible(messages), ctx)
        suffix = self.user_nothink
        if not suffix or ctx.options.get("enable_thinking", True):
            return out
        return [
            msgspec.structs.replace(m, content=m.content + suffix)
            if m.role == "user" and isinstance(m.content, str) and not m.content.endswith(suffix)
            else m
            for m in out
        ]

    def without_prompt_like_end(self, out: list[Message], ctx: Conversation) -> list[Message]:
        """``out`` without its last message when that is an assistant turn with no content,
        calls or reasoning ending the text (no generation prompt after it): the template
        writes it as it writes thinking off's generation prompt, which reads back as no
        message (see :attr:`prompt_options`)."""
        if ctx.add_generation_prompt or not out:
            return out
        last = out[-1]
        kept = self.kept_in(len(ctx.messages) - 1, ctx)  # GLM-5.1: not with thinking off
        if (
            last.role == "assistant"
            and not last.tool_calls
            and not self.text(last.content).strip()
            and self.reasoning_text(last.reasoning, kept, True) == self.no_think
        ):
            return out[:-1]
        return out

    no_think: ClassVar[str] = "</think>"
    """What a turn writes in place of a reasoning block it does not keep (or has none)."""
    content_lead: ClassVar[str] = ""
    """What the template writes before non-blank content."""

    def content_text(self, content: str, after_reasoning: bool) -> str:
        """Oddity: blank content writes nothing, other content is stripped and follows
        :attr:`content_lead` (GLM-4.6 writes a newline before it)."""
        stripped = content.strip()
        return self.content_lead + stripped if stripped else ""


class Glm46Chat(_GlmChat):
    """GLM-4.5/4.6: newlines after every role token and tag."""

    name = "glm46"
    source = "zai-org/GLM-4.6 chat_template.jinja"
    turns = roles(
        system=Turn("<|system|>\n"),
        user=Turn("<|user|>\n"),
        assistant=Turn("<|assistant|>"),
        tool=Turn("<|observation|>"),
    )
    reasoning = Reasoning(
        "\n<think>",
        "</think>",
        strip=None,
        keep="after_last_user",
        empty="kept",
        dropped="\n<think></think>",
    )
    """The stripped reasoning in ``\\n<think>...</think>``; a turn without (kept) reasoning
    writes the empty block."""
    result_wrap = ("\n<tool_response>\n", "\n</tool_response>")
    system_block = ToolsTurn(
        lambda tools: _TOOLS_HEAD + _tool_lines(tools) + _TOOLS_TAIL_46, head=_TOOLS_HEAD
    )
    """The tool declarations, a turn of their own (system messages are turns of theirs)."""
    prompt = TruthyPrompt(off="\n<think></think>")
    """Thinking off for any false ``enable_thinking`` (the template's ``enable_thinking is
    defined and not enable_thinking``)."""
    no_think = "\n<think></think>"
    content_lead = "\n"
    user_nothink = "/nothink"


class Glm45VChat(Glm46Chat):
    """GLM-4.5V (its ``chat_template.jinja``): GLM-4.6's turns, with a generation prompt that
    breaks the line after ``<|assistant|>`` (thinking off: ``<|assistant|>\\n<think></think>\\n``).
    Its image and video parts have no message form here: a non-text content part is refused
    (core's check), never dropped."""

    name = "glm45v"
    source = "zai-org/GLM-4.5V chat_template.jinja"
    prompt = TruthyPrompt(on="\n", off="\n<think></think>\n")
    """``<|assistant|>\\n``, or ``<|assistant|>\\n<think></think>\\n`` for any false
    ``enable_thinking``; the model writes its turn after it."""

    def without_prompt_like_end(self, out: list[Message], ctx: Conversation) -> list[Message]:
        """Oddity: ``out`` as is: no prompt writes what an empty last answer writes
        (``\\n<think></think>``, without the prompt's final newline), so it reads back."""
        return out


class Glm46VChat(Glm45VChat):
    """GLM-4.6V and GLM-4.6V-Flash (one text but a comment): GLM-4.5V's, each tool result
    followed by a newline."""

    name = "glm46v"
    source = "zai-org/GLM-4.6V-Flash chat_template.jinja"
    result_wrap = ("\n<tool_response>\n", "\n</tool_response>\n")


CLEARED_REASONING = Reasoning(
    "<think>",
    "</think>",
    strip=None,
    keep="after_last_user",
    switch="clear_thinking",
    switched="all",
)
"""GLM-4.7's and GLM-5.2's reasoning blocks and history rule: kept after the last user
message, or in every turn when ``clear_thinking`` is given false (any false value)."""


class _GlmCompact(_GlmChat):
    """GLM-4.7's turns, which GLM-5.2 keeps: compact, no newlines; the generation prompt opens
    ``<think>``."""

    turns = roles(
        system=Turn("<|system|>"),
        user=Turn("<|user|>"),
        assistant=Turn("<|assistant|>"),
        tool=Turn("<|observation|>"),
    )
    result_wrap = ("<tool_response>", "</tool_response>")
    tools_tail = _TOOLS_TAIL_47
    switched_as_given: ClassVar[bool] = True
    """With the history rule switched to every turn (``clear_thinking`` given false), a past
    turn's reasoning reads back as given (GLM-5.2 writes it so); ``False``: stripped
    (GLM-4.7)."""

    def expressible_for(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """Oddity: as the GLM formats'; when ``clear_thinking`` (the :class:`Reasoning`'s
        switch) is given false, every assistant turn keeps its reasoning (see
        :attr:`switched_as_given`)."""
        out = self.expressible(messages)
        reasoning = self.reasoning
        if reasoning is not None and reasoning.switch and reasoning.rule(ctx.options) == "all":
            given = self.switched_as_given
            out = [
                msgspec.structs.replace(
                    m, reasoning=original.reasoning if given else original.reasoning.strip()
                )
                if m.role == "assistant"
                else m
                for m, original in zip(out, messages, strict=True)
            ]
        return self.without_prompt_like_end(out, ctx)

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Mapping[str, Any]]) -> Any:
        """Oddity: a turn starting with a lone ``</think>`` continues the prompt's
        ``<think>``."""
        prefix = "<think>" if body.startswith("</think>") else ""
        return dialect.parse(body, tools=list(tools) or None, prefix=prefix)


class Glm47Chat(_GlmCompact):
    """GLM-4.7: compact, no newlines; the generation prompt opens ``<think>``. GLM-5.x is not
    claimed: GLM-5.1 and GLM-5.2 have formats of their own (``glm51``, ``glm52``: bare function
    objects as declarations, other reasoning blocks), and the other GLM-5.x templates were not
    available to check, so ``model=`` refuses them rather than write this older format."""

    name = "glm47"
    source = "zai-org/GLM-4.7 chat_template.jinja"
    options = defaults(enable_thinking=True, clear_thinking=True)
    reasoning = CLEARED_REASONING
    """Kept after the last user message; with ``clear_thinking`` given false (any false
    value, ``None`` too: the template asks ``clear_thinking is defined and not
    clear_thinking``) every turn keeps its reasoning, stripped."""
    switched_as_given = False
    system_block = ToolsTurn(
        lambda tools: "\n" + _TOOLS_HEAD + _tool_lines(tools) + _TOOLS_TAIL_47,
        head="\n" + _TOOLS_HEAD,
    )
    """The tool declarations, a turn of their own; it keeps the template's newline after
    ``<|system|>``."""
    prompt = TruthyPrompt(on="<think>", off="</think>")
    """Thinking off for any false ``enable_thinking`` (``is defined and not``)."""

    def reasoning_text(self, reasoning: str, kept: bool, last: bool) -> str:
        """Oddity: a turn without kept reasoning (or with blank reasoning) writes a lone
        ``</think>``; else the stripped reasoning in ``<think>...</think>``."""
        stripped = reasoning.strip()
        return "<think>" + stripped + "</think>" if kept and stripped else self.no_think
