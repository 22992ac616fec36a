"""Across dialects: conversion between any two, detection of every golden fixture, and the
parser names of vLLM and SGLang (DIALECTS.md §1) resolving to our dialects."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

import tooletta
from support import linear_ratio
from tooletta import RenderError, ToolCall
from tooletta.testing import tools_for

ROOT = Path(__file__).resolve().parent.parent
DIALECTS = sorted(i.name for i in tooletta.list_dialects())

SAMPLES: list[list[ToolCall]] = [
    [ToolCall("get_weather", {"city": "Zürich 東京 🙂", "days": 3})],
    [
        ToolCall(
            "search",
            {
                "q": 'say "hi" \\ now\n\ttabbed',
                "filters": {"lang": ["en", "東京"], "n": None, "ok": True, "w": 1.5},
            },
        )
    ],
    [ToolCall("now", {})],
    [ToolCall("get_time", {"tz": "CET"}, "abcDEF123")],
    [ToolCall("typed", {"zip": "007", "flag": "true", "none": "null", "n": "3", "e": ""})],
    [ToolCall("numbers", {"big": 2**53, "neg": -0.25, "exp": 1e-7, "empty": {}, "list": []})],
    [ToolCall("markup", {"html": "<b>x</b> & y", "closer": "</parameter>", "pad": " a "})],
    [
        ToolCall("get_weather", {"city": "Paris"}),
        ToolCall("now", {}),
        ToolCall("write", {"path": "a/b.txt", "rows": [[1, 2], [], {"k": "v"}]}),
    ],
]
CONTENTS = ["", "Let me check that for you."]


def _key(calls: list[ToolCall]) -> list[tuple[str, dict[str, Any]]]:
    return [(c.name, c.arguments) for c in calls]


@functools.cache
def _carries_content(dialect: str) -> bool:
    """Whether ``dialect`` can write content beside a call and read it back."""
    content = "Let me check that for you."
    try:
        text = tooletta.render([ToolCall("now", {})], dialect, content=content)
    except RenderError:
        return False
    result = tooletta.parse(text, dialect, tools=tools_for([ToolCall("now", {})]))
    return result.content.strip() == content


@functools.cache
def _keeps_ids(dialect: str) -> bool:
    """Whether ``dialect`` writes a call's (9-character alphanumeric) id and reads it back."""
    calls = [ToolCall("get_time", {}, "abcDEF123")]
    try:
        text = tooletta.render(calls, dialect)
    except RenderError:
        return False
    return tooletta.parse(text, dialect, tools=tools_for(calls)).calls[0].id == "abcDEF123"


def _rendered(dialect: str) -> list[tuple[list[ToolCall], str, str]]:
    """(calls, content, text) for every sample ``dialect`` can write."""
    out = []
    for calls in SAMPLES:
        for content in CONTENTS:
            if content and not _carries_content(dialect):
                continue
            try:
                text = tooletta.render(calls, dialect, content=content)
            except RenderError:
                continue
            out.append((calls, content, text))
    return out


# -- (a) convert between any two installed dialects ----------------------------------------------


@pytest.mark.parametrize("source", DIALECTS)
def test_convert_to_every_dialect(source: str) -> None:
    """``convert(text, X, Y)`` then ``parse(.., Y)`` gives the calls rendered in X (with their
    content when both carry content, their ids when both keep ids), for every Y that can
    express them."""
    samples = _rendered(source)
    assert samples, f"{source} renders none of the samples"
    failures = []
    for calls, content, text in samples:
        tools = tools_for(calls)
        for target in DIALECTS:
            try:
                out = tooletta.convert(text, source, target, tools=tools)
            except RenderError:
                continue
            result = tooletta.parse(out, target, tools=tools)
            problems = []
            if result.unparsed:
                problems.append(f"unparsed {result.unparsed}")
            if _key(result.calls) != _key(calls):
                problems.append(f"calls {_key(result.calls)}")
            if _keeps_ids(source) and _keeps_ids(target):
                for want, got in zip(calls, result.calls):
                    if want.id is not None and got.id != want.id:
                        problems.append(f"id {got.id!r}")
            if content and _carries_content(target) and result.content.strip() != content:
                problems.append(f"content {result.content!r}")
            if problems:
                failures.append(f"{source}->{target} {_key(calls)} {text!r} -> {out!r}: {problems}")
    assert not failures, "\n".join(failures)


