"""The GigaChat dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from typing import Any

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


def _json_calls(next_call: str) -> dict[str, Any]:
    """GigaChat 3 / 3.1 calls: a JSON call object after a ``function call`` message head or
    ``<|function_call|>``, up to ``next_call`` (a pattern of what may follow a call), ``</s>``
    or the end."""
    return template(
        _ASSISTANT,
        region(
            r"\s*(?:<\|message_sep\|>\s*function call<\|role_sep\|>|<\|function_call\|>)\s*",
            rf"\s*(?={next_call})|\s*</s>\s*|\Z",
            content="json",
            transform=FUNCTION,
        ),
        ends=("</s>", "<|message_sep|>"),
    )


GIGACHAT3 = Export(_json_calls(r"<\|message_sep\|>"))
GIGACHAT31 = Export(_json_calls(r"<\|message_sep\|>|<\|function_call\|>"))
