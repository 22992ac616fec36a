"""The model row: one model family, the dialects it writes and its conversation format.

A plugin declares each model once, as a :class:`Model` row, and registers the rows through
the ``register`` callable of its ``register_dialects`` hook (the same callable as its
dialects). Everything else is derived from the rows: :func:`tooletta.dialect_for_model`,
the variant ``render(model=...)`` writes, the conversation format of
:func:`tooletta.render_conversation`, and the ``models`` patterns that
:class:`~tooletta.DialectInfo` and :class:`~tooletta.chat.ChatFormat` show
(:func:`patterns_of`; a dialect declaring no ``models`` gets its rows' patterns when its
plugin registers, :func:`tooletta.registry.derive_models`). This module is a leaf: it
imports nothing of tooletta but its errors.
"""

from __future__ import annotations

import fnmatch
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .errors import ToolettaError

__all__ = [
    "Model",
    "chat_name",
    "name_only_claim",
    "org_qualified",
    "pattern_score",
    "patterns_of",
    "template_digest",
]


_SHA256 = re.compile(r"[0-9a-f]{64}")


def template_digest(text: str) -> str:
    """The SHA-256 (hex) a row declares for a template: of the **exact** text
    :func:`tooletta.chat.jinja.load_chat_template` returns for it (a ``.jinja`` file's text as
    Python reads it, with universal newlines; a tokenizer config's ``chat_template`` string,
    or one named template of it), encoded as UTF-8. Nothing is stripped or normalised: a
    template differing in one character (a space, a newline at the end) has another digest."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def chat_name(chat: Any) -> str | None:
    """The name of a conversation format given as a class, an instance or a name."""
    if chat is None or isinstance(chat, str):
        return chat
    name = getattr(chat, "name", None)
    return name if isinstance(name, str) else None


@dataclass(frozen=True, init=False)
class Model:
    """One model family: the id patterns it answers to and what its models write.

    ``Model("qwen/qwen3.5-*", dialect="qwen3_coder", chat="qwen35",
    template="tests/templates/Qwen3.5-4B.jinja", source="Qwen/Qwen3.5-4B chat_template.jinja")``

    * ``pattern``: one glob pattern of Hugging Face model ids, or several (compared
      case-insensitively with the whole id, and a pattern without ``/`` also with the part
      after the last ``/``; the longest matching pattern of all rows wins);
    * ``dialect`` or ``dialects``: the tool-call dialects the models are known to write, the
      default first (``render(model=...)`` writes it; ``parse(text, model=...)`` detects among
      all of them). A variant dialect (``variant_of``) is the row's default when the models
      write that variant's spelling;
    * ``chat``: the conversation format (a :class:`~tooletta.chat.ChatFormat` class,
      instance, or its name), one of the default dialect's ``chat_formats``; ``None`` when no
      format is declared yet (conversations then need ``chat_template=``);
    * ``template``: the vendored chat template the format is verified against, relative to
      the plugin's folder (``tests/templates/...``), when there is one;
    * ``template_sha256``: the digests (:func:`template_digest`) of the exact template
      texts the format is verified against (``template``'s first, then the other fixtures
      the format's conversation tests verify for these models, such as another release's
      identical or named ``default`` template). :func:`tooletta.chat.identify` names the
      format for a template with one of these digests even where the probes differ (the
      format's documented differences), and ``model=`` with such a template renders
      natively. The kit (:mod:`tooletta.testing.models`) fails a digest that no verified
      fixture of the plugin has, so they cannot drift;
    * ``source``: where the template (or the evidence for the dialect) was read.

    Raises :class:`~tooletta.ToolettaError` for a row without a pattern or a dialect, or with
    a digest that is not 64 lowercase hex digits.
    """

    patterns: tuple[str, ...]
    dialects: tuple[str, ...]
    chat: Any
    template: str
    source: str
    template_sha256: tuple[str, ...]

    def __init__(
        self,
        pattern: str | Iterable[str],
        dialect: str = "",
        *,
        dialects: Iterable[str] = (),
        chat: Any = None,
        template: str = "",
        source: str = "",
        template_sha256: str | Iterable[str] = (),
    ) -> None:
        patterns = (pattern,) if isinstance(pattern, str) else tuple(pattern)
        if not patterns or not all(isinstance(p, str) and p.strip() for p in patterns):
            raise ToolettaError(f"a model row needs glob patterns of model ids, not {pattern!r}")
        names = ((dialect,) if dialect else ()) + tuple(d for d in dialects if d != dialect)
        if not names or not all(isinstance(d, str) and d for d in names):
            raise ToolettaError(f"model row {patterns[0]!r} names no dialect")
        if chat is not None and chat_name(chat) is None:
            raise ToolettaError(f"model row {patterns[0]!r}: chat={chat!r} is not a format")
        object.__setattr__(self, "patterns", tuple(p.strip().lower() for p in patterns))
        object.__setattr__(self, "dialects", names)
        digests = (template_sha256,) if isinstance(template_sha256, str) else tuple(template_sha256)
        bad = [d for d in digests if not isinstance(d, str) or not _SHA256.fullmatch(d)]
        if bad:
            raise ToolettaError(
                f"model row {patterns[0]!r}: template_sha256 holds {bad[0]!r}, not a SHA-256 "
                "(64 lowercase hex digits)"
            )
        if digests and not template:
            raise ToolettaError(f"model row {patterns[0]!r}: template_sha256 without a template")
        object.__setattr__(self, "chat", chat)
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "template_sha256", digests)

    @property
    def dialect(self) -> str:
        """The default dialect (the first of ``dialects``)."""
        return self.dialects[0]

    @property
    def chat_name(self) -> str | None:
        """The conversation format's name, or ``None``."""
        return chat_name(self.chat)

    @property
    def plain(
        self,
    ) -> tuple[tuple[str, ...], tuple[str, ...], str | None, str, str, tuple[str, ...]]:
        """The row as plain values, ``(patterns, dialects, chat_name, template, source,
        template_sha256)`` with the format by name (what the plugin index keeps and
        compares)."""
        return (
            self.patterns,
            self.dialects,
            self.chat_name,
            self.template,
            self.source,
            self.template_sha256,
        )

    def score(self, model: str) -> int:
        """The length of the longest of this row's patterns matching ``model``, else -1."""
        return pattern_score(model, self.patterns)


def pattern_score(model: str, patterns: Iterable[str]) -> int:
    """The length of the longest pattern matching ``model`` (its whole id, or the part after
    the last ``/``), case-insensitively; -1 when none does."""
    low = model.lower()
    tail = low.rsplit("/", 1)[-1]
    best = -1
    for pattern in patterns:
        pat = pattern.lower()
        if len(pat) > best and (fnmatch.fnmatchcase(low, pat) or fnmatch.fnmatchcase(tail, pat)):
            best = len(pat)
    return best


def org_qualified(pattern: str) -> bool:
    """Whether ``pattern`` names the organisation a model id must be under (``Qwen/Qwen3-*``),
    as opposed to a name any organisation's id may carry (``qwen3-8b``, ``*/hy3-*``)."""
    org, slash, _ = pattern.partition("/")
    return bool(slash) and not any(c in org for c in "*?[")


def name_only_claim(model: str, patterns: Iterable[str]) -> str | None:
    """The longest of ``patterns`` claiming ``model`` by its name alone: ``model`` has an
    organisation (``unsloth/Qwen3-8B``) that no matching pattern names, so the claim rests on
    the part after the ``/`` (a re-upload, a fine-tune or the vendor's own repository under a
    name the patterns do not list). ``None`` when an organisation-qualified pattern matches,
    when ``model`` has no organisation, or when nothing matches."""
    if "/" not in model:
        return None
    low = model.lower()
    tail = low.rsplit("/", 1)[-1]
    found: str | None = None
    for pattern in patterns:
        pat = pattern.lower()
        if org_qualified(pat):
            if fnmatch.fnmatchcase(low, pat):
                return None
        elif (fnmatch.fnmatchcase(low, pat) or fnmatch.fnmatchcase(tail, pat)) and (
            found is None or len(pattern) > len(found)
        ):
            found = pattern
    return found


def patterns_of(
    rows: Iterable[Model], dialect: str | None = None, *, chat: Any = None
) -> tuple[str, ...]:
    """The patterns of the rows whose default dialect is ``dialect`` and/or whose format is
    ``chat`` (a class, instance or name): what ``DialectInfo.models`` and
    ``ChatFormat.models`` show, derived from the rows."""
    wanted = chat_name(chat)
    out: list[str] = []
    for row in rows:
        if dialect is not None and row.dialect != dialect:
            continue
        if wanted is not None and row.chat_name != wanted:
            continue
        out.extend(p for p in row.patterns if p not in out)
    return tuple(out)