def test_cli_convert() -> None:
    """The CLI's ``convert --from X --to Y`` is the same conversion."""
    from click.testing import CliRunner

    from tooletta.cli import cli

    text = tooletta.render([ToolCall("get_weather", {"city": "Paris"})], "hermes", content="Hi.")
    got = CliRunner().invoke(cli, ["convert", "--from", "hermes", "--to", "kimi_k2"], input=text)
    assert got.exit_code == 0, got.output
    result = tooletta.parse(got.output, "kimi_k2")
    assert _key(result.calls) == [("get_weather", {"city": "Paris"})]
    assert result.content.strip() == "Hi."


# -- (b) detection ------------------------------------------------------------------------------

FIXTURES = sorted((ROOT / "plugins").glob("tooletta-dialect-*/tests/fixtures/*.json"))
GOLDEN = [
    pytest.param(path.stem, case, id=f"{path.stem}:{case['name']}")
    for path in FIXTURES
    for case in json.loads(path.read_text(encoding="utf-8"))
    if case["calls"] and case.get("detect", True)
]


def test_every_fixture_file_names_a_dialect() -> None:
    assert FIXTURES
    for path in FIXTURES:
        assert tooletta.get_dialect(path.stem).info.name == path.stem, path


@pytest.mark.parametrize(("dialect", "case"), GOLDEN)
def test_golden_fixture_detected_as_its_dialect(dialect: str, case: dict[str, Any]) -> None:
    assert tooletta.detect(case["text"]) == dialect


PROSE = [
    "",
    "Hello! How can I help you today?",
    "The weather in Paris is sunny, 24 °C.\n\nAnything else?",
    'The API answers {"name": "get_weather", "arguments": {"city": "Paris"}} on success.',
    'Here is the config:\n```json\n{"name": "demo", "version": 2}\n```\nSave it as demo.json.',
    'A list like [{"id": 1, "title": "Dune"}, {"id": 2}] holds the books.',
    "Call it as get_weather(city='Paris') or [f(x=1)] in Python.",
    "Use <tool_call> tags to call tools; close them with </tool_call>.",
    'Tool calls look like {"name": ..., "parameters": {...}}; see the docs.',
    "In HTML, write <b>bold</b> and <function> is not a tag.",
    "Thought: this is just an essay about thinking.\nIt has no actions.",
    "Action items: buy milk, call mom.",
    "1. Plan [the trip]\n2. Pack {clothes}\n3. Go",
    "Paths like a/b/c and maps like {a: 1, b: 2} appear in prose.",
    "The JSON `[1, 2, 3]` is an array and `{}` is empty.",
    '{"name": "Widget", "price": 9.99, "tags": ["new"]}',
    '\n{"type": "function", "name": "data"}',
    'Here:\n```json\n[{"name": "Alice", "age": 30}, {"name": "Bob", "age": 4}]\n```\n',
    "The <|python_tag|> token starts ipython mode.",
    "The token <tool_calls> opens a JSON array in Jamba.",
    "<think>Let me think.</think>The answer is 42.",
    "Thought: I know the answer.\nFinal Answer: 42",
    "## Calling: the new policy\nWe call on all members.",
    "「始」quote「末」 and tool_name: search",
    "<|channel|> is a harmony token; to=functions.NAME addresses a tool.",
    "Action: ```json is how a fence starts.",
    "call:get_weather{city:Paris} is Gemma's syntax.",
    ">>> print(1)\n1",
    "<read_file> is the tool that reads files; <path> names one.",
]


@pytest.mark.parametrize("text", PROSE)
def test_prose_is_no_dialect(text: str) -> None:
    assert tooletta.detect(text) is None


