"""Conversation formats of the DeepSeek models (their chat templates, V3.2's reference encoder).

All three write the system prompt right after ``<｜begin▁of▁sentence｜>`` with no header (every
system message, joined by a blank line), user turns as ``<｜User｜>`` + text with no footer,
and end an assistant turn with ``<｜end▁of▁sentence｜>``. After tool results the assistant
continues without a header. They differ in the rest:

* V3.1 (:class:`DeepSeekV31Chat`; HF ``deepseek-ai/DeepSeek-V3.1`` ``tokenizer_config.json``):
  the assistant header ``<｜Assistant｜></think>`` only right after a user turn, tool results as
  ``<｜tool▁output▁begin｜>``...``<｜tool▁output▁end｜>`` back to back, no tool declarations,
  reasoning never written into history, the generation prompt (only after a user turn)
  ``<｜Assistant｜></think>`` or, with ``thinking``/``enable_thinking``, ``<｜Assistant｜><think>``.
* R1 and its distills (:class:`DeepSeekR1OfficialChat`, HF ``deepseek-ai/DeepSeek-R1``;
  :class:`DeepSeekR1Chat`, HF ``deepseek-ai/DeepSeek-R1-Distill-*``): ``<｜Assistant｜>``
  before every assistant turn not following tool results, results grouped in
  ``<｜tool▁outputs▁begin｜>``...``<｜tool▁outputs▁end｜>`` (nothing between them in R1's
  template, ``\\n`` in the distills'), the generation prompt ``<｜Assistant｜><think>\\n``. Both
  templates keep flags that never reset (a second round of calls or results loses its
  openings), and the distills' drops the calls of a turn with content and closes a section
  only after a second call; these formats write what a correct template would (see the
  plugin README), and read the distills' unclosed single call back.
* V3.2 (:class:`DeepSeekV32Chat`; HF ``deepseek-ai/DeepSeek-V3.2`` ships a Python encoder,
  ``encoding/encoding_dsv32.py``, not a Jinja template): tool declarations after the system
  prompt (fixed instructions below, one JSON line per function), the assistant header
  ``<｜Assistant｜></think>`` (thinking mode: ``<｜Assistant｜><think>`` for the turns after the
  last user message, whose reasoning is written), results in ``<function_results>``, after
  which ``\\n\\n</think>`` (or ``\\n\\n<think>``) opens the assistant's continuation.

A text content holding ``</think>`` is cut as the templates cut it (the part before is the
model's reasoning, which history does not keep).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from tooletta import Message, RenderError
from tooletta.plugin import (
    ChatFormat,
    ContentCut,
    Conversation,
    Reasoning,
    RolePrompt,
    SystemBlock,
    Turn,
    by_content,
    defaults,
    first_of,
    implicit_after,
    last_index,
    roles,
)

from .tokens import (
    ASSISTANT,
    BOS,
    CALL_BEGIN,
    CALL_END,
    CALLS_BEGIN,
    CALLS_END,
    EOS,
    OUTPUT_BEGIN,
    OUTPUT_END,
    OUTPUTS_BEGIN,
    OUTPUTS_END,
    SEP,
    USER,
)

__all__ = [
    "V32_TOOLS_HEAD",
    "DeepSeekR1Chat",
    "DeepSeekR1OfficialChat",
    "DeepSeekR10528Chat",
    "DeepSeekV31Chat",
    "DeepSeekV32Chat",
]

THINK = "<think>"
END_THINK = "</think>"
_SPECIAL = (
    BOS,
    EOS,
    USER,
    ASSISTANT,
    THINK,
    END_THINK,
    CALLS_BEGIN,
    CALLS_END,
    CALL_BEGIN,
    CALL_END,
    SEP,
    OUTPUTS_BEGIN,
    OUTPUTS_END,
    OUTPUT_BEGIN,
    OUTPUT_END,
)

_R1_NEXT = (OUTPUTS_BEGIN, USER, ASSISTANT)
"""What may follow a call turn the distills' template left open (see
:meth:`DeepSeekR1Chat.assistant_end`)."""

_DSML = "｜DSML｜"
V32_TOOLS_HEAD = (
    "## Tools\n\nYou have access to a set of tools you can use to answer the user's question.\n"
    f'You can invoke functions by writing a "<{_DSML}function_calls>" block like the following '
    "as part of your reply to the user:\n"
    f"<{_DSML}function_calls>\n"
    f'<{_DSML}invoke name="$FUNCTION_NAME">\n'
    f'<{_DSML}parameter name="$PARAMETER_NAME" string="true|false">$PARAMETER_VALUE'
    f"</{_DSML}parameter>\n...\n</{_DSML}invoke>\n"
    f'<{_DSML}invoke name="$FUNCTION_NAME2">\n...\n</{_DSML}invoke>\n'
    f"</{_DSML}function_calls>\n\n"
    "String and scalar parameters should be specified as is without any escaping or quotes, "
    'while lists and objects should use JSON format. The "string" attribute should be set to '
    '"true" for string type parameters and "false" for other types (numbers, booleans, '
    "arrays, objects).\n\n"
    "If the thinking_mode is enabled, then after function results you should strongly "
    "consider outputting a thinking block. Here is an example:\n\n"
    f"<{_DSML}function_calls>\n...\n</{_DSML}function_calls>\n\n"
    "<function_results>\n...\n</function_results>\n\n"
    f"{THINK}...thinking about results{END_THINK}\n\n"
    "Here are the functions available in JSONSchema format:\n<functions>\n"
)
"""DeepSeek V3.2's tool instructions before the function list (``TOOLS_SYSTEM_TEMPLATE`` of
``encoding_dsv32.py``); each function follows as one JSON line, then ``</functions>\\n``."""
_V32_TOOLS_TAIL = "</functions>\n"


def _previous_role(messages: Sequence[Message], index: int) -> str | None:
    """The role of the last message before ``index`` that is not a system message (the
    templates move system messages to the start, so they never separate two turns)."""
    if index > 0:
        role = messages[index - 1].role  # most often the message right before
        if role != "system":
            return role
        for i in range(index - 2, -1, -1):
            role = messages[i].role
            if role != "system":
                return role
    return None


def _headless_first(fmt: ChatFormat, index: int) -> RenderError:
    """The refusal of an assistant turn that no user turn or result precedes: the template
    writes it with no header, right after the system prompt, so it would read back as part
    of the system prompt (its end token included)."""
    return RenderError(
        f"{fmt.name}: the assistant turn at {index} follows no user message or tool result; "
        "the template writes it without a header, as part of the system prompt"
    )


def _thinking(options: Mapping[str, Any]) -> bool:
    """The templates' switch: ``thinking``, else ``enable_thinking``, else off."""
    if options.get("thinking") is not None:
        return bool(options["thinking"])
    return bool(options.get("enable_thinking"))


