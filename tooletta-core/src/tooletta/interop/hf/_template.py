"""Reading a ``response_template`` dict: validation, field roles and delimiters.

The spec (transformers 5.24, ``transformers/utils/chat_parsing/response_templates.py``) is a
dict ``{version, defaults, start_anchor | start_anchor_pattern, fields}``; each field is
``{open | open_pattern, close | close_pattern, content, content_args, repeats, join,
optional, transform, transform_each}``. ``open``/``close`` are a literal or a list of
literals, the ``*_pattern`` keys regular expressions (read with ``DOTALL``). At most one field
has no opener: it takes the text outside every other field. Validation follows transformers'
own rules, so a template it refuses is refused here too (:class:`TemplateError`).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...errors import ToolettaError
from ._regex import (
    Alt,
    Any_,
    Class,
    Lit,
    Look,
    Node,
    Pattern,
    PatternError,
    Rep,
    Seq,
    Starts,
    openers,
)
from ._regex import parse as parse_pattern

__all__ = [
    "CONTENT_PARSERS",
    "Delimiter",
    "FieldSpec",
    "Template",
    "TemplateError",
    "load_template",
]


class TemplateError(ToolettaError, ValueError):
    """A ``response_template`` is invalid, or uses what tooletta cannot import."""


CONTENT_PARSERS = frozenset(
    ("text", "int", "float", "bool", "json", "xml-inline", "kv-lines", "python-call-list")
)
_TEMPLATE_KEYS = frozenset(
    ("version", "defaults", "fields", "start_anchor", "start_anchor_pattern")
)
_FIELD_KEYS = frozenset(
    (
        "open",
        "open_pattern",
        "close",
        "close_pattern",
        "content",
        "content_args",
        "repeats",
        "join",
        "optional",
        "transform",
        "transform_each",
    )
)
_PLACEHOLDER = re.compile(r"\{(\w+(?:\.\w+)*)\}")
_REASONING = frozenset(("reasoning_content", "thinking", "reasoning"))


@dataclass(frozen=True)
class Delimiter:
    """An ``open`` or ``close``: its pattern, the literals it was given as (``None`` for a
    regular expression) and how it starts (:class:`~._regex.Starts`)."""

    pattern: Pattern
    literals: tuple[str, ...] | None
    starts: Starts

    @property
    def markers(self) -> tuple[str, ...]:
        """The literal markers a match starts with."""
        return tuple(dict.fromkeys(o.marker for o in self.starts.openers))


@dataclass(frozen=True)
class FieldSpec:
    """One field, with the role tooletta gives its text.

    ``role``: ``calls`` (``tool_calls``), ``content``, ``reasoning`` (``reasoning_content``,
    ``thinking``, ``reasoning``) or ``other`` (read, then dropped). ``lookahead`` is the
    literal of an opener written as ``(?=[\\s\\S]*?LITERAL)``: the region opens at the start
    of the reply when ``LITERAL`` comes later (a template whose prompt already opened a
    ``<think>``).
    """

    name: str
    role: str
    open: Delimiter | None
    close: Delimiter | None
    content: str
    content_args: Mapping[str, Any]
    repeats: bool
    join: str | None
    transform: Any
    transform_each: bool
    lookahead: str | None = None

    @property
    def captures(self) -> frozenset[str]:
        """Names of the groups its open and close patterns capture."""
        out: frozenset[str] = frozenset()
        for d in (self.open, self.close):
            if d is not None:
                out |= d.pattern.names
        return out


@dataclass(frozen=True)
class Template:
    """A validated template: the raw dict, its fields and the start anchor."""

    raw: Mapping[str, Any]
    defaults: Mapping[str, Any]
    fields: Mapping[str, FieldSpec]
    implicit: str | None
    anchor: Pattern
    anchor_markers: tuple[str, ...] = ()
    """The start anchor's literal forms (those it can be found by), possibly none."""

    def role_field(self, role: str) -> FieldSpec | None:
        """The first field with ``role``."""
        return next((f for f in self.fields.values() if f.role == role), None)


