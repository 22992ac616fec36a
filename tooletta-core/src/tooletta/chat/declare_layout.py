"""The plain declarations a :class:`~tooletta.chat.ChatFormat` is filled in with: what a
template writes around each role's message (:class:`~tooletta.chat.Turn`, in the tables
:func:`~tooletta.chat.roles` and :func:`~tooletta.chat.each_role` give for
:attr:`~tooletta.chat.ChatFormat.turns`), how it writes reasoning and which turns keep it
(:class:`~tooletta.chat.Reasoning`), and the table of its switches' defaults
(:func:`~tooletta.chat.defaults`, for :attr:`~tooletta.chat.ChatFormat.options`). The other
declarations, which carry their own writer and reader, are in :mod:`tooletta.chat.declare`."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from .declare import KeepRule

__all__ = ["FirstMessageKeys", "Neutral", "Reasoning", "Turn", "defaults", "each_role", "roles"]


@dataclass(frozen=True)
class Turn:
    """What a template writes around one message of a role: ``header`` + body + ``footer``.

    For the assistant, ``footer`` starts with the format's end-of-turn token (the part the
    model generates); what follows it (often ``"\\n"``) is template text the model never sees
    generated.
    """

    header: str
    footer: str = ""


@dataclass(frozen=True)
class Reasoning:
    """How an assistant turn writes its reasoning, and which turns keep it.

    ``open`` and ``close`` surround the reasoning text (after stripping ``strip`` characters
    from both ends of it). ``keep`` is the template's history rule: ``"all"`` (every turn
    keeps its reasoning), ``"after_last_user"`` (only the turns after the last user message,
    GLM's rule), ``"none"`` (reasoning is never written back into history), or one of the
    other rules of :func:`tooletta.chat.keeps` (``"after_last_query"``, Qwen3's;
    ``"last"``; ``"with_calls"``...).
    ``empty`` says when an empty block (``open`` + ``close``) is written for a turn without
    reasoning whose reasoning would be kept: ``"never"``, ``"last"`` (only when the turn is the
    conversation's last message, Qwen3) or ``"kept"`` (always). ``dropped`` is written
    instead of the block in a turn whose reasoning is not kept (GLM writes
    ``<think></think>``). ``strip=None`` strips whitespace. ``strip_first``: the template
    strips the reasoning before asking whether there is any, so reasoning made only of
    ``strip`` characters is none (Seed-OSS, dots3 write no block for it).

    ``switch``: a template option that changes the history rule: when the option is off (by
    its truth value, Jinja's ``if not X``: ``False``, ``None``, ``0``, ``""``; on when not
    given), the rule is ``switched`` instead of ``keep`` (GLM-5.2's ``clear_thinking=False``
    keeps every turn's reasoning, ``"all"``; Kimi K3's ``thinking=False`` none, ``"none"``).
    ``""``: no such option. ``off_when="false"``: the option is off only when it is ``False``
    (Jinja's ``X is false``: Kimi K2.5's ``thinking is defined and thinking is false``), not
    by its truth value; ``off_when="not_true"``: the option is on only when it is ``True``
    (Jinja's ``X is defined and X is true``: Qwen3.6's ``preserve_thinking``), off when not
    given. ``blank_empty``: reasoning made only of whitespace is written as an
    empty block (Kimi K3's think channel writes the reasoning as given, nothing for blanks).
    """

    open: str
    close: str
    strip: str | None = "\n"
    keep: KeepRule = "all"
    empty: Literal["never", "last", "kept"] = "never"
    dropped: str = ""
    strip_first: bool = False
    switch: str = ""
    switched: KeepRule = "all"
    off_when: Literal["falsy", "false", "not_true"] = "falsy"
    blank_empty: bool = False

    def block(self, reasoning: str) -> str:
        """The reasoning as the template writes it."""
        text = reasoning.strip(self.strip)
        if self.blank_empty and not text.strip():
            text = ""
        return self.open + text + self.close

    def rule(self, options: Mapping[str, Any]) -> str:
        """The history rule under ``options``: ``switched`` when the ``switch`` option is
        off (as ``off_when`` says), else ``keep``."""
        if self.switch:
            if self.off_when == "not_true":
                return self.keep if options.get(self.switch) is True else self.switched
            value = options.get(self.switch, True)
            if (value is False) if self.off_when == "false" else not value:
                return self.switched
        return self.keep


def roles(**turns: Turn) -> Mapping[str, Turn]:
    """A read-only role -> :class:`Turn` table for :attr:`ChatFormat.turns`."""
    return MappingProxyType(turns)


def each_role(
    turn: Callable[[str], Turn], *, tool: str | Turn = "tool", **others: Turn
) -> Mapping[str, Turn]:
    """A read-only role -> :class:`Turn` table (as :func:`roles` gives) for a template that
    writes every role's turn alike: the system, user and assistant turns are ``turn(role)``
    (``each_role(chatml)``: ChatML's); the tool turn is ``turn(tool)`` when ``tool`` names the
    role the template writes results under (Llama 3.1's ``"ipython"``), or ``tool`` itself
    when it is a :class:`Turn`; ``others`` add turns or replace those (MiniMax-M2 writes the
    assistant's as ``ai``: ``assistant=...``)."""
    table = {role: turn(role) for role in ("system", "user", "assistant")}
    table["tool"] = turn(tool) if isinstance(tool, str) else tool
    table.update(others)
    return MappingProxyType(table)


def defaults(**options: Any) -> Mapping[str, Any]:
    """A read-only table of template switches for :attr:`ChatFormat.options`."""
    return MappingProxyType(options)


class Neutral:
    """The values of a switch (or message key) under which the template writes what the
    format writes, when there are several: a value of
    :attr:`~tooletta.chat.ChatFormat.unwritten_options` (or of
    :attr:`~tooletta.chat.ChatFormat.unwritten_fields`) in place of the single value.

    ``Neutral(None, False, "")``: any of these passes, any other value is refused (each
    compared as a single declared value is: with ``==``, a ``bool`` only to a ``bool``).
    ``Neutral()``: the template writes the format's text only when the switch is not given
    at all (it reads a given ``None`` too), so every given value is refused."""

    __slots__ = ("values",)

    values: tuple[Any, ...]
    """The neutral values, in the order declared (the first is the one error messages
    name first)."""

    def __init__(self, *values: Any) -> None:
        object.__setattr__(self, "values", values)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Neutral is read-only")

    def __repr__(self) -> str:
        return f"Neutral({', '.join(map(repr, self.values))})"

    def __eq__(self, other: object) -> bool:
        return type(other) is Neutral and other.values == self.values

    def __hash__(self) -> int:
        return hash(tuple(map(repr, self.values)))


class FirstMessageKeys(Mapping[str, Any]):
    """A role's table in :attr:`~tooletta.chat.ChatFormat.unwritten_fields` for keys the
    template reads only on the conversation's first message (when it has that role):
    MiniMax-M2 reads ``current_date`` on ``messages[0]`` when it is a system message, and
    writes every later system message without it. The keys, given on a later message of
    the role, are ignored as the template ignores them; on the first message they are
    refused as a plain table's keys are (``FirstMessageKeys(current_date=None)``)."""

    __slots__ = ("_keys",)

    def __init__(self, **keys: Any) -> None:
        self._keys: Mapping[str, Any] = MappingProxyType(dict(keys))

    def __getitem__(self, key: str) -> Any:
        return self._keys[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        return f"FirstMessageKeys({', '.join(f'{k}={v!r}' for k, v in self._keys.items())})"
