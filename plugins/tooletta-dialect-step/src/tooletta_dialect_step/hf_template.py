"""The ``response_template`` export of ``step3`` (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export, invoke, template, think

__all__ = ["STEP3"]

STEP3 = Export(
    template(
        "<|BOT|>assistant\n",
        invoke(
            "steptml:",
            "<｜tool_calls_begin｜>",
            "<｜tool_calls_end｜>",
            "invoke",
            "parameter",
            call_open=r"<｜tool_call_begin｜>function<｜tool_sep｜>",
            call_close=r"<｜tool_call_end｜>\s*",
        ),
        ends=("<|EOT|>",),
        reasoning=think(),
    )
)
