"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        (
            "nvidia/nvidia-nemotron-nano-9b-v2",
            "nvidia/nvidia-nemotron-nano-9b-v2-*",
        ),
        dialect="nemotron",
        chat="nemotron_nano_v2",
        template="tests/templates/NVIDIA-Nemotron-Nano-v2.jinja",
        template_sha256="52ae8e50fa083e63a0a5726eeffc85502089b82064aceb1bddf0366f7317b3f8",
        source="nvidia/NVIDIA-Nemotron-Nano-9B-v2 tokenizer_config.json chat_template",
    ),
    Model(
        (
            "nvidia/llama-3.3-nemotron-super-49b-v1*",
            "nvidia/llama-3_3-nemotron-super-49b-v1*",
            "nvidia/llama-3.1-nemotron-nano-*",
            "nvidia/llama-3_1-nemotron-nano-*",
            "nvidia/nvidia-nemotron-nano-*-v2*",
        ),
        dialect="nemotron",
        source=(
            "ggml-org/llama.cpp models/templates/NVIDIA-Nemotron-Nano-v2.jinja; vllm "
            "examples/tool_chat_template_nemotron_json.jinja, "
            "vllm/tool_parsers/nemotron_json_tool_parser.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
