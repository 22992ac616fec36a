"""K2 Horizon (K2-v3) tool calls: ``<ifm|tool_calls>`` + ``<ifm|tool_call>`` blocks.

The K2 Horizon chat template (read through two third-party ports that check byte parity
against ``transformers``; the model's own file was not read) has three call formats, chosen by
its ``tool_call_format`` option, and the assistant turn is
``<ifm|think>\\nREASONING</ifm|think>CONTENT<ifm|tool_calls>`` + calls +
``\\n</ifm|tool_calls><|ifm|im_end|>``. Each call is ``\\n<ifm|tool_call>`` + one of:

* ``xml`` (the default)::

      get_weather
      <ifm|arg_key>city</ifm|arg_key>
      <ifm|arg_value>Paris</ifm|arg_value>
      </ifm|tool_call>

* ``xml_typed``: the same with ``<ifm|arg_type>TYPE</ifm|arg_type>\\n`` before each value;
* ``json``: ``{"name": "get_weather", "arguments": {"city": "Paris"}}</ifm|tool_call>``.

All three parse (each block says which it is, as SGLang's ``k2_horizon`` parser reads them).
Values are raw text: strings verbatim, everything else JSON; parsing types them by the
request's tool schemas, then by the inline ``arg_type`` when the schema does not pin one type
(no schema at all: JSON when valid, else the string). Rendering writes the default ``xml``
format. Reasoning is ``<ifm|think>``, ``<ifm|think_fast>`` or ``<ifm|think_faster>``;
``<|ifm|im_end|>`` is stripped. The format has no call ids.
"""

from __future__ import annotations

from typing import Any

from tooletta import DialectInfo, RenderError, ScannerDialect, ToolCall, hookimpl
from tooletta.plugin import (
    Grammar,
    KvTags,
    check_name,
    erase,
    kv_call_block,
    reasoning_region,
    render_pairs,
)

__all__ = ["K2HorizonDialect", "register_dialects"]

OPEN = "<ifm|tool_call>"
CLOSE = "</ifm|tool_call>"
GROUP_OPEN = "<ifm|tool_calls>"
GROUP_CLOSE = "</ifm|tool_calls>"
TAGS = KvTags(
    close=CLOSE,
    key_open="<ifm|arg_key>",
    key_close="</ifm|arg_key>",
    value_open="<ifm|arg_value>",
    value_close="</ifm|arg_value>",
    type_open="<ifm|arg_type>",
    type_close="</ifm|arg_type>",
    json_call=True,
)
THINK = ("ifm|think", "ifm|think_fast", "ifm|think_faster")


class K2HorizonDialect(ScannerDialect):
    """``<ifm|tool_calls>`` + ``<ifm|tool_call>NAME<ifm|arg_key>K</ifm|arg_key>...``."""

    info = DialectInfo(
        name="k2_horizon",
        aliases=("k2v3",),
        priority=90,
        markers=(OPEN,),
        description=(
            "K2 Horizon: <ifm|tool_calls><ifm|tool_call>NAME<ifm|arg_key>K</ifm|arg_key>"
            "[<ifm|arg_type>T</ifm|arg_type>]<ifm|arg_value>V</ifm|arg_value></ifm|tool_call>"
            " or a JSON call; <ifm|think> reasoning"
        ),
        source="K2 Horizon chat template (third-party byte-parity ports); SGLang k2_v3_detector.py",
    )
    grammar = Grammar(
        blocks=(
            kv_call_block(OPEN, TAGS),
            erase(GROUP_OPEN),
            erase(GROUP_CLOSE),
            *(reasoning_region(f"<{t}>", f"</{t}>") for t in THINK),
            erase("<|ifm|im_end|>"),
        )
    )

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The template's default ``xml`` call format, all calls in one group."""
        d = self.info.name
        out = [GROUP_OPEN]
        for c in calls:
            if not check_name(c.name):
                raise RenderError(f"tool name {c.name!r} cannot be written", dialect=d)
            out.append(f"\n{OPEN}{c.name}\n")
            out.append(render_pairs(c.arguments, TAGS, d, between="\n", after="\n"))
            out.append(CLOSE)
        out.append(f"\n{GROUP_CLOSE}")
        return "".join(out)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the k2_horizon dialect."""
    register(K2HorizonDialect())
