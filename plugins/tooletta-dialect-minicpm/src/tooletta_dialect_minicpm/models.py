"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "openbmb/minicpm5*",
        dialect="minicpm5",
        source=(
            "openbmb MiniCPM5 chat template (quoted copies); vLLM "
            "minicpm5xml_tool_parser.py, SGLang minicpm5_detector.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
