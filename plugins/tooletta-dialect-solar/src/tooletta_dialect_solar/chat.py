"""The conversation format of Solar Open 100B (its chat template).

Pinned from llama.cpp ``models/templates/upstage-Solar-Open-100B.jinja``. Turns are
``<|begin|>ROLE<|content|>`` ... ``<|end|>``. The system turn is always written: the
provider prompt (with the current date), then ``## System Prompt`` and the system message,
then ``## Tools`` with the template's fixed instructions and one ``tojson`` of each tool's
``function`` between ``<|tool:begin|>`` and ``<|tool:end|>``. Tool results are grouped in one
``<|begin|>tool<|tool_response|>`` turn, each carrying the call's id and name. An assistant
turn is ``<|begin|>assistant`` and either ``<|content|>CONTENT<|end|>`` or the calls
(``<|tool_calls|>`` ... ``<|calls|>``), preceded, for turns after the last user message, by
``<|think|>REASONING<|end|><|begin|>assistant``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec.structs import replace

from tooletta import Message, RenderError, ToolCall
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Neutral,
    Prompt,
    Reasoning,
    Turn,
    by_content,
    calling_turn,
    defaults,
    roles,
    text_of,
    tool_json,
)

from .ids import call_id
from .tokens import ASSISTANT, BEGIN, CALLS, CALLS_END, CONTENT, END, THINK

__all__ = ["SolarOpenChat"]

PROVIDER_PROMPT = (
    "## Provider System Prompt\n\nYou are Solar Open 100B, a large language model trained by "
    "Upstage AI, a Korean startup. Your knowledge cutoff is 2025-07. The current date is "
)
"""The template's default system prompt, before the date (``%Y-%m-%d``) and a full stop."""
SYSTEM_HEAD = "## System Prompt\n\n"
TOOLS_HEAD = (
    "## Tools\n\n### Tool Call Instruction\nYou may invoke one or more tools to assist with "
    "the user's query. Available tools are provided in JSON Schema format: <|tools:begin|>"
    "<|tool:begin|><tools-json-object><|tool:end|>...<|tools:end|>\n\n### Available Tools\n"
    "<|tools:begin|>"
)
"""The tool instructions before the tool list (template text)."""
TOOLS_TAIL = (
    "<|tools:end|>\n\n### Tool Call Format\nFor each tool call, return a JSON object with the "
    "following structure, enclosed within <|tool_call:begin|> and <|tool_call:end|> tags: \n"
    "<|tool_call:begin|><tool-call-id><|tool_call:name|><tool-name><|tool_call:args|>"
    "<args-json-object><|tool_call:end|>\n- The <tool-call-id> must be a randomly generated "
    "string consisting of 10 lowercase letters (a-z) and/or digits (0-9) (e.g., a1b2c3d4e5)\n"
    "\n### Tool Response Format\nEach tool is responded by `tool` with the following "
    "structure:\n<|tool_response:id|><tool-call-id><|tool_response:name|><tool-name>"
    "<|tool_response:result|><results><|tool_response:end|>\n- Ensure the <tool-call-id> "
    "matches the corresponding tool call"
)
"""The tool instructions after the tool list (template text)."""
RESULT_NAME = "<|tool_response:name|>"
RESULT_TEXT = "<|tool_response:result|>"


@by_content
def _tools_block(tools: list[Any]) -> str:
    """The tool instructions around one ``<|tool:begin|>`` entry per tool, remembered by
    the tools' content."""
    listed = "".join(f"<|tool:begin|>{tool_json(t['function'])}<|tool:end|>" for t in tools)
    return TOOLS_HEAD + listed + TOOLS_TAIL


def _answered(index: int, messages: Sequence[Message]) -> ToolCall | None:
    """The call the result at ``index`` answers by order (its id as rendering writes it)."""
    turn = calling_turn(messages, index)
    if turn is None:
        return None
    calls = messages[turn].tool_calls
    k = index - turn - 1
    return replace(calls[k], id=call_id(calls[k], k)) if k < len(calls) else None


