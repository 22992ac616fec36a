"""The models this plugin knows, one row per model family: the source of the ``models``
patterns its dialects and conversation formats show (:mod:`tooletta.catalog`)."""

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
"""Registered by :func:`register_dialects`; ``DialectInfo.models`` and ``ChatFormat.models``
are derived from them (:func:`tooletta.catalog.patterns_of`)."""
