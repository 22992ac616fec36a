"""The one-shot readers of the JSON family (``fast_json_array``, ``fast_json_object``,
``fast_json_lines``, ``fast_json_chain``, ``fast_json_args``, ``fast_json_named``, ``read_fast``
and the plugins' own) give exactly what the generator readers give, or decline.

Each text is parsed twice, with and without the one-shot readers; calls, content, reasoning
and unparsed records must be the same. The readers decode whole with msgspec (the last of a
repeated key wins) where the generators read key by key (the first wins), so most cases
below repeat or disguise keys.
"""

from __future__ import annotations

import json
import random

import pytest

import tooletta
from tooletta import ToolCall
from tooletta.engine import jsonfast
from tooletta.testing import check_shortcuts_agree, shortcut_blocks

DIALECTS = (
    "apertus",
    "canonical",
    "cohere",
    "dots",
    "functionary_v31",
    "functionary_v32",
    "gigachat3",
    "granite",
    "granite_20b_fc",
    "inkling",
    "internlm",
    "jamba",
    "kimi",
    "llama3_json",
    "longcat",
    "minimax_m1",
    "nemotron",
    "openai",
    "phi4_mini",
    "react",
    "xlam",
)


CALLS = [
    ToolCall("get_weather", {"city": "Zürich 🙂", "days": 3, "q": 'a "b" \\ ;}]'}),
    ToolCall("search", {"name": "x", "arguments": {"name": "y"}, "n": [1, {"id": None}]}),
    ToolCall("f", {}),
]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_rendered_calls_take_the_shortcut(dialect: str) -> None:
    for content in ("", "Let me check."):
        text = tooletta.render(CALLS, dialect, content=content)
        check_shortcuts_agree(dialect, text)
        assert len(tooletta.parse(text, dialect).calls) == len(CALLS)
    # with content, canonical and openai write an envelope, read by ``read_fast`` instead
    content = "" if dialect in ("canonical", "openai") else "Hi."
    assert shortcut_blocks(dialect, tooletta.render(CALLS, dialect, content=content))


OBJECT = '{"name": "f", "arguments": {"a": 1}}'
TWISTS = [
    '{"name": "f", "name": "g", "arguments": {"a": 1}}',
    '{"name": "f", "arguments": {"a": 1}, "arguments": {"b": 2}}',
    '{"n\\u0061me": "f", "name": "g", "arguments": {}}',
    '{"name": "f", "ar\\u0067uments": {"a": 1}, "arguments": {}}',
    '{"name": "f", "arguments": {"a": 1}, "parameters": {"b": 2}}',
    '{"name": "f", "parameters": {"b": 2}, "arguments": {"a": 1}}',
    '{"name": "f", "arguments": "{\\"a\\": 1}"}',
    '{"name": "f", "arguments": ""}',
    '{"name": "f", "arguments": "[1]"}',
    '{"name": "f", "arguments": [1]}',
    '{"name": 5, "arguments": {}}',
    '{"arguments": {}}',
    '{"name": "f"}',
    '{"name": "f", "arguments": {"name": "name", "arguments": ["arguments"]}}',
    '{"name": "name", "arguments": {}}',
    '{"name": "f", "arguments": {}, "id": 7}',
    '{"name": "f", "arguments": {}, "id": null, "id": "x"}',
    '{"name": "f", "arguments": {}, "id": "x", "id": null}',
    '{"id": "c", "name": "f", "arguments": {}, "type": "function"}',
    '{"name": "f", "arguments": {"a": "x;y}"}}',
    '{"name": "f", "arguments": {"a": ' + "[" * 520 + "]" * 520 + "}}",
    '{"name": "f", "arguments": {"a": "\\ud800"}}',
    '{"name": "f", "arguments": {"a": 1e400}}',
    '{"name": "f", "arguments": {"a": 1}} trailing',
    '{"name": "f", "arguments": {"a": 1}',
    "{}",
]


