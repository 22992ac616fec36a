"""Building blocks for a dialect's ``response_template`` (transformers' ``parse_response`` spec).

Each dialect declares what :func:`tooletta.interop.hf.to_response_template` exports for it,
with optional attributes; core keeps no table of them:

``response_template``
    the template: a dict; a zero-argument callable returning one (called only when the
    template is asked for); an :class:`Export` (a template with a note, or a gap); or a
    ``"module:attribute"`` reference to any of those, imported only when asked for (so that
    loading the plugin does not load :mod:`tooletta.interop`).
``response_template_gap``
    when ``response_template`` is not set (or ``None``): the one-line reason the spec
    cannot express the format (``TEMPLATE_GAPS``).
``response_template_note``
    with a plain dict or callable: what the template leaves out (one form of the format
    only, values typed by the request's ``tools``...; ``TEMPLATE_NOTES``).

``response_template`` is looked up on the object, so a subclass that sets it replaces what it
inherits (set it to ``None`` to declare a ``response_template_gap`` instead). A plugin
usually keeps an :class:`Export` per dialect in a small module of its own, ``hf_template``,
named after the dialect in capitals: a :class:`~tooletta.ScannerDialect` that sets neither
attribute exports that one by default (:mod:`tooletta.exportname`). The plugin's tests check
each export on the dialect's golden fixtures through transformers' ``parse_response``. Built
with these helpers::

    # tooletta_dialect_acme/hf_template.py
    from tooletta.interop.hf.spec import NAMED, Export, region, template, think

    ACME = Export(
        template(
            "<|assistant|>",
            region(r"\\s*<call name=(?P<name>\\w+)>", r"</call>\\s*", content="json",
                   transform=NAMED),
            ends=("<|end|>",),
            reasoning=think(),
        ),
        note="one form only",
    )

    # tooletta_dialect_acme/__init__.py, in the dialect's class body: the default, so the
    # class may leave it out (write another reference for an export named otherwise)
    response_template = "tooletta_dialect_acme.hf_template:ACME"

The helpers follow the conventions of transformers' and TRL's shipped templates: a leading
``\\s*`` on openers and a trailing one on closes (so that the whitespace between two calls
never opens an empty ``content`` region, whose close would overwrite the real content), a
``reasoning_content`` field where the format marks reasoning, and a leftover ``content`` field
that ends at the format's end-of-turn tokens.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from ...errors import ToolettaError

__all__ = [
    "EACH",
    "FUNCTION",
    "NAMED",
    "NAMED_ID",
    "TEXT",
    "TEXT_RAW",
    "Export",
    "TemplateSource",
    "chatml",
    "escape",
    "invoke",
    "kv_tags",
    "message",
    "region",
    "tagged",
    "template",
    "think",
]

TemplateSource: TypeAlias = Mapping[str, Any] | Callable[[], Mapping[str, Any]]
"""A ``response_template`` dict, or a zero-argument callable returning one (called only when
the template is asked for)."""

FUNCTION: dict[str, Any] = {"type": "function", "function": "{content}"}
"""A transform for a region whose JSON value is the whole ``{"name", "arguments"}`` call."""

NAMED: dict[str, Any] = {
    "type": "function",
    "function": {"name": "{name}", "arguments": "{content}"},
}
"""A transform for a region whose opener captures ``name`` and whose value is the arguments."""

NAMED_ID: dict[str, Any] = {
    "type": "function",
    "id": "{id}",
    "function": {"name": "{name}", "arguments": "{content}"},
}
"""A transform like :data:`NAMED` for an opener that also captures the call's ``id``."""

EACH: dict[str, Any] = {
    "type": "function",
    "function": {"name": "{name}", "arguments": "{arguments}"},
}
"""A ``transform_each`` transform for a list of ``{"name", "arguments"}`` objects."""

TEXT_RAW: dict[str, Any] = {"name": "text", "args": {"strip": False}}
"""A value parser for a parameter written verbatim (typed by the request's tools)."""

TEXT: dict[str, Any] = {"name": "text"}
"""A value parser for a parameter read as text with the whitespace around it stripped."""


@dataclass(frozen=True)
class Export:
    """What a dialect exports to transformers: its ``template`` (with an optional ``note`` on
    what it leaves out), or the one-line reason (``gap``) the spec cannot express the format.

    Exactly one of ``template`` and ``gap`` is given; a ``note`` goes with a template only.
    Raises :class:`~tooletta.ToolettaError` otherwise.
    """

    template: TemplateSource | None = None
    note: str = ""
    gap: str = ""

    def __post_init__(self) -> None:
        if (self.template is None) == (not self.gap):
            raise ToolettaError("an Export has either a template or a gap, not both or neither")
        if self.gap and self.note:
            raise ToolettaError("an Export with a gap has no note (the gap says it all)")
        if self.template is not None and not (
            isinstance(self.template, Mapping) or callable(self.template)
        ):
            raise ToolettaError(
                f"an Export's template is a dict or a callable returning one, "
                f"not {type(self.template).__name__}"
            )


