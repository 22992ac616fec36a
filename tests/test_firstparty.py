"""Dialects that live in a plugin that is not installed (or not loaded) name the install
command; names that mean another format elsewhere (vLLM's ``openai``) say so."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import pytest

import tooletta
from tooletta import firstparty
from tooletta.installed import installed_model_table, installed_table
from tooletta.precedence import is_first_party
from tooletta.registry import Problem, Registry

HARMONY = (
    "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>"
    'commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>'
)


def test_the_table_matches_the_installed_plugins() -> None:
    """Every first-party plugin is installed in the workspace: the static table must say
    exactly what their registry says (regenerate: scripts/gen_firstparty.py)."""
    installed = installed_table()
    assert len(set(installed.values())) >= 30  # really every plugin
    assert installed == firstparty.DIALECT_DISTRIBUTIONS, "run: python scripts/gen_firstparty.py"
    assert all(is_first_party(d) for d in installed.values())


def test_missing_plugin_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(firstparty, "_installed", lambda dist: False)
    with pytest.raises(tooletta.UnknownDialectError) as err:
        Registry().get("GLM4-MoE")  # an alias, spelled loosely
    assert "pip install tooletta-dialect-glm" in str(err.value)


def test_installed_but_broken_plugin_says_why() -> None:
    registry = Registry(problems=[Problem("glm", "failed to load: ImportError: boom")])
    with pytest.raises(tooletta.UnknownDialectError, match="installed but failed to load: Imp"):
        registry.get("glm45")


def test_unknown_names_still_list_the_known_ones() -> None:
    with pytest.raises(tooletta.UnknownDialectError, match=r"unknown dialect 'nope' \(known: "):
        tooletta.get_dialect("nope")


def _cli_without_glm(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    """The ``tooletta`` command run in a fresh interpreter with the GLM plugin disabled."""
    env = {**os.environ, "TOOLETTA_DISABLE_PLUGINS": "glm", "TOOLETTA_NO_CACHE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "tooletta.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def test_plugin_left_out_by_the_environment_says_so() -> None:
    done = _cli_without_glm(["parse", "-d", "glm47"], "x")
    assert done.returncode == 2  # an unknown dialect name is a usage error (issue 24)
    assert "tooletta-dialect-glm, which is installed but not loaded" in done.stderr


def test_openai_on_harmony_text_points_at_harmony() -> None:
    with pytest.warns(tooletta.ToolettaWarning, match="use -d harmony"):
        result = tooletta.parse(HARMONY, "openai")
    assert result.calls == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tooletta.parse('{"name": "f", "arguments": {}}', "openai")  # calls found: quiet
        tooletta.parse("plain text", "openai")  # no Harmony markers: quiet
        assert tooletta.parse(HARMONY, "harmony").calls


def test_cli_openai_on_harmony_text_warns_on_stderr() -> None:
    from click.testing import CliRunner

    from tooletta.cli import cli

    result = CliRunner().invoke(cli, ["parse", "-d", "openai"], input=HARMONY)
    assert result.exit_code == 0
    assert (
        result.stderr.startswith("warning: no 'openai' calls found") and "harmony" in result.stderr
    )


def test_an_unknown_model_names_the_plugin_that_knows_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24: a model id whose plugin is not loaded names the plugin and what to do."""
    assert installed_model_table() == firstparty.MODEL_DISTRIBUTIONS, (
        "run: python scripts/gen_firstparty.py"
    )
    assert firstparty.distribution_for_model("zai-org/GLM-4.6") == "tooletta-dialect-glm"
    assert firstparty.distribution_for_model("acme/unheard-of-7b") is None
    monkeypatch.setattr(firstparty, "_installed", lambda dist: False)
    message = firstparty.unknown_model_message("zai-org/GLM-4.6", [])
    assert "comes with tooletta-dialect-glm, which is not installed" in message
    assert "pip install tooletta-dialect-glm" in message
    assert "chat_template=" in firstparty.unknown_model_message("acme/unheard-of-7b", [])


def test_a_disabled_plugin_is_named_for_its_model() -> None:
    done = _cli_without_glm(
        ["render-chat", "-m", "zai-org/GLM-4.6"], '[{"role": "user", "content": "hi"}]'
    )
    assert done.returncode == 2, done.stderr
    assert "tooletta-dialect-glm, which is installed but not loaded" in done.stderr
