"""Functionary v3.2's tool declarations: JSON schemas as its template's TypeScript-like text.

The v3.2 template (``meetkai/functionary-*-v3.2`` ``tokenizer_config.json``, macros
``generate_schema_from_functions``, ``get_parameter_typescript``, ``get_array_typescript``,
``get_param_info``, ``get_param_type``, ``get_format_param``, ``get_enum_option_str``)
declares the tools as ``namespace functions { ... }``. This module writes that text byte for
byte, the template's quirks included (they are what the model saw):

* a parameter's comment line (``// Description. Default=... Format=... Maximum=...``) is
  written before its declaration; values are written with Python's ``str`` (Jinja's ``~``),
  a string parameter's default in double quotes;
* a parameter with ``oneOf`` always gets a comment (``// Format=`` at least: the format macro
  gives an empty text, not its "none" marker, when no variant has a format);
* nested objects and arrays of objects are indented four spaces per level;
* an enum lists its values joined by `` | `` (strings quoted), except that no separator
  follows a value equal to the last one;
* a type list is joined by `` | ``; ``integer`` and ``float`` become ``number``;
* a parameter with neither ``type`` nor ``oneOf`` has an empty type.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["namespace"]

_NONE = "<|NONE|>"
_LIMITS = (
    ("maximum", "Maximum"),
    ("minimum", "Minimum"),
    ("maxLength", "Maximum length"),
    ("minLength", "Minimum length"),
)


def _text(value: Any) -> str:
    """A value as Jinja's ``~`` and ``string`` write it (``str``)."""
    return str(value)


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _converted(kind: str) -> str:
    return "number" if kind in ("integer", "float") else kind


def _join(values: Any) -> str:
    return " | ".join(_text(v) for v in values)


def param_type(param: Mapping[str, Any]) -> str:
    """``get_param_type``: the type, or the ``oneOf`` variants' distinct types."""
    if "type" in param:
        raw = param["type"]
        kind = _join(raw) if isinstance(raw, (list, tuple, Mapping)) else _text(raw)
        return _converted(kind)
    if "oneOf" in param:
        seen: list[Any] = []
        keys: list[Any] = []  # (compared by equality: a type list is no set member)
        for variant in param["oneOf"] if isinstance(param["oneOf"], (list, tuple)) else ():
            if isinstance(variant, Mapping) and "type" in variant:
                value = variant["type"]
                key = value.lower() if isinstance(value, str) else value
                if key not in keys:
                    keys.append(key)
                    seen.append(value)
        return _converted(_join(seen))
    return ""


def _format(param: Mapping[str, Any]) -> str:
    """``get_format_param``: the format, the variants' formats, or the "none" marker."""
    if "format" in param:
        return _text(param["format"])
    if "oneOf" in param:
        variants = param["oneOf"] if isinstance(param["oneOf"], (list, tuple)) else ()
        last = _mapping(variants[-1]) if variants else {}
        out = ""
        for item in variants:
            if isinstance(item, Mapping) and "format" in item:
                same = "format" in last and item["format"] == last["format"]
                out += _text(item["format"]) + ("" if same else " or ")
        return out
    return _NONE


def _info(param: Mapping[str, Any]) -> str:
    """``get_param_info``: the comment line, or the "none" marker."""
    fmt = _format(param)
    if not (
        "description" in param
        or "default" in param
        or fmt != _NONE
        or any(param.get(key) for key, _ in _LIMITS)
    ):
        return _NONE
    out = "//"
    if "description" in param:
        desc = _text(param["description"])
        out += " " + (desc if desc.endswith(".") else desc + ".")
    if "default" in param:
        default = _text(param["default"])
        if param.get("type", "any") == "string":
            default = f'"{default}"'
        out += f" Default={default}."
    if fmt != _NONE:
        out += " Format=" + fmt
    for key, label in _LIMITS:
        if key in param:
            out += f" {label}={_text(param[key])}"
    return out


def _enum(options: Sequence[Any]) -> str:
    """``get_enum_option_str``."""
    out = ""
    for value in options:
        out += f'"{value}"' if isinstance(value, str) else _text(value)
        if len(options) > 0 and value != options[-1]:
            out += " | "
    return out


def _offset(depth: int) -> str:
    return "    " * depth if depth >= 1 else ""


