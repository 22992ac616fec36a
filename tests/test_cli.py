"""The command line: every command, JSON lines, and clean errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from support import ROOT
from tooletta.cli import cli

HERMES = (ROOT / "examples" / "hermes.txt").read_text()


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def test_list_dialects_json_has_the_documented_keys() -> None:
    code, out, _ = invoke("list-dialects", "--json")
    assert code == 0
    rows = json.loads(out)
    keys = {"name", "aliases", "priority", "plugin", "version", "models", "markers", "supports"}
    assert all(keys <= set(r) for r in rows)
    assert [r["name"] for r in rows][-1] == "canonical"


def test_list_dialects_table_and_plugins() -> None:
    code, out, _ = invoke("list-dialects")
    assert code == 0 and out.splitlines()[0].startswith("name")
    code, out, _ = invoke("list-dialects", "--plugins")
    assert any(p["name"] == "hermes" for p in json.loads(out))


def test_detect_and_exit_code() -> None:
    assert invoke("detect", stdin=HERMES)[:2] == (0, "hermes\n")
    code, _, err = invoke("detect", stdin="nothing here")
    assert code == 1 and "no dialect" in err


def test_parse_formats() -> None:
    code, out, _ = invoke("parse", stdin=HERMES)
    assert code == 0
    assert json.loads(out)["calls"] == [{"name": "get_weather", "arguments": {"city": "Paris"}}]
    code, out, _ = invoke("parse", "--format", "openai", stdin=HERMES)
    msg = json.loads(out)
    assert msg["role"] == "assistant" and msg["tool_calls"][0]["function"]["name"] == "get_weather"


def test_parse_then_render_round_trip() -> None:
    _, parsed, _ = invoke("parse", "-d", "hermes", stdin=HERMES)
    code, out, _ = invoke("render", "-d", "hermes", stdin=parsed)
    assert code == 0 and out == HERMES + "\n"


def test_convert() -> None:
    code, out, _ = invoke("convert", "--from", "hermes", "--to", "canonical", stdin=HERMES)
    assert code == 0
    assert json.loads(out)["content"] == "Let me check."


def test_tools_file(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([{"type": "function", "function": {"name": "get_weather"}}]))
    assert invoke("parse", "--tools", str(tools), stdin=HERMES)[0] == 0
    tools.write_text("{}")
    code, _, err = invoke("parse", "--tools", str(tools), stdin=HERMES)
    assert code == 3 and "--tools" in err


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (("parse", "-d", "nope"), "x", "unknown dialect"),
        (("render", "-d", "hermes"), "{not json", "not valid JSON"),
        (("render", "-d", "hermes"), "", "empty input"),
        (("render", "-d", "hermes"), '[{"arguments": {}}]', "no function name"),
        (("parse", "--strict", "-d", "hermes"), "<tool_call>{bad", "hermes"),
    ],
)
def test_user_errors_are_one_line(args: tuple[str, ...], stdin: str, needle: str) -> None:
    code, _, err = invoke(*args, stdin=stdin)
    assert code == (2 if needle == "unknown dialect" else 3)  # a bad name is a usage error
    assert needle in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_binary_input_is_a_clean_error() -> None:
    result = CliRunner().invoke(cli, ["parse"], input=b"\xff\xfe\x00garbage")
    assert result.exit_code == 3 and "not UTF-8" in result.stderr


def test_jsonl_reports_bad_rows_and_keeps_going() -> None:
    rows = "\n".join(
        [json.dumps({"text": HERMES, "id": 1}), "{broken", json.dumps(42), json.dumps(HERMES)]
    )
    code, out, err = invoke(
        "convert", "--jsonl", "--from", "hermes", "--to", "canonical", stdin=rows
    )
    assert code == 1
    lines = [json.loads(x) for x in out.splitlines()]
    assert lines[0]["id"] == 1 and json.loads(lines[0]["text"])["content"] == "Let me check."
    assert isinstance(lines[1], str)
    assert "line 2:" in err and "line 3:" in err and "2 of 4 rows failed" in err


def test_jsonl_parse_and_render() -> None:
    code, out, _ = invoke("parse", "--jsonl", stdin=json.dumps(HERMES) + "\n")
    assert code == 0
    record = out.strip()
    code, out, _ = invoke("render", "--jsonl", "-d", "hermes", stdin=record + "\n")
    assert code == 0 and json.loads(out)["text"] == HERMES


def test_closed_stdout_pipe_is_quiet() -> None:
    rows = (json.dumps(HERMES) + "\n") * 20000
    proc = subprocess.run(
        f"{sys.executable} -m tooletta.cli parse --jsonl | head -1",
        shell=True,
        input=rows,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert "Traceback" not in proc.stderr, proc.stderr


def _conversation(i: int) -> dict[str, object]:
    call = {
        "id": f"call_{i}",
        "type": "function",
        "function": {"name": "get_weather", "arguments": json.dumps({"city": "Zürich", "n": i})},
    }
    return {
        "messages": [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": "Let me check.", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": f"call_{i}", "content": "18C"},
        ],
        "tools": [{"type": "function", "function": {"name": "get_weather"}}],
    }


def test_conversation_rows_render_and_parse_back(tmp_path: Path) -> None:
    rows = "\n".join(json.dumps(_conversation(i)) for i in range(5)) + "\n"
    code, rendered, err = invoke("convert", "--jsonl", "--to", "hermes", stdin=rows)
    assert code == 0, err
    first = json.loads(rendered.splitlines()[0])["messages"][1]
    assert "tool_calls" not in first and "<tool_call>" in first["content"]
    code, back, err = invoke(
        "convert",
        "--jsonl",
        "--from",
        "hermes",
        "--to",
        "messages",
        "--call-format",
        "hf",
        stdin=rendered,
    )
    assert code == 0, err
    message = json.loads(back.splitlines()[3])["messages"][1]
    assert message["content"] == "Let me check."
    assert message["tool_calls"][0]["function"]["arguments"] == {"city": "Zürich", "n": 3}


def test_jobs_and_reject_file(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    good = json.dumps(HERMES)
    src.write_text("\n".join([good, "{broken", good, json.dumps({"x": 1}), good]) + "\n")
    reject = tmp_path / "bad.jsonl"
    result = CliRunner().invoke(
        cli,
        [
            "convert",
            "--jsonl",
            "--jobs",
            "2",
            "--reject",
            str(reject),
            "--from",
            "hermes",
            "--to",
            "canonical",
            str(src),
        ],
    )
    assert result.exit_code == 1
    assert len(result.stdout.splitlines()) == 3
    assert reject.read_text().splitlines() == ["{broken", '{"x": 1}']
    assert "line 2:" in result.stderr and "line 4:" in result.stderr
