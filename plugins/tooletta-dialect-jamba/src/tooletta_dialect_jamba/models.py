"""The models this plugin knows, one row per model family: the source of the ``models``
patterns its dialects and conversation formats show (:mod:`tooletta.catalog`)."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "tencent/hunyuan-a13b-instruct",
        dialect="jamba",
        chat="hunyuan_a13b",
        template="tests/templates/tencent-Hunyuan-A13B-Instruct.jinja",
        source="tencent/Hunyuan-A13B-Instruct tokenizer_config.json (Tencent-Hunyuan/Hunyuan-A13B)",
    ),
    Model(
        ("ai21labs/ai21-jamba-*", "ai21labs/jamba-*", "tencent/hunyuan-a13b-instruct*"),
        dialect="jamba",
        source=(
            "vllm examples/tool_chat_template_hunyuan_a13b.jinja, "
            "vllm/tool_parsers/jamba_tool_parser.py, hunyuan_a13b_tool_parser.py; "
            "ggml-org/llama.cpp models/templates/unsloth-Apriel-1.5.jinja"
        ),
    ),
    Model(
        ("servicenow-ai/apriel-1.5-*", "apriel-1.5-*"),
        dialect="apriel",
        chat="apriel15",
        template="tests/templates/llama.cpp-unsloth-Apriel-1.5.jinja",
        source=(
            "ServiceNow-AI/Apriel-1.5-15b-Thinker chat_template (llama.cpp "
            "unsloth-Apriel-1.5.jinja)"
        ),
    ),
    Model(
        ("servicenow-ai/apriel-1.6-*", "apriel-1.6-*"),
        dialect="apriel",
        chat="apriel16",
        template="tests/templates/Apriel-1.6-15b-Thinker-fixed-566059a26.jinja",
        source=(
            "ServiceNow-AI/Apriel-1.6-15b-Thinker chat_template (llama.cpp "
            "Apriel-1.6-15b-Thinker-fixed.jinja)"
        ),
    ),
)
"""Registered by :func:`register_dialects`; ``DialectInfo.models`` and ``ChatFormat.models``
are derived from them (:func:`tooletta.catalog.patterns_of`)."""
