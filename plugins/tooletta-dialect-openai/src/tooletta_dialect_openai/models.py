"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        ("gpt-4*", "gpt-3.5*", "gpt-4o*", "o1*", "o3*", "o4*", "gpt-5*"),
        dialect="openai",
        source="openai/openai-python src/openai/types/chat/chat_completion_message*.py",
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
