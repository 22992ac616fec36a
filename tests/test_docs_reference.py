"""The API reference documents every public name, at the path it is imported from.

Sphinx (``-n -W`` in CI) fails on a reference to an undocumented name, but not on a public name
that no page documents: these tests read the reference pages' directives instead.
"""

from __future__ import annotations

import importlib
import inspect
import re

import pytest

from support import ROOT

REFERENCE = ROOT / "docs" / "reference"
PACKAGES = (
    "tooletta",
    "tooletta.chat",
    "tooletta.interop",
    "tooletta.training",
    "tooletta.engine",
    "tooletta.toolkit",
    "tooletta.testing",
)
DIRECTIVE = re.compile(r"^\.\. (auto\w+|py:\w+):: (\S+)\n((?:   :.*\n)*)", re.M)
OPTION = re.compile(r"^   :([\w-]+):(.*)$", re.M)


def _directives() -> list[tuple[str, str, dict[str, str]]]:
    text = "".join(page.read_text(encoding="utf-8") for page in sorted(REFERENCE.glob("*.md")))
    return [
        (kind, target, {k: v.strip() for k, v in OPTION.findall(options)})
        for kind, target, options in DIRECTIVE.findall(text)
    ]


def _documented(package: str) -> tuple[set[str], set[str]]:
    """The names of ``package`` documented one by one, and those its ``automodule`` leaves out
    (none documented that way when it has no ``:members:``)."""
    one_by_one: set[str] = set()
    left_out: set[str] | None = None
    for kind, target, options in _directives():
        if kind == "automodule" and target == package:
            members = options.get("members")
            if members is None:
                continue
            listed = {m.strip() for m in members.split(",") if m.strip()}
            excluded = {m.strip() for m in options.get("exclude-members", "").split(",")}
            everything = set(importlib.import_module(package).__all__)
            left_out = (everything - listed if listed else set()) | excluded
        elif kind.startswith("py:") and options.get("module") == package:
            one_by_one.add(target)
        elif kind.startswith("auto") and target.rpartition(".")[0] == package:
            one_by_one.add(target.rpartition(".")[2])
    if left_out is None:
        left_out = set(importlib.import_module(package).__all__)
    return one_by_one, left_out


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_is_documented(package: str) -> None:
    """A class or function of ``__all__`` is documented by the package's ``automodule`` (autodoc
    skips one without a docstring); anything else (a constant, a type alias) needs a directive
    of its own, as does a name the ``automodule`` leaves out."""
    module = importlib.import_module(package)
    one_by_one, left_out = _documented(package)
    missing = []
    for name in module.__all__:
        value = getattr(module, name)
        by_autodoc = inspect.isclass(value) or inspect.isfunction(value)
        if name in one_by_one or (by_autodoc and name not in left_out and value.__doc__):
            continue
        missing.append(name)
    assert not missing, f"{package}: not in docs/reference/*.md: {missing}"


def test_reference_pages_are_in_the_toctree() -> None:
    hub = (REFERENCE / "api.md").read_text(encoding="utf-8")
    pages = {p.stem for p in REFERENCE.glob("*.md")} - {"api"}
    listed = set(re.findall(r"^(\w+)$", hub.split("```{toctree}")[1].split("```")[0], re.M))
    assert pages == listed
