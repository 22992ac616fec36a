"""What :func:`tooletta.chat.identify` answers: the verdict (:class:`Identification`), the
message form the template takes (:class:`MessageForm`) and a candidate's first difference
(:class:`NearMiss`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import msgspec

from ...ir import Message, ToolCall
from ..probes import PROBE_SUITE_VERSION

__all__ = ["Identification", "MessageForm", "NearMiss"]


@dataclass(frozen=True)
class MessageForm:
    """How messages reach the template (see :func:`tooletta.chat.jinja.to_template_messages`):
    call arguments as JSON text (``string_arguments``) or a dict, a call-only turn's
    ``content`` (``""`` or ``None``), the key reasoning goes under, and the calls' ids
    (``call_ids``: ``"opaque"`` such as ``call00001``, or ``"functions"``: Kimi's
    ``functions.NAME:INDEX``, counted over the conversation), whether every text content is
    given as a list of text parts (``content_parts``: templates that read
    ``content[0]['text']``, MiniMax-M1's; tried only when the template raises on text), and
    the tool results (``tool_results``: ``"messages"``, each a ``role: tool`` message, or
    ``"tool_responses"``, folded into the assistant message that made the calls as llama.cpp
    does for Gemma 4: :mod:`tooletta.chat.toolresponses`)."""

    string_arguments: bool = False
    call_content: str | None = ""
    reasoning_key: str = "reasoning_content"
    call_ids: str = "opaque"
    content_parts: bool = False
    tool_results: str = "messages"

    def messages(self, messages: Sequence[Message]) -> tuple[Message, ...]:
        """``messages`` with their calls' ids (and the results' ``tool_call_id``) in this
        form's id style."""
        if self.call_ids == "opaque":
            return tuple(messages)
        renamed: dict[str, str] = {}
        out = []
        for m in messages:
            if m.tool_calls:
                calls = []
                for call in m.tool_calls:
                    new = f"functions.{call.name}:{len(renamed)}"
                    renamed[call.id or new] = new
                    calls.append(ToolCall(call.name, call.arguments, new))
                m = msgspec.structs.replace(m, tool_calls=calls)
            elif m.tool_call_id in renamed:
                m = msgspec.structs.replace(m, tool_call_id=renamed[m.tool_call_id])
            out.append(m)
        return tuple(out)

    def jinja_options(self) -> dict[str, Any]:
        """The keyword arguments :func:`~tooletta.chat.jinja.render_jinja` takes for it."""
        return {
            "string_arguments": self.string_arguments,
            "call_content": self.call_content,
            "reasoning_key": self.reasoning_key,
            "content_parts": self.content_parts,
            "tool_results": self.tool_results,
        }


@dataclass(frozen=True)
class NearMiss:
    """A candidate format that did not reproduce the template: the first probe where it
    differs, the offset of the first differing character, and the text around it in the
    template's render and in the format's (``format_text`` holds the error when the format
    refused the probe). ``matched``: how many probes it wrote right before that one."""

    format: str
    probe: str
    offset: int
    template_text: str
    format_text: str
    matched: int

    def describe(self) -> str:
        """One line: which format, which probe, where, and both texts."""
        return (
            f"{self.format} differs on probe {self.probe!r} at {self.offset}: "
            f"template {self.template_text!r}, format {self.format_text!r}"
        )


@dataclass(frozen=True)
class Identification:
    """The verdict of :func:`tooletta.chat.identify`.

    ``format``: the name of a format that reproduces the template on every probe it renders
    (``render_conversation(dialect=format)`` accepts it), or ``None``. ``dialect``: that
    format's tool-call dialect. ``options``: the options the verdict holds under (the ones
    :func:`tooletta.chat.identify` was given). ``matched``: the probes compared;
    ``skipped``: the probes the template raised on (probe -> the error). ``near``:
    near-misses, closest first.
    ``also``: other formats that reproduce it as well. ``tokens``: the ``bos_token`` /
    ``eos_token`` the template reads (given, or bound to what the format writes there).
    ``form``: the message form the template takes. ``switches``: the option names the
    template reads that were probed and that the format declares; ``ignored_switches``: the
    ones the template reads and the format does not declare (the verdict holds with them
    unset: rendering with one of them set needs the template). ``suite_version``:
    :data:`~tooletta.chat.probes.PROBE_SUITE_VERSION`.

    ``known``: the template's exact text is one a model row declares its format verified
    against (``template_sha256`` of :class:`tooletta.rows.Model`; see the module docs), and
    ``verified_by`` names that row (plugin, pattern, fixture and source). ``differences``:
    for a known template, the probes where the format writes what a correct template would
    and the template does not (each as a :class:`NearMiss`, in suite order): the format's
    documented differences, not a mismatch (``matched`` then lists the other probes).
    """

    format: str | None
    dialect: str | None
    options: Mapping[str, Any]
    matched: tuple[str, ...]
    skipped: Mapping[str, str]
    near: tuple[NearMiss, ...]
    also: tuple[str, ...] = ()
    tokens: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    form: MessageForm = MessageForm()
    switches: tuple[str, ...] = ()
    ignored_switches: tuple[str, ...] = ()
    template_hash: str = ""
    suite_version: int = PROBE_SUITE_VERSION
    known: bool = False
    verified_by: str = ""
    differences: tuple[NearMiss, ...] = ()

    def __bool__(self) -> bool:
        """Whether a format was identified."""
        return self.format is not None

    def first_difference(self) -> str:
        """The closest near-miss as one line (``""`` when there is none)."""
        return self.near[0].describe() if self.near else ""
