"""dots3-note's conversation format: its chat template, declared.

The template (``dots-studio/dots3-note-prev`` ``chat_template.jinja``) always opens with a
system turn, ``<|system|>...<|endofsystem|>`` (``You are a helpful assistant.`` without a
system message), holding the tool declarations after the system prompt when there are tools
(fixed instructions, one ``tojson`` line per tool inside ``<tools></tools>``, an example of
the call form). Turns have no line breaks: ``<|user|>...<|endofuser|>``,
``<|assistant|>...<|endofassistant|>``; tool results share one user turn, each in
``\\n<dots_function_response>\\n...\\n</dots_function_response>``. A later system message is
written as a user turn.

The assistant turn is the reasoning block (``<think>\\n...\\n</think>\\n\\n``, kept in every
turn by default), the content, then one ``\\n<dots_function_call>`` block per call with each
value between line breaks (the ``dots3`` variant dialect writes that). ``enable_thinking=False``
writes an empty block in every assistant turn and in the generation prompt, and
``<no_think>`` after each user message; ``clear_thinking=True`` empties the blocks of the
turns before the last user message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from tooletta import Message, ParseResult
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Prompt,
    Reasoning,
    Turn,
    by_content,
    defaults,
    last_index,
    roles,
    text_of,
    tool_json,
)

__all__ = ["DEFAULT_SYSTEM", "TOOLS_HEAD", "TOOLS_TAIL", "Dots3Chat", "tools_block"]

SYSTEM = "<|system|>"
END_SYSTEM = "<|endofsystem|>"
USER = "<|user|>"
END_USER = "<|endofuser|>"
ASSISTANT = "<|assistant|>"
END = "<|endofassistant|>"
NO_THINK = "<no_think>"
THINK_OPEN = "<think>\n"
THINK_CLOSE = "\n</think>\n\n"
EMPTY_THINK = THINK_OPEN + THINK_CLOSE
DEFAULT_SYSTEM = "You are a helpful assistant."
"""The system prompt the template writes when the conversation has no system message."""
TOOLS_HEAD = (
    "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
)
"""The template's instructions before the tool list (after the system prompt)."""
TOOLS_TAIL = (
    "\n</tools>\n\nWhen making tool calls, use XML format to invoke tools and pass parameters:"
    '\n\n<dots_function_call>\n<invoke name="tool-name-1">\n<parameter name="param-key-1">\n'
    'param-value-1\n</parameter>\n<parameter name="param-key-2">\nparam-value-2\n</parameter>\n'
    "...\n</invoke>\n</dots_function_call>"
)
"""The template's instructions after the tool list."""


@by_content
def tools_block(tools: Sequence[Mapping[str, Any]]) -> str:
    """The tool declarations: the instructions around one ``tojson`` line per tool
    (remembered by the tools' content)."""
    return TOOLS_HEAD + "".join("\n" + tool_json(t) for t in tools) + TOOLS_TAIL


