"""A learned conversation format: a JSON-serialisable spec and the
:class:`~tooletta.chat.ChatFormat` it declares.

The spec (a plain dict, versioned by :data:`SPEC_VERSION`) holds only strings, booleans and
small tables: the start text, each role's header and footer, the end-of-turn token, the
system turn and the tool declarations (prefix, each tool as ``tojson`` of the tool or of its
function with the learned indent/separators/escaping, joiner, suffix), tool-result wrapping and
grouping, reasoning and its history rule, the generation prompt per option switch. A
:class:`LearnedChat` reads it; the renderer and the parser of :mod:`tooletta.chat` do the rest,
as for any plugin's format.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec

from ...errors import RenderError, ToolettaError
from ...ir import Message, ParseResult, ToolCall
from ..checks import Checked
from ..conversation import Conversation, conversation, first_of
from ..declare import implicit_after
from ..declare_layout import Reasoning, Turn, defaults, roles
from ..declare_results import JsonResults
from ..declare_turns import Headerless
from ..format import ChatFormat
from ..guard import trusted
from ..messages import by_content
from ..shortcuts import LAST, PLAIN_MARK, UNPROVED, plain_without_calls, without_calls

__all__ = ["SPEC_VERSION", "SPEC_VERSIONS_READ", "LearnedChat", "tools_text"]

_NO_STRIP = {"block": ["", ""], "plain": ["", ""]}

SPEC_VERSION = 5
"""The version of the spec layout (saved in every spec; :func:`~tooletta.chat.learn.load_learned`
checks it). Version 2 added optional keys only (the tools' ``own_turn``, the results' ``id``,
the calls' ``written_ids``, the chat's ``content_cut`` (with its ``lead`` and ``spared``),
``history_strip``, ``plain_footers``, ``empty_system``, ``after_results``,
``prompt_after_results``, ``content_beside_calls`` and ``content_parts``): a version 1 spec,
which has none of them, reads as it did; see :data:`SPEC_VERSIONS_READ`. Version 3 added
optional keys again (a version 1 or 2 spec reads as it did): the calls' ``ids_across``
(written ids numbered across the conversation's turns), the chat's ``names`` (headers that
name the message, :mod:`.names`), the tools' ``item.list`` (one JSON list of them all), and
the history rule ``after_first_answer``; a tooletta that reads only versions 1 and 2 refuses
such a spec instead of rendering it without them. Version 4 added optional keys again (a
version 1 to 3 spec reads as it did): the installed calls' ``between`` (the text the
template writes between calls where the dialect writes another), the results' ``encoding``
(``"json_string"``: each result's text written as a JSON string literal inside the wrap) and
the chat's ``empty_answer`` (``false``: an answer with no text and no calls is refused, the
template writing it otherwise) and ``system_suffix`` (the join and the template's own text
written after a system message, the default system prompt written alone without one).
Version 5 added one optional key (a version 1 to 4 spec reads as it did): the chat's
``headerless`` (``{"role": "user", "after": ["system"]}``: a user turn written without its
header right after the system turn, whose opening stands for both, as Hunyuan's hub text
writes it; a :class:`~tooletta.chat.Headerless` declaration)."""

SPEC_VERSIONS_READ = frozenset({1, 2, 3, 4, 5})
"""The spec versions :func:`~tooletta.chat.learn.load_learned` reads (a newer one is refused:
it may hold keys this version would ignore)."""


def _body_tail(footer: str, end_of_turn: str) -> str:
    """The text an answer's footer holds before its end-of-turn token (written as the end of
    the answer's body: the model generates it)."""
    at = footer.find(end_of_turn) if end_of_turn else 0
    return footer[:at] if at > 0 else ""


def tools_text(tools: Sequence[Mapping[str, Any]], spec: Mapping[str, Any]) -> str:
    """The tool declarations as the template writes them (``spec``: the ``tools`` spec)."""
    item = spec["item"]
    if item.get("list"):  # one JSON list of them all (its items indented inside it)
        values = [
            tool.get("function", tool)
            if item["what"] == "function" and isinstance(tool, Mapping)
            else tool
            for tool in tools
        ]
        return str(spec["head"]) + _tool_json(values, item) + str(spec["tail"])
    parts = []
    for tool in tools:
        value = tool
        if item["what"] == "function":
            value = tool.get("function", tool) if isinstance(tool, Mapping) else tool
        parts.append(_tool_json(value, item))
    return str(spec["head"]) + str(spec["join"]).join(parts) + str(spec["tail"])


def _tool_json(value: Any, item: Mapping[str, Any]) -> str:
    """``value`` (tool definitions) as the template's ``tojson`` writes it (``item``: its
    indent, separators and ASCII escaping); a value JSON cannot hold (a set, a NaN key, a
    circular reference) is a :class:`~tooletta.RenderError`, as the native formats say it."""
    separators = item["separators"]
    try:
        return json.dumps(
            value,
            ensure_ascii=item["ensure_ascii"],
            indent=item["indent"],
            separators=tuple(separators) if separators else None,
        )
    except (TypeError, ValueError) as exc:
        raise RenderError(f"a tool definition is not JSON: {exc}") from None


