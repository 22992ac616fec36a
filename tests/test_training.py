"""Token ids and loss weights (issue 11): every installed chat format, offline BPE tokenizers."""

from __future__ import annotations

from typing import Any

import pytest

import tooletta
from tooletta import Message
from tooletta.chat import Conversation, chat_formats_of, render_spans
from tooletta.plugins import get_registry
from tooletta.testing.conversations import SAMPLE_TOOLS, sample_conversations
from tooletta.testing.training import bpe_tokenizer
from tooletta.training import (
    TokenizerError,
    extension_holds,
    tokenize_conversation,
    whole_text_agrees,
)

pytest.importorskip("tokenizers")


def _formats() -> list[tuple[str, Any]]:
    out = []
    for entry in get_registry().ordered():
        for fmt in chat_formats_of(entry.dialect):
            out.append((fmt.name, fmt))
    return out


FORMATS = _formats()
CASES = sample_conversations()


def _tokenizer(fmt_name: str) -> Any:
    texts = []
    for messages, uses_tools in CASES.values():
        tools = SAMPLE_TOOLS if uses_tools else None
        texts.append(render_spans(messages, dialect=fmt_name, tools=tools).text)
    fmt = dict(FORMATS)[fmt_name]
    specials = [*fmt.special_tokens, fmt.end_of_turn, *fmt.end_tokens]
    return bpe_tokenizer(texts * 3, [t for t in specials if t])


@pytest.fixture(scope="module", params=[name for name, _ in FORMATS])
def fmt_tokenizer(request: Any) -> tuple[str, Any]:
    return request.param, _tokenizer(request.param)


def _runs(example: Any) -> list[list[int]]:
    runs: list[list[int]] = []
    previous = 0.0
    for token, weight in zip(example.input_ids, example.weights):
        if weight and not previous:
            runs.append([])
        if weight:
            runs[-1].append(token)
        previous = weight
    return runs


def test_ids_decode_to_the_rendered_text(fmt_tokenizer: tuple[str, Any]) -> None:
    name, tok = fmt_tokenizer
    for case, (messages, uses_tools) in CASES.items():
        tools = SAMPLE_TOOLS if uses_tools else None
        example = tokenize_conversation(messages, tok, dialect=name, tools=tools)
        assert example.text == tooletta.render_conversation(messages, dialect=name, tools=tools)
        assert tok.decode(example.input_ids, skip_special_tokens=False) == example.text, case
        assert len(example.weights) == len(example.input_ids)


def test_trained_runs_are_exactly_the_generated_turns(fmt_tokenizer: tuple[str, Any]) -> None:
    name, tok = fmt_tokenizer
    for case, (messages, uses_tools) in CASES.items():
        tools = SAMPLE_TOOLS if uses_tools else None
        rendered = render_spans(messages, dialect=name, tools=tools)
        turns = [rendered.text[s:e] for _, (s, e) in rendered.generated_spans()]
        example = tokenize_conversation(messages, tok, dialect=name, tools=tools)
        decoded = [tok.decode(run, skip_special_tokens=False) for run in _runs(example)]
        assert decoded == turns, case
        fmt = dict(FORMATS)[name]
        ends = tuple(t for t in (fmt.end_of_turn, *fmt.end_tokens) if t)
        if fmt.end_of_turn:  # each turn's own end token ("": none, Command R+ after calls)
            ctx = Conversation(rendered.messages, [], fmt.options, None)
            owners = [i for i, _ in rendered.generated_spans()]
            assert all(t.endswith(fmt.end_token(i, ctx)) for i, t in zip(owners, decoded))
        elif ends:
            assert all(t.endswith(ends) for t in decoded)


def test_last_assistant_marks_only_the_last(fmt_tokenizer: tuple[str, Any]) -> None:
    name, tok = fmt_tokenizer
    messages, _ = CASES["reasoning_multi_turn"]
    rendered = render_spans(messages, dialect=name, tools=SAMPLE_TOOLS)
    last = rendered.generated_spans()[-1][1]
    example = tokenize_conversation(
        messages, tok, dialect=name, tools=SAMPLE_TOOLS, train_on="last_assistant"
    )
    runs = _runs(example)
    assert len(runs) == 1
    assert tok.decode(runs[0], skip_special_tokens=False) == rendered.text[last[0] : last[1]]


def test_train_on_all_weighs_every_token(fmt_tokenizer: tuple[str, Any]) -> None:
    name, tok = fmt_tokenizer
    messages, _ = CASES["tools_two_calls"]
    example = tokenize_conversation(messages, tok, dialect=name, tools=SAMPLE_TOOLS, train_on="all")
    assert set(example.weights) == {1.0}


