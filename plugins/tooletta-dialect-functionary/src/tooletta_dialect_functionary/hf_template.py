"""The Functionary dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import NAMED, Export, region, template

__all__ = ["FUNCTIONARY_V31", "FUNCTIONARY_V32"]

_ASSISTANT = "<|start_header_id|>assistant<|end_header_id|>\n\n"

FUNCTIONARY_V31 = Export(
    template(
        _ASSISTANT,
        region(
            r"\s*<function=(?P<name>[^>]+)>",
            r"</function>\s*",
            content="json",
            transform=NAMED,
        ),
        ends=("<|eom_id|>", "<|eot_id|>"),
    )
)

FUNCTIONARY_V32 = Export(
    template(
        _ASSISTANT + ">>>",
        region(
            r"(?:\A|>>>)(?!all\n)(?P<name>[\w.\-]+)\n",
            r"\s*(?=>>>)|\s*<\|eot_id\|>\s*|\Z",
            content="json",
            transform=NAMED,
        ),
        ends=("<|eot_id|>",),
        extra={"markup": {"open_pattern": r"(?:\A|>>>)all\n", "close_pattern": ""}},
    )
)
