"""The ``response_template`` a dialect class exports when it names none: found by convention.

A plugin keeps its dialects' Hugging Face exports (:mod:`tooletta.interop.hf.spec`) in one
module of its package, ``hf_template``, each named after its dialect in capitals
(``glm45`` -> ``GLM45``). A dialect class of such a plugin needs no
``response_template = "tooletta_dialect_glm.hf_template:GLM45"`` line:
:class:`NamedExport`, the default of :class:`~tooletta.ScannerDialect`, reads that reference
off the class. This module is a leaf: it imports nothing of tooletta.
"""

from __future__ import annotations

import importlib.util
import weakref
from typing import Any

__all__ = ["NamedExport", "export_reference"]


def export_reference(owner: type) -> str | None:
    """The conventional ``"module:attribute"`` export of the dialect class ``owner``:
    ``<its top-level package>.hf_template:<its info.name upper-cased>``, when that module
    exists (found without importing it). ``None`` when the class declares a
    ``response_template_gap`` instead, has no ``info.name``, or its package has no
    ``hf_template`` module (core's own dialects, a third party's without exports)."""
    if getattr(owner, "response_template_gap", None) is not None:
        return None
    name = getattr(getattr(owner, "info", None), "name", None)
    package = str(getattr(owner, "__module__", "")).partition(".")[0]
    if not isinstance(name, str) or not name or not package:
        return None
    module = f"{package}.hf_template"
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # the package is a plain module, or not importable
        found = False
    return f"{module}:{name.upper()}" if found else None


class NamedExport:
    """A non-data descriptor: the class's :func:`export_reference`, worked out once per class.

    A class (or instance) that sets ``response_template`` itself shadows it, as before; a
    subclass that sets nothing gets the export named after *its own* dialect.
    """

    def __init__(self) -> None:
        self._found: weakref.WeakKeyDictionary[type, str | None] = weakref.WeakKeyDictionary()

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        cls = owner if owner is not None else type(obj)
        if cls not in self._found:
            self._found[cls] = export_reference(cls)
        return self._found[cls]
