"""LFM2 / LFM2.5 conversations against the models' own templates (vendored)."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat.jinja import render_jinja
from tooletta.chat.messages import read_conversation, text_of
from tooletta.testing.conversations import (
    SAMPLE_TOOLS,
    ConversationTests,
    replace,
    sample_conversations,
)

TEMPLATES = Path(__file__).parent / "templates"
TOKENS = {"bos_token": "<|startoftext|>"}
LFM2 = "LiquidAI/LFM2-8B-A1B"
LFM25 = "LiquidAI/LFM2.5-8B-A1B"
LFM25_INSTRUCT = "LiquidAI/LFM2.5-1.2B-Instruct"

_CALLS_IN_CONTENT = "the template writes only content: calls go inside it (test_calls_in_content)"


def _with_thinking(messages: list[Message]) -> list[Message]:
    """The reasoning also under ``thinking``, the key the LFM2.5-8B-A1B template reads."""
    return [replace(m, extra={"thinking": m.reasoning}) if m.reasoning else m for m in messages]


class TestLfm2Chat(ConversationTests):
    model = LFM2
    template = TEMPLATES / "LFM2-8B-A1B.jinja"
    tokens = TOKENS
    differences: ClassVar[dict[str, str]] = {
        name: _CALLS_IN_CONTENT
        for name in ("tools_two_calls", "tools_no_system", "reasoning_multi_turn", "pending_call")
    }


class TestLfm2TrlChat(TestLfm2Chat):
    """LFM2-1.2B's template as TRL copies it (``lfm2.jinja``): LFM2-8B-A1B's text indented
    with spaces where llama.cpp's copy has tabs (inside ``{%- -%}`` tags: the same renders)."""

    model = "LiquidAI/LFM2-1.2B"
    template = TEMPLATES / "LFM2-1.2B.jinja"


class TestLfm25InstructChat(ConversationTests):
    model = LFM25_INSTRUCT
    template = TEMPLATES / "LFM2.5-Instruct.jinja"
    tokens = TOKENS
    differences = TestLfm2Chat.differences


class TestLfm25Chat(ConversationTests):
    model = LFM25
    template = TEMPLATES / "LFM2.5-8B-A1B.jinja"
    list_content = ("system", "user", "assistant", "tool")
    tokens = TOKENS

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        return {
            name: (_with_thinking(messages), tools)
            for name, (messages, tools) in sample_conversations(ids=self.ids).items()
        }


@pytest.mark.parametrize(
    ("model", "template", "reasoning"),
    [(LFM2, "LFM2-8B-A1B.jinja", False), (LFM25_INSTRUCT, "LFM2.5-Instruct.jinja", True)],
)
def test_calls_in_content(model: str, template: str, reasoning: bool) -> None:
    """Templates that write only ``content``: every sample conversation equals the template
    given each assistant turn's content as ``render(model=...)`` writes the turn (reasoning
    block, content, call block), so the calls are written as the model writes them."""
    source = (TEMPLATES / template).read_text(encoding="utf-8")
    for name, (messages, uses_tools) in sample_conversations().items():
        embedded = [
            Message(
                "assistant",
                tooletta.render(
                    m.tool_calls,
                    model=model,
                    content=text_of(m.content),
                    reasoning=m.reasoning if reasoning else "",
                ),
            )
            if m.role == "assistant"
            else m
            for m in messages
        ]
        tools = SAMPLE_TOOLS if uses_tools else None
        for prompt in (False, True):
            ours = tooletta.render_conversation(
                messages, model=model, tools=tools, add_generation_prompt=prompt
            )
            theirs = render_jinja(
                source,
                read_conversation(embedded),
                tools=tools,
                tokens=TOKENS,
                add_generation_prompt=prompt,
            )
            assert ours == theirs, name


def test_lfm2_model_turn_is_content_then_block() -> None:
    text = tooletta.render([ToolCall("f", {"a": "x\ny"})], model=LFM2, content="Sure.")
    assert text == "Sure.<|tool_call_start|>[f(a='x\\ny')]<|tool_call_end|>"


