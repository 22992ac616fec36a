"""Gemma 4's revised chat template (spring 2026): the ``gemma4-2604`` format.

Google revised ``google/gemma-4-31B-it``'s ``chat_template.jinja`` on Hugging Face in spring 2026;
vLLM synced the model repository's file byte for byte in PR #39570 (under review from
2026-04-11, merged 2026-05-02; ``tests/templates/SOURCES.md``). llama.cpp's copy of the
earlier revision (format ``gemma4``) dates from 2026-04-10. Its conversations are
``gemma4``'s turn for turn; the revision changes:

* the tool declarations: ``format_parameters`` leaves the standard schema keys
  (``description``, ``type``, ``properties``, ``required``, ``nullable``) out only of an
  object property that has no ``properties`` mapping (read as its own properties), so a
  parameter *named* ``type`` or ``description`` is now declared, at the top level, inside
  an object's ``properties`` and inside an array's ``items`` (the earlier revision dropped it
  everywhere) — the one change this format declares;
* a turn with calls whose results follow is closed with ``<turn|>`` only when its content, as
  written (thought channels cut, trimmed), is not empty; the earlier revision looked at the
  raw content, so a content of spaces or of a thought channel alone closed the turn and left
  the answer after it headerless. ``gemma4`` already writes such a content as nothing and
  goes on in the turn, which is what this revision writes: no declaration needed;
* an opening system (or developer) message given as content parts is written part by part,
  each part's text trimmed and followed by a space (``You are helpful. Be brief. ``; the
  earlier revision wrote the list's Python ``repr``) — declared here too;
* a result without a name (or with an empty one) and no matching call id is named
  ``unknown``, where the earlier revision wrote the empty name: this format names a result
  after the call it answers (``gemma4``'s documented difference), so nothing changes.

Everything else (turns, results inside the model's turn, reasoning kept only in calls turns
after the last user message, the generation prompt, the content-beside-calls misplacement)
is unchanged, so the format is ``gemma4``'s with the declarations swapped and the system
parts hook added.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tooletta import Message
from tooletta.plugin import Conversation, by_content, text_of
from tooletta_dialect_gemma.chat import (
    TOOL_CLOSE,
    TOOL_OPEN,
    Gemma4Chat,
    _parameters,
    declaration_with,
)

__all__ = ["REVISED_SOURCE", "Gemma4RevisedChat", "revised_declaration", "system_parts_text"]

REVISED_SOURCE = (
    "google/gemma-4-31B-it chat_template.jinja, revised spring 2026 (vllm-project/vllm "
    "examples/tool_chat_template_gemma4.jinja at 03a5e855, synced from HF by PR #39570)"
)
"""Where the revised template was read."""


def _revised_parameters(properties: Mapping[str, Any]) -> str:
    """The revised ``format_parameters`` macro at the top of ``parameters``: nothing
    filtered there (``filter_keys`` is false), the standard keys left out only where the
    macro is called with ``filter_keys``."""
    return _parameters(properties, False, every_level=False)


def revised_declaration(tool: Mapping[str, Any]) -> str:
    """One tool as the revised template's ``format_function_declaration`` writes it
    (:func:`~tooletta_dialect_gemma.chat.declaration`'s layout and quirks, with the revised
    ``format_parameters``)."""
    return declaration_with(tool, _revised_parameters)


def system_parts_text(content: Sequence[Any]) -> str:
    """An opening system message given as content parts, as the revised template writes it:
    each part's ``text`` trimmed and followed by a space (a part without a text string
    writes the space alone, as Jinja's ``item['text'] | trim + ' '`` does). A text part
    whose text is not a string is refused (:class:`~tooletta.RenderError`, as for any
    content)."""
    text_of(list(content))  # refuses a text part whose text is not a string
    out = []
    for part in content:
        text = part.get("text") if isinstance(part, Mapping) else None
        out.append((text.strip() if isinstance(text, str) else "") + " ")
    return "".join(out)


def _opening_parts(messages: Sequence[Message], roles: frozenset[str]) -> Sequence[Any] | None:
    """The content parts of an opening system message, else ``None``."""
    if messages and messages[0].role in roles and isinstance(messages[0].content, list):
        return messages[0].content
    return None


@by_content
def _declarations(tools: Sequence[Mapping[str, Any]]) -> str:
    """Every tool as ``<|tool>DECLARATION<tool|>`` (remembered by content)."""
    return "".join(TOOL_OPEN + revised_declaration(tool) + TOOL_CLOSE for tool in tools)


_SYSTEM = replace(Gemma4Chat.system_block, tools=_declarations)
"""``gemma4``'s system block with the revised declarations."""


class Gemma4RevisedChat(Gemma4Chat):
    """Gemma 4's revised chat template (``google/gemma-4-31B-it``, spring 2026): ``gemma4``
    with the revised tool declarations (see the module docs)."""

    name = "gemma4-2604"
    source = REVISED_SOURCE
    system_block = _SYSTEM
    """As ``gemma4``'s, the tools declared by the revised ``format_parameters`` (oddity:
    a parameter named after a standard schema key is declared, except in an object property
    read as its own properties)."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """Oddity (the revision's system content parts): an opening system message given as
        parts is written as :func:`system_parts_text` (each part trimmed, then a space; not
        trimmed as a whole; :meth:`expressible` reads it back so, as it reads back whatever
        this hook writes); a string as ``gemma4`` writes it."""
        parts = _opening_parts(ctx.messages, self.system_roles)
        if parts is None or system is None:
            return super().system_text(system, ctx)
        return _SYSTEM.write(system_parts_text(parts), ctx.tools, ctx.strftime_now, ctx.options)
