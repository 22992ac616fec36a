"""MiniMax-M2's conversation format (its chat template).

``]~!b[`` starts the text; each turn is ``]~b]ROLE\\n`` ... ``[e~[\\n`` (the assistant's role is
``ai``). The system turn is always written: the system message or, without one, the
template's default identity ``You are a helpful assistant.``, then (with tools) the fixed
``# Tools`` instructions holding one ``<tool>{json}</tool>`` line per tool (its ``function``
object) and the call-format example. Reasoning is ``<think>\\n...\\n</think>\\n\\n``, kept in the
turns after the last user message; tool results are ``\\n<response>...</response>`` blocks
sharing one ``]~b]tool`` turn. Template: ``MiniMaxAI/MiniMax-M2`` ``chat_template.jinja``, its
first revision (llama.cpp ``models/templates/MiniMax-M2.jinja``; the repository's current
revision, whose default identity names the model, is ``minimax_m2_hub``:
:mod:`tooletta_dialect_minimax.named`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar

from tooletta.plugin import (
    ChatFormat,
    FirstMessageKeys,
    Neutral,
    Prompt,
    Reasoning,
    SystemBlock,
    Turn,
    by_content,
    defaults,
    each_role,
    tool_json,
)

__all__ = ["SYSTEM_BLOCK", "MinimaxM2Chat", "MinimaxTurns", "tool_lines"]

_END = "[e~["
DEFAULT_SYSTEM = "You are a helpful assistant."
"""What the template writes as the system prompt when there is no system message."""
TOOLS_HEAD = (
    "\n\n# Tools\nYou may call one or more tools to assist with the user query.\n"
    "Here are the tools available in JSONSchema format:\n\n<tools>\n"
)
"""The tool instructions before the ``<tool>`` lines (template text)."""
TOOLS_TAIL = (
    "</tools>\n\nWhen making tool calls, use XML format to invoke tools and pass parameters:\n"
    '\n<minimax:tool_call>\n<invoke name="tool-name-1">\n'
    '<parameter name="param-key-1">param-value-1</parameter>\n'
    '<parameter name="param-key-2">param-value-2</parameter>\n...\n</invoke>\n'
    "</minimax:tool_call>"
)
"""The instructions after them: the call-format example (template text)."""


@by_content
def _tools_block(tools: list[Any]) -> str:
    """The tool instructions with one ``<tool>`` line per declaration, remembered by the
    declarations' content."""
    return TOOLS_HEAD + tool_lines(tools) + TOOLS_TAIL


def tool_lines(tools: list[Any]) -> str:
    """One ``<tool>`` line per declaration, its ``function`` as compact JSON (the M2 family's
    tool list, M3's too)."""
    return "".join(f"<tool>{tool_json(_function(t))}</tool>\n" for t in tools)


def _function(tool: object) -> object:
    if isinstance(tool, dict) and isinstance(tool.get("function"), dict):
        return tool["function"]
    return tool


SYSTEM_BLOCK = SystemBlock(
    _tools_block,
    head=TOOLS_HEAD,
    joiner="",
    default=DEFAULT_SYSTEM,
    empty_is_none=True,
    default_option="model_identity",
)
"""M2's system turn: the system message (or the default identity: the ``model_identity``
option when given), then the tool instructions. The later releases change only its
``default`` (:mod:`tooletta_dialect_minimax.named`)."""


def _turn(role: str) -> Turn:
    return Turn(f"]~b]{role}\n", f"{_END}\n")


class MinimaxTurns(ChatFormat):
    """The turns MiniMax's M2 and M3 templates share: ``]~!b[`` first, each turn
    ``]~b]ROLE\\n`` ... ``[e~[\\n`` (the assistant's role ``ai``), tool results as
    ``\\n<response>RESULT</response>`` sharing one ``]~b]tool`` turn, call ids not written."""

    bos = "]~!b["
    turns = each_role(_turn, assistant=_turn("ai"), tool=Turn("]~b]tool", f"{_END}\n"))
    end_of_turn = _END
    result_wrap = ("\n<response>", "</response>")
    group_results = True
    keeps_ids = False


class MinimaxM2Chat(MinimaxTurns):
    """MiniMax-M2's first chat template (its current one, M2.1's, M2.5's and M2.7's:
    :mod:`tooletta_dialect_minimax.named`)."""

    name = "minimax_m2"
    source = (
        "MiniMaxAI/MiniMax-M2 chat_template.jinja, the first revision "
        "(llama.cpp models/templates/MiniMax-M2.jinja)"
    )
    special_tokens = (
        "]~!b[",
        "]~b]",
        _END,
        "<think>",
        "</think>",
        "<minimax:tool_call>",
        "</minimax:tool_call>",
    )
    reasoning = Reasoning("<think>\n", "\n</think>\n\n", strip="", keep="after_last_user")

    system_block = SYSTEM_BLOCK
    options = defaults(model_identity=DEFAULT_SYSTEM)
    unwritten_fields: ClassVar[Mapping[str, Mapping[str, Any]]] = MappingProxyType(
        {
            "system": FirstMessageKeys(
                current_date=Neutral(None, ""), current_location=Neutral(None, "")
            )
        }
    )
    """The template writes the ``current_date`` and ``current_location`` keys of the
    conversation's first message, when it is a system message (``\nCurrent date: ...``
    after its text; ``None`` or ``""`` write nothing); not written here, so refused when
    given there. A later system message's keys are ignored, as the template ignores them."""
    prompt = Prompt(on="<think>\n", off="<think>\n")
    """``]~b]ai\\n<think>\\n``: the model starts inside its reasoning."""
