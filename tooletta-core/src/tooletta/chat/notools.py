"""The refusal of a format whose template writes no tools
(:attr:`ChatFormat.writes_tools <tooletta.chat.ChatFormat.writes_tools>` false).

Such a template leaves tool declarations out, drops an assistant turn's calls or raises on a
tool message (Mistral Small 3, Large 2411, Codestral: their models take tools through their
tokenizer, not the template). Writing the conversation without them would lose data
silently, so every conversation render (``tooletta.chat.checks.check_conversation``)
and the model turn of :func:`~tooletta.render` (``ChatFormat.calls_text``) refuse them with
a :class:`ToolsRefusedError` (a :class:`~tooletta.RenderError`) that names the format and
what it has no place for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import RenderError
from ..ir import Message

__all__ = [
    "ToolsRefusedError",
    "no_tools_refusal",
    "refuse_tools",
    "uses_tools",
    "writes_tools",
]


class ToolsRefusedError(RenderError):
    """A format whose template writes no tools was given some (tool declarations, an
    assistant turn's calls or a tool result): a :class:`~tooletta.RenderError`, so callers
    that catch those need no change; its own class lets a caller (a dataset converter, the
    conformance kit) tell this refusal from the others without reading the message."""


def writes_tools(fmt: Any) -> bool:
    """Whether the format ``fmt`` writes tools (its ``writes_tools``, ``True`` for an object
    without the attribute: a format written before the declaration)."""
    return getattr(fmt, "writes_tools", True) is not False


def uses_tools(messages: Sequence[Message], tools: Sequence[Mapping[str, Any]] | None) -> bool:
    """Whether a conversation has anything a format that writes no tools refuses: ``tools``
    declared, an assistant turn with calls or a tool message."""
    return bool(tools) or any(m.tool_calls or m.role == "tool" for m in messages)


def no_tools_refusal(name: str, what: str) -> str:
    """The refusal's text: the format ``name`` has no place for ``what`` (``"tool
    declarations"``, ``"tool calls"``, ``"tool results"``)."""
    return (
        f"{name}: the model's chat template writes no {what} (it writes no tools at all: "
        "declarations, calls and results); refused rather than dropped"
    )


def refuse_tools(fmt: Any, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> None:
    """Raise :class:`~tooletta.RenderError` when ``fmt`` writes no tools (see
    :func:`writes_tools`) and the conversation has any: ``tools`` declared, an assistant
    turn with calls or a tool message (the message named); nothing otherwise."""
    if writes_tools(fmt):
        return
    name = fmt.name
    if tools:
        raise ToolsRefusedError(no_tools_refusal(name, "tool declarations"))
    for index, message in enumerate(messages):
        if message.tool_calls:
            raise ToolsRefusedError(f"message {index}: " + no_tools_refusal(name, "tool calls"))
        if message.role == "tool":
            raise ToolsRefusedError(f"message {index}: " + no_tools_refusal(name, "tool results"))
