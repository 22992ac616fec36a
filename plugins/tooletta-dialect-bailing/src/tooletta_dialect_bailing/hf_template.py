"""The ``response_template`` export of ``bailing`` (:mod:`tooletta.interop.hf.spec`): the
hermes calls after Ling's ``<role>ASSISTANT</role>`` header, the reasoning a ``<think>`` block
the Ling templates write after a line break, the content up to ``<|role_end|>``."""

from __future__ import annotations

from tooletta.interop.hf.spec import FUNCTION, Export, escape, region, template

__all__ = ["BAILING"]

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
