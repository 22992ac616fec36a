"""The pythonic family's ``response_template`` exports, or why a dialect cannot have one
(:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import EACH, Export, chatml, template

__all__ = ["LFM2", "LFM2_V2", "LFM25", "OLMO3", "OLMO3_INSTRUCT", "PYTHONIC", "SARASHINA"]

_LFM2 = chatml(
    {
        "open_pattern": r"\s*<\|tool_call_start\|>(?=\s*\[)",
        "close_pattern": r"\s*<\|tool_call_end\|>\s*",
        "content": "python-call-list",
        "transform": EACH,
        "transform_each": True,
    },
)

LFM2 = Export(
    _LFM2,
    note=(
        "one <|tool_call_start|> block per reply: a second block's list replaces the first "
        "(a list-valued field cannot repeat)"
    ),
)

LFM2_V2 = Export(
    _LFM2,
    note=(
        "the lfm2 template (see lfm2); python-call-list reads Python syntax, in which the JSON "
        "words true, false and null inside an array or object (the LFM2-1.2B form) are not valid"
    ),
)
"""The lfm2 template: arrays and objects as JSON, the same block."""

LFM25 = Export(
    _LFM2,
    note=(
        "the lfm2 template (see lfm2); python-call-list reads Python syntax, in which a raw "
        "line break inside a '...' string (the LFM2.5 form) is not valid"
    ),
)
"""The lfm2 template: unescaped strings, the same block."""

PYTHONIC = Export(
    template(
        "<|header_start|>assistant<|header_end|>\n\n",
        {
            "open_pattern": (
                r"\s*(?:<\|python_start\|>)?(?=\[\s*[A-Za-z_][\w.\-]*\(.*\]\s*"
                r"(?:<\|python_end\|>|<\|eot\|>|<\|eom\|>|<\|eot_id\|>|<\|eom_id\|>)*\s*\Z)"
            ),
            "close_pattern": (
                r"\s*(?:<\|python_end\|>\s*|(?=<\|eot\|>|<\|eom\|>|<\|eot_id\|>|<\|eom_id\|>)|\Z)"
            ),
            "content": "python-call-list",
            "transform": EACH,
            "transform_each": True,
        },
        ends=("<|eot|>", "<|eom|>", "<|eot_id|>", "<|eom_id|>"),
    ),
    note="a list that ends the reply (a template cannot tell a list in prose apart)",
)

OLMO3 = Export(
    gap=(
        "calls are written one per line, not as a list: python-call-list needs [...], and "
        "splitting calls with a regular expression cannot balance brackets in arguments"
    )
)

OLMO3_INSTRUCT = Export(gap="the olmo3 block, calls one per line (see olmo3)")

SARASHINA = Export(
    gap=(
        "calls are Python dict literals: json's string_delims cannot honour escaped quotes, "
        "True/False/None are not JSON, and python-call-list reads calls, not dicts"
    )
)
