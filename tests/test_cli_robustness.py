"""The command line under hostile input (issue 7.6): malformed JSON, unknown dialects, binary
garbage, empty stdin, nesting deeper than any parser allows, a reader that goes away.

Each case must print one clear line on stderr (no traceback) and exit with the documented
code (``tooletta.cli``: 0 ok, 1 nothing detected or bad ``--jsonl`` rows, 2 usage, 3 a
tooletta error). Most cases run in-process with click's ``CliRunner``; the ones that need a
real process (closed pipes, ``python -m``) use a subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from support import ROOT
from tooletta.cli import cli

HERMES = (ROOT / "examples" / "hermes.txt").read_text()
DEEP = "[" * 100_000 + "]" * 100_000
GARBAGE = bytes(range(256)) * 4 + b"\xff\xfe\xc0\x80\xed\xa0\x80"


def invoke(args: list[str], stdin: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, args, input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"escaped: {result.exception!r}") from result.exception
    return result.exit_code, result.stdout, result.stderr


def one_line(err: str, *needles: str) -> None:
    """stderr is exactly one line, names the problem, and carries no traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, (needle, err)


def run_module(args: list[str], stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "tooletta.cli", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


# -- malformed JSON ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("stdin", "needle"),
    [
        ("{not json", "not valid JSON"),
        ('[{"name": "f", "arguments": {"a": 1}', "not valid JSON"),
        ('[{"name": "f", "arguments": "{bad"}]', "arguments"),
        ('[{"name": "f", "arguments": "[1]"}]', "arguments"),
        ('[{"name": "\\ud800"}]', "not valid JSON"),
        ("42", "expected"),
        ("null", "expected"),
        ('{"calls": "x"}', "expected"),
        ('{"content": 3, "calls": []}', "content"),
        ("[1, 2]", "tool call 0"),
        ('[{"name": 5}]', "tool call 0"),
        ("[" + DEEP + "]", ""),
        ('[{"name": "f", "arguments": {"a": ' + DEEP + "}}]", ""),
    ],
)
def test_render_malformed_json_is_one_line_exit_3(stdin: str, needle: str) -> None:
    code, out, err = invoke(["render", "-d", "hermes"], stdin)
    assert code == 3 and out == ""
    one_line(err, needle)


def test_tools_file_malformed_or_too_deep(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    for bad in (b"[[[", DEEP.encode(), b'{"type": "function"}', b"\xff\xfe", b""):
        tools.write_bytes(bad)
        code, _, err = invoke(["parse", "--tools", str(tools)], HERMES)
        assert code == 3, (bad[:10], err)
        one_line(err, "--tools" if bad.startswith(b"{") else "")


@pytest.mark.parametrize("command", ["parse", "render", "convert"])
def test_jsonl_bad_rows_are_reported_with_line_numbers(command: str) -> None:
    args = {
        "parse": ["parse", "--jsonl"],
        "render": ["render", "--jsonl", "-d", "hermes"],
        "convert": ["convert", "--jsonl", "--from", "hermes", "--to", "mistral"],
    }[command]
    good = (
        json.dumps([{"name": "f", "arguments": {}}]) if command == "render" else json.dumps(HERMES)
    )
    rows = "\n".join([good, "{broken", DEEP, json.dumps(42), "", good]) + "\n"
    code, out, err = invoke(args, rows)
    assert code == 1
    lines = out.splitlines()  # the two good rows and the blank line 5 between them
    assert len(lines) == 3 and lines[1] == "" and lines[0] == lines[2] != ""
    for line in ("line 2:", "line 3:", "line 4:"):
        assert line in err, err
    assert "3 of 5 rows failed" in err and "Traceback" not in err


def test_conversation_row_too_deep_is_a_bad_row() -> None:
    row = '{"messages": ' + DEEP + "}"
    code, _, err = invoke(["convert", "--jsonl", "--to", "hermes"], row + "\n")
    assert code == 1 and "line 1:" in err and "Traceback" not in err


# -- unknown dialects -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["parse", "-d", "nope"],
        ["parse", "--strict", "-d", "no-such-dialect"],
        ["render", "-d", "nope"],
        ["convert", "--from", "nope", "--to", "hermes"],
        ["convert", "--from", "hermes", "--to", "nope"],
    ],
)
def test_unknown_dialect_is_one_line_exit_2(args: list[str]) -> None:
    """A name no plugin knows is a bad option value: a usage error (issue 24), exit 2."""
    stdin = "[]" if args[0] == "render" else HERMES
    code, out, err = invoke(args, stdin)
    assert code == 2 and out == ""
    one_line(err, "unknown dialect")


