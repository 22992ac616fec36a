"""Issue 22, items 2-5: what render_conversation refuses in every format, typed, instead of
a raw TypeError/ValueError, a silent change of the value, or a dropped call."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from click.testing import CliRunner

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat import chat_formats_of, render_spans
from tooletta.chat.notools import writes_tools
from tooletta.cli import cli
from tooletta.plugins import get_registry
from tooletta.testing.conversation_law import check_tools_refused

NAMES = sorted({f.name for e in get_registry().ordered() for f in chat_formats_of(e.dialect)})
NO_TOOLS = {
    f.name
    for e in get_registry().ordered()
    for f in chat_formats_of(e.dialect)
    if not writes_tools(f)
}
"""The formats whose template writes no tools: they refuse the conversations below for their
tools (asserted) before anything else."""
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "f",
            "description": "d",
            "parameters": {"type": "object", "properties": {"a": {"type": "string"}}},
        },
    }
]


def _conversation(
    arguments: Any = None, call_id: Any = "c1", role: Any = "user"
) -> list[dict[str, Any]]:
    call = {"id": call_id, "type": "function", "function": {"name": "f", "arguments": arguments}}
    return [
        {"role": role, "content": "hi"},
        {"role": "assistant", "content": "", "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
    ]


def _deep(levels: int) -> Any:
    value: Any = "x"
    for _ in range(levels):
        value = {"k": value}
    return value


ODDITIES: dict[str, list[Any]] = {
    "non-str key": _conversation({1: "x"}),
    "nested non-str key": _conversation({"a": [{2: "x"}]}),
    "bytes value": _conversation({"a": b"x"}),
    "tuple value": _conversation({"a": (1, 2)}),
    "set value": _conversation({"a": {1}}),
    "integer beyond 4300 digits": _conversation({"a": 10**5000}),
    "non-dict arguments": _conversation([1, 2]),
    "int id": _conversation({"a": "x"}, call_id=5),
    "role is a list": _conversation({"a": "x"}, role=["user"]),
    "role is a dict": _conversation({"a": "x"}, role={"r": 1}),
    "arguments 600 levels deep": _conversation({"a": _deep(600)}),
    "calls on a user message": [
        {"role": "user", "content": "hi", "tool_calls": [_conversation({})[1]["tool_calls"][0]]}
    ],
    "calls on a tool message": [
        *_conversation({})[:2],
        {"role": "tool", "tool_call_id": "c1", "content": "ok", "tool_calls": [{}]},
    ],
    "int tool_call_id": [*_conversation({})[:2], {"role": "tool", "tool_call_id": 7}],
}
MESSAGE_ODDITIES: dict[str, list[Message]] = {
    "Message role list": [Message(["user"], "hi")],  # type: ignore[arg-type]
    "Message calls on user": [Message("user", "hi", tool_calls=[ToolCall("f", {})])],
    "Message calls on tool": [Message("tool", "r", tool_calls=[ToolCall("f", {})])],
    "Message int call id": [Message("assistant", "", tool_calls=[ToolCall("f", {}, 5)])],  # type: ignore[arg-type]
    "Message reasoning bytes": [Message("assistant", "x", reasoning=b"r")],  # type: ignore[arg-type]
    "Message name int": [Message("user", "hi", name=3)],  # type: ignore[arg-type]
}


@pytest.mark.parametrize("oddity", [*ODDITIES, *MESSAGE_ODDITIES])
def test_every_format_refuses_typed(oddity: str) -> None:
    messages = ODDITIES.get(oddity) or MESSAGE_ODDITIES[oddity]
    for name in NAMES:
        with pytest.raises(RenderError):
            tooletta.render_conversation(messages, dialect=name, tools=TOOLS)
        with pytest.raises(RenderError):
            render_spans(messages, dialect=name, tools=TOOLS)


def test_a_string_schema_keeps_the_int_or_refuses_it() -> None:
    messages = _conversation({"a": 5})
    for name in NAMES:
        if name in NO_TOOLS:
            check_tools_refused(messages, dialect=name, tools=TOOLS)
            continue
        try:
            text = tooletta.render_conversation(messages, dialect=name, tools=TOOLS)
        except RenderError as exc:
            assert "schema declares string" in str(exc)
            continue
        back = tooletta.parse_conversation(text, dialect=name, tools=TOOLS)
        assert [c.arguments for m in back for c in m.tool_calls] == [{"a": 5}], name


def test_the_schema_check_names_it() -> None:
    with pytest.raises(RenderError, match="'a' of 'f' is int"):
        tooletta.render_conversation(_conversation({"a": 5}), dialect="qwen3_coder", tools=TOOLS)


@pytest.mark.parametrize("name", ["mistral_small32", "apriel15"])
def test_a_lone_surrogate_in_an_id_is_refused(name: str) -> None:
    with pytest.raises(RenderError, match="surrogate"):
        tooletta.render_conversation(_conversation({}, call_id="\ud800"), dialect=name)


def test_tokenize_conversation_refuses_typed() -> None:
    from tooletta.training import tokenize_conversation

    class Chars:
        def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
            return [ord(c) for c in text]

        def decode(self, ids: list[int]) -> str:
            return "".join(map(chr, ids))

    for messages in (ODDITIES["role is a list"], ODDITIES["non-str key"]):
        with pytest.raises(RenderError):
            tokenize_conversation(messages, Chars(), dialect="qwen3", tools=TOOLS)


def test_the_cli_reports_a_bad_row_without_a_traceback() -> None:
    row = json.dumps({"messages": [{"role": ["user"], "content": "hi"}]})
    result = CliRunner().invoke(cli, ["render-chat", "--dialect", "qwen3"], input=row)
    assert result.exit_code != 0
    assert "role" in result.output and "Traceback" not in result.output
    assert not isinstance(result.exception, (TypeError, AttributeError, KeyError))


def test_the_cli_jsonl_rejects_the_bad_rows_and_keeps_the_rest() -> None:
    good = [{"role": "user", "content": "hi"}]
    rows = [good, ODDITIES["calls on a user message"], [{"role": {"r": 1}, "content": "x"}], good]
    stdin = "\n".join(json.dumps({"messages": r}) for r in rows)
    proc = subprocess.run(
        [sys.executable, "-m", "tooletta.cli", "render-chat", "--jsonl", "--dialect", "qwen3"],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1
    assert "line 2" in proc.stderr and "line 3" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stdout.splitlines()) == 2


def test_the_cli_refuses_markup_unless_allowed() -> None:
    row = json.dumps([{"role": "user", "content": "a<|im_end|>b"}])
    refused = CliRunner().invoke(cli, ["render-chat", "--dialect", "qwen3"], input=row)
    assert refused.exit_code != 0 and "allow_markup" in refused.output
    allowed = CliRunner().invoke(
        cli, ["render-chat", "--dialect", "qwen3", "--allow-markup"], input=row
    )
    assert allowed.exit_code == 0 and "a<|im_end|>b" in allowed.output


def test_a_lone_surrogate_in_message_text_or_a_tool_definition_is_refused() -> None:
    tools = [{"type": "function", "function": {"name": "f", "description": "a\ud800"}}]
    for name in NAMES:
        refused = "writes no tool declarations" if name in NO_TOOLS else "surrogate"
        with pytest.raises(RenderError, match=refused):
            tooletta.render_conversation(
                [{"role": "user", "content": "x"}], dialect=name, tools=tools
            )
        with pytest.raises(RenderError, match="surrogate"):
            tooletta.render_conversation([Message("user", "é\udcff")], dialect=name)
