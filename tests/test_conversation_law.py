"""The conversation law (issue 22) as a one-oddity matrix: every format x every oddity of
tooletta.testing.oddities, applied to one well-formed conversation, with and without a
generation prompt: render refuses it typed, or its text reads back as the same messages
(what the format carries of them). The random half runs in every plugin's
ConversationTests (test_conversation_law, test_parse_any_text)."""

from __future__ import annotations

from typing import Any

import pytest

import tooletta
from support import installed_formats
from tooletta import Message, ToolCall
from tooletta.chat.markup import dialect_markers
from tooletta.chat.notools import writes_tools
from tooletta.testing.conversation_law import (
    check_conversation_law,
    check_parse_total,
    check_tools_refused,
    tool_free,
)
from tooletta.testing.conversations import PROBE_TOOLS
from tooletta.testing.oddities import ODDITIES

FORMATS = installed_formats()
BASE = [
    Message("system", "Be brief."),
    Message("user", "Look it up."),
    Message(
        "assistant",
        "Checking.",
        tool_calls=[ToolCall("probe", {"s": "x", "n": 3})],
        reasoning="Need data.",
    ),
    Message("tool", "found"),
    Message("assistant", "It is found."),
]

TOOL_FREE_BASE = tool_free(BASE)
"""The base conversation for a format that writes no tools (``writes_tools = False``): its
calls and result left out (the base itself is refused by such a format, asserted below)."""


def _base(fmt: Any) -> tuple[list[Message], Any]:
    """The base conversation and tool definitions the matrix gives ``fmt``."""
    if writes_tools(fmt):
        return list(BASE), PROBE_TOOLS
    return list(TOOL_FREE_BASE), None


_ITEM6 = "issue 22 item 6 (fixes helper): "
KNOWN: dict[tuple[str, str], str] = {}
"""(format, oddity) pairs the law fails today, strictly expected to fail (none: the ones found
first, in apertus2509, deepseek_v31/v32, hunyuan_a13b and nemotron_nano_v2, are fixed)."""


def _cases() -> list[Any]:
    cases = []
    for name in FORMATS:
        for oddity in ODDITIES:
            reason = KNOWN.get((name, oddity))
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            cases.append(pytest.param(name, oddity, marks=marks, id=f"{name}-{oddity}"))
    return cases


@pytest.mark.parametrize(("name", "oddity"), _cases())
def test_one_oddity(name: str, oddity: str) -> None:
    fmt, dialect = FORMATS[name]
    tokens = [*fmt.markup(), *dialect_markers(dialect)] or ["<|x|>"]
    base, tools = _base(fmt)
    messages = ODDITIES[oddity](base, min(3, len(base) - 1), tokens[0])
    for prompt in (False, True):
        text = check_conversation_law(
            messages, dialect=name, tools=tools, add_generation_prompt=prompt
        )
        if oddity == "no message" or text is None:
            continue
        for cut in (len(text) // 2, len(text) - 1):  # a render cut short: typed or read
            check_parse_total(text[:cut], dialect=name, tools=tools)


def test_the_matrix_covers_every_oddity_and_a_refusal_each() -> None:
    """The base conversation itself obeys the law everywhere, and markup oddities are
    refused (not written) by every format whose markup is declared."""
    for name in FORMATS:
        fmt = FORMATS[name][0]
        base, tools = _base(fmt)
        if not writes_tools(fmt):  # the base with its calls and result: refused, asserted
            check_tools_refused(BASE, dialect=name, tools=PROBE_TOOLS)
            assert check_conversation_law(BASE, dialect=name, tools=PROBE_TOOLS) is None
        assert check_conversation_law(base, dialect=name, tools=tools) is not None, name
        if fmt.markup():
            messages = ODDITIES["markup in user content"](base, 0, fmt.markup()[0])
            assert check_conversation_law(messages, dialect=name, tools=tools) is None


@pytest.mark.parametrize("name", ["qwen25", "mimo_vl", "qwq", "qwen3", "lfm2", "lfm25", "qwen35"])
def test_an_empty_system_message_beside_the_tools(name: str) -> None:
    """Found by the law: Qwen2.5's and MiMo-VL's empty system message read back as none
    (their template writes its default prompt when there is none, so the text tells them
    apart: now read back); QwQ, LFM2 and Qwen3.5 write the same text for both, so they do
    not carry it (their expressible_for says so)."""
    messages = [Message("system", ""), Message("user", "Hi")]
    text = check_conversation_law(messages, dialect=name, tools=PROBE_TOOLS)
    assert text is not None
    back = [m.role for m in tooletta.parse_conversation(text, dialect=name, tools=PROBE_TOOLS)]
    dropped = name in ("qwq", "lfm2", "lfm25", "qwen35")
    assert back == (["user"] if dropped else ["system", "user"])


@pytest.mark.parametrize("name", ["llama31", "llama32", "llama4"])
def test_a_tool_result_given_as_parts_reads_back_as_the_text_written(name: str) -> None:
    """Found by the law: Llama's templates write a list result through ``tojson``; the
    format now says it carries that JSON text (it used to expect the parts' text)."""
    messages = [
        Message("user", "hi"),
        Message("assistant", "", tool_calls=[ToolCall("probe", {"s": "x"})]),
        Message("tool", [{"type": "text", "text": "a"}, "b"]),
        Message("assistant", "ok"),
    ]
    text = check_conversation_law(messages, dialect=name, tools=PROBE_TOOLS)
    assert text is not None
    back = tooletta.parse_conversation(text, dialect=name, tools=PROBE_TOOLS)
    assert back[2].content == '[{"type": "text", "text": "a"}, "b"]'
