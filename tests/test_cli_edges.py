"""CLI edges a new user touches first (issue 24): install hints that work without pip, row
errors in one style."""

from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner

from tooletta.cli import cli
from tooletta.extras import EXTRAS, install_hint


def test_install_hints_name_the_extra_for_pip_and_uv() -> None:
    for extra in EXTRAS:
        hint = install_hint("a feature", extra)
        assert f"pip install 'tooletta-core[{extra}]'" in hint
        assert f"uv add 'tooletta-core[{extra}]'" in hint


def test_parquet_without_pyarrow_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    pytest.importorskip("tokenizers")
    from tooletta.cli.chat import _to_parquet

    with pytest.raises(Exception, match=r"tooletta-core\[parquet\]"):
        _to_parquet(None, None, 1, None, "out.parquet")  # type: ignore[arg-type]


def test_row_errors_read_alike_whatever_the_row_kind() -> None:
    """A message row refused by convert_rows and a text row refused by the dialect: both lines
    are "line N: reason", neither names a Python exception."""
    bad_messages = {
        "messages": [{"role": "assistant", "content": "", "tool_calls": [{"function": {}}]}]
    }
    bad_text = "<tool_call>{bad"
    rows = json.dumps(bad_messages) + "\n" + json.dumps(bad_text) + "\n"
    result = CliRunner().invoke(
        cli, ["convert", "--jsonl", "--from", "hermes", "--to", "mistral"], input=rows
    )
    lines = [line for line in result.stderr.splitlines() if line.startswith("line ")]
    assert len(lines) == 2, result.stderr
    for line in lines:
        reason = line.split(": ", 1)[1]
        assert not reason.split(":", 1)[0].endswith("Error"), line


def test_date_pins_the_date_templates_write() -> None:
    conversation = json.dumps([{"role": "user", "content": "hi"}])
    args = ["render-chat", "-m", "meta-llama/Llama-3.2-3B-Instruct", "--date", "2026-01-05"]
    result = CliRunner().invoke(cli, args, input=conversation)
    assert result.exit_code == 0, result.output
    assert "Today Date: 05 Jan 2026\n" in result.stdout
    help_text = CliRunner().invoke(cli, ["tokenize", "--help"]).stdout
    assert "--date" in help_text and "change every day" in help_text


def test_a_misspelled_switch_is_said_once() -> None:
    import warnings

    import tooletta

    messages = [{"role": "user", "content": "hi"}]
    with pytest.warns(tooletta.ToolettaWarning, match="did you mean 'enable_thinking'"):
        tooletta.render_conversation(messages, model="Qwen/Qwen3-8B", enable_thinkin=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tooletta.render_conversation(messages, model="Qwen/Qwen3-8B", enable_thinking=False)
        tooletta.render_conversation(messages, model="Qwen/Qwen3-8B", custom_var="x")
