"""The ``tooletta`` command line: list, detect, parse, render and convert tool-call text;
render whole conversations (``render-chat``) and tokenize them for training (``tokenize``).

User mistakes print one line on stderr and exit non-zero, never a traceback. Exit codes:
0 success; 1 nothing found (``detect``) or bad rows in a ``--jsonl`` run; 2 usage errors
(click's own, and a ``--reject`` file that cannot be opened); 3 a tooletta error (unknown
dialect, malformed input in strict mode, a worker process that died, ...); 130 and 143 a
``--jsonl`` run stopped by SIGINT (Ctrl-C) or SIGTERM (128 + the signal number). How the
lines of a ``--jsonl`` run map to output and rejects: :mod:`tooletta.cli.jsonl`.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from ..errors import ToolettaError
from .chat import render_chat_cmd, tokenize_cmd
from .commands import convert_cmd, detect_cmd, list_dialects_cmd, parse_cmd, render_cmd
from .learn import learn_cmd
from .stop import Interrupted

__all__ = ["cli", "main"]

TOOLETTA_ERROR_EXIT = 3


class _Group(click.Group):
    """Turns tooletta errors into one clean line; loads plugin commands lazily."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ToolettaError as exc:
            click.echo(f"Error: {exc}", err=True)
            ctx.exit(TOOLETTA_ERROR_EXIT)
        except Interrupted as exc:  # a --jsonl run stopped by SIGINT or SIGTERM
            click.echo(exc.message, err=True)
            ctx.exit(exc.code)
        except BrokenPipeError:
            # the reader went away (``| head``): stop quietly, as Unix tools do
            _silence_stdout()
            ctx.exit(0)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tooletta-core", prog_name="tooletta")
def cli() -> None:
    """Parse, stream and render LLM tool calls across model dialects.

    With --jsonl, every input line is accounted for, in order: a good row's result (or, for a
    blank line, a blank line) goes to stdout; a bad row is named on stderr ("line N: reason")
    and written as it was to the --reject file. With no bad rows, output line N is input line
    N. Ctrl-C or SIGTERM stops the run between two batches: output and rejects then hold
    exactly input lines 1 to K, and the closing line on stderr names K.

    \b
    Exit codes: 0 success; 1 nothing detected, or bad --jsonl rows; 2 usage error;
    3 tooletta error; 130 stopped by SIGINT; 143 stopped by SIGTERM.
    """


cli.add_command(list_dialects_cmd)
cli.add_command(detect_cmd)
cli.add_command(parse_cmd)
cli.add_command(render_cmd)
cli.add_command(convert_cmd)
cli.add_command(render_chat_cmd)
cli.add_command(tokenize_cmd)
cli.add_command(learn_cmd)


def _plugin_commands() -> None:
    from ..plugins import get_plugin_manager

    try:
        get_plugin_manager().hook.register_commands(cli=cli)
    except Exception as exc:  # a broken plugin must not break the CLI
        click.echo(f"warning: a plugin failed to add commands: {exc}", err=True)


def _silence_stdout() -> None:
    """Point stdout at the null device so the interpreter's last flush cannot fail."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``tooletta`` console script."""
    _plugin_commands()
    try:
        cli.main(args=argv, prog_name="tooletta", standalone_mode=True)
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(0)
