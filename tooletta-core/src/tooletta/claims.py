"""Model-id claims between plugins: a first-party row keeps its model ids.

A third-party plugin may declare model patterns (:class:`~tooletta.rows.Model` rows, its
dialects' ``DialectInfo.models``) or answer the ``dialect_for_model`` hook. Where it claims a
model id that a first-party row claims, for another dialect, the first-party row wins (as a
first-party plugin keeps its dialect names, :mod:`tooletta.precedence`), and the clash is not
silent: it is a :class:`~tooletta.registry.Problem` of the third-party plugin (``tooletta
list-dialects`` shows it) and a :class:`~tooletta.ToolettaWarning` naming both sides.

Patterns are compared when plugins load: two patterns clash when either, read as a model id,
matches the other (``qwen/qwen3-*`` and ``qwen/qwen3-coder*``). A hook's answers are compared
when a model id is looked up (:func:`report_hook_claim`).
"""

from __future__ import annotations

import fnmatch
import warnings

from .errors import ToolettaWarning
from .registry import ModelEntry, Problem, Registry, normalize_name

__all__ = ["check_model_claims", "patterns_overlap", "report_hook_claim"]


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
    an id the first-party row ``owner`` claims for another dialect (which it keeps)."""
    if _same(answer, owner.row.dialect):
        return
    head = (
        f"dialect_for_model of {plugin} answers {answer!r} for model ids of the first-party "
        f"row {owner.row.patterns[0]!r} ({owner.plugin}, dialect {owner.row.dialect!r})"
    )
    _report(registry, plugin, f"{head}, such as {model!r}; the first-party row keeps them", head)
