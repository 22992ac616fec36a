"""The dialect registry: names, aliases, priorities, and what went wrong while loading."""

from __future__ import annotations

import fnmatch
import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from .errors import DuplicateDialectError, UnknownDialectError
from .ir import DialectInfo
from .rows import Model, patterns_of

__all__ = [
    "DialectEntry",
    "ModelEntry",
    "Pending",
    "Registry",
    "derive_models",
    "normalize_name",
    "supports_of",
]


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


def derive_models(registered: Iterable[Any]) -> None:
    """Fill in ``models`` for what one plugin registered: each dialect whose
    :class:`~tooletta.DialectInfo` declares no ``models`` shows the patterns of the plugin's
    :class:`~tooletta.rows.Model` rows that name it as their default dialect
    (:func:`~tooletta.rows.patterns_of`), so a plugin writes each model once, in its rows.

    The dialect object gets the completed info as its own ``info`` (its class keeps the
    declared one); a dialect that declares ``models``, one no row names, a
    ``Pending`` one (its indexed info is already complete) and an object that refuses
    the attribute are left as they are."""
    objects = list(registered)
    rows = [o for o in objects if isinstance(o, Model)]
    if not rows:
        return
    for obj in objects:
        info = getattr(obj, "info", None)
        if type(obj) is Pending or not isinstance(info, DialectInfo):
            continue
        for fmt in getattr(obj, "chat_formats", None) or ():
            _derive_format_models(fmt, rows)
        if info.models:
            continue
        models = patterns_of(rows, info.name)
        if models:
            try:
                obj.info = msgspec.structs.replace(info, models=models)
            except (AttributeError, TypeError):  # slots or a frozen object: rows still count
                continue


def _derive_format_models(fmt: Any, rows: Sequence[Model]) -> None:
    """Give a conversation format (a class or an instance, as a dialect's ``chat_formats``
    lists it) that declares no ``models`` of its own the patterns of the plugin's rows naming
    it as their format (none when no row does, not those of a format it subclasses): what
    :attr:`ChatFormat.models <tooletta.chat.ChatFormat.models>` shows. A format that declares
    them, or whose class refuses the attribute, is left as it is."""
    declared = (
        vars(fmt) if isinstance(fmt, type) else {**vars(type(fmt)), **getattr(fmt, "__dict__", {})}
    )
    if declared.get("models"):
        return
    try:
        fmt.models = patterns_of(rows, chat=getattr(fmt, "name", None))
    except (AttributeError, TypeError):  # slots or a frozen object: the rows still count
        return


def supports_of(dialect: Any) -> tuple[str, ...]:
    """Which of ``parse``, ``render``, ``stream`` the object implements."""
    return tuple(s for s in ("parse", "render", "stream") if callable(getattr(dialect, s, None)))


@dataclass
class Problem:
    """Something that went wrong while loading plugins (shown by ``list-dialects``)."""

    plugin: str
    error: str


_MISSING = object()


def _pattern_index(
    entries: list[ModelEntry],
) -> list[tuple[Callable[[str], object], ModelEntry]]:
    """Every row pattern compiled, longest first (registration order kept on ties): the
    first that matches is the best."""
    found = []
    for order, entry in enumerate(entries):
        for pattern in entry.row.patterns:
            match = re.compile(fnmatch.translate(pattern.lower())).match
            found.append((-len(pattern), order, match, entry))
    found.sort(key=lambda f: (f[0], f[1]))
    return [(match, entry) for _, _, match, entry in found]


def _best(
    index: list[tuple[Callable[[str], object], ModelEntry]],
    model: str,
    first_party: bool | None,
) -> ModelEntry | None:
    low = model.lower()
    tail = low.rsplit("/", 1)[-1]
    for match, entry in index:
        if first_party is not None and entry.first_party != first_party:
            continue
        if match(low) or match(tail):
            return entry
    return None


FormatCheck = Callable[[Any, str | None], tuple[str | None, Callable[[Any], Any] | None]]
"""A check of a dialect's declared ``chat_formats``: given the dialect object and its plugin,
the problem (or ``None``) and how to guard each format's hooks so that their faults are the
plugin's errors (``None``: nothing to guard with)."""


def _no_chat_layer(dialect: Any, plugin: str | None) -> tuple[str | None, None]:
    """The check before :mod:`tooletta.chat` is imported: nothing can be a conversation format
    then (every one subclasses its :class:`~tooletta.chat.ChatFormat`), so any declaration is
    wrong."""
    name = getattr(getattr(dialect, "info", None), "name", "?")
    return f"dialect {name!r}: chat_formats holds no tooletta.chat.ChatFormat declaration", None


_format_check: list[FormatCheck] = [_no_chat_layer]


