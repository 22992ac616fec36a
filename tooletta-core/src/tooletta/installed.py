"""What the installed first-party plugins register: the source of the generated tables of
:mod:`tooletta.firstparty`.

:mod:`tooletta.firstparty` answers from its static tables without loading any plugin (the
registry asks it when a name is unknown, so it imports nothing of core); these functions read
the live plugin registry instead. ``scripts/gen_firstparty.py`` writes their answers into
the tables and ``tests/test_firstparty.py`` checks that the two agree.
"""

from __future__ import annotations

from .plugins import get_plugins, get_registry
from .precedence import is_first_party
from .registry import normalize_name

__all__ = ["installed_model_table", "installed_table"]


def installed_table() -> dict[str, str]:
    """The dialect table as the installed plugins give it (the source of
    :data:`tooletta.firstparty.DIALECT_DISTRIBUTIONS`): every name and alias of every dialect a
    first-party dialect distribution registers -> that distribution."""
    dists = {p.name: p.distribution for p in get_plugins()}
    table: dict[str, str] = {}
    for entry in get_registry().entries:
        dist = dists.get(entry.plugin)
        if dist is None or dist == "tooletta-core" or not is_first_party(dist):
            continue
        for name in (entry.info.name, *entry.info.aliases):
            table[normalize_name(name)] = dist
    return table


def installed_model_table() -> dict[str, str]:
    """Every model-id pattern of the rows first-party dialect distributions register -> that
    distribution (the source of ``tooletta.firstparty.MODEL_DISTRIBUTIONS``)."""
    dists = {p.name: p.distribution for p in get_plugins()}
    table: dict[str, str] = {}
    for entry in get_registry().model_entries():
        dist = dists.get(entry.plugin)
        if dist is None or dist == "tooletta-core" or not is_first_party(dist):
            continue
        for pattern in entry.row.patterns:
            table.setdefault(pattern.lower(), dist)
    return table
