"""What is trained (issue 23): DeepSeek-R1-Distill's reasoning as the model generates it,
multi-turn reasoning data under each ``split``."""

from __future__ import annotations

from typing import Any

import pytest

from tooletta.chat import resolve_format
from tooletta.testing.training import bpe_tokenizer
from tooletta.training import extension_holds, tokenize_conversation

pytest.importorskip("tokenizers")

R1 = "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B"
BOS, EOS = "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>"
QWEN3 = "Qwen/Qwen3-8B"


def _tokenizer(model: str) -> Any:
    fmt, _ = resolve_format(model, None)
    texts = ["What is two plus two? Add them. Four. Again, six. <think>\n</think>\n\n"] * 4
    return bpe_tokenizer(texts, fmt.special_tokens)


def _trained(example: Any, tok: Any) -> str:
    ids = [t for t, w in zip(example.input_ids, example.weights) if w]
    return str(tok.decode(ids, skip_special_tokens=False))


def _weighted(example: Any, tok: Any) -> list[tuple[str, float]]:
    """The example as runs of (text, weight)."""
    runs: list[tuple[list[int], float]] = []
    for token, weight in zip(example.input_ids, example.weights):
        if runs and runs[-1][1] == weight:
            runs[-1][0].append(token)
        else:
            runs.append(([token], weight))
    return [(tok.decode(ids, skip_special_tokens=False), w) for ids, w in runs]


@pytest.mark.parametrize(
    "answer",
    [
        {"role": "assistant", "content": "Four.", "reasoning_content": "Add them."},
        {"role": "assistant", "content": "<think>\nAdd them.\n</think>\n\nFour."},
        {"role": "assistant", "content": "<think>Add them.</think>Four."},
    ],
    ids=["reasoning_content", "think_in_content", "think_in_content_tight"],
)
def test_r1_distill_trains_the_last_turns_reasoning_after_its_prompt(answer: Any) -> None:
    """The prompt ends ``<｜Assistant｜><think>\\n`` at inference and the model writes its
    reasoning there: the last turn is written so, reasoning trained, the prompt's
    ``<think>\\n`` not."""
    tok = _tokenizer(R1)
    messages = [{"role": "user", "content": "What is two plus two?"}, answer]
    example = tokenize_conversation(messages, tok, model=R1)
    assert _weighted(example, tok) == [
        (f"{BOS}<｜User｜>What is two plus two?<｜Assistant｜><think>\n", 0.0),
        (f"Add them.\n</think>\n\nFour.{EOS}", 1.0),
    ]
    assert extension_holds(messages, model=R1)
    (only,) = tokenize_conversation(messages, tok, model=R1, split="auto")
    assert only.input_ids == example.input_ids and only.weights == example.weights


def test_r1_distill_history_follows_the_template_and_auto_trains_every_turn() -> None:
    """History turns drop their reasoning (the template's rule): ``split="never"`` leaves
    such a turn untrained, ``"auto"`` trains each turn with its reasoning in its own
    example."""
    tok = _tokenizer(R1)
    messages = [
        {"role": "user", "content": "What is two plus two?"},
        {"role": "assistant", "content": "Four.", "reasoning_content": "Add them."},
        {"role": "user", "content": "Again?"},
        {"role": "assistant", "content": "<think>\nAgain, six.\n</think>\n\nSix."},
    ]
    assert not extension_holds(messages, model=R1)
    single = tokenize_conversation(messages, tok, model=R1)
    assert single.text == (
        f"{BOS}<｜User｜>What is two plus two?<｜Assistant｜>Four.{EOS}<｜User｜>Again?"
        f"<｜Assistant｜><think>\nAgain, six.\n</think>\n\nSix.{EOS}"
    )
    assert _trained(single, tok) == f"Again, six.\n</think>\n\nSix.{EOS}"
    first, second = tokenize_conversation(messages, tok, model=R1, split="auto")
    assert first.text.endswith(f"<｜Assistant｜><think>\nAdd them.\n</think>\n\nFour.{EOS}")
    assert _trained(first, tok) == f"Add them.\n</think>\n\nFour.{EOS}"
    assert second.text == single.text
    assert _trained(second, tok) == f"Again, six.\n</think>\n\nSix.{EOS}"


def test_r1_after_tool_results_keeps_the_templates_continuation() -> None:
    """After tool results the R1 template writes no generation prompt (the model continues
    the turn): nothing opens a reasoning block, the turn is the template's."""
    tok = _tokenizer(R1)
    messages = [
        {"role": "user", "content": "Weather?"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"type": "function", "function": {"name": "w", "arguments": "{}"}, "id": "c1"}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "18C"},
        {"role": "assistant", "content": "Sunny.", "reasoning_content": "It is warm."},
    ]
    example = tokenize_conversation(messages, tok, model=R1)
    assert example.text.endswith(f"<｜tool▁outputs▁end｜>Sunny.{EOS}")
    assert _trained(example, tok).endswith(f"Sunny.{EOS}")


QWEN3_ROWS = [
    {"role": "user", "content": "What is two plus two?"},
    {"role": "assistant", "content": "Four.", "reasoning_content": "Add them."},
    {"role": "user", "content": "Again?"},
    {"role": "assistant", "content": "Six.", "reasoning_content": "Again, six."},
]


def test_qwen3_multi_turn_thinking_never_trains_a_turn_without_its_reasoning() -> None:
    """Qwen3 drops reasoning before the last user message: the single example does not
    train the first turn (shown without the think block the model wrote); ``"auto"`` trains
    both, each with its reasoning."""
    tok = _tokenizer(QWEN3)
    single = tokenize_conversation(QWEN3_ROWS, tok, model=QWEN3)
    assert "Add them." not in single.text
    assert _trained(single, tok) == "<think>\nAgain, six.\n</think>\n\nSix.<|im_end|>"
    first, second = tokenize_conversation(QWEN3_ROWS, tok, model=QWEN3, split="auto")
    assert _trained(first, tok) == "<think>\nAdd them.\n</think>\n\nFour.<|im_end|>"
    assert _trained(second, tok) == "<think>\nAgain, six.\n</think>\n\nSix.<|im_end|>"


def test_turns_without_reasoning_stay_trained_in_one_example() -> None:
    """A multi-turn conversation without reasoning loses nothing to the rule."""
    tok = _tokenizer(QWEN3)
    plain = [{k: v for k, v in m.items() if k != "reasoning_content"} for m in QWEN3_ROWS]
    single = tokenize_conversation(plain, tok, model=QWEN3)
    assert _trained(single, tok) == ("Four.<|im_end|><think>\n\n</think>\n\nSix.<|im_end|>")


def test_tokenize_rows_split_auto_gives_a_row_per_example() -> None:
    """Datasets of multi-turn reasoning rows: ``TokenizeRows(split="auto")`` writes each
    example as a row of its own (the default keeps one row per conversation)."""
    from tooletta.training import TokenizeRows

    tok = _tokenizer(QWEN3)
    batch = {"messages": [QWEN3_ROWS, QWEN3_ROWS[:2]]}
    auto = TokenizeRows(tok, model=QWEN3, split="auto")(batch)
    assert len(auto["input_ids"]) == 3 and auto["error"] == ["", "", ""]
    first, second = tokenize_conversation(QWEN3_ROWS, tok, model=QWEN3, split="auto")
    assert auto["input_ids"][:2] == [first.input_ids, second.input_ids]
    default = TokenizeRows(tok, model=QWEN3)(batch)
    assert len(default["input_ids"]) == 2
