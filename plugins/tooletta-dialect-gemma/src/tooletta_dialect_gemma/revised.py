"""Gemma 4's revised chat template (spring 2026): the ``gemma4-2604`` format.

Google revised ``google/gemma-4-31B-it``'s ``chat_template.jinja`` on Hugging Face (on the hub
by April 2026; vLLM synced it byte for byte in PR #39570, ``tests/templates/SOURCES.md``). Its
conversations are ``gemma4``'s (the earlier revision's) turn for turn; the revision changes:

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
* a system message given as content parts is written part by part, each trimmed and followed
  by a space; a result without a name (or with an empty one) and no matching call id is
  named ``unknown``. Neither reaches the text through this format: content parts are joined
  into text before a format writes them (see the plugin README), and a result is named after
  the call it answers.

Everything else (turns, results inside the model's turn, reasoning kept only in calls turns
after the last user message, the generation prompt, the content-beside-calls misplacement)
is unchanged, so the format is ``gemma4``'s with its declarations swapped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tooletta.plugin import SystemBlock, by_content
from tooletta_dialect_gemma.chat import (
    THINK_FLAG,
    TOOL_CLOSE,
    TOOL_OPEN,
    Gemma4Chat,
    _parameters,
    _think_flag,
    declaration_with,
)

__all__ = ["REVISED_SOURCE", "Gemma4RevisedChat", "revised_declaration"]

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


@by_content
def _declarations(tools: Sequence[Mapping[str, Any]]) -> str:
    """Every tool as ``<|tool>DECLARATION<tool|>`` (remembered by content)."""
    return "".join(TOOL_OPEN + revised_declaration(tool) + TOOL_CLOSE for tool in tools)


class Gemma4RevisedChat(Gemma4Chat):
    """Gemma 4's revised chat template (``google/gemma-4-31B-it``, spring 2026): ``gemma4``
    with the revised tool declarations (see the module docs)."""

    name = "gemma4-2604"
    source = REVISED_SOURCE
    system_block = SystemBlock(
        tools=_declarations,
        head=TOOL_OPEN,
        joiner="",
        lead=_think_flag,
        leads=(THINK_FLAG,),
        empty_reads_none=True,
    )
    """As ``gemma4``'s, the tools declared by the revised ``format_parameters`` (oddity:
    a parameter named after a standard schema key is declared, except in an object property
    read as its own properties)."""
