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

from ...errors import RenderError
from ...ir import Message, ParseResult, ToolCall
from ..conversation import Conversation, conversation, first_of
from ..format import ChatFormat, Reasoning, Turn, defaults, roles
from ..messages import by_content

__all__ = ["SPEC_VERSION", "LearnedChat", "tools_text"]

_NO_STRIP = {"block": ["", ""], "plain": ["", ""]}

SPEC_VERSION = 1
"""The version of the spec layout (saved in every spec; :func:`~tooletta.chat.learn.load_learned`
checks it)."""


def _body_tail(footer: str, end_of_turn: str) -> str:
    """The text an answer's footer holds before its end-of-turn token (written as the end of
    the answer's body: the model generates it)."""
    at = footer.find(end_of_turn) if end_of_turn else 0
    return footer[:at] if at > 0 else ""


def tools_text(tools: Sequence[Mapping[str, Any]], spec: Mapping[str, Any]) -> str:
    """The tool declarations as the template writes them (``spec``: the ``tools`` spec)."""
    item = spec["item"]
    separators = item["separators"]
    parts = []
    for tool in tools:
        value = tool
        if item["what"] == "function":
            value = tool.get("function", tool) if isinstance(tool, Mapping) else tool
        parts.append(
            json.dumps(
                value,
                ensure_ascii=item["ensure_ascii"],
                indent=item["indent"],
                separators=tuple(separators) if separators else None,
            )
        )
    return str(spec["head"]) + str(spec["join"]).join(parts) + str(spec["tail"])


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
            "keeps_ids": bool(spec["calls"].get("ids", False)),
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
        if strip != _NO_STRIP or tail:
            attrs["assistant_text"] = cls._assistant_text
        if (chat["results"].get("strip") or ["", ""]) != ["", ""]:
            attrs["result_text"] = cls._result_text
        if (chat.get("user_strip") or ["", ""]) != ["", ""]:
            attrs["user_text"] = cls._user_text
        if chat.get("open_last"):
            attrs["end_token"] = cls._end_token
            attrs["assistant_footer"] = cls._assistant_footer
            attrs["find_end"] = cls._find_end
        if not chat.get("late_system", True):
            attrs["before_turn"] = cls._late_system
        if "after_results" in chat:
            attrs.update(_after_results_hooks(cls, str(chat["after_results"])))
        if chat.get("content_beside_calls") is False:
            attrs["calls_text"] = cls._calls_alone
        made = type(f"LearnedChat_{attrs['name']}", (cls,), attrs)
        return made(spec)  # type: ignore[no-any-return]

    # -- hooks ------------------------------------------------------------------------------

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The system message and the tool declarations, as learned."""
        if self._fixed:
            self._check_fixed(ctx.options)
        if system is not None and self._system != ("", ""):
            system = system.lstrip(self._system[0]).rstrip(self._system[1])
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
        chat = self.spec["chat"]
        tools_spec = chat["tools"]
        if tools_spec and not self._system_first:
            if body.startswith(tools_spec["head"]):
                _, sep, system = body.rpartition(tools_spec["tail"] + self._with_system)
                return system if sep else None
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
        after = self.spec["chat"].get("prompt_after_results")
        if after is not None and ctx.messages and ctx.messages[-1].role == "tool":
            return str(after)
        best = ""
        best_size = -1
        for opts, text in self._prompts:
            if len(opts) > best_size and all(ctx.options.get(k) == v for k, v in opts.items()):
                best, best_size = text, len(opts)
        return best

    def after_conversation(self, ctx: Conversation) -> str:
        """What the template writes after the last message without a generation prompt."""
        return str(self.spec["chat"]["after"])

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """As the base, without a first system message equal to the default system prompt,
        answers' text stripped as the template strips it."""
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
        if (self._blocked, self._plain) != (("", ""), ("", "")):
            ctx = conversation(messages, (), self.options, None)
            last = len(messages) - 1
            for index, m in enumerate(out):
                if m.role == "assistant" and isinstance(m.content, str):
                    kept = self.kept_in(index, ctx)
                    block = self.reasoning_text(messages[index].reasoning, kept, index == last)
                    left, right = self._blocked if block else self._plain
                    text = m.content.lstrip(left).rstrip(right)
                    out[index] = msgspec.structs.replace(m, content=text)
        default = self.spec["chat"]["default_system"]
        if out and out[0].role == "system" and out[0].content == default:
            out = out[1:]
        return out

    def _result_text(self, index: int, ctx: Conversation) -> str:
        """A tool result's text stripped as the template strips it (installed as
        :meth:`result_text` only for templates that strip)."""
        left, right = self._result
        return self.text(ctx.messages[index].content).lstrip(left).rstrip(right)

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
        only for templates that strip or write such text)."""
        message = ctx.messages[index]
        last = index == len(ctx.messages) - 1
        block = self.reasoning_text(message.reasoning, self.kept_in(index, ctx), last)
        left, right = self._blocked if block else self._plain
        content = message.content
        if type(content) is not str:
            content = self.text(content)
        content = content.lstrip(left).rstrip(right)
        tail = "" if last and self._open_last else self._tail
        return block + self.calls_text(ctx.dialect, message.tool_calls, content) + tail

    def _late_system(self, index: int, ctx: Conversation) -> str:
        """Refuse a system message after the first message: the template does not write it
        (installed as :meth:`before_turn` only for such templates)."""
        if index < len(ctx.messages) and index > 0 and ctx.messages[index].role == "system":
            raise RenderError(
                f"the learned format {self.name!r}: its template writes no system message "
                "after the first message (it would be dropped)"
            )
        return ""

    def _header_after_results(self, index: int, ctx: Conversation) -> str:
        """The header of the message at ``index``: an answer right after tool results has
        the learned ``after_results`` header (DeepSeek: none, the model goes on in its
        turn; installed as :meth:`header` only for such templates)."""
        message = ctx.messages[index]
        if message.role == "assistant" and index > 0 and ctx.messages[index - 1].role == "tool":
            return str(self.spec["chat"]["after_results"])
        return self.turns[message.role].header

    def _implicit_after_results(self, previous: str | None) -> str | None:
        """A headerless turn right after tool results is the assistant's (installed as
        :meth:`implicit_role` only when the learned ``after_results`` header is empty)."""
        return "assistant" if previous == "tool" else None

    def _read_after_results(self, text: str, pos: int) -> tuple[str, int] | None:
        """The learned ``after_results`` header opens an assistant turn (installed as
        :meth:`read_header` only when that header is not empty)."""
        header = str(self.spec["chat"]["after_results"])
        if text.startswith(header, pos):
            return "assistant", pos + len(header)
        return None

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

    def _check_fixed(self, options: Mapping[str, Any]) -> None:
        for key, allowed in self._fixed.items():
            if key in options and options[key] not in allowed:
                raise RenderError(
                    f"the learned format {self.name!r} was learned with {key} in {allowed!r}; "
                    f"the template writes more than its generation prompt differently with "
                    f"{key}={options[key]!r}: learn it again with that option"
                )


def _after_results_hooks(cls: type[LearnedChat], header: str) -> dict[str, Any]:
    """The hooks of a format whose answer after tool results has the header ``header``
    (another than the assistant's, or none)."""
    hooks: dict[str, Any] = {"header": cls._header_after_results}
    if header:
        hooks["read_header"] = cls._read_after_results
    else:
        hooks["implicit_role"] = cls._implicit_after_results
    return hooks
