"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "fireworks-ai/llama-3-firefunction-v2*",
        dialect="phi4_mini",
        chat="firefunction_v2",
        template="tests/templates/fireworks-ai-llama-3-firefunction-v2.jinja",
        template_sha256="fcb749f5c5d6bbc4240db4e86af5dfcefe9c7e85355235d0f304ab4319ba6b51",
        source="fireworks-ai/llama-3-firefunction-v2 tokenizer_config.json chat_template",
    ),
    Model(
        "microsoft/phi-4-mini-instruct*",
        dialect="phi4_mini",
        source=(
            "ggml-org/llama.cpp models/templates/fireworks-ai-llama-3-firefunction-v2.jinja; "
            "vllm examples/tool_chat_template_phi4_mini.jinja, "
            "vllm/tool_parsers/phi4mini_tool_parser.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