def _framed(dialect: str, obj: str) -> list[str]:
    """``obj`` (a call object, or twisted one) in the places each dialect reads one."""
    pair = f"{OBJECT}, {obj}"
    return {
        "canonical": [f"[{pair}]", f'{{"content": "c", "tool_calls": [{pair}]}}'],
        "cohere": [
            f"<|START_ACTION|>[{pair.replace('name', 'tool_name')}]<|END_ACTION|>",
            f"Action: ```json\n[{obj.replace('arguments', 'parameters')}]\n```",
        ],
        "dots": [f"<dots_function_call>{obj}</dots_function_call>x"],
        "gigachat3": [f"a<|message_sep|>\n\nfunction call<|role_sep|>\n{obj}<|message_sep|>"],
        "granite": [f"<|tool_call|>[{pair}]<|end_of_text|>", f"<tool_call>{obj} </tool_call>x"],
        "granite_20b_fc": [f"<function_call> {obj}\n<function_call> {OBJECT}"],
        "inkling": [
            f"<|message_model|>f<|content_invoke_tool_json|>{obj.replace('arguments', 'args')}"
            "<|end_message|>",
            f"<|message_model|><|content_invoke_tool_json|>{obj}<|end_message|>",
        ],
        "internlm": [f"<|action_start|> <|plugin|>\n{obj}<|action_end|>"],
        "jamba": [f"<tool_calls>[{pair}]</tool_calls>", f"<tool_calls> [{obj}] "],
        "llama3_json": [
            f"<|python_tag|>{OBJECT}; {obj}; {OBJECT}",
            f"{obj.replace('arguments', 'parameters')}; {OBJECT} <|eot_id|>",
        ],
        "longcat": [f"<longcat_tool_call>\n{obj}\n</longcat_tool_call>"],
        "minimax_m1": [f"<tool_calls>\n{OBJECT}\n{obj}\n</tool_calls>"],
        "nemotron": [f"<TOOLCALL>[{pair}]</TOOLCALL>", f"<TOOLCALL>{pair}</TOOLCALL>"],
        "phi4_mini": [f"x functools[{pair}]<|eot_id|>", f"functools[{obj}] and [1]"],
        "xlam": [
            f"[{pair}]",
            f"x\n```json\n[{obj}]\n```",
            f"[TOOL_CALLS][{obj}]",
            f"<tool_call>{obj}</tool_call>",
        ],
        "openai": [
            json.dumps([{"id": "1", "function": {"name": "f", "arguments": "{}"}}])[:-1]
            + f', {{"function": {obj}}}]'
        ],
        "apertus": [
            f'<|tools_prefix|>[{{"f": {{"a": 1}}}}, {{"g": {obj}}}]<|tools_suffix|>',
            '<|tools_prefix|>[{"f": {"a": 1}, "f": {"b": 2}}]<|tools_suffix|>',
            '<|tools_prefix|>[{}, {"f:g": {}}, {"f\\u003ag": {}}]<|tools_suffix|>',
        ],
        "functionary_v31": [f"<function=f>{obj}</function>", f"<function=f> {obj} x"],
        "functionary_v32": [f"all\nhi>>>f\n{obj}>>>all\nbye", f">>>python\n{obj}"],
        "kimi": [f"## Calling: f\n{obj}\n\n## Calling: g\n{{}}"],
        "react": [
            f"Action: f\nAction Input: {obj}\nObservation: x",
            f"Action 1 : f\nAction Input:{obj}",
        ],
    }[dialect]


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("twist", TWISTS)
def test_twisted_objects_read_as_the_generators_read_them(dialect: str, twist: str) -> None:
    for text in _framed(dialect, twist):
        check_shortcuts_agree(dialect, text)


_PIECES = ["{", "}", "[", "]", ",", ";", ":", '"', "\\", " ", "\n", '"name"', '"arguments"', "x"]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_mutated_texts(dialect: str) -> None:
    rng = random.Random(dialect)
    base = [tooletta.render(CALLS, dialect, content=c) for c in ("", "Hi.")]
    for _ in range(150):
        text = rng.choice(base)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(text) + 1)
            j = min(len(text), i + rng.randint(0, 3))
            text = text[:i] + rng.choice(_PIECES) * rng.randint(0, 2) + text[j:]
        check_shortcuts_agree(dialect, text)


def test_a_reader_stops_looking_once_a_text_has_cost_it_too_much() -> None:
    stops = jsonfast._Stops(("<m>",))
    text = "x" * 1000
    assert stops(text, 0) == 1000  # no marker: every stop is the end of the text
    for pos in range(1, 1000):
        if stops(text, pos) < 0:
            break
    assert pos < 100  # the budget: twice the text, and some slack
    assert stops(text, 0) == 1000  # read again from the start: a new budget


def test_call_object_reader_reads_first_keys_or_declines() -> None:
    read = jsonfast.call_object_reader(name_keys=("tool_name", "name"), id_keys=("id",))
    assert read('{"tool_name": "f", "parameters": {"a": 1}, "id": 3}') == ToolCall(
        "f", {"a": 1}, "3"
    )
    # two names (aliases or one key twice), an unknown key: the generator refuses them
    assert read('{"name": "f", "tool_name": "g"}') is None
    assert read('{"name": "f", "name": "g"}') is None
    assert read('{"name": "f", "argumentsX": {"a": 1}}') is None
    assert read('{"type": "function", "name": "f"}') == ToolCall("f", {})
    assert read('{"name": "f"} x') is None


SEPARATORS = ["", " ", "\n", "\n\n", "\r\n", " \t\n ", "x", "\n x", ">>>", "\n\n\n"]


@pytest.mark.parametrize("dialect", DIALECTS)
def test_blocks_read_on_in_one_go_as_the_engine_reads_them(dialect: str) -> None:
    one, two = (tooletta.render([c], dialect) for c in CALLS[:2])
    for sep in SEPARATORS:
        for text in (one + sep + two, "Hi. " + one + sep + two + sep):
            check_shortcuts_agree(dialect, text)
