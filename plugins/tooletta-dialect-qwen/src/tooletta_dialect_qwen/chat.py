"""Conversation formats of the models writing Qwen3-Coder XML calls (their chat templates).

All are ChatML (``<|im_start|>ROLE\\n`` ... ``<|im_end|>\\n``); they differ in where the tool
declarations go and how they are written (:mod:`~tooletta_dialect_qwen.declarations`), how
tool results are wrapped, what reasoning history they keep and how the assistant turn joins
content and calls:

* Qwen3-Coder: tools as XML after the system message (a default one when there is none), the
  content trimmed and a blank line before the calls, results in one user turn; no reasoning.
* Qwen3.5: tools as ``tojson`` lines *before* the system message, every text trimmed,
  reasoning as ``<think>\\n...\\n</think>\\n\\n`` in every turn after the last user query
  (empty blocks too), the generation prompt opening ``<think>\\n``.
* Nemotron 3 Nano: always a system turn, tools as XML; every assistant turn starts with its
  think block (``<think></think>`` when empty or truncated), then the content, a newline and
  the calls, each followed by a newline (the ``nemotron3`` variant's form).
* Step-3.5-Flash: the tokenizer's ``bos_token`` first, tools as ``tojson`` lines, results in a
  ``tool_response`` turn, calls written right after the content with nothing between them (the
  ``step35`` variant's form), reasoning blocks after the last user query.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import msgspec

from tooletta import Message, ToolCall
from tooletta.plugin import (
    IM_END,
    IM_START,
    ChatFormat,
    Conversation,
    Reasoning,
    Turn,
    chatml,
    defaults,
    last_query,
    last_user,
    patterns_of,
    roles,
    text_of,
)
from tooletta_dialect_qwen.models import MODELS

from .declarations import (
    CODER_TOOLS_HEAD,
    FUNCTIONS_HEAD,
    STEP_TOOLS_HEAD,
    call_format,
    json_tools,
    xml_tools,
)

__all__ = ["Nemotron3Chat", "Qwen3CoderChat", "Qwen35Chat", "Step35Chat"]

_SPECIAL = (IM_START, IM_END, "<tool_call>", "</tool_call>")
_THINKING_SPECIAL = (*_SPECIAL, "<think>", "</think>")


class _ChatML(ChatFormat):
    """ChatML turns with the tool results of the Qwen3-Coder family."""

    turns = roles(
        system=chatml("system"),
        user=chatml("user"),
        assistant=chatml("assistant"),
        tool=Turn(f"{IM_START}user\n", f"{IM_END}\n"),
    )
    end_of_turn = IM_END
    special_tokens: ClassVar[tuple[str, ...]] = _SPECIAL
    result_wrap = ("<tool_response>\n", "\n</tool_response>\n")
    group_results = True
    keeps_ids = False


def _strip_contents(messages: Sequence[Message], roles: frozenset[str]) -> list[Message]:
    return [
        msgspec.structs.replace(m, content=text_of(m.content).strip()) if m.role in roles else m
        for m in messages
    ]


class Qwen3CoderChat(_ChatML):
    """Qwen3-Coder (and Coder-Next): tools as XML in the system turn, after the system message
    or the default ``You are Qwen, a helpful AI assistant that can interact with a computer to
    solve tasks.``; an assistant turn with calls writes its content trimmed."""

    name = "qwen3_coder"
    models = patterns_of(MODELS, chat="qwen3_coder")
    source = "Qwen/Qwen3-Coder-30B-A3B-Instruct chat_template.jinja"
    default_system: ClassVar[str] = (
        "You are Qwen, a helpful AI assistant that can interact with a computer to solve tasks."
    )
    tools_intro: ClassVar[str] = "\n\n" + CODER_TOOLS_HEAD

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The system message (the default one with tools and none given), then the tools."""
        if not ctx.tools:
            return system
        head = system if system is not None else self.default_system
        return head + self.tools_intro + xml_tools(ctx.tools) + call_format("coder")

    def parse_system(self, body: str) -> str | None:
        """The system message without the tools (``None`` for the default one)."""
        head, sep, _ = body.partition(self.tools_intro)
        return None if sep and head == self.default_system else head

    def calls_text(self, dialect: Any, calls: Sequence[ToolCall], content: str) -> str:
        """The calls after the trimmed content; without calls the content as given."""
        if not calls:
            return content
        return str(dialect.render(list(calls), content=content.strip()))

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """As the base, the content of turns with calls trimmed."""
        return [
            msgspec.structs.replace(m, content=text_of(m.content).strip()) if m.tool_calls else m
            for m in super().expressible(messages)
        ]


