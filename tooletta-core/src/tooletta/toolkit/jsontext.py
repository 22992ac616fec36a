"""JSON text a format writes: short strings without the encoder (call names and ids, per
call), and JSON that must not spell a marker of the format."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..jsonout import to_json

__all__ = ["json_string", "json_without"]


def json_string(text: str) -> str:
    """``to_json(text)`` for a string: an identifier or a run of digits (a call's name, a
    numbered id) is its own JSON string body (no quote, backslash or control character), so
    it is only quoted; any other string goes through :func:`~tooletta.to_json`."""
    if type(text) is str and (text.isidentifier() or text.isdigit()):
        return '"' + text + '"'
    return to_json(text)


def json_without(value: Any, markers: Iterable[str]) -> str:
    """``to_json(value)`` with every ``<`` written ``\\u003c`` when the text holds one of
    ``markers`` (tags and special tokens, each starting with ``<``: a closing tag the reader
    stops at, an end-of-turn token parsing removes). JSON has ``<`` only inside strings, so
    the escaped text decodes to the same value and spells none of them."""
    text = to_json(value)
    if "<" in text and any(m in text for m in markers):
        return text.replace("<", "\\u003c")
    return text
