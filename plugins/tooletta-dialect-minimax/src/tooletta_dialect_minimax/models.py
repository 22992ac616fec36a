"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        ("minimaxai/minimax-m1-*", "minimax-m1-*"),
        dialect="minimax_m1",
        chat="minimax_m1",
        template="tests/templates/MiniMax-M1.jinja",
        template_sha256="a262256dc5b7ccb98a1307d93e5d6598904067279dcc53b2112e5538b296c0e6",
        source=(
            "MiniMax-AI/MiniMax-M1 tokenizer_config.json chat_template (commit "
            "a2328261e3faf6b1262a6dea55442bc1083b46da)"
        ),
    ),
    Model(
        "minimaxai/minimax-text-01*",
        dialect="minimax_m1",
        source=(
            "vllm-project/vllm examples/tool_chat_template_minimax_m1.jinja; "
            "vllm/tool_parsers/minimax_tool_parser.py"
        ),
    ),
    Model(
        ("minimaxai/minimax-m2*", "minimax-m2*"),
        dialect="minimax_m2",
        chat="minimax_m2",
        template="tests/templates/MiniMax-M2.jinja",
        template_sha256="967ff7e387676f4b4340585da0585416532f1e6c5ee3f1ede64b2c21ef7ea001",
        source=(
            "MiniMaxAI/MiniMax-M2 chat_template.jinja (llama.cpp models/templates/MiniMax-M2.jinja)"
        ),
    ),
    Model(
        "minimaxai/minimax-m3*",
        dialect="minimax_m3",
        source=(
            "sgl-project/sglang python/sglang/srt/function_call/minimax_m3.py; "
            "vllm/tool_parsers/minimax_m3_tool_parser.py (tool_call_start_token)"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