class Qwen35Chat(_ChatML):
    """Qwen3.5: tools as ``tojson`` lines before the (trimmed) system message, every text
    trimmed, reasoning kept after the last user query (an empty block in every such turn);
    ``enable_thinking`` defaults to true."""

    name = "qwen35"
    models = patterns_of(MODELS, chat="qwen35")
    source = "Qwen/Qwen3.5-4B chat_template.jinja"
    special_tokens = (*_THINKING_SPECIAL, "<tool_response>", "</tool_response>")
    turns = roles(
        system=chatml("system"),
        user=chatml("user"),
        assistant=chatml("assistant"),
        tool=Turn(f"{IM_START}user", f"{IM_END}\n"),
    )
    result_wrap = ("\n<tool_response>\n", "\n</tool_response>")
    reasoning = Reasoning(
        "<think>\n", "\n</think>\n\n", strip=None, keep="after_last_user", empty="kept"
    )
    options = defaults(enable_thinking=True)
    prompt_options = ({"enable_thinking": False},)
    """Thinking off's prompt (an empty think block), read back as no message."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The tools, then the trimmed system message after a blank line (when not empty);
        without tools the trimmed system message."""
        text = system.strip() if system is not None else None
        if not ctx.tools:
            return text
        tools = FUNCTIONS_HEAD + json_tools(ctx.tools) + call_format("functions")
        return tools + ("\n\n" + text if text else "")

    def parse_system(self, body: str) -> str | None:
        """The system message after the tools (``None`` when there is none)."""
        if not body.startswith(FUNCTIONS_HEAD):
            return body
        _, sep, rest = body.partition(call_format("functions"))
        return rest[2:] if sep and rest.startswith("\n\n") else None

    def user_text(self, index: int, ctx: Conversation) -> str:
        """The trimmed content."""
        return text_of(ctx.messages[index].content).strip()

    def result_text(self, index: int, ctx: Conversation) -> str:
        """The trimmed result."""
        return text_of(ctx.messages[index].content).strip()

    def keeps_reasoning(self, index: int, messages: Sequence[Message]) -> bool:
        """Turns after the last user query (a user message whose trimmed content is not a
        wrapped tool response). The template refuses a conversation without a query; this
        keeps no reasoning then."""
        query = last_query(messages, strip=True)
        return query >= 0 and index > query

    def kept_in(self, index: int, ctx: Conversation) -> bool:
        """:meth:`keeps_reasoning`, the last user query found once per conversation."""
        query = ctx.once("last_query_stripped", lambda: last_query(ctx.messages, strip=True))
        return query >= 0 and index > query

    def content_text(self, content: str, after_reasoning: bool) -> str:
        """The trimmed content."""
        return content.strip()

    def generation_prompt(self, ctx: Conversation) -> str:
        """``<|im_start|>assistant\\n<think>\\n``, or an empty think block when thinking is
        off."""
        off = ctx.options.get("enable_thinking") is False
        return self.turns["assistant"].header + ("<think>\n\n</think>\n\n" if off else "<think>\n")

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """As the base, every text and the kept reasoning trimmed."""
        out = _strip_contents(
            super().expressible(messages), frozenset(("system", "user", "tool", "assistant"))
        )
        return [msgspec.structs.replace(m, reasoning=m.reasoning.strip()) for m in out]

    def expressible_for(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """As :meth:`expressible`, without a first system message that is empty once trimmed
        when tools are declared: the template then writes the tools alone, as without it."""
        out = self.expressible(messages)
        first = bool(out) and out[0].role == "system" and messages[0].role == "system"
        if ctx.tools and first and not out[0].content:
            out = out[1:]
        return out


class Nemotron3Chat(_ChatML):
    """NVIDIA Nemotron 3 Nano: always a system turn (tools as XML after the system message),
    every assistant turn opening with its think block; before the last user message
    (``truncate_history_thinking``, default true) the block is written empty."""

    name = "nemotron3"
    models = patterns_of(MODELS, chat="nemotron3")
    source = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 chat_template.jinja"
    special_tokens = _THINKING_SPECIAL
    reasoning = Reasoning("<think>\n", "\n</think>\n", strip="", keep="after_last_user")
    options = defaults(enable_thinking=True, truncate_history_thinking=True)
    prompt_options = ({"enable_thinking": False},)
    """Thinking off's prompt (``<think></think>``), read back as no message."""
    tools_intro: ClassVar[str] = "\n\n" + FUNCTIONS_HEAD

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The system message (empty when there is none), then the tools."""
        text = system or ""
        if not ctx.tools:
            return text
        return (text + "\n\n" if text else "") + FUNCTIONS_HEAD + self._tools(ctx)

    def _tools(self, ctx: Conversation) -> str:
        return xml_tools(ctx.tools, nemotron=True) + call_format("functions")

    def parse_system(self, body: str) -> str | None:
        """The system message before the tools (``None`` when empty)."""
        if body.startswith(FUNCTIONS_HEAD):
            return None
        head, _, _ = body.partition(self.tools_intro)
        return head or None

    def keeps_reasoning(self, index: int, messages: Sequence[Message]) -> bool:
        """Turns after the last user message (every turn when there is none)."""
        return index > last_user(messages)

    def kept_in(self, index: int, ctx: Conversation) -> bool:
        """:meth:`keeps_reasoning`, the last user message found once per conversation."""
        return index > ctx.last_user

    def assistant_text(self, index: int, ctx: Conversation) -> str:
        """The turn's body; with ``truncate_history_thinking=False`` every turn keeps its
        reasoning."""
        kept = not ctx.options.get("truncate_history_thinking", True) or self.kept_in(index, ctx)
        last = index == len(ctx.messages) - 1
        return self.turn_body(ctx.messages[index], kept, last, ctx)

    def reasoning_text(self, reasoning: str, kept: bool, last: bool) -> str:
        """``<think>\\nR\\n</think>\\n`` for kept, non-blank reasoning."""
        return f"<think>\n{reasoning}\n</think>\n" if kept and reasoning.strip() else ""

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """The template's assistant turn: the think block and the content (trimmed together),
        then a newline and the calls; a truncated turn keeps only what follows ``</think>``
        behind an empty block."""
        content = text_of(message.content)
        if message.reasoning.strip():
            full = f"<think>\n{message.reasoning}\n</think>\n{content}"
        elif "<think>" in content or "</think>" in content:
            full = content
        else:
            full = "<think></think>" + content
        if not message.tool_calls:
            if kept:
                return full.strip()
            if "<think>" in full and "</think>" in full:
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
            head = "<think></think>" + rest.strip() + "\n"
        return head + str(ctx.dialect.render(list(message.tool_calls)))

    def generation_prompt(self, ctx: Conversation) -> str:
        """``<|im_start|>assistant\\n<think>\\n``, or ``<think></think>`` when thinking is
        off."""
        on = ctx.options.get("enable_thinking", True)
        return self.turns["assistant"].header + ("<think>\n" if on else "<think></think>")

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """As the base, assistant texts trimmed, and no empty first system message (the
        template writes an empty system turn either way)."""
        out = [
            msgspec.structs.replace(
                m, content=text_of(m.content).strip(), reasoning=m.reasoning.strip()
            )
            if m.role == "assistant"
            else m
            for m in super().expressible(messages)
        ]
        if out and out[0].role == "system" and not out[0].content:
            out = out[1:]
        return out

    def expressible_for(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """As :meth:`expressible`; with ``truncate_history_thinking=False`` every turn keeps
        its reasoning."""
        out = self.expressible(messages)
        if ctx.options.get("truncate_history_thinking", True):
            return out
        skip = len(messages) - len(out)  # the empty first system message left out
        return [
            msgspec.structs.replace(m, reasoning=messages[i + skip].reasoning.strip())
            if m.role == "assistant"
            else m
            for i, m in enumerate(out)
        ]


class Step35Chat(_ChatML):
    """StepFun Step-3.5-Flash: ``bos_token`` first, tools as ``tojson`` lines after the system
    message, results in a ``tool_response`` turn, reasoning blocks (``<think>\\nR\\n</think>\\n``,
    empty ones too) in the turns after the last user query; the generation prompt opens
    ``<think>\\n``."""

    name = "step35"
    models = patterns_of(MODELS, chat="step35")
    source = "stepfun-ai/Step-3.5-Flash chat_template.jinja"
    bos = "<｜begin▁of▁sentence｜>"
    special_tokens = (bos, *_THINKING_SPECIAL)
    turns = roles(
        system=chatml("system"),
        user=chatml("user"),
        assistant=chatml("assistant"),
        tool=chatml("tool_response"),
    )
    result_wrap = ("<tool_response>", "</tool_response>")
    reasoning = Reasoning(
        "<think>\n", "\n</think>\n", strip="", keep="after_last_user", empty="kept"
    )

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The system message, then (with tools) a blank line and the tools."""
        if not ctx.tools:
            return system
        head = system + "\n\n" if system is not None else ""
        return head + STEP_TOOLS_HEAD + json_tools(ctx.tools) + call_format("step")

    def parse_system(self, body: str) -> str | None:
        """The system message without the tools (``None`` when only those)."""
        if body.startswith(STEP_TOOLS_HEAD):
            return None
        head, sep, _ = body.partition("\n\n" + STEP_TOOLS_HEAD)
        return head if sep else body

    def keeps_reasoning(self, index: int, messages: Sequence[Message]) -> bool:
        """Turns after the last user query (a user message that is not a wrapped tool
        response)."""
        query = last_query(messages)
        return query >= 0 and index > query

    def kept_in(self, index: int, ctx: Conversation) -> bool:
        """:meth:`keeps_reasoning`, the last user query found once per conversation."""
        query = ctx.once("last_query", lambda: last_query(ctx.messages))
        return query >= 0 and index > query

    def generation_prompt(self, ctx: Conversation) -> str:
        """``<|im_start|>assistant\\n<think>\\n``."""
        return self.turns["assistant"].header + "<think>\n"