def test_lfm25_writes_unescaped_string_literals_and_reads_them_back() -> None:
    calls = [ToolCall("f", {"text": 'two\nlines "quoted" 東京', "n": [1, "z"], "ok": None})]
    text = tooletta.render(calls, model=LFM25, reasoning="Plan.")
    assert text == (
        "<think>Plan.</think><|tool_call_start|>"
        "[f(text='two\nlines \"quoted\" 東京', n=[1, 'z'], ok=None)]<|tool_call_end|>"
    )
    assert tooletta.render(calls, dialect="lfm25") == text.split("</think>")[1]
    assert tooletta.parse(text, dialect="lfm2").calls == calls


def test_lfm25_matches_template_on_unescaped_strings() -> None:
    calls = [ToolCall("f", {"text": "a\nb", "k": {"x": 1}, "f": 1.5, "b": True})]
    messages = [Message("user", "go"), Message("assistant", "", tool_calls=calls)]
    template = (TEMPLATES / "LFM2.5-8B-A1B.jinja").read_text(encoding="utf-8")
    assert tooletta.render_conversation(messages, model=LFM25) == render_jinja(
        template, messages, tokens=TOKENS
    )
    back = tooletta.parse_conversation(
        tooletta.render_conversation(messages, model=LFM25), model=LFM25
    )
    assert back[-1].tool_calls == calls


def test_lfm25_escapes_strings_that_would_not_read_back() -> None:
    """The template writes ``'it's'`` raw, which no parser can read; we escape those."""
    calls = [ToolCall("f", {"q": "it's", "p": "C:\\dir"})]
    text = tooletta.render(calls, model=LFM25)
    assert text == "<|tool_call_start|>[f(q='it\\'s', p='C:\\\\dir')]<|tool_call_end|>"
    assert tooletta.parse(text, dialect="lfm2").calls == calls


def test_lfm2_default_still_escapes() -> None:
    text = tooletta.render([ToolCall("f", {"a": "x\ny"})], dialect="lfm2")
    assert text == "<|tool_call_start|>[f(a='x\\ny')]<|tool_call_end|>"


def test_models_route_to_their_formats() -> None:
    from tooletta.chat.lookup import find_format

    assert tooletta.dialect_for_model(LFM2) == "lfm2"
    assert tooletta.dialect_for_model(LFM25) == "lfm25"
    assert find_format(LFM2, None)[0].name == "lfm2"
    assert find_format(LFM25, None)[0].name == "lfm25"
    assert find_format(LFM25_INSTRUCT, None)[0].name == "lfm25_instruct"
    assert tooletta.detect("<|tool_call_start|>[f(a=1)]<|tool_call_end|>") == "lfm2"


def test_lfm25_instruct_keeps_only_last_turns_reasoning() -> None:
    messages = [
        Message("user", "a"),
        Message("assistant", "b", reasoning="r1"),
        Message("user", "c"),
        Message("assistant", "d", reasoning="r2"),
    ]
    text = tooletta.render_conversation(messages, model=LFM25_INSTRUCT)
    assert "r1" not in text and "<|im_start|>assistant\n<think>r2</think>d<|im_end|>" in text


def test_lfm2_trl_copy_is_known_and_lfm25_230m_has_its_format() -> None:
    """TRL's LFM2 template (LFM2-1.2B's, which writes no ``tool_calls``: the model writes its
    calls inside the content) is the verified LFM2 text, so the id given with it renders
    natively (it was a drift error); LFM2.5-230M has the LFM2.5 format (it was refused)."""
    from tooletta.chat import identify, resolve_format

    lfm2 = (TEMPLATES / "LFM2-1.2B.jinja").read_text(encoding="utf-8")
    ident = identify(lfm2, bos_token="<|startoftext|>")
    assert (ident.format, ident.known) == ("lfm2", True)
    messages, _ = sample_conversations()["tools_two_calls"]
    for model in ("LiquidAI/LFM2-1.2B", "LiquidAI/LFM2-350M"):
        given = tooletta.render_conversation(
            messages, model=model, tools=SAMPLE_TOOLS, chat_template=lfm2
        )
        assert given == tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
    assert resolve_format("LiquidAI/LFM2.5-230M", None)[0].name == "lfm25"
    lfm25 = (TEMPLATES / "LFM2.5-8B-A1B.jinja").read_text(encoding="utf-8")
    given = tooletta.render_conversation(
        messages, model="LiquidAI/LFM2.5-230M", tools=SAMPLE_TOOLS, chat_template=lfm25
    )
    assert given == tooletta.render_conversation(messages, model=LFM25, tools=SAMPLE_TOOLS)
