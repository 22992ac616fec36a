"""The ``response_template`` export of ``minicpm5`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import NAMED, Export, region, template, think

__all__ = ["MINICPM5"]

MINICPM5 = Export(
    template(
        "<|im_start|>assistant\n",
        region(
            r"\s*<function name=[\"'](?P<name>[^\"']+)[\"']>",
            r"\s*</function>\s*",
            content="xml-inline",
            content_args={
                "tag_pattern": r"<param name=[\"'](?P<key>[^\"']+)[\"']>(?P<value>.*?)</param>",
                "value_parser": {"name": "text"},
            },
            transform=NAMED,
        ),
        ends=("<|im_end|>",),
        reasoning=think(),
    )
)
