"""Conversation formats of IBM Granite 4.0 and 4.1 (their Hugging Face chat templates).

Pinned from the templates llama.cpp vendors as ``models/templates/ibm-granite-granite-4.0.jinja``
and ``ibm-granite-granite-4.1.jinja`` (the models' ``chat_template``). Both write:

* every message as ``<|start_of_role|>ROLE<|end_of_role|>CONTENT<|end_of_text|>\\n``;
* the system turn: the system message, then (after a blank line) the tool declarations (fixed
  instruction text, one ``tojson`` line per tool inside ``<tools></tools>``), then the
  ``documents`` (the RAG switch: the same layout inside ``<documents></documents>``);
* the assistant's calls in the hermes form (``<tool_call>\\n{json}\\n</tool_call>`` after the
  content and a newline, joined by newlines);
* tool results as ``\\n<tool_response>\\n...\\n</tool_response>`` blocks sharing one ``user``
  turn.

They differ in one thing: with neither a system message nor tools nor documents, 4.0 writes a
default system prompt and 4.1 writes no system turn. Neither has a place for reasoning.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from tooletta import RenderError
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Neutral,
    SystemBlock,
    Turn,
    defaults,
    each_role,
    tool_json,
)

__all__ = [
    "GRANITE4_DEFAULT_SYSTEM",
    "GRANITE4_DOCUMENTS_HEAD",
    "GRANITE4_TOOLS_HEAD",
    "Granite4Chat",
    "Granite40Chat",
    "Granite41Chat",
]

_START = "<|start_of_role|>"
_END_ROLE = "<|end_of_role|>"
_EOT = "<|end_of_text|>"

GRANITE4_TOOLS_HEAD = (
    "You are a helpful assistant with access to the following tools. You may call one or more "
    "tools to assist with the user query.\n\nYou are provided with function signatures within "
    "<tools></tools> XML tags:\n<tools>"
)
"""Granite 4's tool-declaration instructions before the tool list (template text)."""
_TOOLS_TAIL = (
    "\n</tools>\n\nFor each tool call, return a json object with function name and arguments "
    "within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>. If a tool does '
    "not exist in the provided list of tools, notify the user that you do not have the ability "
    "to fulfill the request."
)
GRANITE4_DOCUMENTS_HEAD = (
    "You are a helpful assistant with access to the following documents. You may use one or "
    "more documents to assist with the user query.\n\nYou are given a list of documents within "
    "<documents></documents> XML tags:\n<documents>"
)
"""Granite 4's instructions before the ``documents`` list (template text)."""
_DOCUMENTS_TAIL = (
    "\n</documents>\n\nWrite the response to the user's input by strictly aligning with the "
    "facts in the provided documents. If the information needed to answer the question is not "
    "available in the documents, inform the user that the question cannot be answered based on "
    "the available data."
)
GRANITE4_DEFAULT_SYSTEM = (
    "You are a helpful assistant. Please ensure responses are professional, accurate, and safe."
)
"""The system prompt Granite 4.0 writes when there is nothing else to put in its system turn."""


def _turn(role: str) -> Turn:
    return Turn(f"{_START}{role}{_END_ROLE}", f"{_EOT}\n")


def _listed(head: str, items: Sequence[Any], tail: str) -> str:
    return head + "".join("\n" + tool_json(item) for item in items) + tail


def _documents(ctx: Conversation) -> Sequence[Any]:
    documents = ctx.options.get("documents")
    if not documents:
        return ()
    if not isinstance(documents, Sequence) or isinstance(documents, (str, bytes)):
        raise RenderError("granite4: documents must be a list")
    return documents


class Granite4Chat(ChatFormat):
    """What the Granite 4.0 and 4.1 templates share. Option ``documents`` (a list, each
    written through ``tojson``) is the templates' RAG switch."""

    turns = each_role(_turn, tool=Turn(f"{_START}user{_END_ROLE}", f"{_EOT}\n"))
    end_of_turn = _EOT
    special_tokens = (_START, _END_ROLE, _EOT)
    result_wrap = ("\n<tool_response>\n", "\n</tool_response>")
    group_results = True
    keeps_ids = False
    part_separator = "\n"  # the templates join a list content's text parts with newlines
    system_block = SystemBlock(
        lambda tools: _listed(GRANITE4_TOOLS_HEAD, tools, _TOOLS_TAIL), head=GRANITE4_TOOLS_HEAD
    )
    """The system message, then (with tools) a blank line and the tool declarations (the
    documents follow, :meth:`system_text`)."""
    default_system: ClassVar[str | None] = None
    """The system prompt written when the system turn would be empty (``None``: no turn)."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """Oddity: the template's oddities: the ``documents`` option's declarations after the block,
        joined by a blank line, and :attr:`default_system` when all three are absent or
        empty."""
        text = self.system_block.write(system, ctx.tools) if self.system_block else system
        documents = _documents(ctx)
        if documents:
            listed = _listed(GRANITE4_DOCUMENTS_HEAD, documents, _DOCUMENTS_TAIL)
            text = listed if text is None else text + "\n\n" + listed
        return text or self.default_system

    def parse_system(self, body: str) -> str | None:
        """Oddity: the system message without the declarations (``None`` when the turn held only
        those, or only the default system prompt): the block's reading, then the documents'
        (the oddities of :meth:`system_text`)."""
        if body == self.default_system:
            return None
        read = self.system_block.read(body) if self.system_block else body
        if read != body:
            return read
        if body.startswith(GRANITE4_DOCUMENTS_HEAD):
            return None
        return body.partition("\n\n" + GRANITE4_DOCUMENTS_HEAD)[0]


class Granite40Chat(Granite4Chat):
    """Granite 4.0 (``ibm-granite/granite-4.0-h-small``, ``-h-tiny``, ``-h-micro``,
    ``-micro``, ``-h-1b``, ``-1b``, ``-h-350m``, ``-350m``): the default system prompt
    ``You are a helpful assistant. Please ensure responses are professional, accurate, and
    safe.`` when there is no other system text."""

    name = "granite40"
    unwritten_options = defaults(available_tools=Neutral(None, "", False, []))
    """The template's ``available_tools`` (a false value neutral) declares tools of its own;
    refused."""
    source = "ibm-granite granite-4.0 chat_template (llama.cpp ibm-granite-granite-4.0.jinja)"
    default_system = GRANITE4_DEFAULT_SYSTEM


class Granite41Chat(Granite4Chat):
    """Granite 4.1 (``ibm-granite/granite-4.1-*``): as 4.0 without the default system
    prompt (no system turn when there is no system text)."""

    name = "granite41"
    unwritten_options = defaults(available_tools=Neutral(None, "", False, []))
    """The template's ``available_tools`` (a false value neutral) declares tools of its own;
    refused."""
    source = "ibm-granite granite-4.1 chat_template (llama.cpp ibm-granite-granite-4.1.jinja)"
