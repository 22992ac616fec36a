"""The text a conversation is trained on: the rendered conversation, its last assistant turn as
the model generates it.

The template's rendering (:func:`~tooletta.chat.render_format`) is what the model reads; what
it is trained to write is what it generates after its prompt. The two agree for every turn but,
in some formats, the conversation's last one:

* **The stop.** A template may write nothing after the last turn (GLM ends a turn by the next
  role token, ``<|user|>`` or ``<|observation|>``; Hunyuan-A13B and Apriel 1.6 leave the last
  turn open unless told it is training data). At inference the model still ends its turn with
  :meth:`~tooletta.chat.ChatFormat.turn_stop`: the text is extended with it, trained.
* **The reasoning.** A template whose history rule drops every turn's reasoning (DeepSeek
  R1 and its distills) drops the last turn's too, while its generation prompt opens the
  reasoning block (``<｜Assistant｜><think>\\n``) and the model writes its reasoning there. When
  the last turn has reasoning the template leaves out and the generation prompt opens the
  block, the turn is written as at inference: the prompt (history by the template's rule,
  then the generation prompt), then the turn as the model generates it, reasoning first.

A reasoning given inside the content (``<think>...</think>answer``, as distillation sets hold
it) counts as the turn's reasoning there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from ..chat.conversation import Conversation, conversation
from ..chat.format import ChatFormat
from ..chat.render import Mark, RenderedConversation, Segment, render_format, render_marks
from ..ir import Message

__all__ = [
    "marks_of",
    "render_targets",
    "rewritten",
    "rewritten_in",
    "target_marks",
    "with_inline_reasoning",
]


def with_inline_reasoning(fmt: ChatFormat, message: Message) -> Message:
    """``message`` with a reasoning block written inside its content (``<think>r</think>a``,
    the format's own markers) moved to its ``reasoning``, when it has none of its own."""
    rule = fmt.reasoning
    content = message.content
    if message.reasoning or rule is None or type(content) is not str:
        return message
    close = rule.close.strip()
    if not close or close not in content:
        return message
    reasoning, _, answer = content.partition(close)
    opener = rule.open.strip()
    reasoning = reasoning.strip()
    if opener and reasoning.startswith(opener):
        reasoning = reasoning[len(opener) :]
    return msgspec.structs.replace(message, reasoning=reasoning.strip(), content=answer.lstrip())


def _overlap(prompt: str, body: str) -> int:
    """The length of the longest start of ``body`` that ``prompt`` ends with."""
    for size in range(min(len(prompt), len(body)), 0, -1):
        if prompt.endswith(body[:size]):
            return size
    return 0


def _generated_turn(
    fmt: ChatFormat,
    dialect: Any,
    messages: Sequence[Message],
    tools: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any],
) -> RenderedConversation | None:
    """The conversation with its last (assistant) turn written as at inference, when the
    template drops that turn's reasoning and its generation prompt opens the reasoning block
    (else ``None``: the template's own rendering is the inference text)."""
    last = len(messages) - 1
    message = messages[last]
    if not message.reasoning.strip():
        return None
    merged = {**fmt.options, **options}
    ctx = conversation(messages, tools, merged, dialect)
    if fmt.kept_in(last, ctx):
        return None
    block = fmt.reasoning_text(message.reasoning, True, True)
    if not block:
        return None
    prompt = render_format(fmt, dialect, messages[:last], tools, True, options)
    history = render_format(fmt, dialect, messages[:last], tools, False, options, False).text
    opened = prompt.text[len(history) :] if prompt.text.startswith(history) else ""
    skip = _overlap(opened, block)
    if not skip:
        return None
    body = fmt.turn_body(message, True, True, ctx)
    if not body.startswith(block):
        return None
    text = prompt.text
    segments = [
        s if s.message is not None else Segment(s.start, s.end, last, False)
        for s in prompt.segments
    ]
    pieces = [
        (block[skip:], True, True),
        (body[len(block) :], True, False),
        (fmt.end_token(last, ctx), True, False),
        (fmt.assistant_footer(last, ctx), False, False),
        (fmt.after_conversation(ctx), False, False),
    ]
    for piece, generated, reasoning in pieces:
        if piece:
            segments.append(Segment(len(text), len(text) + len(piece), last, generated, reasoning))
            text += piece
    return RenderedConversation(text, segments, list(messages), fmt.name)


