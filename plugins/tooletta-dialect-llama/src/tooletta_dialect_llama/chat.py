"""Conversation formats of Llama 3.1 / 3.2 / 3.3 Instruct (their Hugging Face chat templates).

Pinned from the models' own templates (``tokenizer_config.json`` ``chat_template``, vendored
for the tests from llama.cpp's ``models/templates/meta-llama-Llama-3.{1,2,3}-*.jinja``;
Llama 3.1 and 3.3 ship the same template byte for byte, so they share one format):

* ``<|begin_of_text|>``, then always a system turn
  (``<|start_header_id|>system<|end_header_id|>\\n\\n`` ... ``<|eot_id|>``) that opens with
  ``Environment: ipython`` (with tools), the knowledge cut-off and ``Today Date:`` lines, then
  the (trimmed) system message;
* the tool declarations (fixed instruction text, then each tool as ``tojson(indent=4)``
  followed by a blank line) in the first user turn (``tools_in_user_message``, the default) or
  in the system turn;
* user, assistant and system messages trimmed; tool results as ``ipython`` turns whose content
  the template writes through ``tojson`` (a string result is written as a JSON string literal);
  ``<|eot_id|>`` ends every turn.

Llama 3.2's template differs only in the date (``strftime_now("%d %b %Y")``, today, where 3.1
writes ``26 Jul 2024``) and in having no built-in tools.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from tooletta import Message, RenderError, to_json
from tooletta.chat import (
    ChatFormat,
    Conversation,
    Turn,
    by_content,
    defaults,
    roles,
    text_of,
    tool_json,
)

__all__ = [
    "SYSTEM_TOOLS_HEAD",
    "USER_TOOLS_HEAD",
    "Llama31Chat",
    "Llama32Chat",
    "LlamaChat",
]

_EOT = "<|eot_id|>"
_RESPOND = (
    'Respond in the format {"name": function name, "parameters": dictionary of argument name '
    "and its value}.Do not use variables.\n\n"
)
SYSTEM_TOOLS_HEAD = (
    "You have access to the following functions. To call a function, please respond with JSON "
    "for a function call." + _RESPOND
)
"""The instructions before the tool list in the system turn (``tools_in_user_message=False``)."""
USER_TOOLS_HEAD = (
    "Given the following functions, please respond with a JSON for a function call with its "
    "proper arguments that best answers the given prompt.\n\n" + _RESPOND
)
"""The instructions before the tool list in the first user turn (the default)."""
_ENVIRONMENT = "Environment: ipython\n"
_DATES = re.compile(
    r"(?:Environment: ipython\n)?Cutting Knowledge Date: December 2023\n"
    r"Today Date: [^\n]*\n\n"
)
_DECODER = json.JSONDecoder()


def header(role: str) -> str:
    """A Llama 3 role header: ``<|start_header_id|>ROLE<|end_header_id|>\\n\\n``."""
    return f"<|start_header_id|>{role}<|end_header_id|>\n\n"


@by_content
def tool_list(tools: Sequence[Mapping[str, Any]]) -> str:
    """Each tool as the template writes it: ``tojson(indent=4)`` and a blank line (remembered
    by the list's content)."""
    return "".join(tool_json(t, indent=4) + "\n\n" for t in tools)


def skip_tool_list(text: str, pos: int) -> int:
    """Where the tool list written by :func:`tool_list` at ``pos`` ends: past each JSON object
    that is a tool definition (``"type": "function"`` or a ``"function"`` member) and the blank
    line after it."""
    while text.startswith("{", pos):
        try:
            obj, end = _DECODER.raw_decode(text, pos)
        except (ValueError, RecursionError):
            return pos
        is_tool = isinstance(obj, dict) and (obj.get("type") == "function" or "function" in obj)
        if not is_tool or not text.startswith("\n\n", end):
            return pos
        pos = end + 2
    return pos


def _first_turn(messages: Sequence[Message]) -> int:
    return 1 if messages and messages[0].role == "system" else 0


class LlamaChat(ChatFormat):
    """The Llama 3.x chat template (the parts Llama 3.1, 3.2 and 3.3 share)."""

    name = "llama3"
    bos = "<|begin_of_text|>"
    turns = roles(
        system=Turn(header("system"), _EOT),
        user=Turn(header("user"), _EOT),
        assistant=Turn(header("assistant"), _EOT),
        tool=Turn(header("ipython"), _EOT),
    )
    end_of_turn = _EOT
    special_tokens = (
        "<|begin_of_text|>",
        "<|start_header_id|>",
        "<|end_header_id|>",
        _EOT,
        "<|python_tag|>",
    )
    keeps_ids = False
    options = defaults(tools_in_user_message=True, date_string="26 Jul 2024")

    def date(self, ctx: Conversation) -> str:
        """The ``Today Date:`` value: the ``date_string`` option."""
        return str(ctx.options.get("date_string"))

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The environment and date lines, the tool declarations when they go in the system
        turn, then the trimmed system message (the turn is always written)."""
        tools = ctx.tools
        in_user = bool(ctx.options.get("tools_in_user_message", True))
        if tools and in_user:
            first = _first_turn(ctx.messages)
            if first >= len(ctx.messages) or ctx.messages[first].role != "user":
                raise RenderError(
                    f"{self.name}: the tools go in the first user message and the conversation "
                    "does not start with one (pass tools_in_user_message=False)"
                )
        text = _ENVIRONMENT if tools else ""
        text += f"Cutting Knowledge Date: December 2023\nToday Date: {self.date(ctx)}\n\n"
        if tools and not in_user:
            text += SYSTEM_TOOLS_HEAD + tool_list(tools)
        return text + (system or "").strip()

    def parse_system(self, body: str) -> str | None:
        """The system message after the environment, date and tool lines (``None`` if empty)."""
        m = _DATES.match(body)
        if m is None:
            return body
        pos = m.end()
        if body.startswith(SYSTEM_TOOLS_HEAD, pos):
            pos = skip_tool_list(body, pos + len(SYSTEM_TOOLS_HEAD))
        return body[pos:] or None

    def user_text(self, index: int, ctx: Conversation) -> str:
        """The trimmed content; the first user turn carries the tool declarations."""
        content = text_of(ctx.messages[index].content).strip()
        in_user = bool(ctx.options.get("tools_in_user_message", True))
        if ctx.tools and in_user and index == _first_turn(ctx.messages):
            return USER_TOOLS_HEAD + tool_list(ctx.tools) + content
        return content

    def parse_user(self, body: str) -> str:
        """The user's content without the tool declarations."""
        if body.startswith(USER_TOOLS_HEAD):
            return body[skip_tool_list(body, len(USER_TOOLS_HEAD)) :]
        return body

    def result_text(self, index: int, ctx: Conversation) -> str:
        """The result through ``tojson``, as the template writes it (strings and lists are
        iterable in Jinja, so a text result becomes a JSON string literal)."""
        content = ctx.messages[index].content
        try:
            return to_json(content if isinstance(content, list) else text_of(content))
        except RenderError as exc:
            raise RenderError(f"tool result is not JSON: {exc}") from None

    def parse_result(self, body: str) -> str:
        """The text of a JSON string literal; any other body as written."""
        try:
            value = json.loads(body)
        except (ValueError, RecursionError):
            return body
        return value if isinstance(value, str) else body

    def content_text(self, content: str, after_reasoning: bool) -> str:
        """The template trims an assistant's content."""
        return content.strip()

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """What the text carries: trimmed texts, no ids, no reasoning, and no system message
        when its trimmed content is empty (the system turn is written either way)."""
        out = [
            m
            if m.role == "tool"
            else msgspec.structs.replace(m, content=text_of(m.content).strip())
            for m in super().expressible(messages)
        ]
        if out and out[0].role == "system" and not out[0].content:
            out = out[1:]
        return out


class Llama31Chat(LlamaChat):
    """Llama 3.1 and 3.3 Instruct (one template): ``Today Date: 26 Jul 2024`` unless
    ``date_string`` says otherwise. Built-in tools (``builtin_tools``: ``<|python_tag|>``
    ``NAME.call(...)`` and ``<|eom_id|>``) are not supported: asking for them raises."""

    name = "llama31"
    models = (
        "meta-llama/llama-3.1-*-instruct*",
        "meta-llama/meta-llama-3.1-*-instruct*",
        "meta-llama/llama-3.3-*-instruct*",
    )
    source = (
        "meta-llama/Llama-3.1-8B-Instruct and meta-llama/Llama-3.3-70B-Instruct "
        "tokenizer_config.json chat_template (identical)"
    )

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """As :class:`LlamaChat`; refuses ``builtin_tools`` (not supported)."""
        if ctx.options.get("builtin_tools"):
            raise RenderError(
                f"{self.name}: built-in tools (builtin_tools) are not supported; declare them "
                "as ordinary tools"
            )
        return super().system_text(system, ctx)


class Llama32Chat(LlamaChat):
    """Llama 3.2 Instruct (1B, 3B): ``Today Date:`` is today (``strftime_now("%d %b %Y")``)
    unless ``date_string`` is given."""

    name = "llama32"
    models = ("meta-llama/llama-3.2-1b-instruct*", "meta-llama/llama-3.2-3b-instruct*")
    source = "meta-llama/Llama-3.2-3B-Instruct tokenizer_config.json chat_template"
    options = defaults(tools_in_user_message=True, date_string=None)

    def date(self, ctx: Conversation) -> str:
        """The ``date_string`` option, else today as ``strftime_now("%d %b %Y")``."""
        given = ctx.options.get("date_string")
        return str(given) if given is not None else ctx.strftime_now("%d %b %Y")
