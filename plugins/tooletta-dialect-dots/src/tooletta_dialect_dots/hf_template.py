"""The dots dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export, invoke, tagged, template, think

__all__ = ["DOTS", "DOTS3"]

DOTS = Export(
    template(
        "<|response|>",
        invoke("", "<dots_function_call>", "</dots_function_call>", "invoke", "parameter"),
        ends=("<|endofresponse|>",),
    )
)

DOTS3 = Export(
    template(  # dots3-note: a block per call, values between line breaks
        "<|assistant|>",
        tagged(
            r'\s*<dots_function_call>\s*<invoke name="(?P<name>[^"]+)"\s*>',
            r"\s*</invoke>\s*</dots_function_call>\s*",
            r'<parameter name="(?P<key>[^"]+)">\n?(?P<value>.*?)\n?</parameter>',
        ),
        ends=("<|endofassistant|>",),
        reasoning=think(),
    ),
    note="parameter values are text: pass the request's tools to type them",
)
