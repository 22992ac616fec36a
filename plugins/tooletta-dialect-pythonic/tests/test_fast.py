"""The one-shot fast readers (``Block.fast``) read exactly what the block readers read.

Each text is parsed with the shortcuts and without them (block readers only); the results
must be identical, value types included. ``FAST`` texts must also be taken by a fast reader
(the speed path is not silently lost); ``DECLINED`` ones are Python the fast readers leave to
the block readers (whatever those make of them).
"""

from __future__ import annotations

import pytest

import tooletta
from tooletta.testing import check_shortcut_reads, check_shortcuts_agree, shortcut_blocks

FAST = [
    ("pythonic", '[get_weather(city="Paris", days=3)]'),
    ("pythonic", "Let me check.[f(a=-1, b=2.5, c=-0.0, d=1e5, e=12345678901234567890)]"),
    ("pythonic", "<|python_start|>[f(a='x'), g()]<|python_end|><|eot|>"),
    ("pythonic", '[tools.search(q="a\\nb\\t\\\\ \\"q\\" \\u00e9 東京 🙂"), get-time( ), ]'),
    ("pythonic", "[f(s='it\\'s \"quoted\"', t=\"it's\", u='\\\\\"')]"),
    ("pythonic", '[f(d={"a": True, "b": [None, false, null, {}], "a": 2}, match=1)]'),
    ("pythonic", '[f(s="f(x)]", t=")]")] and [g(a=1)]'),
    ("pythonic", "[f(\n    a = 1 ,\r\n    b =[ ]\n)]"),
    ("pythonic", "[True(x=1), x.True(y=True), if(z=None)]"),
    ("olmo3", "<function_calls>\nf(a='x')\ng(b=1, c={\"k\": true})\n</function_calls>"),
    ("olmo3", "<function_calls>,f(a=1),, g()\n"),
    ("lfm2", "<think>hm</think><|tool_call_start|>[f(a='x'), g(b=[1, 2])]<|tool_call_end|>"),
    ("lfm2", "<|tool_call_start|> f(a=1) <|tool_call_end|>"),
    ("lfm2", '<|tool_call_start|>{"name": "f", "arguments": {"a": 1}}<|tool_call_end|>'),
    ("lfm2", '<|tool_call_start|>[{"name": "f", "arguments": {}}]<|tool_call_end|>'),
    ("lfm2", "<|tool_call_start|>[f(s='<|tool_call_end|>')]<|tool_call_end|>"),
    ("sarashina", "<|tool_calls|>[{'name': 'f', 'arguments': {'a': 1, 'b': [True, None]}}]"),
    ("sarashina", "Sure.<|tool_calls|> {'name': 'f', 'parameters': {\"q\": \"x\"}}"),
    ("sarashina", "[{'name': 'f', 'arguments': '{\"a\": 1}'}, {\"name\": \"g\", \"id\": 2}]"),
    ("sarashina", "{'arguments': {'s': '}]'}, 'name': 'f'}"),
]

DECLINED = [
    ("pythonic", "[f(a=(1, 2))]"),
    ("pythonic", "[f(a={1, 2})]"),
    ("pythonic", "[f(1)]"),
    ("pythonic", "[f(a=1, 2)]"),
    ("pythonic", "[f(**{'a': 1})]"),
    ("pythonic", "[f(a=1, a=2)]"),
    ("pythonic", "[f(if=1)]"),
    ("pythonic", "[f(True=1)]"),
    ("pythonic", "[f(é=1)]"),
    ("pythonic", "[f(a=b=1)]"),
    ("pythonic", "[f(a=[b=1])]"),
    ("pythonic", "[f(a={b=1})]"),
    ("pythonic", "[f(a={'k': g(b=1)})]"),
    ("pythonic", "[f(a=[1)]]"),
    ("pythonic", "[f(a=[{'k': 1)}])]"),
    ("pythonic", "[f(a=f'x')]"),
    ("pythonic", "[f(a=b'x')]"),
    ("pythonic", "[f(a=r'\\d')]"),
    ("pythonic", "[f(a='x' 'y')]"),
    ("pythonic", "[f(a='''x''')]"),
    ("pythonic", "[f(a=1 # c\n)]"),
    ("pythonic", "[f(a='\\x41', b='\\d')]"),
    ("pythonic", "[f(a='\\ud83d\\ude00')]"),
    ("pythonic", "[f(a='\\u0001')]"),
    ("pythonic", "[f(a='\\/')]"),
    ("pythonic", "[f(a=1e400)]"),
    ("pythonic", "[f(a=+1, b=1_000, c=0x10, d=1., e=.5, f=1j)]"),
    ("pythonic", "[f(a=-True)]"),
    ("pythonic", "[f(a=NaN, b=Infinity)]"),
    ("pythonic", "[f(a='a\tb')]"),
    ("pythonic", "[f(a=\f1)]"),
    ("pythonic", "[f(a=1),,]"),
    ("pythonic", "[f(a=1)] [g(b=\\\n2)]"),
    ("pythonic", "[f(a=" + "[" * 100 + "]" * 100 + ")]"),
    ("pythonic", "[f(a=" + "[" * 99 + "]" * 99 + ")]"),
    ("pythonic", "[f(a='x\n')]"),
    ("pythonic", "[f(a=1)(b=2)]"),
    ("pythonic", "[f(a=x.y)]"),
    ("pythonic", "[f(a=1<2)]"),
    ("pythonic", "[f(a='\x00')]"),
    ("pythonic", "see [1] and [a](b) or [f(x)]"),
    ("olmo3", "<function_calls>\nf(a=1)\n[g(b=2)]\n</function_calls>"),
    ("olmo3", "<function_calls>\nf(a='</function_calls>')\n"),
    ("olmo3", "<function_calls>\n</function_calls>"),
    ("lfm2", "<|tool_call_start|>f(a=1), g(b=2)<|tool_call_end|>"),
    ("lfm2", "<|tool_call_start|>[]<|tool_call_end|>"),
    ("sarashina", "<|tool_calls|>[{'name': 'f', 'arguments': (1, 2)}]"),
    ("sarashina", "<|tool_calls|>[{'name': 'f', 'arguments': {}},]"),
    ("sarashina", "<|tool_calls|>[{'name': 'f', 'arguments': '{bad'}]"),
    ("sarashina", "<|tool_calls|>[{'name': 1, 'arguments': {}}]"),
    ("sarashina", "<|tool_calls|>[]"),
    ("sarashina", "[1, 2] and more"),
]


@pytest.mark.parametrize(("dialect", "text"), FAST)
def test_fast_reads_as_the_reader(dialect: str, text: str) -> None:
    check_shortcut_reads(dialect, text)


@pytest.mark.parametrize(("dialect", "text"), DECLINED)
def test_declined_reads_as_the_reader(dialect: str, text: str) -> None:
    check_shortcuts_agree(dialect, text)


def test_benchmark_shape_is_fast() -> None:
    calls = [
        tooletta.ToolCall(
            f"get_weather_{i}",
            {"city": "東京", "days": i, "q": f'w "{i}" \\ in\n🙂', "o": {"h": True, "n": None}},
        )
        for i in range(5)
    ]
    for dialect in ("pythonic", "olmo3", "lfm2", "sarashina"):
        text = tooletta.render(calls, dialect, content="Let me check that for you.")
        check_shortcuts_agree(dialect, text)
        assert shortcut_blocks(dialect, text)
