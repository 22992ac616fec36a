"""``tooletta learn`` and learned formats in ``tooletta list-dialects``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from support import PYTEST
from tooletta.cli import cli

pytest.importorskip("jinja2")


pytestmark = pytest.mark.usefixtures("forget_learned")
"""Formats learned here are forgotten after this module (``tests/conftest.py``)."""


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


ODD_HISTORY = (
    "{% for m in messages %}{% if m.role == 'assistant' %}<|a|>"
    "{% if loop.index0 % 4 == 3 %}<think>{{ m.reasoning_content or '' }}</think>{% endif %}"
    "{{ m.content }}<|end|>{% else %}<|{{ m.role[0] }}|>{{ m.content }}<|end|>{% endif %}"
    "{% endfor %}{% if add_generation_prompt %}<|a|>{% endif %}"
)
"""A made-up template keeping the reasoning of every other assistant turn: no history rule."""


def test_learn_refuses_with_the_reason(tmp_path: Path) -> None:
    template = tmp_path / "odd.jinja"
    template.write_text(ODD_HISTORY, encoding="utf-8")
    result = CliRunner().invoke(cli, ["learn", str(template), "--name", "cli-odd"])
    assert result.exit_code == 1
    assert result.output.startswith("refused: probe 'reasoning-history': no history rule")


def test_learn_lenient_lists_deviations() -> None:
    template = str(TEMPLATES / "Bielik-11B-v3.0-Instruct.jinja")
    result = CliRunner().invoke(cli, ["learn", template, "--name", "cli-bielik", "--lenient"])
    assert result.exit_code == 0, result.output
    assert "installed dialect 'hermes'" in result.output
    assert "deviation (kept the consistent form): probe 'results+system'" in result.output


def test_emit_plugin_writes_a_distribution_whose_tests_pass(tmp_path: Path) -> None:
    import os
    import subprocess

    out = tmp_path / "plugin"
    template = str(TEMPLATES / "Reka-Edge.jinja")
    result = CliRunner().invoke(
        cli, ["learn", template, "--name", "cli-reka-plugin", "--emit-plugin", str(out)]
    )
    assert result.exit_code == 0, result.output
    package = out / "src" / "tooletta_dialect_cli_reka_plugin"
    spec = json.loads((package / "spec.json").read_text(encoding="utf-8"))
    assert spec["name"] == "cli-reka-plugin"
    assert (out / "tests" / "templates" / "Reka-Edge.jinja").read_bytes() == Path(
        template
    ).read_bytes()
    assert 'cli_reka_plugin = "tooletta_dialect_cli_reka_plugin"' in (
        out / "pyproject.toml"
    ).read_text(encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(out / "src")}
    run = subprocess.run(
        [*PYTEST, str(out / "tests")],
        cwd=out,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-2000:]
    again = CliRunner().invoke(cli, ["learn", template, "--emit-plugin", str(out)])
    assert again.exit_code != 0  # the directory is not empty
