"""Conversation formats of the models writing hermes tool calls (their chat templates).

Qwen3 (``Qwen/Qwen3-*``, template in ``tokenizer_config.json``; vendored for the tests from
llama.cpp's ``models/templates/Qwen-Qwen3-0.6B.jinja``): ChatML turns
(``<|im_start|>ROLE\\n`` ... ``<|im_end|>\\n``), the tool declarations in the system turn
(fixed instruction text below, one ``tojson`` line per tool inside ``<tools></tools>``), tool
results as ``<tool_response>`` blocks grouped in one user turn, and reasoning as
``<think>\\n...\\n</think>\\n\\n``, kept only after the last user query (and written empty for
the last turn).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tooletta import Message
from tooletta.chat import ChatFormat, Conversation, Reasoning, Turn, defaults, roles, tool_json

__all__ = ["Qwen3Chat"]

_IM_START = "<|im_start|>"
_IM_END = "<|im_end|>"

QWEN_TOOLS_HEAD = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
)
"""Qwen2.5/Qwen3's tool-declaration instructions before the tool list (template text)."""
QWEN_TOOLS_TAIL = (
    "\n</tools>\n\nFor each function call, return a json object with function name and "
    "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
)
"""Qwen2.5/Qwen3's instructions after the tool list (template text)."""


def chatml(role: str) -> Turn:
    """A ChatML turn: ``<|im_start|>ROLE\\n`` ... ``<|im_end|>\\n``."""
    return Turn(f"{_IM_START}{role}\n", f"{_IM_END}\n")


def tools_block(tools: Sequence[Mapping[str, object]]) -> str:
    """The Qwen tool declarations: the instructions around one ``tojson`` line per tool."""
    return QWEN_TOOLS_HEAD + "".join("\n" + tool_json(t) for t in tools) + QWEN_TOOLS_TAIL


def _is_tool_response(message: Message) -> bool:
    content = message.content if isinstance(message.content, str) else ""
    return content.startswith("<tool_response>") and content.endswith("</tool_response>")


class Qwen3Chat(ChatFormat):
    """Qwen3's chat template (thinking models: ``enable_thinking`` defaults to true)."""

    name = "qwen3"
    models = ("qwen/qwen3-*", "qwen3-*")
    source = "Qwen/Qwen3-8B tokenizer_config.json chat_template"
    turns = roles(
        system=chatml("system"),
        user=chatml("user"),
        assistant=chatml("assistant"),
        tool=Turn(f"{_IM_START}user", f"{_IM_END}\n"),
    )
    end_of_turn = _IM_END
    special_tokens = (
        _IM_START,
        _IM_END,
        "<think>",
        "</think>",
        "<tool_call>",
        "</tool_call>",
        "<tool_response>",
        "</tool_response>",
    )
    reasoning = Reasoning(
        "<think>\n", "\n</think>\n\n", strip="\n", keep="after_last_user", empty="last"
    )
    result_wrap = ("\n<tool_response>\n", "\n</tool_response>")
    group_results = True
    keeps_ids = False
    options = defaults(enable_thinking=True)

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The system message, then (with tools) the tool declarations."""
        if not ctx.tools:
            return system
        return (system + "\n\n" if system is not None else "") + tools_block(ctx.tools)

    def parse_system(self, body: str) -> str | None:
        """The system message without the tool declarations (``None`` when only those)."""
        if body.startswith(QWEN_TOOLS_HEAD):
            return None
        head, sep, _ = body.partition("\n\n" + QWEN_TOOLS_HEAD)
        return head if sep else body

    def keeps_reasoning(self, index: int, messages: Sequence[Message]) -> bool:
        """Only turns after the last user query (a user message that is not a wrapped tool
        response); none when there is no such query."""
        for i in range(len(messages) - 1, -1, -1):
            if messages[i].role == "user" and not _is_tool_response(messages[i]):
                return index > i
        return False

    def content_text(self, content: str, after_reasoning: bool) -> str:
        """After a reasoning block the template strips the content's leading newlines."""
        return content.lstrip("\n") if after_reasoning else content

    def generation_prompt(self, ctx: Conversation) -> str:
        """``<|im_start|>assistant\\n``, with an empty think block when thinking is off."""
        prompt = self.turns["assistant"].header
        if ctx.options.get("enable_thinking") is False:
            prompt += "<think>\n\n</think>\n\n"
        return prompt
