"""A new family needs no core edit: ``plugins/_template`` copied into a throwaway plugin works.

The template is copied into a temporary folder and renamed (``example`` -> ``zebra``: the
package ``tooletta_dialect_zebra``, the dialect ``zebra``, the fictional model
``zebra-org/Zebra-1`` and its conversation format ``zebra1``). It is made importable the
way an installed distribution is: its ``src`` folder on ``sys.path`` and, beside it, a
``tooletta_dialect_zebra-<version>.dist-info`` with the ``entry_points.txt`` written from the
copy's own ``pyproject.toml``, so that tooletta finds it through the ``tooletta`` entry-point
group like any plugin (no install, no network). A fresh interpreter then checks parse,
render, stream, ``dialect_for_model``, ``render_conversation(model=...)`` (against the copy's
template, rendered with jinja2), ``parse_conversation`` and ``to_response_template``, and runs
the copy's own conversation and model-row tests (the kit's ``ConversationTests`` and
``ModelRowTests``). Core's sources are the same before and after, and name no ``zebra``.

The ``slow`` test installs the copy for real (``uv pip install --offline`` into a venv of its
own, beside core alone) and runs the same checks there.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import msgspec
import pytest

import tooletta
from support import PYTEST
from tooletta import Message, ToolCall
from tooletta.chat.jinja import render_jinja

REPO = Path(__file__).resolve().parent.parent
TEMPLATE = REPO / "plugins" / "_template"
CORE = Path(tooletta.__file__).resolve().parent
NEW = "zebra"
RENAMES = (("example", NEW), ("Example", NEW.capitalize()), ("EXAMPLE", NEW.upper()))
"""How the copy is renamed (file contents and paths), as the template's pyproject asks."""
OLD = re.compile("(?i)example(?!s)")
"""The template's name, in any case (not hypothesis's ``max_examples``)."""
MODEL = "zebra-org/Zebra-1"


def _rename(text: str) -> str:
    for old, new in RENAMES:
        text = re.sub(f"{old}(?!s)", new, text)
    return text


def copy_template(dest: Path) -> Path:
    """``plugins/_template`` copied to ``dest/tooletta-dialect-zebra``, renamed; its folder."""
    root = dest / _rename("tooletta-dialect-example")
    for path in sorted(TEMPLATE.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        target = root / _rename(path.relative_to(TEMPLATE).as_posix())
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_rename(path.read_text(encoding="utf-8")), encoding="utf-8")
    return root


def toml_table(text: str, header: str) -> dict[str, str]:
    """The ``key = "value"`` lines of the table ``[header]`` of a TOML text (what this test
    reads of a pyproject; ``tomllib`` is not in Python 3.10)."""
    table: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            current = line.strip("[]").strip()
        elif current == header and (m := re.fullmatch(r'([\w.-]+)\s*=\s*"([^"]*)"', line)):
            table[m.group(1)] = m.group(2)
    return table


def write_dist_info(root: Path, site: Path) -> str:
    """A ``.dist-info`` for the plugin in ``root`` under ``site``, from its ``pyproject.toml``
    (name, version, ``tooletta`` entry points); the distribution's name."""
    pyproject = (root / "pyproject.toml").read_text(encoding="utf-8")
    project = toml_table(pyproject, "project")
    name, version = project["name"], project["version"]
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    points = toml_table(pyproject, "project.entry-points.tooletta")
    assert points, "the plugin's pyproject declares no tooletta entry point"
    lines = "".join(f"{key} = {value}\n" for key, value in points.items())
    (info / "entry_points.txt").write_text(f"[tooletta]\n{lines}", encoding="utf-8")
    return str(name)