def _with_written_ids(messages: Sequence[Message], calls_spec: Mapping[str, Any]) -> list[Message]:
    """``messages`` with each assistant turn's calls carrying the ids the template writes
    for them (it ignores those given): the ids the installed dialect writes for them, read
    back from its text."""
    from ...catalog import get_dialect

    dialect = get_dialect(str(calls_spec["dialect"]))
    across = bool(calls_spec.get("ids_across"))
    before: list[ToolCall] = []  # the calls of earlier turns, when their count goes on
    out = []
    for m in messages:
        if m.role == "assistant" and m.tool_calls:
            bare = [ToolCall(c.name, c.arguments) for c in m.tool_calls]
            written = list(dialect.parse(dialect.render([*before, *bare], content="")).calls)
            m = msgspec.structs.replace(m, tool_calls=written[len(before) :])
            if across:
                before += bare
        out.append(m)
    return out


def _as_read_beside_calls(messages: list[Message], spec: Mapping[str, Any]) -> list[Message]:
    """``messages`` with the text beside each turn's calls as the learned format's dialect
    reads it back from what it writes (DeepSeek's, and calls learned as JSON, read the text
    before the calls without its trailing whitespace): what
    :func:`~tooletta.parse_conversation` can give back."""
    if spec["calls"].get("kind") not in ("installed", "json"):
        return messages
    from .dialects import make_dialect

    rsn = spec["chat"].get("reasoning")
    markers = (rsn["open"], rsn["close"]) if rsn else None
    dialect = make_dialect(str(spec.get("name", "learned")), spec["calls"], markers)
    out = []
    for m in messages:
        if m.role == "assistant" and m.tool_calls and isinstance(m.content, str) and m.content:
            bare = [ToolCall(c.name, c.arguments) for c in m.tool_calls]
            try:
                read = dialect.parse(dialect.render(bare, content=m.content)).content
            except ToolettaError:  # refused when rendered: the closed loop says so
                read = m.content
            if isinstance(read, str) and read != m.content:
                m = msgspec.structs.replace(m, content=read)
        out.append(m)
    return out


def _plain_footer_hooks(
    cls: type[LearnedChat], chat: Mapping[str, Any], attrs: Mapping[str, Any]
) -> dict[str, Any]:
    """The declarations of a format whose turns end with plain text (RWKV World's
    ``\\n\\n``), which a message may hold: user and system turns declared without a footer
    (their text ends with it, so that they are read up to the next turn's header), and an
    answer's end found where the next turn or the generation prompt follows."""
    turns = dict(attrs["turns"])
    for role in ("user", "system"):
        if role in turns:
            turns[role] = Turn(turns[role].header, "")
    return {
        "turns": turns,
        "system_text": cls._system_and_footer,
        "parse_system": cls._system_without_footer,
        "user_text": cls._text_and_footer,
        "parse_user": cls._text_without_footer,
        "find_end": cls._end_before_turn,
    }


def _own_turn_hooks(cls: type[LearnedChat], chat: Mapping[str, Any]) -> dict[str, Any]:
    """The declarations and hooks of a format whose template writes the tool declarations in
    a turn of their own before the opening system turn: every system message a turn of its
    own, the declarations and the default system prompt written before the first message."""
    attrs: dict[str, Any] = {
        "merge_system": False,
        "system_text": cls._opening_text,
        "before_turn": cls._opening_turns,
        "skip_before_turn": cls._skip_opening,
        "parse_system": cls._own_parse_system,
    }
    if (chat.get("system_strip") or ["", ""]) != ["", ""] or (
        chat.get("user_strip") or ["", ""]
    ) != ["", ""]:
        attrs["user_text"] = cls._role_text
    return attrs


def _declarations_end(body: str, tools_spec: Mapping[str, Any], joint: str) -> int:
    """Where the system message starts in a system turn's ``body`` that opens with the tool
    declarations (``head``, then JSON items joined by ``join``, then ``tail`` and ``joint``),
    found by reading each item as JSON: a system message may hold the tail's text itself
    (``}`` then a newline), which a search for the tail would take for the declarations' end.
    ``-1`` when the body is not declarations written so."""
    head, join, tail = str(tools_spec["head"]), str(tools_spec["join"]), str(tools_spec["tail"])
    closing = tail + joint
    pos = len(head)
    while True:
        try:
            _, pos = _RAW_JSON(body, pos)
        except ValueError:
            return -1
        if join and body.startswith(join, pos):
            pos += len(join)
        elif body.startswith(closing, pos):
            return pos + len(closing)
        else:
            return -1


_RAW_JSON = json.JSONDecoder().raw_decode