@by_content
def _v32_tools(functions: list[Any]) -> str:
    """DeepSeek V3.2's tool block: each function as ``tojson`` on a line, remembered by the
    functions' content."""
    return V32_TOOLS_HEAD + "".join(_json(f) + "\n" for f in functions) + _V32_TOOLS_TAIL


def _json(value: Any) -> str:
    """``json.dumps`` as the encoder and the template's ``tojson`` write it."""
    return json.dumps(value, ensure_ascii=False)


_THINKING_SWITCH = RolePrompt(
    on=THINK,
    off=END_THINK,
    switch="thinking",
    default=False,
    alias="enable_thinking",
    heads=(("user", ASSISTANT),),
    passed=frozenset({"system"}),
)
"""DeepSeek V3.1's and V3.2's generation prompt: ``</think>`` opens the reply, ``<think>`` in
thinking mode (``thinking``, else ``enable_thinking``; off by default); the system message is
passed over when looking for the last turn."""


class _DeepSeekChat(ChatFormat):
    """What the DeepSeek formats share: the start, the system prompt (every system message,
    wherever it stands, joined by a blank line), user turns, the assistant going on without a
    header after tool results."""

    bos = BOS
    special_tokens: ClassVar[tuple[str, ...]] = _SPECIAL
    end_of_turn = EOS
    keeps_ids = False
    system_block = SystemBlock(empty_is_none=True)
    """The system prompt as given, an empty one none (the templates write nothing for it);
    V3.2 adds the tool declarations."""
    gather_system = "\n\n"
    """The templates move every system message to the start, joined by a blank line."""
    implicit_roles = implicit_after("tool", "assistant")
    """After tool results (or another assistant turn) the assistant goes on without a header
    (the reader of each format's :meth:`header`)."""


