"""First-party distributions are read from ``tooletta-dialects``' dependencies: a new family
is one line in the metapackage, no core edit; ``SHIPPED`` answers without metadata and stands
in when the metapackage is not installed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest

from support import ROOT
from tooletta import precedence
from tooletta.precedence import SHIPPED, first_party, is_first_party


@pytest.fixture()
def requires(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """Metadata read afresh in the test (not the list the plugin index remembered), and
    again after it."""
    precedence.remember_metapackage(None)
    yield monkeypatch
    monkeypatch.undo()
    precedence.remember_metapackage(None)


def _metapackage_dependencies() -> set[str]:
    meta = (ROOT / "tooletta-dialects" / "pyproject.toml").read_text()
    return set(re.findall(r'^\s*"(tooletta-[a-z0-9-]+)==', meta, re.MULTILINE))


def test_the_list_is_the_metapackage_dependencies() -> None:
    dependencies = _metapackage_dependencies()
    assert first_party() == precedence.FIRST_PARTY == dependencies
    assert dependencies >= SHIPPED  # a family may leave only with a core edit
    assert "tooletta-core" in SHIPPED


def test_a_new_family_in_the_metapackage_is_first_party(requires: pytest.MonkeyPatch) -> None:
    real = metadata.requires

    def fake(name: str) -> list[str] | None:
        if name != precedence.METAPACKAGE:
            return real(name)
        return [
            *(real(name) or []),
            "tooletta-dialect-newfamily==0.3.0",
            "Tooletta_Dialect.Spaced >=1",
            'tooletta-dialect-optional==1; extra == "more"',
            "pluggy>=1",
        ]

    installed = first_party()
    requires.setattr(metadata, "requires", fake)
    precedence.remember_metapackage(None)
    assert is_first_party("tooletta-dialect-newfamily")
    assert is_first_party("tooletta_dialect_spaced")
    assert not is_first_party("tooletta-dialect-optional")  # an extra is not installed by it
    assert not is_first_party("pluggy")  # only tooletta's own names can be first-party
    assert not is_first_party("acme-dialect")
    added = precedence.FIRST_PARTY - installed
    assert added == {"tooletta-dialect-newfamily", "tooletta-dialect-spaced"}


def test_without_the_metapackage_the_shipped_list_stands_in(
    requires: pytest.MonkeyPatch,
) -> None:
    def missing(name: str) -> list[str] | None:
        raise metadata.PackageNotFoundError(name)

    requires.setattr(metadata, "requires", missing)
    assert precedence.FIRST_PARTY == SHIPPED
    assert is_first_party("tooletta-dialect-glm")
    assert is_first_party("tooletta-core")
    assert not is_first_party("tooletta-dialect-newfamily")


def test_shipped_names_read_no_metadata(requires: pytest.MonkeyPatch) -> None:
    def unreachable(name: str) -> list[str] | None:
        raise AssertionError("metadata read for a shipped or third-party name")

    requires.setattr(metadata, "requires", unreachable)
    assert is_first_party("tooletta-dialect-hermes")
    assert not is_first_party("acme-hermes")
    assert not is_first_party(None)


def _two_starts(tmp_path: Path, code: str) -> list[str]:
    """What ``code`` prints in a first start (no plugin index yet) and in a warm start (from
    the index the first wrote), each a fresh interpreter with every plugin loaded."""
    env = {**os.environ, "TOOLETTA_CACHE_DIR": str(tmp_path / "cache")}
    for var in ("TOOLETTA_NO_CACHE", "TOOLETTA_LOAD_PLUGINS", "TOOLETTA_DISABLE_PLUGINS"):
        env.pop(var, None)
    return [
        subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        ).stdout.strip()
        for _ in range(2)
    ]


def test_a_warm_start_imports_no_metadata(tmp_path: Path) -> None:
    """Loading plugins from the index (the second start) decides first-party without
    importing ``importlib.metadata``."""
    code = (
        "import sys, tooletta\n"
        "tooletta.list_dialects()\n"
        'tooletta.parse(\'<tool_call>{"name": "f", "arguments": {}}</tool_call>\', \'hermes\')\n'
        "print('importlib.metadata' in sys.modules)\n"
    )
    runs = _two_starts(tmp_path, code)
    assert runs[1] == "False", runs


def test_a_family_only_the_metapackage_lists_needs_no_core_edit(tmp_path: Path) -> None:
    """A first-party family :data:`SHIPPED` does not list (``tooletta-dialect-bailing``, added
    after that list, stands for every later one) is first-party on the first start (read from
    the metapackage) and on a warm start (from the plugin index), without metadata then."""
    code = (
        "import sys, tooletta\n"
        "from tooletta import precedence\n"
        "tooletta.list_dialects()\n"
        "later = sorted(precedence.metapackage_dependencies() - precedence.SHIPPED)\n"
        "print(later, all(map(precedence.is_first_party, later)),"
        " 'importlib.metadata' in sys.modules)\n"
    )
    runs = _two_starts(tmp_path, code)
    assert "tooletta-dialect-bailing" not in SHIPPED
    assert runs[0].startswith("['tooletta-dialect-bailing'") and " True " in runs[0], runs
    assert runs[1] == runs[0].rsplit(" ", 1)[0] + " False", runs