class LearnedChat(ChatFormat):
    """The :class:`~tooletta.chat.ChatFormat` a learned spec declares (one instance per spec)."""

    def __init__(self, spec: Mapping[str, Any]):
        chat = spec["chat"]
        self.spec = spec
        self._fixed: dict[str, list[Any]] = {k: list(v) for k, v in chat["fixed"].items()}
        self._prompts: list[tuple[dict[str, Any], str]] = [
            (dict(opts), text) for opts, text in chat["prompts"]
        ]
        tools_spec = chat["tools"]
        self._tools_block: Callable[[Any], str] | None = None
        if tools_spec:
            self._tools_block = by_content(lambda tools: tools_text(tools, tools_spec))
        self._with_system = str(tools_spec["with_system"]) if tools_spec else ""
        self._without_system = str(tools_spec["without_system"]) if tools_spec else ""
        self._system_first = bool(tools_spec.get("system_first", True)) if tools_spec else True
        default = chat["default_system"]
        self._default: str | None = None if default is None else str(default)
        suffix = chat.get("system_suffix")
        self._suffix: str | None = None if suffix is None else str(suffix)
        """The join and the template's own text written after a system message (the
        default system prompt, written alone without one), spec ``system_suffix``."""
        self._open_last = bool(chat.get("open_last"))
        self._prompt_after_answer = bool(chat.get("prompt_after_answer", True))
        self._tail = _body_tail(chat["turns"]["assistant"][1], chat["end_of_turn"])
        strip = chat.get("content_strip") or _NO_STRIP
        self._blocked: tuple[Any, Any] = (strip["block"][0], strip["block"][1])
        self._plain: tuple[Any, Any] = (strip["plain"][0], strip["plain"][1])
        result_strip = chat["results"].get("strip") or ["", ""]
        self._result: tuple[Any, Any] = (result_strip[0], result_strip[1])
        system_strip = chat.get("system_strip") or ["", ""]
        self._system: tuple[Any, Any] = (system_strip[0], system_strip[1])
        user_strip = chat.get("user_strip") or ["", ""]
        self._user: tuple[Any, Any] = (user_strip[0], user_strip[1])
        self._empty_system: Any = chat.get("empty_system")
        self._prompt_after_results: Any = chat.get("prompt_after_results")
        self._rewrites = bool(chat.get("content_cut") or chat.get("history_strip"))
        self._no_late = not chat.get("late_system", True)
        self._refuse_late = self._no_late and not (chat["tools"] or {}).get("own_turn")
        self._after_results = str(chat.get("after_results", ""))
        self._after_results_header = "after_results" in chat
        self._refuse_empty = chat.get("empty_answer", True) is False
        """An answer with no text and no calls is refused (the template writes it otherwise
        than the learned turn)."""
        self._strips_system = self._system != ("", "")
        self._footers = {role: str(f) for role, (_, f) in chat["turns"].items()}
        self._cut: Any = chat.get("content_cut")
        self._cut_tag = str(self._cut["marker"]) if self._cut else ""
        self._history: Any = chat.get("history_strip")
        self._defaults_checked: Mapping[str, Any] | None = None
        """The format's own options when they pass :meth:`_check_fixed` (checked once here: a
        render given no options is not checked again)."""
        try:
            self._check_fixed(self.options)
            self._defaults_checked = self.options
        except RenderError:
            pass
        self._ids_across = bool(spec["calls"].get("ids_across"))
        id_rule = chat["results"].get("id") or {}
        self._result_id = (id_rule.get("source") == "message", str(id_rule.get("after", "")))
        """A result's id rule (read by :meth:`_result_with_id`): whether the id is the
        result's own ``tool_call_id``, and the text written after it."""
        kind = type(self)
        self._plain_calls = kind.calls_text is ChatFormat.calls_text or (
            getattr(kind.calls_text, PLAIN_MARK, False) is True
        )
        """:meth:`calls_text` given no calls is ``dialect.render([], content=...)``."""
        self._direct_calls = kind.calls_text is ChatFormat.calls_text and self.call_ids is None
        """:meth:`calls_text` is the default, with no declared ids: checked calls go straight
        to the dialect."""
        rule = self.reasoning
        self._no_block_unless_reasoning = rule is None or (
            rule.dropped == "" and rule.empty == "never"
        )
        """An answer without reasoning is written without a reasoning block, kept or not
        (:meth:`~tooletta.chat.ChatFormat.reasoning_text` gives ``""`` for it): its history
        rule need not be asked."""

    @classmethod
    def of(cls, spec: Mapping[str, Any]) -> LearnedChat:
        """The format a spec declares: a subclass whose class attributes are the spec's
        declarations (as a plugin's format sets them), instantiated once."""
        chat = spec["chat"]
        rsn = chat["reasoning"]
        results = chat["results"]
        tail = _body_tail(chat["turns"]["assistant"][1], chat["end_of_turn"])
        attrs: dict[str, Any] = {
            "name": str(spec["name"]),
            "source": str(spec.get("source", "")),
            "bos": chat["bos"],
            "turns": roles(
                **{
                    role: Turn(h, f[len(tail) :] if role == "assistant" else f)
                    for role, (h, f) in chat["turns"].items()
                }
            ),
            "end_of_turn": chat["end_of_turn"],
            "result_wrap": (results["wrap"][0], results["wrap"][1]),
            "group_results": bool(results["grouped"]),
            "result_separator": results["separator"],
            "keeps_ids": bool(
                spec["calls"].get("ids", False) or spec["calls"].get("written_ids", False)
            ),
            "reasoning": Reasoning(
                rsn["open"],
                rsn["close"],
                strip=rsn["strip"],
                keep=rsn["keep"],
                empty=rsn["empty"],
                dropped=rsn["dropped"],
            )
            if rsn
            else None,
            "options": defaults(**chat["options"]),
            "prompt_options": tuple(dict(opts) for opts, _ in chat["prompts"] if opts),
        }
        strip = chat.get("content_strip") or _NO_STRIP
        if (
            strip != _NO_STRIP
            or tail
            or chat.get("content_cut")
            or chat.get("history_strip")
            or spec["calls"].get("ids_across")
        ):
            attrs["assistant_text"] = cls._assistant_text
        if (chat["results"].get("strip") or ["", ""]) != ["", ""]:
            attrs["result_text"] = cls._result_text
        if (chat.get("user_strip") or ["", ""]) != ["", ""]:
            attrs["user_text"] = cls._user_text
        if chat.get("open_last"):
            attrs["end_token"] = cls._end_token
            attrs["assistant_footer"] = cls._assistant_footer
            attrs["find_end"] = cls._find_end
        if str(chat["after"]):
            attrs["after_conversation"] = cls._after_conversation
        if "after_results" in chat:
            attrs.update(_after_results_hooks(cls, str(chat["after_results"])))
        if chat.get("content_beside_calls") is False:
            attrs["calls_text"] = cls._calls_alone
        if chat.get("plain_footers"):
            attrs.update(_plain_footer_hooks(cls, chat, attrs))
        if results.get("encoding"):
            attrs["result_json"] = JsonResults(ensure_ascii=results["encoding"]["ensure_ascii"])
        if results.get("id"):
            attrs["result_text"] = cls._result_with_id
            attrs["parse_result"] = cls._result_without_id
        if (chat["tools"] or {}).get("own_turn"):
            attrs.update(_own_turn_hooks(cls, chat))
        bare = chat.get("headerless")
        if bare:  # a user turn without its header right after the system turn (Hunyuan's hub)
            attrs["headerless"] = Headerless(str(bare["role"]), frozenset(bare["after"]))
            attrs["header"] = cls._header_headerless
        if not chat["turns"]["assistant"][0]:  # no assistant header: the rest is its turn
            attrs["implicit_roles"] = implicit_after(*_PREVIOUS)
        if chat.get("names"):
            from .names import name_hooks

            attrs.update(name_hooks(chat))
        made = trusted(type(f"LearnedChat_{attrs['name']}", (cls,), attrs))
        return made(spec)  # type: ignore[no-any-return]

    # -- hooks ------------------------------------------------------------------------------

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The system message and the tool declarations, as learned (an empty system
        message as none, for a template that writes it so)."""
        if self._fixed and ctx.options is not self._defaults_checked:
            self._check_fixed(ctx.options)
        if self._refuse_late:
            messages = ctx.messages
            for index in range(1, len(messages)):  # once per conversation, no hook per turn
                if messages[index].role == "system":
                    self._late_refused()
        if self._refuse_empty:
            self._check_empty(ctx.messages)
        if system == "":
            empty = self._empty_system
            if empty is True:
                system = None
            elif empty:
                system = str(empty)
        if system is not None and self._strips_system:
            system = system.lstrip(self._system[0]).rstrip(self._system[1])
        if self._suffix is not None:  # the template's own text after the message, or alone
            system = self._default if not system else system + self._suffix
        block = self._tools_block
        if ctx.tools and block is not None:
            if system is None:
                return self._without_system + block(ctx.tools)
            if self._system_first:
                return system + self._with_system + block(ctx.tools)
            return block(ctx.tools) + self._with_system + system
        if system is not None:
            return system
        return self._default

    def parse_system(self, body: str) -> str | None:
        """The system message from the system turn's body (``None`` when it held none)."""
        system = self._parse_system(body)
        suffix = self._suffix
        if suffix is None or system is None:
            return system
        if system == self._default:
            return None
        return system[: len(system) - len(suffix)] if system.endswith(suffix) else system

    def _parse_system(self, body: str) -> str | None:
        chat = self.spec["chat"]
        tools_spec = chat["tools"]
        if tools_spec and not self._system_first:
            if body.startswith(tools_spec["head"]):
                end = _declarations_end(body, tools_spec, self._with_system)
                if end < 0:  # not declarations as written: the last possible end
                    _, sep, system = body.rpartition(tools_spec["tail"] + self._with_system)
                    found = bool(sep)
                else:
                    found, system = True, body[end:]
                # nothing after the declarations, nothing joining them to a system message:
                # no system message (llama.cpp's DeepSeek-R1 template)
                return system if found and (system or self._with_system) else None
        elif tools_spec:
            head = tools_spec["head"]
            if head and body.startswith(tools_spec["without_system"] + head):
                return None
            system, sep, _ = body.partition(tools_spec["with_system"] + head)
            if sep and head:
                return system
        if body == chat["default_system"]:
            return None
        return body

    def split_results(self, body: str, pending: int) -> list[str]:
        """Grouped results without a closing wrap: split on the separator and the opening."""
        if not self.group_results:
            return [body]
        return body.split(self.result_separator + self.result_wrap[0])

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Mapping[str, Any]]) -> Any:
        """The reasoning block (when the turn starts with one) cut off, the rest read by the
        dialect."""
        rule = self.reasoning
        reasoning = ""
        tail = self._tail
        if tail and body.endswith(tail):
            body = body[: len(body) - len(tail)]
        if rule is not None:
            if rule.dropped and body.startswith(rule.dropped):
                body = body[len(rule.dropped) :]
            elif rule.open and body.startswith(rule.open):
                end = body.find(rule.close, len(rule.open))
                if end >= 0:
                    reasoning = body[len(rule.open) : end]
                    body = body[end + len(rule.close) :]
        result: ParseResult = dialect.parse(body, tools=list(tools) or None)
        if reasoning:
            result = ParseResult(
                content=result.content,
                calls=result.calls,
                dialect=result.dialect,
                unparsed=result.unparsed,
                reasoning=reasoning + result.reasoning,
            )
        return result

    def generation_prompt(self, ctx: Conversation) -> str:
        """The generation prompt learned for the options in force (none after an answer, for
        a template that writes none there: Reka Edge)."""
        if not self._prompt_after_answer:
            messages = ctx.messages
            if messages and messages[-1].role == "assistant":
                return ""
        after = self._prompt_after_results
        if after is not None and ctx.messages and ctx.messages[-1].role == "tool":
            return str(after)
        best = ""
        best_size = -1
        for opts, text in self._prompts:
            if len(opts) > best_size and all(ctx.options.get(k) == v for k, v in opts.items()):
                best, best_size = text, len(opts)
        return best

    def _after_conversation(self, ctx: Conversation) -> str:
        """What the template writes after the last message without a generation prompt
        (installed as :meth:`after_conversation` only for templates that write some: else
        :class:`~tooletta.chat.ChatFormat`'s, which writes nothing, and the renderer asks no
        hook)."""
        return str(self.spec["chat"]["after"])

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """As the base, without a first system message equal to the default system prompt,
        answers' text stripped as the template strips it."""
        if self.spec["calls"].get("written_ids"):
            messages = _with_written_ids(messages, self.spec["calls"])
        out = super().expressible(messages)  # one per message
        strips = (("user", self._user), ("tool", self._result), ("system", self._system))
        for role, (left, right) in strips:
            if (left, right) != ("", ""):
                out = [
                    msgspec.structs.replace(m, content=m.content.lstrip(left).rstrip(right))
                    if m.role == role and isinstance(m.content, str)
                    else m
                    for m in out
                ]
        if (self._blocked, self._plain) != (("", ""), ("", "")) or self._rewrites:
            ctx = conversation(messages, (), self.options, None)
            last = len(messages) - 1
            for index, m in enumerate(out):
                if m.role == "assistant" and isinstance(m.content, str):
                    kept = self.kept_in(index, ctx)
                    block = self.reasoning_text(messages[index].reasoning, kept, index == last)
                    text = self._answer_text(index, ctx, m.content, bool(block))
                    out[index] = msgspec.structs.replace(m, content=text)
        empty = self.spec["chat"].get("empty_system")
        if empty and out and out[0].role == "system" and messages[0].content == "":
            if empty is True:
                out = out[1:]  # written as no system message
            else:
                out[0] = msgspec.structs.replace(out[0], content=str(empty))
        default = self.spec["chat"]["default_system"]
        if out and out[0].role == "system" and out[0].content == default and not self._suffix:
            out = out[1:]  # written as the turn without one (with a suffix: after the message)
        return _as_read_beside_calls(out, self.spec)

    def _result_text(self, index: int, ctx: Conversation) -> str:
        """A tool result's text stripped as the template strips it, then encoded when the
        template encodes it (installed as :meth:`result_text` only for templates that
        strip)."""
        left, right = self._result
        text = self.text(ctx.messages[index].content).lstrip(left).rstrip(right)
        encoded = self.result_json
        return text if encoded is None else encoded.write(text)

    def _end_token(self, index: int, ctx: Conversation) -> str:
        """No end token after the last answer: the template leaves it open (installed as
        :meth:`end_token` only for such templates)."""
        return "" if index == len(ctx.messages) - 1 else self.end_of_turn

    def _assistant_footer(self, index: int, ctx: Conversation) -> str:
        """No footer after the last answer (see :meth:`_end_token`)."""
        if index == len(ctx.messages) - 1:
            return ""
        return self.turns["assistant"].footer[len(self.end_of_turn) :]

    def _find_end(self, text: str, pos: int) -> tuple[int, str]:
        """The end token, or the end of the text for the last, open answer."""
        at, token = first_of(text, (self.end_of_turn, *self.end_tokens), pos)
        if at >= 0:
            return at, token
        for prompt in sorted((p for _, p in self._prompts if p), key=len, reverse=True):
            if text.endswith(prompt) and len(text) - len(prompt) >= pos:
                return len(text) - len(prompt), ""  # a generation prompt after it
        return len(text), ""

    def _user_text(self, index: int, ctx: Conversation) -> str:
        """A user's text stripped as the template strips it (installed as :meth:`user_text`
        only for templates that strip)."""
        left, right = self._user
        return self.text(ctx.messages[index].content).lstrip(left).rstrip(right)

    def _assistant_text(self, index: int, ctx: Conversation) -> str:
        """The assistant turn's body with its text stripped as the template strips it there
        and the text before the end-of-turn token after it (installed as :meth:`assistant_text`
        only for templates that strip or write such text, or number written call ids
        across the conversation)."""
        message = ctx.messages[index]
        if message.tool_calls and self._ids_across:
            message = ctx.once(
                "learned_ids_across", lambda: _with_written_ids(ctx.messages, self.spec["calls"])
            )[index]
        last = index == len(ctx.messages) - 1
        if self._no_block_unless_reasoning and not message.reasoning:
            block = ""
        else:
            block = self.reasoning_text(message.reasoning, self.kept_in(index, ctx), last)
        content = message.content
        if type(content) is not str:
            content = self.text(content)
        tail = "" if last and self._open_last else self._tail
        if self._rewrites:
            text = self._answer_text(index, ctx, content, bool(block))
        else:
            left, right = self._blocked if block else self._plain
            text = content.lstrip(left).rstrip(right)
        calls = message.tool_calls
        if type(calls) is list and not calls and self._plain_calls:  # the dialect not asked
            dialect = ctx.dialect
            known = LAST[0]
            check = known[1] if known[0] is dialect else without_calls(dialect)
            if check is None:
                return block + text + tail
            if check is not UNPROVED:
                if text:
                    check(text)
                return block + text + tail
        if (
            self._direct_calls
            and type(calls) is list
            and calls
            and type(ctx) is Checked
            and message is ctx.messages[index]
        ):  # calls check_conversation has checked (the message's own): not checked again
            written = ctx.dialect.render(calls, content=text)
            if type(written) is not str:
                written = str(written)
        else:
            written = self.calls_text(ctx.dialect, calls, text)
        if self._rewrites and message.tool_calls and content and not text:
            cut = self._cut or {}
            if cut.get("lead"):
                written = self._lead_of_text(written)  # all cut: written as a turn with text
        return block + written + tail

    def _late_system(self, index: int, ctx: Conversation) -> str:
        """Refuse a system message at ``index`` after the first message: the template does
        not write it (asked by :meth:`_opening_turns` for such templates)."""
        if index < len(ctx.messages) and index > 0 and ctx.messages[index].role == "system":
            self._late_refused()
        return ""

    def _check_empty(self, messages: Sequence[Message]) -> None:
        """Refuse an answer with no text and no calls (asked once per conversation, for a
        format whose template writes such an answer otherwise: spec ``empty_answer``)."""
        for index, m in enumerate(messages):
            if m.role == "assistant" and not m.tool_calls and not self.text(m.content):
                raise RenderError(
                    f"the learned format {self.name!r}: message {index}: an answer with no "
                    "text and no calls, which its template writes otherwise than its other "
                    "answers (learned without it)"
                )

    def _late_refused(self) -> None:
        raise RenderError(
            f"the learned format {self.name!r}: its template writes no system message "
            "after the first message (it would be dropped)"
        )

    def _header_after_results(self, index: int, ctx: Conversation) -> str:
        """The header of the message at ``index``: an answer right after tool results has
        the learned ``after_results`` header (DeepSeek: none, the model goes on in its
        turn; installed as :meth:`header` only for such templates)."""
        message = ctx.messages[index]
        if message.role == "assistant" and index > 0 and ctx.messages[index - 1].role == "tool":
            return self._after_results
        if self.headerless is not None:
            return ChatFormat.header(self, index, ctx)
        return self.turns[message.role].header

    def _implicit_after_results(self, previous: str | None) -> str | None:
        """A headerless turn right after tool results is the assistant's (installed as
        :meth:`implicit_role` only when the learned ``after_results`` header is empty)."""
        return "assistant" if previous == "tool" else ChatFormat.implicit_role(self, previous)

    def _header_headerless(self, index: int, ctx: Conversation) -> str:
        """:attr:`headerless`'s header (and the ``after_results`` one), but a turn after an
        empty first system message that the template writes as none has its own header (as
        in a conversation without one), and a turn of another role written without a
        header where :attr:`headerless` leaves out its role's is refused: it would read back
        as that role's (Hunyuan's hub text writes an answer right after the system turn as
        its first user message is written there). Installed as :meth:`header` for a
        format with :attr:`headerless`."""
        messages = ctx.messages
        message = messages[index]
        first = messages[0]
        if (
            index == 1
            and self._empty_system is True
            and first.role == "system"
            and not self.text(first.content)
        ):
            return self.turns[message.role].header
        if self._after_results_header:
            header = self._header_after_results(index, ctx)
        else:
            header = ChatFormat.header(self, index, ctx)
        bare = self.headerless
        if header or bare is None or index == 0 or message.role == bare.role:
            return header
        previous = messages[index - 1].role
        if bare.implicit(previous) is not None:
            raise RenderError(
                f"the learned format {self.name!r}: message {index} ({message.role}) right "
                f"after a {previous} message: its template writes it without a header, as "
                f"the {bare.role} turn it writes there, so it would read back as a "
                f"{bare.role}'s"
            )
        return header

    def _read_after_results(self, text: str, pos: int) -> tuple[str, int] | None:
        """The learned ``after_results`` header opens an assistant turn (installed as
        :meth:`read_header` only when that header is not empty)."""
        header = self._after_results
        if text.startswith(header, pos):
            return "assistant", pos + len(header)
        return None

    @plain_without_calls  # ChatFormat.calls_text's text for no calls
    def _calls_alone(self, dialect: Any, calls: Sequence[ToolCall], content: str) -> str:
        """Calls with no text beside them: the template writes such text as another turn
        (installed as :meth:`calls_text` only for such templates; the text is refused)."""
        if calls and content:
            raise RenderError(
                f"the learned format {self.name!r}: its template writes no text beside calls in "
                "one turn (it writes the text as an answer turn of its own after them); give "
                "the calls and the text as two assistant messages"
            )
        return ChatFormat.calls_text(self, dialect, calls, content)

    # -- answers rewritten by their position (QwQ) or cut at a reasoning tag -----------------

    def _answer_text(self, index: int, ctx: Conversation, content: str, block: bool) -> str:
        """An answer's text as the template writes it: in the answers the cut applies to,
        when it holds the tag, what follows the tag (its first or last), stripped as learned
        for that; else stripped as an earlier answer in those the history strip applies to,
        else as the answer's strip (after a reasoning block or not)."""
        cut = self._cut
        if (
            cut
            and self._cut_tag in content
            and self._rewritten(str(cut["where"]), index, ctx)
            and not self._spared(cut.get("spared") or (), index, ctx)
        ):
            tag = self._cut_tag
            if cut["which"] == "first":
                content = content.split(tag, 1)[1]
            else:
                content = content.split(tag)[-1]
            return content.lstrip(cut["strip"][0]).rstrip(cut["strip"][1])
        history = self._history
        if history and self._rewritten(str(history["where"]), index, ctx):
            left, right = history["strip"]
        else:
            left, right = self._blocked if block else self._plain
        if left != "" or right != "":  # "" strips nothing (None: whitespace)
            content = content.lstrip(left).rstrip(right)
        return content

    @staticmethod
    def _rewritten(where: str, index: int, ctx: Conversation) -> bool:
        """Whether the answer at ``index`` is one a rule for ``where`` rewrites (``all``,
        ``not_last``: not the conversation's last message, ``before_last_user``)."""
        if where == "not_last":
            return index != len(ctx.messages) - 1
        if where == "before_last_user":
            return index < ctx.last_user
        return True

    @staticmethod
    def _spared(spared: Sequence[str], index: int, ctx: Conversation) -> bool:
        """Whether the answer at ``index`` is of a kind the cut leaves as given (the learned
        cut's ``spared``: ``calls``, a turn with calls; ``after_results``, an answer right
        after tool results. DeepSeek V3.1's edit cuts neither; older specs name none)."""
        message = ctx.messages[index]
        if "calls" in spared and message.tool_calls:
            return True
        previous = ctx.messages[index - 1].role if index > 0 else None
        return "after_results" in spared and previous == "tool" and not message.tool_calls

    def _lead_of_text(self, calls: str) -> str:
        """The calls' text with the lead a turn with text writes before them, for a turn
        whose text the template cut to nothing (it tests the text before cutting it)."""
        spec = self.spec["calls"]
        alone, lead = str(spec.get("lead_alone", "")), str(spec.get("lead_content", ""))
        return lead + calls[len(alone) :] if calls.startswith(alone) else calls

    # -- plain-text footers (RWKV World's ``\n\n``) ---------------------------------------------

    def _footer(self, role: str) -> str:
        return self._footers[role]

    def _system_and_footer(self, system: str | None, ctx: Conversation) -> str | None:
        """The system turn's body and its footer (installed as :meth:`system_text` for
        formats whose footers are plain text)."""
        body = LearnedChat.system_text(self, system, ctx)
        return None if body is None else body + self._footer("system")

    def _system_without_footer(self, body: str) -> str | None:
        """The inverse (installed as :meth:`parse_system`)."""
        footer = self._footer("system")
        if body.endswith(footer):
            body = body[: len(body) - len(footer)]
        return LearnedChat.parse_system(self, body)

    def _text_and_footer(self, index: int, ctx: Conversation) -> str:
        """A user's or later system message's text, stripped as its role's, and its turn's
        footer (installed as :meth:`user_text` for formats whose footers are plain text)."""
        message = ctx.messages[index]
        role = "system" if message.role == "system" else "user"
        left, right = self._system if role == "system" else self._user
        content = message.content
        text = content if type(content) is str else self.text(content)
        return text.lstrip(left).rstrip(right) + self._footers[role]

    def _text_without_footer(self, body: str) -> str:
        """The inverse (installed as :meth:`parse_user`): the user footer ends the body."""
        footer = self._footer("user")
        return body[: len(body) - len(footer)] if footer and body.endswith(footer) else body

    def _end_before_turn(self, text: str, pos: int) -> tuple[int, str]:
        """The first end-of-turn text after ``pos`` that the next turn's header, a generation
        prompt or the end of the text follows (installed as :meth:`find_end`)."""
        end = self.end_of_turn
        rest = self.turns["assistant"].footer[len(end) :]
        heads = tuple(t.header for t in self.turns.values() if t.header)
        prompts = {p for _, p in self._prompts}
        at = text.find(end, pos)
        while at >= 0:
            after = at + len(end) + len(rest)
            if text.startswith(rest, at + len(end)) and (
                after == len(text) or text.startswith(heads, after) or text[after:] in prompts
            ):
                return at, end
            at = text.find(end, at + 1)
        return -1, ""

    # -- a result's turn writing its id (Kimi's ``## Return of ID``) ---------------------------

    def _result_with_id(self, index: int, ctx: Conversation) -> str:
        """The result's id (its own ``tool_call_id``, or the id written for the call it
        answers, as learned), the text after it, then its text stripped as the template
        strips it (installed as :meth:`result_text` only for such templates)."""
        from_message, after = self._result_id
        if from_message:
            call_id = ctx.messages[index].tool_call_id or ""
        else:
            call_id = ctx.once("learned_result_ids", lambda: self._answered(ctx)).get(index, "")
        if after in call_id:
            raise RenderError(
                f"the learned format {self.name!r}: message {index}: the result's id "
                f"{call_id!r} holds {after!r}, which ends the id in its turn"
            )
        content = ctx.messages[index].content
        text = content if type(content) is str else self.text(content)
        left, right = self._result
        if left != "" or right != "":  # "" strips nothing (None: whitespace)
            text = text.lstrip(left).rstrip(right)
        encoded = self.result_json
        return call_id + after + (text if encoded is None else encoded.write(text))

    def _answered(self, ctx: Conversation) -> dict[int, str]:
        """Per tool result, the id written for the call it answers (by order)."""
        messages = ctx.messages
        if self.spec["calls"].get("written_ids"):
            messages = _with_written_ids(messages, self.spec["calls"])
        out: dict[int, str] = {}
        pending: list[ToolCall] = []
        for index, m in enumerate(messages):
            if m.role == "assistant":
                pending = list(m.tool_calls)
            elif m.role == "tool" and pending:
                out[index] = pending.pop(0).id or ""
        return out

    def _result_without_id(self, body: str) -> str:
        """A result's text without the id before it (installed as :meth:`parse_result`)."""
        after = str(self.spec["chat"]["results"]["id"]["after"])
        _, sep, text = body.partition(after)
        text = text if sep else body
        encoded = self.result_json
        return text if encoded is None else encoded.read(text)

    # -- the tool declarations in a turn of their own (Kimi's tool_declare) -------------------

    def _opening_text(self, system: str | None, ctx: Conversation) -> str | None:
        """No opening system turn: :meth:`_opening_turns` writes the declarations' turn and
        the default system turn, every system message is a turn of its own (installed as
        :meth:`system_text` only for such templates)."""
        if self._fixed and ctx.options is not self._defaults_checked:
            self._check_fixed(ctx.options)
        if self._refuse_empty:
            self._check_empty(ctx.messages)
        return None

    def _opening_turns(self, index: int, ctx: Conversation) -> str:
        """Before the first message: the declarations' turn, then the default system turn
        when the conversation does not open with a system message (installed as
        :meth:`before_turn` only for such templates)."""
        if index != 0:
            if self._no_late:
                self._late_system(index, ctx)
            return ""
        out = ""
        if ctx.tools and self._tools_block is not None:
            out += self._tools_block(ctx.tools)
        messages = ctx.messages
        if self._default is not None and messages and messages[0].role != "system":
            out += self._default_turn()
        return out

    def _default_turn(self) -> str:
        turn = self.turns["system"]
        return turn.header + str(self._default) + turn.footer

    def _skip_opening(self, text: str, pos: int) -> int:
        """Past the declarations' turn and the default system turn at the start (the inverse
        of :meth:`_opening_turns`; installed as :meth:`skip_before_turn`)."""
        if pos != len(self.bos):
            return pos
        tools_spec = self.spec["chat"]["tools"]
        head, tail = str(tools_spec["head"]), str(tools_spec["tail"])
        if text.startswith(head, pos):
            end = text.find(tail, pos + len(head))
            if end >= 0:
                pos = end + len(tail)
        if self._default is not None and text.startswith(self._default_turn(), pos):
            pos += len(self._default_turn())
        return pos

    def _own_parse_system(self, body: str) -> str | None:
        """A system turn's body is the system message, unless it is the default one
        (installed as :meth:`parse_system` for such templates)."""
        return None if body == self._default else body

    def _role_text(self, index: int, ctx: Conversation) -> str:
        """A user's or system message's text, stripped as the template strips that role's
        (installed as :meth:`user_text` for such templates: their system messages are turns
        of their own)."""
        message = ctx.messages[index]
        left, right = self._system if message.role == "system" else self._user
        return self.text(message.content).lstrip(left).rstrip(right)

    def _check_fixed(self, options: Mapping[str, Any]) -> None:
        for key, allowed in self._fixed.items():
            if key in options and options[key] not in allowed:
                raise RenderError(
                    f"the learned format {self.name!r} was learned with {key} in {allowed!r}; "
                    f"the template writes more than its generation prompt differently with "
                    f"{key}={options[key]!r}: learn it again with that option"
                )


_PREVIOUS: tuple[str | None, ...] = (None, "system", "user", "assistant", "tool")
"""Every role a turn may follow (``None``: at the start): where the learned assistant header
is empty, a turn after any of them that no header opens is the assistant's."""


def _after_results_hooks(cls: type[LearnedChat], header: str) -> dict[str, Any]:
    """The hooks of a format whose answer after tool results has the header ``header``
    (another than the assistant's, or none)."""
    hooks: dict[str, Any] = {"header": cls._header_after_results}
    if header:
        hooks["read_header"] = cls._read_after_results
    else:
        hooks["implicit_role"] = cls._implicit_after_results
    return hooks
