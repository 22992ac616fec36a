"""Where a candidate's render parts from the template's: the :class:`NearMiss` report."""

from __future__ import annotations

from .result import NearMiss

_SNIPPET = 40


def _near(name: str, probe: str, expected: str, native: str, matched: int) -> NearMiss:
    at = _common_prefix(expected, native)
    start = max(0, at - _SNIPPET // 2)
    return NearMiss(
        name,
        probe,
        at,
        expected[start : at + _SNIPPET],
        native[start : at + _SNIPPET],
        matched,
    )


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix of ``a`` and ``b``: the offset of their first
    differing character, or the shorter one's length (a binary search comparing slices, not
    a loop over the characters: renders share thousands of characters before they part)."""
    low, high = 0, min(len(a), len(b))  # a[:low] == b[:low]; the prefix is at most high
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low
