"""The conversation law (issue 22): what ``render_conversation`` writes reads back as the
same messages, or it refuses them, typed; ``parse_conversation`` reads any text into
messages or refuses it, typed.

* :func:`check_conversation_law`: ``render_conversation(m)`` raises a
  :class:`~tooletta.ToolettaError` subclass, or returns a text that ``parse_conversation``
  reads back as ``m`` (what the format carries of it: its
  :meth:`~tooletta.chat.ChatFormat.expressible_for`);
* :func:`check_parse_total`: ``parse_conversation(text)`` returns a list of
  :class:`~tooletta.Message` or raises a :class:`~tooletta.ToolettaError` subclass;
* :func:`check_tools_refused`: a format whose template writes no tools
  (:attr:`ChatFormat.writes_tools <tooletta.chat.ChatFormat.writes_tools>` false) refuses a
  conversation with tool declarations, calls or results (what :func:`check_conversation_law`
  asserts for such a format instead of a round trip); :func:`tool_free` gives a conversation
  without them, for the law to be checked on.

:class:`~tooletta.testing.conversations.ConversationTests` runs both over
:func:`~tooletta.testing.oddities.odd_conversations` and
:func:`~tooletta.testing.oddities.mutated_renders`, so every format, first-party or not,
keeps them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from .. import api
from ..chat.format import Conversation
from ..chat.lookup import resolve_format
from ..chat.messages import read_conversation, read_tool_definitions, text_of
from ..chat.notools import ToolsRefusedError, uses_tools, writes_tools
from ..errors import RenderError, ToolettaError
from ..ir import Message, ToolCall

__all__ = [
    "check_conversation_law",
    "check_parse_total",
    "check_tools_refused",
    "comparable",
    "refused_for_tools",
    "tool_free",
]


def comparable(messages: Sequence[Message]) -> list[Message]:
    """What the law compares of each message: role, text content, calls (name, arguments,
    id) and reasoning; texts up to whitespace at either end, which templates trim (a
    documented limit: see :func:`~tooletta.chat.samples.random_conversations`)."""
    return [
        Message(
            role=m.role,
            content=text_of(m.content).strip(),
            tool_calls=[ToolCall(c.name, c.arguments, c.id) for c in m.tool_calls],
            reasoning=m.reasoning.strip(),
        )
        for m in messages
    ]


def _comparable(messages: Sequence[Message]) -> list[Message]:
    """What the kit's round trip compares of each message, exactly (no trimming)."""
    return [
        Message(
            role=m.role,
            content=text_of(m.content),
            tool_calls=[ToolCall(c.name, c.arguments, c.id) for c in m.tool_calls],
            reasoning=m.reasoning,
        )
        for m in messages
    ]


def check_conversation_law(
    messages: Sequence[Any],
    *,
    model: str | None = None,
    dialect: str | None = None,
    tools: Sequence[Any] | None = None,
    add_generation_prompt: bool = False,
    **options: Any,
) -> str | None:
    """Render ``messages``: a :class:`~tooletta.ToolettaError` is a refusal (the law holds);
    any other exception, a text ``parse_conversation`` cannot read, or one it reads as other
    messages than the format's ``expressible_for`` of them raises ``AssertionError``. Returns
    the text (``None`` when refused). A format that writes no tools must refuse a
    conversation with tools (:func:`check_tools_refused`), whatever else it holds."""
    fmt, obj = resolve_format(model, dialect)
    try:
        read = read_conversation(messages)
        if not writes_tools(fmt) and uses_tools(read, read_tool_definitions(tools)):
            check_tools_refused(
                read,
                model=model,
                dialect=dialect,
                tools=tools,
                add_generation_prompt=add_generation_prompt,
                **options,
            )
            return None
        text = api.render_conversation(
            read,
            model=model,
            dialect=dialect,
            tools=tools,
            add_generation_prompt=add_generation_prompt,
            **options,
        )
    except ToolettaError:
        return None
    except Exception as exc:
        raise AssertionError(f"render raised {type(exc).__name__}: {exc}") from exc
    try:
        back = api.parse_conversation(text, model=model, dialect=dialect, tools=tools)
    except Exception as exc:
        raise AssertionError(
            f"its own text does not read back ({type(exc).__name__}: {exc}):\n  {text[:400]!r}"
        ) from exc
    ctx = Conversation(
        read, read_tool_definitions(tools), {**fmt.options, **options}, obj, add_generation_prompt
    )
    want = comparable(fmt.expressible_for(read, ctx))
    got = comparable(back)
    if got != want:
        raise AssertionError(
            f"read back as other messages:\n  text: {text[:400]!r}\n  got:  {got}\n  want: {want}"
        )
    return text


