"""The models this plugin knows, one row per model family (:mod:`tooletta.catalog`).

A row names the id patterns, the dialects the models write (the default first), their
conversation format (``chat=``, once the plugin has one) with the vendored template that
verifies it (``template="tests/templates/..."``) and the source.
"""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "example-org/example-*",
        dialect="example",
        source="(name the chat template / parser that pins the format)",
    ),
)
"""Registered by :func:`register_dialects`; ``DialectInfo.models`` is derived from them."""
