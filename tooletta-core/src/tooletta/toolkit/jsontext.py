"""Short JSON strings written without the JSON encoder: call names and ids, per call."""

from __future__ import annotations

from ..jsonout import to_json

__all__ = ["json_string"]


def json_string(text: str) -> str:
    """``to_json(text)`` for a string: an identifier or a run of digits (a call's name, a
    numbered id) is its own JSON string body (no quote, backslash or control character), so
    it is only quoted; any other string goes through :func:`~tooletta.to_json`."""
    if type(text) is str and (text.isidentifier() or text.isdigit()):
        return '"' + text + '"'
    return to_json(text)