def _delimiter(
    scope: str, field: Mapping[str, Any], key: str, pattern_key: str, *, scan: bool = True
) -> Delimiter | None:
    if key in field and pattern_key in field:
        raise TemplateError(f"{scope}: cannot specify both {key!r} and {pattern_key!r}")
    if key in field:
        raw = field[key]
        if isinstance(raw, str):
            literals = [raw]
        elif isinstance(raw, list) and raw and all(isinstance(s, str) for s in raw):
            literals = list(dict.fromkeys(raw))
        else:
            raise TemplateError(f"{scope}: {key!r} must be a string or a non-empty list of strings")
        if any(s == "" for s in literals):
            raise TemplateError(f"{scope}: {key!r} literals cannot be empty")
        ordered = sorted(literals, key=len, reverse=True)
        lits: Node = Alt(tuple(Lit(s) for s in ordered)) if len(ordered) > 1 else Lit(ordered[0])
        source = "|".join(map(re.escape, ordered))
        return Delimiter(Pattern(lits, source), tuple(literals), openers(lits))
    if pattern_key in field:
        source = field[pattern_key]
        if not isinstance(source, str):
            raise TemplateError(f"{scope}: {pattern_key!r} must be a string")
        try:  # the engine's own parser: it accepts what transformers' ``regex`` does,
            node = parse_pattern(source)  # within the subset it reads (see _regex)
        except PatternError as exc:
            raise TemplateError(f"{scope}: {pattern_key} {exc}") from None
        if not scan or (key == "open" and _lookahead_literal(node) is not None):
            return Delimiter(Pattern(node, source), None, Starts((), False, False))
        try:
            starts = openers(node, trim_end=key == "close")
        except PatternError as exc:
            raise TemplateError(
                f"{scope}: {pattern_key} {source!r} cannot be found by its literal text ({exc})"
            ) from None
        return Delimiter(Pattern(node, source), None, starts)
    return None


def _lookahead_literal(node: Any) -> str | None:
    """``LITERAL`` when ``node`` is ``(?=[\\s\\S]*?LITERAL...)`` (or with ``.*?``)."""
    if not isinstance(node, Look) or node.negate:
        return None
    inner = node.node.items if isinstance(node.node, Seq) else (node.node,)
    if len(inner) < 2 or not isinstance(inner[0], Rep) or inner[0].lo != 0:
        return None
    anything = inner[0].node
    if not (
        isinstance(anything, Any_)
        or (isinstance(anything, Class) and {"s", "S"} <= set(anything.categories))
    ):
        return None
    return inner[1].text if isinstance(inner[1], Lit) else None


def _check_transform(scope: str, transform: Any) -> None:
    if isinstance(transform, dict):
        for value in transform.values():
            _check_transform(scope, value)
    elif isinstance(transform, list):
        for value in transform:
            _check_transform(scope, value)
    elif (
        isinstance(transform, str)
        and _PLACEHOLDER.search(transform)
        and not _PLACEHOLDER.fullmatch(transform)
    ):
        raise TemplateError(f"{scope}: transform {transform!r} mixes a placeholder with text")


def _role(name: str) -> str:
    if name == "tool_calls":
        return "calls"
    if name == "content":
        return "content"
    return "reasoning" if name in _REASONING else "other"


