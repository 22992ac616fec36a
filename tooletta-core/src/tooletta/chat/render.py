"""Render a conversation from a :class:`~tooletta.chat.ChatFormat` declaration, with spans.

The renderer writes the text piece by piece and records, for every piece, which message it
belongs to and whether the model generates it (an assistant turn's body and its end-of-turn
token). :mod:`tooletta.training` turns those segments into token ids and loss weights.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import RenderError
from ..ir import Message
from .checks import Checked
from .conversation import Conversation, conversation
from .declare import KEEP_RULES
from .declare_layout import Reasoning
from .format import ChatFormat, opening_footer
from .shortcuts import LAST, PLAIN_MARK, UNPROVED, without_calls

__all__ = [
    "Mark",
    "RenderedConversation",
    "Segment",
    "plan_of",
    "prompt_tail",
    "render_format",
    "render_marks",
    "render_text",
]


@dataclass(frozen=True)
class Segment:
    """A piece of rendered text: ``text[start:end]``, the index of the message it belongs to
    (``None`` for template text outside any message: the start, the tool declarations of a
    conversation without a system message, the generation prompt) and whether the model
    generates it (``generated``: an assistant turn's body and end-of-turn token)."""

    start: int
    end: int
    message: int | None
    generated: bool
    reasoning: bool = False
    """The segment is an assistant turn's reasoning block (part of its generated text)."""


@dataclass
class RenderedConversation:
    """A rendered conversation: its ``text``, the ``segments`` it is made of, and the
    ``messages`` it was rendered from (as :class:`~tooletta.Message` objects)."""

    text: str
    segments: list[Segment]
    messages: list[Message]
    format: str = ""

    def span(self, index: int) -> tuple[int, int]:
        """The character span ``(start, end)`` of message ``index`` (header and footer
        included); ``(-1, -1)`` when the template wrote nothing of it."""
        starts = [s.start for s in self.segments if s.message == index]
        ends = [s.end for s in self.segments if s.message == index]
        return (min(starts), max(ends)) if starts else (-1, -1)

    def generated_spans(self) -> list[tuple[int, tuple[int, int]]]:
        """``(message index, (start, end))`` of each assistant turn's generated text, in order
        (its body and end-of-turn token, which are contiguous)."""
        out: list[tuple[int, tuple[int, int]]] = []
        for seg in self.segments:
            if not seg.generated or seg.start == seg.end:
                continue
            if out and out[-1][0] == seg.message and out[-1][1][1] == seg.start:
                out[-1] = (out[-1][0], (out[-1][1][0], seg.end))
            elif seg.message is not None:
                out.append((seg.message, (seg.start, seg.end)))
        return out


Mark = tuple[int, int, int | None, bool, bool]
"""A segment as a plain tuple ``(start, end, message, generated, reasoning)`` (the fields of
:class:`Segment`, in order): what :func:`render_marks` gives, without building an object per
piece of text."""


@dataclass
class _Writer:
    parts: list[str] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    size: int = 0
    stop_owner: int | None = None
    """An assistant turn whose stop token starts the next text written (see
    :attr:`ChatFormat.stop_tokens`)."""
    stops: tuple[str, ...] = ()
    track: bool = True
    """Record segments (``False``: only the text is wanted)."""
    tail: str | None = None
    """:func:`prompt_tail` of the conversation, found at the first assistant turn."""

    def add(
        self, text: str, message: int | None, generated: bool = False, reasoning: bool = False
    ) -> None:
        if not text:
            return
        if self.stop_owner is not None:
            owner, self.stop_owner = self.stop_owner, None
            stop = next((t for t in self.stops if text.startswith(t)), "")
            if stop:
                self.add(stop, owner, generated=True)
                text = text[len(stop) :]
                if not text:
                    return
        self.parts.append(text)
        if self.track:
            start = self.size
            self.size = end = start + len(text)
            self.marks.append((start, end, message, generated, reasoning))


def _segment(mark: Mark) -> Segment:
    """``Segment(*mark)`` without the frozen ``__init__``'s ``setattr`` calls."""
    segment: Segment = _new(Segment)
    start, end, message, generated, reasoning = mark
    segment.__dict__.update(
        start=start, end=end, message=message, generated=generated, reasoning=reasoning
    )
    return segment


def render_format(
    fmt: ChatFormat,
    dialect: Any,
    messages: Sequence[Message],
    tools: Sequence[Mapping[str, Any]],
    add_generation_prompt: bool,
    options: Mapping[str, Any],
    segments: bool = True,
) -> RenderedConversation:
    """Render ``messages`` as the template declared by ``fmt`` writes them (``segments=False``:
    the text only, faster; the result's ``segments`` are then empty)."""
    text, marks = _render(fmt, dialect, messages, tools, add_generation_prompt, options, segments)
    return RenderedConversation(text, [_segment(m) for m in marks], list(messages), fmt.name)


def render_marks(
    fmt: ChatFormat,
    dialect: Any,
    messages: Sequence[Message],
    tools: Sequence[Mapping[str, Any]],
    add_generation_prompt: bool,
    options: Mapping[str, Any],
) -> tuple[str, list[Mark]]:
    """:func:`~tooletta.chat.render_format`'s text and segments, the segments as :data:`Mark`
    tuples (what :mod:`tooletta.training` reads for every conversation of a data set)."""
    return _render(fmt, dialect, messages, tools, add_generation_prompt, options, True)


def _render(
    fmt: ChatFormat,
    dialect: Any,
    messages: Sequence[Message],
    tools: Sequence[Mapping[str, Any]],
    add_generation_prompt: bool,
    options: Mapping[str, Any],
    segments: bool,
) -> tuple[str, list[Mark]]:
    ctx = conversation(
        messages,
        tools,
        {**fmt.options, **options} if options else fmt.options,
        dialect,
        add_generation_prompt,
    )
    out = _Writer(stops=fmt.stop_tokens, track=segments)
    if not segments and not fmt.stop_tokens:
        out.add = _appender(out.parts)  # type: ignore[method-assign]
    out.add(fmt.bos, None)
    first = 0
    system: str | None = None
    if fmt.merge_system and messages and messages[0].role in fmt.system_roles:
        system, first = fmt.text(messages[0].content), 1
    body = fmt.system_text(system, ctx)
    if body is not None:
        turn = _turn(fmt, "system")
        owner = 0 if first else None
        out.add(turn.header, owner)
        out.add(body, owner)
        out.add(opening_footer(fmt, turn), owner)
    for index in range(first, len(messages)):
        out.add(fmt.before_turn(index, ctx), None)
        if fmt.stop_tokens and index > 0 and messages[index - 1].role == "assistant":
            out.stop_owner = index - 1
        _render_message(fmt, ctx, index, out)
    out.add(fmt.before_turn(len(messages), ctx), None)
    if add_generation_prompt:
        out.add(fmt.generation_prompt(ctx), None)
    else:
        out.add(fmt.after_conversation(ctx), None)
    return "".join(out.parts), out.marks


def render_text(
    fmt: ChatFormat,
    dialect: Any,
    messages: Sequence[Message],
    tools: Sequence[Mapping[str, Any]],
    add_generation_prompt: bool,
    options: Mapping[str, Any],
    plan: Any = None,
    checked: bool = False,
) -> str:
    """The text :func:`~tooletta.chat.render_format` renders with ``segments=False`` (the same hooks
    asked in the same order), written straight into one list of pieces: no writer, no segments, no
    result object (what :func:`tooletta.render_conversation` needs). Hooks the format leaves as
    :class:`~tooletta.chat.ChatFormat` defines them are not called: their constant text is written.
    Stop tokens (:attr:`ChatFormat.stop_tokens <tooletta.chat.ChatFormat.stop_tokens>`) only move
    text between segments: the text is the same without them. ``plan``: :func:`plan_of`
    ``(fmt)`` when the caller keeps it (else it is looked up)."""
    if plan is None or plan.fmt is not fmt:
        plan = _PLANS.get(id(fmt))
        if plan is None or plan.fmt is not fmt:
            plan = _plan(fmt)
    ctx = _new(Checked if checked else Conversation)
    state = ctx.__dict__
    state["messages"] = messages
    state["tools"] = tools
    state["options"] = {**plan.options, **options} if options else plan.options
    state["dialect"] = dialect
    state["add_generation_prompt"] = add_generation_prompt
    parts = [plan.bos]
    append = parts.append
    extend = parts.extend
    first = 0
    system: str | None = None
    if plan.merge_system and messages and messages[0].role in plan.system_roles:
        content = messages[0].content
        system, first = content if type(content) is str else fmt.text(content), 1
    body = plan.system_text(system, ctx)
    if body is not None:
        turn = plan.system_turn
        if turn is None:
            raise RenderError(f"the {fmt.name} chat format has no 'system' turn")
        extend((turn.header, body, plan.system_footer))  # no copy: join copies once
    (
        turns,
        before_turn,
        header,
        after_results,
        user_text,
        assistant_text,
        end_token,
        result_text,
        result_footer,
        grouped,
        separator,
        wrap_open,
        wrap_close,
        skips,
        plain_answer,
        calls_plain,
        direct,
    ) = plan.loop  # one unpacking: no attribute read of the plan per message
    direct = direct and checked
    count = len(messages)
    if plan.before_first is not None and first == 0:  # it writes before message 0 only
        append(plan.before_first(0, ctx))
    for index in range(first, count):
        if before_turn is not None:
            append(before_turn(index, ctx))
        message = messages[index]
        role = message.role
        if skips and role in plan.gathered:
            continue  # written in the opening system turn (gather_system)
        try:
            turn = turns[role]
        except KeyError:  # (an unhashable role raises TypeError, as dict.get does)
            raise RenderError(f"the {fmt.name} chat format has no {role!r} turn") from None
        if skips and plan.drops_system and role in plan.system_roles:
            continue  # a system message the opening turn does not hold: nothing here
        if role == "assistant":
            if header is not None:
                head = header(index, ctx)
            elif after_results is not None and index and messages[index - 1].role == "tool":
                head = after_results
            else:
                head = turn.header
            if assistant_text is not None:
                body = assistant_text(index, ctx)
            elif plain_answer and not message.reasoning and type(message.content) is str:
                # _assistant_body's common case inline: no ids, no reasoning block, the content
                # as it is; no calls (the dialect's text proved) or checked calls
                content = message.content
                calls = message.tool_calls
                if type(calls) is not list:
                    body = _assistant_body(fmt, plan, ctx, message, index)
                elif not calls:
                    if not calls_plain:
                        body = _assistant_body(fmt, plan, ctx, message, index)
                    else:
                        known = LAST[0]
                        check = known[1] if known[0] is dialect else without_calls(dialect)
                        if check is None:
                            body = content
                        elif check is UNPROVED:
                            body = _assistant_body(fmt, plan, ctx, message, index)
                        else:
                            if content:
                                check(content)
                            body = content
                elif direct:
                    body = dialect.render(calls, content=content)
                    if type(body) is not str:
                        body = str(body)
                else:
                    body = _assistant_body(fmt, plan, ctx, message, index)
            else:
                body = _assistant_body(fmt, plan, ctx, message, index)
            if not plan.footer_ok:
                raise RenderError(f"{fmt.name}: the assistant footer must start with end_of_turn")
            if end_token is not None:
                extend((head, body, end_token(index, ctx) + fmt.assistant_footer(index, ctx)))
            else:
                extend((head, body, turn.footer))
        elif role == "tool":
            if not (grouped and index > 0 and messages[index - 1].role == "tool"):
                append(turn.header if header is None else header(index, ctx))
            elif separator:
                append(separator)
            if result_text is not None:
                text = result_text(index, ctx)
            else:
                content = message.content
                text = content if type(content) is str else fmt.text(content)
            extend((wrap_open, text, wrap_close))
            if not (grouped and index + 1 < count and messages[index + 1].role == "tool"):
                append(turn.footer if result_footer is None else result_footer(index, ctx))
        else:
            if user_text is not None:
                body = user_text(index, ctx)
            else:
                content = message.content
                body = content if type(content) is str else fmt.text(content)
            extend((turn.header if header is None else header(index, ctx), body, turn.footer))
    if before_turn is not None:
        append(before_turn(count, ctx))
    if add_generation_prompt:
        append(fmt.generation_prompt(ctx))
    elif plan.after_conversation is not None:
        append(plan.after_conversation(ctx))
    return "".join(parts)


_new = object.__new__
_Hook = Callable[..., Any]


@dataclass(frozen=True)
class _Plan:
    """What :func:`render_text` reads of a format, found once per format object: its
    declarations, and the hooks it overrides bound to it (``None``: left as
    :class:`ChatFormat` defines them, so their constant text is written instead)."""

    fmt: ChatFormat
    bos: str
    options: Mapping[str, Any]
    merge_system: bool
    system_roles: Any
    drops_system: bool
    """:attr:`ChatFormat.late_system` is ``"dropped"``."""
    system_text: _Hook
    before_turn: _Hook | None
    header: _Hook | None
    user_text: _Hook | None
    assistant_text: _Hook | None
    """:meth:`ChatFormat.assistant_text`, when it or :meth:`ChatFormat.turn_body` is
    overridden, or the default body depends on :attr:`ChatFormat.body_end`,
    :attr:`ChatFormat.answer_lead`,
    :attr:`ChatFormat.last_ids` or :attr:`ChatFormat.history_cut`."""
    reasoning: bool
    """Reasoning blocks are written: :attr:`ChatFormat.reasoning` is declared, or
    :meth:`ChatFormat.keeps_reasoning` or :meth:`ChatFormat.reasoning_text` is overridden."""
    bare_unless_reasoning: bool
    """An answer without reasoning has no reasoning block, kept or not (the declared
    :class:`~tooletta.chat.Reasoning` writes no ``dropped`` text and no empty block, and its
    hooks are :class:`ChatFormat`'s): its history rule is not asked."""
    content_text: _Hook | None
    end_token: _Hook | None
    """:meth:`ChatFormat.end_token`, when it or :meth:`ChatFormat.assistant_footer` is
    overridden (``None``: the assistant footer is written as declared)."""
    footer_ok: bool
    """The assistant footer starts with the end-of-turn token (else assistant turns are
    refused)."""
    result_text: _Hook | None
    result_footer: _Hook | None
    after_conversation: _Hook | None
    turns: dict[str, Any]
    """:attr:`ChatFormat.turns` as a plain dict."""
    system_turn: Any
    system_footer: str
    """The opening system turn's footer (:func:`opening_footer`; ``""`` without a system
    turn)."""
    grouped: bool
    separator: str
    wrap_open: str
    wrap_close: str
    gathered: Any = frozenset()
    """The roles of the messages written in the opening system turn wherever they stand
    (:attr:`ChatFormat.system_roles` when :attr:`ChatFormat.gather_system` is set), which
    write nothing where they stand."""
    before_first: _Hook | None = None
    """:meth:`ChatFormat.before_turn` when it is known to write nothing but before the first
    message (a learned format's declarations turn: asked once, not before every message;
    :attr:`before_turn` is then ``None``)."""
    after_results: str | None = None
    """The header of an answer right after tool results, when :meth:`ChatFormat.header` is
    known to differ from the declared headers only there (a learned format's
    ``after_results``; :attr:`header` is then ``None``)."""
    calls_plain: bool = False
    """:meth:`ChatFormat.calls_text` given no calls is ``dialect.render([], content=...)``
    (the default, or an override marked so): an answer without calls is written as the
    dialect would write it (:func:`~tooletta.chat.shortcuts.without_calls`) where that is
    proved for the dialect."""
    calls_direct: bool = False
    """:meth:`ChatFormat.calls_text` is the default and the format declares no
    :attr:`ChatFormat.call_ids`: calls already checked (a :class:`~tooletta.chat.checks.Checked`
    conversation) go straight to the dialect's ``render``."""
    loop: tuple[Any, ...] = ()
    """What :func:`render_text` reads for every message, as one tuple (see :func:`_loop`)."""


_PLANS: dict[int, _Plan] = {}


def plan_of(fmt: ChatFormat) -> Any:
    """What :func:`render_text` reads of ``fmt`` (its declarations and the hooks it
    overrides), found once per format object; a caller rendering many conversations of one
    format keeps it and passes it to :func:`render_text` as ``plan``."""
    plan = _PLANS.get(id(fmt))
    if plan is None or plan.fmt is not fmt:
        plan = _plan(fmt)
    return plan


def _plan(fmt: ChatFormat) -> _Plan:
    def overrides(name: str) -> bool:
        return name in vars(fmt) or getattr(type(fmt), name) is not getattr(ChatFormat, name)

    def hook(name: str, also: str = "", trims: tuple[str, ...] = ()) -> _Hook | None:
        asked = overrides(name) or (bool(also) and overrides(also))
        asked = asked or any(role in fmt.trim for role in trims)
        return getattr(fmt, name) if asked else None

    assistant = fmt.turns.get("assistant")
    rule = fmt.reasoning
    bare = (
        isinstance(rule, Reasoning)
        and not any(map(overrides, ("kept_in", "keeps_reasoning", "reasoning_text")))
        and rule.dropped == ""
        and rule.empty == "never"
        and rule.keep in KEEP_RULES
        and rule.switched in KEEP_RULES
    )
    plan = _Plan(
        fmt,
        bos=fmt.bos,
        options=fmt.options,
        merge_system=fmt.merge_system,
        system_roles=fmt.system_roles,
        drops_system=fmt.late_system == "dropped",
        system_text=fmt.system_text,
        before_turn=(
            fmt.before_turn
            if overrides("before_turn") or fmt.tools_block is not None or fmt.preamble is not None
            else None
        ),
        header=fmt.header if fmt.headerless is not None else hook("header"),
        user_text=(
            fmt.user_text
            if fmt.late_system == "opening" or fmt.last_user_hint is not None
            else hook("user_text", trims=("user", "system"))
        ),
        assistant_text=(
            fmt.assistant_text
            if fmt.content_cut is not None
            or not fmt.calls_content
            or fmt.body_end
            or fmt.answer_lead
            or not fmt.last_ids
            or fmt.history_cut is not None
            else hook("assistant_text", "turn_body")
        ),
        reasoning=(
            fmt.reasoning is not None or overrides("keeps_reasoning") or overrides("reasoning_text")
        ),
        bare_unless_reasoning=bare,
        content_text=hook("content_text", trims=("assistant",)),
        end_token=(
            fmt.end_token
            if fmt.calls_end is not None or fmt.last_end is not None or fmt.results_end is not None
            else hook("end_token", "assistant_footer")
        ),
        footer_ok=assistant is None or assistant.footer.startswith(fmt.end_of_turn),
        result_text=(
            fmt.result_text
            if fmt.result_head is not None or fmt.result_json is not None or fmt.results_by_calls
            else hook("result_text", trims=("tool",))
        ),
        result_footer=hook("result_footer"),
        after_conversation=(
            fmt.after_conversation
            if overrides("after_conversation") or (fmt.prompt is not None and fmt.prompt.ends())
            else None
        ),
        turns=dict(fmt.turns),
        system_turn=fmt.turns.get("system"),
        system_footer=opening_footer(fmt, fmt.turns["system"]) if "system" in fmt.turns else "",
        grouped=fmt.group_results,
        separator=fmt.result_separator,
        wrap_open=fmt.result_wrap[0],
        wrap_close=fmt.result_wrap[1],
        gathered=fmt.system_roles if fmt.gather_system is not None else frozenset(),
        calls_plain=not overrides("calls_text")
        or getattr(type(fmt).calls_text, PLAIN_MARK, False) is True,
        calls_direct=not overrides("calls_text") and fmt.call_ids is None,
    )
    plan = _learned_plan(fmt, plan)
    plan = dataclasses.replace(plan, loop=_loop(fmt, plan))
    if len(_PLANS) > 256:
        _PLANS.clear()
    _PLANS[id(fmt)] = plan
    return plan


def _loop(fmt: ChatFormat, plan: _Plan) -> tuple[Any, ...]:
    """:attr:`_Plan.loop`: the plan's per-message reads in :func:`render_text`'s order; with
    whether a role may be skipped (``gather_system``, a dropped late system message) and
    whether an answer is written as :func:`_assistant_body`'s common case where it has no
    reasoning (no call ids, no reasoning block then, the content as it is)."""
    plain_answer = (
        fmt.call_ids is None
        and (not plan.reasoning or plan.bare_unless_reasoning)
        and plan.content_text is None
    )
    return (
        plan.turns,
        plan.before_turn,
        plan.header,
        plan.after_results,
        plan.user_text,
        plan.assistant_text,
        plan.end_token,
        plan.result_text,
        plan.result_footer,
        plan.grouped,
        plan.separator,
        plan.wrap_open,
        plan.wrap_close,
        bool(plan.gathered) or plan.drops_system,
        plain_answer,
        plan.calls_plain,
        plan.calls_direct,
    )


def _learned_plan(fmt: ChatFormat, plan: _Plan) -> _Plan:
    """``plan`` with what is known of a learned format's own hooks by their definitions
    (:class:`~tooletta.chat.learn.LearnedChat`): its declarations turn written before the
    first message only, its header after tool results written without a hook."""
    chatspec = sys.modules.get("tooletta.chat.learn.chatspec")  # not imported: none learned
    if chatspec is None or not isinstance(fmt, chatspec.LearnedChat):
        return plan
    if "header" in vars(fmt) or "before_turn" in vars(fmt):
        return plan  # set on the object itself
    learned = chatspec.LearnedChat
    kind = type(fmt)
    changes: dict[str, Any] = {}
    if kind.before_turn is learned._opening_turns and not fmt._no_late:
        changes.update(before_turn=None, before_first=fmt.before_turn)
    if kind.header is learned._header_after_results and fmt.headerless is None:
        changes.update(header=None, after_results=fmt._after_results)
    return dataclasses.replace(plan, **changes) if changes else plan


def _assistant_body(
    fmt: ChatFormat, plan: _Plan, ctx: Conversation, message: Message, index: int
) -> str:
    """:meth:`ChatFormat.assistant_text` as the default hooks write it, without asking the
    hooks a format leaves as they are for what they answer (no reasoning block in a format
    without reasoning, nor for an answer without reasoning where none is written for it; the
    content unchanged)."""
    ids = fmt.call_ids
    if ids is not None:  # the calls with the ids the template writes across the conversation
        message = ids.turn(index, ctx)
    if plan.reasoning and (message.reasoning or not plan.bare_unless_reasoning):
        kept = fmt.kept_in(index, ctx)
        block = fmt.reasoning_text(message.reasoning, kept, index == len(ctx.messages) - 1)
    else:
        block = ""
    content = message.content
    if type(content) is not str:
        content = fmt.text(content)
    content_text = plan.content_text
    if content_text is not None:
        content = content_text(content, bool(block))
    calls = message.tool_calls
    dialect = ctx.dialect
    if type(calls) is list:
        if not calls:
            if plan.calls_plain:
                last = LAST[0]  # what dialect.render([], content) does
                check = last[1] if last[0] is dialect else without_calls(dialect)
                if check is None:
                    return block + content
                if check is not UNPROVED:
                    if content:
                        check(content)
                    return block + content
        elif plan.calls_direct and type(ctx) is Checked:  # calls_text without its check
            text = dialect.render(calls, content=content)
            return block + (text if type(text) is str else str(text))
    return block + fmt.calls_text(dialect, calls, content)


def _turn(fmt: ChatFormat, role: str) -> Any:
    turn = fmt.turns.get(role)
    if turn is None:
        raise RenderError(f"the {fmt.name} chat format has no {role!r} turn")
    return turn


def _appender(parts: list[str]) -> Any:
    """``_Writer.add`` for text-only rendering without stop tokens: a bare append."""
    append = parts.append

    def add(
        text: str, message: int | None, generated: bool = False, reasoning: bool = False
    ) -> None:
        if text:
            append(text)

    return add


def prompt_tail(fmt: ChatFormat, ctx: Conversation) -> str:
    """What the generation prompt writes after the assistant header (GLM-4.7's ``<think>``,
    Qwen3's empty think block with thinking off): text of the turn the model does not
    generate."""
    header = fmt.turns["assistant"].header
    prompt = fmt.generation_prompt(ctx)
    return prompt[len(header) :] if prompt.startswith(header) else ""


def _reasoning_block(fmt: ChatFormat, ctx: Conversation, index: int) -> str:
    """The reasoning block the turn at ``index`` starts with, when it has reasoning."""
    message = ctx.messages[index]
    if not message.reasoning or not fmt.kept_in(index, ctx):
        return ""
    return fmt.reasoning_text(message.reasoning, True, index == len(ctx.messages) - 1)


def _render_message(fmt: ChatFormat, ctx: Conversation, index: int, out: _Writer) -> None:
    message = ctx.messages[index]
    role = message.role
    if fmt.gather_system is not None and role in fmt.system_roles:
        return  # written in the opening system turn
    if role == "assistant":
        turn = _turn(fmt, "assistant")
        out.add(fmt.header(index, ctx), index)
        body = fmt.assistant_text(index, ctx)
        end = fmt.end_of_turn
        if not turn.footer.startswith(end):
            raise RenderError(f"{fmt.name}: the assistant footer must start with end_of_turn")
        if not out.track:
            out.add(body, index)
            out.add(fmt.end_token(index, ctx) + fmt.assistant_footer(index, ctx), index)
            return
        block = _reasoning_block(fmt, ctx, index)
        tail = out.tail
        if tail is None:
            tail = out.tail = prompt_tail(fmt, ctx)  # the same for every turn of ctx
        if tail and body.startswith(tail):
            out.add(tail, index)  # the generation prompt wrote it: the model did not
            body = body[len(tail) :]
            block = block[len(tail) :] if block.startswith(tail) else ""
        if block and body.startswith(block):
            out.add(block, index, generated=True, reasoning=True)
            body = body[len(block) :]
        out.add(body, index, generated=True)
        out.add(fmt.end_token(index, ctx), index, generated=True)
        out.add(fmt.assistant_footer(index, ctx), index)
    elif role == "tool":
        _turn(fmt, "tool")  # the format must declare tool turns
        grouped = fmt.group_results
        messages = ctx.messages
        if not (grouped and index > 0 and messages[index - 1].role == "tool"):
            out.add(fmt.header(index, ctx), index)
        elif fmt.result_separator:
            out.add(fmt.result_separator, index)
        before, after = fmt.result_wrap
        out.add(before + fmt.result_text(index, ctx) + after, index)
        if not (grouped and index + 1 < len(messages) and messages[index + 1].role == "tool"):
            out.add(fmt.result_footer(index, ctx), index)
    else:
        turn = _turn(fmt, role)
        if fmt.late_system == "dropped" and role in fmt.system_roles:
            return  # a system message the opening turn does not hold: nothing here
        out.add(fmt.header(index, ctx) + fmt.user_text(index, ctx) + turn.footer, index)
