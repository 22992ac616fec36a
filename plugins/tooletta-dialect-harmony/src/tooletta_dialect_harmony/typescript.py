"""gpt-oss tool declarations: JSON schemas as the TypeScript-like text of its chat template.

The gpt-oss template (``openai/gpt-oss-*`` ``chat_template.jinja``, macros
``render_typescript_type`` and ``render_tool_namespace``) declares the tools in the developer
message as ``namespace functions { ... }``, one ``type NAME = (_: {...}) => any;`` per tool.
This module writes that text byte for byte, including the template's quirks (they are what
the model was trained on):

* a nested object's properties are written ``NAME: `` then a newline and 16 spaces before the
  type (a Jinja expression tag without whitespace control), joined by ``", "``;
* ``oneOf`` variants are joined by ``" | "`` and a newline; a variant's description follows
  its type as ``// DESC`` and its default after 20 spaces (same line); the template's
  "object variants become ``any``" rule never fires (a Jinja loop cannot change a variable
  outside it), so it is not applied here either;
* a list ``type`` is joined as written (``["string", "null"]`` -> ``string | null``);
* enum values are written with Python's ``str`` (Jinja's ``join``), a parameter's default
  beside an ``enum`` or ``oneOf`` is written as text without JSON quoting, others through
  ``tojson``.

Where the template raises on a declaration, the text is what the template would write if it
did not: a tool without a description gets no ``//`` line, and a non-string default beside
an ``enum`` or ``oneOf`` is written through ``tojson``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["BROWSER_TOOL", "PYTHON_TOOL", "namespace", "typescript_type"]

_MISSING: Any = object()
_NESTED = "\n" + " " * 16
_VARIANT_DEFAULT = " " * 20


def _get(spec: Any, key: str) -> Any:
    """``spec.key`` as Jinja reads it from a mapping (missing: :data:`_MISSING`)."""
    if isinstance(spec, Mapping):
        return spec.get(key, _MISSING)
    return _MISSING


def _truthy(value: Any) -> bool:
    return value is not _MISSING and bool(value)


def _text(value: Any) -> str:
    """A value as a Jinja expression writes it (``str``; a missing value is empty)."""
    return "" if value is _MISSING else str(value)


def _tojson(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _required(spec: Any) -> Any:
    """``spec.required or []`` (a Jinja ``in`` test against it)."""
    value = _get(spec, "required")
    return value if _truthy(value) and isinstance(value, (list, tuple, str, Mapping)) else []


def _is_type_list(kind: Any) -> bool:
    """The template's test for a list of types: iterable, not a string or mapping, and
    holding a first item."""
    return isinstance(kind, (list, tuple)) and len(kind) > 0


def typescript_type(spec: Any) -> str:
    """The TypeScript-like type the template writes for the JSON schema ``spec``."""
    kind = _get(spec, "type")
    if kind == "array":
        return _array(spec)
    if _is_type_list(kind):
        return " | ".join(str(k) for k in kind) if len(kind) > 1 else str(kind[0])
    variants = _get(spec, "oneOf")
    if _truthy(variants):
        return _one_of(variants)
    if kind == "string":
        enum = _get(spec, "enum")
        if _truthy(enum) and isinstance(enum, (list, tuple)):
            return '"' + '" | "'.join(str(v) for v in enum) + '"'
        return "string | null" if _truthy(_get(spec, "nullable")) else "string"
    if kind in ("number", "integer"):
        return "number"
    if kind == "boolean":
        return "boolean"
    if kind == "object":
        properties = _get(spec, "properties")
        if not (_truthy(properties) and isinstance(properties, Mapping)):
            return "object"
        required = _required(spec)
        parts = [
            f"{name}{'' if name in required else '?'}: {_NESTED}{typescript_type(prop)}"
            for name, prop in properties.items()
        ]
        return "{\n" + ", ".join(parts) + "}"
    return "any"


def _array(spec: Any) -> str:
    items = _get(spec, "items")
    nullable = " | null" if _truthy(_get(spec, "nullable")) else ""
    if not _truthy(items):
        return "any[]" + nullable
    kind = _get(items, "type")
    if kind == "string":
        text = "string[]"
    elif kind in ("number", "integer"):
        text = "number[]"
    elif kind == "boolean":
        text = "boolean[]"
    else:
        inner = typescript_type(items)
        text = "any[]" if inner == "object | object" or len(inner) > 50 else inner + "[]"
    return text + nullable


def _one_of(variants: Any) -> str:
    if not isinstance(variants, (list, tuple)):
        return ""
    parts = []
    for variant in variants:
        text = typescript_type(variant)
        description = _get(variant, "description")
        if _truthy(description):
            text += "// " + str(description)
        default = _get(variant, "default")
        if default is not _MISSING:
            text += _VARIANT_DEFAULT + "// default: " + _tojson(default)
        parts.append(text)
    return " | \n".join(parts)


def _default(spec: Mapping[str, Any]) -> str:
    """What the template writes after a parameter's type for its default."""
    if "default" not in spec:
        return ""
    default = spec["default"]
    if _truthy(_get(spec, "enum")):
        return ", // default: " + (default if isinstance(default, str) else _tojson(default))
    if _truthy(_get(spec, "oneOf")):
        return "// default: " + (default if isinstance(default, str) else _tojson(default))
    return ", // default: " + _tojson(default)


