"""A ``--jsonl`` run: every input line accounted for, in input order, whatever happens.

Each input line goes to exactly one place. A good row's result goes to stdout, and a blank
line stays a blank line there; a bad row is named on stderr (``line N: reason``) and written,
as it was, to the ``--reject`` file. A warning a row raises (reasoning a target has no place
for) is named on stderr once, with the first line that raised it (``line N: warning: ...``),
and the closing lines count the rows that raised each warning more than once. Both streams
keep input order, so output line k is the k-th input line that was not rejected (with no
bad rows, output line N is input line N).

Lines are read and worked in batches, in this process or in worker processes (``--jobs``),
and written a whole batch at a time, rejects first, each stream flushed. A batch is a block of
whole lines, about :data:`BLOCK` bytes, read and handed on as one ``bytes`` object: this process
never touches a line of a good row, so with ``--jobs`` the workers have the cores.

SIGINT (Ctrl-C) or SIGTERM stops the run between two batches: output and rejects then hold
exactly input lines 1 to K, the closing line on stderr names K, and the exit status is 128 +
the signal number (130, 143). A second signal stops at once.
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from typing import IO, Protocol, TextIO

import click

from .io import InputError, OutputError, WorkerError
from .progress import Progress
from .rows import Done, Job, split_block, work_block
from .stop import Interrupted, StopSignals, signal_name

__all__ = ["BLOCK", "open_reject", "run_jsonl"]

BLOCK = 1 << 18
"""Bytes read per batch (cut after its last whole line; a longer line makes a longer batch):
the unit of work for a worker and of writing."""

Batch = tuple[int, bytes, int, int]
"""A batch read: its first line number, its block of whole lines, its number of lines, the
input position after it."""


class _Sink(Protocol):
    def write(self, data: bytes, /) -> int | None: ...

    def flush(self) -> object: ...


def run_jsonl(source: IO[bytes], job: Job, *, jobs: int = 1, reject: str | None = None) -> None:
    """Run ``job`` over every line of ``source``; results on stdout in input order.

    Bad rows are named on stderr with their line numbers and their raw lines written to the
    ``reject`` file (opened before anything is written); the run exits 1 when any row was
    bad. See the module docstring for how lines map and how a signal stops the run.
    """
    job.check()
    ledger = _Ledger(_stdout(), open_reject(reject, source), Progress.of_input(source))
    try:
        with StopSignals() as stop:
            try:
                batches = _read(source, stop)
                if jobs <= 1:
                    for batch in batches:
                        with stop.interruptible():
                            done = work_block(job, batch[1])
                        ledger.write(batch, done)
                        stop.check()
                else:
                    from .workers import Workers  # multiprocessing: only for --jobs

                    with Workers(job, jobs) as workers:
                        for batch, done in workers.run(((b, b[1]) for b in batches), stop):
                            ledger.write(batch, done)
                            stop.check()
            except Interrupted as exc:
                message = f"Interrupted by {signal_name(exc.signum)}: {ledger.account()}."
                raise Interrupted(exc.signum, message) from None
            except (InputError, WorkerError) as exc:  # the run cannot go on
                raise type(exc)(f"{exc}: {ledger.account()}.") from None
    finally:
        ledger.close()
    ledger.summary()
    if ledger.rejected:
        sys.exit(1)


def open_reject(path: str | None, source: IO[bytes]) -> IO[bytes] | None:
    """Open (create or empty) the reject file, or fail as a usage error before any output."""
    if path is None:
        return None
    if path == "-":
        raise click.BadParameter(
            "'-' would mix rejected rows into the output: give a file name",
            param_hint="'--reject'",
        )
    if _same_file(path, source):
        raise click.BadParameter(
            f"{path!r} is the input file: it would be emptied", param_hint="'--reject'"
        )
    try:
        return open(path, "wb")
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise click.BadParameter(
            f"cannot open {path!r}: {reason}", param_hint="'--reject'"
        ) from None


def _same_file(path: str, source: IO[bytes]) -> bool:
    try:
        mine, theirs = os.stat(path), os.fstat(source.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    same = (mine.st_dev, mine.st_ino) == (theirs.st_dev, theirs.st_ino)
    return same and stat.S_ISREG(mine.st_mode)


def _read(source: IO[bytes], stop: StopSignals) -> Iterator[Batch]:
    """Blocks of whole lines (the last one may lack its newline), in order."""
    first = 1
    position = 0
    pending: list[bytes] = []  # the start of a line the last blocks cut (no newline yet)
    while True:
        try:
            with stop.interruptible():
                data = source.read(BLOCK)
        except OSError as exc:
            raise InputError(f"cannot read the input: {exc.strerror or exc}") from None
        if not data:
            rest = b"".join(pending)
            if rest:  # the last line, without a newline
                yield first, rest, 1, position + len(rest)
            return
        cut = data.rfind(b"\n") + 1
        if not cut:  # no line ends in this block yet (a line longer than a block)
            pending.append(data)
            continue
        block = b"".join([*pending, data[:cut]]) if pending else data[:cut]
        pending = [data[cut:]] if cut < len(data) else []
        lines = block.count(b"\n")
        position += len(block)
        yield first, block, lines, position
        first += lines


class _Ledger:
    """Writes each batch's outcome and knows which input lines are accounted for."""

    def __init__(self, out: _Sink, reject: IO[bytes] | None, progress: Progress) -> None:
        self.out = out
        self.reject = reject
        self.progress = progress
        self.line = 0  # input lines 1..line are in the output or rejected
        self.rows = 0
        self.rejected = 0
        self.warned: dict[str, int] = {}  # warning -> rows that raised it

    def _warn(self, first: int, warned: list[tuple[int, str]]) -> None:
        """Name each warning once, with the first line that raised it; count the rest."""
        new = []
        for index, message in warned:
            seen = self.warned.get(message, 0)
            self.warned[message] = seen + 1
            if not seen:
                new.append(f"line {first + index}: warning: {_flat(message)}")
        if new:
            self.progress.echo("\n".join(new))

    def write(self, batch: Batch, done: Done) -> None:
        """Write one batch: its rejects (file, then stderr), then its output, all flushed."""
        first, block, count, position = batch
        text, bad, rows, warned = done
        self._warn(first, warned)
        if bad:
            if self.reject is not None:
                lines = split_block(block)  # only the batches that have bad rows
                try:
                    _write_all(self.reject, b"".join(lines[i] + b"\n" for i, _ in bad))
                    self.reject.flush()
                except OSError as exc:
                    raise OutputError(f"cannot write the reject file: {exc}") from None
            self.progress.echo("\n".join(f"line {first + i}: {_flat(why)}" for i, why in bad))
        if text:
            try:
                _write_all(self.out, text)
                self.out.flush()
            except BrokenPipeError:
                raise
            except OSError as exc:
                raise OutputError(f"cannot write the output: {exc}") from None
        self.line = first + count - 1
        self.rows += rows
        self.rejected += len(bad)
        self.progress.advance(position, self.line)

    def account(self) -> str:
        """Which input lines are done, for the closing line of a run that stopped early."""
        if self.line == 0:
            return "no input line was done, nothing was written"
        written = self.rows - self.rejected
        return (
            f"input lines 1-{self.line} are done ({written} written, {self.rejected} rejected),"
            " later lines were not written"
        )

    def close(self) -> None:
        """Erase the progress line and close the reject file."""
        self.progress.close()
        if self.reject is not None:
            try:
                self.reject.close()
            except OSError as exc:
                raise OutputError(f"cannot write the reject file: {exc}") from None

    def summary(self) -> None:
        """The closing lines on stderr: warnings several rows raised (counted), bad rows."""
        for message, rows in self.warned.items():
            if rows > 1:
                click.echo(f"warning: {rows} rows: {_flat(message)}", err=True)
        if self.rejected:
            click.echo(f"{self.rejected} of {self.rows} rows failed", err=True)


def _write_all(sink: _Sink, data: bytes) -> None:
    """Write all of ``data``. An unbuffered stream (``python -u``, ``PYTHONUNBUFFERED``) is a
    raw file whose ``write`` may take only part of it, when a signal interrupts a write to a
    full pipe: the rest is written too, so that no line is ever cut."""
    view = memoryview(data)
    while view:
        done = sink.write(view)  # type: ignore[arg-type]  # bytes-like, as files accept
        view = view[done if done is not None else 0 :]


def _flat(reason: str) -> str:
    return reason.replace("\r", "\\r").replace("\n", "\\n")


class _TextSink:
    """Bytes onto a text stream (when ``sys.stdout`` has no binary buffer, as in tests)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, data: bytes, /) -> int:
        self.stream.write(data.decode("utf-8"))
        return len(data)

    def flush(self) -> object:
        return self.stream.flush()


def _stdout() -> _Sink:
    sys.stdout.flush()
    buffer: _Sink | None = getattr(sys.stdout, "buffer", None)
    return buffer if buffer is not None else _TextSink(sys.stdout)
