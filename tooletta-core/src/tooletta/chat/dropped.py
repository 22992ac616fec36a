"""What a chat template rendered with Jinja left out of a conversation.

:func:`tooletta.render_conversation` given a template that no format reproduces renders it
with Jinja, as the model's tokenizer would. Many such templates leave parts of the
conversation out without a word: a vision model's template that writes no ``tool_calls``, one
that ignores ``tools=``, one that skips ``tool`` messages. The text is then what the template
writes, and training on it loses those parts. :func:`dropped_parts` names them, for a
:class:`~tooletta.ToolettaWarning`.

The test is textual and errs on the side of silence: a message's text counts as written when
it stands in the output stripped of outer whitespace, or as JSON writes it (escaped, or with
every non-ASCII character escaped); a call when its name does; a tool definition when its
function's name does. Reasoning is not checked (templates keep or drop it by their own
history rule, which the formats declare and the caller chose).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ..ir import Message

__all__ = ["dropped_parts"]


def _written(piece: str, text: str) -> bool:
    """Whether ``piece`` stands in ``text`` as is, stripped, or as JSON writes a string."""
    piece = piece.strip()
    if not piece or piece in text:
        return True
    for ascii_only in (False, True):
        encoded = json.dumps(piece, ensure_ascii=ascii_only)[1:-1]
        if encoded in text:
            return True
    return False


def dropped_parts(
    messages: Iterable[Message], tools: Iterable[Mapping[str, Any]], text: str
) -> list[str]:
    """The parts of a conversation ``text`` (a template's render of ``messages`` with the tool
    definitions ``tools``) does not hold, each described for a reader (``"message 2's
    content"``, ``"message 1's call 'get_weather'"``, ``"the tool definitions"``)."""
    missing: list[str] = []
    for index, message in enumerate(messages):
        content = message.content
        if isinstance(content, str) and not _written(content, text):
            missing.append(f"message {index}'s content ({message.role})")
        for call in message.tool_calls:
            if not _written(call.name, text):
                missing.append(f"message {index}'s call {call.name!r}")
    names = [_tool_name(t) for t in tools]
    if any(name is not None and not _written(name, text) for name in names):
        missing.append("the tool definitions")
    return missing


def _tool_name(tool: Mapping[str, Any]) -> str | None:
    """The function name of an OpenAI-style tool definition (``None`` when it has none)."""
    function = tool.get("function")
    name = function.get("name") if isinstance(function, Mapping) else tool.get("name")
    return name if isinstance(name, str) else None
