"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        ("google/gemma-4-31b*", "gemma-4-31b*"),
        dialect="gemma4",
        chat="gemma4",
        template="tests/templates/google-gemma-4-31B-it.jinja",
        template_sha256="85a08664d16d8f3be4416c92427b3ac10df1024ac566cc0b4bc3bab409393f98",
        source="google/gemma-4-31B-it chat_template.jinja (llama.cpp google-gemma-4-31B-it.jinja)",
    ),
    Model(
        ("google/gemma-4*", "gemma-4*"),
        dialect="gemma4",
        source=(
            "ggml-org/llama.cpp models/templates/gemma4.jinja; vllm-project/vllm "
            "examples/tool_chat_template_gemma4.jinja; sglang "
            "function_call/gemma4_detector.py"
        ),
    ),
    Model(
        ("google/functiongemma*", "functiongemma*"),
        dialect="functiongemma",
        source=(
            "ai.google.dev FunctionGemma formatting guide; vllm "
            "tool_parsers/functiongemma_tool_parser.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
