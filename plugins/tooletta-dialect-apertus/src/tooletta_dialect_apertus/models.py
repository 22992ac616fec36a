"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        ("swiss-ai/apertus-*-instruct-2509*", "apertus-*-instruct-2509*"),
        dialect="apertus",
        chat="apertus2509",
        template="tests/templates/Apertus-8B-Instruct.jinja",
        template_sha256="dea688e9f24a339a0d2504f6840852adbcedb082373172a0b82ca2c55996768d",
        source=(
            "swiss-ai/Apertus-8B-Instruct-2509 chat_template (llama.cpp Apertus-8B-Instruct.jinja)"
        ),
    ),
    Model(
        "swiss-ai/apertus-*",
        dialect="apertus",
        source=(
            "vllm-project/vllm examples/tool_chat_template_apertus.jinja, "
            "vllm/tool_parsers/apertus_tool_parser.py; sglang "
            "function_call/apertus2509_detector.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
