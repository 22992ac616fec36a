"""Qwen3-Coder-30B-A3B-Instruct's own chat template: the ``qwen3_coder_2507`` format.

The model repository's ``chat_template.jinja`` (revision b2cff646, SHA-256 ``5a38bfa0…``;
``tests/templates/SOURCES.md``) introduces the tool list with "You have access to the
following functions" and ends the call-format instructions as Qwen3.5's template does ("If you
choose to call a function", a multi-line example value, the nesting rule). The ``qwen3_coder``
format follows llama.cpp's later copy, which rewrote those two lines ("following tools", "If
you choose to call a tool"); no model's own template is known to say that. Everything else
(the default system prompt beside tools, the XML declarations, turns, calls and results) is
the same, so this format is ``qwen3_coder`` with the model's instruction text.
"""

from __future__ import annotations

from dataclasses import replace

from .chat import Qwen3CoderChat
from .declarations import FUNCTIONS_HEAD, call_format, xml_tools

__all__ = ["Qwen3Coder2507Chat"]


class Qwen3Coder2507Chat(Qwen3CoderChat):
    """Qwen3-Coder-30B-A3B-Instruct's chat template (July 2025 release): ``qwen3_coder`` with
    the "functions" wording of the model's own tool instructions."""

    name = "qwen3_coder_2507"
    source = "Qwen/Qwen3-Coder-30B-A3B-Instruct chat_template.jinja (revision b2cff646)"
    system_block = replace(
        Qwen3CoderChat.system_block,
        tools=lambda tools: FUNCTIONS_HEAD + xml_tools(tools) + call_format("functions"),
        head=FUNCTIONS_HEAD,
    )
    """``qwen3_coder``'s system turn with the model's heading and call-format text."""
