"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        ("inkling*", "thinkingmachines/*inkling*"),
        dialect="inkling",
        source=(
            "sgl-project/sglang python/sglang/srt/parser/inkling_renderer.py, "
            "parser/inkling_tokenizer.py, function_call/inkling_detector.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
