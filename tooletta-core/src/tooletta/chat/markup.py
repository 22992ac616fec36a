"""The markup a chat format reads in its text, and the search for it in message text.

A message whose text holds its format's markup (``<|im_end|>\\n<|im_start|>assistant`` in a
Qwen3 user message) reads back as other messages: a forged turn. :func:`find_markup` finds
the first token of that markup in a text, fast for the common text that holds none: the
tokens' first characters are looked for first (one scan per character, as
:meth:`~tooletta.dialect.ScannerDialect.check_content` does), and only a text holding one of
them is searched with one pattern for every token.

The markup of a format is :meth:`~tooletta.chat.ChatFormat.markup` (its turn headers and
footers, end and stop tokens, special tokens, reasoning tags and result wrap); the text of
an assistant turn is also read by the dialect, so its content and reasoning must not hold
the dialect's markers either (what :func:`tooletta.render` refuses in content).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Markup", "dialect_markers", "find_markup", "holds_markup", "markup_of"]


@dataclass(frozen=True)
class Markup:
    """Tokens searched for in message text, with their first characters, their probes and
    one pattern."""

    tokens: tuple[str, ...]
    leads: tuple[str, ...]
    pattern: re.Pattern[str] | None
    probes: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(a character, the tokens whose rarest character it is): a text holds a token only if
    it holds that token's probe (:func:`holds_markup`). Found from ``tokens`` when not
    given."""

    def __post_init__(self) -> None:
        """Find the probes of a table built without them (never a table that finds none)."""
        if not self.probes and self.tokens:
            groups: dict[str, list[str]] = {}
            for word in self.tokens:
                if word:
                    groups.setdefault(max(word, key=_rarity), []).append(word)
            probes = tuple((char, tuple(group)) for char, group in groups.items())
            object.__setattr__(self, "probes", probes)

    @classmethod
    def of(cls, tokens: Sequence[str]) -> Markup:
        """The search table for ``tokens`` (empty ones ignored; longest first at a tie)."""
        words = tuple(sorted({t for t in tokens if t}, key=lambda t: (-len(t), t)))
        leads = tuple(dict.fromkeys(t[0] for t in words))
        pattern = re.compile("|".join(map(re.escape, words))) if words else None
        return cls(words, leads, pattern)


_COMMON = " etaoinsrhldcumfpgwybvkxjqz\nETAOINSRHLDCUMFPGWYBVKXJQZ0123456789.,'\"-:()/_"
"""Characters of message text, the most frequent first (roughly: English prose, then code):
a token is looked for by the character of it latest in this list, or by one not in it."""


def _rarity(char: str) -> int:
    """How rare ``char`` is in message text (higher: rarer; any order is exact)."""
    found = _COMMON.find(char)
    return len(_COMMON) if found < 0 else found


def holds_markup(text: str, markup: Markup) -> bool:
    """Whether ``text`` holds a token of ``markup`` (exactly: ``find_markup(text, markup) is
    not None``), by C scans only: each probe character, then the tokens holding it."""
    for probe, words in markup.probes:
        if probe in text:
            for word in words:
                if word in text:
                    return True
    return False


def find_markup(text: str, markup: Markup) -> str | None:
    """The first token of ``markup`` in ``text`` (``None``: none)."""
    pattern = markup.pattern
    if pattern is None or not text or not holds_markup(text, markup):
        return None
    found = pattern.search(text)
    return found.group() if found is not None else None


def dialect_markers(dialect: Any) -> tuple[str, ...]:
    """The markers ``dialect`` reads in an assistant turn's text: its grammar's
    ``content_markers`` (what its ``render`` refuses in content), else its declared
    ``info.markers``."""
    grammar = getattr(dialect, "grammar", None)
    markers = getattr(grammar, "content_markers", None) if grammar is not None else None
    if markers is None:
        info = getattr(dialect, "info", None)
        markers = getattr(info, "markers", ())
    if not isinstance(markers, (tuple, list)):
        return ()
    return tuple(m for m in markers if isinstance(m, str) and m.strip())


_TABLES: dict[tuple[int, int], tuple[Any, Any, Markup, Markup]] = {}


def markup_of(fmt: Any, dialect: Any) -> tuple[Markup, Markup]:
    """The markup of ``fmt`` (searched in every text of a message) and that markup with the
    markers of ``dialect`` (searched in an assistant turn's content and reasoning), found
    once per format and dialect object."""
    key = (id(fmt), id(dialect))
    found = _TABLES.get(key)
    if found is not None and found[0] is fmt and found[1] is dialect:
        return found[2], found[3]
    turn = tuple(fmt.markup())
    tables = (Markup.of(turn), Markup.of((*turn, *dialect_markers(dialect))))
    if len(_TABLES) > 256:
        _TABLES.clear()
    _TABLES[key] = (fmt, dialect, *tables)
    return tables
