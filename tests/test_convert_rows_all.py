"""The main job without loss (issue 24): every sample conversation (reasoning, parallel calls,
results) converted by ``convert_rows`` into every dialect's model text and back keeps its calls,
its content, its reasoning and every call paired with its result; and a row converted from one
dialect's text into another's and back does too."""

from __future__ import annotations

import json
from typing import Any

import pytest

import tooletta
from tooletta.interop import convert_rows, messages_to_openai
from tooletta.testing.samples import SAMPLE_TOOLS, sample_conversations


def _dialects() -> list[str]:
    return sorted(i.name for i in tooletta.list_dialects() if "render" in i.supports)


def _rows() -> dict[str, dict[str, Any]]:
    out = {}
    for name, (messages, _) in sample_conversations(ids=True).items():
        out[name] = {"messages": messages_to_openai(messages), "tools": SAMPLE_TOOLS}
    return out


ROWS = _rows()


def _calls(message: dict[str, Any]) -> list[tuple[str, Any]]:
    items = message.get("tool_calls") or []
    return [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in items]


def _check_same(original: dict[str, Any], back: dict[str, Any], where: str) -> None:
    assert "error" not in back, (where, back.get("error"))
    old, new = original["messages"], back["messages"]
    assert [m["role"] for m in new] == [m["role"] for m in old], where
    for i, (a, b) in enumerate(zip(old, new)):
        if a["role"] != "assistant":
            continue
        assert _calls(b) == _calls(a), (where, i)
        assert (b.get("content") or "").strip() == (a.get("content") or "").strip(), (where, i)
        assert b.get("reasoning_content", "") == a.get("reasoning_content", ""), (where, i)
    _check_pairs(new, where)


def _check_pairs(messages: list[dict[str, Any]], where: str) -> None:
    """Every tool result answers the call at its position in the turn before it, by id."""
    calls: list[dict[str, Any]] = []
    at = 0
    for i, m in enumerate(messages):
        if m["role"] == "assistant":
            calls, at = list(m.get("tool_calls") or []), 0
        elif m["role"] == "tool":
            assert at < len(calls), (where, i)
            assert m["tool_call_id"] == calls[at]["id"], (where, i, m, calls[at])
            at += 1


@pytest.mark.parametrize("dialect", _dialects())
def test_every_sample_converts_into_a_dialect_and_back(dialect: str) -> None:
    refused = []
    for name, row in ROWS.items():
        (text_row,) = convert_rows([row], target_dialect=dialect)
        if "error" in text_row:  # refused whole, with the reason, never dropped silently
            assert text_row["messages"] == row["messages"]
            refused.append(name)
            continue
        (back,) = convert_rows([text_row], direction="parse", source_dialect=dialect)
        _check_same(row, back, f"{dialect}/{name}")
    assert len(refused) <= 3, refused  # at most the parallel-call samples, for one-call formats


SOURCES = ["hermes", "mistral", "kimi_k2", "harmony", "qwen3_coder", "llama3_json", "glm45"]


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("target", _dialects())
def test_a_row_converts_from_one_dialect_into_another_and_back(source: str, target: str) -> None:
    row = ROWS["reasoning_multi_turn"]
    (in_source,) = convert_rows([row], target_dialect=source)
    (structured,) = convert_rows([in_source], direction="parse", source_dialect=source)
    (in_target,) = convert_rows([structured], target_dialect=target)
    if "error" in in_target:
        pytest.skip(f"{target} refuses the row: {in_target['error']}")
    (back,) = convert_rows([in_target], direction="parse", source_dialect=target)
    _check_same(row, back, f"{source}->{target}")
