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

Llama 4 Instruct (Scout, Maverick) has its own template (:class:`Llama4Chat`), written by
Hugging Face into the converted ``meta-llama/Llama-4-*`` repositories: the same tool
instructions, ``<|header_start|>ROLE<|header_end|>\\n\\n`` headers and ``<|eot|>``, a system turn
only when a system message is given, untrimmed texts apart from the system message and the
first user message, and the call turn ``<|python_start|>`` CONTENT ``<|python_end|>`` followed
by the call objects back to back (the ``llama4_json`` variant dialect writes it).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from tooletta import Message, RenderError
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    JsonResults,
    Neutral,
    Turn,
    by_content,
    defaults,
    each_role,
    text_of,
    tool_json,
)

__all__ = [
    "SYSTEM_TOOLS_HEAD",
    "USER_TOOLS_HEAD",
    "Llama4Chat",
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
_CUTOFF = "Cutting Knowledge Date: December 2023\nToday Date: "
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


def _declares_tools(index: int, ctx: Conversation) -> bool:
    """Whether the user turn at ``index`` carries the tool declarations: the first turn
    after the system message, with tools and ``tools_in_user_message`` (the default)."""
    return bool(
        ctx.tools
        and index <= 1
        and index == _first_turn(ctx.messages)
        and ctx.options.get("tools_in_user_message", True)
    )


def _check_first_user(name: str, ctx: Conversation) -> None:
    """Refuse tools in the first user message when the conversation has none to hold them."""
    first = _first_turn(ctx.messages)
    if first >= len(ctx.messages) or ctx.messages[first].role != "user":
        raise RenderError(
            f"{name}: the tools go in the first user message and the conversation "
            "does not start with one (pass tools_in_user_message=False)"
        )


class _LlamaFamily(ChatFormat):
    """What the Llama 3.x and Llama 4 templates share: the tool declarations in the first
    user turn (``tools_in_user_message``, the default), tool results through ``tojson``, and
    the text a system turn carries back; ``<|begin_of_text|>`` first; call ids never written."""

    bos = "<|begin_of_text|>"
    keeps_ids = False
    result_json = JsonResults()
    """Tool results through ``tojson`` (strings and lists are iterable in Jinja, so a text
    result becomes a JSON string literal, a list of parts the JSON of that list)."""

    def user_text(self, index: int, ctx: Conversation) -> str:
        """Oddity: the first user turn carries the tool declarations
        (:func:`_declares_tools`), its content trimmed; other turns as :attr:`trim` says."""
        if _declares_tools(index, ctx):
            content = self.text(ctx.messages[index].content).strip()
            return USER_TOOLS_HEAD + tool_list(ctx.tools) + content
        return super().user_text(index, ctx)

    def parse_user(self, body: str) -> str:
        """Oddity (the inverse of :meth:`user_text`'s): the user's content without the tool
        declarations the first user turn carries."""
        if body.startswith(USER_TOOLS_HEAD):
            return body[skip_tool_list(body, len(USER_TOOLS_HEAD)) :]
        return body

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """Oddity: as the default (texts trimmed where :attr:`trim` says), and the first system
        message and the content beside calls trimmed (the parser drops the whitespace around
        them), no system message when its trimmed content is empty (the template writes the
        same then)."""
        out = []
        for i, m in enumerate(super().expressible(messages)):
            if (m.role == "system" and i == 0) or m.tool_calls:
                m = msgspec.structs.replace(m, content=text_of(m.content).strip())
            out.append(m)
        if out and out[0].role == "system" and not out[0].content:
            out = out[1:]
        return out


class LlamaChat(_LlamaFamily):
    """The Llama 3.x chat template (the parts Llama 3.1, 3.2 and 3.3 share)."""

    name = "llama3"
    turns = each_role(lambda role: Turn(header(role), _EOT), tool="ipython")
    end_of_turn = _EOT
    special_tokens = (
        "<|begin_of_text|>",
        "<|start_header_id|>",
        "<|end_header_id|>",
        _EOT,
        "<|python_tag|>",
    )
    options = defaults(tools_in_user_message=True, date_string="26 Jul 2024")
    trim = frozenset(("system", "user", "assistant"))
    """User, assistant and system texts trimmed (tool results go through ``tojson``)."""
    builtin_tools: ClassVar[bool] = False
    """The template reads a ``builtin_tools`` option (Llama 3.1's); not supported here, so
    :meth:`system_text` refuses it."""

    def date(self, ctx: Conversation) -> str:
        """The ``Today Date:`` value: the ``date_string`` option."""
        given = ctx.options.get("date_string")
        return given if type(given) is str else str(given)

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """Oddity: the environment and date lines, the tool declarations when they go in the
        system turn, then the trimmed system message (the turn is always written). Refuses
        ``builtin_tools`` where the template reads it (:attr:`builtin_tools`)."""
        if self.builtin_tools and ctx.options.get("builtin_tools"):
            raise RenderError(
                f"{self.name}: built-in tools (builtin_tools) are not supported; declare them "
                "as ordinary tools"
            )
        tools = ctx.tools
        system = system.strip() if system else ""
        if not tools:
            return _CUTOFF + self.date(ctx) + "\n\n" + system
        if ctx.options.get("tools_in_user_message", True):
            _check_first_user(self.name, ctx)
            return _ENVIRONMENT + _CUTOFF + self.date(ctx) + "\n\n" + system
        head = _ENVIRONMENT + _CUTOFF + self.date(ctx) + "\n\n" + SYSTEM_TOOLS_HEAD
        return head + tool_list(tools) + system

    def parse_system(self, body: str) -> str | None:
        """Oddity (the inverse of :meth:`system_text`'s): the system message after the
        environment, date and tool lines (``None`` if empty)."""
        m = _DATES.match(body)
        if m is None:
            return body
        pos = m.end()
        if body.startswith(SYSTEM_TOOLS_HEAD, pos):
            pos = skip_tool_list(body, pos + len(SYSTEM_TOOLS_HEAD))
        return body[pos:] or None


class Llama31Chat(LlamaChat):
    """Llama 3.1 and 3.3 Instruct (one template): ``Today Date: 26 Jul 2024`` unless
    ``date_string`` says otherwise. Built-in tools (``builtin_tools``: ``<|python_tag|>``
    ``NAME.call(...)`` and ``<|eom_id|>``) are not supported: asking for them raises."""

    name = "llama31"
    unwritten_options = defaults(builtin_tools=Neutral(), custom_tools=Neutral())
    """The template's ``builtin_tools`` and ``custom_tools`` (read even when ``None``) write a
    tool list of their own; refused when given."""
    source = (
        "meta-llama/Llama-3.1-8B-Instruct and meta-llama/Llama-3.3-70B-Instruct "
        "tokenizer_config.json chat_template (identical)"
    )

    builtin_tools = True


class Llama32Chat(LlamaChat):
    """Llama 3.2 Instruct (1B, 3B): ``Today Date:`` is today (``strftime_now("%d %b %Y")``)
    unless ``date_string`` is given."""

    name = "llama32"
    unwritten_options = defaults(custom_tools=Neutral())
    """The template's ``custom_tools`` (read even when ``None``) writes a tool list of its own;
    refused when given."""
    source = "meta-llama/Llama-3.2-3B-Instruct tokenizer_config.json chat_template"
    options = defaults(tools_in_user_message=True, date_string=None)

    def date(self, ctx: Conversation) -> str:
        """The ``date_string`` option, else today as ``strftime_now("%d %b %Y")``."""
        given = ctx.options.get("date_string")
        if given is None:
            return ctx.strftime_now("%d %b %Y")
        return given if type(given) is str else str(given)


_EOT4 = "<|eot|>"


def header4(role: str) -> str:
    """A Llama 4 role header: ``<|header_start|>ROLE<|header_end|>\\n\\n``."""
    return f"<|header_start|>{role}<|header_end|>\n\n"


def _strip_environment(body: str) -> tuple[str, bool]:
    if body.startswith(_ENVIRONMENT):
        return body[len(_ENVIRONMENT) :], True
    return body, False


class Llama4Chat(_LlamaFamily):
    """Llama 4 Scout and Maverick Instruct: the template Hugging Face wrote into the converted
    ``meta-llama/Llama-4-*-Instruct`` repositories (``processing_llama4.py``'s default).

    * ``<|begin_of_text|>``; a system turn only when the conversation starts with a system
      message: ``Environment: ipython`` (with tools), the tool declarations when
      ``tools_in_user_message=False``, then the trimmed system message;
    * the tool declarations (the Llama 3 instruction text, each tool as ``tojson(indent=4)``
      and a blank line) in the first user turn by default, whose content is trimmed; every
      other text as given;
    * a call turn ``<|python_start|>`` + content + ``<|python_end|>`` + the call objects back
      to back (the ``llama4_json`` dialect's form); tool results as ``ipython`` turns through
      ``tojson``; ``<|eot|>`` ends every turn.

    Where the template drops the tools (``tools_in_user_message=False`` without a system
    message) this format writes the system turn that carries them (see the README).
    """

    name = "llama4"
    unwritten_options = defaults(custom_tools=Neutral())
    """The template's ``custom_tools`` (read even when ``None``) writes a tool list of its own;
    refused when given."""
    source = (
        "meta-llama/Llama-4-Scout-17B-16E-Instruct and Llama-4-Maverick-17B-128E-Instruct "
        "chat_template (huggingface/transformers src/transformers/models/llama4/"
        "processing_llama4.py, written by convert_llama4_weights_to_hf.py)"
    )
    turns = each_role(lambda role: Turn(header4(role), _EOT4), tool="ipython")
    end_of_turn = _EOT4
    special_tokens = (
        "<|begin_of_text|>",
        "<|header_start|>",
        "<|header_end|>",
        _EOT4,
        "<|python_start|>",
        "<|python_end|>",
    )
    options = defaults(tools_in_user_message=True)

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """Oddity: with a system message: the environment line (with tools), the declarations when
        they go in the system turn, then the trimmed message. Without one: no turn, unless
        the tools go in the system turn (the template would drop them)."""
        tools = ctx.tools
        if not tools:
            return None if system is None else system.strip()
        if ctx.options.get("tools_in_user_message", True):
            _check_first_user(self.name, ctx)
            return None if system is None else _ENVIRONMENT + system.strip()
        return _ENVIRONMENT + SYSTEM_TOOLS_HEAD + tool_list(tools) + (system or "").strip()

    def parse_system(self, body: str) -> str | None:
        """Oddity (the inverse of :meth:`system_text`'s): the system message after the
        environment line and the tool declarations (``None`` when the turn holds only
        those)."""
        rest, tools = _strip_environment(body)
        if tools and rest.startswith(SYSTEM_TOOLS_HEAD):
            rest = rest[skip_tool_list(rest, len(SYSTEM_TOOLS_HEAD)) :]
        return rest or None
