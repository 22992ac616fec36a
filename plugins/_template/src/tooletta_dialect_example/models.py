"""The models this plugin knows, one row per model family (:mod:`tooletta.catalog`).

A row names the id patterns, the dialects the models write (the default first), their
conversation format (``chat=``, by name: :mod:`tooletta_dialect_example.chat` imports this
module) with the vendored template that verifies it (``template="tests/templates/..."``, checked
by the kit's ``ModelRowTests``) and the source. Adding a model to this family is one more row
(plus its template fixture and a ``ConversationTests`` class for it).
"""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "example-org/example-*",
        dialect="example",
        chat="example1",
        template="tests/templates/example-org-Example-1.jinja",
        source="example-org/Example-1 chat_template (fictional: tests/templates/SOURCES.md)",
    ),
)
"""Registered by :func:`register_dialects`; ``DialectInfo.models`` is derived from them."""