@pytest.mark.parametrize(
    "args",
    [
        ["parse", "--jsonl", "-d", "nope"],
        ["render", "--jsonl", "-d", "nope"],
        ["convert", "--jsonl", "--from", "hermes", "--to", "nope"],
    ],
)
def test_unknown_dialect_in_a_jsonl_run_fails_once_not_per_row(args: list[str]) -> None:
    rows = (json.dumps(HERMES) + "\n") * 50
    code, out, err = invoke(args, rows)
    assert code == 2 and out == ""
    one_line(err, "unknown dialect")


# -- binary garbage and empty input -----------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["parse"],
        ["parse", "-d", "hermes", "--strict"],
        ["detect"],
        ["render", "-d", "hermes"],
        ["convert", "--from", "hermes", "--to", "mistral"],
    ],
)
def test_binary_garbage_is_one_line_exit_3(args: list[str]) -> None:
    code, out, err = invoke(args, GARBAGE)
    assert code == 3 and out == ""
    one_line(err, "not UTF-8")


@pytest.mark.parametrize("command", ["parse", "render", "convert"])
def test_binary_garbage_in_jsonl_is_bad_rows(command: str) -> None:
    args = {
        "parse": ["parse", "--jsonl"],
        "render": ["render", "--jsonl", "-d", "hermes"],
        "convert": ["convert", "--jsonl", "--to", "hermes"],
    }[command]
    code, _, err = invoke(args, GARBAGE)
    assert code == 1 and "line 1:" in err and "rows failed" in err and "Traceback" not in err


def test_text_with_nul_and_control_characters_parses() -> None:
    code, out, _ = invoke(["parse", "-d", "hermes"], "a\x00b\x1b[31m<tool_call>{\x00")
    assert code == 0
    record = json.loads(out)
    assert record["content"] == "a\x00b\x1b[31m" and record["unparsed"]


@pytest.mark.parametrize(
    ("args", "code", "stdout"),
    [
        (["parse"], 0, '{"content":"","calls":[]}\n'),
        (["parse", "-d", "hermes", "--strict"], 0, None),
        (["convert", "--from", "hermes", "--to", "mistral"], 0, "\n"),
        (["parse", "--jsonl"], 0, ""),
        (["render", "--jsonl", "-d", "hermes"], 0, ""),
        (["convert", "--jsonl", "--to", "hermes"], 0, ""),
    ],
)
def test_empty_stdin_is_not_an_error(args: list[str], code: int, stdout: str | None) -> None:
    got, out, err = invoke(args, "")
    assert got == code and err == ""
    if stdout is not None:
        assert out == stdout


def test_empty_stdin_where_input_is_required() -> None:
    code, _, err = invoke(["detect"], "")
    assert code == 1
    one_line(err, "no dialect")
    code, _, err = invoke(["render", "-d", "hermes"], "   \n")
    assert code == 3
    one_line(err, "empty input")


# -- usage errors are click's exit 2 --------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["bogus-command"],
        ["parse", "--bogus"],
        ["convert", "--from", "hermes"],
        ["render"],
        ["parse", "--format", "yaml"],
        ["parse", "--jobs", "0", "--jsonl"],
        ["detect", "/no/such/file"],
        ["parse", "--tools", "/no/such/file"],
    ],
)
def test_usage_errors_exit_2(args: list[str]) -> None:
    code, _, err = invoke(args, "x")
    assert code == 2
    assert "Error:" in err and "Traceback" not in err


# -- a real process: python -m, closed pipes ------------------------------------------------


def test_module_entry_point_errors_are_clean() -> None:
    proc = run_module(["render", "-d", "hermes"], ("[" + DEEP + "]").encode())
    assert proc.returncode == 3, proc.stderr
    assert b"Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    proc = run_module(["parse", "-d", "nope"], GARBAGE)
    assert proc.returncode == 3 and b"Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["parse", "--jsonl"], (json.dumps(HERMES) + "\n") * 20_000),
        (
            ["render", "--jsonl", "-d", "hermes"],
            (json.dumps([{"name": "f", "arguments": {"a": "x" * 200}}]) + "\n") * 20_000,
        ),
        (["convert", "--from", "hermes", "--to", "hermes"], "word " * 400_000),
    ],
)
def test_closed_stdout_pipe_is_quiet(args: list[str], stdin: str, tmp_path: Path) -> None:
    source = tmp_path / "in.txt"
    source.write_text(stdin, encoding="utf-8")
    with source.open("rb") as fin:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tooletta.cli", *args],
            stdin=fin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
        )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)  # like `| head -c 10`: read a little, then go away (the output is
    # far larger than a pipe's buffer, so the tool is still writing: deterministic EPIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=120)
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert code == 0, (code, err)
