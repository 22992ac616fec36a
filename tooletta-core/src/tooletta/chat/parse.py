"""Read a rendered conversation back into messages, from the same
:class:`~tooletta.chat.ChatFormat`.

The parser is the renderer's inverse, driven by the same declaration: it finds each turn by
its role header, reads its body up to the footer (or, for formats without footers, up to the
next header), hands assistant bodies to the dialect's parser and tool-result turns to the
format's wrapping rules. Tool results take the name and id of the call they answer (by
order), since most templates write neither.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ParseError, ToolettaError
from ..ir import Message, ToolCall
from .conversation import Conversation, conversation, first_of
from .format import ChatFormat, opening_footer

__all__ = ["parse_format"]


def parse_format(
    fmt: ChatFormat, dialect: Any, text: str, tools: Sequence[Mapping[str, Any]]
) -> list[Message]:
    """Read ``text`` (as :func:`~tooletta.chat.render_format` writes it) into messages."""
    reader = _ConversationReader(fmt, dialect, text, tools)
    return reader.read()


_END_SLACK = 4096
"""How much longer than the format's generation prompts and endings (as written for no
messages, :meth:`ChatFormat.generation_prompts`) an ending that depends on the messages read
(DeepSeek's, Nemotron's thinking switch) may be: further from the end of the text, the hooks
that write them are not asked."""


class _ConversationReader:
    def __init__(
        self, fmt: ChatFormat, dialect: Any, text: str, tools: Sequence[Mapping[str, Any]]
    ) -> None:
        self.fmt = fmt
        self.dialect = dialect
        self.text = text
        self.tools = tools
        self.pos = 0
        self.messages: list[Message] = []
        self.pending: list[ToolCall] = []
        self.options = dict(fmt.options)
        ctx = Conversation([], tools, self.options, dialect)
        self.first_ends = fmt.generation_prompts(ctx)
        """What ends a text holding no message (every option set's form)."""
        self.signatures = sorted(
            ((self._signature(role), role) for role in fmt.turns), key=lambda s: -len(s[0])
        )
        self._headers = tuple(s for s, _ in self.signatures if s)
        self._longest_end = max(map(len, self.first_ends), default=0) + _END_SLACK
        self._twins = self._shared_headers()
        """Per role, the roles whose turns open with the same header and end with another
        footer (Hunyuan's hub text opens system and user turns with ``<|startoftext|>``):
        which one starts here is told by the footer that comes first."""
        self._footer_at: dict[str, int] = {}
        """Where each footer was last found (searched again only once passed: linear)."""

    def _shared_headers(self) -> dict[str, tuple[str, ...]]:
        fmt = self.fmt
        ends = {
            role: turn.footer
            for role, turn in fmt.turns.items()
            if turn.footer and role not in fmt.open_footers
        }
        twins: dict[str, tuple[str, ...]] = {}
        for role in ends:
            signature = self._signature(role)
            same = tuple(
                other
                for other in ends
                if other != role
                and signature
                and self._signature(other) == signature
                and ends[other] != ends[role]
            )
            if same:
                twins[role] = same
        return twins

    def _footer_from(self, footer: str, pos: int) -> int:
        """Where ``footer`` next occurs at or after ``pos`` (the text's length: nowhere)."""
        at = self._footer_at.get(footer, -1)
        if at < pos:
            found = self.text.find(footer, pos)
            at = found if found >= 0 else len(self.text)
            self._footer_at[footer] = at
        return at

    def _by_footer(self, role: str, pos: int) -> str:
        """Of ``role`` and the roles sharing its header, the one whose footer comes first
        after ``pos`` (where the body starts): ``role`` when it shares none."""
        twins = self._twins.get(role)
        if not twins:
            return role
        turns = self.fmt.turns
        return min((role, *twins), key=lambda r: self._footer_from(turns[r].footer, pos))

    def _signature(self, role: str) -> str:
        header = self.fmt.turns[role].header
        return header + self.fmt.result_wrap[0] if role == "tool" else header

    def error(self, message: str) -> ParseError:
        return ParseError(f"{self.fmt.name} conversation: {message}", position=self.pos)

    def read(self) -> list[Message]:
        fmt, text = self.fmt, self.text
        if fmt.bos and text.startswith(fmt.bos):
            self.pos = len(fmt.bos)
        self._read_system()
        while True:
            self.pos = fmt.skip_before_turn(text, self.pos)
            if self.pos >= len(text):
                break
            if self._ends_here():
                break
            start = self.pos
            role = self._turn_here()
            if role == "assistant":
                self._read_assistant()
            elif role == "tool":
                self._read_results()
            else:
                body = self._turn_body(fmt.turns[role].footer, role)
                self.messages.append(Message(role=role, content=fmt.parse_user(body)))
            if self.pos == start:  # an implicit (headerless) turn that read nothing
                raise self.error("no turn header here")
        return self.messages

    def _turn_here(self) -> str:
        """The role of the turn starting here, its header consumed."""
        fmt = self.fmt
        found = fmt.read_header(self.text, self.pos)
        if found is not None:
            self.pos = found[1]
            return found[0]
        role = self._role_here()
        if role is not None:
            self.pos += len(fmt.turns[role].header)
            return role
        role = fmt.implicit_role(self.messages[-1].role if self.messages else None)
        if role is None:
            raise self.error("no turn header here")
        return role

    def _ends_here(self) -> bool:
        """The rest of the text is what the template writes after the last message: one of
        the generation prompts or endings of :meth:`ChatFormat.generation_prompts` (also those
        that depend on the messages read so far, as DeepSeek's do, or on an option the text
        was rendered with). No copy of the rest per turn: linear in the text."""
        left = len(self.text) - self.pos
        if left > self._longest_end:  # no ending is that long: no hook asked (linear)
            return False
        if any(len(end) == left and self.text.startswith(end, self.pos) for end in self.first_ends):
            return True
        ctx = conversation(self.messages, self.tools, self.options, self.dialect)
        return self.fmt.prompt_start(self.text, self.pos, ctx) == self.pos

    def _prompt_start(self, role: str, end: int) -> int:
        """Where the turn of ``role`` whose body starts here and runs to ``end`` (the next
        header or the end of the text: it has no footer) ends: before a generation prompt or
        ending (:meth:`ChatFormat.prompt_start`, asked with the messages read and this turn)
        that ends the text and starts before ``end``, else at ``end``. A prompt made of a turn
        header and what follows it ends the turn at the header anyway; this finds the others
        (DeepSeek V3.1's ``<｜Assistant｜><think>`` after a user turn, whose header reads
        ``</think>``; LongCat's `` /think_on`` before its header)."""
        text = self.text
        if len(text) - end > self._longest_end:
            return end
        messages = [*self.messages, Message(role=role, content="")]
        ctx = conversation(messages, self.tools, self.options, self.dialect)
        return min(end, self.fmt.prompt_start(text, self.pos, ctx))

    def _role_here(self) -> str | None:
        for signature, role in self.signatures:
            if signature and self.text.startswith(signature, self.pos):
                return self._by_footer(role, self.pos + len(signature))
        return None

    def _next_header(self) -> int:
        """Where the next turn header starts (one scan up to it: linear over the turns)."""
        at, _ = first_of(self.text, self._headers, self.pos)
        return at if at >= 0 else len(self.text)

    def _body(self, footer: str, role: str = "") -> str:
        """The text up to ``footer`` (consumed), or up to the next header without one (or up
        to a generation prompt ending the text, for a turn of ``role``)."""
        if not footer:
            end = self._next_header()
            if role:
                end = self._prompt_start(role, end)
            body = self.text[self.pos : end]
            self.pos = end
            return body
        end = self.text.find(footer, self.pos)
        if end < 0:
            raise self.error(f"turn never ends (no {footer!r})")
        body = self.text[self.pos : end]
        self.pos = end + len(footer)
        return body

    def _turn_body(self, footer: str, role: str) -> str:
        """:meth:`_body` of a turn of ``role`` after the first (not the assistant's; up to a
        generation prompt only for a user or system turn): for a role of
        :attr:`ChatFormat.open_footers <tooletta.chat.ChatFormat.open_footers>`, up to the next
        header and without the footer that ends it."""
        if role in self.fmt.open_footers:
            body = self._body("", "" if role == "tool" else role)
            return body[: len(body) - len(footer)] if footer and body.endswith(footer) else body
        return self._body(footer, "" if role == "tool" else role)

    def _read_system(self) -> None:
        turn = self.fmt.turns.get("system")
        if turn is None:
            return
        footer = opening_footer(self.fmt, turn)  # (the system block's own, when declared)
        if not turn.header:  # written right after the start (DeepSeek): up to the first header
            if footer or self._next_header() == self.pos:
                return
        elif self.text.startswith(turn.header, self.pos):
            if self._by_footer("system", self.pos + len(turn.header)) != "system":
                return  # another role's turn opening with the same header
            self.pos += len(turn.header)
            if footer != turn.footer and turn.footer and self._later_system(turn.footer, footer):
                self.pos -= len(turn.header)  # no opening turn: the turns read this one
                return
        else:
            return
        if footer and "system" in self.fmt.open_footers:  # up to the next header, footer off
            body = self._body("")
            body = body[: len(body) - len(footer)] if body.endswith(footer) else body
        else:  # a headed turn without a footer ends before a generation prompt ending the text
            body = self._body(footer, "system" if turn.header else "")
        content = self.fmt.parse_system(body)
        if content is not None:
            self.messages.append(Message(role="system", content=content))

    def _later_system(self, footer: str, own: str) -> bool:
        """Whether the system turn whose body starts here is a later system message's, written
        where no opening turn was (an empty first system message, no tools): the format
        writes no opening turn without a system message (under the tools and options read
        with), and the system turn's ``footer`` closes this one before the opening turn's own
        footer ``own`` (before the next header when ``own`` is empty) would. An opening turn
        holding a system message never holds that footer (markup, refused in message
        text)."""
        ctx = conversation([], self.tools, self.options, self.dialect)
        try:
            if self.fmt.system_text(None, ctx) is not None:
                return False  # an opening turn is always written: this is it
        except ToolettaError:
            return False
        closed = self.text.find(footer, self.pos)
        if closed < 0:
            return False
        end = self.text.find(own, self.pos) if own else self._next_header()
        return end < 0 or closed < end

    def _read_assistant(self) -> None:
        fmt = self.fmt
        footer = fmt.turns["assistant"].footer
        start = self.pos
        end = fmt.assistant_end(self.text, self.pos)
        if end is not None:
            body = self.text[start:end]
            self.pos = end
        elif fmt.end_of_turn:
            at, token = fmt.find_end(self.text, self.pos)
            if at < 0 and fmt.open_last:
                at, token = len(self.text), ""  # the last turn, left open: to the end
            if at < 0:
                raise self.error(f"turn never ends (no {fmt.end_of_turn!r})")
            body = self.text[self.pos : at]
            self.pos = at + len(token)
            rest = footer[len(fmt.end_of_turn) :]
            if self.text.startswith(rest, self.pos):
                self.pos += len(rest)
        else:
            body = self._body("", "assistant")
        result = fmt.parse_turn(body, self.dialect, self.tools)
        if result.unparsed:
            bad = result.unparsed[0]
            raise ParseError(bad.error, dialect=result.dialect, position=start + bad.offset)
        self.pending = list(result.calls)
        self.messages.append(
            Message(
                role="assistant",
                content=result.content,
                tool_calls=list(result.calls),
                reasoning=result.reasoning,
            )
        )

    def _read_results(self) -> None:
        fmt = self.fmt
        read = fmt.read_results(self.text, self.pos, len(self.pending))
        if read is not None:
            for content in read[0]:
                self._result(content)
            self.pos = read[1]
            return
        before, after = fmt.result_wrap
        footer = fmt.turns["tool"].footer
        while True:
            if before:
                if not self.text.startswith(before, self.pos):
                    raise self.error(f"expected {before!r}")
                self.pos += len(before)
            if not after:  # unwrapped results end at the footer: the format splits them
                body = self._turn_body(footer, "tool")
                for part in fmt.split_results(body, len(self.pending)):
                    self._result(fmt.parse_result(part))
                break
            self._result(fmt.parse_result(self._body(after)))
            if not fmt.group_results:
                break
            sep = fmt.result_separator
            if not before or not self.text.startswith(sep + before, self.pos):
                break
            self.pos += len(sep)
        if after and footer:
            end = fmt.skip_result_footer(self.text, self.pos)
            if end < 0:
                raise self.error(f"expected {footer!r}")
            self.pos = end

    def _result(self, content: str) -> None:
        call = self.pending.pop(0) if self.pending else None
        self.messages.append(
            Message(
                role="tool",
                content=content,
                name=call.name if call else None,
                tool_call_id=call.id if call else None,
            )
        )
