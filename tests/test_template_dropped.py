"""A template no format reproduces is rendered with Jinja; what it leaves out of the
conversation (calls, tool results, tool definitions, any message's text) is named in a
``ToolettaWarning`` instead of vanishing silently."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import Message, ToolCall, ToolettaWarning
from tooletta.chat.dropped import dropped_parts

pytest.importorskip("jinja2")

ROOT = Path(__file__).resolve().parent.parent

# A template of no real model, written for this test: role headers, the text of user and
# assistant messages only (as several vision models' templates do: no tools, no calls, no
# tool results).
TEXT_ONLY = (
    "{%- for m in messages -%}"
    "{%- if m.role in ['user', 'assistant'] -%}"
    "<|{{ m.role }}|>{{ m.content }}<|end|>\n"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt %}<|assistant|>{% endif -%}"
)
# The same layout writing everything: the tools, the calls and the results as JSON.
EVERYTHING = (
    "{%- if tools %}<|tools|>{{ tools | tojson }}<|end|>\n{% endif -%}"
    "{%- for m in messages -%}"
    "<|{{ m.role }}|>{{ m.content | tojson }}"
    "{%- for c in m.tool_calls or [] %}<call>{{ c.function | tojson }}</call>{% endfor -%}"
    "<|end|>\n"
    "{%- endfor -%}"
)
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
]
MESSAGES = [
    Message("user", 'Weather in "Paris" or 東京?'),
    Message("assistant", "", tool_calls=[ToolCall("get_weather", {"city": "Paris"}, "c1")]),
    Message("tool", "sunny, 18 °C", tool_call_id="c1"),
    Message("assistant", "It is 18 °C."),
]


def _warnings(**kwargs: Any) -> tuple[str, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        text = tooletta.render_conversation(MESSAGES, **kwargs)
    return text, [str(w.message) for w in caught if issubclass(w.category, ToolettaWarning)]


def test_a_template_that_drops_calls_results_and_tools_says_so() -> None:
    text, said = _warnings(chat_template=TEXT_ONLY, tools=TOOLS)
    assert "get_weather" not in text  # the template's text, as Jinja writes it
    assert len(said) == 1
    assert "message 1's call 'get_weather'" in said[0]
    assert "message 2's content (tool)" in said[0]
    assert "the tool definitions" in said[0]
    assert "message 0" not in said[0] and "message 3" not in said[0]


def test_a_template_that_writes_everything_says_nothing() -> None:
    text, said = _warnings(chat_template=EVERYTHING, tools=TOOLS)
    assert said == []
    assert '\\"Paris\\"' in text  # the user's text written by tojson counts as written


def test_a_known_format_is_not_checked_this_way() -> None:
    qwen3 = ROOT / "plugins" / "tooletta-dialect-hermes" / "tests" / "templates" / "Qwen3.jinja"
    _, said = _warnings(chat_template=qwen3.read_text("utf-8"), tools=TOOLS)
    assert said == []


@pytest.mark.parametrize(
    ("text", "missing"),
    [
        ("x", ["message 0's content (user)", "message 1's call 'f'"]),
        ("  hello  f", []),  # stripped text counts
        ("\\u00e9t\\u00e9 f", []),  # JSON with ASCII escapes counts
    ],
)
def test_dropped_parts(text: str, missing: list[str]) -> None:
    messages = [
        Message("user", "  été  " if "u00e9" in text else "hello"),
        Message("assistant", "", tool_calls=[ToolCall("f", {})]),
    ]
    assert dropped_parts(messages, [], text) == missing


def test_dropped_tool_definitions() -> None:
    tools: list[dict[str, Any]] = [
        {"type": "function", "function": {"name": "lookup"}},
        {"name": "legacy"},
    ]
    assert dropped_parts([], tools, "lookup legacy") == []
    assert dropped_parts([], tools, "lookup") == ["the tool definitions"]
    assert dropped_parts([], [{"type": "function"}], "") == []  # no name: nothing to look for
