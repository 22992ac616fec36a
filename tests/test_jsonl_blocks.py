"""``--jsonl`` runs read their input in blocks of whole lines and write every byte of output.

The line accounting (output line k is the k-th kept input line, rejects and line numbers)
must not depend on where a block boundary falls: these tests shrink the block to a few bytes
so that lines are cut by it everywhere, and check the run against the whole-file reading.
"""

from __future__ import annotations

import io
import json

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from tooletta.cli import cli, jsonl
from tooletta.cli.rows import split_block
from tooletta.cli.stop import StopSignals

CONVERT = ["convert", "--jsonl", "--from", "hermes", "--to", "mistral"]
HERMES = '<tool_call>\n{"name": "f", "arguments": {"x": 1}}\n</tool_call>'

lines_st = st.lists(
    st.one_of(
        st.binary(max_size=12).map(lambda b: b.replace(b"\n", b"")),
        st.sampled_from([b"", b"   ", b"\r", b'"text"', b"{broken"]),
    ),
    max_size=20,
)


@given(lines=lines_st, block=st.integers(1, 9), final_newline=st.booleans())
def test_blocks_hold_whole_lines_in_order_whatever_the_block_size(
    lines: list[bytes], block: int, final_newline: bool
) -> None:
    data = b"\n".join(lines) + (b"\n" if final_newline and lines else b"")
    expected = data.split(b"\n")
    if expected[-1] == b"":
        expected.pop()
    old = jsonl.BLOCK
    jsonl.BLOCK = block
    try:
        with StopSignals() as stop:
            batches = list(jsonl._read(io.BytesIO(data), stop))
    finally:
        jsonl.BLOCK = old
    got = [line for _, chunk, _, _ in batches for line in split_block(chunk)]
    assert got == expected
    first = 1
    for number, chunk, count, _position in batches:
        assert number == first and count == len(split_block(chunk))
        first += count
    assert not batches or batches[-1][3] == len(data)
    assert all(chunk.endswith(b"\n") for _, chunk, _, _ in batches[:-1])


def _rows() -> bytes:
    out = []
    for n in range(1, 60):
        if n % 7 == 0:
            out.append(b"{broken")
        elif n % 11 == 0:
            out.append(b"")
        else:
            out.append(json.dumps({"id": n, "text": f"row {n} " + HERMES * (n % 3)}).encode())
    return b"\n".join(out) + b"\n"


@pytest.mark.parametrize("block", [1, 5, 64, 1000])
def test_jsonl_output_and_rejects_do_not_depend_on_the_block_size(
    block: int, monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    data = _rows()
    want = CliRunner().invoke(cli, CONVERT, input=data)
    monkeypatch.setattr(jsonl, "BLOCK", block)
    got = CliRunner().invoke(cli, CONVERT, input=data)
    assert (got.exit_code, got.stdout, got.stderr) == (want.exit_code, want.stdout, want.stderr)
    assert got.exit_code == 1  # the broken rows
    assert "line 7: not valid JSON" in got.stderr


class _Stingy:
    """A raw stream that takes at most a few bytes per write (a pipe a signal interrupted)."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.data = bytearray()

    def write(self, data: bytes) -> int:
        taken = bytes(data[: self.most])
        self.data += taken
        return len(taken)

    def flush(self) -> None:
        pass


@given(data=st.binary(max_size=300), most=st.integers(1, 50))
def test_jsonl_output_is_whole_when_a_raw_stream_takes_part_of_a_write(
    data: bytes, most: int
) -> None:
    sink = _Stingy(most)
    jsonl._write_all(sink, data)
    assert bytes(sink.data) == data
