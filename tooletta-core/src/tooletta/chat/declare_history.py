"""Declarations of what a template does with the history around the turn being written.

Three pieces several templates write alike, each a declaration that both write and read (as
those of :mod:`tooletta.chat.declare` are):

* :class:`ContentCut`: the part of an assistant turn's content the template drops, up to a
  marker such as ``</think>`` (DeepSeek's and QwQ's history); the default
  :meth:`~tooletta.chat.ChatFormat.assistant_text` writes the cut text and
  :meth:`~tooletta.chat.ChatFormat.carried` gives it back so;
* :class:`RolePrompt`: a generation prompt whose opening depends on the role of the last
  message (DeepSeek: the assistant's header after a user turn, none after tool results,
  where the model goes on with its turn);
* :func:`gathered_system`: the text of every system message of a conversation, for a format
  whose template writes them all in the opening system turn
  (:attr:`~tooletta.chat.ChatFormat.gather_system`: DeepSeek, Hy3);
* :class:`HistoryCut`: what a template keeps of an earlier assistant turn's content, the
  text after a marker, trimmed (Apriel 1.6 keeps what follows ``[BEGIN FINAL RESPONSE]``).

A format sets them as class attributes (``content_cut``, ``prompt``, ``gather_system``,
``history_cut``);
:class:`~tooletta.chat.ChatFormat`'s default hooks read them.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from ..ir import Message
from .conversation import Conversation
from .declare import Prompt, SystemBlock
from .messages import text_of

__all__ = ["ContentCut", "HistoryCut", "RolePrompt", "gathered_system", "last_role"]

Where = Callable[[int, Sequence[Message]], bool]
"""Whether the template cuts the content of the assistant turn at ``index`` of ``messages``."""


@dataclass(frozen=True)
class ContentCut:
    """The part of an assistant turn's content a template drops: everything up to (and
    including) ``marker`` when the content holds it, the first occurrence or the ``last``;
    ``lstrip``: characters then stripped from the start of what is kept.

    ``where(index, messages)`` says which assistant turns the template cuts (DeepSeek V3.1:
    the answers right after a user turn; R1: every turn not continuing after tool results);
    ``None``: every turn but the conversation's last message (QwQ). A content without the
    marker is written as given.

    A format sets it as :attr:`~tooletta.chat.ChatFormat.content_cut`: the default
    :meth:`~tooletta.chat.ChatFormat.assistant_text` writes the cut content (the dialect
    writes the turn from the cut message), and :meth:`~tooletta.chat.ChatFormat.carried`
    (so :meth:`~tooletta.chat.ChatFormat.expressible`) gives it back cut, which is what the
    parser reads.

    Unlike :class:`HistoryCut`, it picks the turns (``where``) and leaves the end untrimmed.
    """

    marker: str
    last: bool = False
    lstrip: str = ""
    where: Where | None = None

    def applies(self, index: int, messages: Sequence[Message]) -> bool:
        """Whether the template cuts the assistant turn at ``index`` of ``messages``."""
        where = self.where
        if where is None:
            return index != len(messages) - 1
        return where(index, messages)

    def cut(self, message: Message) -> Message:
        """``message`` with its content cut (as given when it does not hold the marker)."""
        content = message.content
        if type(content) is not str:
            content = text_of(content)
        if self.marker not in content:
            return message
        if self.last:
            content = content.rsplit(self.marker, 1)[1]
        else:
            content = content.split(self.marker, 1)[1]
        if self.lstrip:
            content = content.lstrip(self.lstrip)
        return msgspec.structs.replace(message, content=content)

    def over(self, messages: Sequence[Message]) -> list[Message]:
        """``messages`` with each assistant turn the template cuts cut."""
        return [
            self.cut(m) if m.role == "assistant" and self.applies(i, messages) else m
            for i, m in enumerate(messages)
        ]


def last_role(messages: Sequence[Message], passed: Collection[str] = ()) -> str | None:
    """The role of the last message of ``messages`` whose role is not in ``passed`` (``None``:
    there is none)."""
    for index in range(len(messages) - 1, -1, -1):
        role = messages[index].role
        if role not in passed:
            return role
    return None


@dataclass(frozen=True)
class RolePrompt(Prompt):
    """A :class:`~tooletta.chat.Prompt` whose opening depends on the role of the last message:
    ``heads`` pairs a role (``None``: no message) with the text the prompt starts with after a
    last message of that role (a ``None`` text: no prompt there, only ``before``);
    ``otherwise`` is the opening after any other role (``None``: no prompt). ``on`` / ``off``
    follow the opening as for a :class:`~tooletta.chat.Prompt` (its ``head``,
    ``after_assistant`` and ``after_system`` are not read: ``heads`` says it all).
    ``passed``: roles passed over when looking for the last message (DeepSeek's system
    messages, written at the start whatever their place).

    DeepSeek V3.1 writes ``<｜Assistant｜>`` and ``<think>`` or ``</think>`` only after a user
    turn (``heads=(("user", "<｜Assistant｜>"),)``); R1 writes its prompt after anything but
    tool results (``heads=(("tool", None),), otherwise="<｜Assistant｜>"``); V3.2's encoder
    opens the assistant's continuation after tool results with ``\\n\\n`` and writes the
    opening whether a prompt is asked or not (``always=True``).

    ``alias``: a second name of the switch, read when the switch is not given (or ``None``):
    DeepSeek's templates read ``thinking``, else ``enable_thinking``.

    ``closings`` pairs a role with the text the template writes after a last message of
    that role whether a prompt is asked or not, after ``before`` and before the opening
    (Apertus's Hub template closes the model's turn with ``<|assistant_end|>`` after tool
    results that end the conversation: ``closings=(("tool", "<|assistant_end|>"),)``).

    A format sets it as :attr:`~tooletta.chat.ChatFormat.prompt`: the default
    :meth:`~tooletta.chat.ChatFormat.generation_prompt` and
    :meth:`~tooletta.chat.ChatFormat.after_conversation` write it (:meth:`write`).
    """

    heads: tuple[tuple[str | None, str | None], ...] = ()
    otherwise: str | None = None
    passed: frozenset[str] = frozenset()
    alias: str = ""
    closings: tuple[tuple[str | None, str], ...] = ()

    def opening(self, messages: Sequence[Message]) -> str | None:
        """The prompt's opening after ``messages`` (``None``: no prompt after them)."""
        role = last_role(messages, self.passed)
        for after, head in self.heads:
            if after == role:
                return head
        return self.otherwise

    def thinking(self, options: Mapping[str, Any]) -> bool:
        """Whether the switch (or, when it is not given or ``None``, its ``alias``) is on
        under ``options``."""
        alias = self.alias
        if alias and options.get(self.switch) is None:
            return super().thinking({self.switch: options[alias]} if alias in options else {})
        return super().thinking(options)

    def ends(self) -> bool:
        """Whether the template writes anything after the last message when no prompt is
        asked: as :meth:`Prompt.ends <tooletta.chat.Prompt.ends>` says, or after a role with a
        closing."""
        return super().ends() or any(text for _, text in self.closings)

    def closing(self, messages: Sequence[Message]) -> str:
        """``before``, then the closing of the last message's role (``closings``)."""
        if not self.closings:
            return self.before
        role = last_role(messages, self.passed)
        return self.before + next((t for r, t in self.closings if r == role), "")

    def write(self, ctx: Conversation, asked: bool) -> str:
        """What the template writes after ``ctx.messages``: ``before`` and the last role's
        closing (:meth:`closing`), then, when a prompt is ``asked`` (or the prompt is written
        ``always``) and the last role has an opening, that opening and ``on`` or ``off``."""
        closing = self.closing(ctx.messages)
        head = self.opening(ctx.messages)
        if head is None or not (asked or self.always):
            return closing
        return closing + head + (self.on if self.thinking(ctx.options) else self.off)