_LLAMA3_HEADER = (
    "a Llama 3 header ends with '\\n\\n' before the generated text; these texts hold "
    "'\\n\\n' runs before whitespace elsewhere (the tool list, the trailing header), so the "
    "test BPE learns that merge, which its GPT-2 pre-tokenizer splits before text in the "
    "whole-text encoding ('\\n', '\\n'); the prompt's own encoding (the inference ids) keeps "
    "it, and Llama 3's own pre-tokenizer keeps '\\n\\n' whole either way"
)
SPLIT_BY_THE_TOY_TOKENIZER = {"firefunction_v2": _LLAMA3_HEADER, "functionary_v31": _LLAMA3_HEADER}
"""Formats whose ids differ from the whole-text encoding only through the toy tokenizer."""


def test_ids_equal_whole_text_encoding_where_the_format_allows(
    fmt_tokenizer: tuple[str, Any],
) -> None:
    name, tok = fmt_tokenizer
    if name in SPLIT_BY_THE_TOY_TOKENIZER:
        pytest.skip(SPLIT_BY_THE_TOY_TOKENIZER[name])
    agree = 0
    for messages, uses_tools in CASES.values():
        tools = SAMPLE_TOOLS if uses_tools else None
        example = tokenize_conversation(messages, tok, dialect=name, tools=tools)
        agree += whole_text_agrees(example, tok)
    assert agree == len(CASES), f"{name}: only {agree} of {len(CASES)} agree"


def test_message_weight_scales_its_turn() -> None:
    tok = _tokenizer("qwen3")
    messages = [
        Message("user", "a"),
        Message("assistant", "b", extra={"weight": 0.5}),
        Message("user", "c"),
        Message("assistant", "d", extra={"trainable": False}),
    ]
    example = tokenize_conversation(messages, tok, dialect="qwen3")
    assert set(example.weights) == {0.0, 0.5}


def test_special_token_must_be_one_id() -> None:
    plain = bpe_tokenizer(["hello world"] * 5, [])
    with pytest.raises(
        TokenizerError, match=r"encodes the format's token '<\|im_start\|>' as \d+ ids"
    ):
        tokenize_conversation([Message("user", "a")], plain, dialect="qwen3")


def test_extension_property_reported_for_a_history_rewriting_template() -> None:
    messages, _ = CASES["reasoning_multi_turn"]  # Qwen3 drops reasoning before the last query
    assert not extension_holds(messages, dialect="qwen3", tools=SAMPLE_TOOLS)
    plain, _ = CASES["plain"]
    assert extension_holds(plain, dialect="qwen3")


def test_split_auto_gives_one_example_per_turn_when_history_is_rewritten() -> None:
    tok = _tokenizer("qwen3")
    messages, _ = CASES["reasoning_multi_turn"]
    examples = tokenize_conversation(
        messages, tok, dialect="qwen3", tools=SAMPLE_TOOLS, split="auto"
    )
    assistants = [i for i, m in enumerate(messages) if m.role == "assistant"]
    assert [e.trained for e in examples] == [[i] for i in assistants]
    for example, index in zip(examples, assistants):
        assert not example.extends
        runs = _runs(example)
        assert len(runs) == 1
        want = render_spans(messages[: index + 1], dialect="qwen3", tools=SAMPLE_TOOLS)
        s, e = want.generated_spans()[-1][1]
        assert tok.decode(runs[0], skip_special_tokens=False) == want.text[s:e]
    # the first turn's reasoning, dropped from the whole conversation, is trained in its own
    assert "The user wants weather" in examples[0].text
    plain, _ = CASES["plain"]
    assert len(tokenize_conversation(plain, tok, dialect="qwen3", split="auto")) == 1


def test_reasoning_can_be_left_untrained() -> None:
    tok = _tokenizer("qwen3")
    messages = [Message("user", "q"), Message("assistant", "answer", reasoning="think hard")]
    example = tokenize_conversation(messages, tok, dialect="qwen3", train_reasoning=False)
    trained = tok.decode([t for t, w in zip(example.input_ids, example.weights) if w])
    assert "think hard" not in trained and "answer" in trained


def test_transformers_tokenizer_is_accepted() -> None:
    transformers = pytest.importorskip("transformers")
    tok = _tokenizer("qwen3")
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok)
    messages, _ = CASES["tools_two_calls"]
    a = tokenize_conversation(messages, tok, dialect="qwen3", tools=SAMPLE_TOOLS)
    b = tokenize_conversation(messages, fast, dialect="qwen3", tools=SAMPLE_TOOLS)
    assert a.input_ids == b.input_ids and a.weights == b.weights