def core_digest() -> str:
    """One hash of every file of core's package (paths and contents)."""
    digest = hashlib.sha256()
    for path in sorted(CORE.rglob("*.py")):
        digest.update(path.relative_to(CORE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


CHECKS = textwrap.dedent(
    """
    import json
    import sys

    import msgspec
    import tooletta
    from tooletta import Message, ToolCall
    from tooletta.interop import hf
    from tooletta.plugins import get_plugins

    MODEL, DIST = sys.argv[1], sys.argv[2]
    CASE = json.loads(sys.argv[3])
    plugin = next(p for p in get_plugins() if p.name == "zebra")
    assert (plugin.distribution, plugin.error) == (DIST, None), plugin
    assert "zebra" in [d.name for d in tooletta.list_dialects()]
    assert tooletta.dialect_for_model(MODEL) == "zebra"

    calls = [ToolCall("get_weather", {"city": "Paris"}), ToolCall("get_time", {})]
    text = tooletta.render(calls, model=MODEL, content="Sure.")
    assert text == (
        'Sure.\\n<<call>>get_weather {"city": "Paris"}<</call>>\\n<<call>>get_time {}<</call>>'
    ), text
    assert tooletta.render(calls, "zebra", content="Sure.") == text
    for result in (tooletta.parse(text, "zebra"), tooletta.parse(text, model=MODEL)):
        assert (result.calls, result.content, result.dialect) == (calls, "Sure.", "zebra")
    assert tooletta.detect(text) == "zebra"
    parser = tooletta.stream(model=MODEL)
    updates = [parser.feed(ch) for ch in text] + [parser.finish()]
    names, args = {}, {}
    for delta in (d for u in updates for d in u.calls):
        names[delta.index] = names.get(delta.index) or delta.name
        args[delta.index] = args.get(delta.index, "") + delta.arguments
    streamed = [ToolCall(names[i], json.loads(args[i])) for i in sorted(names)]
    assert streamed == calls, streamed
    assert "".join(u.content for u in updates).strip() == "Sure."

    messages = msgspec.convert(CASE["messages"], list[Message])
    tools = CASE["tools"]
    chat = tooletta.render_conversation(messages, model=MODEL, tools=tools)
    assert chat == CASE["template_renders"], chat
    assert tooletta.render_conversation(messages, dialect="zebra", tools=tools) == chat
    back = tooletta.parse_conversation(chat, model=MODEL, tools=tools)
    assert back == messages, back
    assert tooletta.parse_conversation(chat, dialect="zebra", tools=tools) == back

    exported = hf.to_response_template("zebra")
    assert isinstance(exported, dict) and exported, exported
    print(json.dumps({"ok": True}))
    """
)
"""Run by a fresh interpreter that has the copy installed: ``python -c CHECKS MODEL DIST CASE``
(``CASE``: :func:`conversation_case` as JSON). Needs core alone (no jinja2, no test kit)."""

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
]


def conversation_case(root: Path) -> str:
    """A conversation, its tools, and what the copy's Jinja template renders for them (with
    jinja2, in this process), as JSON."""
    messages = [
        Message("system", "Be brief."),
        Message("user", "Weather in Paris?"),
        Message("assistant", "Checking.", tool_calls=[ToolCall("get_weather", {"city": "Paris"})]),
        Message("tool", '{"temp": 18}', name="get_weather"),
        Message("assistant", "18 °C."),
    ]
    template = (root / "tests" / "templates" / f"{NEW}-org-{NEW.capitalize()}-1.jinja").read_text(
        encoding="utf-8"
    )
    rendered = render_jinja(template, messages, tools=TOOLS)
    assert rendered.startswith("<|system|>\nBe brief.\n\n")
    case = {"messages": messages, "tools": TOOLS, "template_renders": rendered}
    return msgspec.json.encode(case).decode()


def run_checks(python: str, root: Path, dist: str, env: dict[str, str]) -> None:
    """Run :data:`CHECKS` with ``python``, core's sources the same before and after."""
    before = core_digest()
    done = subprocess.run(
        [python, "-c", CHECKS, MODEL, dist, conversation_case(root)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"ok": True}
    assert core_digest() == before
    for path in CORE.rglob("*.py"):
        assert NEW not in path.read_text(encoding="utf-8").lower(), path


@pytest.fixture(scope="module")
def zebra(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], str]:
    """The renamed copy's folder, the environment that makes it an installed plugin, and the
    distribution's name."""
    base = tmp_path_factory.mktemp("new-family")
    root = copy_template(base)
    site = base / "site"
    dist = write_dist_info(root, site)
    env = dict(os.environ)
    paths = [str(site), str(root / "src"), env.get("PYTHONPATH", "")]
    env["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
    env["TOOLETTA_NO_CACHE"] = "1"
    env.pop("TOOLETTA_LOAD_PLUGINS", None)
    env.pop("TOOLETTA_DISABLE_PLUGINS", None)
    return root, env, dist


def test_the_copy_is_renamed_throughout(zebra: tuple[Path, dict[str, str], str]) -> None:
    root, _, dist = zebra
    assert dist == "tooletta-dialect-zebra"
    assert (root / "src" / "tooletta_dialect_zebra" / "chat.py").is_file()
    for path in root.rglob("*"):
        assert not OLD.search(path.name), path
        if path.is_file():
            assert not OLD.search(path.read_text(encoding="utf-8")), path


def test_the_copy_works_as_an_installed_plugin_without_a_core_edit(
    zebra: tuple[Path, dict[str, str], str],
) -> None:
    root, env, dist = zebra
    run_checks(sys.executable, root, dist, env)


def test_the_copy_passes_its_own_conversation_and_model_row_tests(
    zebra: tuple[Path, dict[str, str], str],
) -> None:
    """The kit's ``ConversationTests`` (native render against the copy's template, byte for
    byte; the round trips) and ``ModelRowTests`` (its row names what exists and is
    registered), run on the renamed copy in a fresh interpreter."""
    root, env, _ = zebra
    tests = root / "tests"
    done = subprocess.run(
        [
            *PYTEST,
            "--rootdir",
            str(root),
            "-c",
            os.devnull,
            str(tests / "test_chat.py"),
            str(tests / "test_models.py"),
        ],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "skipped" not in done.stdout, done.stdout[-2000:]


@pytest.mark.slow
def test_the_copy_installs_into_a_fresh_venv_and_works(
    zebra: tuple[Path, dict[str, str], str], tmp_path: Path
) -> None:
    """The same checks with the copy really installed (``uv pip install``, offline: core and
    the copy from their folders, core's dependencies from uv's cache) into a venv of its own,
    which holds nothing else: no workspace, no test kit, no jinja2. Skipped when uv is missing
    or its cache lacks what the install needs."""
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not installed")
    root, _, dist = zebra
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["TOOLETTA_NO_CACHE"] = "1"
    steps = (
        [uv, "venv", "-q", str(venv), "--python", sys.executable],
        [
            uv,
            "pip",
            "install",
            "-q",
            "--offline",
            "--no-sources",
            "--python",
            str(venv / "bin" / "python"),
            str(REPO / "tooletta-core"),
            str(root),
        ],
    )
    for step in steps:
        done = subprocess.run(
            step, env=env, capture_output=True, text=True, timeout=120, check=False
        )
        if done.returncode and "network was disabled" in done.stderr:
            pytest.skip(f"offline install impossible here: {done.stderr.strip()[-300:]}")
        assert done.returncode == 0, done.stderr[-3000:]
    run_checks(str(venv / "bin" / "python"), root, dist, env)
