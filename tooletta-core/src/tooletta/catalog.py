"""The model catalog: the one owner of every lookup by dialect name and by model id.

Plugins declare their models as :class:`~tooletta.rows.Model` rows (:mod:`tooletta.rows`)
and register them through the ``register`` callable of ``register_dialects``, beside their
dialects. This module answers from them:

* :func:`tooletta.get_dialect` and :func:`tooletta.list_dialects`: the dialects by name;
* :func:`tooletta.dialect_for_model` and :func:`dialects_for_model`: the dialect(s) a model
  id writes (the longest matching row pattern; first-party rows first, see :mod:`tooletta.claims`);
* :func:`~tooletta.catalog.resolve`: ``(dialect object, conversation format)`` for a model
  id, a dialect or format name, or a chat template;
* :func:`tooletta.chat.chat_formats_of`: a dialect object's conversation formats.

It sits below :mod:`tooletta.chat`, :mod:`tooletta.training` and ``tooletta.api`` and
imports none of them (the conversation format type only for type checking).

**Templates.** ``resolve(template=...)`` asks the resolver installed with
:func:`set_template_resolver` (the chat-template identification of :mod:`tooletta.chat`
installs itself there), so the catalog needs no Jinja and no import upward.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .claims import report_hook_claim
from .errors import PluginError, ToolettaError, UnknownDialectError, UnverifiedModelWarning
from .ir import DialectInfo
from .plugins import CONTAINED, get_plugin_manager, get_plugins, get_registry
from .precedence import is_first_party
from .registry import ModelEntry, format_check, normalize_name
from .rows import Model, name_only_claim, pattern_score, patterns_of

if TYPE_CHECKING:
    from .chat.format import ChatFormat

__all__ = [
    "Model",
    "TemplateResolver",
    "chat_formats_of",
    "dialect_for_model",
    "dialects_for_model",
    "find_format",
    "get_dialect",
    "list_dialects",
    "model_row",
    "patterns_of",
    "resolve",
    "resolve_format",
    "set_template_resolver",
    "unverified_claim",
]

_FALLBACK_PLUGIN = "tooletta.model-patterns"
"""The plugin name of the pattern fallback :mod:`tooletta.plugins` registers for the hook."""


def get_dialect(name: str) -> Any:
    """The dialect object registered under ``name`` or an alias (case-insensitive, ``-``=``_``).

    Raises :class:`~tooletta.UnknownDialectError` when there is none.
    """
    return get_registry().get(name).dialect


def list_dialects() -> list[DialectInfo]:
    """Every installed dialect's info, in detection order (priority, then name)."""
    return [e.info for e in get_registry().ordered()]


def chat_formats_of(dialect: Any) -> tuple[ChatFormat, ...]:
    """The chat formats a dialect object declares (its ``chat_formats``), first the default."""
    formats = getattr(dialect, "chat_formats", ())
    return tuple(f() if isinstance(f, type) else f for f in formats)


def _ask(impl: Any, model: str) -> str | None:
    """One ``dialect_for_model`` hook's answer, checked."""
    try:
        answer = impl.function(*[{"model": model}[a] for a in impl.argnames])
    except ToolettaError:
        raise
    except CONTAINED as exc:  # SystemExit too: a plugin's sys.exit() must not end the caller
        raise PluginError(
            f"dialect_for_model raised {type(exc).__name__}: {exc}", plugin=impl.plugin_name
        ) from exc
    if answer is not None and not isinstance(answer, str):
        raise PluginError(
            f"dialect_for_model returned a {type(answer).__name__}, not a str or None",
            plugin=impl.plugin_name,
        )
    return answer


def _first_party_plugins() -> set[str]:
    return {p.name for p in get_plugins() if is_first_party(p.distribution)}


def unknown_model(model: str) -> str:
    """The message for a model id no installed plugin knows: the first-party plugin whose rows
    claim it, installed or not (:func:`tooletta.firstparty.unknown_model_message`)."""
    from .firstparty import unknown_model_message

    return unknown_model_message(model, get_registry().problems)


def model_row(model: str) -> ModelEntry | None:
    """The registered row for ``model`` (see :func:`tooletta.dialect_for_model`), or ``None`` when a
    hook answers instead of a row or nothing knows the model."""
    if not isinstance(model, str):
        raise ToolettaError(f"a model id is text, not {type(model).__name__}")
    registry = get_registry()
    owner = registry.best_model(model, first_party=True)
    return owner if owner is not None else registry.best_model(model, first_party=False)