def check_parse_total(
    text: str, *, model: str | None = None, dialect: str | None = None, tools: Any = None
) -> None:
    """``parse_conversation(text)`` returns a list of :class:`~tooletta.Message` or raises a
    :class:`~tooletta.ToolettaError` subclass (else ``AssertionError``)."""
    try:
        back = api.parse_conversation(text, model=model, dialect=dialect, tools=tools)
    except ToolettaError:
        return
    except Exception as exc:
        raise AssertionError(
            f"parse raised {type(exc).__name__}: {exc}\n  text: {text[:400]!r}"
        ) from exc
    if not isinstance(back, list) or not all(type(m) is Message for m in back):
        raise AssertionError(f"parse returned {back!r:.200}, not a list of messages")


def check_tools_refused(
    messages: Sequence[Any],
    *,
    model: str | None = None,
    dialect: str | None = None,
    tools: Sequence[Any] | None = None,
    **options: Any,
) -> None:
    """The format (``model`` or ``dialect``), whose template writes no tools, refuses
    ``messages`` with ``tools``: :func:`~tooletta.render_conversation` raises the
    :class:`~tooletta.chat.notools.ToolsRefusedError` that says so (``AssertionError`` when it
    writes a text or raises anything else). Used where the cross-format tests would render tools."""
    fmt, _ = resolve_format(model, dialect)
    assert not writes_tools(fmt), f"{fmt.name} writes tools: nothing to refuse"
    try:
        text = api.render_conversation(
            messages, model=model, dialect=dialect, tools=tools, **options
        )
    except ToolsRefusedError:
        return
    except RenderError as exc:
        raise AssertionError(f"{fmt.name}: refused, but not for its tools: {exc}") from exc
    raise AssertionError(
        f"{fmt.name} writes no tools, yet wrote a conversation with them:\n  {text[:400]!r}"
    )


def refused_for_tools(
    messages: Sequence[Any],
    *,
    model: str | None = None,
    dialect: str | None = None,
    tools: Sequence[Any] | None = None,
    **options: Any,
) -> bool:
    """Whether the format writes no tools and ``messages`` with ``tools`` have some: then
    its refusal is asserted (:func:`check_tools_refused`, with ``options``) and the caller
    checks nothing else of them; ``False`` otherwise."""
    fmt, _ = resolve_format(model, dialect)
    if writes_tools(fmt):
        return False
    if not uses_tools(read_conversation(messages), read_tool_definitions(tools)):
        return False
    check_tools_refused(messages, model=model, dialect=dialect, tools=tools, **options)
    return True


def tool_free(messages: Sequence[Message]) -> list[Message]:
    """``messages`` without what a format that writes no tools refuses: the conversation as
    if no tool were used, its tool results and its assistant turns with calls left out
    (their content too: it would stand as an answer beside the next one), calls on other
    messages dropped."""
    out = []
    for m in messages:
        if m.role == "tool" or (m.tool_calls and m.role == "assistant"):
            continue
        out.append(msgspec.structs.replace(m, tool_calls=[]) if m.tool_calls else m)
    return out
