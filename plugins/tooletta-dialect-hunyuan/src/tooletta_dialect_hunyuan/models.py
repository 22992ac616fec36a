"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "tencent/hy3",
        dialect="hunyuan_v3",
        chat="hy3",
        template="tests/templates/tencent-Hy3.jinja",
        template_sha256="7fc351fee674c13754656ba7f33a3ca426bfb7231039f48444360a3f3c5ecf3e",
        source="tencent/Hy3 chat_template.jinja",
    ),
    Model(
        ("tencent/hy3*", "*/hy3-*"),
        dialect="hunyuan_v3",
        source=(
            "tencent/Hy3 chat_template.jinja; vLLM hy_v3_tool_parser.py, SGLang hunyuan_detector.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
