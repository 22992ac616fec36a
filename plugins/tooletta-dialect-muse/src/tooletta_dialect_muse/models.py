"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        ("meta-models/muse-glimmer*", "*/muse-glimmer*", "muse-glimmer*"),
        dialect="muse",
        source=(
            "sgl-project/sglang python/sglang/srt/function_call/muse_glimmer_detector.py and "
            "muse_glimmer_format.py; vllm-project/vllm tests of muse_glimmer_tool_parser; "
            "meta-models/Muse-Glimmer-30B chat_template.jinja (render_atem)"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
