"""The ``response_template`` export of ``vcp`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import NAMED, Export, region, template, think

__all__ = ["VCP"]

VCP = Export(
    template(
        "<|im_start|>assistant\n",
        region(
            r"\s*<<<\[TOOL_REQUEST\]>>>\s*tool_name:「始」(?P<name>.*?)「末」,?\s*",
            r"\s*<<<\[END_TOOL_REQUEST\]>>>\s*",
            content="xml-inline",
            content_args={
                "tag_pattern": r"(?P<key>[^\s:,「」]+):「始」(?P<value>.*?)「末」",
                "value_parser": {"name": "text"},
            },
            transform=NAMED,
        ),
        ends=("<|im_end|>",),
        reasoning=think(),
    ),
    note="tool_name must come first; 「始ESCAPE」 values are not unescaped",
)
