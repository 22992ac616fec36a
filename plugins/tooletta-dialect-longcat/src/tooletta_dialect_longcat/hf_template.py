"""The LongCat dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import FUNCTION, Export, region, template, think

__all__ = ["LONGCAT", "LONGCAT_FLASH_CHAT"]

_LONGCAT = template(
    "ASSISTANT:",
    region(
        r"\s*<longcat_tool_call>",
        r"</longcat_tool_call>\s*",
        content="json",
        transform=FUNCTION,
    ),
    ends=("</longcat_s>",),
    reasoning=think("<longcat_think>", "</longcat_think>"),
)

LONGCAT = Export(_LONGCAT)
LONGCAT_FLASH_CHAT = Export(_LONGCAT)
"""The longcat template: no line breaks around the blocks reads the same."""