def install_format_check(check: FormatCheck) -> None:
    """Install the one check of third-party conversation formats: done by :mod:`tooletta.chat`
    when it is imported (it sits above this module and defines
    :class:`~tooletta.chat.ChatFormat`), with :func:`tooletta.chat.guard.check_and_guard`. The
    registry asks it when a plugin registers a dialect (a problem is listed), the catalog when
    it hands out a third party's formats (refused or guarded)."""
    _format_check[0] = check


def format_check(
    dialect: Any, plugin: str | None
) -> tuple[str | None, Callable[[Any], Any] | None]:
    """The installed check's answer for ``dialect`` of ``plugin``: its problem (``None``: the
    declared formats are well typed) and the guard for each format."""
    return _format_check[0](dialect, plugin)


@dataclass(frozen=True)
class ModelEntry:
    """A registered :class:`~tooletta.rows.Model` row with the plugin that registered it.

    ``declared``: the row was registered as a row; ``False`` for one read from a dialect's
    ``DialectInfo.models`` (a plugin not converted to rows yet, or a third party's)."""

    row: Model
    plugin: str
    first_party: bool = False
    declared: bool = True


_SERIALS = itertools.count(1)


@dataclass
class Registry:
    """Dialects by normalised name and alias, model rows; problems recorded instead of raised."""

    entries: list[DialectEntry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    models: list[ModelEntry] = field(default_factory=list)
    """The model rows, in registration order (first-party plugins first)."""
    _by_key: dict[str, DialectEntry] = field(default_factory=dict)
    _rows: tuple[tuple[int, int], list[ModelEntry]] | None = None
    _memo: (
        tuple[
            tuple[int, int],
            list[tuple[Callable[[str], object], ModelEntry]],
            dict[tuple[str, bool | None], ModelEntry | None],
        ]
        | None
    ) = None

    serial: int = field(default_factory=lambda: next(_SERIALS), compare=False, repr=False)
    """This registry's number, never given to another registry in this process (unlike
    ``id()``, which a registry made after one was freed may reuse)."""

    def state(self) -> tuple[int, int, int]:
        """What keys the lookups remembered against this registry: its :attr:`serial` and how
        many dialects and model rows it holds (registration only adds)."""
        return self.serial, len(self.entries), len(self.models)

    def add_model(self, row: Model, plugin: str, first_party: bool = False) -> ModelEntry:
        """Register a model row (checked for its type only: what it names is resolved when
        used, and the plugin kit's tests check it)."""
        if not isinstance(row, Model):
            raise TypeError(f"{row!r} is not a tooletta Model row")
        entry = ModelEntry(row, plugin, first_party)
        self.models.append(entry)
        return entry

    def model_entries(self) -> list[ModelEntry]:
        """Every model row: the registered rows, then one per dialect declaring ``models``
        patterns in its info (the fallback for dialects without rows)."""
        stamp = (len(self.entries), len(self.models))
        if self._rows is not None and self._rows[0] == stamp:
            return self._rows[1]
        out = list(self.models)
        for entry in self.entries:
            if entry.info.models:
                row = Model(entry.info.models, entry.info.name)
                out.append(ModelEntry(row, entry.plugin, entry.first_party, declared=False))
        self._rows = (stamp, out)
        return out

    def add(self, dialect: Any, plugin: str, version: str | None = None) -> DialectEntry:
        """Register ``dialect`` (or a :class:`Pending` one); raise
        :class:`DuplicateDialectError` on a name clash. Chat formats of the wrong type
        (:func:`format_check`) are listed in :attr:`problems`; the
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
            problem, _ = format_check(dialect, plugin)
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

    def best_model(self, model: str, first_party: bool | None = None) -> ModelEntry | None:
        """The row whose pattern matching ``model`` is the longest (the first such row on a
        tie: registered rows before ``DialectInfo.models``), among the first-party rows, the
        others, or all (``None``). Answers are remembered while the rows are unchanged."""
        stamp = (len(self.entries), len(self.models))
        memo = self._memo
        if memo is None or memo[0] != stamp:
            memo = self._memo = (stamp, _pattern_index(self.model_entries()), {})
        key = (model, first_party)
        found = memo[2].get(key, _MISSING)
        if found is _MISSING:
            if len(memo[2]) > 4096:
                memo[2].clear()
            found = memo[2][key] = _best(memo[1], model, first_party)
        return found  # type: ignore[return-value]

    def for_model(self, model: str) -> str | None:
        """The default dialect of the row best matching ``model`` (first-party rows first)."""
        entry = self.best_model(model, True) or self.best_model(model, False)
        return entry.row.dialect if entry is not None else None

    def names(self) -> Iterable[str]:
        """Every registered primary name."""
        return (e.info.name for e in self.entries)
