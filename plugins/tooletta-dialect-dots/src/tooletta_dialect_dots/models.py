"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "rednote-hilab/dots.llm*",
        dialect="dots",
        source="sgl-project/sglang python/sglang/srt/function_call/dots_detector.py",
    ),
    Model(
        ("dots-studio/dots3*", "dots3-note*"),
        dialect="dots3",
        chat="dots3",
        template="tests/templates/dots-studio-dots3-note-prev.jinja",
        template_sha256="2475e8400b5f245a30302763a91368055f4e1c3d8b4b7d6956848803e161b781",
        source=(
            "dots-studio/dots3-note-prev chat_template.jinja (copy in KMnO4-zx/llm-model f8270b78)"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
