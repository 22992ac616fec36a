"""Adversarial scale: pathological inputs cost linear time in one-shot and streaming parsing.

Each input is a pathological unit repeated; 4x the input must take well under 8x the time
(a ratio measured in one run: best of three interleaved runs, in CPU time, so machine speed
and load do not matter).
"""

from __future__ import annotations

from functools import partial

import pytest

import tooletta
from support import linear_ratio

DIALECTS = [i.name for i in tooletta.list_dialects()]


def _units(dialect: str) -> dict[str, str]:
    info = tooletta.get_dialect(dialect).info
    opener = info.markers[0] if info.markers else "<"
    return {
        "open-never-closed": f'{opener}{{"a": ',
        "nesting": '{[{"a": ',
        "angles": "<<<<<<<<",
        "quotes-backslashes": '"\\"\\\\"\\',
        "prose-with-marker-prefixes": f"Some prose {opener[: max(1, len(opener) // 2)]} more ",
        # a whole marker in prose, which readers that decline hand back as content
        "declined-markers": f"{opener}x ",
    }


def _one_shot(dialect: str, text: str) -> None:
    tooletta.parse(text, dialect)


def _streamed(dialect: str, text: str) -> None:
    parser = tooletta.stream(dialect)
    for i in range(0, len(text), 4):
        parser.feed(text[i : i + 4])
    parser.finish()


@pytest.mark.parametrize("dialect", DIALECTS)
def test_pathological_inputs_cost_linear_time(dialect: str) -> None:
    for name, unit in _units(dialect).items():
        small = unit * (6000 // len(unit) + 1)
        large = small * 4
        for mode in (_one_shot, _streamed):
            ratio = linear_ratio(partial(mode, dialect, small), partial(mode, dialect, large), 8)
            assert ratio < 8, (name, mode.__name__, ratio)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_stream_holds_back_at_most_the_longest_marker(dialect: str) -> None:
    info = tooletta.get_dialect(dialect).info
    longest = max((len(m) for m in info.markers), default=1)
    text = "Plain words without markup, " * 40
    if tooletta.parse(text, dialect).content != text:
        return  # the dialect reads this prose as something else
    parser = tooletta.stream(dialect)
    shown = 0
    for fed, ch in enumerate(text, 1):
        shown += len(parser.feed(ch).content)
        held = text[shown:fed]
        assert held.isspace() or len(held) <= max(longest, 16), (dialect, held)
    parser.finish()
