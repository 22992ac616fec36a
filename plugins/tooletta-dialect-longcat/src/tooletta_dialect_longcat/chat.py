"""LongCat-Flash-Chat's conversation format: its chat template, declared.

The template (``meituan-longcat/LongCat-Flash-Chat`` ``tokenizer_config.json``) writes no
special role tokens but plain markers on one line: ``SYSTEM:`` + the system message,
``[Round N] USER:`` + each user message (``N`` counts the user turns from 0; a space before
it unless it is the conversation's first message), `` ASSISTANT:`` + the reply + the
end-of-turn ``</longcat_s>``, `` TOOL:`` + each result as a JSON object
(``{"name": ..., "content": ...}``, the name when the message has one). With tools, the
declarations come first: ``# Tools``, one ``## Tool namespace:`` heading per tool type, each
tool's name, description and ``tojson(indent=2)`` schema, the fixed call instructions, then
``# Messages`` before the first turn.

The reply is the content directly followed by the calls, each
``<longcat_tool_call>\\n{"name": "NAME", "arguments": {json}}\\n</longcat_tool_call>``, with
nothing between them (the ``longcat_flash_chat`` variant dialect writes that). Reasoning is
written only with ``enable_thinking=True`` and tools, in the turns after the last answer
without calls, as ``\\n<longcat_think>\\n...\\n</longcat_think>\\n``; the generation prompt
then is `` /think_on ASSISTANT:<longcat_think>\\n`` (`` /think_off ASSISTANT:`` and an empty
block with ``enable_thinking=False``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from tooletta import Message, ParseError, to_json
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Preamble,
    Turn,
    by_content,
    defaults,
    roles,
    text_of,
    tool_json,
)

__all__ = [
    "CODE_INTERPRETER",
    "END",
    "TOOLS_HEAD",
    "TOOLS_TAIL",
    "LongCatFlashChat",
    "tools_block",
]

END = "</longcat_s>"
"""The end-of-turn token (the tokenizer's ``eos_token``)."""
THINK_OPEN = "<longcat_think>"
THINK_CLOSE = "</longcat_think>"
_BUDGET_PROMPT = re.compile(
    r" /think_on\nthinking_budget: < \d+\. ASSISTANT:" + re.escape(THINK_OPEN) + r"\n\Z"
)
"""The generation prompt with ``enable_thinking`` and a ``thinking_budget``, ending a text."""
TOOLS_HEAD = "# Tools\nYou have access to the following tools: \n\n"
"""The template's text before the tool declarations."""
TOOLS_TAIL = (
    "**Note**: For each function call, return a json object with function name and arguments "
    "within <longcat_tool_call></longcat_tool_call> XML tags as follows:\n<longcat_tool_call>\n"
    '{"name": <function-name>, "arguments": <args-dict>}\n</longcat_tool_call>\n'
    "When multiple functions need to be called simultaneously, each function call should be "
    "wrapped in its own <longcat_tool_call> tag and placed consecutively. For example:\n"
    '<longcat_tool_call>\n{"name": <function-name>, "arguments": <args-dict>}\n'
    '</longcat_tool_call><longcat_tool_call>\n{"name": <function-name>, "arguments": '
    "<args-dict>}\n</longcat_tool_call>\n\n# Messages\n"
)
"""The template's call instructions after the declarations, and the ``# Messages`` heading."""
TOOL_TYPES = ("code_interpreter", "function")
"""The tool types the template declares (others are left out)."""
CODE_INTERPRETER: Mapping[str, Any] = {
    "type": "code_interpreter",
    "function": {
        "name": "code_interpreter_preview",
        "description": (
            "The code will be executed in a stateful Jupyter notebook sandbox environment, "
            "only supports local computation, data processing, and file operations. \n"
            "Code sandbox environment (network isolated) Any external network requests or "
            "online API calls are prohibited. \nIf online functionality is needed, please use "
            "other permitted tools. \nCode will respond with the output of the execution or "
            "time out after 60.0 seconds. "
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "language": {
                    "type": "string",
                    "description": (
                        "The programming language of the code to be executed. Available "
                        "values: python (Default), java, go, js, ts, c, c++."
                    ),
                },
                "code": {
                    "type": "string",
                    "description": (
                        "Python code to be executed must not include the following:\n"
                        "- Importing network libraries such as requests, httplib, etc.\n"
                        "- Any form of HTTP requests.\n- External API calls.\n"
                        "- Network port operations. Example: ```python\nimport pandas as pd\n"
                        "pd.DataFrame({'A':[1,2]})\n```"
                    ),
                },
                "timeout": {
                    "type": "number",
                    "description": (
                        "The maximum execution time of the code, in seconds. Default is 60.0."
                    ),
                },
            },
        },
        "required": ["code"],
    },
}
"""The definition the template writes in place of any ``code_interpreter`` tool."""

