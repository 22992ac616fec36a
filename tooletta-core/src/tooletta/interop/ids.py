"""Id policies per target, applied to a whole conversation so results follow their calls.

The public home of ``tooletta.shapes.ids``, which holds the code below the
conversation layer (:mod:`tooletta.chat` reads these shapes without importing interop)."""

from __future__ import annotations

from ..shapes.ids import (
    ID_POLICIES,
    IdMapper,
    IdPolicy,
    adopt_result_ids,
    ensure_ids,
    map_ids,
)

__all__ = [
    "ID_POLICIES",
    "IdMapper",
    "IdPolicy",
    "adopt_result_ids",
    "ensure_ids",
    "map_ids",
]
