"""The ``tooletta`` command line: list, detect, parse, render and convert tool-call text;
render whole conversations (``render-chat``) and tokenize them for training (``tokenize``).

User mistakes print one line on stderr and exit non-zero, never a traceback. Exit codes:
0 success; 1 nothing found (``detect``) or bad rows in a ``--jsonl`` run; 2 usage errors
(click's own, a ``--reject`` file that cannot be opened, and an unknown dialect or model
name: a bad option value); 3 a tooletta error (malformed input in strict mode, a tokenizer
that does not fit the model, a worker process that died, ...); 130 and 143 a
``--jsonl`` run stopped by SIGINT (Ctrl-C) or SIGTERM (128 + the signal number); 130 too,
with nothing printed, for Ctrl-C at any other time, start-up included (the commands are
imported inside :func:`main`'s guard). How the lines of a ``--jsonl`` run map to output and
rejects: :mod:`tooletta.cli.jsonl`.

The click group lives in :mod:`tooletta.cli.app`; ``cli`` and the other names of that module
are importable from here too (loaded on first use).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import TOOLETTA_ERROR_EXIT, cli

__all__ = ["TOOLETTA_ERROR_EXIT", "cli", "main"]

_INTERRUPTED = 130


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``tooletta`` console script: the command line, and a Ctrl-C
    anywhere in it (loading the commands and the plugins included) exits 130 quietly."""
    try:
        from .app import run

        run(argv)
    except KeyboardInterrupt:
        _interrupted()


def _interrupted() -> None:
    """Exit 130 without a traceback."""
    sys.exit(_INTERRUPTED)


def __getattr__(name: str) -> Any:
    """``cli`` and the other names of :mod:`tooletta.cli.app`, imported on first use."""
    import importlib

    app = importlib.import_module(f"{__name__}.app")  # (sets this package's ``app``)
    if name == "app":
        return app
    try:
        return getattr(app, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
