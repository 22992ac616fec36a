"""The one-shot fast readers (``Block.fast``) read exactly what the block readers read.

Each text is parsed with the shortcuts and without them (block readers only); the results
must be identical, value types included. ``FAST`` texts must also be taken by a fast reader;
``DECLINED`` ones are left to the block readers (whatever those make of them).
"""

from __future__ import annotations

import pytest

from tooletta.testing import check_shortcut_reads, check_shortcuts_agree

G, E = '<|"|>', "<escape>"

FAST = [
    ("gemma4", f"<|tool_call>call:get_weather{{city:{G}Paris{G},days:3}}<tool_call|>"),
    (
        "gemma4",
        f"<|tool_call>call:f{{a:[{G}x{G},{G}}}]{G}],b:{{c:None,d:-2.5e3}},{G}k y{G}:true}}"
        f"<tool_call|>Done.",
    ),
    ("gemma4", f'<|tool_call> call:f{{ s : {G}say "hi" \\ {G} , n : null }}'),
    ("gemma4", f"<|tool_call>call:f{{s:{G}<tool_call|>{G}}}<tool_call|>"),
    ("gemma4", "<|tool_call>call:f{}<tool_call|><|tool_call>call:g{x-y.z:0}<tool_call|>"),
    (
        "functiongemma",
        f"Ok.<start_function_call>call:f{{a:{E}5{E},b:{E}true{E},c:{E}tr{E},d:{E}"
        f'{{"x": [1]}}{E},e:{E}"q"{E},{E}5{E}:{E} null {E},g:{E}true x{E}}}'
        f"<end_function_call>",
    ),
    ("functiongemma", f"<start_function_call>call:f{{a:[{E}[1,{E},{E}{E}]}}"),
]

DECLINED = [
    ("gemma4", "<|tool_call>call:f{city:Paris}<tool_call|>"),
    ("gemma4", "<|tool_call>call:f{a:+1,b:007,c:1.,d:.5,e:True}<tool_call|>"),
    ("gemma4", "<|tool_call>call:f{a:1e400}<tool_call|>"),
    ("gemma4", "<|tool_call>call:f{a:1,}<tool_call|>"),
    ("gemma4", "<|tool_call>call:f{,}<tool_call|>"),
    ("gemma4", '<|tool_call>call:f{a:"x"}<tool_call|>'),
    ("gemma4", "<|tool_call>call:f{my key:1}<tool_call|>"),
    ("gemma4", "<|tool_call>call:f{a:12:30}<tool_call|>"),
    ("gemma4", "<|tool_call>call:f{a:" + "[" * 128 + "]" * 128 + "}<tool_call|>"),
    ("gemma4", "<|tool_call>call:f{a:" + "[" * 127 + "]" * 127 + "}<tool_call|>"),
    ("gemma4", "<|tool_call>call:f{a:1}<turn|>"),
    ("gemma4", "<|tool_call>call:f{a:1}<|tool_call>call:g{}<tool_call|>"),
    ("gemma4", "<|tool_call>call:f g{a:1}<tool_call|>"),
    ("gemma4", "<|tool_call>call:f<x>{a:1}<tool_call|>"),
    ("gemma4", f"<|tool_call>call:f{{a:{G}x}}<tool_call|>"),
    ("gemma4", f"<|tool_call>call:f{{a:{G}\ud800{G}}}<tool_call|>"),
    ("gemma4", "<|tool_call>call:f{a:\u0663}<tool_call|>"),
    ("functiongemma", f"<start_function_call>call:f{{a:{E}\ud800{E}}}<end_function_call>"),
    ("functiongemma", f"<start_function_call>call:f{{a:{E}\\ud800{E}}}<end_function_call>"),
    ("functiongemma", f'<start_function_call>call:f{{a:{E}"\ud800"{E}}}<end_function_call>'),
]


@pytest.mark.parametrize(("dialect", "text"), FAST)
def test_fast_reads_as_the_reader(dialect: str, text: str) -> None:
    check_shortcut_reads(dialect, text)


@pytest.mark.parametrize(("dialect", "text"), DECLINED)
def test_declined_reads_as_the_reader(dialect: str, text: str) -> None:
    check_shortcuts_agree(dialect, text)
