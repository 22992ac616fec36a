"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        ("upstage/solar-open2*", "*/solar-open2*", "solar-open2*"),
        dialect="solar_open2",
        source=(
            "vllm-project/vllm vllm/tool_parsers/solar_open2_tool_parser.py; SGLang's port "
            "of it; Solar Open2 chat-template layout (ds4_server.c render oracle)"
        ),
    ),
    Model(
        ("upstage/solar-open-100b*", "*/solar-open-100b*", "solar-open-100b*"),
        dialect="solar_open",
        chat="solar_open",
        template="tests/templates/upstage-Solar-Open-100B.jinja",
        template_sha256="4618a1ec1a3442b9723d661d72bb1776d1bf8ebd7281a3bf3edd8bfd80e5ad4e",
        source="llama.cpp models/templates/upstage-Solar-Open-100B.jinja",
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
