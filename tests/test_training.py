"""Token ids and loss weights (issue 11): every installed chat format, offline BPE tokenizers."""

from __future__ import annotations

from typing import Any

import pytest

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat import (
    Conversation,
    chat_formats_of,
    read_conversation,
    read_tool_definitions,
    render_spans,
    resolve_format,
)
from tooletta.chat.notools import uses_tools, writes_tools
from tooletta.plugins import get_registry
from tooletta.testing.conversation_law import tool_free
from tooletta.testing.conversations import SAMPLE_TOOLS, sample_conversations
from tooletta.testing.training import bpe_tokenizer, check_turn_stops
from tooletta.training import (
    TokenizerError,
    extension_holds,
    tokenize_conversation,
    whole_text_agrees,
)
from tooletta.training.targets import render_targets, rewritten

pytest.importorskip("tokenizers")


def _formats() -> list[tuple[str, Any]]:
    out = []
    for entry in get_registry().ordered():
        for fmt in chat_formats_of(entry.dialect):
            out.append((fmt.name, fmt))
    return out


FORMATS = _formats()
CASES = sample_conversations()
NO_TOOLS = sorted(name for name, fmt in FORMATS if not writes_tools(fmt))
assert {"mistral_small3", "mistral_large_2411", "codestral_22b"} <= set(NO_TOOLS)
"""The formats whose template writes no tools (``writes_tools = False``): trained on the
samples without their tools (:func:`_cases`); their refusal of the others is asserted by
:func:`test_a_format_writing_no_tools_refuses_to_tokenize_them`."""


def _cases(name: str) -> dict[str, tuple[list[Message], Any]]:
    """The sample conversations and their tools as the format ``name`` writes them: for a
    format that writes no tools, a sample with tools without them (``tool_free``)."""
    out = {}
    for case, (messages, with_tools) in CASES.items():
        tools = SAMPLE_TOOLS if with_tools else None
        if name in NO_TOOLS and uses_tools(messages, tools):
            messages, tools = tool_free(messages), None
        out[case] = (messages, tools)
    return out


def _tokenizer(fmt_name: str) -> Any:
    texts = []
    for messages, tools in _cases(fmt_name).values():
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


def _targets(messages: Any, name: str, tools: Any) -> Any:
    """The training text and segments (:func:`tooletta.training.targets.render_targets`)."""
    fmt, obj = resolve_format(None, name)
    read, defs = read_conversation(messages), read_tool_definitions(tools)
    return render_targets(fmt, obj, read, defs, {})


def _assert_training_text(text: str, messages: Any, name: str, tools: Any) -> None:
    """The training text is the rendered conversation; where the template writes no stop
    after the last assistant turn, the turn's stop is inserted after it; where the template
    drops the last turn's reasoning that its generation prompt opens, the turn follows the
    generation prompt as the model writes it."""
    rendered = tooletta.render_conversation(messages, dialect=name, tools=tools)
    if text == rendered:
        return
    fmt = dict(FORMATS)[name]
    last = len(messages) - 1
    assert messages[last].role == "assistant"
    ctx = Conversation(read_conversation(messages), [], fmt.options, None)
    stop = fmt.turn_stop(last, ctx)
    at = [i for i in range(len(text)) if text.startswith(stop, i)]
    if any(text[:i] + text[i + len(stop) :] == rendered for i in at):
        return
    prompt = tooletta.render_conversation(
        messages[:last], dialect=name, tools=tools, add_generation_prompt=True
    )
    assert text.startswith(prompt) and fmt.reasoning is not None, (name, text, rendered)


@pytest.mark.parametrize("name", NO_TOOLS)
def test_a_format_writing_no_tools_refuses_to_tokenize_them(name: str) -> None:
    """Every sample with tools, calls or results is refused by ``tokenize_conversation``
    (the format's RenderError), never trained without them."""
    tok = _tokenizer(name)
    refused = 0
    for messages, with_tools in CASES.values():
        tools = SAMPLE_TOOLS if with_tools else None
        if uses_tools(messages, tools):
            with pytest.raises(tooletta.RenderError, match=f"{name}: .*writes no tool"):
                tokenize_conversation(messages, tok, dialect=name, tools=tools)
            refused += 1
    assert refused