class Dots3Chat(ChatFormat):
    """dots3-note: ``<|system|>``/``<|user|>``/``<|assistant|>`` turns without line breaks,
    the tools in the system turn, ``<dots_function_response>`` results in one user turn."""

    name = "dots3"
    source = "dots-studio/dots3-note-prev chat_template.jinja (copy in KMnO4-zx/llm-model f8270b78)"
    turns = roles(
        system=Turn(""),
        user=Turn(USER, END_USER),
        assistant=Turn(ASSISTANT, END),
        tool=Turn(USER, END_USER),
    )
    end_of_turn = END
    special_tokens: ClassVar[tuple[str, ...]] = (
        SYSTEM,
        END_SYSTEM,
        USER,
        END_USER,
        ASSISTANT,
        END,
        "<think>",
        "</think>",
        NO_THINK,
        "<dots_function_call>",
        "</dots_function_call>",
        "<dots_function_response>",
        "</dots_function_response>",
    )
    reasoning = Reasoning(THINK_OPEN, THINK_CLOSE, strip=None, keep="all", strip_first=True)
    """The trimmed reasoning's block (none when only whitespace is left: the template trims
    it first)."""
    result_wrap = ("\n<dots_function_response>\n", "\n</dots_function_response>")
    group_results = True
    keeps_ids = False
    options = defaults(enable_thinking=True, clear_thinking=False)
    prompt = Prompt(off=EMPTY_THINK)
    """``<|assistant|>``, and an empty reasoning block with ``enable_thinking=False`` (read
    back as no message: the derived ``prompt_options``)."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The whole opening turn: the system prompt (or the default one), then the tool
        declarations when there are tools. Oddity: the turn's own markers are written here
        (the declared system turn has none) because a later system message is a user turn."""
        tools = tools_block(ctx.tools) if ctx.tools else ""
        return f"{SYSTEM}{DEFAULT_SYSTEM if system is None else system}{tools}{END_SYSTEM}"

    def parse_system(self, body: str) -> str | None:
        """The system message (``None`` for the default prompt), inside the turn's markers
        (:meth:`system_text`).

        Oddity: the reader of :meth:`system_text`'s turn, markers included."""
        if body.startswith(SYSTEM) and body.endswith(END_SYSTEM):
            body = body[len(SYSTEM) : -len(END_SYSTEM)]
        head = body.partition(TOOLS_HEAD)[0]
        return None if head == DEFAULT_SYSTEM else head

    def header(self, index: int, ctx: Conversation) -> str:
        """The declared header; a later system message opens a user turn.

        Oddity: a later system message is written as a user turn."""
        role = ctx.messages[index].role
        return USER if role == "system" else self.turns[role].header

    def user_text(self, index: int, ctx: Conversation) -> str:
        """The content (``<no_think>`` after a user message with ``enable_thinking=False``);
        a later system message's turn also closes here (its turn is a user turn).

        Oddity: ``<no_think>`` follows each user message with thinking off, and a later system
        message's user turn is closed here."""
        message = ctx.messages[index]
        content = text_of(message.content)
        if message.role == "system":
            return content + END_USER
        if ctx.options.get("enable_thinking") is False and not content.endswith(NO_THINK):
            return content + NO_THINK
        return content

    def assistant_text(self, index: int, ctx: Conversation) -> str:
        """An empty reasoning block with ``enable_thinking=False`` (every turn) or
        ``clear_thinking=True`` (turns before the last user message); else the kept one.

        Oddity: two switches empty the reasoning blocks of history (``enable_thinking=False``
        every turn's, ``clear_thinking`` those before the last user message)."""
        message = ctx.messages[index]
        options = ctx.options
        cleared = options.get("enable_thinking") is False
        if not cleared and options.get("clear_thinking"):
            cleared = index < ctx.last_user
        content = message.content
        if type(content) is not str:
            content = self.text(content)
        if cleared:
            block = EMPTY_THINK
        else:  # reasoning_text of a kept turn (every turn keeps it), without the hooks
            reasoning = message.reasoning.strip()
            block = THINK_OPEN + reasoning + THINK_CLOSE if reasoning else ""
        return block + self.calls_text(ctx.dialect, message.tool_calls, content)

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Mapping[str, Any]]) -> Any:
        """The reasoning block taken off, then the dialect's parse of the rest.

        Oddity: the dialect does not read the reasoning block: it is taken off here."""
        reasoning = ""
        if body.startswith(THINK_OPEN):
            end = body.find(THINK_CLOSE, len(THINK_OPEN) - 1)
            if end >= 0:
                reasoning = body[len(THINK_OPEN) : end]
                body = body[end + len(THINK_CLOSE) :]
        result: ParseResult = dialect.parse(body, tools=list(tools) or None)
        return msgspec.structs.replace(result, reasoning=reasoning) if reasoning else result

    def carried(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """As the base (the reasoning trimmed), without a first system message equal to the
        default prompt, later system messages as user messages, and the switches' history of
        ``ctx.options``: ``enable_thinking=False`` clears every turn's reasoning and appends
        ``<no_think>`` to every user text (read back as the user's text, as it is written),
        ``clear_thinking`` clears the reasoning of the turns before the last user message
        (:meth:`expressible` is this under the defaults, :meth:`expressible_for` under the
        rendering's options).

        Oddity: later system messages are written as user turns, and the switches change the
        history (see :meth:`assistant_text` and :meth:`user_text`)."""
        options = ctx.options
        off = options.get("enable_thinking") is False
        if off or options.get("clear_thinking"):
            last_user = last_index(messages, lambda m: m.role == "user")
            written = []
            for i, m in enumerate(messages):
                if m.role == "assistant" and (off or i < last_user):
                    m = msgspec.structs.replace(m, reasoning="")
                elif off and m.role == "user":
                    content = text_of(m.content)
                    if not content.endswith(NO_THINK):
                        m = msgspec.structs.replace(m, content=content + NO_THINK)
                written.append(m)
            messages = written
        out = super().carried(messages, ctx)
        if out and out[0].role == "system" and out[0].content == DEFAULT_SYSTEM:
            out = out[1:]
        return [
            Message("user", m.content) if m.role == "system" and index > 0 else m
            for index, m in enumerate(out)
        ]