def _last_generated(marks: Sequence[Mark], index: int) -> tuple[int, int]:
    """The span of the last run of generated text, when message ``index`` owns it (else
    ``(-1, -1)``): :meth:`RenderedConversation.generated_spans`' last, found from the end."""
    start = end = -1
    for seg_start, seg_end, message, generated, _ in reversed(marks):
        if end < 0:
            if generated and seg_end > seg_start:
                if message != index:
                    return -1, -1
                start, end = seg_start, seg_end
        elif generated and message == index and seg_end == start:
            start = seg_start
        else:
            break
    return start, end


def _with_stop(
    text: str, marks: list[Mark], fmt: ChatFormat, ctx: Conversation
) -> tuple[str, list[Mark]]:
    """``text`` and its ``marks`` with the last assistant turn's
    :meth:`~ChatFormat.turn_stop` after its generated text, where the template does not write
    it there."""
    last = len(ctx.messages) - 1
    stop = fmt.turn_stop(last, ctx)
    start, end = _last_generated(marks, last)
    if not stop or end < 0 or text[start:end].endswith(stop):
        return text, marks
    size = len(stop)
    out: list[Mark] = []
    for mark in marks:
        seg_start, seg_end, message, generated, reasoning = mark
        if seg_start >= end:
            seg_start, seg_end = seg_start + size, seg_end + size
            mark = (seg_start, seg_end, message, generated, reasoning)
        out.append(mark)
        if seg_end == end and message == last and generated:
            out.append((end, end + size, last, True, False))
    return text[:end] + stop + text[end:], out


def target_marks(
    fmt: ChatFormat,
    dialect: Any,
    messages: Sequence[Message],
    tools: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any],
) -> tuple[str, list[Mark], list[Message]]:
    """:func:`render_targets` as its text, its segments as
    :data:`~tooletta.chat.render.Mark` tuples and its messages (what
    :func:`~tooletta.training.tokenize_conversation` reads: no object per segment)."""
    if not messages or messages[-1].role != "assistant":
        text, marks = render_marks(fmt, dialect, messages, tools, False, options)
        return text, marks, list(messages)
    last = with_inline_reasoning(fmt, messages[-1])
    inline = [*messages[:-1], last] if last is not messages[-1] else messages
    rendered = _generated_turn(fmt, dialect, inline, tools, options)
    if rendered is None:
        text, marks = render_marks(fmt, dialect, messages, tools, False, options)
        read = list(messages)
    else:
        text, marks, read = rendered.text, marks_of(rendered), rendered.messages
    ctx = conversation(read, tools, {**fmt.options, **options}, dialect)
    text, marks = _with_stop(text, marks, fmt, ctx)
    return text, marks, read


def marks_of(rendered: RenderedConversation) -> list[Mark]:
    """The segments of ``rendered`` as :data:`~tooletta.chat.render.Mark` tuples."""
    return [(s.start, s.end, s.message, s.generated, s.reasoning) for s in rendered.segments]


def render_targets(
    fmt: ChatFormat,
    dialect: Any,
    messages: Sequence[Message],
    tools: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any],
) -> RenderedConversation:
    """The training text of ``messages`` with its segments (see the module docstring): the
    template's rendering, the last assistant turn as the model generates it and ended by its
    :meth:`~tooletta.chat.ChatFormat.turn_stop`."""
    text, marks, read = target_marks(fmt, dialect, messages, tools, options)
    return RenderedConversation(text, [Segment(*m) for m in marks], read, fmt.name)


def rewritten(
    fmt: ChatFormat,
    rendered: RenderedConversation,
    index: int,
    span: tuple[int, int] | None = None,
) -> bool:
    """Whether the template dropped the reasoning of the assistant turn at ``index`` from
    ``rendered`` (given as its ``reasoning`` or inside its content): the turn's text there is
    not what the model generated. A format without reasoning (:attr:`ChatFormat.reasoning`
    ``None``: a model that does not think) rewrites nothing, nor does the last message (its
    turn is written as :func:`render_targets` decides: as generated in the template's mode).
    ``span``: the message's :meth:`~RenderedConversation.span`, when already known."""
    if span is None:
        span = rendered.span(index)
    return rewritten_in(fmt, rendered.text, rendered.messages, index, span)


def rewritten_in(
    fmt: ChatFormat, text: str, messages: Sequence[Message], index: int, span: tuple[int, int]
) -> bool:
    """:func:`rewritten` on a rendering given as its ``text``, its ``messages`` and the
    message's ``span`` in the text."""
    if fmt.reasoning is None or index == len(messages) - 1:
        return False
    message = with_inline_reasoning(fmt, messages[index])
    reasoning = message.reasoning.strip()
    if not reasoning:
        return False
    start, end = span
    return reasoning not in text[start:end]
