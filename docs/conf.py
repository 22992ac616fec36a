"""Sphinx configuration for the tooletta documentation (MyST Markdown, furo theme)."""

from __future__ import annotations

import importlib
from typing import Any, TypeVar

project = "tooletta"
author = "the tooletta authors"
copyright = "2026, the tooletta authors"
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".md": "markdown"}
master_doc = "index"
exclude_patterns = ["_build"]
html_theme = "furo"
html_title = "tooletta"
myst_heading_anchors = 3
autodoc_member_order = "bysource"
autodoc_typehints = "description"
napoleon_numpy_docstring = True
nitpicky = True

# No intersphinx (the docs build offline), so references to the standard library's and
# third-party packages' names have no target: they are ignored here, by module, and only the
# modules the signatures and docstrings name (add one here when a new signature names it). A
# reference to a tooletta name must resolve: the API reference documents it.
nitpick_ignore_regex = [
    (r"py:.*", r"(collections\.abc|re|ast|json|pathlib|os)(\..+)?"),  # the standard library
    (r"py:.*", r"pluggy(\..+)?"),  # a core dependency
    (r"py:.*", r"hypothesis(\..+)?"),  # the testing kit's (a dev dependency)
]


def _annotated_object(target: str, module: str | None, cls: str | None) -> Any:
    """The object a type annotation names: ``tooletta.x.Name`` by its path; a bare name (Sphinx
    leaves a class's constructor annotations unevaluated) as the constructor's module sees it."""
    try:
        if "." in target:
            path, _, name = target.rpartition(".")
            return getattr(importlib.import_module(path), name)
        if module and cls:
            owner = getattr(importlib.import_module(module), cls.split(".")[0])
            return getattr(owner.__init__, "__globals__", {}).get(target)
    except (ImportError, AttributeError, ValueError):  # ValueError: a relative target
        return None
    return None


def _private_annotation_as_text(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """A private type in a signature is no API object to link to, so it is written as text:
    a type variable (``tooletta.chat.format._T``) or a class of a private tooletta module
    (``tooletta.interop.hf._template.Template``). Any other unresolved reference stays
    unresolved (a warning, which ``-n -W`` turns into an error)."""
    if node.get("refdomain") != "py":
        return None
    value = _annotated_object(
        str(node.get("reftarget", "")), node.get("py:module"), node.get("py:class")
    )
    if isinstance(value, TypeVar):
        return contnode if value.__name__.startswith("_") else None
    module = getattr(value, "__module__", "") if isinstance(value, type) else ""
    private = any(part.startswith("_") for part in module.split("."))
    return contnode if module.startswith("tooletta.") and private else None


def setup(app: Any) -> None:
    """Register the rule above for private types in signatures."""
    app.connect("missing-reference", _private_annotation_as_text)
