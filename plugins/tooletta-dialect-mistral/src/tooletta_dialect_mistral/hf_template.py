"""The Mistral dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import EACH, NAMED, Export, region, template, think

__all__ = ["MISTRAL", "MISTRAL_V3", "MISTRAL_V3_SPACED", "MISTRAL_V13"]

_MISTRAL = template(
    "[/INST]",
    region(
        r"\s*\[TOOL_CALLS\](?P<name>[^\[\]{}\s]+)(?:\[CALL_ID\][^\[]*)?\[ARGS\]",
        r"(?=\[TOOL_CALLS\])|\s*</s>\s*|\Z",
        content="json",
        transform=NAMED,
    ),
    ends=("</s>",),
    reasoning=think("[THINK]", "[/THINK]"),
)

MISTRAL = Export(
    _MISTRAL,
    note=(
        "the v11 form (name[ARGS]{json}); the pre-v11 JSON array needs a second tool_calls "
        "field, and an optional [CALL_ID] an optional placeholder, which the spec has neither "
        "of: ids are not kept"
    ),
)

MISTRAL_V13 = Export(_MISTRAL, note="ids are not kept (see mistral)")
"""The mistral template: without [CALL_ID], the same."""

MISTRAL_V3 = Export(
    template(  # Mistral-Nemo: [TOOL_CALLS][{...}, ...]
        "[/INST]",
        {
            "open_pattern": r"\s*\[TOOL_CALLS\]\s*(?=\[)",
            "close_pattern": r"\s*</s>\s*|\Z",
            "content": "json",
            "transform": EACH,
            "transform_each": True,
        },
        ends=("</s>",),
    ),
    note="the JSON array form; ids are not kept (an optional placeholder)",
)

MISTRAL_V3_SPACED = MISTRAL_V3
"""The mistral_v3 template: the space after [TOOL_CALLS] is read as whitespace."""
