"""MiniMax-M3's conversation format (its chat template): ``minimax_m3``.

``]~!b[`` starts the text, then two fixed turns: ``]~b]system\\n`` with the model's identity and
the thinking instructions (their last line names the ``thinking_mode`` option: ``enabled``,
``disabled`` or ``adaptive``, the default), and ``]~b]developer\\n`` with the system message
(``You are a helpful assistant.`` without one) and, with tools, the ``# Tools`` instructions
(one ``<tool>{json}</tool>`` line per tool's ``function`` object and the call example). Each
turn is ``]~b]ROLE\\n`` ... ``[e~[\\n`` (the assistant's role is ``ai``). Every assistant turn
writes its reasoning as ``<mm:think>R</mm:think>``, or a lone ``</mm:think>`` without one;
then the content and, right after it, the ``minimax_m3`` calls, arguments whose value is
``None`` left out. Tool results are ``\\n<response>...</response>`` blocks sharing one
``]~b]tool`` turn. The generation prompt is ``]~b]ai\\n``, then ``<mm:think>`` with
``thinking_mode="enabled"``, ``</mm:think>`` with ``"disabled"``, nothing otherwise.

Template: ``MiniMaxAI/MiniMax-M3`` ``chat_template.jinja`` (``tests/templates/SOURCES.md``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from tooletta import Message, ToolCall
from tooletta.plugin import (
    Conversation,
    Reasoning,
    SystemBlock,
    by_content,
    defaults,
)

from .chat import MinimaxTurns, tool_lines

__all__ = ["M3_IDENTITY", "MinimaxM3Chat", "template_arguments"]

_END = "[e~["
SENTINEL = "]<]minimax[>["
"""The template's ``ns_token`` (the ``minimax_m3`` dialect's sentinel)."""
_OPEN = SENTINEL + "<tool_call>"
CLOSE = SENTINEL + "</tool_call>"
M3_IDENTITY = (
    "Your model version is MiniMax-M3, developed by MiniMax. Knowledge cutoff: January 2026. "
    "Founded in early 2022, MiniMax is a global AI foundation model company committed to "
    "advancing the frontiers of AI towards AGI."
)
"""The system turn's identity (the template's ``root`` message replaces it; not carried)."""
_THINKING = (
    "\n\n<thinking_instructions>\nYou have a thinking capability that allows you to reason step "
    "by step before responding. When thinking is enabled, wrap your reasoning in "
    "<mm:think></mm:think> tags before your response. When thinking is disabled, begin your "
    "response directly after the </mm:think> prefix. When thinking is adaptive, decide on your "
    "own whether to think for the current turn.\n"
)
_ADAPTIVE = (
    "Current thinking mode: adaptive. You are encouraged to think for complex decision-making, "
    "multi-step reasoning, or when analyzing function/tool results.\n"
)
_MODES = {
    "enabled": (
        "Current thinking mode: enabled. You MUST think step by step before every response, "
        "including after receiving function/tool results.\n"
    ),
    "disabled": "Current thinking mode: disabled. Do not output any thinking process.\n",
    "adaptive": _ADAPTIVE,
}
"""The last line of the thinking instructions per ``thinking_mode`` (another value: none)."""
_PROMPTS = {"enabled": "<mm:think>", "disabled": "</mm:think>"}
"""What the generation prompt writes after ``]~b]ai\\n`` per ``thinking_mode``."""
DEFAULT_DEVELOPER = "You are a helpful assistant."
TOOLS_HEAD = (
    "\n\n# Tools\nYou may call one or more tools to assist with the user query.\n"
    "Here are the tools available in JSONSchema format:\n\n<tools>\n"
)
TOOLS_TAIL = (
    f"</tools>\n\nTo call tools, wrap all invocations in a single {_OPEN}{CLOSE} block. "
    "Parameter values containing nested objects or arrays are recursively expanded into XML "
    f"elements. Example:\n\n{_OPEN}\n"
    f'{SENTINEL}<invoke name="tool-name-1">{SENTINEL}<param-1>value-1{SENTINEL}</param-1>'
    f"{SENTINEL}<param-2>{SENTINEL}<item>{SENTINEL}<key-a>val-a{SENTINEL}</key-a>"
    f"{SENTINEL}<key-b>val-b{SENTINEL}</key-b>{SENTINEL}</item>{SENTINEL}</param-2>"
    f"{SENTINEL}</invoke>\n"
    f'{SENTINEL}<invoke name="tool-name-2">{SENTINEL}<param-1>value-1{SENTINEL}</param-1>'
    f"{SENTINEL}</invoke>\n{CLOSE}"
)


@by_content
def _tools_block(tools: list[Any]) -> str:
    """The tool instructions with one ``<tool>`` line per declaration's ``function``."""
    return TOOLS_HEAD + tool_lines(tools) + TOOLS_TAIL


def _system_turn(line: str) -> str:
    return f"{M3_IDENTITY}{_THINKING}{line}</thinking_instructions>{_END}\n]~b]developer\n"


