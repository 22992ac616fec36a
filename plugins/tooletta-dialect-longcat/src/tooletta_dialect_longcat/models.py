"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        ("meituan-longcat/longcat-flash-*", "meituan-longcat/longcat-*"),
        dialect="longcat",
        source=(
            "vllm-project/vllm vllm/tool_parsers/longcat_tool_parser.py; LongCat-Flash model "
            "cards (meituan-longcat on Hugging Face)"
        ),
    ),
    Model(
        ("meituan-longcat/longcat-flash-chat*", "longcat-flash-chat*"),
        dialect="longcat_flash_chat",
        chat="longcat_flash_chat",
        template="tests/templates/meituan-longcat-LongCat-Flash-Chat.jinja",
        template_sha256="4d9c94b9d8362d0dd2ef1090328dee20d0c7ee6c8607d31afcd5aa916c237818",
        source=(
            "meituan-longcat/LongCat-Flash-Chat tokenizer_config.json chat_template (copy in "
            "KMnO4-zx/llm-model c99bbed9)"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
