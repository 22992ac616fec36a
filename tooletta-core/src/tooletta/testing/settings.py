"""What a :class:`~tooletta.testing.DialectTests` subclass declares, and the helpers its
tests share."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from .. import api
from ..ir import ToolCall
from .fixtures import load_cases

__all__ = ["DialectSettings", "EscapedMarkupSettings"]


class DialectSettings:
    """The class attributes a conformance test class sets (``dialect`` and ``fixtures`` first)
    and the helpers built on them; the tests live in the mixins that extend it."""

    dialect: ClassVar[str]
    fixtures: ClassVar[str | Path | None] = None
    ids: ClassVar[str] = "none"
    """How the format treats ids (``"none"``, ``"kept"`` or ``"generated"``)."""
    max_examples: ClassVar[int] = 60
    with_content: ClassVar[bool] = True
    """Whether rendered texts may carry content (False for formats that cannot)."""
    names: ClassVar[Sequence[str]] = ()
    """Other names that must resolve to this dialect (aliases, vLLM's and SGLang's parser
    names, other spellings in any case or with ``-`` for ``_``)."""
    models: ClassVar[Sequence[str]] = ()
    """Model ids that :func:`~tooletta.dialect_for_model` must map to this dialect."""
    markup: ClassVar[Sequence[str]] = ()
    """The format's markup and other troublesome pieces (tags, quotes, newlines). When set, strings
    glued from them (see :func:`~tooletta.testing.markup_strings`), written as argument values by
    :meth:`markup_calls`, must round-trip through render, parse and stream, or render must refuse
    them (where :meth:`may_refuse` allows): render never writes text that reads back differently."""
    markup_filler: ClassVar[str | None] = ""
    """Alphabet of short random text mixed into the markup strings (``""``: none, ``None``:
    any text)."""
    markup_size: ClassVar[int] = 6
    """How many pieces at most make one markup string."""
    markup_content: ClassVar[str | None] = ""
    """The content rendered beside the calls of the markup property; ``None``: a markup string
    too."""
    markup_keys: ClassVar[bool] = False
    """Whether the default :meth:`markup_calls` also writes the markup string as a key."""
    markup_nested: ClassVar[bool] = False
    """Whether the default :meth:`markup_calls` also nests a second markup string in an object
    and a list."""
    markup_untyped: ClassVar[bool] = False
    """Whether the format types its own values, so the markup calls also parse back without
    ``tools``."""
    exact_content: ClassVar[bool] = False
    """Whether the markup property's content must come back exactly (as ``content.strip()``),
    not only up to surrounding whitespace."""
    markup_examples: ClassVar[int] = 80
    """Hypothesis examples for the markup property."""

    @classmethod
    def cases(cls) -> list[dict[str, Any]]:
        """The golden cases (empty without a fixture file)."""
        return load_cases(cls.fixtures) if cls.fixtures else []

    @classmethod
    def markers(cls) -> list[str]:
        """This dialect's declared markers (used to build adversarial text)."""
        return list(api.get_dialect(cls.dialect).info.markers)

    def markup_calls(self, value: str, other: str) -> list[list[ToolCall]]:
        """The call lists the markup property renders for two markup strings. Default: one
        call ``f(x=value)``, with ``value`` also as a key (``markup_keys``) and ``other`` in
        ``n={"v": [other]}`` (``markup_nested``); override to put them elsewhere (names, ids,
        several calls)."""
        args: dict[str, Any] = {"x": value}
        if self.markup_nested:
            args["n"] = {"v": [other]}
        if self.markup_keys:
            args[value] = 1
        return [[ToolCall("f", args)]]

    def may_refuse(self, calls: list[ToolCall], content: str) -> bool:
        """Whether render may refuse these markup calls (default: yes; a format that can
        write any string says when it may not)."""
        return True


class EscapedMarkupSettings(DialectSettings):
    """Settings for a format that can write any string value (JSON strings, or escapes of its
    own): strings glued from its ``markup`` (with any text mixed in, also nested in an object
    and a list, beside the content ``"Done."``) must round-trip, also parsed without
    ``tools``, and render never refuses them. A subclass sets ``markup``."""

    markup_filler = None
    """Any text mixed into the markup strings."""
    markup_content = "Done."
    """The content rendered beside the markup calls."""
    markup_nested = True
    """A second markup string nested in an object and a list too."""
    markup_untyped = True
    """The markup calls parse back without ``tools`` too."""
    markup_examples = 60
    """Hypothesis examples for the markup property."""

    def may_refuse(self, calls: list[ToolCall], content: str) -> bool:
        """Never: the format writes any string."""
        return False
