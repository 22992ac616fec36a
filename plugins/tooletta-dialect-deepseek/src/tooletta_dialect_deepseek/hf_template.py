"""The DeepSeek dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from typing import Any

from tooletta.interop.hf.spec import NAMED, Export, invoke, region, template, think

__all__ = ["DEEPSEEK_V3", "DEEPSEEK_V4", "DEEPSEEK_V31", "DEEPSEEK_V32"]

_STRING_ATTR = "values are text whatever string= says: pass the request's tools to type them"


def _reply(calls: dict[str, Any]) -> dict[str, Any]:
    """A reply after ``<｜Assistant｜>``: ``<think>`` reasoning, content and ``calls``, up to
    the end-of-sentence token."""
    return template("<｜Assistant｜>", calls, ends=("<｜end▁of▁sentence｜>",), reasoning=think())


def _json_calls(head: str, before_end: str = "") -> dict[str, Any]:
    """``<｜tool▁call▁begin｜>`` calls (in an optional ``<｜tool▁calls▁begin｜>`` section):
    ``head`` names the call, its JSON arguments follow, then ``before_end`` and
    ``<｜tool▁call▁end｜>``."""
    return region(
        r"\s*(?:<｜tool▁calls▁begin｜>)?\s*<｜tool▁call▁begin｜>" + head,
        before_end + r"\s*<｜tool▁call▁end｜>\s*(?:<｜tool▁calls▁end｜>\s*)?",
        content="json",
        transform=NAMED,
    )


def _dsml(prefix: str, calls: str) -> dict[str, Any]:
    """DSML ``invoke`` calls, their tags spelled with ``prefix``, in a ``calls`` section."""
    return invoke(prefix, f"<{calls}>", f"</{calls}>", "invoke", "parameter", typed=True)


DEEPSEEK_V3 = Export(
    _reply(_json_calls(r"function<｜tool▁sep｜>(?P<name>[^\n]+)\n```(?:json)?\n", r"\s*```"))
)
DEEPSEEK_V31 = Export(_reply(_json_calls(r"(?P<name>[^<]+?)<｜tool▁sep｜>")))
DEEPSEEK_V32 = Export(_reply(_dsml("｜DSML｜", "｜DSML｜function_calls")), note=_STRING_ATTR)
DEEPSEEK_V4 = Export(
    _reply(_dsml(r"｜DSML｜\s?", r"｜DSML｜\s?(?:tool_calls|calls)")), note=_STRING_ATTR
)
