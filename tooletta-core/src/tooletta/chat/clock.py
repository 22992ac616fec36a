"""The clock behind ``strftime_now``: one source of "now" for native formats and the Jinja
renderer, so a test can hold it still while it renders the same conversation twice (a
template that writes the time to the second otherwise differs between two renders)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime

_source: Callable[[], datetime] = datetime.now


def now() -> datetime:
    """The current local time (or the frozen one inside :func:`frozen`)."""
    return _source()


@contextmanager
def frozen(when: datetime) -> Iterator[datetime]:
    """Within the block, every ``strftime_now`` (native and Jinja) formats ``when``.

    Not thread-safe by design: it is a testing aid. Pin one render's time with the
    ``strftime_now`` option instead."""
    global _source
    previous = _source
    _source = lambda: when  # noqa: E731
    try:
        yield when
    finally:
        _source = previous