class _HeaderAfterUser(_DeepSeekChat):
    """A DeepSeek format whose assistant turn has its declared header right after a user turn
    only (V3.1: ``<｜Assistant｜></think>``; R1-0528: none, its user turn ends with
    ``<｜Assistant｜>``) and none after tool results or its own turn."""

    user_writes_header: ClassVar[bool] = False
    """The user turn's footer is the assistant header (R1-0528): none after a user turn
    either (the declared one still reads a turn or a generation prompt that follows no user
    turn)."""

    def header(self, index: int, ctx: Conversation) -> str:
        """The declared assistant header only right after a user turn; a first turn (after
        the system prompt only) is refused: it would read back as part of the system prompt.

        Oddity: the assistant header only after a user turn."""
        role = ctx.messages[index].role
        header = self.turns[role].header
        if role != "assistant":
            return header
        previous = _previous_role(ctx.messages, index)
        if previous == "user":
            return "" if self.user_writes_header else header
        if previous is None:
            raise _headless_first(self, index)
        return ""


class DeepSeekV31Chat(_HeaderAfterUser):
    """DeepSeek V3.1 / V3.1-Terminus's chat template (``thinking``/``enable_thinking`` off by
    default)."""

    name = "deepseek_v31"
    source = "deepseek-ai/DeepSeek-V3.1 tokenizer_config.json chat_template"
    turns = roles(
        system=Turn(""),
        user=Turn(USER),
        assistant=Turn(ASSISTANT + END_THINK, EOS),
        tool=Turn(OUTPUT_BEGIN, OUTPUT_END),
    )
    reasoning = Reasoning(THINK, END_THINK, strip="", keep="none")
    options = defaults(enable_thinking=False)
    prompt = _THINKING_SWITCH
    """After a user turn only: ``<｜Assistant｜></think>``, or ``<｜Assistant｜><think>`` in
    thinking mode (``thinking``, else ``enable_thinking``); thinking mode's prompt reads back
    as no message (the derived ``prompt_options``)."""
    content_cut = ContentCut(
        END_THINK,
        where=lambda index, messages: (
            not messages[index].tool_calls and _previous_role(messages, index) == "user"
        ),
    )
    """A turn without calls right after a user turn drops what precedes ``</think>``."""