def dialect_for_model(model_id: str) -> str | None:
    """The dialect a model emits; ``None`` when unknown.

    A first-party row (or ``dialect_for_model`` hook) matching the id decides; otherwise
    the plugins' ``dialect_for_model`` hooks are asked, then the other rows (and
    ``DialectInfo.models`` patterns) are matched, the longest pattern winning. A third-party
    hook answering another dialect for an id a first-party row holds is reported
    (:mod:`tooletta.claims`), not followed.
    """
    if not isinstance(model_id, str):
        raise ToolettaError(f"a model id is text, not {type(model_id).__name__}")
    registry = get_registry()
    owner = registry.best_model(model_id, first_party=True)
    impls = [
        i
        for i in reversed(get_plugin_manager().hook.dialect_for_model.get_hookimpls())
        if i.plugin_name != _FALLBACK_PLUGIN
    ]
    first = _first_party_plugins() if impls else set()
    for impl in impls:
        answer = _ask(impl, model_id)
        if answer is None:
            continue
        if owner is None or impl.plugin_name in first:
            return answer
        report_hook_claim(registry, impl.plugin_name, model_id, answer, owner)
    if owner is None:
        owner = registry.best_model(model_id, first_party=False)
    return owner.row.dialect if owner is not None else None


def dialects_for_model(model_id: str) -> tuple[str, ...]:
    """Every dialect the model is known to write, the default (:func:`tooletta.dialect_for_model`)
    first; ``()`` when unknown."""
    name = dialect_for_model(model_id)
    if name is None:
        return ()
    entry = model_row(model_id)
    if entry is None or normalize_name(entry.row.dialect) != normalize_name(name):
        return (name,)
    return entry.row.dialects


TemplateResolver = Callable[[str, str | None, str | None], "tuple[Any, ChatFormat] | None"]
"""``resolver(template, model, dialect)``: the ``(dialect object, conversation format)`` that
reproduces the chat template ``template`` (Jinja text), or ``None`` when none does."""

_template_resolver: TemplateResolver | None = None


def set_template_resolver(resolver: TemplateResolver | None) -> None:
    """Install the function :func:`~tooletta.catalog.resolve` asks for a ``template``
    (``None``: remove it). The chat-template identification of :mod:`tooletta.chat` installs
    itself here."""
    global _template_resolver
    _template_resolver = resolver


def resolve(
    model: str | None = None, dialect: str | None = None, *, template: str | None = None
) -> tuple[Any, ChatFormat]:
    """The dialect object and the conversation format for a model id, a dialect (or
    format) name, or a chat template (Jinja text, through :func:`set_template_resolver`'s
    resolver; it wins over ``model``).

    Raises :class:`~tooletta.UnknownDialectError` or :class:`~tooletta.ToolettaError` when
    nothing fits (the message says what to pass instead).
    """
    if template is not None:
        resolver = _template_resolver
        if resolver is None:
            raise ToolettaError(
                "no chat template resolver is installed (tooletta.chat.identify installs one)"
            )
        found = resolver(template, model, dialect)
        if found is None:
            raise ToolettaError("no installed conversation format reproduces that template")
        return found
    fmt, obj = resolve_format(model, dialect)
    return obj, fmt


_CACHE: dict[tuple[Any, ...], tuple[ChatFormat, Any, str | None]] = {}
_WARNED: set[tuple[Any, ...]] = set()
"""The keys of :data:`_CACHE` whose name-only claim was warned of: once per model id (and
registry state) in a process, not once per conversation of a dataset."""


def resolve_format(
    model: str | None, dialect: str | None, *, warn: bool = True
) -> tuple[ChatFormat, Any]:
    """:func:`~tooletta.catalog.find_format`, remembered per (model, dialect) while the
    registry is unchanged (a dataset renders thousands of conversations for one model).

    A model id with an organisation that the rows claim by its name alone (``unsloth/Qwen3-8B``
    by the pattern ``qwen3-8b``: a re-upload or fine-tune whose own template nobody checked)
    gets its format with a :class:`~tooletta.UnverifiedModelWarning` saying so, once per id
    in a process (a dataset of a million rows gets one), unless ``warn`` is false (the caller
    checks the model's template itself)."""
    registry = get_registry()
    key = (model, dialect, registry.serial, len(registry.entries), len(registry.models))
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) > 256:
            _CACHE.clear()
        found = _CACHE[key] = _find(model, dialect)
    fmt, obj, claim = found
    if claim is not None and warn and key not in _WARNED:
        if len(_WARNED) > 256:
            _WARNED.clear()
        _WARNED.add(key)
        warnings.warn(
            f"{model!r} is claimed by its name only (the pattern {claim!r} of the chat format "
            f"{fmt.name!r}); the template of that repository was not checked against the "
            "format: pass chat_template= or tokenizer= to check it (a template the format does "
            "not reproduce raises TemplateMismatchError)",
            UnverifiedModelWarning,
            stacklevel=3,
        )
    return fmt, obj