def _lead(options: Mapping[str, Any]) -> str:
    """The fixed system turn (identity, thinking instructions under ``thinking_mode``) and
    the developer turn's header: written as the lead of the turn the system message opens."""
    mode = options.get("thinking_mode", "adaptive")
    return _system_turn(_MODES.get(mode, "") if isinstance(mode, str) else "")


_LEADS = tuple(dict.fromkeys(_system_turn(line) for line in (*_MODES.values(), "")))


def _value(value: Any, written: bool) -> Any:
    """A value as the template's ``to_xml`` writes it: ``None`` members left out, an array's
    ``None`` item as an empty element (``""``); ``written``: an object or array that writes
    no element as ``""`` too (the text the dialect writes the same), else kept (it reads back
    as the schema types the empty element: ``{}``/``[]`` for an object or array)."""
    if isinstance(value, dict):
        kept = {k: _value(v, written) for k, v in value.items() if v is not None}
        return kept if kept or not written else ""
    if isinstance(value, list):
        items = [("" if v is None else _value(v, written)) for v in value]
        return items if items or not written else ""
    return value


def template_arguments(call: ToolCall, written: bool = True) -> ToolCall:
    """``call`` with its arguments as the template writes them (:func:`_value`; a top-level
    ``None`` argument left out); ``written=False``: as they read back with their schema."""
    arguments = {k: _value(v, written) for k, v in call.arguments.items() if v is not None}
    return msgspec.structs.replace(call, arguments=arguments)


class MinimaxM3Chat(MinimaxTurns):
    """MiniMax-M3's chat template (``thinking_mode`` ``adaptive`` by default)."""

    name = "minimax_m3"
    source = "MiniMaxAI/MiniMax-M3 chat_template.jinja (revision f0e1c1e0)"
    open_footers = frozenset(("system",))
    """The system turn is read up to the next header: the developer turn's end, not the
    fixed system turn's (inside the lead), ends it."""
    special_tokens = ("]~!b[", "]~b]", _END, "<mm:think>", "</mm:think>", _OPEN, CLOSE)
    options = defaults(thinking_mode="adaptive", model_identity=DEFAULT_DEVELOPER)
    reasoning = Reasoning("<mm:think>", "</mm:think>", strip="", keep="all")
    """Every turn's reasoning, as given (a turn without any: :meth:`reasoning_text`)."""
    system_block = SystemBlock(
        _tools_block,
        head=TOOLS_HEAD,
        joiner="",
        default=DEFAULT_DEVELOPER,
        empty_is_none=True,
        lead=_lead,
        leads=_LEADS,
        default_option="model_identity",
    )
    """``]~b]system\n``, the fixed system turn and ``]~b]developer\n`` (the lead), then the
    developer turn: the system message (or the default: the ``model_identity`` option when
    given), then the tool instructions."""
    prompt_options = ({"thinking_mode": "enabled"}, {"thinking_mode": "disabled"})

    def reasoning_text(self, reasoning: str, kept: bool, last: bool) -> str:
        """Oddity: a turn writes a reasoning block only when it has reasoning (``if
        reasoning_content``), else a lone ``</mm:think>``."""
        return f"<mm:think>{reasoning}</mm:think>" if reasoning else "</mm:think>"

    def generation_prompt(self, ctx: Conversation) -> str:
        """Oddity: three prompts by ``thinking_mode``: ``]~b]ai\\n`` then ``<mm:think>``
        (``enabled``), ``</mm:think>`` (``disabled``) or nothing."""
        mode = ctx.options.get("thinking_mode", "adaptive")
        return "]~b]ai\n" + (_PROMPTS.get(mode, "") if isinstance(mode, str) else "")

    def calls_text(self, dialect: Any, calls: Sequence[ToolCall], content: str) -> str:
        """Oddity: the template's ``to_xml`` loses values the calls dialect keeps: ``None``
        members are left out (the dialect writes ``null``) and an empty object or array inside
        another value is an empty element (the dialect writes ``{}``/``[]``, which read back
        without a nested schema); :func:`template_arguments` gives the calls so. The rest (the
        block right after the content, empty arguments as empty elements) is the dialect's."""
        return super().calls_text(dialect, [template_arguments(c) for c in calls], content)

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Mapping[str, Any]]) -> Any:
        """Oddity: a body opening with the lone ``</mm:think>`` is read as an empty reasoning
        block (the dialect reads it with ``<mm:think>`` before it)."""
        prefix = "<mm:think>" if body.startswith("</mm:think>") else ""
        return dialect.parse(body, tools=list(tools) or None, prefix=prefix)

    def carried(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """Oddity: as the base, the calls' arguments as the template writes them (``None``
        left out; an empty object or array reads back as its schema types it). Overriding
        this (not :meth:`expressible`) keeps what the caller's options carry, such as the
        ``model_identity`` read back as the system message."""
        return [
            msgspec.structs.replace(
                m, tool_calls=[template_arguments(c, written=False) for c in m.tool_calls]
            )
            if m.tool_calls
            else m
            for m in super().carried(messages, ctx)
        ]