class SolarOpenChat(ChatFormat):
    """Solar Open 100B's chat template (``reasoning_effort`` ``"high"`` by default)."""

    name = "solar_open"
    unwritten_options = defaults(
        response_format=Neutral(None, "", False, {}),
        think_render_option=Neutral(),
    )
    """The template's ``response_format`` (a false value neutral) and ``think_render_option``
    (read even when ``None``) write text of their own; refused."""
    source = "llama.cpp models/templates/upstage-Solar-Open-100B.jinja"
    turns = roles(
        system=Turn(f"{BEGIN}system{CONTENT}", END),
        user=Turn(f"{BEGIN}user{CONTENT}", END),
        assistant=Turn(ASSISTANT),
        tool=Turn(f"{BEGIN}tool<|tool_response|>", END),
    )
    special_tokens = (
        BEGIN,
        END,
        CONTENT,
        THINK,
        CALLS,
        CALLS_END,
        "<|tool_call:begin|>",
        "<|tool_call:name|>",
        "<|tool_call:args|>",
        "<|tool_call:end|>",
        "<|tool_response|>",
        "<|tool_response:begin|>",
        RESULT_NAME,
        RESULT_TEXT,
        "<|tool_response:end|>",
    )
    reasoning = Reasoning(THINK, END + ASSISTANT, strip="", keep="after_last_user")
    result_wrap = ("<|tool_response:begin|>", "<|tool_response:end|>")
    group_results = True
    options = defaults(default_system_prompt=True, reasoning_effort="high")
    prompt = Prompt(
        off=f"{THINK}{END}{ASSISTANT}", switch="reasoning_effort", off_values=("low", "minimal")
    )
    """``<|begin|>assistant``, after an empty think block for low or minimal effort (read back
    as no message: the derived ``prompt_options``, low effort's)."""
    turn_stops = (CALLS_END, END)
    """What closes the turn's last block, written in its body: ``<|calls|>`` after calls,
    ``<|end|>`` after content."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The provider prompt, the system message and the tool instructions, as present.
        Oddity: the provider prompt holds today's date and depends on
        ``default_system_prompt``; the system turn is written whenever any part is there."""
        parts = []
        if ctx.options.get("default_system_prompt", True):
            parts.append(PROVIDER_PROMPT + ctx.strftime_now("%Y-%m-%d") + ".")
        if system is not None:
            parts.append(SYSTEM_HEAD + system)
        if ctx.tools:
            parts.append(_tools_block(ctx.tools))
        return "\n\n".join(parts) if parts else None

    def parse_system(self, body: str) -> str | None:
        """The system message between ``## System Prompt`` and ``## Tools``, if any.
        Oddity: the reader of :meth:`system_text`'s headed sections."""
        at = body.find(SYSTEM_HEAD)
        if at < 0:
            return None
        rest = body[at + len(SYSTEM_HEAD) :]
        return rest.partition("\n\n" + TOOLS_HEAD)[0]

    def result_text(self, index: int, ctx: Conversation) -> str:
        """``ID<|tool_response:name|>NAME<|tool_response:result|>CONTENT``; the name is that
        of the call with this id, as the template looks it up. A result without an id
        answers the call at its place among the results (with the id rendering gave it).
        Oddity: each result carries its call's id and the name looked up by it."""
        message = ctx.messages[index]
        call_id = message.tool_call_id
        if call_id is None:
            call = _answered(index, ctx.messages)
            call_id, names = ("", []) if call is None else (call.id or "", [call.name])
        else:
            by_id = ctx.memo.get("solar_names_by_id")
            if by_id is None:  # every call's name by its id, found once per conversation
                by_id = ctx.memo["solar_names_by_id"] = {}
                for m in ctx.messages:
                    if m.role == "assistant":
                        for c in m.tool_calls:
                            by_id.setdefault(c.id, []).append(c.name)
            names = by_id.get(call_id, [])
        return f"{call_id}{RESULT_NAME}{''.join(names)}{RESULT_TEXT}{text_of(message.content)}"

    def parse_result(self, body: str) -> str:
        """The result's content, after its id and name. Oddity: the reader of
        :meth:`result_text`'s id and name."""
        return body.partition(RESULT_TEXT)[2]

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """The reasoning block, then ``<|content|>CONTENT<|end|>`` or the calls. Content
        beside calls (which the template drops) is written as a content block of its own
        before them. Oddity: content and calls are blocks of their own, never side by
        side."""
        block = self.reasoning_text(message.reasoning, kept, last)
        content = text_of(message.content)
        if not message.tool_calls:
            ctx.dialect.check_content(content)
            return f"{block}{CONTENT}{content}{END}"
        lead = f"{CONTENT}{content}{END}{ASSISTANT}" if content else ""
        if content:
            ctx.dialect.check_content(content)
        return block + lead + self.calls_text(ctx.dialect, message.tool_calls, "")

    def assistant_text(self, index: int, ctx: Conversation) -> str:
        """The turn's body (:meth:`turn_body`). A turn that opens with its calls right after
        an answer is refused: the text is the one an answer with calls beside its content
        is written as (a content block, then the calls), so it would read back as one
        message. Oddity: two turns the template writes alike are refused."""
        body = super().assistant_text(index, ctx)
        before = ctx.messages[index - 1] if index else None
        if (
            before is not None
            and before.role == "assistant"
            and not before.tool_calls
            and body.startswith(CALLS)
        ):
            raise RenderError(
                f"solar_open: the assistant turn at {index} opens with calls right after an "
                "answer: written as that answer's calls, it would read back as one message"
            )
        return body

    def assistant_end(self, text: str, pos: int) -> int | None:
        """Past the turn's last block: a reasoning block is followed by
        ``<|begin|>assistant``, a content block by it only when calls follow, and the calls
        end with ``<|calls|>``. Oddity: the turn holds ``<|begin|>assistant`` again and
        ``<|end|>`` inside its body."""
        i = pos
        if text.startswith(THINK, i):
            j = text.find(END, i + len(THINK))
            if j < 0:
                return None
            i = j + len(END)
            if not text.startswith(ASSISTANT, i):
                return i
            i += len(ASSISTANT)
        if text.startswith(CONTENT, i):
            j = text.find(END, i + len(CONTENT))
            if j < 0:
                return None
            i = j + len(END)
            if not text.startswith(ASSISTANT + CALLS, i):
                return i
            i += len(ASSISTANT)
        if text.startswith(CALLS, i):
            j = text.find(CALLS_END, i)
            return None if j < 0 else j + len(CALLS_END)
        return i if i > pos else None

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """As the default, with the ids rendering gives calls that have none. Oddity: the
        template writes an id for every call (``ids.call_id``)."""
        out = []
        for m in super().expressible(messages):
            if m.tool_calls:
                calls = [replace(c, id=call_id(c, i)) for i, c in enumerate(m.tool_calls)]
                m = replace(m, tool_calls=calls)
            out.append(m)
        return out
