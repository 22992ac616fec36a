"""Plugin discovery and loading: pluggy, the ``tooletta`` entry-point group, fail-soft, lazy.

Built-in dialects (``DEFAULT_PLUGINS``) register through the same hook as third-party ones.
Every entry point is imported inside ``try``: a plugin that fails to import, or raises while
registering, is recorded as a problem (``tooletta list-dialects`` shows it) and skipped; the
rest keep working. Environment variables:

``TOOLETTA_LOAD_PLUGINS``
    Comma-separated entry-point or distribution names: load only these (``""``: none).
``TOOLETTA_DISABLE_PLUGINS``
    Comma-separated entry-point or distribution names never to load.
``TOOLETTA_OVERRIDE``
    Comma-separated ``name=plugin`` pairs: give the dialect name ``name`` to ``plugin`` (an
    entry-point or distribution name) although another plugin registers it too. Without it,
    first-party plugins keep their names (:mod:`tooletta.precedence` has the rules).
``TOOLETTA_CACHE_DIR``
    Where the plugin index lives (default ``$XDG_CACHE_HOME/tooletta``, i.e.
    ``~/.cache/tooletta``). ``TOOLETTA_NO_CACHE=1`` turns the index off.

**Lazy loading.** Importing every plugin to learn its dialects' names would make every start
pay for all of them. So the first load writes an *index*: per plugin, the dialects it
registered (their :class:`~tooletta.DialectInfo` and what they support) and its hook options;
later processes register those dialects from the index and import a plugin only when one of
its dialects is used (``get_dialect``, ``parse``, a ``detect`` candidate...). Listing dialects
imports nothing. The index is checked on every start, without importing anything: it is
keyed by ``sys.path``, and remembers the modification times of the ``sys.path`` directories,
of each plugin distribution's ``entry_points.txt`` and of each plugin's module files (and of
core's own), so installing, removing, upgrading or editing a plugin rebuilds it. Only plugins
that loaded cleanly, come from an installed distribution and implement nothing but
``register_dialects`` are indexed; any other plugin is imported at start as before, so a
broken plugin is reported on every run. A cache directory that cannot be written only costs
the speed-up.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import time
import types
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgspec
import pluggy

from . import hookspecs
from .claims import check_model_claims, probe_hook_claims
from .errors import PluginError
from .ir import DialectInfo
from .precedence import (
    is_first_party,
    metapackage_dependencies,
    register_in_order,
    remember_metapackage,
)
from .registry import Pending, Problem, Registry, derive_models, supports_of
from .rows import Model

if TYPE_CHECKING:
    from importlib import metadata

__all__ = [
    "CONTAINED",
    "DEFAULT_PLUGINS",
    "PluginInfo",
    "cache_path",
    "get_plugin_manager",
    "get_registry",
    "load_plugins",
]

DEFAULT_PLUGINS: tuple[str, ...] = ("tooletta.builtin.canonical",)
"""Modules of the built-in plugins, registered before any entry point."""

ENTRY_POINT_GROUP = "tooletta"
INDEX_FORMAT = 4
_INDEXABLE_HOOKS = frozenset({"register_dialects"})
_CORE_DIST = "tooletta-core"
_RAISED = object()  # in a plugin's attempts: its register_dialects raised


@dataclass
class PluginInfo:
    """A plugin as ``tooletta list-dialects --plugins`` shows it."""

    name: str
    module: str
    distribution: str | None = None
    version: str | None = None
    hooks: list[str] = field(default_factory=list)
    error: str | None = None


@dataclass
class _State:
    pm: pluggy.PluginManager
    registry: Registry
    plugins: list[PluginInfo]


_lock = threading.RLock()
_state: _State | None = None


CONTAINED: tuple[type[BaseException], ...] = (Exception, SystemExit)
"""What a plugin may raise while it is imported or its hooks run that is contained (reported
as the plugin's problem, the other plugins and the caller unaffected): any exception, and
``SystemExit`` (a plugin calling ``sys.exit()`` must not end every API call and the command
line with its code). ``KeyboardInterrupt`` still interrupts."""


def _new_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager("tooletta")
    pm.add_hookspecs(hookspecs)
    return pm


def _names(var: str) -> set[str] | None:
    raw = os.environ.get(var)
    if raw is None:
        return None
    return {n.strip().lower().replace("_", "-") for n in raw.split(",") if n.strip()}


def _matches(names: set[str], *candidates: str | None) -> bool:
    return any(c is not None and c.lower().replace("_", "-") in names for c in candidates)


# -- the index ----------------------------------------------------------------------------


class _Dist(msgspec.Struct, frozen=True):
    name: str
    version: str | None


class _EntryPoint(msgspec.Struct, frozen=True):
    """An entry point as the index remembers it (the ``metadata.EntryPoint`` attributes
    plugin loading uses, and ``load()``)."""

    name: str
    value: str
    dist: _Dist | None = None
    stamp: tuple[str, int] | None = None  # its entry_points.txt and modification time

    def load(self) -> Any:
        """Import the module (and attribute) the entry point names."""
        module, _, attr = self.value.partition(":")
        obj: Any = importlib.import_module(module.strip())
        for part in filter(None, attr.strip().split(".")):
            obj = getattr(obj, part)
        return obj


class _Dialect(msgspec.Struct, frozen=True):
    info: DialectInfo
    supports: tuple[str, ...]


class _Row(msgspec.Struct, frozen=True):
    """A model row as the index keeps it (its format by name)."""

    patterns: tuple[str, ...]
    dialects: tuple[str, ...]
    chat: str | None = None
    template: str = ""
    source: str = ""
    template_sha256: tuple[str, ...] = ()

    @classmethod
    def of(cls, row: Model) -> _Row:
        """The index form of ``row``."""
        return cls(*row.plain)

    def model(self) -> Model:
        """The row again (its format named, not imported)."""
        return Model(
            self.patterns,
            dialects=self.dialects,
            chat=self.chat,
            template=self.template,
            source=self.source,
            template_sha256=self.template_sha256,
        )


class _Record(msgspec.Struct, frozen=True):
    """What the index keeps of one plugin that loaded cleanly."""

    hooks: tuple[str, ...]
    tryfirst: bool
    trylast: bool
    dialects: tuple[_Dialect, ...]
    files: tuple[tuple[str, int, int], ...]  # module files: path, mtime, size
    models: tuple[_Row, ...] = ()


class _Index(msgspec.Struct):
    format: int = INDEX_FORMAT
    stamp: tuple[tuple[str, int], ...] = ()  # sys.path entries and core files
    core_version: str | None = None
    entry_points: tuple[_EntryPoint, ...] | None = None
    plugins: dict[str, _Record] = {}
    # tooletta-dialects' first-party dependencies, read at the first start: a warm start
    # decides a family precedence.SHIPPED does not list without reading metadata
    metapackage: tuple[str, ...] | None = None


def _mtime(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1


def _stamp() -> tuple[tuple[str, int], ...]:
    """What the index depends on beyond the plugins: ``sys.path`` and core's own files."""
    here = os.path.dirname(os.path.abspath(__file__))
    core = [os.path.join(here, f) for f in ("ir.py", "plugins.py", "registry.py", "dialect.py")]
    return tuple((p, _mtime(p or ".")) for p in [*sys.path, *core])


def cache_path() -> str | None:
    """The file of the plugin index for this interpreter and ``sys.path`` (``None``: off)."""
    if os.environ.get("TOOLETTA_NO_CACHE", "").strip() not in ("", "0"):
        return None
    base = os.environ.get("TOOLETTA_CACHE_DIR")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(xdg, "tooletta")
    key = zlib.crc32(repr((INDEX_FORMAT, sys.version, sys.prefix, sys.path)).encode())
    return os.path.join(base, f"plugins-{key:08x}.json")


_decode_index = msgspec.json.Decoder(_Index).decode


def _read_index(path: str | None, stamp: tuple[tuple[str, int], ...]) -> _Index:
    """The index at ``path`` when it is current, else an empty one."""
    if path is not None:
        try:
            with open(path, "rb") as f:
                index = _decode_index(f.read())
            if index.format == INDEX_FORMAT and index.stamp == stamp:
                return index
        except (OSError, ValueError, msgspec.DecodeError, msgspec.ValidationError):
            pass
    return _Index(stamp=stamp)


def _write_index(path: str | None, index: _Index) -> None:
    """Write the index atomically; a cache that cannot be written is no error."""
    if path is None:
        return
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(msgspec.json.encode(index))
        os.replace(tmp, path)
    except OSError:
        pass


def _record_current(record: _Record) -> bool:
    """True when none of the plugin's module files changed since it was indexed."""
    for path, mtime, size in record.files:
        try:
            st = os.stat(path)
        except OSError:
            return False
        if st.st_mtime_ns != mtime or st.st_size != size:
            return False
    return True


def _module_files(module_name: str, loaded_at: int) -> tuple[tuple[str, int, int], ...]:
    """The files of the loaded modules of ``module_name``'s top-level package, or none when
    one of them changed after ``loaded_at`` (``time.time_ns()`` before the plugins were
    imported): what was registered may then be the file's earlier text, and a record with
    the new file's time would pass for current in every later process."""
    top = module_name.partition(".")[0]
    out = []
    for name, mod in list(sys.modules.items()):
        if name != top and not name.startswith(top + "."):
            continue
        path = getattr(mod, "__file__", None)
        if not isinstance(path, str):
            continue
        try:
            st = os.stat(path)
        except OSError:
            continue
        if st.st_mtime_ns > loaded_at:
            return ()
        out.append((path, st.st_mtime_ns, st.st_size))
    return tuple(sorted(out))


_index: _Index | None = None  # the index read at the last load (entry points come from it)


def _scan_entry_points() -> list[_EntryPoint]:
    """Every ``tooletta`` entry point of the installed distributions (a metadata scan)."""
    from importlib import metadata

    eps = metadata.entry_points()
    selected = eps.select(group=ENTRY_POINT_GROUP)
    seen: set[tuple[str, str]] = set()
    out = []
    for ep in sorted(selected, key=lambda e: e.name):
        key = (ep.name, ep.value)
        if key in seen:
            continue
        seen.add(key)
        dist = stamp = None
        if ep.dist is not None:
            dist = _Dist(ep.dist.name, ep.dist.version)
            where = getattr(ep.dist, "_path", None)  # the .dist-info folder, when on disk
            if where is not None:
                path = os.path.join(str(where), "entry_points.txt")
                stamp = (path, _mtime(path))
        out.append(_EntryPoint(ep.name, ep.value, dist, stamp))
    return out


def _entry_points() -> list[Any]:
    """The ``tooletta`` entry points: from the index while it is current, else scanned."""
    index = _index
    if index is not None and index.entry_points is not None:
        eps = index.entry_points
        if all(ep.stamp is not None and _mtime(ep.stamp[0]) == ep.stamp[1] for ep in eps):
            return list(eps)
    found = _scan_entry_points()
    if index is not None:
        index.entry_points = tuple(found) if all(ep.stamp for ep in found) else None
    return found


def _load_order(ep: Any) -> tuple[str, bool]:
    """Entry points load by name; of two with the same name, the first-party one first."""
    return ep.name, not is_first_party(_dist_of(ep)[0])


def _dist_of(ep: Any) -> tuple[str | None, str | None]:
    dist = getattr(ep, "dist", None)
    if dist is None:
        return None, None
    return dist.name, dist.version


def _key(name: str, value: str, dist: str | None, version: str | None) -> str:
    return f"{name}|{value}|{dist}|{version}"


# -- loading -------------------------------------------------------------------------------


class _Lazy:
    """Imports one indexed plugin on first use and hands out its dialect objects."""

    def __init__(self, name: str, load: Any, registry: Registry) -> None:
        self.name = name
        self._load = load
        self._registry = registry
        self._objects: dict[str, Any] | None = None

    def get(self, dialect: str) -> Any:
        """The plugin's dialect object named ``dialect`` (importing the plugin once)."""
        with _lock:
            if self._objects is None:
                self._objects = self._import()
        obj = self._objects.get(dialect)
        if obj is None:
            raise PluginError(f"no longer registers the dialect {dialect!r}", plugin=self.name)
        return obj

    def _import(self) -> dict[str, Any]:
        objects: dict[str, Any] = {}

        registered: list[Any] = []
        try:
            module = self._load()
            pm = _new_manager()
            pm.register(module, name=self.name)
            for impl in pm.hook.register_dialects.get_hookimpls():
                impl.function(*[{"register": registered.append}[a] for a in impl.argnames])
            derive_models(registered)
        except CONTAINED as exc:  # fail-soft: reported, and the dialect is unavailable
            error = f"failed to load: {type(exc).__name__}: {exc}"
            self._registry.problems.append(Problem(self.name, error))
            raise PluginError(error, plugin=self.name) from exc
        for dialect in registered:
            info = getattr(dialect, "info", None)
            if isinstance(info, DialectInfo):
                objects.setdefault(info.name, dialect)
        return objects


def _stub(record: _Record, lazy: _Lazy) -> Any:
    """A stand-in plugin whose ``register_dialects`` registers the indexed dialects."""
    pending: list[Any] = [Pending(d.info, d.supports, lazy.get) for d in record.dialects]
    pending.extend(r.model() for r in record.models)

    def register_dialects(register: Any) -> None:
        for p in pending:
            register(p)

    hookspecs.hookimpl(tryfirst=record.tryfirst, trylast=record.trylast)(register_dialects)
    # a bare module: pluggy looks at every name ``dir()`` gives, and a module has few
    stub = types.ModuleType(f"tooletta.plugins.stub.{lazy.name}")
    stub.register_dialects = register_dialects  # type: ignore[attr-defined]
    return stub


def load_plugins() -> _State:
    """Load built-ins and entry-point plugins once (from the index where it is current),
    then register every dialect."""
    global _state, _index
    state = _state
    if state is not None:  # loaded: no lock needed to read it
        return state
    with _lock:
        if _state is not None:
            return _state
        loaded_at = time.time_ns()
        path = cache_path()
        index = _index = _read_index(path, _stamp())
        dirty = index.plugins == {} or index.entry_points is None
        if index.metapackage is None:
            index.metapackage = tuple(sorted(metapackage_dependencies()))
            dirty = True
        else:
            remember_metapackage(index.metapackage)
        pm = _new_manager()
        plugins: list[PluginInfo] = []
        registry = Registry()
        fresh: dict[str, tuple[str, str]] = {}  # plugins imported now: index key, module
        stubs: set[str] = set()  # plugins registered from the index
        if index.core_version is None:
            index.core_version = _version(_CORE_DIST)
            dirty = True

        def add(name: str, value: str, dist: str | None, version: str | None, load: Any) -> None:
            info = PluginInfo(name, value, dist, version)
            plugins.append(info)
            key = _key(name, value, dist, version)
            record = index.plugins.get(key)
            if record is not None and _record_current(record):
                pm.register(_stub(record, _Lazy(name, load, registry)), name=name)
                info.hooks = list(record.hooks)
                stubs.add(name)
                return
            try:
                module = load()
                if pm.is_registered(module) or pm.has_plugin(name):
                    return
                pm.register(module, name=name)
            except CONTAINED as exc:  # fail-soft: record and go on
                info.error = f"{type(exc).__name__}: {exc}"
                registry.problems.append(Problem(name, f"failed to load: {info.error}"))
                return
            if dist is not None:
                fresh[name] = (key, value)

        for modname in DEFAULT_PLUGINS:
            add(
                modname,
                modname,
                _CORE_DIST,
                index.core_version,
                lambda m=modname: importlib.import_module(m),
            )
        pm.register(_ModelFallback(registry), name="tooletta.model-patterns")
        only = _names("TOOLETTA_LOAD_PLUGINS")
        disabled = _names("TOOLETTA_DISABLE_PLUGINS") or set()
        named: set[str] = set()
        # entry points by name; of two with one name, the first-party one first (the other
        # is loaded as "name[distribution]", never skipped, so it cannot take the first's place)
        for ep in sorted(_entry_points(), key=_load_order):
            dist, version = _dist_of(ep)
            if only is not None and not _matches(only, ep.name, dist):
                continue
            if _matches(disabled, ep.name, dist):
                pm.set_blocked(ep.name)
                continue
            name = ep.name if ep.name not in named else f"{ep.name}[{dist}]"
            named.add(name)
            add(name, ep.value, dist, version, ep.load)
        attempts: dict[str, list[Any]] = {}
        _register_all(pm, registry, plugins, attempts)
        _probe_model_hooks(
            pm, registry, {p.name for p in plugins if is_first_party(p.distribution)}
        )
        _report_problems(plugins, registry)
        for info in plugins:
            plugin = pm.get_plugin(info.name)
            if plugin is not None and info.name not in stubs:
                info.hooks = sorted(
                    h.name for h in pm.get_hookcallers(plugin) or () if h.name != "__"
                )
        for name, (key, value) in fresh.items():
            record = _record_of(pm, registry, name, value, attempts.get(name), loaded_at)
            if record is not None:
                index.plugins[key] = record
                dirty = True
        if dirty or index.entry_points is None:
            _write_index(path, index)
        _state = _State(pm, registry, plugins)
        return _state


def _record_of(
    pm: pluggy.PluginManager,
    registry: Registry,
    name: str,
    module_name: str,
    attempted: list[Any] | None,
    loaded_at: int,
) -> _Record | None:
    """The index record of a plugin just imported (at ``loaded_at``, see
    :func:`_module_files`), or ``None`` when it cannot be indexed."""
    plugin = pm.get_plugin(name)
    if plugin is None or attempted is None or _RAISED in attempted:
        return None
    hooks = tuple(sorted(h.name for h in pm.get_hookcallers(plugin) or () if h.name != "__"))
    if not set(hooks) <= _INDEXABLE_HOOKS:
        return None
    impls = [i for i in pm.hook.register_dialects.get_hookimpls() if i.plugin_name == name]
    if len(impls) != 1 or impls[0].hookwrapper or getattr(impls[0], "wrapper", False):
        return None
    dialects = []
    rows = []
    for obj in attempted:
        if isinstance(obj, Model):
            rows.append(_Row.of(obj))
            continue
        info = getattr(obj, "info", None)
        if not isinstance(info, DialectInfo) or type(obj) is Pending:
            return None
        if not all(callable(getattr(obj, a, None)) for a in ("parse", "render")):
            return None
        dialects.append(_Dialect(info, supports_of(obj)))
    files = _module_files(module_name.partition(":")[0].strip(), loaded_at)
    if not files:
        return None
    return _Record(hooks, impls[0].tryfirst, impls[0].trylast, tuple(dialects), files, tuple(rows))


def _probe_model_hooks(
    pm: pluggy.PluginManager, registry: Registry, first_party: set[str], only: Any = None
) -> None:
    """Ask the third-party ``dialect_for_model`` hooks (those of ``only``, when given)
    whether they claim first-party model ids (:func:`tooletta.claims.probe_hook_claims`)."""
    for impl in pm.hook.dialect_for_model.get_hookimpls():
        name = impl.plugin_name
        if name in first_party or name == "tooletta.model-patterns":
            continue
        if only is not None and impl.plugin is not only:
            continue

        def ask(model: str, _impl: Any = impl) -> object:
            return _impl.function(*[{"model": model}[a] for a in _impl.argnames])

        probe_hook_claims(registry, name, ask)


class _ModelFallback:
    """Answers ``dialect_for_model`` from the dialects' declared ``models`` patterns, last."""

    def __init__(self, registry: Registry):
        self._registry = registry

    @hookspecs.hookimpl(trylast=True)
    def dialect_for_model(self, model: str) -> str | None:
        """The dialect whose ``models`` patterns match ``model``."""
        return self._registry.for_model(model)


def _register_all(
    pm: pluggy.PluginManager,
    registry: Registry,
    plugins: list[PluginInfo],
    attempts: dict[str, list[Any]] | None = None,
) -> None:
    """Call every ``register_dialects`` hook, then register what they gave in the order of
    :func:`tooletta.precedence.register_in_order` (first-party names win; the clash is filed
    against the other plugin). ``attempts`` collects what each plugin registered (also what
    was refused), by plugin name."""
    found: list[tuple[str, Any]] = []
    for impl in pm.hook.register_dialects.get_hookimpls():
        name = impl.plugin_name
        tried = attempts.setdefault(name, []) if attempts is not None else None

        def register(dialect: Any, _name: str = name, _tried: list[Any] | None = tried) -> None:
            if _tried is not None:
                _tried.append(dialect)
            found.append((_name, dialect))

        try:
            impl.function(*[{"register": register}[a] for a in impl.argnames])
        except CONTAINED as exc:  # a plugin that raises while registering is isolated
            if tried is not None:
                tried.append(_RAISED)
            registry.problems.append(
                Problem(name, f"register_dialects raised {type(exc).__name__}: {exc}")
            )
    for name in {p for p, _ in found}:
        derive_models(d for p, d in found if p == name)
    distributions = {p.name: p.distribution for p in plugins}
    rows = [(p, r) for p, r in found if isinstance(r, Model)]
    register_in_order(
        registry,
        [(p, d) for p, d in found if not isinstance(d, Model)],
        {p.name: p.version for p in plugins},
        distributions,
    )
    for plugin, row in sorted(rows, key=lambda pr: not is_first_party(distributions.get(pr[0]))):
        registry.add_model(row, plugin, is_first_party(distributions.get(plugin)))
    check_model_claims(registry)


def _report_problems(plugins: list[PluginInfo], registry: Registry) -> None:
    """Give each plugin that loaded but had a registration problem (a raising hook, a name
    taken by another plugin) that problem as its ``error``, for ``list-dialects --plugins``."""
    found: dict[str, list[str]] = {}
    for problem in registry.problems:
        found.setdefault(problem.plugin, []).append(problem.error)
    for info in plugins:
        if info.error is None and info.name in found:
            info.error = "; ".join(found[info.name])


def _version(dist: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def get_registry() -> Registry:
    """The registry of every loaded dialect (loading plugins on first use)."""
    state = _state  # loaded: one call less on every parse
    return (state if state is not None else load_plugins()).registry


def get_plugin_manager() -> pluggy.PluginManager:
    """The pluggy manager (loading plugins on first use)."""
    return load_plugins().pm


def get_plugins() -> list[PluginInfo]:
    """Every plugin seen, with its hooks, version and load error if any."""
    return load_plugins().plugins


def register_module(module: types.ModuleType | Any, name: str | None = None) -> None:
    """Register a plugin object (module or instance with hook implementations) in-process."""
    state = load_plugins()
    plugin_name = name or getattr(module, "__name__", None) or repr(module)
    state.pm.register(module, name=plugin_name)
    info = PluginInfo(plugin_name, plugin_name)
    state.plugins.append(info)
    _probe_model_hooks(state.pm, state.registry, set(), only=module)
    impls = [i for i in state.pm.hook.register_dialects.get_hookimpls() if i.plugin is module]
    for impl in impls:
        registered: list[Any] = []
        try:
            impl.function(*[{"register": registered.append}[a] for a in impl.argnames])
        finally:  # what was registered before a hook raised stays registered, as it did
            derive_models(registered)
            for dialect in registered:
                if isinstance(dialect, Model):
                    state.registry.add_model(dialect, plugin_name)
                    check_model_claims(state.registry)
                else:
                    state.registry.add(dialect, plugin_name)
                    if dialect.info.models:
                        check_model_claims(state.registry)


def reset() -> None:
    """Forget everything loaded (tests use this after changing the environment)."""
    global _state
    with _lock:
        _state = None


if TYPE_CHECKING:  # the entry points plugin loading accepts
    _AnyEntryPoint = _EntryPoint | metadata.EntryPoint
