"""North Mini Code's conversation format (``Cohere2MoeForCausalLM``): its chat template,
declared.

Read from ``CohereLabs/North-Mini-Code-1.0``'s ``chat_template.jinja`` (vendored as
``tests/templates/CohereLabs-North-Mini-Code-1.0.jinja``). The turns are Command R7B's
(``<|START_OF_TURN_TOKEN|><|ROLE_TOKEN|>`` ... ``<|END_OF_TURN_TOKEN|>``), the calls its
action block, the results its ``<|START_TOOL_RESULT|>`` list; what differs:

* Every text (system, user, assistant) stands inside ``<|START_TEXT|>`` ... ``<|END_TEXT|>``.
* The conversation opens with a fixed system turn: the platform instructions, then
  ``# Available Tools`` and a fenced JSON list of the tools (written, empty, without
  tools). The system message is not merged into it: it is a system turn of its own.
* Every assistant turn keeps its reasoning, ``<|START_THINKING|>`` ... ``<|END_THINKING|>``
  (none when empty); a turn with calls drops its content.
* Calls are renumbered across the conversation as Command R7B's are; a result's content is
  written as the JSON object ``{"content": TEXT}``.
* The generation prompt opens the reasoning (``<|START_THINKING|>``); with ``reasoning``
  false (any false value: ``None``, ``0``, ``""`` too), or without it and with a
  ``reasoning_effort`` of ``"none"`` (in any case; ``None`` too, which Jinja's ``lower``
  writes ``none``), it is the empty block.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

import msgspec

from tooletta import Message, ParseResult, RenderError, ToolCall, to_json
from tooletta.plugin import (
    CallIds,
    ChatFormat,
    Conversation,
    Neutral,
    Reasoning,
    TruthyPrompt,
    Turn,
    by_content,
    defaults,
    roles,
    text_of,
)

from .chat_r7b import (
    BOS,
    CHATBOT,
    RESULT_HEAD,
    RESULT_TAIL,
    SYSTEM,
    TOOL_RESULT,
    TOOL_RESULT_END,
    TURN_TOKENS,
    USER,
    result_number,
    result_value,
    tool_list,
    written_ids,
)
from .tokens import (
    ACTION,
    ACTION_END,
    END_OF_TURN,
    TEXT,
    TEXT_END,
    THINKING,
    THINKING_END,
)

__all__ = ["PLATFORM", "NorthChat", "north_preamble"]

PLATFORM = (
    "These instructions are always to be followed and cannot be overridden by subsequent "
    "system or user turns:\n"
    "- You will answer requests for educational, informative, or creative content related to "
    "safety categories. You will not provide content that is harmful or could be used to "
    "cause harm.\n"
    "\n"
    "These instructions serve as your defaults, but they can be overridden in subsequent "
    "system or user turns:\n"
    "- Your name is North Mini Code.\n"
    "- You are a large language model built by Cohere."
)
"""The platform instructions the opening system turn starts with (template text)."""
_TOOLS_HEAD = "\n\n# Available Tools\n```json\n[\n"
_TOOLS_TAIL = "\n]\n```"
_NO_TOOLS = PLATFORM + _TOOLS_HEAD + _TOOLS_TAIL
_THINKING_OFF = THINKING + THINKING_END


@by_content
def north_preamble(tools: Sequence[Mapping[str, Any]]) -> str:
    """The opening system turn's text: the platform instructions and the tool list (one
    line per tool, Command R7B's :func:`~.chat_r7b.tool_line`, joined by ``,\\n``)."""
    return PLATFORM + _TOOLS_HEAD + tool_list(tools) + _TOOLS_TAIL


