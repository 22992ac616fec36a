"""JSON-schema types named as Python types, the way chat templates' ``json_to_python_type``
macros name them in the tool signatures they write (Hermes 2 Pro / Hermes 3, Command R+).

The macros agree on the scalar names (``str``, ``float``, ``int``, ``bool``), on ``Union[]``
for a schema without a type and on ``Union[A,B]`` (no space) for a list of types; they differ
in how they spell an array, an object and the type name ``null``. :class:`PythonTypes`
declares those spellings; its :meth:`~tooletta.chat.PythonTypes.name` writes what the macro writes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["PythonTypes"]

_SCALARS = {"string": "str", "number": "float", "integer": "int", "boolean": "bool"}
_UNDEFINED = object()


@dataclass(frozen=True)
class PythonTypes:
    """How one template's ``json_to_python_type`` macro spells the types it does not share
    with the others.

    ``array``: an array, whatever its items (the macros pass the schema's ``items`` *method*,
    which has no type: Hermes's ``list[Union[]]``, Command R+'s ``List[Union[]]``);
    ``mapping``: the generic an object with ``additionalProperties`` is written with
    (``dict`` writes ``dict[str, X]``, X that schema's name); ``plain_object``: an object
    without them (Hermes: ``dict``; Command R+'s macro raises, ``Dict[str, Any]`` is what it
    means); ``null``: the type name ``"null"`` (a macro that does not know it recurses over
    its letters forever: Hermes's is written ``Any``, Command R+'s ``None``). Any other
    unknown type name is ``Any``.
    """

    array: str
    mapping: str
    plain_object: str
    null: str = "Any"

    def name(self, spec: Any) -> str:
        """The Python type the macro writes for the JSON schema ``spec`` (anything that is
        not a mapping has no type: ``Union[]``)."""
        kind = spec.get("type", _UNDEFINED) if isinstance(spec, Mapping) else _UNDEFINED
        if isinstance(kind, str) and kind in _SCALARS:
            return _SCALARS[kind]
        if kind == "array":
            return self.array
        if kind == "object":
            extra = spec.get("additionalProperties", _UNDEFINED)
            if extra is _UNDEFINED:
                return self.plain_object
            return f"{self.mapping}[str, {self.name(extra)}]"
        if kind is _UNDEFINED:
            return "Union[]"
        if isinstance(kind, str):
            return self.null if kind == "null" else "Any"
        if isinstance(kind, (list, tuple, Mapping)):
            return "Union[" + ",".join(self.name({"type": t}) for t in kind) + "]"
        return "Any"