@pytest.mark.parametrize("dialect", DIALECTS)
def test_detect_costs_linear_time(dialect: str) -> None:
    """A dialect's ``detect`` on its first markers repeated (bare, and followed by what may
    come after one): 4x the text takes well under 8x the time."""
    obj = tooletta.get_dialect(dialect)
    check = getattr(obj, "detect", None)
    if check is None:
        return
    for marker in obj.info.markers[:2]:
        for unit in (marker, marker + " a\n{"):
            small = unit * (40_000 // len(unit) + 1)
            large = small * 4
            ratio = linear_ratio(
                functools.partial(check, small), functools.partial(check, large), 8
            )
            assert ratio < 8, (repr(unit), ratio)


# -- (c) vLLM's and SGLang's --tool-call-parser names ---------------------------------------------

VLLM = {
    "hermes": "hermes",
    "granite4": "hermes",
    "ernie45": "hermes",
    "longcat": "longcat",
    "qwen3_coder": "qwen3_coder",
    "qwen3_xml": "qwen3_coder",
    "step3p5": "qwen3_coder",
    "mimo": "qwen3_coder",
    "seed_oss": "seed_oss",
    "mistral": "mistral",
    "llama3_json": "llama3_json",
    "llama4_json": "llama4_json",
    "pythonic": "pythonic",
    "llama4_pythonic": "pythonic",
    "olmo3": "olmo3",
    "lfm2": "lfm2",
    "deepseek_v3": "deepseek_v3",
    "deepseek_v31": "deepseek_v31",
    "deepseek_v32": "deepseek_v32",
    "deepseek_v4": "deepseek_v4",
    "kimi_k2": "kimi_k2",
    "kimi_k3": "kimi_k3",
    "glm45": "glm45",
    "glm47": "glm45",
    "poolside_v1": "glm45",
    "hy_v3": "hunyuan_v3",
    "jamba": "jamba",
    "hunyuan_a13b": "jamba",
    "minimax": "minimax_m1",
    "minimax_m2": "minimax_m2",
    "minimax_m3": "minimax_m3",
    "step3": "step3",
    "cohere_command3": "cohere",
    "cohere_command4": "cohere",
    # "openai" is gpt-oss Harmony in vLLM; ours is the OpenAI JSON dialect (DESIGN.md)
    "granite": "granite",
    "granite-20b-fc": "granite_20b_fc",
    "internlm": "internlm",
    "xlam": "xlam",
    "phi4_mini_json": "phi4_mini",
    "nemotron_json": "nemotron",
    "nemotron_nano_v2": "nemotron",
    "apertus": "apertus",
    "gemma4": "gemma4",
    "functiongemma": "functiongemma",
    "gigachat3": "gigachat3",
    "minicpm5": "minicpm5",
    "k2_horizon": "k2_horizon",
    "inkling": "inkling",
    "solar_open2": "solar_open2",
}
"""vLLM parser name -> our dialect (DIALECTS.md §1, the vLLM column)."""

SGLANG = {
    "hermes": "hermes",
    "qwen": "hermes",
    "qwen25": "hermes",
    "trinity": "hermes",
    "qwen3_coder": "qwen3_coder",
    "step3p5": "qwen3_coder",
    "mimo": "qwen3_coder",
    "mistral": "mistral",
    "llama3": "llama3_json",
    "pythonic": "pythonic",
    "lfm2": "lfm2",
    "deepseekv3": "deepseek_v3",
    "deepseekv31": "deepseek_v31",
    "deepseekv32": "deepseek_v32",
    "deepseekv4": "deepseek_v4",
    "deepseekv41": "deepseek_v4",
    "kimi_k2": "kimi_k2",
    "kimi_k3": "kimi_k3",
    "glm": "glm45",
    "glm45": "glm45",
    "glm47": "glm45",
    "ling3": "glm45",
    "poolside_v1": "glm45",
    "spark25": "glm45",
    "hunyuan": "hunyuan_v3",
    "minimax-m2": "minimax_m2",
    "minimax-m3": "minimax_m3",
    "step3": "step3",
    "cohere_command4": "cohere",
    "gpt-oss": "harmony",
    "interns1": "internlm",
    "apertus2509": "apertus",
    "gemma4": "gemma4",
    "gigachat3": "gigachat3",
    "gigachat35": "gigachat35",
    "minicpm5": "minicpm5",
    "dots": "dots",
    "k2_horizon": "k2_horizon",
    "inkling": "inkling",
    "muse": "muse",
}
"""SGLang parser name -> our dialect (DIALECTS.md §1, the SGLang column)."""


@pytest.mark.parametrize(
    ("name", "dialect"),
    [pytest.param(n, d, id=f"vllm:{n}") for n, d in VLLM.items()]
    + [pytest.param(n, d, id=f"sglang:{n}") for n, d in SGLANG.items()],
)
def test_peer_parser_name_resolves(name: str, dialect: str) -> None:
    assert tooletta.get_dialect(name).info.name == dialect


def test_vllm_openai_is_not_harmony() -> None:
    """The documented exception: our ``openai`` is the OpenAI JSON object format."""
    assert tooletta.get_dialect("openai").info.name == "openai"
    assert tooletta.get_dialect("gpt_oss").info.name == "harmony"