def _tool(function: Mapping[str, Any]) -> str:
    description = function.get("description")
    head = f"// {description}\n" if description is not None else ""
    head += f"type {_text(function.get('name', _MISSING))} = "
    parameters = function.get("parameters")
    properties = _get(parameters, "properties")
    if not (_truthy(parameters) and _truthy(properties) and isinstance(properties, Mapping)):
        return head + "() => any;\n\n"
    required = _required(parameters)
    lines = []
    for name, spec in properties.items():
        comment = _get(spec, "description")
        line = f"// {comment}\n" if _truthy(comment) else ""
        line += f"{name}{'' if name in required else '?'}: {typescript_type(spec)}"
        if isinstance(spec, Mapping):
            line += _default(spec)
        lines.append(line + ",\n")
    return head + "(_: {\n" + "".join(lines) + "}) => any;\n\n"


def namespace(tools: Sequence[Mapping[str, Any]], name: str = "functions") -> str:
    """The ``## functions`` section declaring ``tools`` (OpenAI Chat shape), as the template's
    ``render_tool_namespace`` writes it."""
    body = "".join(_tool(_function(t)) for t in tools)
    return f"## {name}\n\nnamespace {name} {{\n\n{body}}} // namespace {name}"


def _function(tool: Mapping[str, Any]) -> Mapping[str, Any]:
    function = tool.get("function")
    return function if isinstance(function, Mapping) else {}


BROWSER_TOOL = (
    "## browser\n\n"
    "// Tool for browsing.\n"
    "// The `cursor` appears in brackets before each browsing display: `[{cursor}]`.\n"
    "// Cite information from the tool using the following format:\n"
    "// `【{cursor}†L{line_start}(-L{line_end})?】`, for example: `【6†L9-L11】` or `【8†L3】`.\n"
    "// Do not quote more than 10 words directly from the tool output.\n"
    "// sources=web (default: web)\n"
    "namespace browser {\n\n"
    "// Searches for information related to `query` and displays `topn` results.\n"
    "type search = (_: {\n"
    "query: string,\n"
    "topn?: number, // default: 10\n"
    "source?: string,\n"
    "}) => any;\n\n"
    "// Opens the link `id` from the page indicated by `cursor` starting at line number "
    "`loc`, showing `num_lines` lines.\n"
    "// Valid link ids are displayed with the formatting: `【{id}†.*】`.\n"
    "// If `cursor` is not provided, the most recent page is implied.\n"
    "// If `id` is a string, it is treated as a fully qualified URL associated with "
    "`source`.\n"
    "// If `loc` is not provided, the viewport will be positioned at the beginning of the "
    "document or centered on the most relevant passage, if available.\n"
    "// Use this function without `id` to scroll to a new location of an opened page.\n"
    "type open = (_: {\n"
    "id?: number | string, // default: -1\n"
    "cursor?: number, // default: -1\n"
    "loc?: number, // default: -1\n"
    "num_lines?: number, // default: -1\n"
    "view_source?: boolean, // default: false\n"
    "source?: string,\n"
    "}) => any;\n\n"
    "// Finds exact matches of `pattern` in the current page, or the page given by "
    "`cursor`.\n"
    "type find = (_: {\n"
    "pattern: string,\n"
    "cursor?: number, // default: -1\n"
    "}) => any;\n\n"
    "} // namespace browser\n\n"
)
"""The built-in ``browser`` tool's declaration (``builtin_tools=["browser"]``; template text)."""

PYTHON_TOOL = (
    "## python\n\n"
    "Use this tool to execute Python code in your chain of thought. The code will not be "
    "shown to the user. This tool should be used for internal reasoning, but not for code "
    "that is intended to be visible to the user (e.g. when creating plots, tables, or "
    "files).\n\n"
    "When you send a message containing Python code to python, it will be executed in a "
    "stateful Jupyter notebook environment. python will respond with the output of the "
    "execution or time out after 120.0 seconds. The drive at '/mnt/data' can be used to save "
    "and persist user files. Internet access for this session is UNKNOWN. Depends on the "
    "cluster.\n\n"
)
"""The built-in ``python`` tool's declaration (``builtin_tools=["python"]``; template text)."""
