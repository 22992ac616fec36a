"""Reasoning survives conversion (``convert``, CLI ``convert`` / ``render`` / ``--jsonl``):
written where the target dialect has a place for it, reported when it has none."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from click.testing import CliRunner

import tooletta
from tooletta.cli import cli
from tooletta.interop import convert_rows

REASONING = "Need the weather."
HARMONY = (
    f"<|channel|>analysis<|message|>{REASONING}<|end|><|start|>assistant<|channel|>"
    'commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>'
)
CALLS = [tooletta.ToolCall("get_weather", {"city": "Paris"})]
NO_PLACE = "llama3_json"  # Llama 3's JSON calls: no reasoning markup


def invoke(*args: str, stdin: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_a_target_without_a_place_warns_and_drop_reasoning_silences() -> None:
    with pytest.warns(tooletta.ToolettaWarning, match=f"{NO_PLACE} has no place for reasoning"):
        out = tooletta.convert(HARMONY, "harmony", NO_PLACE)
    assert tooletta.parse(out, NO_PLACE).calls == CALLS
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tooletta.convert(HARMONY, "harmony", NO_PLACE, drop_reasoning=True) == out
        tooletta.convert(HARMONY.split("<|start|>", 1)[1], "harmony", NO_PLACE)  # none to lose


def test_harmony_to_kimi_never_drops_reasoning_silently() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = tooletta.convert(HARMONY, "harmony", "kimi_k2")
    kept = tooletta.parse(out, "kimi_k2").reasoning == REASONING
    warned = any(issubclass(w.category, tooletta.ToolettaWarning) for w in caught)
    assert kept != warned  # kept where kimi_k2 has a place for it, else reported
    (call,) = tooletta.parse(out, "kimi_k2").calls
    assert (call.name, call.arguments) == ("get_weather", {"city": "Paris"})


def test_a_target_with_a_place_keeps_the_reasoning() -> None:
    assert tooletta.supports_reasoning("hermes") and not tooletta.supports_reasoning(NO_PLACE)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = tooletta.convert(HARMONY, "harmony", "hermes")
    back = tooletta.parse(out, "hermes")
    assert (back.reasoning, back.calls) == (REASONING, CALLS)


def test_cli_convert_warns_on_stderr() -> None:
    code, out, err = invoke("convert", "--from", "harmony", "--to", NO_PLACE, stdin=HARMONY)
    assert code == 0 and tooletta.parse(out, NO_PLACE).calls == CALLS
    assert err.startswith(f"warning: {NO_PLACE} has no place for reasoning")
    code, out2, err = invoke(
        "convert", "--from", "harmony", "--to", NO_PLACE, "--drop-reasoning", stdin=HARMONY
    )
    assert (code, out2, err) == (0, out, "")
    code, out, err = invoke("convert", "--from", "harmony", "--to", "hermes", stdin=HARMONY)
    assert err == "" and tooletta.parse(out, "hermes").reasoning == REASONING


def test_cli_jsonl_reports_each_warning_once_and_counts_rows() -> None:
    rows = "".join(json.dumps(HARMONY) + "\n" for _ in range(3))
    code, out, err = invoke("convert", "--jsonl", "--from", "harmony", "--to", NO_PLACE, stdin=rows)
    assert code == 0 and len(out.splitlines()) == 3
    lines = err.splitlines()
    assert lines[0].startswith(f"line 1: warning: {NO_PLACE} has no place")
    assert lines[1].startswith(f"warning: 3 rows: {NO_PLACE} has no place") and len(lines) == 2
    code, _, err = invoke(
        "convert", "--jsonl", "--drop-reasoning", "--from", "harmony", "--to", NO_PLACE, stdin=rows
    )
    assert (code, err) == (0, "")


def test_cli_render_takes_reasoning_from_its_input() -> None:
    message: dict[str, Any] = json.loads(
        invoke("parse", "-d", "harmony", "--format", "openai", stdin=HARMONY)[1]
    )
    assert message["reasoning_content"] == REASONING
    code, out, err = invoke("render", "-d", "hermes", stdin=json.dumps(message))
    assert code == 0 and err == ""
    assert tooletta.parse(out, "hermes").reasoning == REASONING
    code, _, err = invoke("render", "-d", NO_PLACE, stdin=json.dumps(message))
    assert code == 0 and "has no place for reasoning" in err


def test_rendered_rows_keep_reasoning_structured() -> None:
    thinking = {"type": "thinking", "thinking": REASONING, "signature": "sig"}
    use = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}
    row = {"messages": [{"role": "assistant", "content": [thinking, use]}]}
    (done,) = convert_rows([row], target_dialect="hermes")
    message = done["messages"][0]
    assert message["reasoning_content"] == REASONING
    assert tooletta.parse(message["content"], "hermes").calls == CALLS


def test_render_refuses_content_that_is_not_text() -> None:
    with pytest.raises(tooletta.RenderError, match="content must be text, not list"):
        tooletta.render(CALLS, "glm45", content=[{"type": "text", "text": "x"}])  # type: ignore[arg-type]
