"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        "ibm-granite/granite-3.3-*-instruct*",
        dialect="granite",
        chat="granite33",
        template="tests/templates/ibm-granite-granite-3.3-2B-Instruct.jinja",
        template_sha256="3c71df5f659987462c882bf9e295b597dc19902467a7312ea382c5896681bc02",
        source="ibm-granite/granite-3.3-2b-instruct tokenizer_config.json chat_template",
    ),
    Model(
        ("ibm-granite/granite-3.0-*-instruct*", "ibm-granite/granite-3.1-*-instruct*"),
        dialect="granite",
        source=(
            "HF ibm-granite/granite-3.0-8b-instruct chat template; vllm "
            "vllm/tool_parsers/granite_tool_parser.py, "
            "examples/tool_chat_template_granite.jinja"
        ),
    ),
    Model(
        "ibm-granite/granite-20b-functioncalling*",
        dialect="granite_20b_fc",
        source=(
            "vllm-project/vllm examples/tool_chat_template_granite_20b_fc.jinja; "
            "vllm/tool_parsers/granite_20b_fc_tool_parser.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