_USER_HEADER = re.compile(r" ?\[Round (\d+)\] USER:")
_DECODER = json.JSONDecoder()


def _text(value: Any) -> str:
    """A definition field as the template concatenates it (missing or null: empty)."""
    return "" if value is None else value if isinstance(value, str) else str(value)


@by_content
def tools_block(tools: Sequence[Mapping[str, Any]]) -> str:
    """The tool declarations as the template writes them, from ``# Tools`` to ``# Messages``
    (remembered by the tools' content)."""
    parts = [TOOLS_HEAD]
    kinds: list[str] = []
    for tool in tools:
        kind = tool.get("type")
        if kind not in TOOL_TYPES:
            continue
        if kind not in kinds:
            kinds.append(kind)
            parts.append(f"## Tool namespace: {kind}\n\n")
        function = (CODE_INTERPRETER if kind == "code_interpreter" else tool).get("function")
        function = function if isinstance(function, Mapping) else {}
        parameters = function.get("parameters")
        parts.append(
            f"### Tool name: {_text(function.get('name'))}\n\n"
            f"Description: {_text(function.get('description'))}\n\n"
            f"InputSchema: \n{tool_json({} if parameters is None else parameters, indent=2)}\n\n"
        )
    parts.append(TOOLS_TAIL)
    return "".join(parts)


def _declares(ctx: Conversation) -> bool:
    """The template writes the declarations (tools given, ``tool_choice`` not ``none``)."""
    return bool(ctx.tools) and ctx.options.get("tool_choice") != "none"


def _declarations(ctx: Conversation) -> str:
    """The declarations the template writes before the first message (none when it
    declares no tools)."""
    return tools_block(ctx.tools) if _declares(ctx) else ""


def _thinks(ctx: Conversation) -> bool:
    """The template writes reasoning blocks: ``enable_thinking=True`` and tools declared."""
    return (
        ctx.options.get("enable_thinking") is True
        and _declares(ctx)
        and any(t.get("type") in TOOL_TYPES for t in ctx.tools)
    )


def _last_answer(messages: Sequence[Message]) -> int:
    """The template's ``last_query_index``: the last assistant turn without calls before the
    last message (-1 when none)."""
    for index in range(len(messages) - 2, -1, -1):
        if messages[index].role == "assistant" and not messages[index].tool_calls:
            return index
    return -1


