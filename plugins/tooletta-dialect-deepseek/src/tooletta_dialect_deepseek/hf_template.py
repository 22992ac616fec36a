"""The ``response_template`` the DeepSeek dialects export
(:func:`tooletta.interop.hf.to_response_template`), checked by tooletta's tests on the
dialects' golden fixtures through transformers' ``parse_response``."""

from __future__ import annotations

from tooletta.interop.hf.spec import NAMED, Export, invoke, region, template, think

__all__ = ["DEEPSEEK_V3", "DEEPSEEK_V4", "DEEPSEEK_V31", "DEEPSEEK_V32"]

_ASSISTANT = "<｜Assistant｜>"
_ENDS = ("<｜end▁of▁sentence｜>",)
_STRING_ATTR = "values are text whatever string= says: pass the request's tools to type them"

DEEPSEEK_V3 = Export(
    template(
        _ASSISTANT,
        region(
            r"\s*(?:<｜tool▁calls▁begin｜>)?\s*<｜tool▁call▁begin｜>function<｜tool▁sep｜>"
            r"(?P<name>[^\n]+)\n```(?:json)?\n",
            r"\s*```\s*<｜tool▁call▁end｜>\s*(?:<｜tool▁calls▁end｜>\s*)?",
            content="json",
            transform=NAMED,
        ),
        ends=_ENDS,
        reasoning=think(),
    )
)

DEEPSEEK_V31 = Export(
    template(
        _ASSISTANT,
        region(
            r"\s*(?:<｜tool▁calls▁begin｜>)?\s*<｜tool▁call▁begin｜>(?P<name>[^<]+?)<｜tool▁sep｜>",
            r"\s*<｜tool▁call▁end｜>\s*(?:<｜tool▁calls▁end｜>\s*)?",
            content="json",
            transform=NAMED,
        ),
        ends=_ENDS,
        reasoning=think(),
    )
)

DEEPSEEK_V32 = Export(
    template(
        _ASSISTANT,
        invoke(
            "｜DSML｜",
            "<｜DSML｜function_calls>",
            "</｜DSML｜function_calls>",
            "invoke",
            "parameter",
            typed=True,
        ),
        ends=_ENDS,
        reasoning=think(),
    ),
    note=_STRING_ATTR,
)

DEEPSEEK_V4 = Export(
    template(
        _ASSISTANT,
        invoke(
            r"｜DSML｜\s?",
            r"<｜DSML｜\s?(?:tool_calls|calls)>",
            r"</｜DSML｜\s?(?:tool_calls|calls)>",
            "invoke",
            "parameter",
            typed=True,
        ),
        ends=_ENDS,
        reasoning=think(),
    ),
    note=_STRING_ATTR,
)
