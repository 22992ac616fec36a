"""Declarations of how a template writes tool results, with their readers (see
:mod:`tooletta.chat.declare` for the others): :class:`JsonResults`, the content through the
template's ``tojson`` (Llama 3.x and Llama 4 write ``message.content | tojson``), so that a
text result is a JSON string literal; and results joined by a separator with nothing closing
each, read back by the calls awaiting them
(:attr:`ChatFormat.results_by_calls <tooletta.chat.ChatFormat.results_by_calls>`: Nemotron Nano
v2's ``<TOOL_RESPONSE>[r1, r2]</TOOL_RESPONSE>``): :func:`split_by_calls`, the reader's split,
and :func:`pending_at_runs`, for the writer's check that a run of results splits back as
written.

A format sets it as the class attribute ``result_json``; the default
:meth:`~tooletta.chat.ChatFormat.result_text`, :meth:`~tooletta.chat.ChatFormat.parse_result`
and :meth:`~tooletta.chat.ChatFormat.expressible` read it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import RenderError
from ..ir import Message
from ..jsonout import to_json
from .messages import text_of

__all__ = ["JsonResults", "pending_at_runs", "split_by_calls"]

_DECODER = json.JSONDecoder()


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

    ensure_ascii: bool = False
    r"""Non-ASCII characters written as ``\uXXXX`` escapes (``tojson(ensure_ascii=True)``);
    by default they are written as they are, as Hugging Face's ``tojson`` does."""

    def write(self, content: Any) -> str:
        """The content as ``tojson`` writes it; a list that is no JSON is refused
        (:class:`~tooletta.RenderError`)."""
        if self.ensure_ascii:
            return _ascii_json(content)
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


def _ascii_json(content: Any) -> str:
    """``content`` as ``tojson(ensure_ascii=True)`` writes it (a list of parts as its JSON,
    other content as its text)."""
    value = content if type(content) is str or isinstance(content, list) else text_of(content)
    try:
        return json.dumps(value, ensure_ascii=True, allow_nan=False)
    except (TypeError, ValueError, RecursionError) as exc:
        raise RenderError(f"tool result is not JSON: {exc}") from None


def split_by_calls(body: str, separator: str, pending: int) -> list[str]:
    """The results of one turn whose results are joined by ``separator``, ``pending`` calls
    awaiting them: one result per call, a result that is a JSON value read whole (the
    separators inside it are not), else the text up to the next ``separator``; the last
    takes the rest (and so does a result when no separator follows)."""
    parts: list[str] = []
    pos = 0
    step = len(separator)
    while len(parts) < pending - 1:
        try:
            end = _DECODER.raw_decode(body, pos)[1]
        except (ValueError, RecursionError):
            end = -1
        if end < 0 or not body.startswith(separator, end):
            end = body.find(separator, pos)
            if end < 0:
                break
        parts.append(body[pos:end])
        pos = end + step
    parts.append(body[pos:])
    return parts


def pending_at_runs(messages: Sequence[Message]) -> dict[int, int]:
    """The number of calls awaiting results at the first result of each run of results (by
    index), as :func:`~tooletta.parse_conversation` counts them: an assistant message's calls,
    less one per result read since. One pass."""
    starts: dict[int, int] = {}
    pending = 0
    previous = ""
    for index, message in enumerate(messages):
        role = message.role
        if role == "assistant":
            pending = len(message.tool_calls)
        elif role == "tool":
            if previous != "tool":
                starts[index] = pending
            pending = max(0, pending - 1)
        previous = role
    return starts
