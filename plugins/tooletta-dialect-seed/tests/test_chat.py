"""Seed-OSS conversations against the model's own template (vendored)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tooletta_dialect_seed.chat import seed_tools

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat import resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversation_properties import template_property
from tooletta.testing.conversations import (
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
)

TEMPLATE = Path(__file__).parent / "templates" / "ByteDance-Seed-OSS.jinja"
MODEL = "ByteDance-Seed/Seed-OSS-36B-Instruct"

RICH_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "search",
            "description": "  Search the web.\n",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What to look for "},
                    "limit": {"type": ["integer", "null"], "description": 7},
                    "filters": {"type": "object"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "exact": {"type": "boolean"},
                    "ratio": {"type": "number"},
                    "any": {},
                },
                "required": ["query", "tags"],
            },
            "returns": {
                "type": "object",
                "properties": {"hits": {"type": "array", "description": "Found pages"}},
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "ping",
            "parameters": {"type": "object", "properties": {"host": {"type": "string"}}},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "noop",
            "description": "Nothing.",
            "parameters": {"type": "object", "properties": {}},
            "returns": {"type": "object", "properties": {}},
        },
    },
    {"type": "other", "function": {"name": "skipped"}},
]
"""Tool definitions with every branch of the template's declarations (types, required or not,
descriptions, returns, no properties, a tool that is not a function)."""


def rich_conversation() -> list[Message]:
    """Padded texts (the template trims assistant content and reasoning), values of every
    kind (non-strings as Python ``str()``), a call-only turn with reasoning, a later system
    message."""
    call = ToolCall(
        "search",
        {
            "query": "weather\nin 東京",
            "limit": None,
            "filters": {"site": "jma.go.jp", "strict": True},
            "tags": ["a", 1, 2.5],
            "exact": False,
            "ratio": 0.1,
        },
    )
    return [
        Message("system", "  Be brief.  "),
        Message("user", "  Look it up. "),
        Message("assistant", "  I will search.\n", tool_calls=[call, ToolCall("ping", {})]),
        Message("tool", " found \n"),
        Message("tool", "pong"),
        Message("assistant", "", tool_calls=[ToolCall("noop", {})], reasoning="\n more \n"),
        Message("tool", "ok"),
        Message("assistant", "  Done.  ", reasoning="  all done  "),
        Message("system", "Now be verbose."),
        Message("user", "thanks"),
        Message("assistant", "You're welcome."),
    ]


class TestSeedOssChat(ConversationTests):
    model = MODEL
    template = TEMPLATE
    options = ({}, {"thinking_budget": 0}, {"thinking_budget": 700})


@pytest.mark.parametrize(
    "options",
    [{}, {"thinking_budget": 0}, {"thinking_budget": 20000}, {"use_json_tooldef": True}],
)
@pytest.mark.parametrize("prompt", [False, True])
def test_rich_conversation_matches_the_template(options: dict[str, Any], prompt: bool) -> None:
    check_matches_template(
        TEMPLATE.read_text(encoding="utf-8"),
        rich_conversation(),
        model=MODEL,
        tools=RICH_TOOLS,
        add_generation_prompt=prompt,
        **options,
    )


def test_rich_conversation_round_trips() -> None:
    check_conversation_round_trip(rich_conversation(), model=MODEL, tools=RICH_TOOLS)


@pytest.mark.parametrize("budget", [1, 512, 513, 4096, 8192, 16384, 16385])
def test_every_budget_gear_matches_the_template(budget: int) -> None:
    messages = [Message("user", "hi"), Message("assistant", "hello")]
    check_matches_template(
        TEMPLATE.read_text(encoding="utf-8"),
        messages,
        model=MODEL,
        add_generation_prompt=True,
        thinking_budget=budget,
    )


@pytest.mark.parametrize("budget", [0, 700])
@pytest.mark.parametrize("system", [False, True])
def test_budget_turn_and_prompt_parse_back(budget: int, system: bool) -> None:
    messages = [Message("system", "Sys.")] if system else []
    messages += [Message("user", "hi"), Message("assistant", "hello"), Message("user", "more")]
    text = tooletta.render_conversation(
        messages, model=MODEL, add_generation_prompt=True, thinking_budget=budget
    )
    assert tooletta.parse_conversation(text, model=MODEL) == messages


def test_variant_and_format_by_model_and_by_name() -> None:
    assert tooletta.dialect_for_model(MODEL) == "seed_oss_pystr"
    assert resolve_format(MODEL, None)[0].name == "seed_oss_36b"
    assert resolve_format(None, "seed_oss_pystr")[0].name == "seed_oss_36b"
    assert resolve_format(None, "seed_oss_36b")[0].name == "seed_oss_36b"


def test_render_model_writes_python_str_inside_the_conversation() -> None:
    call = ToolCall("f", {"o": {"k": True, "x": None}, "l": [1, "a"]})
    turn = tooletta.render([call], model=MODEL, content="Ok.", reasoning="why")
    messages = [
        Message("user", "Hi"),
        Message("assistant", "Ok.", tool_calls=[call], reasoning="why"),
    ]
    text = tooletta.render_conversation(messages, model=MODEL)
    assert text.endswith("<seed:bos>assistant\n" + turn + "<seed:eos>")
    assert "<parameter=o>{'k': True, 'x': None}</parameter>" in turn
    assert turn.startswith("<seed:think>why</seed:think>\nOk.\n\n<seed:tool_call>")


def test_empty_assistant_turn_keeps_its_end_token() -> None:
    """Difference: the template writes ``<seed:bos>assistant`` alone for a turn with nothing
    to say (no newline, no ``<seed:eos>``), and no ``<seed:eos>`` after a turn holding only
    reasoning; we close both turns."""
    messages = [Message("user", "Hi"), Message("assistant", "")]
    text = tooletta.render_conversation(messages, model=MODEL)
    template = render_jinja(TEMPLATE.read_text(encoding="utf-8"), messages)
    assert template.endswith("<seed:bos>assistant")
    assert text == template + "\n<seed:eos>"
    assert tooletta.parse_conversation(text, model=MODEL) == messages
    messages = [Message("user", "Hi"), Message("assistant", "", reasoning="hmm")]
    text = tooletta.render_conversation(messages, model=MODEL)
    template = render_jinja(TEMPLATE.read_text(encoding="utf-8"), messages)
    assert template.endswith("<seed:think>hmm</seed:think>")
    assert text == template + "<seed:eos>"
    assert tooletta.parse_conversation(text, model=MODEL) == messages


def test_tool_declarations_without_tools_are_empty() -> None:
    assert seed_tools([]) == ""
    assert seed_tools([], json_tooldef=True) == ""


@pytest.mark.parametrize("system", [False, True])
def test_json_tooldef_without_tools_writes_no_list(system: bool) -> None:
    """Difference: with ``use_json_tooldef`` and no tools, the template still writes the
    ``Tool List:`` text and ``[]`` (inside the system turn, or before the first turn outside
    any turn when there is no system message); we write no tool list without tools."""
    messages = [Message("system", "Sys.")] if system else []
    messages += [Message("user", "Hi"), Message("assistant", "Hello.")]
    text = tooletta.render_conversation(messages, model=MODEL, use_json_tooldef=True)
    template = render_jinja(TEMPLATE.read_text(encoding="utf-8"), messages, use_json_tooldef=True)
    stray = "\nTool List:\n" + template.split("\nTool List:\n", 1)[1].split("[]", 1)[0] + "[]"
    assert text == template.replace(stray, "")
    assert text == tooletta.render_conversation(messages, model=MODEL)


test_random_conversations_match_the_template_and_round_trip = template_property(MODEL, TEMPLATE)


def test_tool_without_properties_is_declared_without_arguments() -> None:
    """Difference: the template raises on a tool whose parameters have no ``properties``
    (or no parameters); we declare it as a function of no arguments, as the template does
    for ``"properties": {}``."""
    bare = [{"type": "function", "function": {"name": "ping", "description": "Ping."}}]
    empty = [
        {
            "type": "function",
            "function": {
                "name": "ping",
                "description": "Ping.",
                "parameters": {"type": "object", "properties": {}},
            },
        }
    ]
    messages = [Message("user", "Hi")]
    with pytest.raises(tooletta.RenderError):
        render_jinja(TEMPLATE.read_text(encoding="utf-8"), messages, tools=bare)
    text = tooletta.render_conversation(messages, model=MODEL, tools=bare)
    assert text == render_jinja(TEMPLATE.read_text(encoding="utf-8"), messages, tools=empty)
    assert "def ping():" in text


def test_a_thinking_budget_that_is_not_a_number_is_refused() -> None:
    with pytest.raises(tooletta.RenderError, match="thinking_budget"):
        tooletta.render_conversation([Message("user", "Hi")], model=MODEL, thinking_budget="x")


def test_an_undeclared_parameter_that_would_read_back_as_text_is_refused() -> None:
    """Seed-OSS writes a dict as Python's ``str()``; for a parameter no schema declares it
    reads back as that text: refused, not silently changed (fuzz finding, issue 22). A value
    that reads back as itself (an int) is written."""
    tools = [
        {
            "type": "function",
            "function": {
                "name": "probe",
                "parameters": {"type": "object", "properties": {"s": {"type": "string"}}},
            },
        }
    ]

    def turn(arguments: dict[str, object]) -> list[dict[str, object]]:
        call = {"type": "function", "function": {"name": "probe", "arguments": arguments}}
        return [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": "Paris", "tool_calls": [call]},
        ]

    with pytest.raises(tooletta.RenderError, match="no schema of the request declares"):
        tooletta.render_conversation(
            turn({"x": {"a": "", "n": 0}}), dialect="seed_oss_36b", tools=tools
        )
    text = tooletta.render_conversation(turn({"x": 5}), dialect="seed_oss_36b", tools=tools)
    back = tooletta.parse_conversation(text, dialect="seed_oss_36b", tools=tools)
    assert back[-1].tool_calls[0].arguments == {"x": 5}
