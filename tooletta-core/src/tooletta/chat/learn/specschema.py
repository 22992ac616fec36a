"""The layout of a learned spec, checked before a format is built from it.

A learned spec is a plain JSON document (:meth:`~tooletta.chat.learn.Learned.save` writes it,
:func:`~tooletta.chat.learn.load_learned` and :func:`~tooletta.chat.learn.dialect_from_spec`
read it). One saved by :func:`tooletta.learn` is right by construction; one edited by hand, or
damaged, may hold a value of the wrong type or a word the format does not know (a history rule
that does not exist), which would otherwise surface as a raw ``KeyError`` or ``TypeError`` in
the middle of a render. :func:`check_spec` reads the document against the structs below
(every key of versions 1 to 5, each with its type and, where it is one of a few words, the
words) and raises :class:`~tooletta.LearnedSpecError` naming the key's path and what is wrong.

The structs mirror the spec; the formats keep reading the plain dict.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from ...errors import LearnedSpecError
from ..declare import KeepRule

__all__ = ["check_spec"]

Pair = tuple[str, str]
"""Two texts: a role's header and footer, a result's wrap."""

StripPair = tuple[str | None, str | None]
"""What is stripped on the left and on the right (``None``: whitespace)."""

Scalar = str | bool | int | float | None
"""An option's value."""


class _Spec(msgspec.Struct, forbid_unknown_fields=True):
    """A part of the spec: unknown keys are refused (a typo would otherwise be ignored)."""


class InstalledCallsSpec(_Spec, tag_field="kind", tag="installed"):
    """Calls written by an installed dialect, with the learned lead before them."""

    dialect: str
    lead_alone: str
    lead_content: str
    ids: bool = True
    lead_if_missing: bool = False
    written_ids: bool = False
    ids_across: bool = False
    between: str | None = None


class JsonCallsSpec(_Spec, tag_field="kind", tag="json"):
    """Calls learned as JSON objects between learned markers."""

    open: str
    close: str
    head: str
    tail: str
    between: str
    trailer: str
    name_key: str
    args_key: str
    args_first: bool
    args_separators: Pair
    item_sep: str
    key_sep: str
    ensure_ascii: bool
    lead_alone: str
    lead_content: str
    ids: bool = False
    lead_if_missing: bool = False


class NoCallsSpec(_Spec, tag_field="kind", tag="none"):
    """A template that writes no tool calls."""


class ToolItemSpec(_Spec):
    """How each tool declaration is written: ``tojson`` of the tool or of its function."""

    what: Literal["function", "tool"]
    indent: int | None
    separators: Pair | None
    ensure_ascii: bool
    list: bool = False


class ToolsSpec(_Spec):
    """The tool declarations: head, each item, joiner, tail, and where they stand."""

    head: str
    item: ToolItemSpec
    join: str
    tail: str
    with_system: str
    without_system: str
    system_first: bool = True
    own_turn: Literal["start"] | None = None


class ResultIdSpec(_Spec):
    """A result's turn writing an id: the message's own, or the one written for its call."""

    source: Literal["message", "call"]
    after: str


class ResultEncodingSpec(_Spec):
    """A tool result's text written encoded inside the wrap: ``json_string``, as the JSON
    string literal ``tojson`` writes (non-ASCII escaped with ``ensure_ascii``)."""

    kind: Literal["json_string"]
    ensure_ascii: bool


class ResultsSpec(_Spec):
    """Tool results: wrap, grouping, separator, strip, id and encoding."""

    wrap: Pair
    grouped: bool
    separator: str
    strip: StripPair | None = None
    id: ResultIdSpec | None = None
    encoding: ResultEncodingSpec | None = None


class ReasoningSpec(_Spec):
    """The reasoning block and its history rule."""

    key: str
    open: str
    close: str
    strip: str | None
    keep: KeepRule
    empty: Literal["never", "last", "kept"]
    dropped: str


class ContentStripSpec(_Spec):
    """What is stripped from an answer's text after a reasoning block or without one."""

    block: StripPair
    plain: StripPair


class ContentCutSpec(_Spec):
    """An answer's text cut after a reasoning tag, in which answers."""

    marker: str
    where: Literal["all", "not_last", "before_last_user"]
    which: Literal["first", "last"]
    strip: StripPair
    lead: bool = False
    spared: list[str] = []


class HistoryStripSpec(_Spec):
    """Earlier answers stripped otherwise than the last."""

    where: Literal["all", "not_last", "before_last_user"]
    strip: StripPair


class TurnsSpec(_Spec):
    """Each role's header and footer (a role the template does not write has none)."""

    system: Pair | None = None
    user: Pair | None = None
    assistant: Pair | None = None
    tool: Pair | None = None


class HeaderlessSpec(_Spec):
    """Turns of ``role`` written without a header right after a message of one of the roles
    ``after`` (:class:`~tooletta.chat.Headerless`: Hunyuan's hub text writes the user turn
    after the system turn without one)."""

    role: Literal["user", "assistant", "tool"]
    after: list[Literal["system", "user", "assistant", "tool"]]


class ChatSpec(_Spec):
    """The conversation format."""

    bos: str
    after: str
    end_of_turn: str
    turns: TurnsSpec
    system: bool
    tools: ToolsSpec | None
    results: ResultsSpec
    reasoning: ReasoningSpec | None
    default_system: str | None
    prompts: list[tuple[dict[str, Scalar], str]]
    fixed: dict[str, list[Scalar]]
    options: dict[str, Scalar]
    content_strip: ContentStripSpec | None = None
    system_strip: StripPair | None = None
    user_strip: StripPair | None = None
    content_cut: ContentCutSpec | None = None
    history_strip: HistoryStripSpec | None = None
    late_system: bool = True
    open_last: bool = False
    plain_footers: bool = False
    empty_system: bool | str = False
    prompt_after_answer: bool = True
    prompt_after_results: str | None = None
    after_results: str = ""
    content_beside_calls: bool = False
    content_parts: bool = False
    empty_answer: bool = True
    system_suffix: str | None = None
    headerless: HeaderlessSpec | None = None
    names: dict[Literal["system", "user", "assistant", "tool"], tuple[str, str, str]] | None = None


class LearnedSpec(_Spec):
    """A whole learned spec."""

    spec_version: int
    name: str
    calls: InstalledCallsSpec | JsonCallsSpec | NoCallsSpec
    chat: ChatSpec
    source: str = ""
    template_sha256: str = ""
    probe_suite: int = 0
    tokens: dict[str, str] = {}
    deviations: list[str] = []


def check_spec(spec: object, where: str = "the learned spec") -> None:
    """Raise :class:`~tooletta.LearnedSpecError` unless ``spec`` has a learned spec's layout: every
    key known, every value of its type (``where`` names the document in the message)."""
    try:
        msgspec.convert(spec, LearnedSpec, strict=True)
    except msgspec.ValidationError as exc:
        raise LearnedSpecError(f"{where}: malformed learned spec: {exc}") from None