def _with_info(declaration: str, comment: str, examples: list[Any], depth: int) -> str:
    """``append_new_param_info``."""
    offset = _offset(depth)
    out = ""
    if comment != _NONE:
        out += "\n" + offset + comment
        out += _examples(examples, offset)
    return out + "\n" + offset + declaration


def _examples(examples: list[Any], offset: str) -> str:
    return "".join("\n" + offset + "// " + _text(e).replace("'", '"') for e in examples)


def _array(name: str | None, spec: Mapping[str, Any], depth: int) -> str:
    """``get_array_typescript``."""
    offset = _offset(depth)
    items = spec.get("items", {})
    if not _sized(items):
        return "\n" + offset + (f"{name}: []" if name else "[]")
    items = _mapping(items)
    kind = param_type(items)
    if kind == "object":
        head = "\n" + offset + (f"{name}: {{" if name else "{")
        body = _parameters(
            _mapping(items.get("properties", {})), items.get("required", []), depth + 1
        )
        return head + body + "\n" + offset + "}[]"
    if kind == "array":
        inner = _array(None, items, depth + 1)
        if not name:
            return "\n" + inner + "[]"
        return "\n" + offset + name + ": " + inner.strip() + "[]"
    if "enum" in items:
        options = _enum(items["enum"])
        if name is None:
            return f"({options})[]"
        return "\n" + offset + f"{name}: ({options})[]"
    if name is None:
        return "\n" + kind + "[]"
    return "\n" + offset + f"{name}: {kind}[],"


def _sized(value: Any) -> bool:
    """``value|length > 0`` for a JSON value."""
    try:
        return len(value) > 0
    except TypeError:
        return False


def _required(required: Any, name: str) -> bool:
    """The template's ``required_params is iterable and name not in required_params``,
    negated: whether ``name`` is written without ``?``."""
    if isinstance(required, (list, tuple, str, Mapping)):
        return name in required
    return True


def _parameters(properties: Mapping[str, Any], required: Any, depth: int) -> str:
    """``get_parameter_typescript``."""
    out = ""
    offset = _offset(depth)
    for name, param in properties.items():
        if not isinstance(param, Mapping):
            continue
        comment = _info(param)
        examples: list[Any] = []
        if "examples" in param and isinstance(param["examples"], (list, tuple)):
            examples = [f"Example {name}:", *param["examples"]]
        declaration = name if _required(required, name) else name + "?"
        kind = param_type(param)
        if kind == "object":
            if comment != _NONE:
                out += "\n" + offset + comment
            out += _examples(examples, offset)
            out += "\n" + offset + declaration + ": {"
            out += _parameters(
                _mapping(param.get("properties", {})), param.get("required", []), depth + 1
            )
            out += "\n" + offset + "},"
        elif kind == "array":
            items = param.get("items", {})
            if not isinstance(items, Mapping) or "type" not in items:
                out += _with_info(declaration + ": [],", comment, examples, depth)
                continue
            if comment != _NONE:
                out += "\n" + offset + comment
            out += _examples(examples, offset)
            array = _array(declaration, param, depth)
            out += array if array.endswith(",") else array + ","
        else:
            if "enum" in param and isinstance(param["enum"], (list, tuple)):
                kind = _enum(param["enum"])
            if param.get("nullable"):
                kind += " | null"
            out += _with_info(f"{declaration}: {kind},", comment, examples, depth)
    return out


def namespace(tools: Sequence[Mapping[str, Any]], name: str = "functions") -> str:
    """``generate_schema_from_functions``: the declarations of ``tools`` (OpenAI Chat shape,
    or bare functions)."""
    out = "// Supported function definitions that should be called when necessary.\n"
    out += f"namespace {name} {{\n\n"
    for tool in tools:
        function = tool.get("function") or tool
        function = _mapping(function)
        function_name = function.get("name")
        if not function_name:
            continue
        out += f"// {_text(function.get('description', ''))}\n"
        out += f"type {function_name}"
        parameters = _mapping(function.get("parameters", {}))
        properties = parameters.get("properties")
        if parameters and properties and isinstance(properties, Mapping):
            out += " = (_: {"
            out += _parameters(properties, parameters.get("required", []), 0)
            out += "\n}) => any;\n\n"
        else:
            out += " = () => any;\n\n"
    return out + f"}} // namespace {name}"
