"""Conversation paths that once grew faster than their input: time per message as the
conversation doubles (issue 22, item 10).

    uv run --no-sync python bench/conversation_scaling.py            # 2k -> 16k rounds
    uv run --no-sync python bench/conversation_scaling.py -f apertus2509 --top 32000

Each row renders (or parses the rendering of) a conversation of N rounds (user question,
assistant call and its result where the format has them, answer) and reports the best of a
few runs and, per doubling of N, the ratio of the time per round to the previous size's
(1.0: linear; the target is <= 1.3). The garbage collector is off while timing (as
``timeit`` does): a collection of the young generation lands on one size or another and
would show as noise, not as the algorithm. The paths:

* ``longcat_flash_chat`` render: ``[Round N] USER:`` counted the user turns before each
  user turn (a scan of the messages per turn); now counted once per conversation.
* ``apertus2509`` parse: a results list was decoded against the whole text, and a failed
  JSON decode's error counts the lines before it; now read inside its assistant turn.
* ``nemotron_nano_v2`` parse: the check for a generation prompt ending the text copied the
  rest of the text before every turn; now compared in place.
"""

from __future__ import annotations

import argparse
import functools
import gc
import time
from collections.abc import Callable
from typing import Any

import tooletta
from tooletta import Message, ToolCall

PATHS = (
    ("longcat_flash_chat", "render"),
    ("apertus2509", "parse"),
    ("nemotron_nano_v2", "parse"),
)

WITH_CALLS = frozenset({"apertus2509", "nemotron_nano_v2"})


def conversation(rounds: int, fmt: str) -> list[Message]:
    """``rounds`` rounds of a question, (a call and its result,) an answer."""
    messages: list[Message] = []
    for i in range(rounds):
        messages.append(Message("user", f"Question {i}: what about item {i}?"))
        if fmt in WITH_CALLS:
            messages.append(Message("assistant", "", tool_calls=[ToolCall("lookup", {"n": i})]))
            messages.append(Message("tool", f"item {i} is fine"))
        messages.append(Message("assistant", f"Answer {i}: it is fine."))
    return messages


def best_of(fn: Callable[[], Any], runs: int) -> float:
    """The best time of ``runs`` calls, in seconds, the garbage collector off."""
    best = float("inf")
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(runs):
            start = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - start)
    finally:
        if enabled:
            gc.enable()
    return best


def measure(fmt: str, what: str, sizes: list[int], runs: int) -> list[tuple[int, int, float]]:
    """``(rounds, characters, seconds)`` for each size."""
    out = []
    for rounds in sizes:
        messages = conversation(rounds, fmt)
        text = tooletta.render_conversation(messages, dialect=fmt)
        run: Callable[[], Any]
        if what == "render":
            run = functools.partial(tooletta.render_conversation, messages, dialect=fmt)
        else:
            run = functools.partial(tooletta.parse_conversation, text, dialect=fmt)
        seconds = best_of(run, runs)
        out.append((rounds, len(text), seconds))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--start", type=int, default=2000, help="rounds of the smallest size")
    parser.add_argument("--top", type=int, default=16000, help="rounds of the largest size")
    parser.add_argument("--runs", type=int, default=9, help="runs per size (the best counts)")
    parser.add_argument("-f", "--format", action="append", help="only this format (repeatable)")
    args = parser.parse_args()
    sizes = []
    size = args.start
    while size <= args.top:
        sizes.append(size)
        size *= 2
    print("| format | path | rounds | characters | ms | per round × previous size |")
    print("|---|---|---|---|---|---|")
    for fmt, what in PATHS:
        if args.format and fmt not in args.format:
            continue
        previous = None
        for rounds, chars, seconds in measure(fmt, what, sizes, args.runs):
            ratio = ""
            if previous is not None:
                ratio = f"{(seconds / rounds) / (previous[1] / previous[0]):.2f}"
            print(f"| {fmt} | {what} | {rounds} | {chars} | {seconds * 1e3:.1f} | {ratio} |")
            previous = (rounds, seconds)


if __name__ == "__main__":
    main()
