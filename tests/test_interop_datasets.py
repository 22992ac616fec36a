"""convert_rows: dataset rows rendered into dialect text and parsed back, bad rows kept."""

from __future__ import annotations

import functools
import json
import pickle
import re
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import ToolCall
from tooletta.interop import convert_rows, read_messages
from tooletta.testing import calls_strategy

TOOLS: list[Any] = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]
# OpenAI fine-tuning row: string arguments, ids, tool results by tool_call_id
OPENAI_ROW: dict[str, Any] = {
    "messages": [
        {"role": "system", "content": "You are a weather assistant."},
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": "Checking.",
            "tool_calls": [
                {
                    "id": "call_abc",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "call_abc", "content": '{"temp_c": 18}'},
        {"role": "assistant", "content": "18°C in Paris."},
    ],
    "tools": TOOLS,
}
# TRL row: dict arguments, no ids, named results
TRL_ROW: dict[str, Any] = {
    "messages": [
        {"role": "user", "content": "Weather in Tokyo and Oslo?"},
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": {"city": "Tokyo"}},
                },
                {
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": {"city": "Oslo"}},
                },
            ],
        },
        {"role": "tool", "name": "get_weather", "content": "25C"},
        {"role": "tool", "name": "get_weather", "content": "3C"},
    ],
    "tools": TOOLS,
}


def test_render_hermes() -> None:
    (row,) = convert_rows([OPENAI_ROW], target_dialect="hermes")
    assert "error" not in row and row["tools"] == TOOLS
    msg = row["messages"][2]
    assert "tool_calls" not in msg and msg["role"] == "assistant"
    assert msg["content"] == (
        'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": '
        '{"city": "Paris"}}\n</tool_call>'
    )
    assert row["messages"][3] == OPENAI_ROW["messages"][3]  # results untouched
    assert row["messages"][4] == OPENAI_ROW["messages"][4]
    assert OPENAI_ROW["messages"][2]["tool_calls"]  # input not mutated


def test_render_then_parse_round_trip() -> None:
    for dialect in ["hermes", "openai", "canonical"]:
        rendered = convert_rows([OPENAI_ROW, TRL_ROW], target_dialect=dialect)
        parsed = convert_rows(rendered, direction="parse", source_dialect=dialect)
        for before, after in zip([OPENAI_ROW, TRL_ROW], parsed):
            assert "error" not in after
            want = [
                (c.name, c.arguments)
                for m in read_messages(before["messages"])
                for c in m.tool_calls
            ]
            got = [
                (c.name, c.arguments)
                for m in read_messages(after["messages"])
                for c in m.tool_calls
            ]
            assert got == want, dialect
    parsed = convert_rows(
        convert_rows([OPENAI_ROW], target_dialect="openai"),
        target_dialect="openai",
        direction="parse",
    )
    assert parsed[0]["messages"][2] == {**OPENAI_ROW["messages"][2], "content": "Checking."}


def test_parse_hf_format_and_ids() -> None:
    rendered = convert_rows([TRL_ROW], target_dialect="hermes")
    (row,) = convert_rows(rendered, direction="parse", call_format="hf", ids="mistral")
    calls = row["messages"][1]["tool_calls"]
    assert [c["function"]["arguments"] for c in calls] == [{"city": "Tokyo"}, {"city": "Oslo"}]
    ids = [c["id"] for c in calls]
    assert all(re.fullmatch(r"[A-Za-z0-9]{9}", i) for i in ids) and ids[0] != ids[1]
    assert [m["tool_call_id"] for m in row["messages"][2:]] == ids
    assert row["messages"][1]["content"] == ""


def test_parse_auto_detects_and_leaves_plain_text() -> None:
    row = {
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": 'Sure.\n<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>',
            },
            {"role": "assistant", "content": "Just prose, {not json}."},
        ]
    }
    (out,) = convert_rows([row], direction="parse")
    (item,) = out["messages"][1]["tool_calls"]
    assert re.fullmatch(r"call_[A-Za-z0-9]{24}", item.pop("id"))  # OpenAI calls need ids
    assert item == {"type": "function", "function": {"name": "f", "arguments": "{}"}}
    assert out["messages"][1]["content"] == "Sure."
    assert out["messages"][2] == row["messages"][2]


def test_bad_rows_are_marked_never_dropped() -> None:
    bad_args = {
        "messages": [
            {
                "role": "assistant",
                "tool_calls": [
                    {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{oops"}}
                ],
            }
        ]
    }
    malformed = {
        "messages": [
            {
                "role": "assistant",
                "content": '<tool_call>\n{"name": "f", "arguments": {</tool_call>',
            }
        ]
    }
    rows: list[Any] = [OPENAI_ROW, "not a row", {"tools": []}, bad_args, TRL_ROW]
    out = convert_rows(rows, target_dialect="hermes")
    assert len(out) == len(rows)
    assert [("error" in r) for r in out] == [False, True, True, True, False]
    assert out[1] == {"row": "not a row", "error": out[1]["error"]}
    assert "messages" in out[2]["error"] and "not valid JSON" in out[3]["error"]
    assert out[3]["messages"] == bad_args["messages"]  # the bad row comes back unchanged
    (parsed,) = convert_rows([malformed], direction="parse", source_dialect="hermes")
    assert parsed["error"].startswith("ParseError") and parsed["messages"] == malformed["messages"]


def test_unknown_dialect_and_bad_options_raise_at_once() -> None:
    with pytest.raises(tooletta.UnknownDialectError):
        convert_rows([OPENAI_ROW], target_dialect="no-such-dialect")
    with pytest.raises(ValueError):
        convert_rows([OPENAI_ROW])  # render needs a target
    with pytest.raises(ValueError):
        convert_rows([OPENAI_ROW], target_dialect="hermes", direction="sideways")  # type: ignore[arg-type]


def test_columnar_batch_like_datasets_map() -> None:
    batch = {
        "messages": [OPENAI_ROW["messages"], [{"role": "assistant", "tool_calls": 3}]],
        "tools": [TOOLS, None],
    }
    out = convert_rows(batch, target_dialect="hermes")
    assert set(out) == {"messages", "tools", "error"}
    assert out["error"][0] is None and out["error"][1] is not None
    assert "<tool_call>" in out["messages"][0][2]["content"]


def test_picklable_for_worker_pools() -> None:
    job = pickle.loads(pickle.dumps(functools.partial(convert_rows, target_dialect="hermes")))
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(job, [[OPENAI_ROW], [TRL_ROW]]))
    assert results == [job([OPENAI_ROW]), job([TRL_ROW])]


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from(["hermes", "openai", "canonical"]),
    calls_strategy(ids="kept"),
    st.sampled_from(["openai", "hf"]),
)
def test_render_parse_property(dialect: str, calls: list[ToolCall], shape: str) -> None:
    items = [
        c.to_openai()
        if shape == "openai"
        else {"type": "function", "function": {"name": c.name, "arguments": c.arguments}}
        for c in calls
    ]
    row = {
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": "", "tool_calls": items},
        ]
    }
    (rendered,) = convert_rows([json.loads(json.dumps(row))], target_dialect=dialect)
    if "error" in rendered:
        assert rendered["error"].startswith("RenderError")
        return
    fmt: Literal["openai", "hf"] = "hf" if shape == "hf" else "openai"
    (parsed,) = convert_rows([rendered], direction="parse", source_dialect=dialect, call_format=fmt)
    assert "error" not in parsed
    got = read_messages(parsed["messages"])[1].tool_calls
    assert [(c.name, c.arguments) for c in got] == [(c.name, c.arguments) for c in calls]