class LongCatFlashChat(ChatFormat):
    """LongCat-Flash-Chat: ``SYSTEM:``, ``[Round N] USER:``, `` ASSISTANT:``...``</longcat_s>``
    and `` TOOL:{json}`` on one line, the tool declarations first."""

    name = "longcat_flash_chat"
    source = (
        "meituan-longcat/LongCat-Flash-Chat tokenizer_config.json chat_template (copy in "
        "KMnO4-zx/llm-model c99bbed9)"
    )
    turns = roles(
        system=Turn("SYSTEM:"),
        user=Turn(" [Round "),
        assistant=Turn(" ASSISTANT:", END),
        tool=Turn(" TOOL:"),
    )
    end_of_turn = END
    merge_system = False
    keeps_ids = False
    special_tokens: ClassVar[tuple[str, ...]] = (END,)
    quoted_fields: ClassVar[frozenset[str]] = frozenset({"tool result"})
    """A result is written as a JSON object and read back by decoding it: markup in it stays
    text."""
    options = defaults(enable_thinking=None, thinking_budget=None, tool_choice="auto")
    prompt_options = ({"enable_thinking": True}, {"enable_thinking": False})
    """The thinking switch's prompts (`` /think_on``, `` /think_off``), read back as no
    message; the thinking budget's is found by :meth:`prompt_start`."""
    preamble = Preamble(_declarations, ((TOOLS_HEAD, TOOLS_TAIL),), start_only=True)
    """The tool declarations, at the start of the text (before the first message)."""

    def header(self, index: int, ctx: Conversation) -> str:
        """``[Round N] USER:`` for a user turn (``N`` counted from 0, a space before unless it
        is the first message); the declared header otherwise. The rounds are counted once per
        conversation (:func:`user_rounds`), not once per user turn.

        Oddity: user headers count rounds."""
        messages = ctx.messages
        role = messages[index].role
        if role != "user":
            return self.turns[role].header
        rounds = ctx.once("longcat_rounds", lambda: user_rounds(messages))[index]
        return f"{' ' if index else ''}[Round {rounds}] USER:"

    def read_header(self, text: str, pos: int) -> tuple[str, int] | None:
        """A user header, whatever its round number (the others are fixed).

        Oddity: the reader of :meth:`header`'s round numbers."""
        found = _USER_HEADER.match(text, pos)
        return ("user", found.end()) if found else None

    def user_text(self, index: int, ctx: Conversation) -> str:
        """The content, after the message's ``files`` (``tojson(indent=2)`` in
        ``<longcat_files>``) when it has some.

        Oddity: a user message's ``files`` precede its content."""
        message = ctx.messages[index]
        content = text_of(message.content)
        files = message.extra.get("files") if message.role == "user" else None
        if not files:
            return content
        return f"<longcat_files>\n{tool_json(files, indent=2)}\n</longcat_files>{content}"

    def result_text(self, index: int, ctx: Conversation) -> str:
        """``{"name": ..., "content": ...}`` (``{"content": ...}`` without a name).

        Oddity: results are JSON objects."""
        message = ctx.messages[index]
        content = to_json(message.content)
        if message.name:
            return f'{{"name": {to_json(message.name)}, "content": {content}}}'
        return f'{{"content": {content}}}'

    def read_results(self, text: str, pos: int, pending: int) -> tuple[list[str], int] | None:
        """The result's JSON object (its end found by decoding it: a content may hold any
        text). A ``null`` content (what the template writes for a result without content)
        is an empty one; an object without ``content`` is refused.

        Oddity: the reader of :meth:`result_text`'s JSON."""
        try:
            value, end = _DECODER.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise ParseError(
                f"{self.name} conversation: a tool result is not a JSON object ({exc.msg})",
                position=pos,
            ) from None
        if not isinstance(value, dict) or "content" not in value:
            raise ParseError(
                f"{self.name} conversation: a tool result has no content", position=pos
            )
        content = value["content"]
        if content is None:
            return [""], end
        return [content if isinstance(content, str) else text_of(content)], end

    def assistant_text(self, index: int, ctx: Conversation) -> str:
        """The reasoning block (only with ``enable_thinking=True`` and declared tools, after
        the last answer without calls), the content, the calls.

        Oddity: reasoning only with thinking on and tools declared."""
        message = ctx.messages[index]
        block = ""
        if message.reasoning and _thinks(ctx) and index > _last_answer(ctx.messages):
            block = f"\n{THINK_OPEN}\n{message.reasoning}\n{THINK_CLOSE}\n"
        content = text_of(message.content)
        return block + self.calls_text(ctx.dialect, message.tool_calls, content)

    def expressible_for(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """As :meth:`expressible`; with thinking on and tools declared, the turns after the
        last answer without calls keep their reasoning.

        Oddity: the history rule of :meth:`assistant_text` depends on options and tools."""
        out = self.expressible(messages)
        if not _thinks(ctx):
            return out
        last = _last_answer(messages)
        return [
            msgspec.structs.replace(m, reasoning=messages[i].reasoning)
            if m.role == "assistant" and i > last
            else m
            for i, m in enumerate(out)
        ]

    def prompt_start(self, text: str, pos: int, ctx: Conversation) -> int:
        """As declared, and the thinking budget's prompt, whatever its number.

        Oddity: the thinking budget's prompt holds a number."""
        start = super().prompt_start(text, pos, ctx)
        found = _BUDGET_PROMPT.search(text, pos)
        return min(start, found.start()) if found else start

    def generation_prompt(self, ctx: Conversation) -> str:
        """`` ASSISTANT:``; `` /think_on`` (and the thinking budget) before it and an open
        reasoning block after it with ``enable_thinking=True``; `` /think_off`` and an empty
        block with ``enable_thinking=False``.

        Oddity: a three-way switch and a budget line before the header."""
        thinking = ctx.options.get("enable_thinking")
        if thinking is True:
            budget = ctx.options.get("thinking_budget")
            line = f"\nthinking_budget: < {max(budget, 1024)}." if budget else ""
            return f" /think_on{line} ASSISTANT:{THINK_OPEN}\n"
        if thinking is False:
            return f" /think_off ASSISTANT:{THINK_OPEN}\n\n{THINK_CLOSE}\n"
        return " ASSISTANT:"


def user_rounds(messages: Sequence[Message]) -> list[int]:
    """For each message, the number of user messages before it (a user turn's round
    number), in one pass."""
    out: list[int] = []
    count = 0
    for message in messages:
        out.append(count)
        if message.role == "user":
            count += 1
    return out
