"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        (
            "meta-llama/llama-3.1-*-instruct*",
            "meta-llama/meta-llama-3.1-*-instruct*",
            "meta-llama/llama-3.3-*-instruct*",
        ),
        dialect="llama3_json",
        chat="llama31",
        template="tests/templates/meta-llama-Llama-3.1-8B-Instruct.jinja",
        template_sha256=(
            # meta-llama-Llama-3.1-8B-Instruct.jinja
            # meta-llama-Llama-3.3-70B-Instruct.jinja
            "e10ca381b1ccc5cf9db52e371f3b6651576caee0a630b452e2816b2d404d4b65",
        ),
        source=(
            "meta-llama/Llama-3.1-8B-Instruct and meta-llama/Llama-3.3-70B-Instruct "
            "tokenizer_config.json chat_template (identical)"
        ),
    ),
    Model(
        ("meta-llama/llama-3.2-1b-instruct*", "meta-llama/llama-3.2-3b-instruct*"),
        dialect="llama3_json",
        chat="llama32",
        template="tests/templates/meta-llama-Llama-3.2-3B-Instruct.jinja",
        template_sha256="5816fce10444e03c2e9ee1ef8a4a1ea61ae7e69e438613f3b17b69d0426223a4",
        source="meta-llama/Llama-3.2-3B-Instruct tokenizer_config.json chat_template",
    ),
    Model(
        "meta-llama/llama-3.2-*-instruct*",
        dialect="llama3_json",
        source=(
            "vllm-project/vllm examples/tool_chat_template_llama3.1_json.jinja; "
            "vllm/tool_parsers/llama_tool_parser.py; sglang function_call/llama32_detector.py"
        ),
    ),
    Model(
        ("meta-llama/llama-4-*-instruct*", "llama-4-*-instruct*"),
        dialects=("llama4_json", "pythonic"),  # the template's JSON calls; vLLM's pythonic one
        chat="llama4",
        template="tests/templates/meta-llama-Llama-4-Scout-17B-16E-Instruct.jinja",
        template_sha256="95a231a15c8c976ac511e62c6fdf477ea9e3ca7a87cbb9974e0dd653eccb4563",
        source=(
            "meta-llama/Llama-4-Scout-17B-16E-Instruct and "
            "Llama-4-Maverick-17B-128E-Instruct chat_template (huggingface/transformers "
            "src/transformers/models/llama4/processing_llama4.py, written by "
            "convert_llama4_weights_to_hf.py)"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
