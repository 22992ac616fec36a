"""Writing JSON values in the bracketed literal syntaxes some formats use instead of JSON:
Python literals (pythonic calls), Gemma's ``key:value`` syntax."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..errors import RenderError

__all__ = ["write_literal"]


def write_literal(
    value: Any,
    string: Callable[[str], str],
    key: Callable[[str], str],
    *,
    words: tuple[str, str, str] = ("true", "false", "null"),
    comma: str = ", ",
    colon: str = ": ",
    sort: Callable[[str], Any] | None = None,
) -> str:
    """``value`` (JSON data) in a bracketed literal syntax: lists (and tuples) in ``[...]``,
    mappings in ``{...}``, items joined by ``comma`` and each key and its value by ``colon``.

    ``string`` writes a string value and ``key`` a mapping key; ``words`` spell true, false
    and null; numbers are Python's ``str``/``repr``. With ``sort`` (a sort key for the keys),
    each mapping's keys are written in that order, else in their own.

    Raises :class:`~tooletta.RenderError` (a ``ValueError``) for what has no literal: a
    non-finite float, a key that is not a string, any other type.
    """
    if value is None:
        return words[2]
    if value is True:
        return words[0]
    if value is False:
        return words[1]
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise RenderError(f"{value!r} has no literal")
        return repr(value)
    if isinstance(value, str):
        return string(value)

    def inner(v: Any) -> str:
        return write_literal(v, string, key, words=words, comma=comma, colon=colon, sort=sort)

    if isinstance(value, (list, tuple)):
        return "[" + comma.join(inner(v) for v in value) + "]"
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise RenderError("mapping keys must be strings")
        keys = sorted(value, key=sort) if sort is not None else list(value)
        return "{" + comma.join(f"{key(k)}{colon}{inner(value[k])}" for k in keys) + "}"
    raise RenderError(f"cannot write {type(value).__name__} as a literal")