def unverified_claim(model: str) -> str | None:
    """The pattern by which the rows claim ``model`` by its name only, the one
    :func:`resolve_format` warns of (:class:`~tooletta.UnverifiedModelWarning`), or ``None``
    (the id is the vendor's, has no organisation, or no format is known for it)."""
    try:
        return _find(model, None)[2]
    except ToolettaError:
        return None


def find_format(model: str | None, dialect: str | None) -> tuple[ChatFormat, Any]:
    """The chat format and the dialect object for ``model`` (an HF model id) or ``dialect``
    (a dialect name or alias, or a chat format's name).

    With a model id, the dialect is :func:`tooletta.dialect_for_model`'s answer (unless
    ``dialect`` is given) and, among its formats, the one the rows (or the format's own ``models``
    patterns) give the model; a model id whose dialect declares formats but none for that
    model is refused rather than given another model's template. With a name, a format of
    that name, else the dialect's first (default) format.
    Raises :class:`~tooletta.UnknownDialectError` or :class:`~tooletta.ToolettaError` when
    nothing fits (the message says to pass ``chat_template=``).
    """
    fmt, obj, _ = _find(model, dialect)
    return fmt, obj


def _find(model: str | None, dialect: str | None) -> tuple[ChatFormat, Any, str | None]:
    """:func:`find_format`, and the pattern claiming ``model`` by its name only when the model
    alone chose the format (:func:`~tooletta.rows.name_only_claim`; else ``None``)."""
    name = dialect
    if name is None:
        if model is None:
            raise ToolettaError("give model= or dialect= (or chat_template=)")
        name = dialect_for_model(model)
        if name is None:
            raise UnknownDialectError(unknown_model(model))
    try:
        entry = get_registry().get(name)
    except UnknownDialectError:
        if model is not None:
            raise
        return (*_format_named(name), None)
    obj = entry.dialect
    formats = _formats_of_entry(entry, strict=True)
    if not formats:
        raise ToolettaError(
            f"dialect {obj.info.name!r} declares no chat format yet; pass chat_template= "
            "(the model's Jinja template) to render its conversations"
        )
    if model is not None:
        found = _format_for(model, obj.info.name, formats)
        if found is not None:
            index, patterns = found
            claim = name_only_claim(model, patterns) if dialect is None else None
            return formats[index], obj, claim
        if dialect is None:  # the model picked the dialect, but none of its templates
            known = ", ".join(f.name for f in formats)
            raise ToolettaError(
                f"no chat format of {obj.info.name!r} is known to be the template of "
                f"{model!r} (known: {known}); pass dialect=<one of them> if it is, or "
                "chat_template= (the model's own Jinja template)"
            )
    wanted = normalize_name(name)
    for fmt in formats:
        if normalize_name(fmt.name) == wanted:
            return fmt, obj, None
    return formats[0], obj, None


def _format_for(
    model: str, dialect: str, formats: tuple[ChatFormat, ...]
) -> tuple[int, tuple[str, ...]] | None:
    """The index of the format the rows naming ``dialect`` (or the formats' own ``models``)
    give ``model`` (the longest matching pattern, the first format on a tie), with that
    format's patterns."""
    by_name: dict[str, list[str]] = {}
    key = normalize_name(dialect)
    for entry in get_registry().models:
        row = entry.row
        if row.chat_name is not None and any(normalize_name(d) == key for d in row.dialects):
            by_name.setdefault(row.chat_name, []).extend(row.patterns)
    best, found = -1, None
    for i, fmt in enumerate(formats):
        patterns = (*fmt.models, *by_name.get(fmt.name, ()))
        score = pattern_score(model, patterns)
        if score > best:
            best, found = score, (i, patterns)
    return found


def _format_named(name: str) -> tuple[ChatFormat, Any]:
    """A chat format found by its own name among every installed dialect's formats."""
    wanted = normalize_name(name)
    for entry in get_registry().ordered():
        for fmt in _formats_of_entry(entry, strict=False):
            if normalize_name(fmt.name) == wanted:
                return fmt, entry.dialect
    raise UnknownDialectError(f"no dialect or chat format is named {name!r}")


def _formats_of_entry(entry: Any, *, strict: bool) -> tuple[ChatFormat, ...]:
    """The chat formats of a registered dialect: a first party's as declared, a third
    party's checked (a :class:`~tooletta.PluginError` naming the plugin when ``strict``, else
    none) and guarded so that its hooks' faults are plugin errors."""
    obj = entry.dialect
    if entry.first_party:
        return chat_formats_of(obj)
    if not getattr(obj, "chat_formats", None):
        return ()
    problem, wrap = format_check(obj, entry.plugin)
    if problem is not None or wrap is None:
        if strict:
            raise PluginError(str(problem), plugin=entry.plugin)
        return ()
    return tuple(wrap(f) for f in chat_formats_of(obj))