def _field(name: str, field: Any) -> FieldSpec:
    scope = f"field {name!r}"
    if not isinstance(field, Mapping):
        raise TemplateError(f"{scope} must be a dict")
    unknown = set(field) - _FIELD_KEYS
    if unknown:
        raise TemplateError(f"{scope}: unknown keys {sorted(unknown)}")
    content = field.get("content", "text")
    if content not in CONTENT_PARSERS:
        raise TemplateError(f"{scope}: unknown content parser {content!r}")
    args = field.get("content_args", {})
    if not isinstance(args, Mapping):
        raise TemplateError(f"{scope}: content_args must be a dict")
    opener = _delimiter(scope, field, "open", "open_pattern")
    closer = _delimiter(scope, field, "close", "close_pattern")
    join = field.get("join")
    repeats = field.get("repeats", False)
    if not isinstance(repeats, bool):
        raise TemplateError(f"{scope}: repeats must be a bool")
    if join is not None and (not isinstance(join, str) or not repeats):
        raise TemplateError(f"{scope}: 'join' must be a string and needs 'repeats': true")
    transform = field.get("transform")
    each = field.get("transform_each", False)
    if not isinstance(each, bool) or (each and transform is None):
        raise TemplateError(f"{scope}: transform_each must be a bool and needs a transform")
    if transform is not None:
        _check_transform(scope, transform)
    else:
        names: set[str] = set()
        for d in (opener, closer):
            if d is not None:
                names |= d.pattern.names
        if names:
            raise TemplateError(f"{scope}: named groups {sorted(names)} need a 'transform'")
    if content == "xml-inline":
        tag = args.get("tag_pattern")
        if not isinstance(tag, str):
            raise TemplateError(f"{scope}: xml-inline needs a 'tag_pattern' string")
        try:
            node = parse_pattern(tag)
        except PatternError as exc:
            raise TemplateError(f"{scope}: tag_pattern {exc}") from None
        if "key" not in Pattern(node).names:
            raise TemplateError(f"{scope}: tag_pattern needs a named group 'key'")
    lookahead = None
    if opener is not None and opener.literals is None:
        lookahead = _lookahead_literal(opener.pattern.node)
    return FieldSpec(
        name=name,
        role=_role(name),
        open=opener,
        close=closer,
        content=content,
        content_args=copy.deepcopy(dict(args)),
        repeats=repeats,
        join=join,
        transform=copy.deepcopy(transform),
        transform_each=each,
        lookahead=lookahead,
    )


def load_template(spec: Any) -> Template:
    """Validate ``spec`` and read it; raises :class:`TemplateError`."""
    if not isinstance(spec, Mapping):
        raise TemplateError(f"a response_template must be a dict, not {type(spec).__name__}")
    if spec.get("version", 1) != 1:
        raise TemplateError(f"unsupported response_template version {spec.get('version')!r}")
    unknown = set(spec) - _TEMPLATE_KEYS
    if unknown:
        raise TemplateError(f"unknown keys in response_template: {sorted(unknown)}")
    defaults = spec.get("defaults", {})
    if not isinstance(defaults, Mapping):
        raise TemplateError("response_template.defaults must be a dict")
    raw_fields = spec.get("fields")
    if not isinstance(raw_fields, Mapping) or not raw_fields:
        raise TemplateError("response_template.fields must be a non-empty dict")
    fields = {str(name): _field(str(name), f) for name, f in raw_fields.items()}
    implicit = [n for n, f in fields.items() if f.open is None]
    if len(implicit) > 1:
        raise TemplateError(f"at most one field may have no opener, found {implicit}")
    anchor = _delimiter(
        "response_template", spec, "start_anchor", "start_anchor_pattern", scan=False
    )
    if anchor is None:
        raise TemplateError("response_template needs 'start_anchor' or 'start_anchor_pattern'")
    return Template(
        raw=copy.deepcopy(dict(spec)),
        defaults=copy.deepcopy(dict(defaults)),
        fields=fields,
        implicit=implicit[0] if implicit else None,
        anchor=anchor.pattern,
        anchor_markers=_anchor_markers(anchor.pattern),
    )


def _anchor_markers(anchor: Pattern) -> tuple[str, ...]:
    """The literals the start anchor is exactly (``<|start|>assistant``), if it is such."""
    try:
        found = openers(anchor.node, trim_end=True)
    except PatternError:
        return ()
    return tuple(o.marker for o in found.openers if _fixed(o.pattern.node) == o.marker)


def _fixed(node: Node) -> str | None:
    if isinstance(node, Lit):
        return node.text
    if isinstance(node, Seq) and all(isinstance(i, Lit) for i in node.items):
        return "".join(i.text for i in node.items if isinstance(i, Lit))
    return None
