"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "meetkai/functionary-*-v3.1*",
        dialect="functionary_v31",
        chat="functionary_v31",
        template="tests/templates/meetkai-functionary-medium-v3.1.jinja",
        template_sha256="2fc9dbfaea552f864b4b8cdf9d17401e9a49cbda199498531f137eb0ec5ae1d8",
        source="meetkai/functionary-medium-v3.1 tokenizer_config.json chat_template",
    ),
    Model(
        "meetkai/functionary-*-v3.2*",
        dialect="functionary_v32",
        chat="functionary_v32",
        template="tests/templates/meetkai-functionary-medium-v3.2.jinja",
        template_sha256="5c7c96c27cfecf3418411d1ebd0d11d691ab6bd2155bb38dacc62250fe47c3c8",
        source="meetkai/functionary-medium-v3.2 tokenizer_config.json chat_template",
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
