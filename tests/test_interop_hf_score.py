"""An imported response template parses in tooletta at least as well as in transformers.

The corpus: for each TRL template with tool calls, the golden fixtures of the first-party
dialect written in its format, plus replies with one malformed block among good ones (which
transformers' ``parse_response`` raises on, losing the whole message). A case counts when the
calls (names and arguments), the content and the reasoning come out as expected (content and
reasoning up to surrounding whitespace). Both parsers get the same ``tools``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import tooletta
from hf_support import (
    TRL_FORMATS,
    TRL_TEMPLATES,
    case_tools,
    expected_calls,
    fixture_cases,
    imported,
    registered_trl,
)
from tooletta.interop import hf

chat_parsing = pytest.importorskip("transformers.utils.chat_parsing")


@pytest.fixture(autouse=True, scope="module")
def _trl_dialects() -> Iterator[None]:
    yield from registered_trl()


_GOOD = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
_NOW = '{"name": "now", "arguments": {}}'
_TWO = [
    {"name": "get_weather", "arguments": {"city": "Paris"}},
    {"name": "now", "arguments": {}},
]

CORRUPTED: dict[str, list[dict[str, Any]]] = {
    "qwen3": [
        {
            "name": "bad-json-between-good-blocks",
            "text": f"Checking.\n<tool_call>\n{_GOOD}\n</tool_call>\n<tool_call>\n"
            '{"name": "get_time", "arguments": {"tz": "CET"</tool_call>\n'
            f"<tool_call>\n{_NOW}\n</tool_call>",
            "content": "Checking.",
            "calls": _TWO,
        },
        {
            "name": "bad-first-block",
            "text": '<tool_call>\n{"name": broken}\n</tool_call>\n'
            f"<tool_call>\n{_GOOD}\n</tool_call>",
            "content": "",
            "calls": _TWO[:1],
        },
    ],
    "llama3": [
        {
            "name": "bad-arguments",
            "text": '{"name": "get_weather", "parameters": {"city": Paris}}<|eot_id|>',
            "content": "",
            "calls": [],
        },
    ],
    "gptoss": [
        {
            "name": "bad-json-between-good-calls",
            "text": "<|start|>assistant to=functions.get_weather<|channel|>commentary json"
            '<|message|>{"city": "Paris"}<|call|>'
            "<|start|>assistant to=functions.get_time<|channel|>commentary json"
            '<|message|>{"tz": "CET"<|call|>'
            "<|start|>assistant to=functions.now<|channel|>commentary json<|message|>{}<|call|>",
            "content": "",
            "calls": _TWO,
        },
    ],
    "gemma4": [
        {
            "name": "bad-args-between-good-calls",
            "text": 'Sure.<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>'
            "<|tool_call>call:get_time{tz:CET CEST}<tool_call|>"
            "<|tool_call>call:now{}<tool_call|>",
            "content": "Sure.",
            "calls": _TWO,
        },
    ],
}
"""Replies with one malformed block among good ones, written as each TRL template reads
them (gpt-oss with the recipient before the channel, as its chat template writes it)."""


def _ok(message: dict[str, Any], case: dict[str, Any]) -> bool:
    """Whether a message dict (transformers' shape) is what the case expects."""
    calls = []
    for item in message.get("tool_calls") or []:
        fn = item.get("function", {}) if isinstance(item, dict) else {}
        calls.append((fn.get("name"), fn.get("arguments")))
    want = [(c.name, c.arguments) for c in expected_calls(case)]
    content = message.get("content") or ""
    reasoning = message.get("reasoning_content") or message.get("thinking") or ""
    return (
        calls == want
        and content.strip() == case["content"].strip()
        and reasoning.strip() == case.get("reasoning", "").strip()
    )


def _transformers(template: str, case: dict[str, Any]) -> bool:
    try:
        message = chat_parsing.parse_response(
            case["text"], TRL_TEMPLATES[template], prefix="", tools=case_tools(case)
        )
    except Exception:  # transformers raises on a malformed block: the message is lost
        return False
    return _ok(message, case)


def _tooletta(template: str, case: dict[str, Any]) -> bool:
    result = tooletta.parse(case["text"], imported(template), tools=case_tools(case))
    return _ok(hf.result_to_message(result), case)


def corpus(template: str) -> list[dict[str, Any]]:
    """The cases one template is scored on."""
    return [*fixture_cases(TRL_FORMATS[template]), *CORRUPTED.get(template, [])]


def score(template: str) -> tuple[int, int, int]:
    """``(tooletta, transformers, cases)`` for one template."""
    cases = corpus(template)
    ours = sum(_tooletta(template, c) for c in cases)
    theirs = sum(_transformers(template, c) for c in cases)
    return ours, theirs, len(cases)


@pytest.mark.parametrize("template", sorted(TRL_FORMATS))
def test_imported_trl_template_scores_at_least_transformers(template: str) -> None:
    ours, theirs, total = score(template)
    assert ours >= theirs, (template, ours, theirs, total)


def test_imported_trl_templates_score_higher_overall() -> None:
    totals = [score(t) for t in sorted(TRL_FORMATS)]
    ours = sum(t[0] for t in totals)
    theirs = sum(t[1] for t in totals)
    assert ours > theirs, (ours, theirs)


@pytest.mark.parametrize("template", sorted(CORRUPTED))
def test_one_bad_block_keeps_the_rest(template: str) -> None:
    for case in CORRUPTED[template]:
        result = tooletta.parse(case["text"], imported(template), tools=case_tools(case))
        assert [(c.name, c.arguments) for c in result.calls] == [
            (c.name, c.arguments) for c in expected_calls(case)
        ], (case["name"], result)
        assert result.unparsed, case["name"]
        with pytest.raises(ValueError):
            chat_parsing.parse_response(case["text"], TRL_TEMPLATES[template], prefix="")
