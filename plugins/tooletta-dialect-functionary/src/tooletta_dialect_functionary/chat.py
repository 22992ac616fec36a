"""The conversation formats of Functionary v3.1 and v3.2 (their chat templates).

Pinned from ``meetkai/functionary-medium-v3.1`` and ``-v3.2``'s templates (vendored for the
tests from llama.cpp's ``models/templates/meetkai-functionary-medium-v3.{1,2}.jinja``). Both
use Llama 3 turns (``<|start_header_id|>ROLE<|end_header_id|>\\n\\n`` ... ``<|eot_id|>``) and
open with a system turn of their own (the tool declarations); a system message is a turn of
its own after it.

* v3.1: the opening turn is ``\\nCutting Knowledge Date: December 2023\\n\\n``, then with tools
  ``You have access to the following functions:`` and, per tool, ``Use the function 'NAME' to
  'DESCRIPTION'`` and the function's ``tojson`` — HTML-escaped, as Hugging Face's Jinja
  writes it (the template joins them to ``|safe`` literals, a ``Markup`` that escapes what is
  added to it) — then the fixed instructions. Calls follow the content as
  ``<function=NAME>{json}</function>``; a turn with calls ends with ``<|eom_id|>``, others
  with ``<|eot_id|>``; tool results are ``ipython`` turns.
* v3.2: the opening turn is the fixed instructions and the TypeScript-like declarations
  (:mod:`.typescript`); the assistant turn is ``>>>all\\n`` + content and ``>>>NAME\\n`` +
  arguments per call; the generation prompt ends with ``>>>``; tool results are ``tool``
  turns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Prompt,
    SystemBlock,
    ToolsTurn,
    Turn,
    by_content,
    each_role,
    tool_json,
)

from .typescript import namespace

__all__ = ["FunctionaryV31Chat", "FunctionaryV32Chat"]

_EOT = "<|eot_id|>"
_EOM = "<|eom_id|>"
_SPECIAL: tuple[str, ...] = (
    "<|begin_of_text|>",
    "<|start_header_id|>",
    "<|end_header_id|>",
    _EOT,
)

V31_INSTRUCTIONS = (
    "\nThink very carefully before calling functions.\nIf a you choose to call a function ONLY "
    "reply in the following format:\n<{start_tag}={function_name}>{parameters}{end_tag}\n"
    "where\n\nstart_tag => `<function`\nparameters => a JSON dict with the function argument "
    "name as key and function argument value as value.\nend_tag => `</function>`\n\n"
    "Here is an example,\n"
    '<function=example_function_name>{"example_name": "example_value"}</function>\n\n'
    "Reminder:\n- If looking for real time information use relevant functions before falling "
    "back to brave_search\n- Function calls MUST follow the specified format, start with "
    "<function= and end with </function>\n- Required parameters MUST be specified\n- Only call "
    "one function at a time\n- Put the entire function call reply on one line\n\n"
)
"""Functionary v3.1's instructions after the tool list (template text)."""
_V31_HEAD = "\nCutting Knowledge Date: December 2023\n\n"
_V31_TOOLS = "\nYou have access to the following functions:\n\n"

V32_SYSTEM = (
    "You are capable of executing available function(s) if required.\nOnly execute "
    "function(s) when absolutely necessary.\nAsk for the required input to:recipient==all\n"
    "Use JSON for function arguments.\nRespond in this format:\n>>>${recipient}\n${content}\n"
    "Available functions:\n"
)
"""Functionary v3.2's instructions before the tool declarations (template text)."""

_HTML = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&#34;", "'": "&#39;"})


def _escaped(text: str) -> str:
    """``text`` as Jinja's ``Markup`` escapes a string added to it."""
    return text.translate(_HTML)


def _turn(role: str) -> Turn:
    return Turn(f"<|start_header_id|>{role}<|end_header_id|>\n\n", _EOT)


def _tool_json(function: Mapping[str, Any]) -> str:
    return tool_json(function)


@by_content
def _v31_tools(tools: Sequence[Mapping[str, Any]]) -> str:
    """v3.1's tool list: per tool its name and description in a sentence, then its JSON
    (HTML-escaped: the template adds them to a ``Markup`` string)."""
    text = _V31_TOOLS
    for tool in tools:
        function = tool.get("function")
        function = function if isinstance(function, Mapping) else {}
        name = _escaped(str(function.get("name", "")))
        description = _escaped(str(function.get("description", "")))
        text += f"Use the function '{name}' to '{description}'\n"
        text += _escaped(_tool_json(function)) + "\n\n"
    return text


_v32_tools = by_content(namespace)
"""v3.2's ``namespace functions``, remembered by the tools' content."""


class _FunctionaryChat(ChatFormat):
    """What both templates share."""

    name = "functionary"
    bos = "<|begin_of_text|>"
    end_of_turn = _EOT
    special_tokens = _SPECIAL
    keeps_ids = False
    merge_system = False


class FunctionaryV31Chat(_FunctionaryChat):
    """Functionary v3.1's chat template (Llama 3.1 based)."""

    name = "functionary_v31"
    source = "meetkai/functionary-medium-v3.1 tokenizer_config.json chat_template"
    turns = each_role(_turn, tool="ipython")
    end_tokens = (_EOM,)
    special_tokens = (*_SPECIAL, _EOM, "<|python_tag|>")

    system_block = SystemBlock(
        lambda tools: _v31_tools(tools) + V31_INSTRUCTIONS,
        head=_V31_TOOLS,
        joiner="",
        default=_V31_HEAD,
    )
    """The knowledge cut-off and, with tools, their descriptions and the instructions (no
    system message: every one is a turn of its own)."""

    calls_end = (_EOM, "")
    """A turn with calls ends with ``<|eom_id|>`` (and nothing after it), others with
    ``<|eot_id|>``."""


class FunctionaryV32Chat(_FunctionaryChat):
    """Functionary v3.2's chat template."""

    name = "functionary_v32"
    source = "meetkai/functionary-medium-v3.2 tokenizer_config.json chat_template"
    turns = each_role(_turn)

    system_block = ToolsTurn(lambda tools: V32_SYSTEM + _v32_tools(tools), head=V32_SYSTEM)
    """The instructions and the TypeScript-like tool declarations, a turn of their own (read
    back as no message: every system message is a turn of its own)."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The instructions and the TypeScript-like tool declarations (:attr:`system_block`).
        Oddity: the template writes the turn, an empty ``namespace functions``, without
        tools too."""
        return V32_SYSTEM + _v32_tools(ctx.tools)

    def calls_text(self, dialect: Any, calls: Sequence[Any], content: str) -> str:
        """``>>>`` and the parts as the dialect writes them after the prompt's ``>>>``
        (nothing for an empty turn). Oddity: the turn's first ``>>>`` is written by the
        generation prompt, so the dialect's text lacks it."""
        text = str(dialect.render(list(calls), content=content))
        return ">>>" + text if text else ""

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Mapping[str, Any]]) -> Any:
        """The parts after the first ``>>>`` (the dialect reads a completion of the prompt).
        Oddity: the reader of :meth:`calls_text`'s leading ``>>>``."""
        return dialect.parse(body.removeprefix(">>>"), tools=list(tools) or None)

    prompt = Prompt(on=">>>", off=">>>")
    """The assistant header and ``>>>``."""
