"""The ``tooletta`` click group and its error handling (:mod:`tooletta.cli` is the entry
point, which imports this module on first use)."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..errors import ToolettaError, UnknownDialectError
from .chat import render_chat_cmd, tokenize_cmd
from .commands import convert_cmd, detect_cmd, list_dialects_cmd, parse_cmd, render_cmd
from .learn import learn_cmd
from .stop import Interrupted

__all__ = ["TOOLETTA_ERROR_EXIT", "cli", "run"]

TOOLETTA_ERROR_EXIT = 3
USAGE_EXIT = 2


INTERRUPTED_EXIT = 130
"""The exit code of a run stopped by Ctrl-C (SIGINT) outside a ``--jsonl`` run's own
handling: 128 + the signal number, with nothing printed."""


class _Group(click.Group):
    """Turns tooletta errors into one clean line; loads plugin commands lazily; a Ctrl-C
    while the command line is read or a command starts exits 130 quietly (click would print
    ``Aborted!`` and exit 1)."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt:
            raise click.exceptions.Exit(INTERRUPTED_EXIT) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            ctx.exit(INTERRUPTED_EXIT)
        except UnknownDialectError as exc:  # a dialect or model name no plugin knows: usage
            click.echo(f"Error: {exc}", err=True)
            ctx.exit(USAGE_EXIT)
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
    Exit codes: 0 success; 1 nothing detected, or bad --jsonl rows; 2 usage error (an
    unknown dialect or model name too); 3 tooletta error; 130 stopped by SIGINT;
    143 stopped by SIGTERM.
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
    from ..plugins import CONTAINED, get_plugin_manager

    try:
        get_plugin_manager().hook.register_commands(cli=cli)
    except CONTAINED as exc:  # a broken plugin must not break the CLI (nor end it)
        click.echo(f"warning: a plugin failed to add commands: {exc}", err=True)


def _silence_stdout() -> None:
    """Point stdout at the null device so the interpreter's last flush cannot fail."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def run(argv: list[str] | None = None) -> None:
    """Add the plugins' commands and run the command line (what :func:`tooletta.cli.main`
    does once this module is imported)."""
    _plugin_commands()
    try:
        cli.main(args=argv, prog_name="tooletta", standalone_mode=True)
    except BrokenPipeError:
        _silence_stdout()
        sys.exit(0)