def escape(literal: str) -> str:
    """``literal`` as a regular expression: :func:`re.escape`, but leaving spaces and ``<>=``
    (and every other character regular expressions do not treat specially) alone, so that
    templates stay readable."""
    return "".join("\\" + ch if ch in ".^$*+?{}[]\\|()" else ch for ch in literal)


def think(open: str = "<think>", close: str = "</think>") -> dict[str, Any]:
    """A ``reasoning_content`` field between the literal tags ``open`` and ``close`` (the
    whitespace after ``close`` taken with it)."""
    return {"open": open, "close_pattern": escape(close) + r"\s*", "content": "text"}


def region(open_pattern: str, close_pattern: str, **rest: Any) -> dict[str, Any]:
    """A repeating field from ``open_pattern`` to ``close_pattern``; ``rest`` adds the other
    keys of the field (``content``, ``content_args``, ``transform``...)."""
    return {"open_pattern": open_pattern, "close_pattern": close_pattern, "repeats": True, **rest}


def tagged(
    open_pattern: str,
    close_pattern: str,
    tag_pattern: str,
    *,
    value_parser: dict[str, Any] = TEXT_RAW,
) -> dict[str, Any]:
    """A ``tool_calls`` field of calls from ``open_pattern`` (which captures ``name``) to
    ``close_pattern``, whose arguments are the matches of ``tag_pattern`` (which captures
    ``key`` and ``value``) in between, each value read by ``value_parser`` (verbatim text by
    default, typed by the request's tools). :func:`invoke` and :func:`kv_tags` are two
    common spellings of it."""
    return region(
        open_pattern,
        close_pattern,
        content="xml-inline",
        content_args={"tag_pattern": tag_pattern, "value_parser": value_parser},
        transform=NAMED,
    )


def message(anchor: str, fields: dict[str, Any]) -> dict[str, Any]:
    """An assistant-message template starting after ``anchor`` with the given ``fields``, as
    written for a format :func:`template`'s layout does not fit (channels, several content
    fields...)."""
    return {"defaults": {"role": "assistant"}, "start_anchor": anchor, "fields": fields}


def template(
    anchor: str,
    calls: dict[str, Any],
    *,
    ends: tuple[str, ...] = (),
    reasoning: dict[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An assistant-message template starting after ``anchor``: ``reasoning`` (when given) as
    ``reasoning_content``, ``calls`` as ``tool_calls``, the ``extra`` fields, then the
    leftover text as ``content``, which ends at any of the literal ``ends`` (the format's
    end-of-turn tokens)."""
    fields: dict[str, Any] = {}
    if reasoning is not None:
        fields["reasoning_content"] = reasoning
    fields["tool_calls"] = calls
    fields.update(extra or {})
    content: dict[str, Any] = {"content": "text"}
    if ends:
        content["close_pattern"] = r"\s*(?:" + "|".join(escape(e) for e in ends) + r")\s*"
    fields["content"] = content
    return message(anchor, fields)


def chatml(
    calls: dict[str, Any],
    *,
    ends: tuple[str, ...] = (),
    reasoning: bool = True,
) -> dict[str, Any]:
    """A :func:`template` for a ChatML reply: after ``<|im_start|>assistant`` and its line
    break, ``<think>`` reasoning (unless ``reasoning`` is false), ``calls`` as ``tool_calls``,
    then the content, which ends at ``<|im_end|>`` or any of the other literal ``ends``."""
    return template(
        "<|im_start|>assistant\n",
        calls,
        ends=("<|im_end|>", *ends),
        reasoning=think() if reasoning else None,
    )


def invoke(
    prefix: str,
    section: str,
    section_end: str,
    call_tag: str,
    param_tag: str,
    *,
    typed: bool = False,
    call_open: str = "",
    call_close: str = "",
) -> dict[str, Any]:
    """A ``tool_calls`` field of ``<invoke name="X"><parameter name="k">v</parameter></invoke>``
    calls (MiniMax-M2, DSML, GCML, StepTML...): elements named ``call_tag`` and ``param_tag``
    after ``prefix``, optionally inside a ``section``...``section_end`` and a per-call
    ``call_open``...``call_close`` frame (all regular expressions); ``typed`` reads a
    ``string="true|false"`` attribute on parameters. Values are text, typed by the request's
    tools."""
    string = r'(?: string="(?:true|false)")?' if typed else ""
    return tagged(
        rf"\s*(?:{section}\s*)?{call_open}<{prefix}{call_tag} name=\"(?P<name>[^\"]+)\"\s*>",
        rf"\s*</{prefix}{call_tag}>\s*{call_close}(?:{section_end}\s*)?",
        rf"<{prefix}{param_tag} name=\"(?P<key>[^\"]+)\"{string}>(?P<value>.*?)"
        rf"</{prefix}{param_tag}>",
    )


def kv_tags(
    open_pattern: str, close_pattern: str, key: str, value: str, end: str
) -> dict[str, Any]:
    """A ``tool_calls`` field of ``NAME<key>k</key><value>v</value>...`` calls (Hunyuan,
    K2-Horizon, Solar): each argument is ``key`` K ``value`` V ``end`` (regular expressions).
    Values are text, typed by the request's tools."""
    return tagged(open_pattern, close_pattern, rf"{key}(?P<key>.*?){value}(?P<value>.*?){end}")
