"""FireFunction v2 conversations: native rendering against the model's own template."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversations import SAMPLE_TOOLS, ConversationTests, sample_conversations

TEMPLATES = Path(__file__).parent / "templates"
TEMPLATE = TEMPLATES / "fireworks-ai-llama-3-firefunction-v2.jinja"
MODEL = "fireworks-ai/llama-3-firefunction-v2"
TOKENS = {"bos_token": "<|begin_of_text|>"}
GIVEN = {"functions": "[the tools]", "datetime": "Mar 05 2025 10:00:00 GMT"}


def _now(fmt: str) -> str:
    return "Mar 05 2025 10:00:00 GMT" if fmt == "%b %d %Y %H:%M:%S GMT" else fmt


def template_text(messages: list[Message], **kwargs: Any) -> str:
    return render_jinja(TEMPLATE.read_text(), messages, tokens=TOKENS, **kwargs)


def ours(messages: list[Message], **kwargs: Any) -> str:
    return tooletta.render_conversation(messages, model=MODEL, **kwargs)


class TestFireFunctionV2Chat(ConversationTests):
    model = MODEL
    template = TEMPLATE
    tokens = TOKENS
    options = (GIVEN, {"functions": "", "datetime": "today"})


def test_formats_route_by_model() -> None:
    from tooletta.chat import resolve_format

    assert resolve_format(MODEL, None)[0].name == "firefunction_v2"
    assert resolve_format(None, "firefunction_v2")[0].name == "firefunction_v2"


@pytest.mark.parametrize("name", ["tools_two_calls", "reasoning_multi_turn", "plain"])
def test_functions_and_datetime_default_to_what_llama_cpp_passes(name: str) -> None:
    """Without the options: ``tools`` through ``json.dumps(indent=2)`` (empty without tools)
    and ``strftime_now("%b %d %Y %H:%M:%S GMT")``."""
    messages, uses_tools = sample_conversations()[name]
    tools = SAMPLE_TOOLS if uses_tools else None
    functions = json.dumps(SAMPLE_TOOLS, ensure_ascii=False, indent=2) if tools else ""
    expected = template_text(
        messages, tools=tools, functions=functions, datetime="Mar 05 2025 10:00:00 GMT"
    )
    assert ours(messages, tools=tools, strftime_now=_now) == expected


def test_calls_alone_keep_the_leading_space() -> None:
    calls = [ToolCall("get_time", {"tz": "UTC"})]
    assert tooletta.render(calls, model=MODEL) == (
        ' functools[{"name": "get_time", "arguments": {"tz": "UTC"}}]'
    )
    assert tooletta.render(calls, model=MODEL, content=" Sure. ") == (
        'Sure. functools[{"name": "get_time", "arguments": {"tz": "UTC"}}]'
    )
    # the dialect's own default is unchanged
    assert tooletta.render(calls, "phi4_mini").startswith("functools[")


def test_header_is_written_after_every_conversation() -> None:
    messages = [Message("user", "hi"), Message("assistant", "yo")]
    text = ours(messages, **GIVEN)
    assert text.endswith("yo<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n")
    assert text == ours(messages, add_generation_prompt=True, **GIVEN)
    assert tooletta.parse_conversation(text, model=MODEL) == [
        Message("user", "hi"),
        Message("assistant", "yo"),
    ]


def test_phi35_template_renders_no_tools() -> None:
    """Phi-3.5-mini-instruct's template has no place for tools, calls or tool results (it
    drops them): there is nothing to pin, and no format for it."""
    template = (TEMPLATES / "microsoft-Phi-3.5-mini-instruct.jinja").read_text()
    messages, _ = sample_conversations()["tools_two_calls"]
    text = render_jinja(
        template, messages, tools=SAMPLE_TOOLS, tokens={"eos_token": "<|endoftext|>"}
    )
    assert "get_weather" not in text
    assert '"temp": 18' not in text
    assert tooletta.dialect_for_model("microsoft/Phi-3.5-mini-instruct") is None
