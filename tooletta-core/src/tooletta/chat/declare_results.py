"""A declaration of how a template writes a tool result's content, with its reader (see
:mod:`tooletta.chat.declare` for the others): :class:`JsonResults`, the content through the
template's ``tojson`` (Llama 3.x and Llama 4 write ``message.content | tojson``), so that a
text result is a JSON string literal.

A format sets it as the class attribute ``result_json``; the default
:meth:`~tooletta.chat.ChatFormat.result_text`, :meth:`~tooletta.chat.ChatFormat.parse_result`
and :meth:`~tooletta.chat.ChatFormat.expressible` read it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..errors import RenderError
from ..jsonout import to_json
from .messages import text_of

__all__ = ["JsonResults"]


@dataclass(frozen=True)
class JsonResults:
    """Tool results written through the template's ``tojson``: a text result as a JSON string
    literal, a list of content parts as the JSON of that list (strings and lists are both
    iterable in Jinja, so the template writes the list itself), any other content as its text
    (none: empty) in a JSON string.

    The reader decodes a JSON string literal back into its text and gives any other body as
    written (a list's JSON reads back as that JSON text, which is what the text carries of
    such a result: :meth:`carried`). :attr:`~tooletta.chat.ChatFormat.trim` does not apply
    to the content (the template writes it whole).
    """

    def write(self, content: Any) -> str:
        """The content as ``tojson`` writes it; a list that is no JSON is refused
        (:class:`~tooletta.RenderError`)."""
        if type(content) is str:
            return to_json(content)  # a string is always JSON
        try:
            return to_json(content if isinstance(content, list) else text_of(content))
        except RenderError as exc:
            raise RenderError(f"tool result is not JSON: {exc}") from None

    def read(self, body: str) -> str:
        """The text of a JSON string literal :meth:`write` wrote; any other body as it is."""
        try:
            value = json.loads(body)
        except (ValueError, RecursionError):
            return body
        return value if isinstance(value, str) else body

    def carried(self, content: Any, text: str) -> str:
        """What the text carries of a result whose content is ``content`` (``text``: its
        text): the text itself, or for a list of parts the JSON it is written as."""
        if type(content) is str or not isinstance(content, list):
            return text
        return self.read(self.write(content))
