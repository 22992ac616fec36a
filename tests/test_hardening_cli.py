"""Hardening issue 14, item 10: the CLI's ``--jsonl`` runs account for every input line.

Every input line goes to exactly one place, in input order: stdout (a good row's result; a
blank line stays blank) or stderr plus the ``--reject`` file (a bad row, with its line
number). That holds for rows that are not UTF-8, not JSON, wrongly typed or carry lone
surrogates, and it holds when SIGINT or SIGTERM stops the run: the signal tests run the real
command in a subprocess and check that output and rejects cover input lines 1..K exactly.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import ROOT
from tooletta.cli import cli
from tooletta.interop import convert_rows

HERMES = (ROOT / "examples" / "hermes.txt").read_text()
CONVERT = ["convert", "--jsonl", "--from", "hermes", "--to", "mistral"]
NON_UTF8 = b'"\xff\xfe bad utf8"'
POSIX_ONLY = pytest.mark.skipif(sys.platform == "win32", reason="process groups and POSIX signals")
STOPPED = re.compile(
    r"^(Interrupted by SIGINT|Interrupted by SIGTERM|Error: a worker process died)"
    r"(?: \(exit code -?\d+\))?: "
    r"input lines 1-(\d+) are done \((\d+) written, (\d+) rejected\), "
    r"later lines were not written\.$"
)


def good(i: int) -> bytes:
    return json.dumps({"id": i, "text": HERMES}).encode()


def invoke(args: list[str], stdin: bytes) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, args, input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"escaped: {result.exception!r}") from result.exception
    return result.exit_code, result.stdout, result.stderr


def numbered(err: str) -> list[int]:
    """The line numbers named by ``line N: ...`` messages on stderr."""
    return [int(m) for m in re.findall(r"^line (\d+): ", err, re.M)]


# -- a non-UTF-8 row ------------------------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_item10_non_utf8_row_rejected_not_fatal(jobs: str, tmp_path: Path) -> None:
    lines = [good(i) for i in range(1, 601)]
    lines[99] = NON_UTF8  # line 100, inside the first batch of 512
    reject = tmp_path / "bad.jsonl"
    code, out, err = invoke(
        [*CONVERT, "--jobs", jobs, "--reject", str(reject)], b"\n".join(lines) + b"\n"
    )
    assert code == 1 and "Traceback" not in err
    ids = [json.loads(x)["id"] for x in out.splitlines()]
    assert ids == [i for i in range(1, 601) if i != 100]  # the rest of its batch survives
    assert numbered(err) == [100] and "not UTF-8 text (byte 1)" in err
    assert reject.read_bytes() == NON_UTF8 + b"\n"
    assert "1 of 600 rows failed" in err


def test_item10_non_utf8_outside_strings_and_surrogate_bytes_are_rejected() -> None:
    rows = [b"\xff", b'{"text": "\xed\xa0\x80"}', b'"\xc3"', good(4)]
    code, out, err = invoke(CONVERT, b"\n".join(rows))
    assert code == 1 and numbered(err) == [1, 2, 3]
    assert err.count("not UTF-8 text") == 3 and json.loads(out)["id"] == 4


# -- the reject path -----------------------------------------------------------------------


@pytest.mark.parametrize("where", ["missing-dir", "a-directory", "dash"])
def test_item10_bad_reject_path_fails_before_any_output(where: str, tmp_path: Path) -> None:
    path = {
        "missing-dir": str(tmp_path / "no" / "such" / "bad.jsonl"),
        "a-directory": str(tmp_path),
        "dash": "-",
    }[where]
    rows = b"\n".join([good(1), b"{broken", good(3)]) + b"\n"
    code, out, err = invoke([*CONVERT, "--reject", path], rows)
    assert code == 2 and out == ""
    assert "--reject" in err and "Traceback" not in err


def test_item10_reject_path_that_is_the_input_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    data = b"\n".join([good(1), b"{broken"]) + b"\n"
    source.write_bytes(data)
    code, out, err = invoke([*CONVERT, "--reject", str(source), str(source)], b"")
    assert code == 2 and out == "" and "input file" in err
    assert source.read_bytes() == data  # not emptied


def test_item10_reject_file_is_created_even_when_no_row_fails(tmp_path: Path) -> None:
    reject = tmp_path / "bad.jsonl"
    reject.write_bytes(b"stale rejects of an earlier run\n")
    code, _, _ = invoke([*CONVERT, "--reject", str(reject)], good(1) + b"\n")
    assert code == 0 and reject.read_bytes() == b""


# -- blank lines ---------------------------------------------------------------------------


def test_item10_blank_lines_keep_output_line_numbers() -> None:
    lines = [good(1), b"", good(3), b"   \t", good(5), b"\r", b"", good(8)]
    code, out, err = invoke(CONVERT, b"\n".join(lines) + b"\n")
    assert code == 0 and err == ""
    got = out.split("\n")
    assert got[-1] == "" and len(got) - 1 == len(lines)
    for n, (raw, line) in enumerate(zip(lines, got), 1):
        if raw.strip():
            assert json.loads(line)["id"] == n
        else:
            assert line == ""


_BAD_ROWS = [
    NON_UTF8,
    b"{broken",
    b'"\\ud800"',
    b'{"messages": [{"role": 7, "content": "x"}]}',
    b'{"messages": [null]}',
    b"42",
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(
            st.just(("good", b"")),
            st.sampled_from([("blank", b""), ("blank", b"  "), ("blank", b"\r")]),
            st.sampled_from([("bad", raw) for raw in _BAD_ROWS]),
        ),
        max_size=40,
    )
)
def test_item10_every_line_is_written_or_rejected_in_order(
    kinds: list[tuple[str, bytes]],
) -> None:
    lines = [good(n) if kind == "good" else raw for n, (kind, raw) in enumerate(kinds, 1)]
    code, out, err = invoke(CONVERT, b"".join(line + b"\n" for line in lines))
    kept = [n for n, (kind, _) in enumerate(kinds, 1) if kind != "bad"]
    bad = [n for n, (kind, _) in enumerate(kinds, 1) if kind == "bad"]
    got = out.splitlines()
    assert len(got) == len(kept)
    for n, line in zip(kept, got):
        assert (json.loads(line)["id"] == n) if kinds[n - 1][0] == "good" else line == ""
    assert numbered(err) == bad
    assert code == (1 if bad else 0) and "Traceback" not in err


# -- wrongly typed rows --------------------------------------------------------------------


_CONVERSATIONS: list[tuple[dict[str, Any], str]] = [
    ({"messages": [{"role": 7, "content": "x"}]}, "role must be a string, not a number"),
    ({"messages": [None]}, "message 0 must be an object, not null"),
    ({"messages": [{"role": "user", "content": 5}]}, "content must be text"),
    ({"messages": [{"role": "tool", "content": 1.5}]}, "not a number"),
    ({"messages": [{"role": "assistant", "content": 5}]}, "content must be text"),
    ({"messages": [{"role": "user", "content": [None]}]}, "content part 0 must be an object"),
    ({"messages": [{"content": "x"}]}, "has no role"),
    ({"messages": [], "tools": 7}, "'tools' must be a list"),
    ({"messages": [{"role": "assistant", "content": "", "tool_calls": 7}]}, "tool_calls"),
]
_TEXT_ROWS: list[tuple[dict[str, Any], str]] = [
    ({"text": 5}, '"text" must be a string, not a number'),
    ({"text": "hi", "tools": 7}, '"tools" must be a list of tool definitions'),
    ({"text": "hi", "tools": [None]}, "tool definition"),
]


@pytest.mark.parametrize(
    ("row", "reason", "target"),
    [
        *(
            (row, reason, target)
            for row, reason in _CONVERSATIONS
            for target in ("hermes", "messages")
        ),
        *((row, reason, "hermes") for row, reason in _TEXT_ROWS),
    ],
)
def test_item10_wrong_typed_rows_rejected_with_reason(
    row: dict[str, Any], reason: str, target: str
) -> None:
    fine = {"messages": [{"role": "user", "content": "hi"}]}
    stdin = (json.dumps(row) + "\n" + json.dumps(fine) + "\n").encode()
    code, out, err = invoke(["convert", "--jsonl", "--from", "hermes", "--to", target], stdin)
    assert code == 1 and numbered(err) == [1]
    assert reason in err, err
    assert len(out.splitlines()) == 1


def test_item10_convert_rows_rejects_wrong_types_in_both_directions() -> None:
    rows: list[Any] = [
        {"messages": [{"role": 7}]},
        {"messages": [None]},
        {"messages": [{"role": "user", "content": 3}]},
    ]
    for kwargs in ({"target_dialect": "hermes"}, {"direction": "parse"}):
        done = convert_rows(rows, **kwargs)  # type: ignore[arg-type]
        assert all(isinstance(d.get("error"), str) for d in done), done
    ok = {"messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]}
    (done,) = convert_rows([ok], target_dialect="hermes")
    assert "error" not in done
    item = {"type": "function_call_output", "call_id": "c", "output": "18C"}
    (done,) = convert_rows([{"messages": [item]}], target_dialect="hermes")
    assert "error" not in done  # a Responses item has a type instead of a role


# -- lone surrogates -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "escape"),
    [
        (b'"\\ud800"', "\\ud800"),
        (b'{"text": "a\\udc00b"}', "\\udc00"),
        (b'"\\uD800\\u0041"', "\\uD800"),
        (b'"\\\\\\ud83d"', "\\ud83d"),
    ],
)
def test_item10_lone_surrogate_rejected_not_truncated(raw: bytes, escape: str) -> None:
    code, _, err = invoke(CONVERT, raw + b"\n")
    assert code == 1 and numbered(err) == [1]
    assert f"lone surrogate {escape}" in err and "truncated" not in err


@pytest.mark.parametrize("raw", [b'"\\\\ud800"', b'"\\ud83d\\ude00 ok"'])
def test_item10_escaped_backslash_and_surrogate_pairs_are_fine(raw: bytes) -> None:
    code, out, err = invoke(CONVERT, raw + b"\n")
    assert code == 0 and err == "" and json.loads(out) == json.loads(raw)


def test_item10_lone_surrogate_named_outside_jsonl_too() -> None:
    code, _, err = invoke(["render", "-d", "hermes"], b'[{"name": "\\ud800"}]')
    assert code == 3 and "lone surrogate \\ud800" in err


# -- signals: the real command in a subprocess ---------------------------------------------


def _dataset(lines: int) -> tuple[list[bytes], dict[int, str]]:
    """Input lines (no newlines) and what each is: good, blank or bad."""
    bad = [NON_UTF8, b"{broken", b'{"messages": [{"role": 7}]}', b'"\\ud800"']
    out: list[bytes] = []
    kinds: dict[int, str] = {}
    for n in range(1, lines + 1):
        if n % 53 == 0:
            out.append(bad[(n // 53) % len(bad)])
            kinds[n] = "bad"
        elif n % 61 == 0:
            out.append(b"")
            kinds[n] = "blank"
        else:
            out.append(good(n))
            kinds[n] = "good"
    return out, kinds


def _workers(pid: int) -> list[int]:
    """The worker processes of the CLI process ``pid`` (Linux: from /proc)."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    if not children.exists():
        pytest.skip("no /proc/PID/task/PID/children here")
    found = []
    for child in children.read_text().split():
        cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        if b"resource_tracker" not in cmdline:
            found.append(int(child))
    return found


