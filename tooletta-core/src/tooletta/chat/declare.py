"""Declarations that both write and read a piece of a conversation format.

A :class:`~tooletta.chat.ChatFormat` declares what its template writes; the pieces most
templates write alike are small objects here, each holding the writer and its reader so the
two cannot drift apart (as :class:`~tooletta.chat.Turn` and :class:`~tooletta.chat.Reasoning`
already do):

* :class:`SystemBlock`: the opening system turn's body, the system message and the tool
  declarations (which comes first, what joins them, the default prompt) and its reading back;
* :class:`ToolsTurn`: an opening turn holding the tool declarations alone (system messages
  are turns of their own);
* :class:`ToolsBlock`: tool declarations written as a block of their own before the first
  message after the system turn (or before the last user turn), skipped by the reader;
* :class:`Prompt`: the generation prompt, the assistant header and what a thinking switch adds;
* the history rules of ``Reasoning.keep``
  (:func:`tooletta.chat.keeps`), which turns write their reasoning back;
* :class:`Preamble`: text before the first message, outside any turn, and its skipping.

A format sets them as class attributes (``system_block``, ``tools_block``, ``prompt``,
``reasoning``, ``trim``); :class:`~tooletta.chat.ChatFormat`'s default hooks read them. A
template whose piece is odd still overrides the hook.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, get_args

from ..errors import RenderError
from ..ir import Message
from . import clock
from .conversation import Conversation, last_user
from .messages import text_of

__all__ = [
    "KEEP_RULES",
    "KeepRule",
    "Preamble",
    "Prompt",
    "ResultHead",
    "SystemBlock",
    "ToolsBlock",
    "ToolsPlace",
    "ToolsTurn",
    "TruthyPrompt",
    "implicit_after",
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
    "until_answer",
    "with_calls_after_last_user",
    "until_unprompted_answer",
    "after_first_answer",
]
"""A template's history rule for reasoning, ``Reasoning.keep``: which assistant turns write
their reasoning back (see :func:`tooletta.chat.keeps`)."""

KEEP_RULES: tuple[str, ...] = get_args(KeepRule)
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


def _last_assistant(messages: Sequence[Message]) -> int:
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].role == "assistant":
            return index
    return -1


_ANCHORS: dict[str, Callable[[Sequence[Message]], int]] = {
    "after_last_user": last_user,
    "after_last_query": last_query,
    "after_last_stripped_query": lambda messages: last_query(messages, strip=True),
    "last_assistant": _last_assistant,
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
    * ``"after_last_answer"``: the turns after the last answer, an assistant turn without
      calls (Kimi K2-Thinking; every turn when there is none); ``"until_answer"``: the same
      and the conversation's last message (gpt-oss: a turn with calls keeps its reasoning
      until an answer follows it, an answer only when it ends the conversation).
    * ``"with_calls_after_last_user"``: the turns with tool calls after the last user
      message (Gemma 4; every turn with calls when there is none).
    * ``"until_unprompted_answer"``: ``"until_answer"``, but the conversation's last message,
      an answer, keeps its reasoning only when no generation prompt follows it (gpt-oss's
      ``loop.last and not add_generation_prompt``; read from ``ctx``, none asked without it).
    * ``"after_first_answer"``: the turns after the *first* answer, an assistant turn without
      calls (every turn when there is none): llama.cpp's copy of Kimi K2-Thinking's template,
      whose scan for the last answer runs backwards without stopping and so ends at the
      first one.

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
    if rule in _ANSWER_RULES:
        return _after_answer(rule, index, messages, ctx)
    if rule == "with_calls_after_last_user":
        return _calls_after_last_user(index, messages, ctx)
    find = _ANCHORS[rule]
    anchor = find(messages) if ctx is None else ctx.once("keep:" + rule, lambda: find(messages))
    if rule == "last_assistant":
        return index == anchor
    if rule == "after_last_user":
        return index > anchor
    return anchor >= 0 and index > anchor


def _last_answer(messages: Sequence[Message]) -> int:
    """The index of the last answer, an assistant message without tool calls (``-1``:
    none)."""
    for index in range(len(messages) - 1, -1, -1):
        message = messages[index]
        if message.role == "assistant" and not message.tool_calls:
            return index
    return -1


def _first_answer(messages: Sequence[Message]) -> int:
    """The index of the first answer, an assistant message without tool calls (``-1``:
    none)."""
    for index, message in enumerate(messages):
        if message.role == "assistant" and not message.tool_calls:
            return index
    return -1


_ANSWER_RULES = frozenset(
    {"after_last_answer", "until_answer", "until_unprompted_answer", "after_first_answer"}
)
"""The rules anchored at an answer (:func:`_last_answer`, :func:`_first_answer`)."""


def _after_answer(
    rule: str, index: int, messages: Sequence[Message], ctx: Conversation | None
) -> bool:
    """:func:`keeps` for ``"after_last_answer"``, ``"until_answer"``,
    ``"until_unprompted_answer"`` and ``"after_first_answer"`` (the anchor found once per
    conversation when ``ctx`` is given)."""
    if rule == "until_answer" and index == len(messages) - 1:
        return True
    if (
        rule == "until_unprompted_answer"
        and index == len(messages) - 1
        and (ctx is None or not ctx.add_generation_prompt)
    ):
        return True
    if rule == "after_first_answer":
        first = (
            _first_answer(messages)
            if ctx is None
            else ctx.once("keep:first_answer", lambda: _first_answer(messages))
        )
        return index > first
    anchor = (
        _last_answer(messages)
        if ctx is None
        else ctx.once("keep:last_answer", lambda: _last_answer(messages))
    )
    return index > anchor


def _calls_after_last_user(
    index: int, messages: Sequence[Message], ctx: Conversation | None = None
) -> bool:
    """The ``"with_calls_after_last_user"`` rule of :func:`keeps`: whether the assistant turn
    at ``index`` has tool calls and comes after the last user message (every turn with calls
    when there is none). Gemma 4's templates write reasoning back only into such turns, the
    steps of the current tool-use run. ``ctx``: the conversation, where the last user message
    is found once."""
    if not messages[index].tool_calls:
        return False
    return index > (last_user(messages) if ctx is None else ctx.last_user)


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

    ``off_values``: a switch that is no boolean is off exactly for these values (compared
    with ``==``; Solar Open's ``reasoning_effort`` ``"low"`` and ``"minimal"``, Seed-OSS's
    ``thinking_budget`` ``0``); the other option set is then the first of them. ``before``:
    template text written after the last message before the prompt, whether a prompt is
    asked or not (Command R+'s closing instruction turn). ``always``: the template writes
    the whole prompt even when none is asked (Command R7B, Hunyuan-A13B): see
    :meth:`ending`. ``after_assistant=False``: after an assistant message, or when there is
    no message, the template writes no prompt, only its ending
    (:meth:`~tooletta.chat.ChatFormat.after_conversation`; the Apriel templates).
    ``after_system=False``: when the only message is the opening system message, the
    template writes no prompt either, only its ending (Granite 3.3, whose loop over the
    messages after the system message writes the prompt).
    """

    on: str = ""
    off: str = ""
    switch: str = "enable_thinking"
    default: bool = True
    head: str | None = None
    off_values: tuple[Any, ...] = ()
    before: str = ""
    always: bool = False
    after_assistant: bool = True
    after_system: bool = True

    def thinking(self, options: Mapping[str, Any]) -> bool:
        """Whether the switch is on under ``options``."""
        value = options.get(self.switch, self.default)
        if self.off_values:
            return value not in self.off_values
        if self.default:
            return value is not False
        return bool(value)

    def text(self, header: str, options: Mapping[str, Any]) -> str:
        """The prompt under ``options``; ``header``: the assistant turn's header."""
        head = header if self.head is None else self.head
        return self.before + head + (self.on if self.thinking(options) else self.off)

    def ends(self) -> bool:
        """Whether the template writes anything after the last message when no prompt is
        asked (:meth:`ending`)."""
        return self.always or bool(self.before)

    def ending(self, header: str, options: Mapping[str, Any]) -> str:
        """What the template writes after the last message when no prompt is asked: the
        whole prompt (:meth:`text`) when ``always``, else ``before``."""
        return self.text(header, options) if self.always else self.before

    def other_options(self) -> tuple[Mapping[str, Any], ...]:
        """The option set under which the template writes the other prompt (none when both
        are the same)."""
        if self.on == self.off:
            return ()
        if self.off_values:
            return ({self.switch: self.off_values[0]},)
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
    none); ``default_with_tools``: only when tools are declared. ``empty_is_none``: an empty
    system message counts as none (Jinja's ``if system``: the default applies).
    ``empty_turn``: an empty system message alone still makes a turn (else no turn);
    ``empty_joins``: an empty system
    message is still joined to the declarations (Jinja's ``is defined``; else it is left out
    as by ``if system``). ``always``: a turn (with an empty body) even without a system
    message or tools. (A template that trims the system message declares it in the format's
    :attr:`~tooletta.chat.ChatFormat.trim`.)

    ``dated``: a ``strftime`` format; the ``default`` holds ``{date}`` where the template
    writes today's date in it (its ``strftime_now``: Apertus's ``Current date: %Y-%m-%d``),
    and reads back as the default whatever the date written there (each directive matches
    the text it can write: ``%Y`` four digits, ``%B`` a word...).

    ``lead``: text the template writes at the start of the turn from its options (Gemma 4's
    ``<|think|>`` flag when thinking is on, GLM-5.2's reasoning-effort line): called with the
    options, ``""`` for none. A lead makes a turn even without a body (the lead alone), and
    stands before a body with ``lead_joiner`` between them. ``leads``: every text the lead may
    write, which the reader takes off the start of a body (a body that is a lead alone reads
    as no message).

    ``empty_reads_none``: an empty system message, written as it is (an empty turn, as
    ``empty_turn`` says), reads back as none (Gemma 4: parsing gives no message for the empty
    turn, and :meth:`~tooletta.chat.ChatFormat.expressible` drops it).

    ``default_option``: the template option that, when given, is written in place of
    ``default`` (MiniMax's ``model_identity``: ``{% if model_identity is not defined %}``
    sets the default). ``None`` counts as not given (the template would write ``None``); any
    other value that is not a string is refused with a :class:`~tooletta.RenderError` naming
    the option. Parsing is not told the options: a body holding the option's text reads back
    as the system message it cannot be told apart from, and
    :meth:`~tooletta.chat.ChatFormat.carried` says so.

    ``footer``: the opening turn's own footer, written after its body in place of the system
    turn's (``turns["system"].footer``, which every later system turn keeps), for a template
    that closes its opening turn otherwise or not at all (Ring-2.5-1T never writes
    ``<|role_end|>`` after the system message or the declarations, and writes it after every
    later system message); ``""``: none, the turn running to the next header. The parser
    reads the opening turn up to it as it reads other turns up to theirs (up to the next
    header when it is empty), both asking :meth:`closing`; where the format writes no opening
    turn without a system message, a first system turn that the system turn's footer closes
    before that is read as a later system message's (an empty first one wrote no turn).
    ``None`` (the default): the system turn's footer.
    """

    tools: Declarations | None = None
    head: str = ""
    end: str = ""
    joiner: str = "\n\n"
    tools_first: bool = False
    default: str | None = None
    default_with_tools: bool = False
    empty_is_none: bool = False
    empty_turn: bool = True
    empty_joins: bool = True
    always: bool = False
    dated: str = ""
    lead: Callable[[Mapping[str, Any]], str] | None = None
    lead_joiner: str = ""
    leads: tuple[str, ...] = ()
    empty_reads_none: bool = False
    default_option: str = ""
    footer: str | None = None
    _dated: re.Pattern[str] | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """The pattern a dated default reads back by."""
        if self.dated and self.default is not None:
            object.__setattr__(self, "_dated", _dated_pattern(self.default, self.dated))

    def closing(self, footer: str) -> str:
        """The footer that closes the opening turn, given the system turn's ``footer``:
        its own ``footer`` when declared, else the given one (what the renderer writes after the
        body and the parser reads the body up to)."""
        return footer if self.footer is None else self.footer

    def write(
        self,
        system: str | None,
        tools: Sequence[Mapping[str, Any]],
        today: Callable[[str], str] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> str | None:
        """The turn's body for ``system`` (the first system message's text, ``None`` when
        there is none) and ``tools``; ``None``: no turn. A system message that :meth:`read`
        would not give back (it holds the declarations' opening text) is refused with a
        :class:`~tooletta.RenderError`, never changed silently. ``today``: the date in a
        ``strftime`` format, for a ``dated`` default (the clock's when not given);
        ``options``: the template's options, for a ``lead`` and the ``default_option``
        (none when not given)."""
        body = self._body(system, tools, today, self.given_default(options))
        lead = self.lead(options or {}) if self.lead is not None else ""
        if lead:
            body = lead if body is None else lead + self.lead_joiner + body
        if (  # a message that would read back as another text
            system
            and body is not None
            and not self.is_default(system)
            and self.read(body) != system
        ):
            raise RenderError(
                "the system message would not read back as written: it holds the text "
                f"that opens the tool declarations ({self.head[:40]!r}) or what ends them"
            )
        return body

    def given_default(self, options: Mapping[str, Any] | None) -> str | None:
        """The ``default_option``'s value in ``options`` (``None``: not given, or no such
        option); refused with a :class:`~tooletta.RenderError` when it is not a string."""
        if not self.default_option or not options:
            return None
        given = options.get(self.default_option)
        if given is None or isinstance(given, str):
            return given
        raise RenderError(
            f"the {self.default_option!r} option must be a string (the text written when "
            f"there is no system message), not {type(given).__name__}"
        )

    def _body(
        self,
        system: str | None,
        tools: Sequence[Mapping[str, Any]],
        today: Callable[[str], str] | None,
        given: str | None = None,
    ) -> str | None:
        """:meth:`write` without the ``lead``; ``given``: the ``default_option``'s text."""
        if system == "" and self.empty_is_none:
            system = None
        default = self.default if given is None else given
        if system is None and default is not None and (tools or not self.default_with_tools):
            system = default
            if self.dated and given is None:
                date = (clock.formatted if today is None else today)(self.dated)
                system = system.replace("{date}", date)
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
        body, alone = self.unlead(body)
        if alone:
            return None
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
        if system == "" and (
            self.empty_is_none or self.empty_reads_none or (self.always and not self.empty_turn)
        ):
            return None
        if (
            system is not None
            and self.is_default(system)
            and (found or not self.default_with_tools)
        ):
            return None
        return system

    def unlead(self, body: str) -> tuple[str, bool]:
        """``body`` without the one of ``leads`` that starts it (and the joiner after it),
        and whether the body was that lead alone."""
        for lead in self.leads:
            if body == lead:
                return "", True
            if body.startswith(lead + self.lead_joiner):
                return body[len(lead) + len(self.lead_joiner) :], False
        return body, False

    def is_default(self, system: str) -> bool:
        """Whether ``system`` is the ``default`` message (a ``dated`` one with any
        date)."""
        if self._dated is not None:
            return self._dated.fullmatch(system) is not None
        return system == self.default


_DIRECTIVES = {
    "Y": r"\d{4}",
    "G": r"\d{4}",
    "y": r"\d{2}",
    "m": r"\d{2}",
    "d": r"\d{2}",
    "H": r"\d{2}",
    "I": r"\d{2}",
    "M": r"\d{2}",
    "S": r"\d{2}",
    "j": r"\d{3}",
    "B": r"[^\W\d_]+",
    "b": r"[^\W\d_]+",
    "A": r"[^\W\d_]+",
    "a": r"[^\W\d_]+",
    "p": r"[^\W\d_]+",
    "%": "%",
}
"""What a ``strftime`` directive writes, as a pattern (any other directive: any text)."""


def _dated_pattern(text: str, fmt: str) -> re.Pattern[str]:
    """The pattern of ``text`` whose ``{date}`` is a date written in the ``strftime`` format
    ``fmt`` (any date), for :attr:`SystemBlock.dated`."""
    date = re.sub(
        r"%(.)|[^%]+",
        lambda m: (
            re.escape(m.group()) if m.group(1) is None else _DIRECTIVES.get(m.group(1), ".*?")
        ),
        fmt,
    )
    return re.compile(("(?:" + date + ")").join(map(re.escape, text.split("{date}"))), re.DOTALL)


@dataclass(frozen=True)
class ToolsTurn(SystemBlock):
    """An opening system turn that holds the tool declarations alone, for a format whose
    system messages are turns of their own (:attr:`~tooletta.chat.ChatFormat.merge_system`
    false: GLM-4.6 and GLM-4.7 write the declarations in a ``<|system|>`` turn, then every
    system message in one of its own).

    It writes as :class:`SystemBlock` does (the renderer gives it no system message: the
    declarations, or no turn without tools); it reads a body that starts with ``head`` as
    the declarations (no message) and any other body as a system message, as written (the
    first turn's system message is never cut at a ``head`` it holds).
    """

    def read(self, body: str) -> str | None:
        """``None`` for the declarations (a body starting with ``head``) or a lead alone,
        else ``body`` (without its lead)."""
        body, alone = self.unlead(body)
        if alone:
            return None
        if self.tools is not None and self.head and body.startswith(self.head):
            return None
        return body


ToolsPlace = Literal["first_turn", "last_user"]
"""Before which turn a :class:`ToolsBlock` stands."""


@dataclass(frozen=True)
class ToolsBlock:
    """Tool declarations the template writes outside any turn, right before one of them
    (Mistral's ``[AVAILABLE_TOOLS]...[/AVAILABLE_TOOLS]``), and how the parser skips them.

    ``tools`` writes the block for a non-empty list of tools: its text starts with ``head``
    and ends with the first ``end`` after it. ``at``: before the first turn after a leading
    system message (``"first_turn"``: the message at index 0, or 1 after a system message;
    when the conversation has no such message, before the generation prompt), or before the
    last user message (``"last_user"``; nowhere without one). No tools: no block.
    A format sets it as :attr:`~tooletta.chat.ChatFormat.tools_block`; the default
    :meth:`~tooletta.chat.ChatFormat.before_turn` and
    :meth:`~tooletta.chat.ChatFormat.skip_before_turn` read it.
    """

    tools: Declarations
    head: str
    end: str
    at: ToolsPlace = "first_turn"

    def write(
        self, index: int, ctx: Conversation, system_roles: Collection[str] = ("system",)
    ) -> str:
        """The block written before the message at ``index`` of ``ctx.messages`` (``index ==
        len(ctx.messages)``: after the last message), ``""`` where there is none;
        ``system_roles``: the roles of a leading system message."""
        tools = ctx.tools
        if not tools:
            return ""
        if self.at == "last_user":
            if index != ctx.last_user:
                return ""
        else:
            messages = ctx.messages
            if index > 1 or index != (1 if messages and messages[0].role in system_roles else 0):
                return ""
        return self.tools(tools)

    def skip(self, text: str, pos: int) -> int:
        """Where the block that starts at ``pos`` of ``text`` ends (past its ``end``);
        ``pos`` when none starts there."""
        if not text.startswith(self.head, pos):
            return pos
        end = text.find(self.end, pos + len(self.head))
        return end + len(self.end) if end >= 0 else pos


@dataclass(frozen=True)
class TruthyPrompt(Prompt):
    """A :class:`Prompt` whose switch is read by its truth value even when it defaults on:
    Jinja's ``enable_thinking is defined and not enable_thinking`` (GLM-5.2), where ``None``,
    ``0`` and ``""`` turn thinking off too (:class:`Prompt` reads ``is false`` then).

    ``unset_by``: another option the template reads instead when the switch is undefined
    (North Mini Code's ``reasoning if reasoning is not undefined else (false if
    reasoning_effort | lower == "none" else true)``): with the switch at ``True`` (its
    default), the prompt is off when that option, given, is written by Jinja's ``lower`` as
    one of ``unset_off`` (``None`` is written ``"none"``). The options a format sees hold its
    defaults merged with the caller's, so a switch given as ``True`` reads as one not given:
    ``True`` with such an ``unset_by`` value is off too (the template would write it on).
    """

    unset_by: str = ""
    unset_off: tuple[str, ...] = ()

    def thinking(self, options: Mapping[str, Any]) -> bool:
        """Whether the switch's value under ``options`` (its default when not given) is
        true, ``unset_by`` deciding for ``True``."""
        value = options.get(self.switch, self.default)
        if value is True and self.unset_by and self.unset_by in options:
            return str(options[self.unset_by]).lower() not in self.unset_off
        return bool(value)


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
    ``open_ends``: a block whose ``end`` never comes runs to the end of the text (skipped
    whole; Apertus's developer turn, :class:`~tooletta.chat.AfterSystem`), else it is left to
    the turns. A format sets it as :attr:`~tooletta.chat.ChatFormat.preamble`; the default
    :meth:`~tooletta.chat.ChatFormat.before_turn` and
    :meth:`~tooletta.chat.ChatFormat.skip_before_turn` read it.
    """

    write: Callable[[Conversation], str]
    blocks: tuple[tuple[str, str], ...]
    start_only: bool = False
    open_ends: bool = False

    def text(self, index: int, ctx: Conversation) -> str:
        """The text written before the message at ``index`` (``index == len(ctx.messages)``:
        after the last message): the preamble at index 0, else nothing."""
        return self.write(ctx) if index == 0 else ""

    def skip(self, text: str, pos: int) -> int:
        """Where the blocks that start at ``pos`` of ``text`` end (the end of the text for an
        open one when ``open_ends``); ``pos`` when none starts there."""
        if self.start_only and pos:
            return pos
        for head, end in self.blocks:
            if text.startswith(head, pos):
                at = text.find(end, pos)
                if at >= 0:
                    pos = at + len(end)
                elif self.open_ends:
                    return len(text)
        return pos


@dataclass(frozen=True)
class ResultHead:
    """A tool result written after a label the template makes from the conversation (the id
    of the call it answers, Mistral Small 3.2's ``ID[TOOL_CONTENT]``; the function's name,
    MiniMax-M1's ``NAME\\ntool result: ``) and the fixed text ``after`` that ends the label,
    inside :attr:`~tooletta.chat.ChatFormat.result_wrap`; the reader takes the content after
    the first ``after``.

    ``label(index, ctx)`` gives the label of the result at ``index``. A label holding
    ``after`` would end early and read back into the content: it is refused
    (:class:`~tooletta.RenderError`). A format sets it as
    :attr:`~tooletta.chat.ChatFormat.result_head`; the default
    :meth:`~tooletta.chat.ChatFormat.result_text` and
    :meth:`~tooletta.chat.ChatFormat.parse_result` read it.
    """

    label: Callable[[int, Conversation], str]
    after: str

    def write(self, index: int, ctx: Conversation, text: str, name: str) -> str:
        """The result at ``index`` (its content ``text``) with its label; ``name``: the
        format's name, for the refusal."""
        label = self.label(index, ctx)
        if self.after in label:
            raise RenderError(
                f"{name}: message {index}: the tool result's label {label!r} holds "
                f"{self.after!r}, which ends the label: it would not read back as written"
            )
        return label + self.after + text

    def read(self, body: str) -> str:
        """The content of a result :meth:`write` wrote (``body`` as it is without ``after``)."""
        _, found, content = body.partition(self.after)
        return content if found else body


# -- headerless turns (decl9b) -------------------------------------------------------------


def implicit_after(*previous: str | None, role: str = "assistant") -> Mapping[str | None, str]:
    """A read-only :attr:`~tooletta.chat.ChatFormat.implicit_roles` table: a turn written
    without a header right after a message of one of the ``previous`` roles (``None``: at the
    start of the conversation) is a ``role`` turn. ``implicit_after("tool", "assistant")``:
    the model's text goes on without a header after tool results and after its own turn
    (Gemma 4, DeepSeek, Apertus). Tables for several roles merge as mappings do
    (``{**implicit_after("system", role="user"), **implicit_after("tool")}``)."""
    return MappingProxyType(dict.fromkeys(previous, role))
