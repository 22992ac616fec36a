"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        ("internlm/internlm2-chat-*", "internlm/internlm2_5-*chat*", "internlm/intern-s1*"),
        dialect="internlm",
        source=(
            "vllm-project/vllm examples/tool_chat_template_internlm2_tool.jinja and "
            "vllm/tool_parsers/internlm2_tool_parser.py; sgl-project/sglang "
            "python/sglang/srt/function_call/internlm_detector.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
