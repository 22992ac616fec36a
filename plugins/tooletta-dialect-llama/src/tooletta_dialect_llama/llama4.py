"""Llama 4's JSON call turn, as a variant dialect of ``llama3_json``.

The chat template of the Llama 4 Instruct models (the one Hugging Face wrote into the converted
``meta-llama/Llama-4-*`` repositories; :class:`~.chat.Llama4Chat`) writes an assistant turn
with calls as::

    <|python_start|>CONTENT<|python_end|>{"name": "get_weather", "parameters": {...}}{"name": ...}

(``'<|python_start|>'`` + content + ``'<|python_end|>'``, then for each call
``'{"name": "' + name + '", "parameters": ' + arguments|tojson + '}'`` with nothing between
the objects; the model ends the turn with ``<|eot|>``). ``llama4_json`` renders that form and
parses like ``llama3_json``, whose parser reads it (the ``<|python_start|>`` wrapper and
objects back to back). It is picked by the Llama 4 Instruct model ids or by name, never by
detection. vLLM's ``llama4_pythonic`` template (``[f(a=1)]``) is vLLM's own, not the model
repository's: its output stays the ``pythonic`` dialect's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from tooletta import ToolCall, to_json
from tooletta.plugin import ChatFormat, plain_render_without_calls, variant_info

from . import PYTHON_END, PYTHON_START, LlamaJsonDialect
from .chat import Llama4Chat

__all__ = ["Llama4JsonDialect"]


class Llama4JsonDialect(LlamaJsonDialect):
    """``<|python_start|>content<|python_end|>{"name": ..., "parameters": ...}{...}``."""

    info = variant_info(
        LlamaJsonDialect.info,
        "llama4_json",
        aliases=("llama4",),
        description="Llama 4 (its model repositories' template): <|python_start|>content"
        '<|python_end|>{"name": ..., "parameters": {...}}{...}',
        source="huggingface/transformers src/transformers/models/llama4/processing_llama4.py"
        " (chat_template, also written by convert_llama4_weights_to_hf.py)",
    )
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (Llama4Chat(),)
    """The Llama 4 Instruct conversation format (:class:`~.chat.Llama4Chat`)."""

    @plain_render_without_calls  # no calls: check_content, then the content
    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """With calls: the content inside ``<|python_start|>`` ... ``<|python_end|>``, then
        the call objects; without: the content."""
        self.check_content(content)
        if not calls:
            return content
        return PYTHON_START + content + PYTHON_END + self.render_calls(list(calls))

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Each call as ``{"name": ..., "parameters": ...}``, back to back."""
        return "".join(
            [f'{{"name": {to_json(c.name)}, "parameters": {to_json(c.arguments)}}}' for c in calls]
        )
