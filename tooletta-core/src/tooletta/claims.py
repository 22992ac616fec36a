"""Model-id claims between plugins: a first-party row keeps its model ids.

A third-party plugin may declare model patterns (:class:`~tooletta.rows.Model` rows, its
dialects' ``DialectInfo.models``) or answer the ``dialect_for_model`` hook. Where it claims a
model id that a first-party row claims, for another dialect, the first-party row wins (as a
first-party plugin keeps its dialect names, :mod:`tooletta.precedence`), and the clash is not
silent: it is a :class:`~tooletta.registry.Problem` of the third-party plugin (``tooletta
list-dialects`` shows it) and a :class:`~tooletta.ToolettaWarning` naming both sides.

Patterns are compared when plugins load: two patterns clash when either, read as a model id,
matches the other (``qwen/qwen3-*`` and ``qwen/qwen3-coder*``). A hook is asked, when plugins
load, for the id each first-party pattern spells (:func:`probe_hook_claims`), and its
answers are compared again whenever a model id is looked up (:func:`report_hook_claim`).
"""

from __future__ import annotations

import fnmatch
import warnings
from collections.abc import Callable

from .errors import ToolettaWarning
from .registry import ModelEntry, Problem, Registry, normalize_name

__all__ = ["check_model_claims", "patterns_overlap", "probe_hook_claims", "report_hook_claim"]


def _claims(pattern: str, model: str) -> bool:
    """Whether ``pattern`` matches the id ``model`` as lookups match it."""
    return fnmatch.fnmatchcase(model, pattern) or fnmatch.fnmatchcase(
        model.rsplit("/", 1)[-1], pattern
    )


def patterns_overlap(a: str, b: str) -> bool:
    """True when one pattern, read as a model id, is claimed by the other (lower case)."""
    return _claims(a, b) or _claims(b, a)


def _report(registry: Registry, plugin: str, message: str, key: str | None = None) -> None:
    """File ``message`` against ``plugin`` once (once per problem starting with ``key``,
    when given), and warn."""
    head = message if key is None else key
    if any(p.plugin == plugin and p.error.startswith(head) for p in registry.problems):
        return
    registry.problems.append(Problem(plugin, message))
    warnings.warn(message, ToolettaWarning, stacklevel=3)


def _same(a: str, b: str) -> bool:
    return normalize_name(a) == normalize_name(b)


def check_model_claims(registry: Registry) -> None:
    """Report every third-party model pattern clashing with a first-party row's pattern."""
    entries = registry.model_entries()
    first = [e for e in entries if e.first_party]
    for other in entries:
        if other.first_party:
            continue
        for pattern in other.row.patterns:
            clash = _clash(first, pattern, other.row.dialect)
            if clash is not None:
                held, owner = clash
                _report(
                    registry,
                    other.plugin,
                    f"model pattern {pattern!r} ({other.plugin}, dialect "
                    f"{other.row.dialect!r}) claims model ids of the first-party pattern "
                    f"{held!r} ({owner.plugin}, dialect {owner.row.dialect!r}); the "
                    "first-party row keeps them",
                )


def _clash(first: list[ModelEntry], pattern: str, dialect: str) -> tuple[str, ModelEntry] | None:
    for entry in first:
        if _same(entry.row.dialect, dialect):
            continue
        for held in entry.row.patterns:
            if patterns_overlap(pattern, held):
                return held, entry
    return None


def report_hook_claim(
    registry: Registry, plugin: str, model: str, answer: str, owner: ModelEntry
) -> None:
    """Report a ``dialect_for_model`` hook of ``plugin`` answering ``answer`` for ``model``,
    an id the first-party row ``owner`` claims for another dialect (which it keeps). One
    problem per plugin: the first id found is the example."""
    if _same(answer, owner.row.dialect):
        return
    head = f"dialect_for_model of {plugin} answers other dialects for model ids of first-party rows"
    _report(
        registry,
        plugin,
        f"{head}, such as {answer!r} for {model!r} (row {owner.row.patterns[0]!r} of "
        f"{owner.plugin}, dialect {owner.row.dialect!r}); the first-party rows keep them",
        head,
    )


def probe_hook_claims(registry: Registry, plugin: str, ask: Callable[[str], object]) -> None:
    """Ask a third-party ``dialect_for_model`` hook (``ask(model)``) for the id each
    first-party pattern spells (``*`` and ``?`` read as ``x``), when plugins load, and report
    an answer naming another dialect (:func:`report_hook_claim`), so that ``tooletta
    list-dialects`` shows it before any lookup. A hook that raises or answers a non-text is
    left for the lookups to report."""
    for entry in registry.model_entries():
        if not entry.first_party:
            continue
        for pattern in entry.row.patterns:
            if "[" in pattern:
                continue
            model = pattern.replace("*", "x").replace("?", "x")
            try:
                answer = ask(model)
            except (Exception, SystemExit):  # a plugin's sys.exit() is its fault, not ours
                return
            owner = registry.best_model(model, first_party=True)
            if isinstance(answer, str) and owner is not None:
                report_hook_claim(registry, plugin, model, answer, owner)
                if not _same(answer, owner.row.dialect):
                    return
