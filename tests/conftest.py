"""Shared fixtures for the core and cross-dialect tests."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from support import ROOT, run, uv


@pytest.fixture(scope="session")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Wheels of tooletta-core and the hermes plugin, built once per session."""
    out = tmp_path_factory.mktemp("wheels")
    for project in ("tooletta-core", "plugins/tooletta-dialect-hermes"):
        run([*uv(), "build", "--wheel", "--out-dir", str(out), str(ROOT / project)], cwd=ROOT)
    return out


@pytest.fixture()
def fresh_venv(tmp_path: Path) -> Iterator[Path]:
    """A new, empty virtual environment (its python path is yielded)."""
    venv = tmp_path / "venv"
    run([*uv(), "venv", "--quiet", str(venv), "--python", sys.executable])
    yield venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


@pytest.fixture()
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """A registry loaded anew for the test and forgotten after it (the test's monkeypatch is
    yielded, undone before the registry is reset; a module may define its own ``fresh``)."""
    from tooletta import plugins

    plugins.reset()
    yield monkeypatch
    monkeypatch.undo()
    plugins.reset()


@pytest.fixture(scope="module")
def forget_learned() -> Iterator[None]:
    """Formats learned in a module are registered in-process: forgotten after that module, so
    that later modules see only the installed dialects (a module that learns may say
    ``pytestmark = pytest.mark.usefixtures("forget_learned")``; :func:`_learned_forgotten`
    does the same for every module that forgets to)."""
    yield
    from tooletta import plugins

    plugins.reset()


@pytest.fixture(scope="module", autouse=True)
def _learned_forgotten() -> Iterator[None]:
    """After every module: when a learned format is left registered, the registry is reloaded
    (only then: reloading costs the plugins' discovery), so that no module depends on what an
    earlier one learned."""
    yield
    from tooletta import plugins

    registry = plugins.get_registry()
    if any(entry.plugin.startswith("learned (") for entry in registry.entries):
        plugins.reset()


@pytest.fixture(autouse=True)
def _frozen_clock() -> Iterator[None]:
    """Every test renders with one fixed time: several templates write today's date (one, to
    the second), and tests compare two renders of one conversation."""
    from tooletta.chat import clock
    from tooletta.testing.conversations import FROZEN_TIME

    with clock.frozen(FROZEN_TIME):
        yield
