"""The models this plugin knows, one row per model family: the source of the ``models``
patterns its dialects and conversation formats show (:mod:`tooletta.catalog`)."""

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
"""Registered by :func:`register_dialects`; ``DialectInfo.models`` and ``ChatFormat.models``
are derived from them (:func:`tooletta.catalog.patterns_of`)."""
