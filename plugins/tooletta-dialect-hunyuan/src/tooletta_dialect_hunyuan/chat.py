"""The conversation format of Tencent Hy3 (``tencent/Hy3`` ``chat_template.jinja``).

The template writes no role turns with footers: ``<｜hy_begin_of_sentence:opensource｜>``, then
every system message's text (all of them, joined, wherever they stand), then either the
reasoning mode (``<｜reasoning_mode:opensource｜>reasoning_effort:no_think``) or, with tools,
the tool declarations (fixed instruction text, one ``tojson`` line per tool) ending with the
reasoning mode. Users are ``<｜hy_User:opensource｜>`` + text, assistants
``<｜hy_Assistant:opensource｜>`` + a think block (``<think:opensource>R</think:opensource>``,
empty when the turn keeps no reasoning) + content + calls + ``<｜hy_eos:opensource｜>``; the
conversation's last assistant turn without calls has no end token (unless ``is_training``).
Tool results after a turn with calls share one ``<tool_responses:opensource>`` block, closed
before the next turn. Reasoning is kept in every turn when tools are declared (the template's
``preserved_thinking`` default), else only after the last user message. The generation
prompt writes the assistant header and an empty think block (``no_think``) or an open one
(``low``/``high``). ``raw_last_assistant`` writes the last answer as its content alone;
``fallback_strategy="reasoning_toolcall_retry"`` forces effort ``high`` and no generation
prompt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from tooletta import Message, RenderError, ToolCall
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Reasoning,
    Turn,
    defaults,
    last_user,
    roles,
    text_of,
    tool_json,
)

__all__ = ["EFFORTS", "Hy3Chat"]

EFFORTS = ("no_think", "low", "high")
"""The template's ``reasoning_effort`` values (any other raises, as the template does)."""

_S = ":opensource"
BOS = f"<｜hy_begin_of_sentence{_S}｜>"
EOS = f"<｜hy_eos{_S}｜>"
USER = f"<｜hy_User{_S}｜>"
ASSISTANT = f"<｜hy_Assistant{_S}｜>"
THINK_OPEN = f"<think{_S}>"
THINK_CLOSE = f"</think{_S}>"
MODE = f"<｜reasoning_mode{_S}｜>reasoning_effort:"
CALLS_OPEN = f"<tool_calls{_S}>"
RESPONSES_OPEN = f"<tool_responses{_S}>\n"
RESPONSES_CLOSE = f"</tool_responses{_S}>"

_TOOLS_HEAD = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
)
_TOOLS_TAIL = (
    f"\n</tools>\n\nFor function call returns, you should first print <tool_calls{_S}>\n"
    "For each function call, you should return object like:\n"
    f"<tool_call{_S}>{{function-name}}<tool_sep{_S}>\n"
    f"<arg_key{_S}>{{arg-key-1}}</arg_key{_S}>\n"
    f"<arg_value{_S}>{{arg-value-1}}</arg_value{_S}>\n"
    f"<arg_key{_S}>{{arg-key-2}}</arg_key{_S}>\n"
    f"<arg_value{_S}>{{arg-value-2}}</arg_value{_S}>\n"
    "...\n"
    f"</tool_call{_S}>\n"
    f"At the end of function call returns, you should print </tool_calls{_S}>"
)
_SPECIAL = (
    BOS,
    EOS,
    USER,
    ASSISTANT,
    THINK_OPEN,
    THINK_CLOSE,
    f"<｜reasoning_mode{_S}｜>",
    f"<tool_calls{_S}>",
    f"</tool_calls{_S}>",
    f"<tool_call{_S}>",
    f"</tool_call{_S}>",
    f"<tool_sep{_S}>",
    f"<arg_key{_S}>",
    f"</arg_key{_S}>",
    f"<arg_value{_S}>",
    f"</arg_value{_S}>",
    f"<tool_responses{_S}>",
    f"</tool_responses{_S}>",
    f"<tool_response{_S}>",
    f"</tool_response{_S}>",
)


_RETRY = "reasoning_toolcall_retry"
"""The ``fallback_strategy`` the template acts on (any other value changes nothing)."""


def _effort(options: Mapping[str, Any]) -> str:
    """The reasoning effort written: the option's (checked first, as the template does), or
    ``high`` under the retry fallback strategy."""
    effort = options.get("reasoning_effort", "no_think")
    if effort not in EFFORTS:
        raise RenderError(f"reasoning_effort {effort!r}: the Hy3 template takes no_think/low/high")
    return "high" if _retry(options) else str(effort)


def _retry(options: Mapping[str, Any]) -> bool:
    """``fallback_strategy`` is the retry: effort ``high`` and no generation prompt."""
    return bool(options.get("fallback_strategy") == _RETRY)


