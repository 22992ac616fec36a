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
from typing import Any, ClassVar

import msgspec

from tooletta import Message, to_json
from tooletta.plugin import (
    IM_END,
    IM_START,
    ChatFormat,
    Conversation,
    Reasoning,
    Turn,
    by_content,
    chatml,
    defaults,
    last_query,
    patterns_of,
    roles,
    text_of,
    tool_json,
)
from tooletta_dialect_hermes.models import MODELS

__all__ = [
    "QWEN_TOOLS_HEAD",
    "QWEN_TOOLS_TAIL",
    "Hermes2ProChat",
    "MiMoVLChat",
    "QwQChat",
    "Qwen3Chat",
    "Qwen25Chat",
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

    turns = roles(
        system=chatml("system"),
        user=chatml("user"),
        assistant=chatml("assistant"),
        tool=Turn(f"{IM_START}user", f"{IM_END}\n"),
    )
    end_of_turn = IM_END
    special_tokens: ClassVar[tuple[str, ...]] = _QWEN_SPECIAL
    result_wrap = ("\n<tool_response>\n", "\n</tool_response>")
    group_results = True
    keeps_ids = False
    default_system: ClassVar[str | None] = None
    """The system prompt written when the conversation has no system message (``None``: no
    system turn unless there are tools)."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The system message (or :attr:`default_system`), then (with tools) the tool
        declarations after a blank line."""
        if system is None:
            system = self.default_system
        if not ctx.tools:
            return system
        return (system or "") + "\n\n" + tools_block(ctx.tools)

    def parse_system(self, body: str) -> str | None:
        """The system message without the tool declarations (``None`` when the turn held
        only those, or only the default system prompt). An empty head before the tools is an
        empty system message when the template has a default prompt (without a message it
        would have written that)."""
        head, sep, _ = body.partition("\n\n" + QWEN_TOOLS_HEAD)
        if head == self.default_system:
            return None
        if sep and not head:
            return "" if self.default_system else None
        return head

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """As the base, without a first system message equal to the default system prompt
        (the text is the same as with none)."""
        out = super().expressible(messages)
        if out and out[0].role == "system" and out[0].content == self.default_system:
            out = out[1:]
        return out

    def expressible_for(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """As :meth:`expressible`, without an empty first system message where the template
        writes it as it writes none (QwQ with tools: both give the tool declarations alone)."""
        out = self.expressible(messages)
        empty = bool(ctx.tools) and bool(out) and out[0].role == "system" and not out[0].content
        if empty and self.parse_system(self.system_text("", ctx) or "") is None:
            out = out[1:]
        return out


class Qwen25Chat(QwenChat):
    """Qwen2.5 Instruct (and Coder Instruct): always a system turn, the default prompt
    ``You are Qwen, created by Alibaba Cloud. You are a helpful assistant.``; no reasoning."""

    name = "qwen25"
    models = patterns_of(MODELS, chat="qwen25")
    source = "Qwen/Qwen2.5-7B-Instruct tokenizer_config.json chat_template"
    default_system = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."


class MiMoVLChat(QwenChat):
    """Xiaomi MiMo-VL: the Qwen2.5 template with the default prompt ``You are MiMo, an AI
    assistant developed by Xiaomi.``."""

    name = "mimo_vl"
    models = patterns_of(MODELS, chat="mimo_vl")
    source = "XiaomiMiMo/MiMo-VL-7B chat template (as vendored by llama.cpp, MiMo-VL.jinja)"
    default_system = "You are MiMo, an AI assistant developed by Xiaomi."


class QwQChat(QwenChat):
    """QwQ-32B: no default system prompt; the generation prompt opens ``<think>\\n``; turns
    before the last keep only what follows their ``</think>`` (left-stripped of newlines).

    The template reads reasoning only from the content (``reasoning_content`` is ignored); the
    last turn's reasoning is written as the model generates it (``<think>\\n`` R
    ``\\n</think>\\n\\n`` before the content), which the template writes for content holding
    that block.
    """

    name = "qwq"
    models = patterns_of(MODELS, chat="qwq")
    source = "Qwen/QwQ-32B tokenizer_config.json chat_template"
    special_tokens = _QWEN3_SPECIAL
    reasoning = Reasoning("<think>\n", "\n</think>\n\n", strip="\n", keep="none")

    def keeps_reasoning(self, index: int, messages: Sequence[Message]) -> bool:
        """Only the conversation's last message keeps its reasoning."""
        return index == len(messages) - 1

    def assistant_text(self, index: int, ctx: Conversation) -> str:
        """:meth:`turn_body`, the turn keeping its reasoning when it is the last (the rule
        of :meth:`keeps_reasoning`, without asking it)."""
        messages = ctx.messages
        last = index == len(messages) - 1
        return self.turn_body(messages[index], last, last, ctx)

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """The reasoning block (last turn only), then the content (before the last turn,
        only what follows ``</think>``, left-stripped of newlines) and the calls; a turn
        whose content shrank to nothing still writes the template's newline before its
        calls."""
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

    def generation_prompt(self, ctx: Conversation) -> str:
        """``<|im_start|>assistant\\n<think>\\n``: the model writes its reasoning first."""
        return self.turns["assistant"].header + "<think>\n"

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """As the base, with the content of assistant turns before the last cut as the
        template cuts it."""
        out = super().expressible(messages)
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
    models = patterns_of(MODELS, chat="qwen3")
    """The April 2025 (hybrid thinking) sizes, bare or with a suffix (``-FP8``, ``-AWQ``,
    ``-Base``...) not starting with ``i`` or ``t`` (the rows in :mod:`.models`): the
    ``-Instruct-2507`` and ``-Thinking-2507`` releases of the same sizes have templates of
    their own (:mod:`tooletta_dialect_hermes.chat_qwen3_2507`)."""
    source = "Qwen/Qwen3-8B tokenizer_config.json chat_template"
    special_tokens = _QWEN3_SPECIAL
    reasoning: ClassVar[Reasoning | None] = Reasoning(
        "<think>\n", "\n</think>\n\n", strip="\n", keep="after_last_user", empty="last"
    )
    options = defaults(enable_thinking=True)
    prompt_options: ClassVar[Sequence[Mapping[str, Any]]] = ({"enable_thinking": False},)
    """Thinking off's prompt (an empty think block), read back as no message."""

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
        query = last_query(messages)
        return query >= 0 and index > query

    def kept_in(self, index: int, ctx: Conversation) -> bool:
        """:meth:`keeps_reasoning`, the last user query found once per conversation."""
        query = ctx.once("last_query", lambda: last_query(ctx.messages))
        return query >= 0 and index > query

    def content_text(self, content: str, after_reasoning: bool) -> str:
        """After a reasoning block the template strips the content's leading newlines."""
        return content.lstrip("\n") if after_reasoning else content

    def generation_prompt(self, ctx: Conversation) -> str:
        """``<|im_start|>assistant\\n``, with an empty think block when thinking is off."""
        prompt = self.turns["assistant"].header
        if ctx.options.get("enable_thinking") is False:
            prompt += "<think>\n\n</think>\n\n"
        return prompt


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

_PY_TYPES = {"string": "str", "number": "float", "integer": "int", "boolean": "bool"}
_UNDEFINED = object()


def python_type(spec: Any) -> str:
    """A JSON schema as the Hermes template's ``json_to_python_type`` macro names it.

    Its quirks are kept: an array is ``list[Union[]]`` (the macro passes the schema's
    ``items`` pairs, which have no type), a schema without a type is ``Union[]`` and a list
    of types is ``Union[A,B]``. Where the macro never returns (a type name it does not know,
    such as ``"null"``, recurses over its letters forever) this writes ``Any``.
    """
    kind = spec.get("type", _UNDEFINED) if isinstance(spec, Mapping) else _UNDEFINED
    if isinstance(kind, str) and kind in _PY_TYPES:
        return _PY_TYPES[kind]
    if kind == "array":
        return "list[Union[]]"
    if kind == "object":
        if isinstance(spec, Mapping) and "additionalProperties" in spec:
            return "dict[str, " + python_type(spec["additionalProperties"]) + "]"
        return "dict"
    if kind is _UNDEFINED:
        return "Union[]"
    if isinstance(kind, (list, tuple, Mapping)):
        return "Union[" + ",".join(python_type({"type": t}) for t in kind) + "]"
    return "Any"


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
    models = patterns_of(MODELS, chat="hermes2pro")
    source = (
        "NousResearch/Hermes-2-Pro-Llama-3-8B and NousResearch/Hermes-3-Llama-3.1-8B "
        "tokenizer_config.json chat_template (tool_use and default; identical in both)"
    )
    bos = "<|begin_of_text|>"
    turns = roles(
        system=chatml("system"),
        user=chatml("user"),
        assistant=chatml("assistant"),
        tool=Turn(f"{IM_START}tool", f"\n{IM_END}"),
    )
    end_of_turn = IM_END
    special_tokens = ("<|begin_of_text|>", IM_START, IM_END)
    result_wrap = ("\n<tool_response>\n", "\n</tool_response>")
    group_results = True
    merge_system = False
    keeps_ids = False

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The tool-use turn (only with tools; system messages are turns of their own)."""
        return hermes_tools(ctx.tools) if ctx.tools else None

    def parse_system(self, body: str) -> str | None:
        """The tool-use turn holds no message; any other opening turn is a system message."""
        return None if body.startswith(HERMES_TOOLS_HEAD) else body

    def result_footer(self, index: int, ctx: Conversation) -> str:
        """``\\n<|im_end|>``, without the newline after the conversation's last message."""
        return IM_END if index == len(ctx.messages) - 1 else "\n" + IM_END

    def skip_result_footer(self, text: str, pos: int) -> int:
        """Past ``\\n<|im_end|>`` or ``<|im_end|>``."""
        for footer in ("\n" + IM_END, IM_END):
            if text.startswith(footer, pos):
                return pos + len(footer)
        return -1