def _stop_mid_run(
    tmp_path: Path,
    *,
    jobs: int,
    sig: signal.Signals,
    group: bool,
    after: int,
    script: bool = False,
    kill_worker: bool = False,
) -> None:
    """Run the CLI on a stream that never ends, signal it once ``after`` output lines came
    back (or SIGKILL one of its workers), then check the exit, the stderr lines and the
    accounting of input lines 1..K."""
    lines, kinds = _dataset(20_000)
    reject = tmp_path / "bad.jsonl"
    errfile = tmp_path / "err.txt"
    command = (
        [str(Path(sys.executable).with_name("tooletta"))]
        if script
        else [sys.executable, "-m", "tooletta.cli"]
    )
    args = [*command, *CONVERT, "--jobs", str(jobs), "--reject", str(reject), "-"]
    with errfile.open("wb") as err_out:
        proc = subprocess.Popen(
            args,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err_out,
            cwd=ROOT,
            start_new_session=True,  # its own process group, like a shell job
        )
    assert proc.stdin is not None and isinstance(proc.stdout, io.BufferedReader)
    stdin, stdout = proc.stdin, proc.stdout
    release = threading.Event()
    enough = threading.Event()
    chunks: list[bytes] = []

    def feed() -> None:  # all the rows, then hold the stream open: the run cannot finish
        try:
            stdin.write(b"".join(line + b"\n" for line in lines))
            stdin.flush()
            release.wait()
            stdin.close()
        except (BrokenPipeError, ValueError):
            pass

    def drain() -> None:
        seen = 0
        while chunk := stdout.read1(65536):
            chunks.append(chunk)
            seen += chunk.count(b"\n")
            if seen >= after:
                enough.set()
        enough.set()

    threads = [threading.Thread(target=feed), threading.Thread(target=drain)]
    for t in threads:
        t.start()
    try:
        assert enough.wait(120), "no output came back"
        if kill_worker:
            os.kill(_workers(proc.pid)[0], signal.SIGKILL)
        elif group:
            os.killpg(proc.pid, sig)  # Ctrl-C in a terminal signals the whole group
        else:
            os.kill(proc.pid, sig)
        code = proc.wait(120)
    finally:
        release.set()
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # the workers too: leave nothing behind
        for t in threads:
            t.join(120)
    err = errfile.read_text("utf-8")
    assert code == (3 if kill_worker else 128 + sig), (code, err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    *messages, last = err.splitlines()
    stopped = STOPPED.match(last)
    assert stopped is not None, err
    cause = "Error: a worker process died" if kill_worker else f"Interrupted by {sig.name}"
    assert stopped.group(1) == cause
    k = int(stopped.group(2))
    assert after <= k < len(lines)
    out = b"".join(chunks)
    assert out.endswith(b"\n")  # no half-written line
    written = [n for n in range(1, k + 1) if kinds[n] != "bad"]
    rejected = [n for n in range(1, k + 1) if kinds[n] == "bad"]
    got = out.decode("utf-8").split("\n")[:-1]
    assert len(got) == len(written)
    for n, line in zip(written, got):
        assert (json.loads(line)["id"] == n) if kinds[n] == "good" else line == ""
    assert reject.read_bytes() == b"".join(lines[n - 1] + b"\n" for n in rejected)
    assert numbered("\n".join(messages)) == rejected
    assert len(messages) == len(rejected)
    assert int(stopped.group(3)) == sum(kinds[n] == "good" for n in written)
    assert int(stopped.group(4)) == len(rejected)


@POSIX_ONLY
@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_item10_accounting_holds_under_sigint_sigterm(
    jobs: int, sig: signal.Signals, tmp_path: Path
) -> None:
    _stop_mid_run(tmp_path, jobs=jobs, sig=sig, group=True, after=1500)


@POSIX_ONLY
def test_item10_ctrl_c_with_jobs_2_prints_no_worker_tracebacks(tmp_path: Path) -> None:
    # SIGINT to the whole group, as a terminal does, early: workers may still be starting
    _stop_mid_run(tmp_path, jobs=2, sig=signal.SIGINT, group=True, after=1, script=True)


@POSIX_ONLY
@pytest.mark.parametrize("jobs", [1, 2])
def test_item10_sigterm_keeps_rejects_of_written_batches(jobs: int, tmp_path: Path) -> None:
    # SIGTERM to the main process only (kill PID, a job scheduler, timeout)
    _stop_mid_run(tmp_path, jobs=jobs, sig=signal.SIGTERM, group=False, after=700)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds workers in /proc")
def test_item10_dead_worker_stops_the_run_with_an_account_not_a_hang(tmp_path: Path) -> None:
    _stop_mid_run(tmp_path, jobs=2, sig=signal.SIGKILL, group=False, after=600, kill_worker=True)


# -- the progress line ---------------------------------------------------------------------


def _screen(raw: str) -> list[str]:
    """The lines a terminal shows for ``raw`` (carriage returns overwrite, newlines end)."""
    done: list[str] = []
    line: list[str] = []
    col = 0
    for ch in raw:
        if ch == "\r":
            col = 0
        elif ch == "\n":
            done.append("".join(line).rstrip())
            line, col = [], 0
        else:
            if col < len(line):
                line[col] = ch
            else:
                line.append(ch)
            col += 1
    if "".join(line).strip():
        done.append("".join(line).rstrip())
    return done


@POSIX_ONLY
def test_item10_error_lines_do_not_interleave_with_progress_bar(tmp_path: Path) -> None:
    import pty

    lines = [good(n) if n % 150 else b"{broken" for n in range(1, 3001)]
    source = tmp_path / "in.jsonl"
    source.write_bytes(b"".join(line + b"\n" for line in lines))
    master, slave = pty.openpty()
    with (tmp_path / "out.jsonl").open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "tooletta.cli", *CONVERT, str(source)],
            stdout=out,
            stderr=slave,
            cwd=ROOT,
        )
    os.close(slave)
    raw = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal closed: the process is gone
            break
        if not chunk:
            break
        raw += chunk
    os.close(master)
    assert proc.wait(120) == 1
    text = raw.decode("utf-8")
    assert re.search(r"rows +\[", text)  # the progress line was drawn
    shown = _screen(text)  # what stays on the terminal: the messages alone, each whole
    bad = [n for n in range(1, 3001) if n % 150 == 0]
    assert shown[-1] == f"{len(bad)} of 3000 rows failed", shown
    assert numbered("\n".join(shown[:-1])) == bad
    message = re.compile(r"line \d+: not valid JSON: JSON is malformed: [a-z ]+ \(byte 1\)")
    assert all(message.fullmatch(line) for line in shown[:-1]), shown


def test_item10_input_that_fails_midway_is_one_line_with_an_account() -> None:
    import io

    class Flaky(io.BytesIO):
        """Rows, then a read error (a disk or a network file going away), however it is
        read (blocks or lines)."""

        def __init__(self) -> None:
            super().__init__(b"".join(good(n) + b"\n" for n in range(1, 1025)))

        def read(self, size: int | None = -1) -> bytes:
            if self.tell() >= len(self.getbuffer()):
                raise OSError(5, "Input/output error")
            return super().read(size)

        def readline(self, size: int | None = -1) -> bytes:
            if self.tell() >= len(self.getbuffer()):
                raise OSError(5, "Input/output error")
            return super().readline(size)

        def __next__(self) -> bytes:
            line = self.readline()
            if not line:
                raise StopIteration
            return line

    result = CliRunner().invoke(cli, CONVERT, input=Flaky())
    assert result.exit_code == 3, result.output
    assert result.stderr.splitlines() == [
        "Error: cannot read the input: Input/output error: input lines 1-1024 are done "
        "(1024 written, 0 rejected), later lines were not written."
    ]
    assert len(result.stdout.splitlines()) == 1024