def test_ids_decode_to_the_rendered_text(fmt_tokenizer: tuple[str, Any]) -> None:
    name, tok = fmt_tokenizer
    for case, (messages, tools) in _cases(name).items():
        example = tokenize_conversation(messages, tok, dialect=name, tools=tools)
        _assert_training_text(example.text, messages, name, tools)
        assert tok.decode(example.input_ids, skip_special_tokens=False) == example.text, case
        assert len(example.weights) == len(example.input_ids)


def test_trained_runs_are_exactly_the_generated_turns(fmt_tokenizer: tuple[str, Any]) -> None:
    name, tok = fmt_tokenizer
    for case, (messages, tools) in _cases(name).items():
        rendered = _targets(messages, name, tools)
        fmt = dict(FORMATS)[name]
        turns = [
            rendered.text[s:e]
            for i, (s, e) in rendered.generated_spans()
            if not rewritten(fmt, rendered, i)
        ]
        example = tokenize_conversation(messages, tok, dialect=name, tools=tools)
        decoded = [tok.decode(run, skip_special_tokens=False) for run in _runs(example)]
        assert decoded == turns, case
        fmt = dict(FORMATS)[name]
        ends = tuple(t for t in (fmt.end_of_turn, *fmt.end_tokens) if t)
        if fmt.end_of_turn:  # each turn's own end token ("": none, Command R+ after calls)
            ctx = Conversation(rendered.messages, [], fmt.options, None)
            owners = [i for i, _ in rendered.generated_spans() if not rewritten(fmt, rendered, i)]
            assert all(t.endswith(fmt.end_token(i, ctx)) for i, t in zip(owners, decoded))
        elif ends:
            assert all(t.endswith(ends) for t in decoded)


def test_last_assistant_marks_only_the_last(fmt_tokenizer: tuple[str, Any]) -> None:
    name, tok = fmt_tokenizer
    messages, tools = _cases(name)["reasoning_multi_turn"]
    rendered = _targets(messages, name, tools)
    last = rendered.generated_spans()[-1][1]
    example = tokenize_conversation(
        messages, tok, dialect=name, tools=tools, train_on="last_assistant"
    )
    runs = _runs(example)
    assert len(runs) == 1
    assert tok.decode(runs[0], skip_special_tokens=False) == rendered.text[last[0] : last[1]]


def test_train_on_all_weighs_every_token(fmt_tokenizer: tuple[str, Any]) -> None:
    name, tok = fmt_tokenizer
    messages, tools = _cases(name)["tools_two_calls"]
    example = tokenize_conversation(messages, tok, dialect=name, tools=tools, train_on="all")
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
    for messages, tools in _cases(name).values():
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


def test_every_format_trains_its_turn_stop_on_the_last_turn() -> None:
    """The kit law (issue 23): each format declares how a turn ends, and the last assistant
    turn's training text ends with it."""
    for entry in get_registry().ordered():
        for fmt in chat_formats_of(entry.dialect):
            check_turn_stops(fmt, entry.dialect)


@pytest.mark.parametrize("name", ["glm46", "glm47"])
def test_glm_last_turn_trains_the_role_token_it_stops_with(name: str) -> None:
    """GLM-4.5/4.6/4.7 have no end-of-turn token: a single answer is trained with the
    ``<|user|>`` the model writes to stop (TRL appends and trains it too), a call turn with
    ``<|observation|>``."""
    tok = _tokenizer(name)
    for messages, stop in (
        ([Message("user", "Hi"), Message("assistant", "Hello.")], "<|user|>"),
        (
            [
                Message("user", "Weather?"),
                Message("assistant", "", tool_calls=[ToolCall("get_weather", {"city": "Paris"})]),
            ],
            "<|observation|>",
        ),
    ):
        example = tokenize_conversation(messages, tok, dialect=name, tools=SAMPLE_TOOLS)
        assert example.text.endswith(stop)
        assert example.input_ids[-1] == tok.token_to_id(stop) and example.weights[-1] == 1.0
        (run,) = _runs(example)
        assert tok.decode(run, skip_special_tokens=False).endswith(stop)


