"""The dialect registry: names, aliases, priorities, and what went wrong while loading."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .errors import DuplicateDialectError, UnknownDialectError
from .ir import DialectInfo

__all__ = ["DialectEntry", "Pending", "Registry", "normalize_name", "supports_of"]


def normalize_name(name: str) -> str:
    """Lookup key for a dialect name: case-insensitive, ``-`` and ``_`` alike."""
    return name.strip().lower().replace("-", "_")


class Pending:
    """A dialect known from the plugin index whose plugin has not been imported yet.

    ``resolve()`` imports the plugin (once) and returns the real dialect object; the registry
    does so the first time the entry's :attr:`DialectEntry.dialect` is used. ``supports`` is
    what the object supported when the index was built.
    """

    __slots__ = ("_resolve", "info", "supports")

    def __init__(
        self, info: DialectInfo, supports: tuple[str, ...], resolve: Callable[[str], Any]
    ) -> None:
        self.info = info
        self.supports = supports
        self._resolve = resolve

    def resolve(self) -> Any:
        """The real dialect object (imports its plugin the first time)."""
        return self._resolve(self.info.name)


class DialectEntry:
    """One registered dialect with where it came from.

    ``dialect`` is the dialect object; for a dialect known from the plugin index it is
    imported on first use, so listing dialects (names, infos, ``supports``) imports nothing.
    ``first_party``: its plugin is one of this repository's (:mod:`tooletta.precedence`), so
    what it returns is checked for its type only, not field by field.
    """

    __slots__ = ("_dialect", "first_party", "info", "plugin", "version")

    def __init__(self, dialect: Any, info: DialectInfo, plugin: str, version: str | None = None):
        self._dialect = dialect
        self.info = info
        self.plugin = plugin
        self.version = version
        self.first_party = False

    def __repr__(self) -> str:
        return f"DialectEntry({self.info.name!r}, plugin={self.plugin!r}, version={self.version!r})"

    @property
    def dialect(self) -> Any:
        """The dialect object (its plugin is imported the first time it is needed)."""
        obj = self._dialect
        if type(obj) is Pending:
            obj = self._dialect = obj.resolve()
        return obj

    @property
    def loaded(self) -> bool:
        """True when the dialect object is in memory (its plugin imported)."""
        return type(self._dialect) is not Pending

    @property
    def supports(self) -> tuple[str, ...]:
        """What the object really does: ``parse``, ``render``, ``stream`` (incremental)."""
        obj = self._dialect
        if type(obj) is Pending:
            return obj.supports
        return supports_of(obj)


def supports_of(dialect: Any) -> tuple[str, ...]:
    """Which of ``parse``, ``render``, ``stream`` the object implements."""
    return tuple(s for s in ("parse", "render", "stream") if callable(getattr(dialect, s, None)))


@dataclass
class Problem:
    """Something that went wrong while loading plugins (shown by ``list-dialects``)."""

    plugin: str
    error: str


@dataclass
class Registry:
    """Dialects by normalised name and alias; problems recorded instead of raised."""

    entries: list[DialectEntry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    _by_key: dict[str, DialectEntry] = field(default_factory=dict)

    def add(self, dialect: Any, plugin: str, version: str | None = None) -> DialectEntry:
        """Register ``dialect`` (or a :class:`Pending` one); raise
        :class:`DuplicateDialectError` on a name clash. Chat formats of the wrong type
        (:func:`tooletta.chat.guard.formats_problem`) are listed in :attr:`problems`; the
        dialect is registered."""
        info = getattr(dialect, "info", None)
        if not isinstance(info, DialectInfo):
            raise TypeError(f"{dialect!r} has no DialectInfo 'info' attribute")
        if type(dialect) is not Pending:
            for attr in ("parse", "render"):
                if not callable(getattr(dialect, attr, None)):
                    raise TypeError(f"dialect {info.name!r} has no {attr}() method")
        keys = [normalize_name(n) for n in (info.name, *info.aliases)]
        for key in keys:
            other = self._by_key.get(key)
            if other is not None:
                raise DuplicateDialectError(
                    f"dialect name {key!r} of {info.name!r} ({plugin}) is already taken by "
                    f"{other.info.name!r} ({other.plugin})"
                )
        if len(set(keys)) != len(keys):
            raise DuplicateDialectError(f"dialect {info.name!r} repeats a name in its aliases")
        if type(dialect) is not Pending and getattr(dialect, "chat_formats", None):
            from .chat.guard import formats_problem  # (the chat package imports this module)

            problem = formats_problem(dialect)
            if problem is not None:  # its parse and render still work: listed, not refused
                self.problems.append(Problem(plugin, problem))
        entry = DialectEntry(dialect, info, plugin, version)
        self.entries.append(entry)
        for key in keys:
            self._by_key[key] = entry
        return entry

    def get(self, name: str) -> DialectEntry:
        """The entry for a name or alias; raise :class:`UnknownDialectError` when none (for a
        first-party dialect that is not installed, the message says what to install)."""
        entry = self._by_key.get(name)  # already normalised: the common case
        if entry is None:
            entry = self._by_key.get(normalize_name(name))
        if entry is None:
            from .firstparty import unknown_dialect_message  # only on this error path

            known = (e.info.name for e in self.entries)
            raise UnknownDialectError(unknown_dialect_message(name, known, self.problems))
        return entry

    def holder(self, name: str) -> DialectEntry | None:
        """The entry holding ``name`` (a name or alias), or ``None`` when it is free."""
        return self._by_key.get(normalize_name(name))

    def ordered(self) -> list[DialectEntry]:
        """Entries in detection order: higher priority first, then by name."""
        return sorted(self.entries, key=lambda e: (-e.info.priority, e.info.name))

    def for_model(self, model: str) -> str | None:
        """The dialect whose declared ``models`` patterns match ``model`` (longest pattern wins)."""
        low = model.lower()
        best: tuple[int, str] | None = None
        for entry in self.entries:
            for pattern in entry.info.models:
                pat = pattern.lower()
                hit = fnmatch.fnmatchcase(low, pat) or fnmatch.fnmatchcase(
                    low.rsplit("/", 1)[-1], pat
                )
                if hit and (best is None or len(pat) > best[0]):
                    best = (len(pat), entry.info.name)
        return best[1] if best else None

    def names(self) -> Iterable[str]:
        """Every registered primary name."""
        return (e.info.name for e in self.entries)
