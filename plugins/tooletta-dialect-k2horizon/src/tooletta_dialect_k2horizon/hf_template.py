"""The ``response_template`` export of ``k2_horizon`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export, kv_tags, template

__all__ = ["K2_HORIZON"]

K2_HORIZON = Export(
    template(
        "<|ifm|im_start|>assistant\n",
        kv_tags(
            r"\s*(?:<ifm\|tool_calls>)?\s*<ifm\|tool_call>\s*(?P<name>[^\s<]+)\s*",
            r"</ifm\|tool_call>\s*(?:</ifm\|tool_calls>\s*)?",
            r"<ifm\|arg_key>",
            r"</ifm\|arg_key>\s*(?:<ifm\|arg_type>[^<]*</ifm\|arg_type>\s*)?<ifm\|arg_value>",
            r"</ifm\|arg_value>",
        ),
        ends=("<|ifm|im_end|>",),
        reasoning={
            "open_pattern": r"<ifm\|think(?:_fast|_faster)?>",
            "close_pattern": r"</ifm\|think(?:_fast|_faster)?>\s*",
            "content": "text",
        },
    )
)
