"""The conversation functions behind :func:`tooletta.render_conversation` and
:func:`tooletta.parse_conversation`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..errors import ParseError, ToolettaError
from ..ir import Message
from ..plugins import get_registry
from .checks import check_conversation, guarded, write_fault
from .fastpath import fast_writer
from .format import ChatFormat
from .lookup import resolve_format
from .markup import markup_of
from .messages import read_conversation, read_tool_definitions
from .parse import parse_format
from .render import RenderedConversation, plan_of, render_format, render_text
from .switches import refuse_unwritten, warn_misspelled

__all__ = ["parse_conversation_text", "render_conversation_text", "render_spans"]


def render_spans(
    messages: Iterable[Any],
    *,
    model: str | None = None,
    dialect: str | None = None,
    tools: Iterable[Any] | None = None,
    add_generation_prompt: bool = False,
    segments: bool = True,
    allow_markup: bool = False,
    **options: Any,
) -> RenderedConversation:
    """Render a conversation as :func:`tooletta.render_conversation` does, keeping the
    segment of every message and which text the model generates (``segments=False``: the
    text only). ``allow_markup`` as in :func:`tooletta.render_conversation`."""
    fmt, obj = resolve_format(model, dialect)
    read = read_conversation(messages)
    defs = read_tool_definitions(tools)
    if options:
        refuse_unwritten(fmt, options)
        warn_misspelled(fmt, options)
    check_conversation(fmt, obj, read, defs, allow_markup)
    return guarded(
        lambda: render_format(fmt, obj, read, defs, add_generation_prompt, options, segments)
    )


_Ready = tuple[ChatFormat, Any, Any, Any, Any]
"""A chat format, its dialect object, its render plan, its markup tables and its fast writer
(:func:`~tooletta.chat.fastpath.fast_writer`, ``None`` when it has none)."""

_READY: dict[tuple[Any, ...], _Ready] = {}


def _ready(key: tuple[Any, ...], model: str | None, dialect: str | None) -> _Ready:
    """What :func:`render_conversation_text` needs of the format ``model`` / ``dialect``
    name, found once per ``key`` (the key of :func:`~tooletta.catalog.resolve_format`: the
    names and the registry's state): the format and dialect, the render plan
    (:func:`~tooletta.chat.render.plan_of`) and the markup the checks search
    (:func:`~tooletta.chat.markup.markup_of`), and the format's fast writer
    (:func:`~tooletta.chat.fastpath.fast_writer`)."""
    fmt, obj = resolve_format(model, dialect)
    plan, markup = plan_of(fmt), markup_of(fmt, obj)
    found = (fmt, obj, plan, markup, fast_writer(fmt, obj, plan, markup))
    if len(_READY) > 256:
        _READY.clear()
    _READY[key] = found
    return found


def render_conversation_text(
    messages: Iterable[Any],
    model: str | None,
    dialect: str | None,
    tools: Iterable[Any] | None,
    add_generation_prompt: bool,
    options: dict[str, Any],
    allow_markup: bool = False,
) -> str:
    """The text :func:`~tooletta.chat.render_spans` renders (``segments=False``), as
    :func:`tooletta.render_conversation` returns it: the text-only renderer. The format, its
    render plan and its markup are looked up once per (model, dialect) and registry state; a
    learned format's fast writer (:mod:`tooletta.chat.fastpath`) writes the conversations it
    can prove it writes as this does, the others are written here."""
    registry = get_registry()
    key = (model, dialect, registry.serial, len(registry.entries), len(registry.models))
    ready = _READY.get(key)
    fmt, obj, plan, markup, fast = _ready(key, model, dialect) if ready is None else ready
    if options:
        refuse_unwritten(fmt, options)
    if fast is not None:
        if type(messages) is list and messages and type(messages[0]) is not Message:
            messages = read_conversation(messages)  # (chat dicts: read once, here)
        text: str | None = fast(messages, tools, add_generation_prompt, options, allow_markup)
        if text is not None:
            if options:
                warn_misspelled(fmt, options, stacklevel=5)
            return text
    read = read_conversation(messages)
    defs = read_tool_definitions(tools) if tools else []
    if options:
        warn_misspelled(fmt, options, stacklevel=5)
    check_conversation(fmt, obj, read, defs, allow_markup, markup)
    try:  # guarded() inline: no closure per conversation
        return render_text(fmt, obj, read, defs, add_generation_prompt, options, plan, True)
    except (UnicodeEncodeError, RecursionError) as exc:
        error = write_fault(exc)
        if error is None:
            raise
        raise error from None


def parse_conversation_text(
    text: str,
    *,
    model: str | None = None,
    dialect: str | None = None,
    tools: Iterable[Any] | None = None,
) -> list[Message]:
    """The messages a rendered conversation holds (see :func:`tooletta.parse_conversation`)."""
    if not isinstance(text, str):
        raise ParseError(f"text must be str, not {type(text).__name__}")
    fmt, obj = resolve_format(model, dialect)
    try:
        return parse_format(fmt, obj, text, read_tool_definitions(tools))
    except ToolettaError:
        raise
    except (ValueError, IndexError, KeyError) as exc:
        raise ParseError(f"{fmt.name} conversation: {exc}", dialect=obj.info.name) from None
