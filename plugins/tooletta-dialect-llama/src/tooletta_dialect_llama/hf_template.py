"""The Llama dialects' ``response_template`` exports, or why they cannot have one
(:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import NAMED, Export, region, template

__all__ = ["LLAMA3_JSON", "LLAMA4_JSON"]

LLAMA3_JSON = Export(
    template(
        "<|start_header_id|>assistant<|end_header_id|>\n\n",
        region(
            r'\s*(?:<\|python_tag\|>)?\s*\{"name":\s*"(?P<name>[^"]+)",\s*"(?:parameters|arguments)":\s*',
            r"\}\s*(?:;\s*|<\|eom_id\|>\s*|<\|eot_id\|>\s*|\Z)",
            content="json",
            transform=NAMED,
        ),
        ends=("<|eot_id|>", "<|eom_id|>"),
    ),
    note="a call's name must come before its parameters",
)

LLAMA4_JSON = Export(
    gap=(
        "the content is written inside <|python_start|>...<|python_end|> before the calls: "
        "text outside the regions all goes to the one catch-all content field, which cannot "
        "drop those two tokens"
    )
)
