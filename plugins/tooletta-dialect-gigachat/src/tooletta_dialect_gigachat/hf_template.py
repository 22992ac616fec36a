"""The GigaChat dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import FUNCTION, Export, invoke, region, template, think

__all__ = ["GIGACHAT3", "GIGACHAT31", "GIGACHAT35"]

_ASSISTANT = "assistant<|role_sep|>\n"

GIGACHAT35 = Export(
    template(
        _ASSISTANT,
        invoke(
            "｜GCML｜",
            "<｜GCML｜tool_calls>",
            "</｜GCML｜tool_calls>",
            "invoke",
            "parameter",
            typed=True,
        ),
        ends=("<|message_sep|>", "</s>"),
        reasoning=think(),
    ),
    note="values are text whatever string= says: pass the request's tools to type them",
)

GIGACHAT3 = Export(
    template(
        _ASSISTANT,
        region(
            r"\s*(?:<\|message_sep\|>\s*function call<\|role_sep\|>|<\|function_call\|>)\s*",
            r"\s*(?=<\|message_sep\|>)|\s*</s>\s*|\Z",
            content="json",
            transform=FUNCTION,
        ),
        ends=("</s>", "<|message_sep|>"),
    )
)

GIGACHAT31 = Export(
    template(
        _ASSISTANT,
        region(
            r"\s*(?:<\|message_sep\|>\s*function call<\|role_sep\|>|<\|function_call\|>)\s*",
            r"\s*(?=<\|message_sep\|>|<\|function_call\|>)|\s*</s>\s*|\Z",
            content="json",
            transform=FUNCTION,
        ),
        ends=("</s>", "<|message_sep|>"),
    )
)
