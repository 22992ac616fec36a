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
suppress_warnings = ["myst.xref_missing"]
nitpicky = False

# No intersphinx (the docs build offline), so references to the standard library's and
# third-party packages' names have no target. They are ignored here, by module, and only those:
# a reference to a tooletta name must resolve (the API reference documents it).
nitpick_ignore_regex = [
    (r"py:.*", r"(collections\.abc|typing|re|ast|json|datetime|pathlib|enum)(\..+)?"),
    (r"py:.*", r"(pluggy|msgspec|click|jinja2|tokenizers|transformers|hypothesis|pytest)(\..+)?"),
]


def _type_variable_as_text(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """A private type variable in a signature (``tooletta.chat.format._T``) is no API object
    to link to: write it as text. Any other unresolved reference stays unresolved (a warning
    that ``-n -W`` turns into an error)."""
    module, _, name = str(node.get("reftarget", "")).rpartition(".")
    if node.get("refdomain") != "py" or not module.startswith("tooletta"):
        return None
    try:
        value = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None
    return contnode if isinstance(value, TypeVar) and name.startswith("_") else None


def setup(app: Any) -> None:
    """Register the type-variable rule above."""
    app.connect("missing-reference", _type_variable_as_text)
