"""The conversation format of FireFunction v2 (``fireworks-ai/llama-3-firefunction-v2``).

Pinned from the model's chat template (vendored for the tests from llama.cpp's
``models/templates/fireworks-ai-llama-3-firefunction-v2.jinja``): Llama 3 turns
(``<|start_header_id|>ROLE<|end_header_id|>\\n\\n`` ... ``<|eot_id|>``, ``tool`` results
included), every text trimmed; a system turn always, with the system message (or the default
"You are a helpful assistant with access to functions."), the template's fixed function-calling
instructions, the ``functions`` text and ``Today is DATETIME.``; calls after the content as
``" functools[" + calls + "]"``; and the assistant header written at the end of every
conversation (the template ignores ``add_generation_prompt``).

The template takes the tool declarations as a ready-made string (``functions``) and the date
as ``datetime``, not from ``tools``: both are options here, and by default they are what
llama.cpp passes (``tools`` through ``json.dumps(indent=2)``, empty without tools, and
``strftime_now("%b %d %Y %H:%M:%S GMT")``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tooletta import ToolCall
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Turn,
    defaults,
    each_role,
    tool_json,
)

__all__ = ["FIREFUNCTION_INSTRUCTIONS", "FireFunctionV2Chat"]

_EOT = "<|eot_id|>"
_DEFAULT_SYSTEM = "You are a helpful assistant with access to functions."
FIREFUNCTION_INSTRUCTIONS = (
    "In addition to plain text responses, you can chose to call one or more of the provided "
    "functions.\n\nUse the following rule to decide when to call a function:\n"
    "  * if the response can be generated from your internal knowledge (e.g., as in the case of "
    'queries like "What is the capital of Poland?"), do so\n'
    "  * if you need external information that can be obtained by calling one or more of the "
    "provided functions, generate a function calls\n\nIf you decide to call functions:\n"
    "  * prefix function calls with functools marker (no closing marker required)\n"
    "  * all function calls should be generated in a single JSON list formatted as "
    'functools[{"name": [function name], "arguments": [function arguments as JSON]}, ...]\n'
    "  * follow the provided JSON schema. Do not hallucinate arguments or values. Do to blindly "
    "copy values from the provided samples\n"
    "  * respect the argument type formatting. E.g., if the type if number and format is float, "
    "write value 7 as 7.0\n"
    "  * make sure you pick the right functions that match the user intent\n\n"
    "Available functions as JSON spec:"
)
"""FireFunction v2's function-calling instructions in the system turn (template text)."""


def _turn(role: str) -> Turn:
    return Turn(f"<|start_header_id|>{role}<|end_header_id|>\n\n", _EOT)


class FireFunctionV2Chat(ChatFormat):
    """FireFunction v2's chat template. Options: ``functions`` (the tool declarations as the
    template writes them; default: ``tools`` as ``json.dumps(indent=2)``), ``datetime``
    (default: ``strftime_now("%b %d %Y %H:%M:%S GMT")``)."""

    name = "firefunction_v2"
    source = "fireworks-ai/llama-3-firefunction-v2 tokenizer_config.json chat_template"
    bos = "<|begin_of_text|>"
    turns = each_role(_turn)
    end_of_turn = _EOT
    special_tokens = ("<|begin_of_text|>", "<|start_header_id|>", "<|end_header_id|>", _EOT)
    keeps_ids = False
    options = defaults(functions=None, datetime=None)
    trim = frozenset(("system", "user", "tool", "assistant"))
    """Every text trimmed (the default hooks write and give them back so)."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """Oddity: the date and the ``functions`` text come from options, not from the tools.
        The (trimmed) system message or the default one, the instructions, the
        ``functions`` text and the date."""
        functions = ctx.options.get("functions")
        if functions is None:
            functions = tool_json(list(ctx.tools), indent=2)
            functions = functions if ctx.tools else ""
        when = ctx.options.get("datetime")
        if when is None:
            when = ctx.strftime_now("%b %d %Y %H:%M:%S GMT")
        head = system.strip() if system is not None else _DEFAULT_SYSTEM
        return f"{head}\n{FIREFUNCTION_INSTRUCTIONS}\n{functions}\nToday is {when}."

    def parse_system(self, body: str) -> str | None:
        """Oddity: the system message (``None`` for the default one), before the instructions
        :meth:`system_text` writes (their inverse)."""
        cut = body.rfind("\n" + FIREFUNCTION_INSTRUCTIONS + "\n")
        if cut < 0:
            return body
        head = body[:cut]
        return None if head == _DEFAULT_SYSTEM else head

    def calls_text(self, dialect: Any, calls: Sequence[ToolCall], content: str) -> str:
        """Oddity: the content, then ``" functools[...]"`` (the space is written even without
        content)."""
        if not calls:
            return content
        dialect.check_content(content)  # what render(calls, content=...) would refuse
        return content + " " + super().calls_text(dialect, calls, "")

    def after_conversation(self, ctx: Conversation) -> str:
        """Oddity: the assistant header, written after every conversation (the template
        ignores ``add_generation_prompt``)."""
        return self.turns["assistant"].header
