"""The ``response_template`` export of ``hunyuan_v3`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export, kv_tags, template

__all__ = ["HUNYUAN_V3", "HUNYUAN_V3_PREVIEW"]

HUNYUAN_V3 = Export(
    template(
        "<｜hy_Assistant｜>",
        kv_tags(
            r"\s*(?:<tool_calls(?::opensource)?>)?\s*<tool_call(?::opensource)?>"
            r"(?P<name>[^<]+?)<tool_sep(?::opensource)?>",
            r"\s*</tool_call(?::opensource)?>\s*(?:</tool_calls(?::opensource)?>\s*)?",
            r"<arg_key(?::opensource)?>",
            r"</arg_key(?::opensource)?>\s*<arg_value(?::opensource)?>",
            r"</arg_value(?::opensource)?>",
        ),
        ends=("<｜hy_eos:opensource｜>", "<｜hy_eos｜>"),
        reasoning={
            "open_pattern": r"<think(?::opensource)?>",
            "close_pattern": r"</think(?::opensource)?>\s*",
            "content": "text",
        },
    )
)
HUNYUAN_V3_PREVIEW = HUNYUAN_V3
"""The hunyuan_v3 template: it reads the preview's bare spelling too."""
