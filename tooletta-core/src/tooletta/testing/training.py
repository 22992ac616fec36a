"""Training laws and offline tokenizers for training tests.

No network and no hub: :func:`bpe_tokenizer` trains a byte-level BPE (the kind GPT-2, Llama 3,
Qwen and most current models use) on the texts given, then adds the chat format's special
tokens, each one id, as the model's own tokenizer has them. Needs the ``tokenizers`` package.

:func:`check_turn_stops` is the law every chat format keeps: it declares what the model
generates to end an assistant turn (:meth:`~tooletta.chat.ChatFormat.turn_stop`), and the
trained text of a conversation's last assistant turn ends with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..chat.conversation import conversation
from ..chat.format import ChatFormat
from ..chat.messages import read_tool_definitions
from ..chat.notools import uses_tools, writes_tools
from ..ir import Message, ToolCall
from .conversation_law import tool_free
from .samples import SAMPLE_TOOLS, sample_conversations

__all__ = ["bpe_tokenizer", "check_turn_stops", "stop_cases"]


def bpe_tokenizer(
    texts: Iterable[str], special_tokens: Iterable[str] = (), vocab_size: int = 600
) -> Any:
    """A ``tokenizers.Tokenizer``: byte-level BPE trained on ``texts`` (so it merges what
    they repeat), with ``special_tokens`` added as single special ids."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tokenizer.train_from_iterator(list(texts), trainer=trainer)
    tokenizer.add_special_tokens(list(dict.fromkeys(special_tokens)))
    return tokenizer


def stop_cases() -> dict[str, tuple[list[Message], bool]]:
    """The sample conversations that end with an assistant turn, and two single-turn rows
    (an answer; a call), as a training set holds them: ``name -> (messages, uses_tools)``."""
    cases = {
        name: case
        for name, case in sample_conversations().items()
        if case[0] and case[0][-1].role == "assistant"
    }
    cases["one_answer"] = ([Message("user", "Hi"), Message("assistant", "Hello.")], False)
    call = ToolCall("get_weather", {"city": "Paris"})
    cases["one_call"] = (
        [Message("user", "Weather?"), Message("assistant", "", tool_calls=[call])],
        True,
    )
    return cases


def _single_tokens(fmt: ChatFormat) -> tuple[str, ...]:
    tokens = (*fmt.special_tokens, fmt.end_of_turn, *fmt.end_tokens, *fmt.stop_tokens)
    return tuple(t for t in tokens if t)


def check_turn_stops(
    fmt: ChatFormat,
    dialect: Any,
    cases: Mapping[str, tuple[Sequence[Message], bool]] | None = None,
    options: Mapping[str, Any] | None = None,
) -> None:
    """The turn-stop law: for each conversation ending with an assistant turn, the format
    declares a stop (:meth:`~tooletta.chat.ChatFormat.turn_stop`, ending with one of its
    single-id tokens) and the last generated run of the training text
    (``tooletta.training.targets.render_targets``) ends with it. Raises
    ``AssertionError`` naming the case. A format that writes no tools is checked on each
    conversation without its tools (:func:`~tooletta.testing.conversation_law.tool_free`)."""
    from ..training.targets import render_targets

    tokens = _single_tokens(fmt)
    tool_free_only = not writes_tools(fmt)
    for name, (messages, with_tools) in (cases or stop_cases()).items():
        tools = read_tool_definitions(SAMPLE_TOOLS if with_tools else None)
        if tool_free_only and uses_tools(messages, tools):  # (refused: see check_tools_refused)
            messages, tools = tool_free(messages), []
            if not messages or messages[-1].role != "assistant":
                continue
        opts = dict(options or {})
        rendered = render_targets(fmt, dialect, messages, tools, opts)
        last = len(messages) - 1
        ctx = conversation(rendered.messages, tools, {**fmt.options, **opts}, dialect)
        stop = fmt.turn_stop(last, ctx)
        assert stop, f"{fmt.name}/{name}: no turn stop declared for the last assistant turn"
        assert stop.endswith(tokens), f"{fmt.name}/{name}: {stop!r} ends with no format token"
        spans = rendered.generated_spans()
        assert spans and spans[-1][0] == last, f"{fmt.name}/{name}: the last turn is not trained"
        start, end = spans[-1][1]
        generated = rendered.text[start:end]
        assert generated.endswith(stop), (
            f"{fmt.name}/{name}: the last turn's trained text {generated[-60:]!r} does not "
            f"end with its stop {stop!r}"
        )
