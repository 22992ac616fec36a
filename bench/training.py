"""``tokenize_conversation`` against the tokenizer's floor (issue 23).

For each format, the same 512 conversations (bench/jsonl.py's: 1-3 exchanges, some with tool
calls) are rendered (``render_conversation``), encoded whole with the same ``tokenizers``
tokenizer (``encode``), both in one loop (``render + encode``: the floor, what a user writing
``tok.encode(render_conversation(c)).ids`` pays), and tokenized (``tokenize_conversation``:
ids and weights), each the least CPU time of ``-n`` interleaved rounds per chunk of 32
conversations, summed over the chunks. The tokenizer is a
byte-level BPE trained offline on the rendered texts
(:func:`tooletta.testing.training.bpe_tokenizer`, 4,000 tokens) with the format's special
tokens: nothing is downloaded. Reported: µs per conversation,
``tokenize / (render + encode)`` (target <= 1.15) and ``tokenize / encode``; and, beside
the floor, render + ``encode_batch_fast([text])`` (the same ids without the character offsets
``encode`` computes: what ``tokenize_conversation`` itself calls, one piece at a time) and
``tokenize`` over that.

    uv run --no-sync python bench/training.py [-n ROUNDS] [--formats qwen3,glm46,...]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
FORMATS = ("qwen3", "glm46", "llama31", "deepseek_v31")


CHUNK = 32
"""Conversations per timed run: each chunk's runs are timed ``-n`` times, interleaved, and
the least of each is kept, so a burst of other processes' load spoils one chunk's sample, not
the whole round's."""


def _best(rounds: int, runs: list[Callable[[slice], None]], size: int) -> list[float]:
    """The CPU seconds of each of ``runs`` over ``size`` items: per chunk of :data:`CHUNK`
    items the least of ``rounds`` interleaved timings, summed (this machine is shared: CPU
    time, alternating and per-chunk minima keep the others' load out of the ratios)."""
    total = [0.0] * len(runs)
    for first in range(0, size, CHUNK):
        part = slice(first, min(size, first + CHUNK))
        best = [float("inf")] * len(runs)
        for _ in range(rounds):
            for i, run in enumerate(runs):
                start = time.process_time()
                run(part)
                best[i] = min(best[i], time.process_time() - start)
        total = [t + b for t, b in zip(total, best)]
    return total


def measure(name: str, conversations: list[Any], rounds: int) -> dict[str, float]:
    """µs per conversation for render, encode, render + encode, tokenize, and the ratio."""
    import tooletta
    from tooletta.chat import resolve_format
    from tooletta.testing.training import bpe_tokenizer
    from tooletta.training import tokenize_conversation

    fmt, _ = resolve_format(None, name)
    texts = [tooletta.render_conversation(c, dialect=name) for c in conversations]
    specials = [t for t in (*fmt.special_tokens, fmt.end_of_turn, *fmt.end_tokens) if t]
    tok = bpe_tokenizer(texts, specials, vocab_size=4000)
    tokenize_conversation(conversations[0], tok, dialect=name)  # the adapter's checks, once

    def render(part: slice) -> None:
        for c in conversations[part]:
            tooletta.render_conversation(c, dialect=name)

    def encode(part: slice) -> None:
        for t in texts[part]:
            tok.encode(t, add_special_tokens=False)

    def floor(part: slice) -> None:
        for c in conversations[part]:
            text = tooletta.render_conversation(c, dialect=name)
            ids = tok.encode(text, add_special_tokens=False).ids
            del ids

    fast = tok.encode_batch_fast

    def floor_fast(part: slice) -> None:
        for c in conversations[part]:
            text = tooletta.render_conversation(c, dialect=name)
            ids = fast([text], add_special_tokens=False)[0].ids
            del ids

    def tokenize(part: slice) -> None:
        for c in conversations[part]:
            tokenize_conversation(c, tok, dialect=name)

    n = len(conversations)
    best = _best(rounds, [render, encode, floor, floor_fast, tokenize], n)
    r, e, f, ff, t = (x / n * 1e6 for x in best)
    return {
        "render": r,
        "encode": e,
        "floor": f,
        "floor_fast": ff,
        "tokenize": t,
        "ratio": t / f,
        "ratio_fast": t / ff,
        "bare": t / e,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", "--rounds", type=int, default=5)
    parser.add_argument("--formats", default=",".join(FORMATS))
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE))
    from jsonl import _conversations

    conversations = _conversations()
    print(
        "| format | render µs | encode µs | render + encode µs | tokenize µs "
        "| tokenize ÷ (render + encode) | tokenize ÷ encode "
        "| render + encode_batch_fast µs | tokenize ÷ that |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in args.formats.split(","):
        m = measure(name, conversations, args.rounds)
        print(
            f"| {name} | {m['render']:.1f} | {m['encode']:.1f} | {m['floor']:.1f} | "
            f"{m['tokenize']:.1f} | {m['ratio']:.2f} | {m['bare']:.2f} | "
            f"{m['floor_fast']:.1f} | {m['ratio_fast']:.2f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
