"""The models this plugin knows, one row per model family: the source of the ``models``
patterns its dialects and conversation formats show (:mod:`tooletta.catalog`)."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "meetkai/functionary-*-v3.1*",
        dialect="functionary_v31",
        chat="functionary_v31",
        template="tests/templates/meetkai-functionary-medium-v3.1.jinja",
        source="meetkai/functionary-medium-v3.1 tokenizer_config.json chat_template",
    ),
    Model(
        "meetkai/functionary-*-v3.2*",
        dialect="functionary_v32",
        chat="functionary_v32",
        template="tests/templates/meetkai-functionary-medium-v3.2.jinja",
        source="meetkai/functionary-medium-v3.2 tokenizer_config.json chat_template",
    ),
)
"""Registered by :func:`register_dialects`; ``DialectInfo.models`` and ``ChatFormat.models``
are derived from them (:func:`tooletta.catalog.patterns_of`)."""
