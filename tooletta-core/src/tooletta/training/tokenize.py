"""Token ids and loss weights for a conversation, in any model's chat format.

How the ids are made. The conversation is rendered by its :class:`~tooletta.chat.ChatFormat`
(:func:`tooletta.chat.render_spans`), which knows, character by character, which text the
model generates: each assistant turn's body and its end-of-turn token. The text is cut at the
start and the end of every generated run and each piece is encoded on its own, special tokens
recognised. That is exactly how the ids arise at inference: the prompt, up to the generation
prompt, is encoded as a whole, and the model then produces its turn token by token, ending
with its end-of-turn token (one id). So a weight boundary never falls inside a token, and the
trained ids are the ones the model would produce.

Where the format allows, these ids equal encoding the whole text at once: every cut lies next to a
special token or at a pre-tokenizer boundary (a newline before text). Where it does not — a BPE that
would merge characters across the cut, e.g. a generation prompt ending in ``"\\n"`` and a turn
starting with ``"\\n"`` — the ids follow inference, not the whole-text encoding, on purpose:
training on a merge the model never sees at inference would teach it a token sequence it cannot
produce. :func:`~tooletta.training.whole_text_agrees` tells the two apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, overload

from ..chat.checks import check_conversation
from ..chat.format import ChatFormat
from ..chat.lookup import resolve_format
from ..chat.messages import read_conversation, read_tool_definitions
from ..chat.render import Mark, RenderedConversation, render_format
from ..chat.switches import refuse_unwritten
from ..errors import ToolettaError
from ..ir import Message
from .safe import check_restored, defuse
from .targets import marks_of, render_targets, rewritten_in, target_marks, with_inline_reasoning
from .tokenizer import TokenizerAdapter, adapter_for

__all__ = [
    "TokenizedConversation",
    "extension_holds",
    "tokenize_conversation",
    "tokenize_rendered",
    "whole_text_agrees",
]

TrainOn = Literal["assistant", "last_assistant", "all"]
Split = Literal["never", "auto", "per_turn"]


@dataclass
class TokenizedConversation:
    """One training example.

    ``input_ids`` and ``weights`` (1.0 for a trained token, a message's own ``weight`` when
    it has one, 0.0 for the rest) have the same length; ``text`` is the training text and
    ``input_ids`` decode back to it: the rendered conversation (``render_conversation``'s
    output), its last assistant turn as the model generates it (ended by its stop where the
    template writes none there; with its reasoning where the template drops it but the
    generation prompt opens it: ``tooletta.training.targets``). ``spans`` holds the
    character span ``(start, end)`` of every message (``(-1, -1)`` for a message the template
    does not write); ``trained`` the indices of the messages whose turns carry weight.
    ``extends`` tells whether the format has the extension property on this conversation
    (each assistant turn's prompt is a prefix of the whole text).
    """

    input_ids: list[int]
    weights: list[float]
    text: str
    spans: list[tuple[int, int]] = field(default_factory=list)
    trained: list[int] = field(default_factory=list)
    extends: bool = True


def _message_weight(message: Message) -> float:
    extra = message.extra
    if extra.get("trainable") is False:
        return 0.0
    weight = extra.get("weight")
    if isinstance(weight, (int, float)) and not isinstance(weight, bool):
        return float(weight)
    return 1.0


def tokenize_rendered(
    rendered: RenderedConversation,
    tokenizer: Any,
    trained: Iterable[int],
    *,
    train_on: str = "assistant",
    train_reasoning: bool = True,
    special_tokens: Iterable[str] = (),
    message_text: Sequence[tuple[int, int]] = (),
) -> TokenizedConversation:
    """Ids and weights of an already rendered conversation; ``trained`` are the indices of
    the assistant messages whose generated text carries weight (``train_on="all"`` weighs
    every token 1.0). Each of ``special_tokens`` must be one id (else
    :class:`~tooletta.training.TokenizerError`). ``message_text``: character spans of message
    text that holds special tokens' strings, encoded as ordinary pieces
    (``tooletta.training.safe``)."""
    adapter = adapter_for(tokenizer)
    adapter.check_single(tuple(special_tokens))
    marks = marks_of(rendered)
    text, messages = rendered.text, rendered.messages
    spans = _spans(marks, len(messages))
    return _tokenize(
        text, marks, messages, adapter, set(trained), train_on, train_reasoning, message_text, spans
    )


def _tokenize(
    text: str,
    marks: Sequence[Mark],
    messages: Sequence[Message],
    adapter: TokenizerAdapter,
    wanted: set[int],
    train_on: str,
    train_reasoning: bool,
    message_text: Sequence[tuple[int, int]],
    spans: list[tuple[int, int]],
) -> TokenizedConversation:
    """:func:`tokenize_rendered` on a rendering's text, segments (:data:`Mark` tuples) and
    messages, once the special tokens are checked and the message spans found
    (:func:`_spans`). The text is cut wherever the state ``(generated, weight)`` of its
    segments changes; each piece is encoded on its own."""
    weights_of: dict[int, float] = {}
    cuts: list[int] = []
    piece_weights: list[float] = []
    start, generated, weight = 0, False, 0.0
    for seg_start, _, index, seg_generated, reasoning in marks:
        if seg_generated:
            seg_weight = 0.0
            if index is not None and index in wanted and (train_reasoning or not reasoning):
                found = weights_of.get(index)
                if found is None:
                    found = weights_of[index] = _message_weight(messages[index])
                seg_weight = found
            if generated and (seg_weight is weight or seg_weight == weight):
                continue  # the state (generated, weight) is unchanged: as tuples compare
        elif not generated:
            continue
        else:
            seg_weight = 0.0
        if seg_start > start:
            cuts.append(start)
            piece_weights.append(weight)
        start, generated, weight = seg_start, seg_generated, seg_weight
    if len(text) > start:
        cuts.append(start)
        piece_weights.append(weight)
    ends = [*cuts[1:], len(text)]
    if message_text:
        ids: list[int] = []
        sizes: list[int] = []
        for a, b in zip(cuts, ends):
            piece = _encode_guarded(adapter, text, a, b, message_text)
            ids += piece
            sizes.append(len(piece))
    else:
        ids, sizes = adapter.encode_pieces([text[a:b] for a, b in zip(cuts, ends)])
    weights: list[float] = []
    if train_on == "all":
        weights = [1.0] * len(ids)
    else:
        for size, weight in zip(sizes, piece_weights):
            weights += [weight] * size
    return TokenizedConversation(ids, weights, text, spans, sorted(wanted))


def _spans(marks: Sequence[Mark], count: int) -> list[tuple[int, int]]:
    """:meth:`RenderedConversation.span` of each of ``count`` messages, in one pass over the
    segments."""
    spans = [(-1, -1)] * count
    for seg_start, seg_end, index, _, _ in marks:
        if index is None:
            continue
        start, end = spans[index]
        if start < 0:
            spans[index] = (seg_start, seg_end)
        else:
            spans[index] = (min(start, seg_start), max(end, seg_end))
    return spans


def _encode_guarded(
    adapter: TokenizerAdapter, text: str, start: int, end: int, guarded: Sequence[tuple[int, int]]
) -> list[int]:
    """The ids of ``text[start:end]``: special tokens outside the ``guarded`` spans as their
    ids (the format's markup), everything else, the guarded message text included, as
    ordinary pieces."""
    inside = [(max(a, start), min(b, end)) for a, b in guarded if a < end and b > start]
    if not inside:
        return adapter.encode(text[start:end])
    pattern = adapter.special_pattern()
    ids: list[int] = []
    run = start
    pos = start
    while True:
        match = pattern.search(text, pos, end)
        if match is None:
            break
        if any(a <= match.start() < b for a, b in inside):
            pos = match.end()
            continue
        ids.extend(adapter.encode_plain(text[run : match.start()]))
        ids.append(adapter.single_id(match.group()))
        run = pos = match.end()
    ids.extend(adapter.encode_plain(text[run:end]))
    return ids


def _targets(
    fmt: ChatFormat,
    obj: Any,
    read: Sequence[Message],
    tools: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any],
    adapter: TokenizerAdapter,
) -> tuple[str, list[Mark], list[Message], list[tuple[int, int]]]:
    """The training text (:func:`~tooletta.training.targets.render_targets`: its text,
    segments and messages) and the spans of its message text that holds the tokenizer's
    special tokens (:mod:`.safe`)."""
    text, marks, messages = target_marks(fmt, obj, read, tools, options)
    rule = fmt.reasoning
    markers = (rule.open.strip(), rule.close.strip()) if rule is not None else ()
    defused = defuse(read, tools, adapter.special_pattern(markers))
    if defused is None:
        return text, marks, messages, []
    marked = render_targets(fmt, obj, defused.messages, defused.tools, options)
    restored, spans = defused.restore(marked, messages)
    check_restored(restored.text, text)
    return restored.text, marks_of(restored), restored.messages, spans


def special_tokens_of(fmt: Any) -> tuple[str, ...]:
    """The tokens of the chat format ``fmt`` that the tokenizer must hold as single ids: its
    declared special tokens and its end-of-turn tokens (remembered per format)."""
    found = _SPECIALS.get(fmt)
    if found is None:
        ends = (fmt.end_of_turn, *getattr(fmt, "end_tokens", ()))
        found = tuple(dict.fromkeys(t for t in (*fmt.special_tokens, *ends) if t))
        if len(_SPECIALS) > 256:
            _SPECIALS.clear()
        _SPECIALS[fmt] = found
    return found


_SPECIALS: dict[Any, tuple[str, ...]] = {}


def _assistant_indices(messages: Sequence[Message]) -> list[int]:
    return [i for i, m in enumerate(messages) if m.role == "assistant"]


def extension_holds(
    messages: Iterable[Any],
    *,
    model: str | None = None,
    dialect: str | None = None,
    tools: Iterable[Any] | None = None,
    **options: Any,
) -> bool:
    """The extension property: for every assistant turn, the prompt the model saw
    (the conversation before it, with the generation prompt) followed by the turn it generated
    (ended by its stop, ``tooletta.training.targets``) is a prefix of the whole training
    text. False for templates that rewrite history (reasoning dropped from earlier turns)."""
    fmt, obj = resolve_format(model, dialect)
    refuse_unwritten(fmt, options)
    return _extends(fmt, obj, read_conversation(messages), read_tool_definitions(tools), options)


def _extends(
    fmt: ChatFormat,
    obj: Any,
    read: Sequence[Message],
    tools: Sequence[Mapping[str, Any]],
    options: Mapping[str, Any],
) -> bool:
    full = render_targets(fmt, obj, read, tools, options).text
    for i in _assistant_indices(read):
        prompt = render_format(fmt, obj, read[:i], tools, True, options, False).text
        turn = render_targets(fmt, obj, read[: i + 1], tools, options)
        generated = "".join(turn.text[s:e] for _, (s, e) in turn.generated_spans()[-1:])
        if not full.startswith(prompt + generated):
            return False
    return True


@overload
def tokenize_conversation(
    messages: Iterable[Any],
    tokenizer: Any,
    *,
    model: str | None = ...,
    dialect: str | None = ...,
    chat_template: Any = ...,
    bos_token: str | None = ...,
    eos_token: str | None = ...,
    tools: Iterable[Any] | None = ...,
    train_on: TrainOn = ...,
    split: Literal["never"] = ...,
    train_reasoning: bool = ...,
    allow_markup: bool = ...,
    **options: Any,
) -> TokenizedConversation: ...


@overload
def tokenize_conversation(
    messages: Iterable[Any],
    tokenizer: Any,
    *,
    model: str | None = ...,
    dialect: str | None = ...,
    chat_template: Any = ...,
    bos_token: str | None = ...,
    eos_token: str | None = ...,
    tools: Iterable[Any] | None = ...,
    train_on: TrainOn = ...,
    split: Literal["auto", "per_turn"],
    train_reasoning: bool = ...,
    allow_markup: bool = ...,
    **options: Any,
) -> list[TokenizedConversation]: ...


@overload
def tokenize_conversation(
    messages: Iterable[Any],
    tokenizer: Any,
    *,
    model: str | None = ...,
    dialect: str | None = ...,
    chat_template: Any = ...,
    bos_token: str | None = ...,
    eos_token: str | None = ...,
    tools: Iterable[Any] | None = ...,
    train_on: str = ...,
    split: str = ...,
    train_reasoning: bool = ...,
    allow_markup: bool = ...,
    **options: Any,
) -> TokenizedConversation | list[TokenizedConversation]: ...


def tokenize_conversation(
    messages: Iterable[Any],
    tokenizer: Any,
    *,
    model: str | None = None,
    dialect: str | None = None,
    chat_template: Any = None,
    bos_token: str | None = None,
    eos_token: str | None = None,
    tools: Iterable[Any] | None = None,
    train_on: str = "assistant",
    split: str = "never",
    train_reasoning: bool = True,
    allow_markup: bool = False,
    **options: Any,
) -> TokenizedConversation | list[TokenizedConversation]:
    """Token ids and loss weights for ``messages`` in a model's own chat format.

    ``tokenizer``: a ``tokenizers.Tokenizer`` or a transformers tokenizer (duck-typed).
    ``model`` (an HF model id) or ``dialect`` picks the chat format; ``tools`` and
    ``options`` (``enable_thinking``...) as in :func:`tooletta.render_conversation`.
    ``train_on``: ``"assistant"`` (every assistant turn's generated text, end-of-turn token
    included), ``"last_assistant"`` (only the last) or ``"all"`` (every token). A message's
    ``weight`` (tinker style, in its extra keys; ``trainable: false`` is 0) scales its turn.
    ``train_reasoning=False`` leaves reasoning blocks untrained. Message text the format would
    read as markup is refused as :func:`tooletta.render_conversation` refuses it
    (``allow_markup=True`` writes it as is; it is still encoded as ordinary text, never as
    special-token ids).

    ``split``: ``"never"`` gives one example, in which a turn whose reasoning the template
    dropped (Qwen3 and GLM before the last user message, DeepSeek R1 everywhere but the last
    turn) is not trained: its text there is not what the model generated, and training it
    would teach answering without thinking. ``"per_turn"`` gives one example per trained
    assistant turn (the conversation up to that turn, only that turn trained, written as the
    model generated it), so every turn is trained and none on rewritten history; ``"auto"``
    splits only when the extension property fails (:func:`extension_holds`): the choice for
    multi-turn reasoning data. With ``"auto"`` or ``"per_turn"`` the result is a list.

    ``chat_template`` (the model's own Jinja template, a path or a tokenizer config; with
    ``bos_token`` / ``eos_token``) picks the format as :func:`tooletta.parse_conversation`
    does: the known format that reproduces it (checked against ``model`` / ``dialect`` when
    given: :class:`~tooletta.TemplateMismatchError`), else a learned one.
    """
    if chat_template is not None:
        from ..chat.template import template_names

        model, dialect = template_names(
            model, dialect, chat_template, None, bos_token, eos_token, tools=bool(tools)
        )
    elif bos_token is not None or eos_token is not None:
        raise ToolettaError("bos_token= / eos_token= need chat_template=")
    if train_on not in ("assistant", "last_assistant", "all"):
        raise ToolettaError(f"train_on must be assistant, last_assistant or all: {train_on!r}")
    if split not in ("never", "auto", "per_turn"):
        raise ToolettaError(f"split must be never, auto or per_turn: {split!r}")
    read = read_conversation(messages)
    tool_defs = read_tool_definitions(tools)
    fmt, obj = resolve_format(model, dialect)
    refuse_unwritten(fmt, options)
    inline = [with_inline_reasoning(fmt, m) if m.role == "assistant" else m for m in read]
    check_conversation(fmt, obj, inline, tool_defs, allow_markup)  # reasoning in <think> is not
    # markup: the format writes it as the model generated it
    if chat_template is not None and options:
        from ..chat.template import check_template_options

        check_template_options(
            chat_template, bos_token, eos_token, fmt, obj, read, tool_defs, options
        )
    adapter = adapter_for(tokenizer)
    specials = special_tokens_of(fmt)
    assistants = _assistant_indices(read)
    targets = assistants[-1:] if train_on == "last_assistant" else assistants
    extends = True
    if split != "never":
        extends = _extends(fmt, obj, read, tool_defs, options)
    if split == "per_turn" or (split == "auto" and not extends):
        examples = []
        for i in targets:
            text, marks, messages, guarded = _targets(
                fmt, obj, read[: i + 1], tool_defs, options, adapter
            )
            adapter.check_single(specials)
            spans = _spans(marks, len(messages))
            example = _tokenize(
                text, marks, messages, adapter, {i}, train_on, train_reasoning, guarded, spans
            )
            example.extends = extends
            examples.append(example)
        return examples
    text, marks, messages, guarded = _targets(fmt, obj, read, tool_defs, options, adapter)
    adapter.check_single(specials)
    spans = _spans(marks, len(messages))
    wanted = {i for i in targets if not rewritten_in(fmt, text, messages, i, spans[i])}
    example = _tokenize(
        text, marks, messages, adapter, wanted, train_on, train_reasoning, guarded, spans
    )
    example.extends = extends
    return [example] if split == "auto" else example


def whole_text_agrees(example: TokenizedConversation, tokenizer: Any) -> bool:
    """Whether the example's ids equal encoding its whole text at once (see the module
    docstring for when and why they may differ)."""
    return adapter_for(tokenizer).encode(example.text) == example.input_ids
