"""Apertus's tool declarations: each tool as a TypeScript-like type, as its template writes them.

Pinned from the ``render_tools`` and ``render_typescript_type`` macros of
``swiss-ai/Apertus-8B-Instruct-2509``'s chat template (llama.cpp
``models/templates/Apertus-8B-Instruct.jinja``), whitespace included: per tool ``// DESCRIPTION``
then ``type NAME = (_: {`` one parameter a line (``// description`` above it, ``?`` when not
required, ``, // default: ...``) ``}) => any;``. The macros' quirks are kept because they are
what the model was trained on: a nested object's member types start on a new line indented by
16 spaces, ``oneOf`` variants are joined by ``" | \\n"``, a ``oneOf`` variant's default is
written after 20 spaces, and an enum's or a ``oneOf``'s default is written as text, not JSON.

Where the template fails (a tool without a description, a non-text default of an enum or
``oneOf`` parameter: Jinja cannot add them to text) we write an empty description and the
default as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tooletta import to_json
from tooletta.plugin import by_content

__all__ = ["render_tools", "typescript_type"]

_NESTED = "\n" + " " * 16
"""What the template writes before a nested object member's type (a Jinja output tag that
does not strip the indentation before it)."""
_VARIANT_DEFAULT = " " * 20
"""What the template writes before a ``oneOf`` variant's default."""
_SCALARS = {"string": "string", "number": "number", "integer": "number", "boolean": "boolean"}


def _text(value: Any) -> str:
    """A value added to text: itself when it is text, else its JSON (where Jinja raises)."""
    return value if isinstance(value, str) else to_json(value)


def _join(values: Any) -> str:
    """Jinja's ``join`` of a list's items (each as ``str``)."""
    return " | ".join(str(v) for v in values)


def typescript_type(spec: Any) -> str:
    """A JSON schema as the template's ``render_typescript_type`` macro writes it."""
    if not isinstance(spec, Mapping):
        return "any"
    kind = spec.get("type")
    if kind == "array":
        return _array(spec)
    if isinstance(kind, (list, tuple)) and kind:
        return _join(kind) if len(kind) > 1 else str(kind[0])
    if spec.get("oneOf"):
        return _one_of(spec["oneOf"])
    if kind == "string":
        enum = spec.get("enum")
        if enum:
            return '"' + '" | "'.join(str(v) for v in enum) + '"'
        return "string | null" if spec.get("nullable") else "string"
    if isinstance(kind, str) and kind in _SCALARS:
        return _SCALARS[kind]
    if kind == "object":
        return _object(spec)
    return "any"


def _array(spec: Mapping[str, Any]) -> str:
    items = spec.get("items")
    if not items:
        text = "any[]"
    else:
        kind = items.get("type") if isinstance(items, Mapping) else None
        if isinstance(kind, str) and kind in _SCALARS:
            text = _SCALARS[kind] + "[]"
        else:
            inner = typescript_type(items)
            text = "any[]" if inner == "object | object" or len(inner) > 50 else inner + "[]"
    return text + " | null" if spec.get("nullable") else text


def _one_of(variants: Any) -> str:
    if not isinstance(variants, (list, tuple)):
        return "any"
    parts = []
    for variant in variants:
        text = typescript_type(variant)
        if isinstance(variant, Mapping):
            if variant.get("description"):
                text += "// " + _text(variant["description"])
            if "default" in variant:
                text += _VARIANT_DEFAULT + "// default: " + to_json(variant["default"])
        parts.append(text)
    return " | \n".join(parts)


def _object(spec: Mapping[str, Any]) -> str:
    properties = spec.get("properties")
    if not properties or not isinstance(properties, Mapping):
        return "object"
    required = spec.get("required") or []
    members = []
    for name, member in properties.items():
        optional = "" if name in required else "?"
        members.append(f"{name}{optional}: {_NESTED}{typescript_type(member)}")
    return "{\n" + ", ".join(members) + "}"


def _parameter(name: str, spec: Any, required: Sequence[Any]) -> str:
    text = ""
    if isinstance(spec, Mapping) and spec.get("description"):
        text += "// " + _text(spec["description"]) + "\n"
    text += name + ("" if name in required else "?") + ": " + typescript_type(spec)
    if isinstance(spec, Mapping) and "default" in spec:
        default = spec["default"]
        if spec.get("enum"):
            text += ", // default: " + _text(default)
        elif spec.get("oneOf"):
            text += "// default: " + _text(default)
        else:
            text += ", // default: " + to_json(default)
    return text


def _tool(tool: Mapping[str, Any]) -> str:
    function = tool.get("function") or {}
    description = function.get("description")
    head = "// " + ("" if description is None else _text(description)) + "\n"
    head += "type " + str(function.get("name", "")) + " = "
    parameters = function.get("parameters")
    properties = parameters.get("properties") if isinstance(parameters, Mapping) else None
    if not properties or not isinstance(properties, Mapping):
        return head + "() => any;"
    required = parameters.get("required") or []  # type: ignore[union-attr]
    lines = [_parameter(str(n), s, required) for n, s in properties.items()]
    return head + "(_: {\n" + ",\n".join(lines) + "\n}) => any;"


@by_content
def render_tools(tools: Sequence[Mapping[str, Any]]) -> str:
    """The tool declarations of the developer turn (after ``Tool Capabilities:\\n``),
    remembered by content (a dataset declares the same tools in every row)."""
    return "\n".join(_tool(t) for t in tools)
