"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "bytedance-seed/seed-oss-*",
        dialect="seed_oss",
        source=(
            "ByteDance-Seed/Seed-OSS-36B-Instruct chat_template.jinja; vLLM seed_oss_tool_parser.py"
        ),
    ),
    Model(
        "bytedance-seed/seed-oss-36b-*",
        dialect="seed_oss_pystr",
        chat="seed_oss_36b",
        template="tests/templates/ByteDance-Seed-OSS.jinja",
        template_sha256="3f9e0dc4adeb8032287d0129dc75b6298fee8698a52ab41e863dbc89929330d3",
        source="ByteDance-Seed/Seed-OSS-36B-Instruct chat_template.jinja",
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
