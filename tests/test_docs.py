"""The documentation: generated pages are current, and every Python example runs."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from support import ROOT
from tooletta import plugins

PAGES = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]
PAGES = [p for p in PAGES if "_build" not in p.parts]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_generate", ROOT / "docs" / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_pages_are_current() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "generate.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr


def test_every_server_parser_name_resolves() -> None:
    """vLLM's and SGLang's --tool-call-parser names are dialect names (DESIGN.md), except the
    documented gaps; vLLM's ``openai`` is Harmony."""
    gen = _generator()
    missing = {name for name in gen.server_names() if gen.resolve(name) is None}
    assert missing == set(gen.KNOWN_GAPS)
    assert gen.resolve("openai", "vLLM") == "harmony"
    assert gen.resolve("gpt-oss", "SGLang") == "harmony"


def test_every_dialect_has_a_page() -> None:
    import tooletta

    gen = _generator()
    pages = {p.stem for p in (ROOT / "docs" / "dialects").glob("*.md")}
    for info in tooletta.list_dialects():
        entry = next(e for e in gen.get_registry().ordered() if e.info.name == info.name)
        if entry.version is None:
            continue  # registered in-process by another test, not an installed plugin
        assert gen.page_name(entry.plugin) in pages


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_python_examples_run(page: Path) -> None:
    """Every Python block of a page runs; dialects a page registers (the HF page's
    ``my-qwen``) are forgotten after it, so that later tests see only the installed ones."""
    text = page.read_text(encoding="utf-8")
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem}", "__file__": str(page)}
    try:
        for match in BLOCK.finditer(text):
            line = text.count("\n", 0, match.start(1))  # tracebacks point at the page's lines
            exec(compile("\n" * line + match.group(1), str(page), "exec"), namespace)
    finally:
        if "register_dialect" in text or "register_plugin" in text:
            plugins.reset()


def test_readme_has_the_two_commands() -> None:
    """A newcomer gets exactly two commands: the main job on a shipped example, the tests
    (the command CI runs)."""
    from click.testing import CliRunner

    from tooletta.cli import cli

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## The two commands", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block is not None
    commands = [line.split("#", 1)[0].split() for line in block.group(1).splitlines()]
    commands = [c for c in commands if c]
    assert len(commands) == 2 and commands[1][:3] == ["uv", "run", "pytest"]
    # CI runs the README's test command, with the same arguments
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert " ".join(["run --no-sync pytest", *commands[1][3:]]) + " ||" in ci
    main = commands[0]
    assert main[:3] == ["uv", "run", "tooletta"]
    assert all((ROOT / a).exists() for a in main if a.startswith("examples/"))
    args = [str(ROOT / a) if a.startswith("examples/") else a for a in main[3:]]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0 and "[TOOL_CALLS]get_weather[ARGS]" in result.output


def test_templates_page_counts_the_vendored_templates() -> None:
    """``docs/concepts/templates.md`` counts the templates the plugins vendor as
    ``scripts/template_verdicts.py`` does (every ``plugins/*/tests/templates/*.jinja`` but the
    copy-me plugin's fictional one, which the page says), and its breakdown is
    ``tests/test_chat_identify.py``'s verdict lists."""
    import test_chat_identify as verdicts

    spec = importlib.util.spec_from_file_location(
        "template_verdicts", ROOT / "scripts" / "template_verdicts.py"
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    files = sorted(ROOT.glob("plugins/*/tests/templates/*.jinja"))
    counted = [p for p in files if script.SCAFFOLD not in p.parts]
    assert [p.name for p in counted] == [name for _, name, _ in script.vendored()]
    assert [p.name for p in counted] == [p.name for p in verdicts.TEMPLATES]
    assert len(files) - len(counted) == 1  # the copy-me plugin's fixture, said below
    text = " ".join((ROOT / "docs" / "concepts" / "templates.md").read_text("utf-8").split())
    found = re.search(
        r"of the (\d+) templates the plugins vendor as test fixtures \(every "
        r"`plugins/\*/tests/templates/\*\.jinja` but the one of the copy-me plugin "
        r"`plugins/_template`.*? (\d+) are reproduced by their own format .*? and (\d+) by a "
        r"format no model row verifies .*?; (\d+) are not, each .*?; (\d+) has no format",
        text,
    )
    assert found is not None, "templates.md: the vendored-template count sentence changed"
    said = [int(n) for n in found.groups()]
    assert said == [
        len(counted),
        len(verdicts.IDENTIFIED),
        len(verdicts.IDENTIFIED_UNVERIFIED),
        len(verdicts.NOT_REPRODUCED),
        len(verdicts.UNREADABLE),
    ]
