"""GLM tool calls: ``<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>``.

Emitted by Zhipu GLM-4.5/4.6 (newline form) and GLM-4.7/5 (compact form). The GLM-4.6 chat
template (``zai-org/GLM-4.6`` ``chat_template.jinja``) writes a newline after the name and
after every tag::

    <tool_call>get_weather
    <arg_key>city</arg_key>
    <arg_value>Paris</arg_value>
    </tool_call>

and the GLM-4.7 template (``zai-org/GLM-4.7``) writes the same tags with no whitespace at all:
``<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>``.
A call with no arguments is ``<tool_call>now</tool_call>``. Both forms parse; rendering writes
the 4.7+ compact form, right after the (stripped) content, as the 4.7 template does.

Values are raw text: strings verbatim, everything else ``tojson``; parsing types them by the
request's tool schemas (no schema: JSON when valid, else the string). Reasoning is
``<think>``...``</think>``; the turn-ending tokens ``<|observation|>``, ``<|user|>`` and
``<|endoftext|>`` are stripped. The format has no call ids.
"""

from __future__ import annotations

import re
from typing import Any

from tooletta import DialectInfo, RenderError, ScannerDialect, ToolCall, hookimpl
from tooletta.engine import Block, Grammar, Read, Reader, erase, reasoning_region
from tooletta.toolkit.kvcall import (
    KvTags,
    check_name,
    fast_kv_call,
    read_kv_call,
    render_key,
    render_value,
)

__all__ = ["Glm45Dialect", "register_dialects"]

OPEN = "<tool_call>"
CLOSE = "</tool_call>"
TAGS = KvTags(
    close=CLOSE,
    key_open="<arg_key>",
    key_close="</arg_key>",
    value_open="<arg_value>",
    value_close="</arg_value>",
)

_DETECT = re.compile(r"<tool_call>[ \t\r\n]*[^\s<>{}\"]+[ \t\r\n]*(?:<arg_key>|</tool_call>)")


def read_call(r: Reader) -> Read[None]:
    """One ``<tool_call>`` block: a name, then key/value pairs."""
    yield from read_kv_call(r, TAGS)


class Glm45Dialect(ScannerDialect):
    """``<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>`` per call."""

    info = DialectInfo(
        name="glm45",
        aliases=(
            "glm",
            "glm4_moe",
            "glm47",
            "glm4",
            "glm45_moe",
            "glm47_moe",
            "poolside_v1",
            "ling3",
            "spark25",
        ),
        priority=55,
        markers=(OPEN,),
        models=(
            "zai-org/glm-4.5*",
            "zai-org/glm-4.6*",
            "zai-org/glm-4.7*",
            "zai-org/glm-5*",
            "thudm/glm-4.5*",
        ),
        description=(
            "GLM-4.5+: <tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>, "
            "newline (4.5/4.6) or compact (4.7+) form, values typed by the tool schema"
        ),
        source=(
            "zai-org/GLM-4.6 and zai-org/GLM-4.7 chat_template.jinja; vLLM glm47_moe_tool_parser.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(OPEN, read_call, close=CLOSE, fast=fast_kv_call(TAGS)),
            reasoning_region("<think>", "</think>"),
            erase("<|observation|>"),
            erase("<|user|>"),
            erase("<|endoftext|>"),
        )
    )

    def detect(self, text: str) -> bool:
        """``<tool_call>``, a bare name, then ``<arg_key>`` or ``</tool_call>``."""
        return _DETECT.search(text) is not None

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The GLM-4.7+ compact form, calls written back to back."""
        out = []
        for c in calls:
            if not check_name(c.name):
                raise RenderError(f"tool name {c.name!r} cannot be written", dialect=self.info.name)
            pairs = "".join(
                f"{TAGS.key_open}{render_key(k, TAGS, self.info.name)}{TAGS.key_close}"
                f"{TAGS.value_open}{render_value(v, TAGS, self.info.name)}{TAGS.value_close}"
                for k, v in c.arguments.items()
            )
            out.append(f"{OPEN}{c.name}{pairs}{CLOSE}")
        return "".join(out)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the glm45 dialect."""
    register(Glm45Dialect())
