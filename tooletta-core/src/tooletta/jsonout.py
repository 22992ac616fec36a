"""JSON as chat templates write it (:func:`tooletta.to_json`) and what a decoded JSON value is
in JSON's words (``json_type``, for error messages): a leaf every floor may import.

Re-exported by ``tooletta.dialect`` and :mod:`tooletta` (``tooletta.to_json``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .errors import RenderError

__all__ = ["json_type", "to_json"]


def _not_json(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _json_writer() -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=False, allow_nan=False)`` without its per-call cost.

    ``JSONEncoder.encode`` builds the C encoder again for every value (~0.8 µs of a ~1.3 µs
    small dict): the C encoder is built once here, without the circular-reference markers (a
    cyclic value recurses until ``RecursionError``, which :func:`to_json` reports as too
    deeply nested). Python without the C accelerator keeps the pure-Python encoder.
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    basestring = getattr(json.encoder, "c_encode_basestring", None)
    if make is None or basestring is None:  # pragma: no cover - CPython has both
        encoder: Callable[[Any], str] = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
        return encoder
    chunks = make(None, _not_json, basestring, None, ": ", ", ", False, False, False)
    join = "".join
    write_str = basestring

    def encode(value: Any) -> str:
        if type(value) is str:
            return str(write_str(value))
        return join(chunks(value, 0))

    vars(encode).update(chunks=chunks, write_str=write_str)  # for to_json's inline copy
    return encode


_ENCODE: Callable[[Any], str] = _json_writer()
"""One encoder for every call, refusing NaN and infinities."""
_CHUNKS: Any = getattr(_ENCODE, "chunks", None)
"""The C encoder :data:`_ENCODE` runs (``None``: Python without the C accelerator)."""
_WRITE_STR: Any = getattr(_ENCODE, "write_str", None)
_JOIN = "".join


def to_json(value: Any) -> str:
    """JSON as chat templates write it (``tojson``): ``", "``/``": "`` separators, UTF-8 kept.

    Raises :class:`~tooletta.RenderError` for values nested too deeply to write (or read
    back), for NaN and infinities (JSON has no spelling for them: Python's ``NaN`` and
    ``Infinity`` are not JSON) and for values that are not JSON.
    """
    try:
        if _CHUNKS is None:  # pragma: no cover - CPython has the C encoder
            return _ENCODE(value)
        if type(value) is str:  # _ENCODE's body inline: one Python call per value, not two
            return str(_WRITE_STR(value))
        return _JOIN(_CHUNKS(value, 0))
    except RecursionError:
        raise RenderError("arguments are nested too deeply to write") from None
    except (TypeError, ValueError) as exc:
        raise RenderError(f"arguments are not JSON: {exc}") from None


def json_type(value: Any) -> str:
    """What a decoded JSON value is, in JSON's words ("a number", "null", ...); any other
    value by its Python type's name."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