def gathered_system(
    messages: Sequence[Message],
    roles: Collection[str],
    text: Callable[[Any], str],
    joiner: str,
) -> str | None:
    """The texts (each as ``text`` writes a content) of every message of ``messages`` whose
    role is in ``roles``, joined by ``joiner``; ``None`` when there is none. The opening
    system turn of a format with :attr:`~tooletta.chat.ChatFormat.gather_system` writes it."""
    texts = [text(m.content) for m in messages if m.role in roles]
    if not texts:
        return None
    return texts[0] if len(texts) == 1 else joiner.join(texts)


def gathered_carried(
    messages: Sequence[Message],
    ctx: Conversation,
    roles: Collection[str],
    text: Callable[[Any], str],
    joiner: str,
    carry: Callable[[Sequence[Message], Conversation], list[Message]],
    block: SystemBlock | None = None,
) -> list[Message]:
    """What a format with :attr:`~tooletta.chat.ChatFormat.gather_system` carries of
    ``messages``: one system message first, holding every system message's text (joined),
    then the other messages as ``carry`` gives them back for the conversation without its
    system messages. No system message when there is none, or when the format's system
    ``block`` reads the joined text back as none: an empty one it counts as none
    (``empty_is_none``), or its ``default``."""
    system = gathered_system(messages, roles, text, joiner)
    rest = [m for m in messages if m.role not in roles]
    inner = Conversation(rest, ctx.tools, ctx.options, ctx.dialect, ctx.add_generation_prompt)
    out = carry(rest, inner)
    if system is None or (
        block is not None and ((not system and block.empty_is_none) or block.is_default(system))
    ):
        return out
    return [Message("system", system), *out]


@dataclass(frozen=True)
class HistoryCut:
    """The content an assistant turn that is not the conversation's last message is written
    with: when it holds ``marker``, only the text after its last occurrence (``last=False``:
    after its first, up to the next), trimmed of ``strip`` (``None``: whitespace, ``""``:
    nothing); without the marker, the content as it is (Apriel 1.6's
    ``content.split('[BEGIN FINAL RESPONSE]')[-1] | trim`` for history turns).

    A format sets it as :attr:`~tooletta.chat.ChatFormat.history_cut`; the default
    :meth:`~tooletta.chat.ChatFormat.turn_body` writes earlier turns so and
    :meth:`~tooletta.chat.ChatFormat.expressible` gives their content back so.

    Unlike :class:`~tooletta.chat.declare_history.ContentCut`, it trims both ends (Apriel's
    ``| trim``), in every earlier turn.
    """

    marker: str
    last: bool = True
    strip: str | None = None

    def cut(self, content: str) -> str:
        """``content`` as an earlier turn writes it."""
        marker = self.marker
        if not marker or marker not in content:
            return content
        parts = content.split(marker)
        kept = parts[-1] if self.last else parts[1]
        return kept if self.strip == "" else kept.strip(self.strip)