def _raw_last(index: int, ctx: Conversation) -> bool:
    """The turn at ``index`` is written raw (``raw_last_assistant``): the conversation's last
    message, an assistant's without calls."""
    messages = ctx.messages
    return (
        index == len(messages) - 1
        and bool(ctx.options.get("raw_last_assistant"))
        and messages[index].role == "assistant"
        and not messages[index].tool_calls
    )


def _uses_tools(messages: Sequence[Message]) -> bool:
    return any(m.tool_calls or m.role == "tool" for m in messages)


class Hy3Chat(ChatFormat):
    """Tencent Hy3 (``tencent/Hy3``): ``:opensource`` tokens, no role footers, preserved
    thinking with tools.

    Options (the template's switches): ``reasoning_effort`` (``no_think``, the default,
    ``low`` or ``high``: the mode written after the system text and the generation prompt's
    think block), ``preserved_thinking`` (default: on when tools are declared),
    ``is_training`` (every turn keeps its reasoning and the last answer gets its end token),
    ``raw_last_assistant`` (the last answer is its content alone: no think block, no end
    token) and ``fallback_strategy`` (``reasoning_toolcall_retry`` writes effort ``high`` and
    no generation prompt; other values change nothing).
    """

    name = "hy3"
    source = "tencent/Hy3 chat_template.jinja"
    bos = BOS
    turns = roles(
        system=Turn(""),
        user=Turn(USER),
        assistant=Turn(ASSISTANT, EOS),
        tool=Turn(RESPONSES_OPEN, RESPONSES_CLOSE),
    )
    end_of_turn = EOS
    special_tokens = _SPECIAL
    reasoning = Reasoning(
        THINK_OPEN,
        THINK_CLOSE,
        strip="",
        keep="all",
        empty="kept",
        dropped=THINK_OPEN + THINK_CLOSE,
    )
    """``<think:opensource>R</think:opensource>`` as given, an empty block when the turn keeps
    no reasoning (or has none)."""
    result_wrap = (f"<tool_response{_S}>\n", f"\n</tool_response{_S}>\n")
    group_results = True
    keeps_ids = False
    open_last = True
    """The last answer has no end token (:meth:`end_token`): a turn without one runs to the
    end of the text."""
    options = defaults(
        reasoning_effort="no_think",
        is_training=False,
        raw_last_assistant=False,
        fallback_strategy=None,
    )
    prompt_options = ({"reasoning_effort": "high"},)
    """The ``low``/``high`` generation prompt (the assistant header and an open think block;
    the defaults write the ``no_think`` one), read back as no message: an assistant turn
    always closes its think block."""
    gather_system = ""
    """The template writes every system message's text (wherever it stands) at the start,
    joined by nothing; a later one writes nothing where it stands."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """Every system message's text, then the reasoning mode or the tool declarations.
        Oddity: the template gathers all system messages (wherever they stand) at the start,
        and ends the block with the ``reasoning_effort`` option's mode."""
        effort = _effort(ctx.options)
        text = super().system_text(system, ctx) or ""  # every system message's (gather_system)
        if not ctx.tools:
            return text + MODE + effort
        tools = "\n".join(tool_json(t) for t in ctx.tools)
        lead = "\n\n" if text else ""
        return text + lead + _TOOLS_HEAD + tools + _TOOLS_TAIL + MODE + effort

    def parse_system(self, body: str) -> str | None:
        """The system text before the tool declarations or the reasoning mode (the inverse
        of :meth:`system_text`'s oddity: the last declarations block, the option's mode)."""
        at = body.rfind(_TOOLS_HEAD)
        if at >= 0:
            text = body[:at]
            text = text[:-2] if at and text.endswith("\n\n") else text
        else:
            at = body.rfind(MODE)
            text = body[:at] if at >= 0 else body
        return text or None

    def _kept(self, index: int, messages: Sequence[Message], ctx: Conversation) -> bool:
        opts = ctx.options
        if opts.get("is_training"):
            return True
        if opts.get("preserved_thinking", ctx.tools):
            return True
        return index > (ctx.last_user if messages is ctx.messages else last_user(messages))

    def kept_in(self, index: int, ctx: Conversation) -> bool:
        """Oddity: the template's history rule depends on the tools: every turn keeps its
        reasoning when tools are declared (``preserved_thinking``) or ``is_training`` is set,
        else only the turns after the last user message."""
        return self._kept(index, ctx.messages, ctx)

    def assistant_text(self, index: int, ctx: Conversation) -> str:
        """The turn's body. Oddity: with ``raw_last_assistant``, the last answer (no calls)
        is its content alone, checked by the dialect as any content is."""
        if _raw_last(index, ctx):
            message = ctx.messages[index]
            return self.calls_text(ctx.dialect, (), text_of(message.content))
        return super().assistant_text(index, ctx)

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Mapping[str, Any]]) -> Any:
        """The turn's texts as written. Oddity: the dialect's parse trims the reasoning and
        the content before calls, which the template writes as given: the think block's
        text, the content up to the calls, then the calls read by the dialect."""
        reasoning = None
        end = body.find(THINK_CLOSE) if body.startswith(THINK_OPEN) else -1
        if end >= 0:
            reasoning = body[len(THINK_OPEN) : end]
            body = body[end + len(THINK_CLOSE) :]
        at = body.find(CALLS_OPEN)
        result = dialect.parse(body[at:] if at >= 0 else body, tools=list(tools) or None)
        if at >= 0:
            result = msgspec.structs.replace(result, content=body[:at] + result.content)
        if reasoning is not None:
            result = msgspec.structs.replace(result, reasoning=reasoning)
        return result

    def end_token(self, index: int, ctx: Conversation) -> str:
        """``<｜hy_eos:opensource｜>``. Oddity: none after the conversation's last assistant
        turn when it has no calls (the template leaves it open) and ``is_training`` is off or
        ``raw_last_assistant`` on."""
        message = ctx.messages[index]
        last = index == len(ctx.messages) - 1
        if last and not message.tool_calls:
            options = ctx.options
            if not options.get("is_training") or options.get("raw_last_assistant"):
                return ""
        return EOS

    def generation_prompt(self, ctx: Conversation) -> str:
        """The assistant header and a closed (``no_think``) or open think block. Oddity:
        nothing when the conversation ends with an assistant turn or under the retry fallback
        strategy (and an unknown ``reasoning_effort`` is refused here too)."""
        effort = _effort(ctx.options)
        messages = ctx.messages
        if ctx.add_generation_prompt and messages and messages[-1].role == "assistant":
            return ""
        if _retry(ctx.options):
            return ""
        return ASSISTANT + THINK_OPEN + (THINK_CLOSE if effort == "no_think" else "")

    def keeps_reasoning(self, index: int, messages: Sequence[Message]) -> bool:
        """Oddity: the history rule depends on the tools (:meth:`kept_in`); this is its guess
        without the tool definitions at hand (see :meth:`expressible_for`): every turn of a
        conversation with calls or results, else the turns after the last user."""
        if _uses_tools(messages):
            return True
        return index > last_user(messages)

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """Oddity: the text carries one system message holding every system message's text
        (first), reasoning as :meth:`keeps_reasoning` guesses the history rule."""
        return self._carried(messages, self.keeps_reasoning)

    def expressible_for(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """Oddity: the history rule depends on ``ctx``'s tools and options; what the text
        rendered with them carries (the history rule known exactly; a raw last answer carries
        no reasoning). An empty assistant turn (no
        content, reasoning or calls) ending the conversation is written as the generation
        prompt with ``no_think`` is (``<｜hy_Assistant:opensource｜>`` and an empty think
        block; no prompt follows an assistant turn), which reads back as no message (a raw
        one writes the assistant header alone, read back as the empty turn)."""
        raw = bool(ctx.options.get("raw_last_assistant"))

        def kept(index: int, ms: Sequence[Message]) -> bool:
            last = index == len(ms) - 1
            if raw and last and not ms[index].tool_calls:
                return False
            return self._kept(index, ms, ctx)

        out = self._carried(messages, kept)
        last = out[-1] if out else None
        if (
            last
            and not raw
            and messages[-1].role == "assistant"  # the last message (system ones move first)
            and last.role == "assistant"
            and not (last.content or last.reasoning or last.tool_calls)
        ):
            out.pop()  # written as a generation prompt (no_think's), which reads as no message
        return out

    def _carried(self, messages: Sequence[Message], kept: Any) -> list[Message]:
        system = "".join(text_of(m.content) for m in messages if m.role == "system")
        out = [Message("system", system)] if system else []
        pending: list[ToolCall] = []
        for index, m in enumerate(messages):
            if m.role == "system":
                continue
            calls = [ToolCall(c.name, c.arguments) for c in m.tool_calls]
            name, call_id = None, None
            if m.role == "assistant":
                pending = list(calls)
            elif m.role == "tool" and pending:
                name = pending.pop(0).name
            reasoning = m.reasoning if m.role == "assistant" and kept(index, messages) else ""
            out.append(
                Message(
                    role=m.role,
                    content=text_of(m.content),
                    tool_calls=calls,
                    reasoning=reasoning,
                    name=name,
                    tool_call_id=call_id,
                )
            )
        return out
