"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        ("stepfun-ai/step3", "stepfun-ai/step3-*"),
        dialect="step3",
        source=(
            "sgl-project/sglang python/sglang/srt/function_call/step3_detector.py; "
            "vllm/tool_parsers/step3_tool_parser.py; lightseekorg/smg "
            "tests/tool_parser_step3.rs"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
