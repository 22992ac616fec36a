"""Ctrl-C at start-up exits 130 quietly (issue 22, item 11): not a traceback (an interrupt
while the plugins load or the commands are imported), nor click's ``Aborted!`` with exit 1
(an interrupt while the command line is read or the command starts)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import click
import pytest

import tooletta
from tooletta import cli as cli_module
from tooletta.cli import app


def _raise(*args: Any, **kwargs: Any) -> Any:
    raise KeyboardInterrupt


def _exit_code(capsys: pytest.CaptureFixture[str], argv: list[str]) -> int:
    with pytest.raises(SystemExit) as exc:
        cli_module.main(argv)
    out, err = capsys.readouterr()
    assert out == "" and err == "", (out, err)
    return int(exc.value.code or 0)


def test_interrupt_while_plugins_load(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(app, "_plugin_commands", _raise)
    assert _exit_code(capsys, ["list-dialects"]) == 130


def test_interrupt_while_the_command_line_is_read(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(click.Group, "make_context", _raise)
    assert _exit_code(capsys, ["list-dialects"]) == 130


def test_interrupt_while_the_command_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(tooletta, "list_dialects", _raise)
    monkeypatch.setattr("tooletta.cli.commands.list_dialects", _raise, raising=False)
    monkeypatch.setattr(click.Command, "invoke", _raise)
    assert _exit_code(capsys, ["list-dialects"]) == 130


def test_interrupt_while_the_commands_are_imported(tmp_path: Any) -> None:
    """The click group is imported inside ``main``'s guard: an interrupt there (stood for by
    a ``tooletta.cli.app`` that raises on import) exits 130 with nothing on stderr."""
    script = textwrap.dedent(
        """
        import sys
        import tooletta.cli as entry

        class Finder:
            def find_spec(self, name, path=None, target=None):
                if name == "tooletta.cli.app":
                    raise KeyboardInterrupt
                return None

        sys.meta_path.insert(0, Finder())
        entry.main(["list-dialects"])
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 130, done
    assert done.stderr == "" and done.stdout == "", done


def test_other_commands_are_unchanged(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text("no calls here", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        cli_module.main(["detect", str(plain)])  # nothing detected
    assert exc.value.code == 1
    assert cli_module.cli is app.cli and cli_module.TOOLETTA_ERROR_EXIT == 3
