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
from typing import Any, ClassVar

from tooletta import DialectInfo, RenderError, ScannerDialect, ToolCall, hookimpl
from tooletta.plugin import (
    ChatFormat,
    Grammar,
    KvTags,
    check_name,
    erase,
    kv_call_block,
    reasoning_region,
    render_key,
    variant_info,
)
from tooletta.plugin import kv_render_value as render_value
from tooletta_dialect_glm.chat import Glm45VChat, Glm46Chat, Glm46VChat, Glm47Chat
from tooletta_dialect_glm.chat5 import Glm52Chat
from tooletta_dialect_glm.chat51 import Glm51Chat
from tooletta_dialect_glm.models import MODELS

__all__ = ["Glm45Dialect", "Glm46Dialect", "register_dialects"]

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


COMPACT = ("<tool_call>", "", "</arg_key><arg_value>", "</arg_value>")
"""The GLM-4.7+ spelling of a call (see :func:`write_calls`): no whitespace."""
NEWLINES = ("\n<tool_call>", "\n", "</arg_key>\n<arg_value>", "</arg_value>\n")
"""The GLM-4.5/4.6 spelling of a call: a newline before the call, after the name and after
every tag, as the 4.6 template writes them."""


def write_calls(calls: Any, dialect: str, spelling: tuple[str, str, str, str]) -> str:
    """Calls (their names checked) in a GLM spelling (:data:`COMPACT` or :data:`NEWLINES`:
    what opens a call, what follows its name, what goes between a key and its value and what
    follows a value): ``OPEN NAME AFTER (<arg_key>K BETWEEN V AFTER_VALUE)* </tool_call>``.
    Keys and values as :func:`~tooletta.toolkit.kvcall.render_key` and
    :func:`~tooletta.toolkit.kvcall.render_value` write them (refusing what would not read
    back)."""
    call_open, after_name, between, after_value = spelling
    out = []
    for c in calls:
        out.append(call_open + c.name + after_name)
        for k, v in c.arguments.items():
            out.append(
                "<arg_key>"
                + render_key(k, TAGS, dialect)
                + between
                + render_value(v, TAGS, dialect)
                + after_value
            )
        out.append("</tool_call>")
    return "".join(out)


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
            kv_call_block(OPEN, TAGS),
            reasoning_region("<think>", "</think>"),
            erase("<|observation|>"),
            erase("<|user|>"),
            erase("<|endoftext|>"),
        )
    )

    def detect(self, text: str) -> bool:
        """``<tool_call>``, a bare name, then ``<arg_key>`` or ``</tool_call>``."""
        return _DETECT.search(text) is not None

    reasoning_markup = ("<think>", "</think>")
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (
        Glm47Chat(),
        Glm46Chat(),
        Glm52Chat(),
        Glm51Chat(),
    )

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The GLM-4.7+ compact form, calls written back to back."""
        return write_calls(self.checked(calls), self.info.name, COMPACT)

    def checked(self, calls: list[ToolCall]) -> list[ToolCall]:
        """The calls, refused when a name cannot be written."""
        for c in calls:
            if not check_name(c.name):
                raise RenderError(f"tool name {c.name!r} cannot be written", dialect=self.info.name)
        return calls

    def key(self, key: str) -> str:
        """An argument name as written (refused when it would not read back)."""
        return render_key(key, TAGS, self.info.name)

    def value(self, value: Any) -> str:
        """A value as written: strings verbatim, the rest as JSON."""
        return render_value(value, TAGS, self.info.name)


class Glm46Dialect(Glm45Dialect):
    """GLM-4.5/4.6's spelling: a newline after the name and after every tag, each call
    preceded by a newline (the 4.6 template's form). Parses like ``glm45``."""

    info = variant_info(
        Glm45Dialect.info,
        "glm46",
        aliases=("glm4_6", "glm45_newline"),
        description="GLM-4.5/4.6 newline form of glm45 (variant, rendering only)",
        source="zai-org/GLM-4.6 chat_template.jinja",
    )
    chat_formats = (Glm46Chat(), Glm45VChat(), Glm46VChat())

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The GLM-4.5/4.6 newline form."""
        return write_calls(self.checked(calls), self.info.name, NEWLINES)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the glm45 dialect and its glm46 variant."""
    for declared in (Glm45Dialect(), Glm46Dialect(), *MODELS):
        register(declared)
