"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        ("coherelabs/north-mini-code-1.0*", "north-mini-code-1.0*"),
        dialect="cohere",
        chat="north_mini_code",
        template="tests/templates/CohereLabs-North-Mini-Code-1.0.jinja",
        template_sha256="d8366efb9f07c571da620ce6a924594fc52c80273a0fbb46a38b643972df95fd",
        source=(
            "CohereLabs/North-Mini-Code-1.0 chat_template.jinja (d11e61a8; as vendored by "
            "ggml-org/llama.cpp models/templates/Cohere2MoE.jinja)"
        ),
    ),
    Model(
        ("cohereforai/c4ai-command-r7b-12-2024*", "coherelabs/c4ai-command-r7b-12-2024*"),
        dialect="cohere",
        chat="command_r7b",
        template="tests/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja",
        template_sha256="cc60b553279347d83df761f5dc55b4b2fb66bc1fa9a33e219911c13c11552fac",
        source=(
            "ggml-org/llama.cpp "
            "models/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja (the "
            "tool_use chat template of CohereForAI/c4ai-command-r7b-12-2024)"
        ),
    ),
    Model(
        (
            "cohereforai/c4ai-command-r7b*",
            "coherelabs/c4ai-command-r7b*",
            "cohereforai/c4ai-command-a*",
            "coherelabs/c4ai-command-a*",
            "cohereforai/command-a*",
            "coherelabs/command-a*",
            "cohereforai/c4ai-command-r-*",
            "coherelabs/c4ai-command-r-*",
        ),
        dialect="cohere",
        source=(
            "ggml-org/llama.cpp "
            "models/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja; "
            "vllm-project/vllm cohere_command_tool_parser.py (cohere_melody); "
            "sgl-project/sglang python/sglang/srt/function_call/cohere_command4_detector.py"
        ),
    ),
    Model(
        (
            "cohereforai/c4ai-command-r-plus",
            "coherelabs/c4ai-command-r-plus",
            "c4ai-command-r-plus-4bit",
        ),
        dialect="command_r_plus",
        chat="command_r_plus",
        template="tests/templates/CohereForAI-c4ai-command-r-plus-tool_use.jinja",
        template_sha256="bf9e9ee8c0f2297c6ff60af5fab357d7b34bc4375884ed16ab6aa90597d7eb7d",
        source=(
            "ggml-org/llama.cpp "
            "models/templates/CohereForAI-c4ai-command-r-plus-tool_use.jinja (the tool_use "
            "chat template of CohereForAI/c4ai-command-r-plus)"
        ),
    ),
    Model(
        ("cohereforai/c4ai-command-r-plus*", "coherelabs/c4ai-command-r-plus*"),
        dialect="command_r_plus",
        source="ggml-org/llama.cpp models/templates/CohereForAI-c4ai-command-r-plus-tool_use.jinja",
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