class NorthChat(ChatFormat):
    """North Mini Code's template (see the module docstring)."""

    unwritten_fields = defaults(assistant=defaults(tool_plan=Neutral(None, "")))
    """An assistant message's ``tool_plan`` key, which the template writes as the reasoning of a
    turn with calls (before its ``reasoning``); refused when set."""
    name = "north_mini_code"
    """The model whose template was read."""
    source = (
        "CohereLabs/North-Mini-Code-1.0 chat_template.jinja (d11e61a8; as vendored by "
        "ggml-org/llama.cpp models/templates/Cohere2MoE.jinja)"
    )
    bos = BOS
    turns = roles(
        system=Turn(SYSTEM + TEXT, TEXT_END + END_OF_TURN),
        user=Turn(USER + TEXT, TEXT_END + END_OF_TURN),
        assistant=Turn(CHATBOT, END_OF_TURN),
        tool=Turn(SYSTEM + TOOL_RESULT + "[\n", "\n]" + TOOL_RESULT_END + END_OF_TURN),
    )
    end_of_turn = END_OF_TURN
    special_tokens: ClassVar[tuple[str, ...]] = (
        *TURN_TOKENS,
        TEXT,
        TEXT_END,
        THINKING,
        THINKING_END,
        ACTION,
        ACTION_END,
        TOOL_RESULT,
        TOOL_RESULT_END,
    )
    merge_system = False
    """The system message is a system turn of its own, after the fixed opening one."""
    reasoning = Reasoning(THINKING, THINKING_END, strip="", keep="all")
    calls_content = False
    result_wrap = ('    {\n        "tool_call_id": "', "\n    }")
    group_results = True
    result_separator = ",\n"
    options = defaults(reasoning=True)
    unwritten_options: ClassVar[Mapping[str, Any]] = MappingProxyType(
        {
            "skip_thinking": Neutral(False, None, 0, ""),
            "grounding": Neutral("disabled", "DISABLED", "Disabled", None, ""),
            "response_format": Neutral(None, {}, {"type": "text"}),
            "platform_instruction_override": Neutral(None, "", False, PLATFORM),
            "developer_instruction": Neutral(None, "", False),
            "regen_tool_call_ids": True,
        }
    )
    """The template's other switches, refused unless given as a value under which the
    template writes what this format writes: ``skip_thinking`` (any false value neutral: the
    template asks ``not skip_thinking``) drops every reasoning block, ``grounding`` (neutral
    unless its upper case is ``ENABLED``) writes the grounding instructions,
    ``response_format`` (neutral when it asks neither ``json_object`` nor a schema) the
    JSON-mode instructions, ``platform_instruction_override`` (a false value, or the
    platform instructions themselves) replaces the platform instructions,
    ``developer_instruction`` (a false value, ``""`` too: the template then leaves the first
    system message in place, where it writes it the same) writes a system turn of its own,
    and ``regen_tool_call_ids`` false writes the calls' own ids. Each value is checked on
    the template in the plugin's tests. (``convert_first_system_msg`` is read too, but writes
    the same text either way.)"""
    call_ids: ClassVar[CallIds | None] = CallIds(across=written_ids)
    """Every call's id is its number among the conversation's calls (as Command R7B's)."""
    prompt = TruthyPrompt(
        on=THINKING,
        off=_THINKING_OFF,
        switch="reasoning",
        default=True,
        unset_by="reasoning_effort",
        unset_off=("none",),
    )
    """``<|START_THINKING|>``, or the empty block when ``reasoning`` is off: the template
    sets ``reasoning`` only when it is undefined (on, unless ``reasoning_effort`` lowercases
    to ``none``) and asks ``if reasoning``, so a given ``None``, ``0`` or ``""`` is off."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The fixed opening turn: the platform instructions and the tool list (the system
        message has a turn of its own). Documents are refused (the template writes them as
        an injected call of its own).

        Oddity: the opening turn is fixed text, the tool list written even when empty."""
        if ctx.options.get("documents"):
            raise RenderError("the north_mini_code chat format does not write documents")
        return north_preamble(ctx.tools) if ctx.tools else _NO_TOOLS

    def parse_system(self, body: str) -> str | None:
        """No system message: the opening turn is fixed text.

        Oddity: the system message is never merged into the opening turn."""
        return None

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """The reasoning block, then the calls' action block or the content as text.

        A turn written alone (``render(model=...)``: the message is the conversation) numbers
        its calls from ``"0"``, as the template numbers a conversation's first calls; in a
        conversation :attr:`call_ids` has numbered them already.

        Oddity: the content stands inside ``<|START_TEXT|>``; the action block follows the
        reasoning directly (the dialect's empty plan is not written)."""
        block = self.reasoning_text(message.reasoning, kept, last)
        calls = message.tool_calls
        if calls:
            if len(ctx.messages) == 1:
                calls = [ToolCall(c.name, c.arguments, str(i)) for i, c in enumerate(calls)]
            text = self.calls_text(ctx.dialect, calls, "")
            if not text.startswith(_THINKING_OFF):
                raise RenderError("the cohere dialect wrote no plan", dialect="cohere")
            return block + text[len(_THINKING_OFF) :]
        content = message.content
        if type(content) is not str:
            content = text_of(content)
        ctx.dialect.check_content(content)
        return block + TEXT + content + TEXT_END

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Mapping[str, Any]]) -> Any:
        """The reasoning block, then the text (its content, as written) or the action block
        (read by the dialect); a body in another layout is read by the dialect alone.

        Oddity: the reader of :meth:`turn_body`'s sections."""
        reasoning, tail = "", body
        if body.startswith(THINKING):
            end = body.find(THINKING_END)
            if end >= 0:
                reasoning = body[len(THINKING) : end]
                tail = body[end + len(THINKING_END) :]
        inner = tail[len(TEXT) : len(tail) - len(TEXT_END)]
        name = dialect.info.name
        if tail.startswith(TEXT) and tail.endswith(TEXT_END) and TEXT_END not in inner:
            return ParseResult(content=inner, dialect=name, reasoning=reasoning)
        if tail.startswith(ACTION):
            found = dialect.parse(tail, tools=list(tools) or None)
            if not found.content and not found.unparsed:
                return found if not reasoning else _with_reasoning(found, reasoning)
        return dialect.parse(body, tools=list(tools) or None)

    def result_text(self, index: int, ctx: Conversation) -> str:
        """The number of the call the result answers, then its content as the one result,
        the JSON object ``{"content": TEXT}``.

        Oddity: each result an indented JSON object of its own, the text wrapped in an
        object."""
        content = ctx.messages[index].content
        text = content if type(content) is str else text_of(content)
        value = to_json({"content": text})
        return result_number(index, ctx) + RESULT_HEAD + value + RESULT_TAIL

    def parse_result(self, body: str) -> str:
        """The result's text (the ``content`` of the object the template wrote).

        Oddity: the reader of :meth:`result_text`'s JSON objects."""
        value = result_value(body)
        if isinstance(value, dict) and set(value) == {"content"}:
            inner = value["content"]
            return inner if isinstance(inner, str) else to_json(inner)
        return to_json(value)


def _with_reasoning(result: ParseResult, reasoning: str) -> ParseResult:
    """``result`` with ``reasoning``."""
    return msgspec.structs.replace(result, reasoning=reasoning)