class DeepSeekR1Chat(_DeepSeekChat):
    """The R1 distills' chat template, as a correct template writes it (R1's own template,
    :class:`DeepSeekR1OfficialChat`, differs in one separator)."""

    name = "deepseek_r1"
    source = "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B tokenizer_config.json chat_template"
    special_tokens: ClassVar[tuple[str, ...]] = (BOS, EOS, USER, ASSISTANT, THINK, END_THINK)
    """The tokens every R1 tokenizer holds as one id (the distills' Qwen and Llama
    vocabularies gained these, not the tool-call tokens of R1's own)."""
    turns = roles(
        system=Turn(""),
        user=Turn(USER),
        assistant=Turn(ASSISTANT, EOS),
        tool=Turn(OUTPUTS_BEGIN, OUTPUTS_END),
    )
    reasoning = Reasoning(THINK + "\n", "\n" + END_THINK + "\n\n", keep="none")
    result_wrap = (OUTPUT_BEGIN, OUTPUT_END)
    group_results = True
    result_separator = "\n"
    content_cut = ContentCut(
        END_THINK,
        last=True,
        where=lambda index, messages: _previous_role(messages, index) != "tool",
    )
    """A turn with its header (not after tool results) drops what precedes the last
    ``</think>``."""
    prompt = RolePrompt(
        on=THINK + "\n",
        off=THINK + "\n",
        heads=(("tool", None),),
        otherwise=ASSISTANT,
        passed=frozenset({"system"}),
    )
    """``<｜Assistant｜><think>\\n``; nothing after tool results (the model goes on)."""

    def header(self, index: int, ctx: Conversation) -> str:
        """``<｜Assistant｜>`` unless the turn continues after tool results.

        Oddity: no assistant header after tool results."""
        role = ctx.messages[index].role
        if role != "assistant":
            return self.turns[role].header
        if _previous_role(ctx.messages, index) == "tool":
            return ""
        return ASSISTANT

    def assistant_end(self, text: str, pos: int) -> int | None:
        """Where a call turn the distills' template left open ends: that template closes a
        section only after its second call, so a single call's turn stops at
        ``<｜tool▁call▁end｜>``, right before the results, the next turn, the generation prompt
        or the end of the text. ``None`` (the turn ends at ``<｜end▁of▁sentence｜>``) for
        every other turn.

        Oddity: the distills' template leaves a single call's section open."""
        stop, _ = first_of(text, _R1_NEXT, pos)
        if stop < 0:
            stop = len(text)
        eos = text.find(EOS, pos, stop)
        if eos >= 0 or not text.endswith(CALL_END, pos, stop):
            return None
        if text.find(CALLS_BEGIN, pos, stop) < 0 or text.find(CALLS_END, pos, stop) >= 0:
            return None
        return stop


class DeepSeekR1OfficialChat(DeepSeekR1Chat):
    """DeepSeek-R1's own chat template (the model repository's ``tokenizer_config.json``):
    the distills' format, except that grouped tool results follow each other with nothing
    between them (the distills' template writes ``\\n``)."""

    name = "deepseek_r1_official"
    source = "deepseek-ai/DeepSeek-R1 tokenizer_config.json chat_template"
    special_tokens = _SPECIAL
    """R1's own tokenizer (V3's) holds the tool-call tokens as single ids too."""
    result_separator = ""


class DeepSeekR10528Chat(_HeaderAfterUser, DeepSeekR1OfficialChat):
    """DeepSeek-R1-0528's own chat template: R1's, except that the user turn ends with the
    assistant header ``<｜Assistant｜>`` (an assistant turn writes none), so the generation
    prompt is ``<｜Assistant｜>`` only after an assistant turn (nothing after a user turn or
    tool results) and opens no ``<think>``; grouped results are separated by ``\\n`` (the
    distills' separator); every assistant turn, after tool results too, drops what precedes
    the last ``</think>``. Its flags reset with each call turn: a second round of calls or
    results keeps its openings."""

    name = "deepseek_r1_0528"
    source = "deepseek-ai/DeepSeek-R1-0528 tokenizer_config.json chat_template"
    turns = roles(**{**DeepSeekR1OfficialChat.turns, "user": Turn(USER, ASSISTANT)})
    """R1's turns; the user turn ends with ``<｜Assistant｜>``."""
    user_writes_header = True
    implicit_roles = implicit_after("user", "tool", "assistant")
    """Every assistant turn is written without a header (after a user turn, that turn's
    ``<｜Assistant｜>`` precedes it)."""
    result_separator = "\n"
    content_cut = ContentCut(END_THINK, last=True, where=lambda index, messages: True)
    """Every assistant turn drops what precedes the last ``</think>``."""
    prompt = RolePrompt(
        on="",
        off="",
        heads=(("user", None), ("tool", None)),
        otherwise=ASSISTANT,
        passed=frozenset({"system"}),
    )
    """``<｜Assistant｜>``, except after a user turn (which wrote it) or tool results."""


