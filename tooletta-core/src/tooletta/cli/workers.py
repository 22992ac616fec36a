"""Worker processes for ``--jobs N``: batches out, outcomes back in input order.

Each worker has its own task queue and its own result pipe, and the main process keeps no
copy of a pipe's writing end: when a worker dies (killed, out of memory), even halfway
through sending a result, reading from it fails at once instead of waiting forever, and no
lock shared with the other workers is left held. Batch ``j`` goes to worker ``j mod N``, so
reading the workers in turn gives the outcomes in input order.

Workers start with SIGINT and SIGTERM held back and then ignore SIGINT: a Ctrl-C sent to the
whole process group never prints a traceback from a worker; the main process stops them.

On Linux the workers are forked, all of them before the first batch is handed out (so before
any queue's feeder thread runs): a forked worker starts with everything this process has
already imported and loaded (tooletta, the plugin index, the run's dialects or tokenizer),
where a spawned one would first spend a large share of a short run importing them again.
Elsewhere (macOS, Windows: fork is unsafe or missing), and in a process that already runs
other threads, they are spawned, each on first use.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from multiprocessing.queues import Queue
from types import TracebackType
from typing import Any, TypeVar

from .io import WorkerError
from .rows import Done, Job, work_block
from .stop import StopSignals, blocked, ignore_interrupts

__all__ = ["WorkerError", "Workers"]

T = TypeVar("T")

DEPTH = 2
"""Batches sent ahead to each worker, so that none waits while the main process writes."""


class _Worker:
    """One worker process, its task queue and the reading end of its result pipe."""

    def __init__(self, context: Any, job: Job) -> None:
        self.tasks: Queue[bytes | None] = context.Queue()
        self.results, writer = context.Pipe(duplex=False)
        self.process: BaseProcess = context.Process(
            target=_serve, args=(job, self.tasks, writer), daemon=True
        )
        with blocked():  # the worker begins with the signals held back
            self.process.start()
        writer.close()  # only the worker may write: its death then ends the pipe


class Workers:
    """Up to ``jobs`` worker processes running ``job`` on batches (a context manager)."""

    def __init__(self, job: Job, jobs: int) -> None:
        self.job = job
        self.jobs = jobs
        self.workers: list[_Worker] = []
        # fork only a single-threaded process (a thread holding a lock at the fork would
        # leave it held in the worker): the CLI is; a host application calling it may not be
        self._fork = sys.platform.startswith("linux") and threading.active_count() == 1
        self._context = multiprocessing.get_context("fork" if self._fork else "spawn")

    def _worker(self, number: int) -> _Worker:
        """The worker for batch ``number``: forked all at once before the first batch (no
        thread runs yet), or spawned on first use (a short run starts few)."""
        if number < self.jobs and len(self.workers) <= number:
            wanted = self.jobs if self._fork else number + 1
            while len(self.workers) < wanted:
                self.workers.append(_Worker(self._context, self.job))
        return self.workers[number % self.jobs]

    def run(
        self, batches: Iterable[tuple[T, bytes]], stop: StopSignals
    ) -> Iterator[tuple[T, Done]]:
        """Each ``(key, block of lines)`` of ``batches`` as ``(key, outcome)``, in input order.

        Raises :class:`WorkerError` when a worker dies; waiting for one is interruptible.
        """
        pending: deque[tuple[T, _Worker]] = deque()
        window = DEPTH * self.jobs
        for number, (key, block) in enumerate(batches):
            worker = self._worker(number)
            worker.tasks.put(block)
            pending.append((key, worker))
            if len(pending) >= window:
                yield self._next(pending, stop)
        while pending:
            yield self._next(pending, stop)

    @staticmethod
    def _next(pending: deque[tuple[T, _Worker]], stop: StopSignals) -> tuple[T, Done]:
        key, worker = pending.popleft()
        try:
            with stop.interruptible():
                done: Done = worker.results.recv()
        except (EOFError, OSError):
            stop.check()  # killed by the same signal as this process
            worker.process.join(timeout=10)  # its pipe ended: it is gone or nearly
            code = worker.process.exitcode
            how = f" (exit code {code})" if code is not None else ""
            raise WorkerError(f"a worker process died{how}") from None
        return key, done

    def __enter__(self) -> Workers:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if exc_type is None:
            self._finish()
        else:
            self._stop()

    def _finish(self) -> None:
        """All batches are done: let the workers end on their own."""
        for worker in self.workers:
            worker.tasks.put(None)
        for worker in self.workers:
            worker.tasks.close()
            worker.tasks.join_thread()
            worker.process.join()
            worker.results.close()

    def _stop(self) -> None:
        """Stop now: what the workers hold would not be written anyway."""
        for worker in self.workers:
            worker.tasks.cancel_join_thread()  # a dead worker's queue may never drain
            worker.tasks.close()
            if worker.process.exitcode is None:
                worker.process.kill()  # cannot be held back, even by a worker still starting
        for worker in self.workers:
            worker.process.join()
            worker.results.close()


def _serve(job: Job, tasks: Queue[bytes | None], results: Connection) -> None:
    """A worker's life: blocks of lines from ``tasks`` until ``None``, outcomes to ``results``."""
    ignore_interrupts()
    while (block := tasks.get()) is not None:
        results.send(work_block(job, block))
