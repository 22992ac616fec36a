"""What a chat template's source reads, found by scanning its text: the keys reasoning may
go under and the form tool results reach it in (the values of the fields of a
:class:`~tooletta.chat.MessageForm` worth trying)."""

from __future__ import annotations

import re
from typing import Any


def _reasoning_keys(source: str) -> list[str]:
    keys = [k for k in ("reasoning_content", "reasoning", "thinking") if _reads_key(source, k)]
    return keys or ["reasoning_content"]


def _reads_key(source: str, key: str) -> bool:
    """Whether ``source`` reads ``key`` (a word) of a value: ``.key`` or ``['key`` (spaces
    allowed after the bracket, either quote), the key not running on into a longer word:
    ``re.search(r"(?:\\.|\\[\\s*['\"])key\\b")``, each occurrence of the key found by
    ``str.find`` (the regular expression scans the whole source character by character)."""
    at = source.find(key)
    while at >= 0:
        if not _WORD_CHAR.match(source, at + len(key)) and _reads_before(source, at):
            return True
        at = source.find(key, at + 1)
    return False


def _reads_before(source: str, at: int) -> bool:
    """Whether the text before ``at`` ends with ``.`` or with ``[``, spaces and a quote."""
    if at == 0:
        return False
    if source[at - 1] == ".":
        return True
    if source[at - 1] not in "'\"":
        return False
    before = at - 2
    while before >= 0 and source[before].isspace():
        before -= 1
    return before >= 0 and source[before] == "["


_WORD_CHAR = re.compile(r"\w")


def _dimensions(source: str) -> dict[str, list[Any]]:
    """Each field of :class:`MessageForm` and the values to try for it, the likeliest
    first (pruned by what the template's source reads)."""
    return {
        "string_arguments": [False, True],
        "call_content": ["", None] if re.search(r"\bnone\b", source, re.IGNORECASE) else [""],
        "reasoning_key": _reasoning_keys(source),
        "call_ids": ["opaque", "functions"],
        "tool_results": _tool_results(source),
    }


def _tool_results(source: str) -> list[str]:
    """The tool-result forms to try: ``role: tool`` messages, and results on the assistant
    message when the template's source reads ``tool_responses`` and never tests a message's
    role against ``tool`` (one that does reads the results as messages already: Gemma 4's
    official template reads both)."""
    from ..toolresponses import TOOL_RESPONSES

    reads = _reads_key(source, TOOL_RESPONSES)
    return ["messages", TOOL_RESPONSES] if reads and not _ROLE_TOOL.search(source) else ["messages"]


_ROLE_TOOL = re.compile(r"""role['"]?\]?\s*[!=]=\s*['"]tool['"]|['"]tool['"]\s*[!=]=""")
"""A test of a message's role against ``tool`` in a template's source."""
