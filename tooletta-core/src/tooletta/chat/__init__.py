"""Whole conversations as each model's own chat template writes them.

:class:`ChatFormat` declares a template (role headers, end-of-turn token, system prompt and
tool declarations, tool results, reasoning and its history rule, generation prompt); plugins
fill one in per model and attach it to their dialect (``chat_formats``). The public entry
points are :func:`tooletta.render_conversation` and :func:`tooletta.parse_conversation`;
:func:`render_spans` gives the text with the segment of every message, which
:mod:`tooletta.training` turns into token ids and loss weights. :func:`identify` names the
known format a model's own Jinja template is (byte for byte on a fixed probe suite).
"""

from __future__ import annotations

from ..registry import install_format_check
from .api import render_spans
from .chatml import IM_END, IM_START, chatml, last_query
from .conversation import calling_turn
from .declare import (
    Preamble,
    Prompt,
    ResultHead,
    SystemBlock,
    ToolsBlock,
    ToolsTurn,
    TruthyPrompt,
    implicit_after,
    keeps,
)
from .declare_after_system import AfterSystem
from .declare_closing import ClosedSystemBlock
from .declare_history import HistoryCut
from .declare_layout import FirstMessageKeys, Neutral, Reasoning, Turn, defaults, each_role, roles
from .declare_results import JsonResults
from .declare_turns import CallIds, Headerless
from .format import ChatFormat, Conversation, first_of, last_index, last_user
from .guard import check_and_guard
from .identify import Identification, MessageForm, NearMiss, identify
from .lookup import chat_formats_of, resolve_format
from .messages import by_content, read_conversation, read_tool_definitions, text_of, tool_json
from .pytypes import PythonTypes
from .render import RenderedConversation, Segment, render_format

__all__ = [
    "IM_END",
    "IM_START",
    "AfterSystem",
    "CallIds",
    "ChatFormat",
    "ClosedSystemBlock",
    "Conversation",
    "FirstMessageKeys",
    "Headerless",
    "HistoryCut",
    "Identification",
    "JsonResults",
    "MessageForm",
    "NearMiss",
    "Neutral",
    "Preamble",
    "Prompt",
    "PythonTypes",
    "Reasoning",
    "RenderedConversation",
    "ResultHead",
    "Segment",
    "SystemBlock",
    "ToolsBlock",
    "ToolsTurn",
    "TruthyPrompt",
    "Turn",
    "by_content",
    "calling_turn",
    "chat_formats_of",
    "chatml",
    "defaults",
    "each_role",
    "first_of",
    "identify",
    "implicit_after",
    "keeps",
    "last_index",
    "last_query",
    "last_user",
    "read_conversation",
    "read_tool_definitions",
    "render_format",
    "render_spans",
    "resolve_format",
    "roles",
    "text_of",
    "tool_json",
]

install_format_check(check_and_guard)  # third-party formats: reported, refused or guarded
