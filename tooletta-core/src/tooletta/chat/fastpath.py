"""A fast path for :func:`tooletta.render_conversation` with a learned format: one writer
specialised once per format object, for the common conversation it can prove it writes
exactly as the general path does.

The general path (:func:`tooletta.chat.api.render_conversation_text`) reads the messages,
checks them (``tooletta.chat.checks.check_conversation``), builds the
:class:`~tooletta.chat.Conversation` the hooks see and drives the format's hooks turn by
turn (:func:`~tooletta.chat.render.render_text`): about 25 Python calls for a two-message
conversation, ~4 µs, most of which is the same for every conversation of a format. A
:class:`FastWriter` reads the format (its render plan and the learned hooks it installs)
once, and :func:`tooletta.chat.fastgen.generate` writes from what it read the one function
that writes a conversation of that format in one pass over the messages: the headers and
footers of each role as strings, the learned strips inline, the system turn remembered by
its text (the format's own ``system_text`` asked the first time; for a format writing its
tool declarations and default system prompt in turns of their own before the first message,
``LearnedChat._opening_turns``, those turns remembered by whether the first message is a
system message and the tools, the plan's ``before_first`` asked the first time), the
generation prompt remembered per options (its ``generation_prompt`` asked the first time),
the history rule's anchor found once per conversation (for the rules ``ChatFormat.kept_in``
answers by an index), a learned calls dialect's ``render`` taken apart once (its calls
writer, content check and leads), and the refusals as single C-level scans of the texts
joined as ``tooletta.chat.checks.check_conversation`` joins them (lone surrogates by
encoding, markup by the same probes).

It handles only what it can prove it writes as the general path does, and gives ``None`` for
anything else, which the caller then renders by the general path (so errors are the general
path's own, raised by it): the messages a list of plain :class:`~tooletta.Message` objects
(no ``extra``) with string content (an answer's reasoning block written by the format's own
``reasoning_text`` and history rule: ``ChatFormat.kept_in``'s anchored rules answered here,
any other asked with the :class:`~tooletta.chat.Conversation` the general path builds; only
for answers with reasoning or where the format writes a block without it); a system message
only first (or anywhere, as a turn of its own, for a format with no opening system turn:
``LearnedChat._opening_text``, its learned strip inline); user and assistant turns, and tool
results where the format writes them as declared (or through its ``tojson`` encoding, or
after their own ``tool_call_id`` and the learned text after it, as
``LearnedChat._result_with_id`` writes them for the id rule ``"message"``: an id holding
that text handed back); calls only flat ones without ids (a non-empty name, string keys,
string, boolean, null, short integer or finite float values: those
``tooletta.chat.checks.check_conversation`` passes at a glance), written by the dialect's
``render`` as the general path writes checked calls (or its pieces, for the learned
``InstalledCalls`` and ``JsonCalls``), where the format writes them so and the dialect does
not type values by the schema; tool definitions only as a list of OpenAI Chat dicts. Any
text holding a character that probes the format's markup (unless ``allow_markup``), a lone
surrogate, a learned cut tag, an answer the dialect refuses or the template refuses empty,
options failing the learned fixed options or not hashable: ``None``. A format with hooks
other than the learned ones it knows (or any set on the object) gets no fast writer at all
(:func:`fast_writer` gives ``None``).

``tests/test_render_fastpath.py`` compares it, text and error, with the general path for every
learned template of ``bench/learn.py`` and the vendored ones, over the kit's sample
conversations and generated ones.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any

from ..ir import Message
from .checks import _typed_by_schema
from .conversation import conversation, last_user
from .declare import last_query
from .fastgen import generate
from .format import ChatFormat
from .shortcuts import UNPROVED, without_calls

__all__ = ["FastWriter", "fast_writer"]

Fast = Callable[[Any, Any, bool, Mapping[str, Any], bool], "str | None"]
"""``write(messages, tools, add_generation_prompt, options, allow_markup)``: the text, or
``None`` when the general path must render."""


def fast_writer(fmt: Any, dialect: Any, plan: Any, markup: Any) -> Fast | None:
    """The fast writer of ``fmt`` (a learned format) with its ``dialect``, its render ``plan``
    (:func:`~tooletta.chat.render.plan_of`) and its ``markup`` tables
    (``tooletta.chat.markup.markup_of``); ``None`` when ``fmt`` is not a learned format or
    has hooks the fast path does not know."""
    chatspec = sys.modules.get("tooletta.chat.learn.chatspec")  # not imported: none learned
    if chatspec is None or not isinstance(fmt, chatspec.LearnedChat) or fmt.unwritten_fields:
        return None  # message keys to refuse: check_conversation, on the general path
    writer = FastWriter.of(fmt, dialect, plan, markup, chatspec.LearnedChat)
    return None if writer is None else generate(writer)


def _func(hook: Any) -> Any:
    """The function behind a bound hook (``None`` for ``None``)."""
    return getattr(hook, "__func__", hook)


_HOOKS = (
    "system_text",
    "user_text",
    "assistant_text",
    "header",
    "before_turn",
    "end_token",
    "assistant_footer",
    "after_conversation",
    "calls_text",
    "turn_body",
    "content_text",
    "keeps_reasoning",
    "kept_in",
    "reasoning_text",
    "text",
    "generation_prompt",
)
"""The hooks a conversation without tool turns may be written with: a format setting any of
them on the object itself gets no fast writer."""


class FastWriter:
    """What a learned format's conversation writer for the common case reads of the format
    (see the module's docstring), and the helpers its generated function asks on the rare
    paths: built by :meth:`of`, written out by :func:`tooletta.chat.fastgen.generate`."""

    def __init__(self, fmt: Any, dialect: Any, plan: Any, markup: Any, learned: Any) -> None:
        """Read the format once (:meth:`of` decides first whether it may be)."""
        self.fmt = fmt
        self.dialect = dialect
        self.plan = plan
        turns = plan.turns
        self.bos: str = plan.bos
        self.probes: tuple[tuple[str, tuple[str, ...]], ...] = markup[1].probes
        user_hook = _func(plan.user_text)
        user = turns["user"]
        self.user_head: str = user.header
        self.user_strip: tuple[Any, Any] | None = None
        user_tail = ""
        if user_hook is learned._user_text or user_hook is learned._role_text:
            self.user_strip = fmt._user
        elif user_hook is learned._text_and_footer:
            self.user_strip = fmt._user
            user_tail = fmt._footers["user"]
        self.user_tail: str = user_tail + user.footer
        self.own_turns: bool = not plan.merge_system
        """Whether the format writes no opening system turn, but its declarations turn and
        default system turn before the first message (``LearnedChat._opening_turns``, the plan's
        ``before_first``), every system message a turn of its own (:attr:`system_turns`)."""
        self.system_turns: tuple[str, tuple[Any, Any] | None, str] | None = (
            _system_turns(fmt, user_hook, turns["system"], learned) if self.own_turns else None
        )
        """A system message's turn where it stands, as the plan's ``user_text`` writes it:
        (its header, the strip of its text or ``None``, what follows the text); ``None``: a
        system message is written only first, in the opening system turn."""
        answer = turns["assistant"]
        self.answer_head: str = answer.header
        self.answer_foot: str = answer.footer
        self.learned_answer = _func(plan.assistant_text) is learned._assistant_text
        self.answer_strip: tuple[Any, Any] = fmt._plain
        self.blocked_strip: tuple[Any, Any] = fmt._blocked
        self.answer_tail: str = fmt._tail if self.learned_answer else ""
        self.cut_tag: str = fmt._cut_tag if self.learned_answer and fmt._cut else ""
        history = fmt._history if self.learned_answer else None
        self.history_where: str = str(history["where"]) if history else ""
        self.history_strip: tuple[Any, Any] = (
            (history["strip"][0], history["strip"][1]) if history else ("", "")
        )
        self.check = without_calls(dialect)
        self.refuse_empty: bool = fmt._refuse_empty
        self.reasons: bool = fmt.reasoning is None or (
            self.learned_answer or bool(plan.bare_unless_reasoning)
        )
        """Whether answers with reasoning are written here (the format declares none, so they
        are written as nothing and only checked, or its block and history rule are asked as
        the general path asks them)."""
        self.no_block: bool = fmt._no_block_unless_reasoning if self.learned_answer else True
        """An answer without reasoning has no block (its history rule not asked)."""
        rule = fmt.reasoning
        self.keep: str = (
            ("none" if rule is None else rule.keep)  # (no rule: no turn keeps, none written)
            if (rule is None or (not rule.switch and rule.keep in _ANCHORED))
            and kind_of(fmt, "kept_in") is ChatFormat.kept_in
            and kind_of(fmt, "keeps_reasoning") is ChatFormat.keeps_reasoning
            and kind_of(fmt, "reasoning_text") is ChatFormat.reasoning_text
            else ""
        )
        """The history rule (``Reasoning.keep``) answered here, its anchor found once per
        conversation (``_anchor``), when the format asks it through
        :class:`~tooletta.chat.ChatFormat`'s own ``kept_in`` and no option switches it
        (``""``: asked through the format's ``kept_in`` with the conversation)."""
        block = fmt.reasoning_text
        self.empty_blocks: tuple[tuple[str, str], tuple[str, str]] = (
            (
                (block("", False, False), block("", False, True)),
                (block("", True, False), block("", True, True)),
            )
            if self.keep
            else (("", ""), ("", ""))
        )
        """The block ``reasoning_text`` writes for an answer without reasoning, by (kept,
        last): read once (it reads only the format's declared ``Reasoning``); used with
        :attr:`keep`."""
        self.after_results: str | None = plan.after_results
        self.calls_ok: bool = (
            fmt._direct_calls and not fmt._ids_across
            if self.learned_answer
            else bool(plan.calls_direct)
        )
        """Calls are written by the dialect's ``render`` straight (the general path's way for
        checked calls), else a turn with calls goes to the general path."""
        self.rewrites: bool = fmt._rewrites
        self.typed: bool = _typed_by_schema(dialect)
        tool = turns.get("tool")
        result_hook = _func(plan.result_text)
        encoded_result = (  # ChatFormat.result_text writing the result through tojson only
            result_hook is learned.result_text
            and fmt.result_json is not None
            and not fmt.results_by_calls
            and fmt.result_head is None
        )
        own_id = result_hook is learned._result_with_id and fmt._result_id[0]
        self.result_ids: tuple[str, tuple[Any, Any]] | None = (
            (fmt._result_id[1], fmt._result) if own_id else None
        )
        """A result written with its own ``tool_call_id`` before it
        (``LearnedChat._result_with_id`` with the id rule ``"message"``): (the text after
        the id, which the id may not hold; the strip of the result's text); ``None``: no id
        written (an id rule of the answered calls: :attr:`results_ok` is false)."""
        self.results_ok: bool = (
            tool is not None
            and plan.result_footer is None
            and (result_hook is None or encoded_result or own_id)
        )
        """Tool results are written here (else a conversation with one goes to the general
        path)."""
        self.result_head: str = tool.header if tool is not None else ""
        self.result_foot: str = tool.footer if tool is not None else ""
        self.result_json: Any = fmt.result_json if encoded_result or own_id else None
        self.grouped: bool = plan.grouped
        self.separator: str = plan.separator
        self.wrap_open: str = plan.wrap_open
        self.wrap_close: str = plan.wrap_close
        after = plan.after_conversation
        base = conversation((), (), plan.options, dialect)
        self.after: str = "" if after is None else str(after(base))
        self.systems: dict[tuple[str | None, bytes], str | None] = {}
        """The opening system turn's text by the first message's system text (``None``: no
        system message) and the tool definitions' content key (``b""``: none), as the
        format's ``system_text`` writes it (``None``: the general path must write it: no
        system turn declared)."""
        self.openings: dict[tuple[bool, bytes], str | None] = {}
        """For a format with :attr:`own_turns`: what it writes before the first message (the
        plan's ``before_first``) by whether the first message is a system message and the
        tool definitions' content key (``b""``: none); ``None``: the general path must
        write it."""
        self.firsts = (
            [Message(role="user", content="")],
            [Message(role="system", content="")],
        )
        """The messages ``_before_first`` shows ``before_first``: a first message that
        is not a system message, one that is (it reads no more of them)."""
        self.prompts: dict[tuple[Any, ...], tuple[str, str, str] | None] = {}
        """The generation prompts per options (keyed by their items), after an answer, after
        a tool result and after any other message (``None`` when the options fail the learned
        fixed options)."""
        self.stubs = [
            [Message(role="assistant", content="")],
            [Message(role="tool", content="")],
            [Message(role="user", content="")],
        ]
        self.calls_writer: tuple[Any, Any, str, str, bool] | None = _calls_writer(dialect)
        """The learned dialect's ``render`` of a turn with calls, taken apart once: (the
        calls' writer, the content check, the lead without content, the lead after content,
        whether that lead is left out when the content ends with it); ``None``: its
        ``render`` is asked."""

    @classmethod
    def of(cls, fmt: Any, dialect: Any, plan: Any, markup: Any, learned: Any) -> FastWriter | None:
        """The fast writer of the learned format ``fmt``, or ``None`` when a hook or a
        declaration it uses is one the fast path does not write as the general path does."""
        own = vars(fmt)
        kind = type(fmt)
        if any(name in own for name in _HOOKS):
            return None
        if kind.generation_prompt is not learned.generation_prompt:
            return None
        base = ("turn_body", "content_text", "keeps_reasoning", "kept_in", "reasoning_text")
        if any(getattr(kind, name) is not getattr(learned, name) for name in base):
            return None
        if kind.text is not learned.text:
            return None
        turns = plan.turns
        if "user" not in turns or "assistant" not in turns:
            return None
        if plan.system_roles != frozenset({"system"}):
            return None
        if (
            plan.before_turn is not None
            or plan.header is not None
            or plan.end_token is not None
            or not plan.footer_ok
            or plan.gathered
            or plan.drops_system
            or fmt.call_ids is not None
            or fmt.late_system != "turn"
            or fmt._defaults_checked is not plan.options
            or fmt._open_last
        ):
            return None
        opening = _func(plan.system_text)
        if opening is learned._opening_text:  # the declarations in a turn of their own
            if (
                plan.merge_system
                or _func(plan.before_first) is not learned._opening_turns
                or kind.before_turn is not learned._opening_turns
                or "system" not in turns
            ):
                return None
        elif opening in (learned.system_text, learned._system_and_footer):
            if not plan.merge_system or plan.before_first is not None:
                return None
        else:
            return None
        user_hooks = (None, learned._user_text, learned._text_and_footer, learned._role_text)
        if _func(plan.user_text) not in user_hooks:
            return None
        after = _func(plan.after_conversation)
        if after not in (None, learned._after_conversation):
            return None
        answer = _func(plan.assistant_text)
        if answer is learned._assistant_text:
            if not fmt._plain_calls:
                return None
            history = fmt._history
            if history and history["where"] != "not_last":
                return None  # (no vendored template learns the others: not written here)
        elif answer is None:
            plain_answer, calls_plain = plan.loop[14], plan.loop[15]
            if not plain_answer or not calls_plain:
                return None
        else:
            return None
        if without_calls(dialect) is UNPROVED:
            return None
        return cls(fmt, dialect, plan, markup, learned)

    def _system(self, system: str | None, defs: list[Any]) -> str | None:
        """The opening system turn's text as the format writes it (remembered)."""
        plan = self.plan
        ctx = conversation((), defs, plan.options, self.dialect)
        try:
            body = plan.system_text(system, ctx)
        except Exception:
            return None  # the general path says why
        if body is None:
            return ""
        turn = plan.system_turn
        if turn is None:
            return None  # the general path refuses it
        return str(turn.header + body + plan.system_footer)

    def _before_first(self, system_first: bool, defs: list[Any]) -> str | None:
        """What a format with :attr:`own_turns` writes before the first message (its
        declarations turn and default system turn: the plan's ``before_first``), the first
        message a system message or not (remembered in :attr:`openings`); ``None`` when it
        raises (the general path says why)."""
        plan = self.plan
        first = self.firsts[system_first]
        ctx = conversation(first, defs, plan.options, self.dialect)
        try:
            return str(plan.before_first(0, ctx))
        except Exception:
            return None

    def _prompts(self, options: Mapping[str, Any]) -> tuple[str, str, str] | None:
        """The generation prompts for ``options`` (after an answer, after a tool result,
        after anything else), or ``None`` when they fail the learned fixed options."""
        fmt = self.fmt
        merged = {**self.plan.options, **options} if options else self.plan.options
        if options and fmt._fixed:
            try:
                fmt._check_fixed(merged)
            except Exception:
                return None
        prompt = fmt.generation_prompt
        dialect = self.dialect
        after_answer, after_result, other = (
            str(prompt(conversation(stub, (), merged, dialect, True))) for stub in self.stubs
        )
        return after_answer, after_result, other

    @staticmethod
    def _tools(tools: Any) -> list[Any] | None:
        """The tool definitions as the general path reads them, when each is already in the
        OpenAI Chat shape (kept as given); ``None`` otherwise."""
        if type(tools) is not list and type(tools) is not tuple:
            return None
        for tool in tools:
            if type(tool) is not dict or type(tool.get("function")) is not dict:
                return None
        return list(tools)

    def _anchor(self, messages: list[Any], count: int) -> int | None:
        """The index after which :attr:`keep` keeps an answer's reasoning (the turn at
        ``index`` keeps it when ``index > anchor``), as ``ChatFormat.kept_in`` and
        :func:`~tooletta.chat.keeps` decide it."""
        try:  # (the messages after the turn asking are not checked yet: a fault, None)
            return self._anchor_of(messages, count)
        except Exception:
            return None

    def _anchor_of(self, messages: list[Any], count: int) -> int:
        """:meth:`_anchor` for messages that may be read."""
        keep = self.keep
        if keep == "all":
            return -1
        if keep == "none":
            return count
        if keep == "last":
            return count - 2
        if keep == "after_last_user":
            return last_user(messages)
        found = last_query(messages)  # "after_last_query": none kept without a query
        return found if found >= 0 else count

    def _conversation(self, messages: list[Any], asked: tuple[Any, Any, bool]) -> Any:
        """The :class:`~tooletta.chat.Conversation` the general path's hooks would see."""
        defs, options, add_generation_prompt = asked
        plan = self.plan
        merged = {**plan.options, **options} if options else plan.options
        return conversation(messages, defs, merged, self.dialect, add_generation_prompt)


def _system_turns(
    fmt: Any, user_hook: Any, turn: Any, learned: Any
) -> tuple[str, tuple[Any, Any] | None, str]:
    """:attr:`FastWriter.system_turns` of a format whose system messages are turns of their
    own, written by ``user_hook`` (the plan's ``user_text``: ``None``, the message's text
    as it is, or a learned one of those :meth:`FastWriter.of` passes) in the system
    ``turn``."""
    strip: tuple[Any, Any] | None = None
    tail = ""
    if user_hook is learned._user_text:  # (the user's strip, whatever the role)
        strip = fmt._user
    elif user_hook is learned._role_text:
        strip = fmt._system
    elif user_hook is learned._text_and_footer:
        strip = fmt._system
        tail = fmt._footers["system"]
    return turn.header, strip, tail + turn.footer


def _calls_writer(dialect: Any) -> tuple[Any, Any, str, str, bool] | None:
    """What the ``render`` of a learned calls dialect does with a turn's calls (checked,
    flat, without ids: what the generated writer hands it), taken apart:
    ``InstalledCalls.render`` writing them together through its installed dialect's
    ``render_calls`` and checking the content with its ``check_content``, or
    ``JsonCalls.render`` (its ``CallObjects`` writer, its ``check_content``, which passes
    empty content); ``None`` for any other dialect, or one with ``render`` set on the
    object."""
    learned = sys.modules.get("tooletta.chat.learn.dialects")
    if learned is None or "render" in vars(dialect):
        return None
    kind = type(dialect)
    if kind is learned.InstalledCalls:
        if dialect._between is not None or dialect._calls_only is None:
            return None
        check = dialect._check_content
        if check is None:
            return None
        writer = dialect._calls_only
    elif kind is learned.JsonCalls and "check_content" not in vars(dialect):
        check, writer = dialect.check_content, dialect._writer.calls
    else:
        return None
    return writer, check, dialect._alone, dialect._lead, dialect._lead_if_missing


def kind_of(fmt: Any, name: str) -> Any:
    """The function ``fmt``'s class defines as ``name`` (an attribute set on the object
    itself is refused by :meth:`FastWriter.of`)."""
    return getattr(type(fmt), name, None)


_ANCHORED = frozenset({"all", "none", "last", "after_last_user", "after_last_query"})
"""The history rules :meth:`FastWriter._anchor` answers."""
