"""The TRL oracle (issue 23): our training targets against TRL's ``{% generation %}`` chat
templates (TRL 1.16, vendored in tests/fixtures/trl/ with their source and license), whose
loss masks transformers' ``apply_chat_template(..., return_assistant_tokens_mask=True)`` gives.

For every family both cover, on varied conversations (text, calls, parallel calls, reasoning
in history and in the last turn, multi-turn), the rendered texts are equal and the masks are
equal, except the differences listed per family below: each is asserted where it occurs (a
difference that no longer occurs fails the test too, so this list stays true). Why ours is
right in each is in docs/concepts/training-targets.md.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tooletta import Message
from tooletta.chat import read_conversation, read_tool_definitions, resolve_format
from tooletta.chat.jinja import to_template_messages
from tooletta.testing.samples import SAMPLE_TOOLS, sample_conversations
from tooletta.testing.training import bpe_tokenizer
from tooletta.training import tokenize_conversation
from tooletta.training.targets import render_targets, rewritten

pytest.importorskip("tokenizers")
transformers = pytest.importorskip("transformers")
pytest.importorskip("jinja2")

FIXTURES = Path(__file__).parent / "fixtures" / "trl"
THINK_BLOCK = re.compile(r"<think>.*?</think>(\n\n|\n)?", re.S)

Check = Callable[[str, str], bool]


def _without_think_blocks(ours: str, theirs: str) -> bool:
    """The texts differ only in think blocks (TRL's training templates write every turn's
    block, the model's own template drops those before the last user message)."""
    return ours != theirs and THINK_BLOCK.sub("", ours) == THINK_BLOCK.sub("", theirs)


def _drops(marker: str) -> Check:
    """TRL's template leaves ``marker`` (ours writes it) out."""
    return lambda ours, theirs: marker in ours and marker not in theirs


@dataclass(frozen=True)
class Family:
    """One family both cover: TRL's template, and the documented differences."""

    trl: str
    bos: str = ""
    newline: bool = True
    """TRL trains the template's ``\\n`` after the end-of-turn token (we do not: the model
    stops at the token and never generates it)."""
    prompt: tuple[str, ...] = ()
    """Generation-prompt text TRL trains before a turn (the prompt writes it at inference:
    the model never generates it)."""
    rewritten: bool = False
    """TRL trains turns whose reasoning the model's template dropped from this text (ours,
    with ``split="never"``, leaves them untrained; ``split="auto"`` trains them with their
    reasoning)."""
    texts: Mapping[str, tuple[str, Check]] = field(default_factory=dict)
    """Cases whose texts differ: why, and the check that they differ only so."""
    thinking_key: bool = False
    """The template reads reasoning from ``thinking`` (gpt-oss)."""


_QWEN_HISTORY = (
    "TRL's training template writes every turn's think block (prefix-preserving patch); "
    "the model's template drops them before the last user message",
    _without_think_blocks,
)
_GPT_OSS_PARALLEL = (
    "the gpt-oss template writes only the first call of a turn with parallel calls",
    _drops("to=functions.get_time<|channel|>"),
)
_R1_CALLS = (
    "the R1 template drops the calls of a turn with content (ours writes what a correct "
    "template would: plugin README)",
    _drops("<｜tool▁calls▁begin｜>"),
)
_R1_REASONING_FIELD = (
    "TRL's R1 template reads reasoning only inside the content, not `reasoning_content`: "
    "it trains the answer alone",
    lambda ours, theirs: "<think>\nAdd" in ours and "<think>" not in theirs,
)
_R1_HISTORY = (
    "TRL keeps history reasoning (its patch removes the `</think>` split); the model's "
    "template drops it",
    lambda ours, theirs: "<think>\nAdd them." in theirs and "<think>\nAdd them." not in ours,
)

FAMILIES: dict[str, Family] = {
    "qwen3": Family(
        "qwen3_training",
        texts={
            "tools_two_calls": _QWEN_HISTORY,
            "tools_no_system": _QWEN_HISTORY,
            "reasoning_multi_turn": _QWEN_HISTORY,
            "reasoning_history": _QWEN_HISTORY,
        },
    ),
    "qwen35": Family(
        "qwen3_5_think_training",
        prompt=("<think>\n",),
        texts={"reasoning_multi_turn": _QWEN_HISTORY, "reasoning_history": _QWEN_HISTORY},
    ),
    "qwen25": Family("qwen2_5_training", prompt=("\n",)),
    "glm46": Family("glm4moe_training", newline=False, rewritten=True),
    "gpt_oss": Family(
        "gptoss_training",
        newline=False,
        prompt=("<|start|>assistant",),
        rewritten=True,
        thinking_key=True,
        texts={
            "tools_two_calls": _GPT_OSS_PARALLEL,
            "tools_no_system": _GPT_OSS_PARALLEL,
            "reasoning_multi_turn": _GPT_OSS_PARALLEL,
            "pending_call": _GPT_OSS_PARALLEL,
        },
    ),
    "deepseek_r1": Family(
        "deepseek_r1_distill_training",
        bos="<｜begin▁of▁sentence｜>",
        newline=False,
        prompt=("<｜Assistant｜><think>\n", "<｜Assistant｜>"),
        texts={
            "tools_two_calls": _R1_CALLS,
            "tools_no_system": _R1_CALLS,
            "reasoning_multi_turn": _R1_CALLS,
            "pending_call": _R1_CALLS,
            "reasoning_history_inline": _R1_HISTORY,
            "reasoning_last": _R1_REASONING_FIELD,
            "reasoning_history": _R1_REASONING_FIELD,
        },
    ),
    "nemotron3": Family("nemotron_3_nano_training", prompt=("<think>\n",), rewritten=True),
    "lfm25": Family("lfm2_2_5", bos="<|startoftext|>", rewritten=True),
    "lfm2": Family("lfm2_v2_training", bos="<|startoftext|>"),
}


def _cases() -> dict[str, tuple[list[Any], bool]]:
    """The sample conversations that end with an assistant turn, and reasoning cases."""
    cases: dict[str, tuple[list[Any], bool]] = {
        name: (list(messages), uses)
        for name, (messages, uses) in sample_conversations(ids=True).items()
        if messages and messages[-1].role == "assistant"
    }
    q1, q2 = Message("user", "What is two plus two?"), Message("user", "And three plus three?")
    cases["reasoning_last"] = ([q1, Message("assistant", "Four.", reasoning="Add them.")], False)
    cases["reasoning_history"] = (
        [
            q1,
            Message("assistant", "Four.", reasoning="Add them."),
            q2,
            Message("assistant", "Six.", reasoning="Add again."),
        ],
        False,
    )
    return cases


def _r1_cases() -> dict[str, tuple[list[Any], bool]]:
    """R1-Distill datasets hold the reasoning inside the content."""
    q1, q2 = Message("user", "What is two plus two?"), Message("user", "And three plus three?")
    return {
        "reasoning_last_inline": (
            [q1, Message("assistant", "<think>\nAdd them.\n</think>\n\nFour.")],
            False,
        ),
        "reasoning_history_inline": (
            [
                q1,
                Message("assistant", "<think>\nAdd them.\n</think>\n\nFour."),
                q2,
                Message("assistant", "<think>\nAdd again.\n</think>\n\nSix."),
            ],
            False,
        ),
    }


def _today(fmt: str) -> str:
    """Today's date as transformers writes it for ``strftime_now`` (gpt-oss's system turn)."""
    return datetime.now().strftime(fmt)


def _char_mask(offsets: list[tuple[int, int]], mask: list[int], size: int) -> list[int]:
    chars = [0] * size
    for (start, end), on in zip(offsets, mask):
        if on:
            chars[start:end] = [1] * (end - start)
    return chars


def _runs(mask: list[int]) -> list[tuple[int, int]]:
    runs, start = [], None
    for i, on in enumerate([*mask, 0]):
        if on and start is None:
            start = i
        elif not on and start is not None:
            runs.append((start, i))
            start = None
    return runs


def _template_messages(messages: list[Any], family: Family, strings: bool) -> list[Any]:
    out = to_template_messages(read_conversation(messages), string_arguments=strings)
    if family.thinking_key:
        for item in out:
            if item.get("reasoning_content"):
                item["thinking"] = item["reasoning_content"]
    return out


def _trl(fast: Any, messages: list[Any], tools: Any, family: Family) -> dict[str, Any]:
    error: Exception | None = None
    for strings in (False, True):  # some templates concatenate arguments as JSON text
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out: dict[str, Any] = fast.apply_chat_template(
                    _template_messages(messages, family, strings),
                    tools=tools or None,
                    tokenize=True,
                    return_dict=True,
                    return_assistant_tokens_mask=True,
                )
            return out
        except Exception as exc:  # the next argument form
            error = exc
    raise AssertionError(f"TRL's template failed: {error}")


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_masks_equal_trl_except_the_documented_differences(name: str) -> None:
    family = FAMILIES[name]
    fmt, obj = resolve_format(None, name)
    cases = {**_cases(), **(_r1_cases() if name == "deepseek_r1" else {})}
    texts = [
        render_targets(fmt, obj, read_conversation(m), read_tool_definitions(SAMPLE_TOOLS), {}).text
        for m, _ in cases.values()
    ]
    specials = [t for t in (*fmt.special_tokens, fmt.end_of_turn, *fmt.end_tokens) if t]
    tok = bpe_tokenizer(texts * 3, [*specials, *([family.bos] if family.bos else [])])
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok)
    fast.chat_template = (FIXTURES / f"{family.trl}.jinja").read_text(encoding="utf-8")
    if family.bos:
        fast.bos_token = family.bos
    ends = tuple(t for t in (fmt.end_of_turn, *fmt.end_tokens) if t)
    seen: set[str] = set()
    for case, (messages, uses_tools) in cases.items():
        tools = read_tool_definitions(SAMPLE_TOOLS if uses_tools else None)
        ours = tokenize_conversation(
            messages, tok, dialect=name, tools=tools or None, strftime_now=_today
        )
        theirs = _trl(fast, messages, tools, family)
        their_text = tok.decode(theirs["input_ids"], skip_special_tokens=False)
        if case in family.texts:
            why, check = family.texts[case]
            assert check(ours.text, their_text), f"{name}/{case}: no longer differs as said: {why}"
            seen.add("text")
            continue
        assert their_text == ours.text, f"{name}/{case}: the texts differ"
        assert theirs["input_ids"] == ours.input_ids, f"{name}/{case}: the ids differ"
        offsets = [tuple(o) for o in tok.encode(ours.text, add_special_tokens=False).offsets]
        size = len(ours.text)
        mine = _char_mask(offsets, [1 if w else 0 for w in ours.weights], size)
        trl = _char_mask(offsets, list(theirs["assistant_masks"]), size)
        explained = [0] * size
        text = ours.text
        if family.rewritten:
            rendered = render_targets(fmt, obj, read_conversation(messages), tools, {})
            for i, (start, end) in rendered.generated_spans():
                if rewritten(fmt, rendered, i) and all(trl[start:end]):
                    explained[start:end] = [1] * (end - start)
                    seen.add("rewritten")
        for start, end in _runs([a or b for a, b in zip(mine, explained)]):
            newline = family.newline and text.startswith("\n", end)
            if newline and text[:end].endswith(ends) and trl[end] and not mine[end]:
                explained[end] = 1
                seen.add("newline")
            for prompt in family.prompt:
                at = start - len(prompt)
                if at >= 0 and text[at:start] == prompt and all(trl[at:start]):
                    explained[at:start] = [1] * len(prompt)
                    seen.add("prompt")
                    break
        wrong = [i for i in range(size) if mine[i] != trl[i] and not (explained[i] and trl[i])]
        assert not wrong, (
            f"{name}/{case}: masks differ at {text[wrong[0] - 30 : wrong[0]]!r} | "
            f"{text[wrong[0] : wrong[0] + 40]!r} (ours {mine[wrong[0]]}, TRL {trl[wrong[0]]})"
        )
    declared = {
        kind
        for kind, on in (
            ("newline", family.newline),
            ("prompt", bool(family.prompt)),
            ("rewritten", family.rewritten),
            ("text", bool(family.texts)),
        )
        if on
    }
    assert seen == declared, f"{name}: documented {sorted(declared)}, seen {sorted(seen)}"
