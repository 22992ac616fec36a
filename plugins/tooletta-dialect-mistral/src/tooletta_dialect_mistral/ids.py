"""The call ids Mistral formats write: exactly 9 of ``[A-Za-z0-9]``, derived when missing."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from tooletta import ToolCall, to_json
from tooletta.plugin import mistral_id

__all__ = ["with_written_ids", "written_id"]


def written_id(call: ToolCall, position: int) -> str:
    """The id a Mistral template writes for ``call``, the ``position``-th call of its turn:
    its own id when valid, else one derived stably from it (or, for a call without an id,
    from its position, name and arguments) by :func:`tooletta.toolkit.mistral_id`."""
    ident = call.id
    if ident is not None:  # kept, or derived from the id alone: the seed is not read
        if len(ident) == 9 and ident.isascii() and ident.isalnum():  # valid: kept as it is
            return ident
        return mistral_id(ident, "")
    return mistral_id(None, f"{position}:{call.name}:{to_json(call.arguments)}")


def with_written_ids(calls: Sequence[ToolCall]) -> list[ToolCall]:
    """``calls`` with the ids :func:`written_id` gives them (a new list)."""
    for c in calls:  # most calls carry a valid id: the same calls then
        ident = c.id
        if ident is None or not (len(ident) == 9 and ident.isascii() and ident.isalnum()):
            break
    else:
        return list(calls)
    out = []
    for i, c in enumerate(calls):
        written = written_id(c, i)
        out.append(c if written == c.id else msgspec.structs.replace(c, id=written))
    return out