WHOLE_TEXT_FORMATS = [
    "qwen3",
    "qwen35",
    "glm46",
    "glm47",
    "llama31",
    "deepseek_v31",
    "gpt_oss",
    "gemma4",
    "kimi_k25",
    "mistral_small32",
]
"""Formats whose trained pieces encode to the whole text's ids on any conversation. Not here:
``deepseek_r1`` (the distills' vocabularies hold none of R1's tool tokens, so after tool results
a byte-level BPE merges ``｜><｜`` across the end of ``<｜tool▁outputs▁end｜>`` and the start of
the model's calls: the ids follow inference, where the prompt is encoded before the model
writes) and ``firefunction_v2``/``functionary_v31`` (:data:`SPLIT_BY_THE_TOY_TOKENIZER`)."""


@pytest.mark.parametrize("name", WHOLE_TEXT_FORMATS)
def test_pieces_encode_as_the_whole_text_on_random_conversations(name: str) -> None:
    """Property (issue 23): encoding the pieces cut at the trained runs gives the ids of one
    encode of the whole text, on random conversations (calls, reasoning, results)."""
    from hypothesis import HealthCheck, given, settings

    from tooletta.testing.samples import PROBE_TOOLS, random_conversations

    tok = _tokenizer(name)

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(random_conversations())
    def check(messages: list[Message]) -> None:
        try:
            example = tokenize_conversation(messages, tok, dialect=name, tools=PROBE_TOOLS)
        except tooletta.ToolettaError:
            return  # a conversation the format refuses (no place for reasoning, say)
        assert whole_text_agrees(example, tok), example.text

    check()


@pytest.mark.parametrize("name", ["qwen3", "glm46", "llama31", "deepseek_v31", "deepseek_r1"])
def test_the_fast_path_gives_what_the_segments_give_on_random_conversations(name: str) -> None:
    """Property (issue 23's speed): ``tokenize_conversation`` reads the rendering as tuples
    and encodes the pieces without offsets; the public path on ``Segment`` objects
    (``render_targets`` then ``tokenize_rendered``, one ``encode`` per piece) gives the same
    example on random conversations."""
    from hypothesis import HealthCheck, given, settings

    from tooletta.testing.samples import PROBE_TOOLS, random_conversations
    from tooletta.training import tokenize_rendered
    from tooletta.training.tokenize import special_tokens_of

    tok = _tokenizer(name)
    fmt, obj = resolve_format(None, name)

    class OneByOne:
        """The tokenizer, seen without ``encode_batch_fast``: one ``encode`` per piece."""

        def encode(self, text: str, add_special_tokens: bool = False) -> Any:
            return tok.encode(text, add_special_tokens=add_special_tokens)

        def decode(self, ids: list[int], skip_special_tokens: bool = False) -> str:
            return str(tok.decode(ids, skip_special_tokens=skip_special_tokens))

    plain = OneByOne()

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(random_conversations())
    def check(messages: list[Message]) -> None:
        try:
            example = tokenize_conversation(messages, tok, dialect=name, tools=PROBE_TOOLS)
        except tooletta.ToolettaError:
            return  # a conversation the format refuses
        read = read_conversation(messages)
        rendered = render_targets(fmt, obj, read, read_tool_definitions(PROBE_TOOLS), {})
        assert rendered.text == example.text
        trained = [
            i
            for i, m in enumerate(read)
            if m.role == "assistant" and not rewritten(fmt, rendered, i)
        ]
        want = tokenize_rendered(rendered, plain, trained, special_tokens=special_tokens_of(fmt))
        assert want.input_ids == example.input_ids
        assert want.weights == example.weights
        assert want.spans == example.spans
        assert want.trained == example.trained

    check()
