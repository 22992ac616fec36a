"""The ``response_template`` exports of ``bailing`` and ``bailing_kv``
(:mod:`tooletta.interop.hf.spec`): the hermes calls (``bailing``) or the GLM-like key/value
calls (``bailing_kv``, Ring-2.6-1T's) after Ling's ``<role>ASSISTANT</role>`` header, the
reasoning a ``<think>`` block the templates write after a line break, the content up to
``<|role_end|>``."""

from __future__ import annotations

from tooletta_dialect_glm.hf_template import GLM45_CALLS

from tooletta.interop.hf.spec import FUNCTION, Export, escape, region, template

__all__ = ["BAILING", "BAILING_KV"]

BAILING = Export(
    template(
        "<role>ASSISTANT</role>",
        region(r"\s*<tool_call>", r"</tool_call>\s*", content="json", transform=FUNCTION),
        ends=("<|role_end|>",),
        reasoning={
            "open_pattern": r"\s*<think>",
            "close_pattern": escape("</think>") + r"\s*",
            "content": "text",
        },
    )
)

BAILING_KV = Export(
    template(
        "<role>ASSISTANT</role>",
        GLM45_CALLS,
        ends=("<|role_end|>",),
        reasoning={
            "open_pattern": r"\s*<think>",
            "close_pattern": escape("</think>") + r"\s*",
            "content": "text",
        },
    ),
    note="argument values are text: pass the request's tools to type them",
)
"""Ring-2.6-1T's calls (``glm45``'s tags) after the same header."""
