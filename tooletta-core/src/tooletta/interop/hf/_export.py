"""``response_template`` export: each dialect says what it exports, core only asks.

The attributes a dialect declares are documented in :mod:`tooletta.interop.hf.spec`.
:data:`TEMPLATE_GAPS`, :data:`TEMPLATE_NOTES` and :func:`exportable_dialects` read the
declarations of the registered dialects each time they are used.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from ...errors import ToolettaError
from .spec import Export

__all__ = [
    "TEMPLATE_GAPS",
    "TEMPLATE_NOTES",
    "declared_export",
    "exportable_dialects",
    "to_response_template",
]


LEARNED_EXPORT: list[Callable[[Mapping[str, Any]], Export]] = []
"""How a format :func:`tooletta.learn` built (a dialect with a ``learned_spec``) is exported:
filled by :mod:`tooletta.interop.hf.learned`, which :mod:`tooletta.interop.hf` imports (this
module imports nothing of it: no cycle)."""


def _resolve(reference: str, dialect_name: str) -> Any:
    module, sep, attr = reference.partition(":")
    if not (sep and module.strip() and attr.strip()):
        raise ToolettaError(
            f"dialect {dialect_name!r}: response_template {reference!r} is not a "
            f"'module:attribute' reference"
        )
    try:
        obj: Any = importlib.import_module(module.strip())
        for part in attr.strip().split("."):
            obj = getattr(obj, part)
    except Exception as exc:  # the plugin's module failed: said with the dialect's name
        raise ToolettaError(
            f"dialect {dialect_name!r}: cannot load its response_template {reference!r}: "
            f"{type(exc).__name__}: {exc}"
        ) from exc
    return obj


def declared_export(dialect: Any) -> Export | None:
    """What ``dialect`` declares (the attributes :mod:`tooletta.interop.hf.spec` lists), as an
    :class:`~tooletta.interop.hf.spec.Export`; ``None`` when it declares nothing. A callable
    template is not called here.

    Raises :class:`~tooletta.ToolettaError` for a declaration that is none of those forms, or
    a reference that does not load.
    """
    info = getattr(dialect, "info", None)
    name = str(getattr(info, "name", type(dialect).__name__))
    value = getattr(dialect, "response_template", None)
    spec = getattr(dialect, "learned_spec", None)
    if value is None and isinstance(spec, Mapping) and LEARNED_EXPORT:  # tooletta.learn's
        return LEARNED_EXPORT[0](spec)
    if isinstance(value, str):
        value = _resolve(value, name)
    if isinstance(value, Export):
        return value
    if value is None:
        gap = getattr(dialect, "response_template_gap", None)
        if gap is None:
            return None
        if not (isinstance(gap, str) and gap.strip()):
            raise ToolettaError(f"dialect {name!r}: response_template_gap is not a reason")
        return Export(gap=gap)
    if not (isinstance(value, Mapping) or callable(value)):
        raise ToolettaError(
            f"dialect {name!r}: response_template is a dict or a callable returning one, "
            f"not {type(value).__name__}"
        )
    note = getattr(dialect, "response_template_note", "") or ""
    if not isinstance(note, str):
        raise ToolettaError(f"dialect {name!r}: response_template_note is not a str")
    return Export(value, note=note)


def _declarations() -> Iterator[tuple[str, Export]]:
    """``(name, export)`` for every registered dialect that declares one, by name (a
    dialect whose declaration does not load is left out; asking for it says why)."""
    from ...plugins import get_registry

    for entry in sorted(get_registry().entries, key=lambda e: e.info.name):
        try:
            export = declared_export(entry.dialect)
        except ToolettaError:
            continue
        if export is not None:
            yield entry.info.name, export


class _Table(Mapping[str, str]):
    """A read-only dict computed from the registry on each use."""

    def __init__(self, field: str) -> None:
        self._field = field

    def _read(self) -> dict[str, str]:
        found = ((name, getattr(export, self._field)) for name, export in _declarations())
        return {name: text for name, text in found if text}

    def __getitem__(self, key: str) -> str:
        return self._read()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())

    def __repr__(self) -> str:
        return repr(self._read())


TEMPLATE_GAPS: Mapping[str, str] = _Table("gap")
"""Dialect name -> why the spec cannot express the format (``response_template_gap``)."""

TEMPLATE_NOTES: Mapping[str, str] = _Table("note")
"""Dialect name -> what its template leaves out (``response_template_note``)."""


def exportable_dialects() -> list[str]:
    """The registered dialects :func:`to_response_template` writes a template for, by name."""
    return [name for name, export in _declarations() if export.template is not None]


def to_response_template(dialect: str) -> dict[str, Any]:
    """A ``response_template`` for ``dialect`` (a name or alias), for transformers'
    ``parse_response`` (a fresh copy: store it as ``tokenizer.response_template``).

    Raises :class:`~tooletta.ToolettaError` naming the reason for a dialect the spec cannot
    express (``TEMPLATE_GAPS``) or whose declaration is broken, and
    :class:`~tooletta.UnknownDialectError` for an unknown name.
    """
    from ... import api

    obj = api.get_dialect(dialect)
    name = obj.info.name
    export = declared_export(obj)
    if export is None or export.template is None:
        reason = export.gap if export else "no response_template is written for it yet"
        raise ToolettaError(f"dialect {name!r} has no response_template: {reason}")
    template = export.template
    if not isinstance(template, Mapping):
        try:
            template = template()
        except ToolettaError:
            raise
        except Exception as exc:
            raise ToolettaError(
                f"dialect {name!r}: its response_template() raised {type(exc).__name__}: {exc}"
            ) from exc
        if not isinstance(template, Mapping):
            raise ToolettaError(
                f"dialect {name!r}: its response_template() returned "
                f"{type(template).__name__}, not a dict"
            )
    return copy.deepcopy(dict(template))
