"""Kimi K3's conversation format.

K3 ships no Jinja template: its tokenizer's ``apply_chat_template`` (``tokenization_kimi.py``,
which defaults ``thinking_effort`` to ``"max"``) calls the reference encoder
``encoding_k3.build_chat_segments`` of the model repository. This format follows that encoder
(read from vLLM's copy, ``vllm/tokenizers/encoding_k3.py``); the tests compare it with
llama.cpp's Jinja port of it (``models/templates/Kimi-K3.jinja``), which agrees on the
sample conversations (differences: see the plugin README).

Every message is an XTML element ``<|open|>message role="ROLE"[ name="NAME"]<|sep|>`` ...
``<|close|>message<|sep|>``, then ``<|end_of_msg|>``; nothing between messages. Before the
messages: with tools, a ``tool-declare`` system message holding the tool list as JSON with its
keys sorted (compact, as the template's ``json_sorted`` macro writes it); with thinking on (the
default), a ``thinking-effort`` system message. An assistant message holds the ``think``
channel (thinking on: every turn, reasoning or not), the ``response`` channel and the
``tools`` element (the ``kimi_k3`` dialect writes the last two). A tool result is
``<|open|>message role="tool" tool="NAME" index="N"<|sep|>`` + content, ``N`` counting the
results since the last assistant message. The generation prompt opens the assistant message
and its first channel (``think``, or ``response`` with thinking off).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tooletta import Message, RenderError, ToolCall
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Neutral,
    Preamble,
    Prompt,
    Reasoning,
    Turn,
    by_content,
    defaults,
    roles,
)

__all__ = ["EncoderPrompt", "KimiK3Chat", "sorted_json"]

OPEN = "<|open|>"
CLOSE = "<|close|>"
SEP = "<|sep|>"
END_OF_MSG = "<|end_of_msg|>"
MESSAGE_CLOSE = f"{CLOSE}message{SEP}"
_FOOTER = MESSAGE_CLOSE + END_OF_MSG
THINK_OPEN = f"{OPEN}think{SEP}"
THINK_CLOSE = f"{CLOSE}think{SEP}"
RESPONSE_OPEN = f"{OPEN}response{SEP}"
EFFORTS = ("low", "medium", "high", "max")
"""The ``thinking_effort`` values written (the message text's list; the reference encoder
asserts on ``medium``, llama.cpp's port writes it, and so do we)."""
TOOLS_HEAD = (
    f'{OPEN}message role="system" type="tool-declare"{SEP}'
    "# Tools\nHere are the available tools, described in JSONSchema.\n\n```json\n"
)
"""The tool declaration message up to the JSON (template text)."""
TOOLS_TAIL = f"\n```{_FOOTER}"
EFFORT_HEAD = f'{OPEN}message role="system" type="thinking-effort"{SEP}'
EFFORT_TEXT = (
    "`thinking_effort` guides on how much to think in your thinking channel (not including "
    "the response channel), supported values include `low`, `medium`, `high`, and `max`.\n"
    "Now the system is invoked with `thinking_effort={}`."
)
"""The thinking-effort message's text (template text; ``{}`` is the effort)."""


_ROLE_ATTR = f'{OPEN}message role="'


def _escape(value: str) -> str:
    return value.replace("&", "&amp;").replace('"', "&quot;")


def _open_message(role: str, name: str | None = None) -> str:
    attrs = f' name="{_escape(name)}"' if name else ""
    return f'{OPEN}message role="{role}"{attrs}{SEP}'


def sorted_json(value: Any) -> str:
    """``value`` as the reference encoder writes tool declarations: compact JSON, non-ASCII
    kept, every object's keys sorted by code point (``encoding_k3.deep_sort_dict``, Python's
    ``sorted``), arrays in their order."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    except (TypeError, ValueError, RecursionError) as exc:
        raise RenderError(f"tool definitions are not JSON: {exc}") from None


@by_content
def _tools_message(tools: list[Any]) -> str:
    """The tool declaration message, remembered by the definitions' content."""
    return TOOLS_HEAD + sorted_json(tools) + TOOLS_TAIL


@dataclass(frozen=True)
class EncoderPrompt(Prompt):
    """A generation prompt whose switch the reference encoder tests as Python does (``if
    thinking:``): any false value (``None``, ``0``...) turns it off, not only ``False``."""

    def thinking(self, options: Mapping[str, Any]) -> bool:
        """Whether the switch is on under ``options`` (its truth value)."""
        return bool(options.get(self.switch, self.default))


_PROMPT = EncoderPrompt(on=THINK_OPEN, off=RESPONSE_OPEN, switch="thinking")


def _preamble(ctx: Conversation) -> str:
    """The tool declaration message (with tools) and the thinking-effort message (thinking
    on, an effort given), before the first message."""
    out = _tools_message(list(ctx.tools)) if ctx.tools else ""
    if _PROMPT.thinking(ctx.options):
        effort = ctx.options.get("thinking_effort", "max")
        if effort is not None and effort not in EFFORTS:
            raise RenderError(
                f"unsupported thinking_effort={effort!r}; supported values are "
                "low, medium, high, and max"
            )
        if effort is not None:
            out += EFFORT_HEAD + EFFORT_TEXT.format(effort).strip() + _FOOTER
    return out


class KimiK3Chat(ChatFormat):
    """Kimi K3's chat template (XTML messages; thinking on by default)."""

    name = "kimi_k3"
    unwritten_fields = defaults(system=defaults(tools=Neutral(None, [])))
    """A system message's ``tools`` key, which the template declares as tools of their own
    there; refused when set."""
    unwritten_options = defaults(
        image_prompts=Neutral(None, "", []),
        response_format=Neutral(None, {}, {"type": "text"}),
        tool_choice=Neutral(None, "auto"),
    )
    """The template's ``image_prompts``, ``response_format`` (JSON mode) and ``tool_choice``
    (``"none"``, ``"required"``) write text of their own; refused unless neutral."""
    source = (
        "moonshotai/Kimi-K3 encoding_k3.py (reference encoder, via vLLM's copy); checked "
        "against ggml-org/llama.cpp models/templates/Kimi-K3.jinja (181a4a8f), its Jinja port"
    )
    turns = roles(
        system=Turn(_open_message("system"), _FOOTER),
        user=Turn(_open_message("user"), _FOOTER),
        assistant=Turn(_open_message("assistant"), END_OF_MSG),
        tool=Turn(f'{OPEN}message role="tool"', _FOOTER),
    )
    end_of_turn = END_OF_MSG
    special_tokens = (OPEN, CLOSE, SEP, END_OF_MSG)
    reasoning = Reasoning(
        THINK_OPEN,
        THINK_CLOSE,
        strip="",
        keep="all",
        empty="kept",
        switch="thinking",
        switched="none",
        blank_empty=True,
    )
    """The encoder writes every turn's think channel when thinking is on (:attr:`prompt`'s
    switch, read by its truth value), none when it is off."""
    merge_system = False
    keeps_ids = False
    options = defaults(thinking=True, thinking_effort="max")
    prompt = _PROMPT
    """The assistant's opening tag and its first channel: ``think`` with thinking on, else
    ``response`` (that prompt read back as no message)."""
    preamble = Preamble(_preamble, ((TOOLS_HEAD, TOOLS_TAIL), (EFFORT_HEAD, _FOOTER)))
    """The tool declaration and the thinking-effort messages before the first message."""

    def header(self, index: int, ctx: Conversation) -> str:
        """The message's opening tag: its role and ``name``; a tool result's tool name and
        index.

        Oddity: tool results name their tool and index in the tag."""
        message = ctx.messages[index]
        if message.role == "tool":
            name, nth = _result_of(ctx.messages, index)
            return f'{OPEN}message role="tool" tool="{_escape(name)}" index="{nth}"{SEP}'
        return _open_message(message.role, message.name)

    def read_header(self, text: str, pos: int) -> tuple[str, int] | None:
        """A message's opening tag at ``pos``: its role, and where the tag ends.

        Oddity: the reader of :meth:`header`'s attributes."""
        if not text.startswith(_ROLE_ATTR, pos):
            return None
        at = pos + len(_ROLE_ATTR)
        quote = text.find('"', at)
        end = text.find(SEP, at)
        if quote < 0 or end < 0:
            return None
        return text[at:quote], end + len(SEP)

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """The channels, then the message's closing tag (generated by the model before
        ``<|end_of_msg|>``).

        Oddity: the generated closing tag before ``<|end_of_msg|>``."""
        return super().turn_body(message, kept, last, ctx) + MESSAGE_CLOSE


def _result_of(messages: Sequence[Message], index: int) -> tuple[str, int]:
    """The tool name and 1-based index the template writes for the result at ``index``.

    The index counts the tool results since the last assistant message. The name is the answered
    call's when every result of the run names a call of that message by id (the template
    then writes them in call order), else the result's ``name``, else the call at its
    position."""
    last = index
    while last >= 0 and messages[last].role != "assistant":
        last -= 1
    calls: Sequence[ToolCall] = messages[last].tool_calls if last >= 0 else ()
    first = index
    while first > 0 and messages[first - 1].role == "tool":
        first -= 1
    end = index
    while end + 1 < len(messages) and messages[end + 1].role == "tool":
        end += 1
    nth = sum(1 for m in messages[last + 1 : index + 1] if m.role == "tool")
    ids = {c.id: c.name for c in calls if c.id is not None}
    run = messages[first : end + 1]
    message = messages[index]
    if run and all(m.tool_call_id is not None and m.tool_call_id in ids for m in run):
        return ids[message.tool_call_id or ""], nth
    if message.name:
        return message.name, nth
    if 0 < nth <= len(calls):
        return calls[nth - 1].name, nth
    raise RenderError("a Kimi K3 tool result needs a name: its own, or a call to answer")
