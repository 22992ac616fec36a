"""Apriel conversations: the ServiceNow Apriel templates, declared.

Apriel 1.5 (``ServiceNow-AI/Apriel-1.5-15b-Thinker``; its template as llama.cpp vendors it,
``models/templates/unsloth-Apriel-1.5.jinja``): every turn is ``<|ROLE|>\\n`` + body +
``\\n<|end|>\\n``, and an assistant turn is followed by the end-of-sequence token. Every system
turn starts with the template's reasoning prompt (the system message follows it directly); the
tools are declared as Python ``str()`` of each definition (the template's ``tool|string``)
inside ``<available_tools>``. Without a system message the template writes the tool turn (with
the instructions for the ``<tool_calls>`` list) and then a turn holding only the reasoning
prompt. Calls are ``\\n<tool_calls>[...]</tool_calls>`` after the content, each with its
``"id"``, except in the conversation's last message. Reasoning is the model's prose (``Here
are my reasoning steps:`` ... ``[BEGIN FINAL RESPONSE]``), content to the template: conversations
carry no reasoning field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from tooletta import Message, ToolCall
from tooletta.chat import ChatFormat, Conversation, Turn, roles, text_of

__all__ = [
    "APRIEL15_REASONING_PROMPT",
    "APRIEL15_TOOLS_HEAD",
    "APRIEL15_TOOLS_INSTRUCTIONS",
    "Apriel15Chat",
]

APRIEL15_REASONING_PROMPT = (
    "You are a thoughtful and systematic AI assistant built by ServiceNow Language Models "
    "(SLAM) lab. Before providing an answer, analyze the problem carefully and present your "
    "reasoning step by step. After explaining your thought process, provide the final solution "
    "in the following format: [BEGIN FINAL RESPONSE] ... [END FINAL RESPONSE]."
)
"""The prompt every Apriel 1.5 system turn starts with (template text)."""
APRIEL15_TOOLS_HEAD = (
    "You are provided with function signatures within <available_tools></available_tools> XML "
    "tags. You may call one or more functions to assist with the user query. Don't make "
    "assumptions about the arguments. You should infer the argument values from previous user "
    "responses and the system message. Here are the available tools:\n<available_tools>\n"
)
"""Apriel 1.5's words before the tool definitions (template text)."""
APRIEL15_TOOLS_INSTRUCTIONS = (
    "Return all function calls as a list of json objects within <tool_call></tool_call> XML "
    "tags. Each json object should contain a function name and arguments as follows:\n"
    '<tool_calls>[{"name": <function-name-1>, "arguments": <args-dict-1>}, '
    '{"name": <function-name-2>, "arguments": <args-dict-2>},...]</tool_calls>'
)
"""Apriel 1.5's instructions for writing calls, in the tool turn written when the
conversation has no system message (template text)."""

END = "<|end|>"


def _python_tools(tools: Sequence[Mapping[str, Any]]) -> str:
    """Apriel 1.5's ``available_tools_string``: each definition as Python ``str()``."""
    return APRIEL15_TOOLS_HEAD + "".join(f"{tool}\n" for tool in tools) + "</available_tools>"


def _turn(role: str) -> Turn:
    return Turn(f"<|{role}|>\n", f"\n{END}\n")


class Apriel15Chat(ChatFormat):
    """Apriel 1.5 Thinker: ``<|ROLE|>\\n...\\n<|end|>\\n`` turns, the reasoning prompt in every
    system turn, Python-``str()`` tool definitions, calls with ids before the last message."""

    name = "apriel15"
    models = ("servicenow-ai/apriel-1.5-*", "apriel-1.5-*")
    source = (
        "ServiceNow-AI/Apriel-1.5-15b-Thinker chat_template (llama.cpp unsloth-Apriel-1.5.jinja)"
    )
    bos = "<s>"
    eos: ClassVar[str] = "</s>"
    """The end-of-sequence token the template writes after every assistant turn."""
    turns = roles(
        system=_turn("system"),
        user=_turn("user"),
        assistant=Turn("<|assistant|>\n", f"{END}\n</s>"),
        tool=_turn("tool_result"),
    )
    end_of_turn = END
    special_tokens: ClassVar[tuple[str, ...]] = (
        "<|system|>",
        "<|user|>",
        "<|assistant|>",
        "<|tool_result|>",
        END,
    )

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The system message after the reasoning prompt (and, with tools, the definitions);
        without one, the tool turn (definitions and instructions) when there are tools."""
        if system is not None:
            tools = "\n" + _python_tools(ctx.tools) if ctx.tools else ""
            return APRIEL15_REASONING_PROMPT + system + tools
        if not ctx.tools:
            return None
        return (
            APRIEL15_REASONING_PROMPT
            + _python_tools(ctx.tools)
            + "\n"
            + APRIEL15_TOOLS_INSTRUCTIONS
        )

    def parse_system(self, body: str) -> str | None:
        """The system message; ``None`` for the turns written without one (the tool turn, the
        reasoning prompt alone: an empty system message without tools reads back as none)."""
        if body == APRIEL15_REASONING_PROMPT:
            return None
        if body.startswith(APRIEL15_REASONING_PROMPT + APRIEL15_TOOLS_HEAD):
            return None
        return self.parse_user(body)

    def before_turn(self, index: int, ctx: Conversation) -> str:
        """The turn holding only the reasoning prompt, first, when no message is a system
        message."""
        first = 1 if ctx.messages and ctx.messages[0].role == "system" else 0
        if index != first or any(m.role == "system" for m in ctx.messages):
            return ""
        return "<|system|>\n" + APRIEL15_REASONING_PROMPT + f"\n{END}\n"

    def skip_before_turn(self, text: str, pos: int) -> int:
        """Past the reasoning-prompt-only turn when it is at ``pos``."""
        plain = "<|system|>\n" + APRIEL15_REASONING_PROMPT + f"\n{END}\n"
        return pos + len(plain) if text.startswith(plain, pos) else pos

    def user_text(self, index: int, ctx: Conversation) -> str:
        """A user turn's content; a later system message as the opening one is written."""
        message = ctx.messages[index]
        if message.role != "system":
            return text_of(message.content)
        return str(self.system_text(text_of(message.content), ctx))

    def parse_user(self, body: str) -> str:
        """The content (a system turn's without the reasoning prompt and definitions)."""
        if not body.startswith(APRIEL15_REASONING_PROMPT):
            return body
        return body[len(APRIEL15_REASONING_PROMPT) :].partition("\n" + APRIEL15_TOOLS_HEAD)[0]

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """The content, the calls after a line break (ids left out in the conversation's last
        message), then the line break before ``<|end|>``."""
        calls = message.tool_calls
        if last:
            calls = [ToolCall(c.name, c.arguments) for c in calls]
        return self.calls_text(ctx.dialect, calls, text_of(message.content)) + "\n"

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Mapping[str, Any]]) -> Any:
        """The body without the line break before ``<|end|>``, read by the dialect."""
        return super().parse_turn(body.removesuffix("\n"), dialect, tools)

    def generation_prompt(self, ctx: Conversation) -> str:
        """``<|assistant|>\\n``, unless the last message is an assistant's."""
        messages = ctx.messages
        return "" if not messages or messages[-1].role == "assistant" else "<|assistant|>\n"

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """As the base, without the ids of the last message's calls (never written)."""
        out = super().expressible(messages)
        if out and out[-1].tool_calls:
            last = out[-1]
            out[-1] = Message(
                role=last.role,
                content=last.content,
                tool_calls=[ToolCall(c.name, c.arguments) for c in last.tool_calls],
            )
        return out
