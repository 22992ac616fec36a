"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        ("openai/gpt-oss-*", "*/gpt-oss-*", "gpt-oss-*"),
        dialect="harmony",
        chat="gpt_oss",
        template="tests/templates/openai-gpt-oss-120b.jinja",
        template_sha256="a4c9919cbbd4acdd51ccffe22da049264b1b73e59055fa58811a99efbd7c8146",
        source="openai/gpt-oss-120b chat_template.jinja (gpt-oss-20b ships the same template)",
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