class DeepSeekV32Chat(_DeepSeekChat):
    """DeepSeek V3.2 as its reference encoder writes it (``thinking``/``enable_thinking``
    off by default: the encoder's ``chat`` mode)."""

    name = "deepseek_v32"
    source = "deepseek-ai/DeepSeek-V3.2 encoding/encoding_dsv32.py (reference encoder)"
    special_tokens = (BOS, EOS, USER, ASSISTANT, THINK, END_THINK)
    turns = roles(
        system=Turn(""),
        user=Turn(USER),
        assistant=Turn(ASSISTANT, EOS),
        tool=Turn("\n\n<function_results>", "\n</function_results>"),
    )
    reasoning = Reasoning("", END_THINK, strip="", keep="none")
    """None in the default (chat) mode; thinking mode's rule is :meth:`kept_in`."""
    result_wrap = ("\n<result>", "</result>")
    group_results = True
    options = defaults(enable_thinking=False)
    prompt = replace(_THINKING_SWITCH, heads=(("user", ASSISTANT), ("tool", "\n\n")), always=True)
    """``<｜Assistant｜></think>`` after a user turn, ``\\n\\n</think>`` after tool results
    (``<think>`` in thinking mode); nothing after an assistant turn. The encoder writes this
    opening even without a generation prompt (it is part of those messages: ``always``);
    thinking mode's openings read back as no message (the derived ``prompt_options``)."""

    system_block = SystemBlock(
        lambda tools: _v32_tools(
            [t["function"] for t in tools if t.get("type", "function") == "function"]
        ),
        head=V32_TOOLS_HEAD,
        empty_is_none=True,
    )
    """The system prompt, then (after a blank line, when it is not empty) the tool
    declarations; an empty prompt is none."""

    def kept_in(self, index: int, ctx: Conversation) -> bool:
        """The encoder's oddity: in thinking mode (``thinking``, else ``enable_thinking``)
        the turns after the last user (or developer) message write their reasoning; none in
        the default (chat) mode."""
        if not _thinking(ctx.options):
            return False
        last_user = ctx.once(
            "last_user_or_developer",
            lambda: last_index(ctx.messages, lambda m: m.role in ("user", "developer")),
        )
        return index > last_user

    def header(self, index: int, ctx: Conversation) -> str:
        """``<｜Assistant｜></think>`` after a user turn, ``\\n\\n</think>`` after the results
        (``<think>`` instead for a turn whose reasoning is written); a first turn (after the
        system prompt only) is refused: it would read back as part of the system prompt.

        Oddity: the assistant header depends on the previous role and the thinking mode."""
        messages = ctx.messages
        role = messages[index].role
        if role != "assistant":
            return self.turns[role].header
        previous = _previous_role(messages, index)
        if previous == "user":
            lead = ASSISTANT
        elif previous == "tool":
            lead = "\n\n"
        elif previous is None:
            raise _headless_first(self, index)
        else:
            return ""
        return lead + (THINK if self.kept_in(index, ctx) else END_THINK)

    def read_header(self, text: str, pos: int) -> tuple[str, int] | None:
        """The assistant's headers; ``<think>`` stays in the body (the reasoning follows).

        Oddity: the reader of :meth:`header`'s several openings."""
        for lead in (ASSISTANT, "\n\n"):
            if text.startswith(lead + END_THINK, pos):
                return "assistant", pos + len(lead + END_THINK)
            if text.startswith(lead + THINK, pos):
                return "assistant", pos + len(lead)
        return None

    def assistant_text(self, index: int, ctx: Conversation) -> str:
        """The body; in thinking mode the turns after the last user message start with their
        reasoning and ``</think>``.

        Oddity: an empty reasoning still writes ``</think>`` in thinking mode."""
        message = ctx.messages[index]
        thinks = self.kept_in(index, ctx)
        body = self.turn_body(message, thinks, index == len(ctx.messages) - 1, ctx)
        return END_THINK + body if thinks and not message.reasoning else body
