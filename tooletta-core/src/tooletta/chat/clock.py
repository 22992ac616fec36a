"""The clock behind ``strftime_now``: one source of "now" for native formats and the Jinja
renderer, so a test can hold it still while it renders the same conversation twice (a
template that writes the time to the second otherwise differs between two renders)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime

_source: Callable[[], datetime] = datetime.now


def now() -> datetime:
    """The current local time (or the frozen one inside :func:`frozen`)."""
    return _source()


def formatted(fmt: str) -> str:
    """``now().strftime(fmt)``; a format of date fields only (``%Y %m %d %y %j``, ``%%`` and
    plain text: no locale, no time of day) is formatted once per day (``strftime`` costs a
    few microseconds, and a template writes today's date in every conversation)."""
    when = _source()
    if type(when) is not datetime:  # a frozen value of another type: its own strftime
        return when.strftime(fmt)
    date_only = _DATE_ONLY.get(fmt)
    if date_only is None:
        if len(_DATE_ONLY) > 256:
            _DATE_ONLY.clear()
        date_only = _DATE_ONLY[fmt] = _DATE_FIELDS.fullmatch(fmt) is not None
    if not date_only:
        return when.strftime(fmt)
    key = (fmt, when.year, when.month, when.day)
    text = _DAYS.get(key)
    if text is None:
        if len(_DAYS) > 256:
            _DAYS.clear()
        text = _DAYS[key] = when.strftime(fmt)
    return text


_DATE_FIELDS = re.compile(r"(?:[^%]|%[Ymdyj%])*")
"""A ``strftime`` format whose text depends on the date alone, and not on the locale."""
_DATE_ONLY: dict[str, bool] = {}
_DAYS: dict[tuple[str, int, int, int], str] = {}


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


class PinnedDate:
    """A ``strftime_now`` option that formats one day (at midnight) whenever it is asked:
    ``render_conversation(..., strftime_now=PinnedDate(date(2026, 1, 5)))``. Templates that
    write today's date (Llama 3.2, GLM, Gemma 4, Apertus...) otherwise give another text, and
    other token ids, every day; a dataset tokenized twice must pin it. Picklable (worker
    processes get the same day)."""

    def __init__(self, day: date) -> None:
        self.when = datetime(day.year, day.month, day.day)

    def __call__(self, fmt: str) -> str:
        """``fmt`` formatted for the pinned day."""
        return self.when.strftime(fmt)

    def __repr__(self) -> str:
        return f"PinnedDate({self.when.date().isoformat()})"
