"""Reading inputs and writing outputs for the CLI: files or ``-``, JSON, JSON lines."""

from __future__ import annotations

import contextlib
import re
import sys
import warnings
from collections.abc import Iterator
from typing import IO, Any

import msgspec

from ..errors import ToolettaError, ToolettaWarning

__all__ = [
    "InputError",
    "OutputError",
    "WorkerError",
    "caught_warnings",
    "dump",
    "echo_line",
    "json_problem",
    "load_json",
    "read_text",
    "warnings_to_stderr",
]

_encoder = msgspec.json.Encoder()
# a \uD800-\uDFFF escape that is not itself escaped (an even run of backslashes before it)
_SURROGATE = re.compile(r"(?<!\\)(?:\\\\)*\\u([dD][89a-fA-F][0-9a-fA-F]{2})")
_LOW_SURROGATE = re.compile(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}")


class InputError(ToolettaError):
    """Input the CLI could not read (not UTF-8, not JSON, wrong shape)."""


class OutputError(ToolettaError):
    """Output the CLI could not write (a reject file that fails mid-run)."""


class WorkerError(ToolettaError):
    """A worker process of a ``--jobs`` run died (killed, out of memory): the run stops.

    Defined here, not in :mod:`.workers`, so that a run without workers never imports
    :mod:`multiprocessing`; :mod:`.workers` exports it too."""


def read_text(source: IO[bytes]) -> str:
    """All of ``source`` as text (UTF-8, strict)."""
    data = source.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"input is not UTF-8 text (byte {exc.start})") from None


def load_json(text: str, what: str) -> Any:
    """Decode JSON input, with a one-line error naming ``what`` it should be."""
    if not text.strip():
        raise InputError(f"empty input: expected {what}")
    try:
        return msgspec.json.decode(text)
    except (msgspec.DecodeError, UnicodeError) as exc:
        raise InputError(f"input is not valid JSON ({what}): {json_problem(text, exc)}") from None
    except RecursionError:
        raise InputError(f"input JSON is nested too deeply ({what})") from None


def json_problem(data: bytes | str, exc: Exception) -> str:
    """Why ``data`` did not decode as JSON, in words (called only once decoding failed).

    Bytes that are not UTF-8 and escapes of lone UTF-16 surrogates (``"\\ud800"``, which
    msgspec reports as truncated input) are named as such; otherwise the decoder's message.
    """
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as bad:
            return f"not UTF-8 text (byte {bad.start})"
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    lone = _lone_surrogate(data)
    if lone is not None:
        escape, at = lone
        return f"lone surrogate {escape} at byte {at} (half of a UTF-16 pair is not text)"
    return str(exc)


def _lone_surrogate(text: str) -> tuple[str, int] | None:
    """The first JSON escape of an unpaired surrogate and its byte offset, if any."""
    pos = 0
    while (match := _SURROGATE.search(text, pos)) is not None:
        unit = int(match.group(1), 16)
        pos = match.end()
        if unit < 0xDC00 and (low := _LOW_SURROGATE.match(text, pos)) is not None:
            pos = low.end()  # a high surrogate followed by a low one: a proper pair
            continue
        start = match.start(1) - 2
        return f"\\u{match.group(1)}", len(text[:start].encode("utf-8", "surrogatepass"))
    return None


def dump(value: Any) -> str:
    """Compact JSON, one line, UTF-8 kept."""
    return _encoder.encode(value).decode()


def echo_line(text: str) -> None:
    """Write one output line to stdout."""
    sys.stdout.write(text)
    sys.stdout.write("\n")


@contextlib.contextmanager
def caught_warnings() -> Iterator[list[str]]:
    """Collect the :class:`~tooletta.ToolettaWarning` messages raised inside, every time
    (the usual once-per-place filter would hide repeats); other warnings pass on."""
    found: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ToolettaWarning)
        try:
            yield found
        finally:
            for w in caught:
                if issubclass(w.category, ToolettaWarning):
                    found.append(str(w.message))
                else:
                    warnings.showwarning(w.message, w.category, w.filename, w.lineno)


@contextlib.contextmanager
def warnings_to_stderr() -> Iterator[None]:
    """Print the tooletta warnings raised inside as ``warning:`` lines on stderr."""
    found: list[str] = []
    try:
        with caught_warnings() as found:
            yield
    finally:
        for message in found:
            sys.stderr.write(f"warning: {message}\n")
