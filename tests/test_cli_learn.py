"""``tooletta learn`` and learned formats in ``tooletta list-dialects``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tooletta.cli import cli

pytest.importorskip("jinja2")

TEMPLATES = Path(__file__).parent / "fixtures" / "templates"


def test_learn_prints_the_verdict_and_saves(tmp_path: Path) -> None:
    saved = tmp_path / "reka.json"
    template = str(TEMPLATES / "Reka-Edge.jinja")
    result = CliRunner().invoke(
        cli, ["learn", template, "--name", "cli-reka", "--save", str(saved)]
    )
    assert result.exit_code == 0, result.output
    assert "learned as 'cli-reka'" in result.output
    assert "closed-loop checks passed" in result.output
    assert json.loads(saved.read_text(encoding="utf-8"))["name"] == "cli-reka"
    listed = CliRunner().invoke(cli, ["list-dialects", "--json", "--learned", str(saved)])
    rows = {row["name"]: row for row in json.loads(listed.output)}
    assert rows["cli-reka"]["learned"] is True
    assert rows["cli-reka"]["source"].endswith("Reka-Edge.jinja")
    assert rows["hermes"]["learned"] is False


def test_learn_refuses_with_the_reason() -> None:
    template = str(TEMPLATES / "llama-cpp-rwkv-world.jinja")
    result = CliRunner().invoke(cli, ["learn", template, "--name", "cli-rwkv"])
    assert result.exit_code == 1
    assert result.output.startswith("refused: probe 'multiline'")


def test_learn_lenient_lists_deviations() -> None:
    template = str(TEMPLATES / "Bielik-11B-v3.0-Instruct.jinja")
    result = CliRunner().invoke(cli, ["learn", template, "--name", "cli-bielik", "--lenient"])
    assert result.exit_code == 0, result.output
    assert "installed dialect 'hermes'" in result.output
    assert "deviation (kept the consistent form): probe 'results+system'" in result.output
