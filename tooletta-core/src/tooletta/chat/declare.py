"""Declarations that both write and read a piece of a conversation format.

A :class:`~tooletta.chat.ChatFormat` declares what its template writes; the pieces most
templates write alike are small objects here, each holding the writer and its reader so the
two cannot drift apart (as :class:`~tooletta.chat.Turn` and :class:`~tooletta.chat.Reasoning`
already do):

* :class:`SystemBlock`: the opening system turn's body, the system message and the tool
  declarations (which comes first, what joins them, the default prompt) and its reading back;
* :class:`Prompt`: the generation prompt, the assistant header and what a thinking switch adds;
* the history rules of :attr:`Reasoning.keep <tooletta.chat.Reasoning.keep>`
  (:func:`keeps`), which turns write their reasoning back;
* :class:`Preamble`: text before the first message, outside any turn, and its skipping.

A format sets them as class attributes (``system_block``, ``prompt``, ``reasoning``,
``trim``); :class:`~tooletta.chat.ChatFormat`'s default hooks read them. A template whose
piece is odd still overrides the hook.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from ..ir import Message
from .messages import text_of

if TYPE_CHECKING:
    from .format import Conversation

__all__ = [
    "KEEP_RULES",
    "KeepRule",
    "Preamble",
    "Prompt",
    "SystemBlock",
    "keeps",
    "last_query",
]

KeepRule = Literal[
    "all",
    "after_last_user",
    "none",
    "after_last_query",
    "after_last_stripped_query",
    "last",
    "last_assistant",
    "with_calls",
    "after_last_answer",
]
"""A template's history rule for reasoning (:attr:`Reasoning.keep
<tooletta.chat.Reasoning.keep>`): which assistant turns write their reasoning back."""

KEEP_RULES: tuple[str, ...] = (
    "all",
    "after_last_user",
    "none",
    "after_last_query",
    "after_last_stripped_query",
    "last",
    "last_assistant",
    "with_calls",
    "after_last_answer",
)
"""Every :data:`KeepRule`, for checks of a declaration."""


def last_query(messages: Sequence[Message], *, strip: bool = False) -> int:
    """The index of the last user message that is a query, ``-1`` when there is none.

    A user message whose content starts with ``<tool_response>`` and ends with
    ``</tool_response>`` (after stripping whitespace when ``strip``, as Qwen3.5's template
    does) carries tool output, not a query.
    """
    for i in range(len(messages) - 1, -1, -1):
        if messages[i].role != "user":
            continue
        content = text_of(messages[i].content)
        if strip:
            content = content.strip()
        if not (content.startswith("<tool_response>") and content.endswith("</tool_response>")):
            return i
    return -1


def _last_user(messages: Sequence[Message]) -> int:
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].role == "user":
            return index
    return -1


def _last_assistant(messages: Sequence[Message]) -> int:
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].role == "assistant":
            return index
    return -1


def _last_answer(messages: Sequence[Message]) -> int:
    """The index of the last assistant message without tool calls (an answer, not a step of
    a tool-use run), ``-1`` when there is none."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if message.role == "assistant" and not message.tool_calls:
            return index
    return -1


_ANCHORS: dict[str, Callable[[Sequence[Message]], int]] = {
    "after_last_user": _last_user,
    "after_last_query": last_query,
    "after_last_stripped_query": lambda messages: last_query(messages, strip=True),
    "last_assistant": _last_assistant,
    "after_last_answer": _last_answer,
}
"""The rules that compare a turn's index with one found per conversation."""


def keeps(
    rule: str, index: int, messages: Sequence[Message], ctx: Conversation | None = None
) -> bool:
    """Whether the assistant turn at ``index`` of ``messages`` writes its reasoning under
    ``rule``:

    * ``"all"`` / ``"none"``: every turn / no turn;
    * ``"after_last_user"``: the turns after the last user message (Qwen3's and GLM's rule;
      every turn when there is none);
    * ``"after_last_query"``: the turns after the last user message that is a query, not a
      tool response wrapped in ``<tool_response>`` (Qwen3, Step-3.5; none when there is no
      query); ``"after_last_stripped_query"``: the same, the content trimmed first
      (Qwen3.5);
    * ``"last"``: only the conversation's last message (QwQ, Apriel 1.6, Nemotron Nano v2);
      ``"last_assistant"``: only the last assistant turn (LFM2.5 Instruct);
    * ``"with_calls"``: only turns with tool calls (Command R7B);
    * ``"after_last_answer"``: the turns after the last assistant turn without calls, the
      current tool-use run (Kimi K2-Thinking; every turn when there is none).

    ``ctx``: the conversation being rendered, where the anchor of a rule is found once
    (memoised) instead of once per turn.
    """
    if rule == "all":
        return True
    if rule == "none":
        return False
    if rule == "last":
        return index == len(messages) - 1
    if rule == "with_calls":
        return bool(messages[index].tool_calls)
    find = _ANCHORS[rule]
    anchor = find(messages) if ctx is None else ctx.once("keep:" + rule, lambda: find(messages))
    if rule == "last_assistant":
        return index == anchor
    if rule == "after_last_user":
        return index > anchor
    if rule == "after_last_answer":
        return index > anchor
    return anchor >= 0 and index > anchor


@dataclass(frozen=True)
class Prompt:
    """The generation prompt: ``head`` (the assistant turn's header when ``None``), then
    ``on`` when the thinking switch is on and ``off`` when it is off.

    ``switch`` names the template option (``enable_thinking``, ``thinking``...) and
    ``default`` its value when not given. A switch that defaults on is turned off only by an
    explicit false value (Jinja's ``enable_thinking is false``); one that defaults off is
    turned on by any true value. Qwen3's prompt is ``Prompt(off="<think>\\n\\n</think>\\n\\n")``,
    Qwen3.5's ``Prompt(on="<think>\\n", off="<think>\\n\\n</think>\\n\\n")``.

    When ``on`` and ``off`` differ, the format's
    :attr:`~tooletta.chat.ChatFormat.prompt_options` default to the switch's other value, so
    :func:`~tooletta.parse_conversation` reads either prompt at the end of a text as no
    message.
    """

    on: str = ""
    off: str = ""
    switch: str = "enable_thinking"
    default: bool = True
    head: str | None = None

    def thinking(self, options: Mapping[str, Any]) -> bool:
        """Whether the switch is on under ``options``."""
        value = options.get(self.switch, self.default)
        if self.default:
            return value is not False
        return bool(value)

    def text(self, header: str, options: Mapping[str, Any]) -> str:
        """The prompt under ``options``; ``header``: the assistant turn's header."""
        head = header if self.head is None else self.head
        return head + (self.on if self.thinking(options) else self.off)

    def other_options(self) -> tuple[Mapping[str, Any], ...]:
        """The option set under which the template writes the other prompt (none when both
        are the same)."""
        if self.on == self.off:
            return ()
        return ({self.switch: not self.default},)


Declarations = Callable[[Sequence[Mapping[str, Any]]], str]
"""Writes the tool declarations (the whole text, starting with the block's ``head``)."""


@dataclass(frozen=True)
class SystemBlock:
    """The opening system turn's body: the system message and the tool declarations, and how
    to read the system message back from it.

    ``tools`` writes the declarations for a list of tools (its text starts with ``head``,
    which is how the reader finds them, and, when they come first, ends with ``end``);
    ``None``: the template declares no tools here. ``joiner`` stands between the system
    message and the declarations; ``tools_first``: the declarations come before the message.

    ``default``: the system message the template writes when none is given (read back as
    none); ``default_with_tools``: only when tools are declared. ``empty_turn``: an empty
    system message alone still makes a turn (else no turn); ``empty_joins``: an empty system
    message is still joined to the declarations (Jinja's ``is defined``; else it is left out
    as by ``if system``). ``always``: a turn (with an empty body) even without a system
    message or tools. (A template that trims the system message declares it in the format's
    :attr:`~tooletta.chat.ChatFormat.trim`.)
    """

    tools: Declarations | None = None
    head: str = ""
    end: str = ""
    joiner: str = "\n\n"
    tools_first: bool = False
    default: str | None = None
    default_with_tools: bool = False
    empty_turn: bool = True
    empty_joins: bool = True
    always: bool = False

    def write(self, system: str | None, tools: Sequence[Mapping[str, Any]]) -> str | None:
        """The turn's body for ``system`` (the first system message's text, ``None`` when
        there is none) and ``tools``; ``None``: no turn."""
        if system is None and self.default is not None and (tools or not self.default_with_tools):
            system = self.default
        declared = self.tools(tools) if tools and self.tools is not None else None
        if declared is None:
            if system is None or (not system and not self.empty_turn):
                return "" if self.always else None
            return system
        if system is None or (not system and not self.empty_joins):
            return declared
        if self.tools_first:
            return declared + self.joiner + system
        return system + self.joiner + declared

    def read(self, body: str) -> str | None:
        """The system message from a body :meth:`write` wrote (``None``: none was given, or
        the default one)."""
        system: str | None = body
        found = False
        if self.tools is not None and self.head and body.startswith(self.head):
            system, found = None, True
            if self.tools_first:
                at = body.find(self.end, len(self.head)) if self.end else -1
                rest = body[at + len(self.end) :] if at >= 0 else ""
                if rest.startswith(self.joiner) and (rest != self.joiner or self.empty_joins):
                    system = rest[len(self.joiner) :]
        elif self.tools is not None and self.head:
            at = body.find(self.joiner + self.head)
            if at >= 0:
                system, found = body[:at], True
        if system == "" and self.always and not self.empty_turn:
            return None
        if system is not None and system == self.default and (found or not self.default_with_tools):
            return None
        return system


@dataclass(frozen=True)
class Preamble:
    """Template text before the first message, outside any turn (before the opening system
    turn too), and how the parser skips it: blocks such as a tool-declaration message or a
    thinking-effort message that the template writes from the tools and the options (Kimi
    K3, LongCat-Flash-Chat).

    ``write`` writes the whole preamble of a conversation (``""``: none); it is written once,
    before the message at index 0 (before the generation prompt when there is no message).
    ``blocks``: the ``(head, end)`` of each block it may write, in their order; the parser
    skips each one that starts where it reads (up to and past the first ``end`` from there).
    ``start_only``: skipped only at the start of the text (position 0), else before any turn.
    A format sets it as :attr:`~tooletta.chat.ChatFormat.preamble`; the default
    :meth:`~tooletta.chat.ChatFormat.before_turn` and
    :meth:`~tooletta.chat.ChatFormat.skip_before_turn` read it.
    """

    write: Callable[[Conversation], str]
    blocks: tuple[tuple[str, str], ...]
    start_only: bool = False

    def text(self, index: int, ctx: Conversation) -> str:
        """The text written before the message at ``index`` (``index == len(ctx.messages)``:
        after the last message): the preamble at index 0, else nothing."""
        return self.write(ctx) if index == 0 else ""

    def skip(self, text: str, pos: int) -> int:
        """Where the blocks that start at ``pos`` of ``text`` end; ``pos`` when none starts
        there."""
        if self.start_only and pos:
            return pos
        for head, end in self.blocks:
            if text.startswith(head, pos):
                at = text.find(end, pos)
                if at >= 0:
                    pos = at + len(end)
        return pos
