"""The plugin index: a fast start that imports plugins only when used, kept current.

Each check runs in fresh processes (the index matters at start-up) with the index in a
temporary folder, and with a throw-away plugin distribution (``acme``) on ``PYTHONPATH``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import TypedDict

import pytest

PLUGIN = """
from tooletta import DialectInfo, ParseResult, hookimpl


class Acme:
    info = DialectInfo(name="{name}", aliases=("acme-private",), priority=5, markers=("<<acme>>",))

    def parse(self, text, tools=None):
        return ParseResult(content=text.replace("<<acme>>", ""), dialect="{name}")

    def render(self, calls, content=""):
        return content + "<<acme>>"


@hookimpl
def register_dialects(register):
    register(Acme())
"""

PROBE = """
import json, sys
import tooletta
names = [i.name for i in tooletta.list_dialects()]
plugins = sorted(m for m in sys.modules if m.startswith(("tooletta_dialect_", "acme_")))
used = {}
for name in sys.argv[1:]:
    used[name] = tooletta.parse("hi <<acme>>", name).content
    used[name + "_modules"] = sorted(m for m in sys.modules if m.startswith("tooletta_dialect_"))
print(json.dumps({"names": names, "imported": plugins, "used": used}))
"""


@pytest.fixture()
def env(tmp_path: Path) -> dict[str, str]:
    """An environment with its own index folder and the ``acme`` plugin distribution."""
    site = tmp_path / "site"
    site.mkdir()
    _write_plugin(site, "acme")
    info = site / "acme_dialect-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-dialect\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tooletta]\nacme = acme_dialect\n")
    out = dict(os.environ)
    out.pop("TOOLETTA_NO_CACHE", None)
    out.pop("TOOLETTA_LOAD_PLUGINS", None)
    out.pop("TOOLETTA_DISABLE_PLUGINS", None)
    out["TOOLETTA_CACHE_DIR"] = str(tmp_path / "cache")
    out["PYTHONPATH"] = os.pathsep.join([str(site), *filter(None, [os.environ.get("PYTHONPATH")])])
    return out


def _write_plugin(site: Path, name: str) -> None:
    path = site / "acme_dialect.py"
    old = path.stat().st_mtime_ns if path.exists() else 0
    path.write_text(textwrap.dedent(PLUGIN.format(name=name)))
    if path.stat().st_mtime_ns == old:  # a coarse clock: make the change visible
        os.utime(path, ns=(old + 10**9, old + 10**9))


class Probe(TypedDict):
    """What :data:`PROBE` prints: the dialects listed, the plugin modules imported, and per
    dialect used its parse's content and (``<name>_modules``) the plugin modules then imported."""

    names: list[str]
    imported: list[str]
    used: dict[str, str | list[str]]


def _probe(env: dict[str, str], *use: str) -> Probe:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *use],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: Probe = json.loads(out.stdout)
    return result


def test_listing_from_the_index_imports_no_plugin(env: dict[str, str]) -> None:
    first = _probe(env)
    assert "acme" in first["names"] and "hermes" in first["names"]
    assert list(Path(env["TOOLETTA_CACHE_DIR"]).glob("plugins-*.json"))
    second = _probe(env)
    assert second["names"] == first["names"]
    assert second["imported"] == []  # every plugin came from the index
    # the same list as loading everything without an index
    assert _probe({**env, "TOOLETTA_NO_CACHE": "1"})["names"] == first["names"]


def test_using_a_dialect_imports_only_its_plugin(env: dict[str, str]) -> None:
    _probe(env)
    got = _probe(env, "acme", "hermes")
    used = got["used"]
    assert used["acme"] == "hi "
    assert used["acme_modules"] == []
    hermes = used["hermes_modules"]  # only the hermes plugin's package (and its own modules)
    assert {m.partition(".")[0] for m in hermes} == {"tooletta_dialect_hermes"}


def test_an_edited_plugin_is_read_again(env: dict[str, str]) -> None:
    assert "acme" in _probe(env)["names"]
    site = Path(env["PYTHONPATH"].split(os.pathsep)[0])
    _write_plugin(site, "acme_renamed")
    got = _probe(env)
    assert "acme_renamed" in got["names"] and "acme" not in got["names"]
    assert _probe(env)["imported"] == []  # and indexed again


EDIT_ON_IMPORT = """
import os as _os

if _os.environ.get("ACME_EDIT_ON_IMPORT"):
    with open(__file__, "w") as _file:
        _file.write(_os.environ["ACME_EDIT_ON_IMPORT"])
"""


def test_a_plugin_edited_while_it_loads_is_not_indexed_as_its_new_text(
    env: dict[str, str],
) -> None:
    """A file changed between its import and the index's writing (the plugin rewrites its own
    file while it loads) leaves no record: one taken then would carry the new file's time
    with what the old text registered, and pass for current in every later process."""
    site = Path(env["PYTHONPATH"].split(os.pathsep)[0])
    (site / "acme_dialect.py").write_text(
        textwrap.dedent(PLUGIN.format(name="acme")) + EDIT_ON_IMPORT
    )
    renamed = textwrap.dedent(PLUGIN.format(name="acme_renamed"))
    first = _probe({**env, "ACME_EDIT_ON_IMPORT": renamed})
    assert "acme" in first["names"]  # what the text it imported registered
    second = _probe(env)
    assert "acme_renamed" in second["names"] and "acme" not in second["names"]
    assert _probe(env)["imported"] == []  # and indexed once its file stood still


def test_an_uninstalled_plugin_disappears(env: dict[str, str]) -> None:
    assert "acme" in _probe(env)["names"]
    site = Path(env["PYTHONPATH"].split(os.pathsep)[0])
    info = site / "acme_dialect-1.0.dist-info"
    for f in info.iterdir():
        f.unlink()
    info.rmdir()
    time.sleep(0.01)
    os.utime(site)  # what an uninstall does to the folder
    assert "acme" not in _probe(env)["names"]


def test_a_broken_plugin_is_reported_on_every_start(env: dict[str, str]) -> None:
    site = Path(env["PYTHONPATH"].split(os.pathsep)[0])
    (site / "acme_dialect.py").write_text("raise RuntimeError('acme is broken')\n")
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-m", "tooletta.cli", "list-dialects"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert "acme is broken" in out.stderr
        assert "hermes" in out.stdout


def test_an_unwritable_cache_folder_costs_only_speed(env: dict[str, str], tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    got = _probe({**env, "TOOLETTA_CACHE_DIR": str(blocker / "cache")})
    assert "acme" in got["names"]


def test_no_cache_writes_nothing(env: dict[str, str]) -> None:
    _probe({**env, "TOOLETTA_NO_CACHE": "1"})
    assert not Path(env["TOOLETTA_CACHE_DIR"]).exists()


def test_a_corrupt_index_is_rebuilt(env: dict[str, str]) -> None:
    _probe(env)
    (index,) = Path(env["TOOLETTA_CACHE_DIR"]).glob("plugins-*.json")
    index.write_text("{not json")
    assert "acme" in _probe(env)["names"]
    assert _probe(env)["imported"] == []
