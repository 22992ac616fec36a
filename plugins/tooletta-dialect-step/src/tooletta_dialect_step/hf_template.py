"""The ``response_template`` step3 exports (:func:`tooletta.interop.hf.to_response_template`),
checked by tooletta's tests on the dialect's golden fixtures through transformers'
``parse_response``."""

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
