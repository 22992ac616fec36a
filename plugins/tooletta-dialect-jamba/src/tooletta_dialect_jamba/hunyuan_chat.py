"""The conversation format of Tencent Hunyuan-A13B-Instruct (its ``tokenizer_config.json``
``chat_template``, as published in Tencent's ``Hunyuan-A13B`` repository).

The template has two layouts. With tools, one opening block
``<|startoftext|>PROMPT<|extra_4|>``: fixed Chinese instructions, the tool list as one
``tojson`` line, then, when the first message is a system message, its text as
``额外要求：`` (extra requirements) and closing instructions, the current date and weekday;
users are ``用户：TEXT<|extra_0|>``, tool results ``<tool_response>TEXT</tool_response><|extra_0|>``
(one turn each), an assistant turn with calls is ``CONTENT<tool_calls>[...]</tool_calls><|eos|>``
and one without is ``助手：CONTENT<|eos|>``. Without tools: ``<|startoftext|>SYSTEM<|extra_4|>``,
users ``<|startoftext|>TEXT<|extra_0|>`` (no start token right after the system turn),
assistants ``CONTENT<|eos|>``. No role token precedes an assistant turn: a user's
``<|extra_0|>`` is the prompt. No reasoning, no call ids, no generation prompt (the template
ignores ``add_generation_prompt``); ``enable_thinking=False`` appends ``<think>\\n\\n</think>\\n``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from time import strftime
from typing import Any

import msgspec

from tooletta import Message, RenderError, ToolCall
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Prompt,
    Turn,
    by_content,
    clock,
    defaults,
    first_of,
    roles,
    text_of,
    tool_json,
)

__all__ = ["HunyuanA13bChat"]

SOT = "<|startoftext|>"
EXTRA_0 = "<|extra_0|>"
EXTRA_4 = "<|extra_4|>"
EOS = "<|eos|>"
USER_TAG = "用户："
ASSISTANT_TAG = "助手："
CALLS_OPEN = "<tool_calls>"
RESULT_OPEN = "<tool_response>"
RESULT_CLOSE = "</tool_response>"

_FORMAT = (
    '<tool_calls>[{"name": "func_name1", "arguments": {"argument1": "value1", '
    '"argument2": "value2"}},...]</tool_calls>'
)
_HEAD = (
    "你是一位函数组合专家。你会得到一个问题和一组可能的函数。根据问题，你需要进行一个或多个函数/工具调用以实现目的。\n"
    "如果没有一个函数可以使用，请直接使用自然语言回复用户，以助手：开头。\n"
    "如果给定的问题缺少函数所需的参数，请使用自然语言进行提问，向用户询问必要信息，以助手：开头。\n"
    "如果调用结果已经足够回答用户问题，请对历史结果进行总结，使用自然语言回复用户，以助手：开头。\n"
    f"你应该只在工具调用部分返回函数调用。如果你决定调用任何函数，你必须将其格式化为{_FORMAT}。"
    "你不应该在回复中包含任何其他文本。以下是你可以调用的函数列表，格式为JSON。\n"
)
_EXTRA = "\n额外要求：\n"
_WITH_SYSTEM = (
    f"\n\n如果你决定返回函数调用，请将其格式化为{_FORMAT}，不得包含其他文本。"
    "如果额外要求里有格式要求，请忽略，以此处为准。\n否则，请参考开头说的三种情况，以助手：开头进行回复。\n\n"
    "如果额外要求里有时间信息，就以额外要求里的时间为准，否则，参考当前时间："
)
_WITHOUT_SYSTEM = (
    f"\n如果你决定返回函数调用，请将其格式化为{_FORMAT}，不得包含其他文本。\n"
    "否则，请参考开头说的三种情况，以助手：开头进行回复。\n\n当前时间："
)
_WEEKDAYS = {
    "Monday": "星期一",
    "Tuesday": "星期二",
    "Wednesday": "星期三",
    "Thursday": "星期四",
    "Friday": "星期五",
    "Saturday": "星期六",
    "Sunday": "星期日",
}
_NO_THINK = "<think>\n\n</think>\n"
_UNTAGGED_ENDS = (EOS, EXTRA_0)
_IMPLICIT = {"system": "user", "user": "user", "tool": "tool", "assistant": "tool"}
"""Without tools, the role of an untagged turn that ends with ``<|extra_0|>`` (an assistant
turn ends with ``<|eos|>``), by the role before it: the first user after the system turn,
the second user of a conversation that starts with one (the template writes no start token
for either), or a result after a result or an assistant turn."""


def _now(ctx: Conversation) -> str:
    """The date and the weekday in Chinese (a weekday that is not an English name, from a
    pinned ``strftime_now`` or another locale, is written as given: the template fails on
    it).

    Without a pinned ``strftime_now``, the clock is read once and both fields are formatted
    by one ``time.strftime``, which is what ``datetime.strftime`` calls for them (same text,
    locale included), given the fields they read instead of the whole ``timetuple()``
    (the template reads the clock twice, a microsecond apart)."""
    if "strftime_now" not in ctx.options:
        when = clock.now()
        if type(when) is datetime:
            fields = (
                when.year,
                when.month,
                when.day,
                when.hour,
                when.minute,
                when.second,
                when.weekday(),
                1,  # the day of the year: no field written here reads it
                -1,
            )
            stamp, _, day = strftime("%Y-%m-%d %H:%M:%S\n%A", fields).partition("\n")
            return stamp + " " + _WEEKDAYS.get(day, day)
    day = ctx.strftime_now("%A")
    return ctx.strftime_now("%Y-%m-%d %H:%M:%S") + " " + _WEEKDAYS.get(day, day)


@by_content
def _tool_prompt(tools: Any) -> tuple[str, str]:
    """The tool prompt up to the date, remembered by content: without a system message, and
    with one (up to its text)."""
    head = _HEAD + "\n" + tool_json(list(tools)) + "\n"
    return head + _WITHOUT_SYSTEM, head + _EXTRA


def _tools_mode(text: str) -> bool:
    return text.startswith(SOT + _HEAD)


class HunyuanA13bChat(ChatFormat):
    """Tencent Hunyuan-A13B-Instruct: ``<|startoftext|>``/``<|extra_0|>``/``<|extra_4|>``
    turns, a Chinese tool prompt with the date, ``用户：``/``助手：`` tags with tools.

    Option: ``enable_thinking`` (``False`` appends an empty think block at the end).
    """

    name = "hunyuan_a13b"
    source = "tencent/Hunyuan-A13B-Instruct tokenizer_config.json (Tencent-Hunyuan/Hunyuan-A13B)"
    bos = SOT
    turns = roles(
        system=Turn("", EXTRA_4),
        user=Turn("", EXTRA_0),
        assistant=Turn("", EOS),
        tool=Turn("", EXTRA_0),
    )
    end_of_turn = EOS
    special_tokens = (SOT, EXTRA_0, EXTRA_4, EOS)
    keeps_ids = False
    options = defaults(enable_thinking=True)
    prompt = Prompt(off=_NO_THINK, always=True)
    """Nothing (no assistant header: the last ``<|extra_0|>`` is the prompt), or the empty
    think block when ``enable_thinking`` is off, written with or without a generation prompt
    (the template ignores the switch); read back as no message (the derived
    ``prompt_options``): every turn ends with a footer token."""

    def _check(self, ctx: Conversation) -> None:
        """The first message is a system or user message (a later system message is refused
        by :meth:`header`, which is asked for every later message)."""
        messages = ctx.messages
        if messages and messages[0].role not in ("system", "user"):
            raise RenderError(
                "hunyuan_a13b: a conversation starts with a system or user message (the "
                "template writes no start token otherwise)"
            )
        if (
            not ctx.tools
            and len(messages) > 1
            and messages[0].role == "system"
            and not text_of(messages[0].content)
            and messages[1].role != "user"
        ):
            raise RenderError(
                f"hunyuan_a13b: message 1 ({messages[1].role}) follows an empty system message, "
                "which the template writes as nothing without tools: it would read back as the "
                "first user message"
            )

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """With tools: the tool prompt (and the system text as extra requirements), written
        with the first message (none for an empty conversation); without: the system text,
        when it is not empty.

        Oddity: two layouts: with tools the tool prompt (the system message as extra
        requirements, the date and weekday), without the bare system text."""
        self._check(ctx)
        if not ctx.tools or not ctx.messages:
            return system or None  # no message: the template writes no tool prompt either
        alone, extra = _tool_prompt(ctx.tools)
        if system is None:
            return alone + _now(ctx)
        return extra + system + _WITH_SYSTEM + _now(ctx)

    def header(self, index: int, ctx: Conversation) -> str:
        """``用户：`` (tools) or ``<|startoftext|>`` (no tools; none for the first user, whose
        start token is the conversation's) before a user; nothing before other turns. A
        system message after the first is refused.

        Oddity: no role headers: the user's header is a tag with tools, a start token without
        (none for the first user)."""
        messages = ctx.messages
        role = messages[index].role
        if role == "user":
            if ctx.tools:
                return USER_TAG
            return "" if index <= 1 else SOT
        if role == "system" and index > 0:
            raise RenderError(
                "hunyuan_a13b: only the first message may be a system message (the template "
                "writes a later one as bare text that reads back as part of another turn)"
            )
        if role == "tool" and not ctx.tools and index > 0:
            before = messages[index - 1].role
            if before in ("system", "user"):
                raise RenderError(
                    f"hunyuan_a13b: the tool result at {index} follows a {before} message; "
                    "without tools the template writes it as bare text ending like a user "
                    "turn, so it would read back as a user message"
                )
        return ""

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """The content and the calls in the ``jamba`` form, without ids (the template writes
        none). With tools, an answer (a turn without calls) starts with ``助手：``: the
        template has no generation prompt and its tool prompt asks the model to start answers
        with the tag, so the model writes it (it is generated text, trained).
        ``render(model=...)`` knows no tools and writes the answer without it.

        Oddity: with tools an answer starts with ``助手：``, and calls are written without ids."""
        content = message.content
        if type(content) is not str:
            content = self.text(content)
        calls = message.tool_calls
        if calls and not all(c.id is None for c in calls):
            calls = [ToolCall(c.name, c.arguments) for c in calls]
        body = self.calls_text(ctx.dialect, calls, content)
        return ASSISTANT_TAG + body if ctx.tools and not calls else body

    def result_text(self, index: int, ctx: Conversation) -> str:
        """``<tool_response>TEXT</tool_response>`` with tools, the bare text without.

        Oddity: results are wrapped in ``<tool_response>`` only when tools are declared."""
        text = text_of(ctx.messages[index].content)
        return RESULT_OPEN + text + RESULT_CLOSE if ctx.tools else text

    def parse_result(self, body: str) -> str:
        """The text inside ``<tool_response>``, or the body.

        Oddity: the reader of :meth:`result_text`'s two forms."""
        if body.startswith(RESULT_OPEN) and body.endswith(RESULT_CLOSE):
            return body[len(RESULT_OPEN) : -len(RESULT_CLOSE)]
        return body

    def parse_user(self, body: str) -> str:
        """A user's text; for the opening block with tools, the system text in it.

        Oddity: the opening block with tools holds the system message inside the tool prompt."""
        if not body.startswith(_HEAD):
            return body
        start = body.find(_EXTRA)
        end = body.rfind(_WITH_SYSTEM)
        return body[start + len(_EXTRA) : end] if 0 <= start < end else ""

    def read_header(self, text: str, pos: int) -> tuple[str, int] | None:
        """The turn starting at ``pos``: the opening block, a tagged user or tool result, an
        assistant turn (with tools every untagged turn; without, one whose first footer token
        is ``<|eos|>``), or ``None`` (an untagged turn ending with ``<|extra_0|>``:
        :meth:`implicit_role`).

        Oddity: no role headers: a turn's role is read from its tag, its end token or the
        layout."""
        tools = _tools_mode(text)
        if pos == len(SOT):
            if tools:
                end = text.find(EXTRA_4, pos)
                if end < 0:
                    return None
                if text.find(_EXTRA, pos, end) >= 0:
                    return ("system", pos)
                after = end + len(EXTRA_4)
                return (
                    "user",
                    after + len(USER_TAG) if text.startswith(USER_TAG, after) else after,
                )
            return ("system", pos) if text.find(EXTRA_4, pos) >= 0 else ("user", pos)
        if tools:
            if text.startswith(USER_TAG, pos):
                return ("user", pos + len(USER_TAG))
            if text.startswith(RESULT_OPEN, pos):
                return ("tool", pos)
            return ("assistant", pos)  # users and results are tagged: the rest answers
        if text.startswith(SOT, pos):
            return ("user", pos + len(SOT))
        _, token = first_of(text, _UNTAGGED_ENDS, pos)
        return ("assistant", pos) if token == EOS else None

    def implicit_role(self, previous: str | None) -> str | None:
        """Untagged turns without tools that end with ``<|extra_0|>`` (:meth:`read_header`
        reads those ending with ``<|eos|>`` as assistant turns): a user after the system turn
        or after the first user, a (bare) result after an assistant turn or a result.

        Oddity: untagged turns without tools (the reader of :meth:`header`'s missing headers)."""
        return _IMPLICIT.get(previous) if previous is not None else None

    def expressible(self, messages: Sequence[Message]) -> list[Message]:
        """The default, without reasoning; an empty first system message is no message when
        no tools are used (nothing is written for it).

        Oddity: an empty system message is written as nothing without tools."""
        out = super().expressible(messages)
        uses_tools = any(m.tool_calls or m.role == "tool" for m in messages)
        if out and out[0].role == "system" and out[0].content == "" and not uses_tools:
            out = out[1:]
        return out

    def expressible_for(self, messages: Sequence[Message], ctx: Conversation) -> list[Message]:
        """:meth:`expressible`, with the layout known: an empty first system message is no
        message exactly when no tools are declared (the tools layout writes it as empty extra
        requirements, which read back).

        Oddity: an empty system message is written as nothing without tools (known here from the
        declared tools)."""
        out = super().expressible(messages)
        if out and out[0].role == "system" and out[0].content == "" and not ctx.tools:
            out = out[1:]
        return out

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Mapping[str, Any]]) -> Any:
        """The turn's texts as written: after the ``助手：`` tag its header wrote (exactly the
        tag: the dialect's parse would also drop the whitespace after it), the content up to
        the calls (the dialect's parse trims it), then the calls read by the dialect.

        Oddity: the ``助手：`` tag and the content's whitespace are kept as written."""
        if body.startswith(ASSISTANT_TAG):
            body = body[len(ASSISTANT_TAG) :]
        at = body.find(CALLS_OPEN)
        if at < 0:
            return dialect.parse(body, tools=list(tools) or None)
        result = dialect.parse(body[at:], tools=list(tools) or None)
        return msgspec.structs.replace(result, content=body[:at] + result.content)
