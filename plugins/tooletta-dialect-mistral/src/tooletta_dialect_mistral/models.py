"""The models this plugin knows, one row per model family: the source of the ``models``
patterns its dialects and conversation formats show (:mod:`tooletta.catalog`)."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "mistralai/mistral-small-3.2-*",
        dialect="mistral",
        chat="mistral_small32",
        template="tests/templates/Mistral-Small-3.2-24B-Instruct-2506.jinja",
        source=(
            "mistralai/Mistral-Small-3.2-24B-Instruct-2506 chat_template.jinja (llama.cpp "
            "models/templates/Mistral-Small-3.2-24B-Instruct-2506.jinja)"
        ),
    ),
    Model(
        (
            "mistralai/mistral-7b-instruct-v0.3*",
            "mistralai/mixtral-8x*-instruct*",
            "mistralai/mistral-nemo*",
            "mistralai/mistral-large*",
            "mistralai/mistral-small*",
            "mistralai/magistral*",
            "mistralai/devstral*",
            "mistralai/ministral*",
        ),
        dialect="mistral",
        source=(
            "mistralai/mistral-common src/mistral_common/tokens/tokenizers/instruct.py "
            "(InstructTokenizerV3/V11/V13); vllm vllm/tool_parsers/mistral_tool_parser.py"
        ),
    ),
    Model(
        ("mistralai/ministral-3-*-reasoning*", "ministral-3-*-reasoning*"),
        dialect="mistral_v13",
        chat="ministral3_reasoning",
        template="tests/templates/mistralai-Ministral-3-14B-Reasoning-2512.jinja",
        source=(
            "mistralai/Ministral-3-14B-Reasoning-2512 chat_template.jinja (llama.cpp "
            "models/templates/mistralai-Ministral-3-14B-Reasoning-2512.jinja)"
        ),
    ),
    Model(
        ("mistralai/devstral-small-2507*", "devstral-small-2507*"),
        dialect="mistral_v13",
        chat="devstral_small_2507",
        template="tests/templates/unsloth-mistral-Devstral-Small-2507.jinja",
        source=(
            "unsloth/Devstral-Small-2507 chat_template (llama.cpp "
            "models/templates/unsloth-mistral-Devstral-Small-2507.jinja)"
        ),
    ),
    Model(
        ("mistralai/ministral-3-*", "ministral-3-*"),
        dialect="mistral_v13",
        source=(
            "mistralai/mistral-common src/mistral_common/tokens/tokenizers/instruct.py "
            "(InstructTokenizerV13); Devstral-Small-2507 and Ministral-3 templates"
        ),
    ),
    Model(
        ("mistralai/mistral-nemo-instruct*", "mistral-nemo-instruct*"),
        dialect="mistral_v3",
        chat="mistral_nemo",
        template="tests/templates/mistralai-Mistral-Nemo-Instruct-2407.jinja",
        source=(
            "mistralai/Mistral-Nemo-Instruct-2407 tokenizer_config.json chat_template "
            "(llama.cpp models/templates/mistralai-Mistral-Nemo-Instruct-2407.jinja)"
        ),
    ),
)
"""Registered by :func:`register_dialects`; ``DialectInfo.models`` and ``ChatFormat.models``
are derived from them (:func:`tooletta.catalog.patterns_of`)."""
