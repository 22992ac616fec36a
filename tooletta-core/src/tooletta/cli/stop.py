"""Stopping a ``--jsonl`` run cleanly on SIGINT (Ctrl-C) or SIGTERM.

While a run is active, the two signals are caught in the main thread. They interrupt the run
at once only inside :meth:`StopSignals.interruptible` blocks (reading input, waiting for a
worker, working on a batch in this process); anywhere else (writing a batch's output and
rejects, handing work to the workers) the signal waits until the block is over, so what was
written stays whole. A second signal does not wait. Worker processes ignore SIGINT (the
terminal sends Ctrl-C to the whole process group): the main process stops them.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType, TracebackType
from typing import Any

__all__ = ["Interrupted", "StopSignals", "blocked", "ignore_interrupts"]

SIGNALS: tuple[signal.Signals, ...] = tuple(
    s for s in (getattr(signal, "SIGINT", None), getattr(signal, "SIGTERM", None)) if s is not None
)


class Interrupted(BaseException):
    """A stop signal ended the run; :attr:`code` is the exit status, 128 + the signal number.

    A ``BaseException`` (like ``KeyboardInterrupt``), so ``except Exception`` never keeps a
    run going after it.
    """

    def __init__(self, signum: int, message: str = "") -> None:
        self.signum = signum
        self.code = 128 + signum
        self.message = message or f"Interrupted by {signal_name(signum)}."
        super().__init__(self.message)


def signal_name(signum: int) -> str:
    """``SIGINT``, ``SIGTERM``, ... (the number when the platform has no name for it)."""
    try:
        return signal.Signals(signum).name
    except ValueError:
        return f"signal {signum}"


class StopSignals:
    """Catches SIGINT and SIGTERM for the length of a ``with`` block (main thread only).

    Elsewhere (another thread, where Python cannot set handlers) it does nothing and the
    signals keep their usual behaviour.
    """

    def __init__(self) -> None:
        self.received: int | None = None
        self._interruptible = False
        self._saved: list[tuple[signal.Signals, Any]] = []

    def __enter__(self) -> StopSignals:
        if threading.current_thread() is threading.main_thread():
            for sig in SIGNALS:
                self._saved.append((sig, signal.signal(sig, self._handle)))
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        while self._saved:
            sig, handler = self._saved.pop()
            signal.signal(sig, handler)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        first = self.received is None
        if first:
            self.received = signum
        if self._interruptible or not first:
            raise Interrupted(self.received or signum)

    def check(self) -> None:
        """Raise :class:`Interrupted` when a signal arrived while it had to wait."""
        if self.received is not None:
            raise Interrupted(self.received)

    @contextmanager
    def interruptible(self) -> Iterator[None]:
        """A block a signal may cut short: nothing it leaves half done is kept."""
        self.check()
        self._interruptible = True
        try:
            yield
        finally:
            self._interruptible = False


@contextmanager
def blocked() -> Iterator[None]:
    """Hold back SIGINT and SIGTERM in this thread for a moment (they arrive afterwards).

    Worker processes started inside inherit the block, so a signal sent to the whole process
    group while a worker is still starting up cannot kill it with a traceback; the worker's
    :func:`ignore_interrupts` lifts it.
    """
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or not SIGNALS:
        yield
        return
    old = mask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, old)


def ignore_interrupts() -> None:
    """In a worker process: ignore SIGINT (the main process decides), keep SIGTERM deadly."""
    if hasattr(signal, "SIGINT"):
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGTERM"):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is not None and SIGNALS:
        mask(signal.SIG_UNBLOCK, SIGNALS)
