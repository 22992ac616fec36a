"""Ship a learned format as a plugin distribution (``tooletta learn --emit-plugin DIR``).

The distribution has the layout of ``plugins/_template``: ``pyproject.toml`` (entry point in
the ``tooletta`` group), ``README.md``, ``src/tooletta_dialect_<slug>/`` with the saved spec
(``spec.json``, read at import, no Jinja) and ``tests/`` with the template vendored as a
fixture and conformance tests (the template learns again into the same spec; the shipped
format renders the probe conversations as the template does and reads them back).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ...errors import LearnError
from .infer import spec_json

__all__ = ["emit_plugin"]

_PYPROJECT = """\
[project]
name = "tooletta-dialect-{dist}"
version = "0.1.0"
description = "tooletta chat format learned from {source}"
readme = "README.md"
requires-python = ">=3.10"
license = "Apache-2.0"
dependencies = ["tooletta-core>=0.2,<0.3"]

[project.optional-dependencies]
test = ["jinja2", "pytest"]

[project.entry-points.tooletta]
{slug} = "tooletta_dialect_{slug}"

[build-system]
requires = ["uv_build>=0.8,<0.14"]
build-backend = "uv_build"
"""

_MODULE = '''\
"""The chat format learned from {source} by ``tooletta learn`` (spec in ``spec.json``).

Registered as ``{name}``: ``render_conversation(dialect="{name}")``, ``parse_conversation``,
``render``, ``parse`` and ``stream`` work with it, without Jinja.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from tooletta import hookimpl
from tooletta.chat.learn import dialect_from_spec

__all__ = ["SPEC", "register_dialects"]

SPEC: dict[str, Any] = json.loads(
    resources.files(__name__).joinpath("spec.json").read_text(encoding="utf-8")
)
"""The learned spec (template hash, probe suite version, declarations)."""


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the learned format's dialect."""
    register(dialect_from_spec(SPEC))
'''

_TESTS = '''\
"""Conformance of the shipped learned format against the vendored template."""

from __future__ import annotations

from pathlib import Path

import pytest

import tooletta
import tooletta_dialect_{slug} as plugin
from tooletta.chat.jinja import load_chat_template, render_jinja
from tooletta.chat.learn import learn
from tooletta.chat.learn.infer import fit_suite
from tooletta.chat.learn.probes import probe_suite

pytest.importorskip("jinja2")

TEMPLATE = Path(__file__).parent / "templates" / "{template}"
SPEC = plugin.SPEC
try:  # installed: registered by its entry point; from a checkout: register it here
    tooletta.get_dialect("{name}")
except tooletta.UnknownDialectError:
    tooletta.register_plugin(plugin)


def test_the_template_learns_into_the_shipped_spec() -> None:
    tokens = SPEC.get("tokens", {{}})
    learned = learn(
        str(TEMPLATE),
        name="{name}-relearned",
        bos_token=tokens.get("bos_token"),
        eos_token=tokens.get("eos_token"),
        lenient={lenient},
        **SPEC["chat"]["options"],
    )
    assert {{**learned.spec, "name": SPEC["name"], "source": SPEC["source"]}} == SPEC


SUITE = fit_suite(
    SPEC["chat"],
    probe_suite(reasoning=True, tools={tools}, late_system=SPEC["chat"]["late_system"]),
)


@pytest.mark.parametrize("probe", SUITE, ids=lambda p: p.name)
def test_renders_as_the_template(probe) -> None:
    if probe.variant and SPEC.get("deviations"):
        pytest.skip("a recorded deviation of the template")
    template, tokens = load_chat_template(str(TEMPLATE))
    tokens = {{**tokens, **SPEC.get("tokens", {{}})}}
    want = render_jinja(
        template,
        probe.messages,
        tools=probe.tools,
        add_generation_prompt=probe.prompt,
        tokens=tokens,
        content_parts=SPEC["chat"].get("content_parts", False),
        **SPEC["chat"]["options"],
    )
    got = tooletta.render_conversation(
        probe.messages, dialect="{name}", tools=probe.tools, add_generation_prompt=probe.prompt
    )
    assert got == want
    if probe.read:
        read = tooletta.parse_conversation(want, dialect="{name}", tools=probe.tools)
        assert [m.role for m in read] == [m.role for m in probe.messages]
'''

_README = """\
# tooletta-dialect-{dist}

The chat format of `{source}`, learned by `tooletta learn` (closed loop: {checks} checks passed)
and shipped as data (`src/tooletta_dialect_{slug}/spec.json`, template SHA-256
`{sha}`). Registered as `{name}`; tool calls: {calls}.
{deviations}
The template is vendored in `tests/templates/` (see its `SOURCES.md`); the tests check that it
still learns into the shipped spec and that the format renders and reads the probe
conversations as the template does.
"""


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    if not slug or slug[0].isdigit():
        slug = "learned_" + slug
    return slug


def emit_plugin(learned: Any, template: str, directory: str | Path) -> Path:
    """Write the plugin distribution of ``learned`` (learned from the file ``template``) into
    ``directory`` (created; must be empty or absent). Returns the directory."""
    root = Path(directory)
    if root.exists() and any(root.iterdir()):
        raise LearnError(f"{root} exists and is not empty")
    source = Path(template)
    if not source.is_file():
        raise LearnError("--emit-plugin needs the template as a file, to vendor it")
    slug = _slug(learned.name)
    dist = slug.replace("_", "-")
    package = root / "src" / f"tooletta_dialect_{slug}"
    templates = root / "tests" / "templates"
    package.mkdir(parents=True)
    templates.mkdir(parents=True)
    spec = learned.spec
    calls = spec["calls"]
    how = {
        "installed": f"written by the installed dialect `{calls.get('dialect')}`"
        + (f", joined by `{calls['between']!r}`" if calls.get("between") is not None else ""),
        "json": f"learned JSON in `{calls.get('open')}` ... `{calls.get('close')}`",
        "none": "none",
    }[calls["kind"]]
    deviations = "".join(f"\n* deviation kept consistent: {d}" for d in learned.deviations)
    (root / "pyproject.toml").write_text(
        _PYPROJECT.format(dist=dist, slug=slug, source=source.name), encoding="utf-8"
    )
    (root / "README.md").write_text(
        _README.format(
            dist=dist,
            slug=slug,
            source=source.name,
            checks=learned.checks,
            sha=spec["template_sha256"],
            name=learned.name,
            calls=how,
            deviations=deviations,
        ),
        encoding="utf-8",
    )
    (package / "__init__.py").write_text(
        _MODULE.format(source=source.name, name=learned.name), encoding="utf-8"
    )
    (package / "spec.json").write_text(spec_json(spec) + "\n", encoding="utf-8")
    (templates / source.name).write_bytes(source.read_bytes())
    (templates / "SOURCES.md").write_text(
        f"# Vendored template\n\n`{source.name}`: copied from `{template}` when the format was "
        "learned. Name its model repository, revision and license here before publishing.\n",
        encoding="utf-8",
    )
    (root / "tests" / f"test_{slug}.py").write_text(
        _TESTS.format(
            slug=slug,
            name=learned.name,
            template=source.name,
            lenient=bool(learned.deviations),
            tools=calls["kind"] != "none" or spec["chat"]["tools"] is not None,
        ),
        encoding="utf-8",
    )
    return root
