"""Typing untyped argument text by the request's tool schemas.

XML and key/value dialects write every value as text. These rules, shared by parsing and
streaming, turn that text into the value the tool expects:

* ``string``: the text verbatim (``"007"`` stays ``"007"``);
* ``integer``/``number``/``boolean``/``null``: parsed (``True``/``False``/``None`` accepted);
* ``object``/``array``: JSON, then a Python literal, else the text;
* unions (``anyOf``/``oneOf``/type lists, nullable) and unknown parameters: JSON when it is
  valid and fits the union, else the text.

A value that does not fit its schema is kept as the raw string: a call is never dropped.
The one exception is JSON nested deeper than :data:`tooletta.engine.MAX_DEPTH`: it raises
:class:`~tooletta.engine.BlockError`, so the block is malformed (unparsed, or a
:class:`~tooletta.ParseError` in strict mode) as in every JSON dialect. Python literals need no
such check: Python's parser refuses nesting deeper than 200.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import Any

import msgspec

from ..engine.jsonread import decode_bounded

__all__ = ["JSON_TYPE_NAMES", "ToolSchemas", "coerce_value", "python_literal", "schema_types"]

_INT = re.compile(r"[+-]?\d+\Z")
JSON_TYPE_NAMES: Mapping[type, str] = {
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    dict: "object",
    list: "array",
    type(None): "null",
}
"""The JSON Schema type name of a decoded JSON value, by its exact Python type."""


_NO_KINDS: dict[str, dict[str, tuple[str, Mapping[str, Any] | None]]] = {}
"""The shared, never written, empty parameter-kind cache of a request's tools (one per open
stream otherwise, most of which never type a value)."""


class ToolSchemas:
    """The request's tools, indexed by name: ``params(tool)`` gives a tool's properties.

    Built from OpenAI-style definitions (``{"type": "function", "function": {...}}``), the flat
    Responses form (``{"type": "function", "name": ..., "parameters": ...}``), Anthropic's
    ``input_schema``, or a mapping of name to parameters schema.
    """

    __slots__ = ("_index", "_kinds", "_raw")

    def __init__(self, tools: Mapping[str, Mapping[str, Any]] | None = None):
        self._index: dict[str, Mapping[str, Any]] | None = dict(tools or {})
        self._raw: Any = None
        self._kinds: dict[str, dict[str, tuple[str, Mapping[str, Any] | None]]] = {}

    @classmethod
    def of(cls, tools: Any) -> ToolSchemas:
        """Normalise whatever the caller passed as ``tools`` (``None`` gives an empty set).

        The definitions are indexed on first use, so a parse that never looks at a schema
        (JSON-argument formats) does not pay for a long tool list.
        """
        if isinstance(tools, ToolSchemas):
            return tools
        if tools is None and cls is ToolSchemas:
            return _NO_TOOLS
        if cls is ToolSchemas:
            lazy = cls.__new__(cls)
            lazy._index = None
            lazy._raw = tools
            lazy._kinds = _NO_KINDS  # a dict of its own on first use
            return lazy
        return cls(_index_of(tools))

    @property
    def _tools(self) -> dict[str, Mapping[str, Any]]:
        """The definitions by name (indexed on first use)."""
        index = self._index
        if index is None:
            index = self._index = _index_of(self._raw)
            self._raw = None
        return index

    def __bool__(self) -> bool:
        return bool(self._tools)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def names(self) -> list[str]:
        """The tool names, in definition order."""
        return list(self._tools)

    def properties(self, tool: str) -> Mapping[str, Any]:
        """The ``properties`` of ``tool``'s parameters schema (empty when unknown)."""
        params = self._tools.get(tool)
        props = params.get("properties") if params else None
        return props if isinstance(props, Mapping) else {}

    def param(self, tool: str, key: str) -> Mapping[str, Any] | None:
        """The schema of parameter ``key`` of ``tool``, or ``None`` when unknown."""
        params = self._tools.get(tool)
        if not params:
            return None
        props = params.get("properties")
        # (``type(x) is dict`` first: an ABC ``isinstance`` costs ~100 ns, per value typed)
        if type(props) is dict or isinstance(props, Mapping):
            schema = props.get(key)
            if type(schema) is dict or isinstance(schema, Mapping):
                return schema
        return None

    def kinds(self, tool: str) -> dict[str, tuple[str, Mapping[str, Any] | None]]:
        """The cache :meth:`kind` fills for ``tool``: ``key -> (type, schema)`` for the
        parameters looked up so far. One-shot readers look a key up here first (one dict
        lookup per value) and call :meth:`kind` when it is missing; never change it."""
        table = self._kinds.get(tool)
        if table is None:
            table = {}
            if tool in self._tools:  # names come from model text: only the request's tools
                if self._kinds is _NO_KINDS:
                    self._kinds = {}
                self._kinds[tool] = table
        return table

    def kind(self, tool: str, key: str) -> tuple[str, Mapping[str, Any] | None]:
        """``(type, schema)`` for ``schema = param(tool, key)``: what a value is typed by.

        ``type`` is the one JSON type the schema allows (``"string"`` exactly when
        :func:`~tooletta.toolkit.schema.is_string_schema`), or ``""`` when it allows several or does
        not say. Cached in :meth:`kinds`.
        """
        table = self._kinds.get(tool)
        if table is None:
            table = self.kinds(tool)
        hit = table.get(key)
        if hit is None:
            schema = self.param(tool, key)
            types = schema_types(schema)
            hit = (next(iter(types)) if len(types) == 1 else "", schema)
            if len(table) < _MAX_KINDS:  # keys come from model text: stay bounded
                table[key] = hit
        return hit


_ONE_TYPE: dict[str, frozenset[str]] = {}
_MAX_KINDS = 512


def _index_of(tools: Any) -> dict[str, Mapping[str, Any]]:
    """Tool definitions of any supported shape, by name."""
    out: dict[str, Mapping[str, Any]] = {}
    # (``type(x) is dict`` / ``list`` first: an ABC ``isinstance`` costs ~100 ns, and a
    # request's tools are indexed at every parse that types a value)
    if type(tools) is not list and isinstance(tools, Mapping):
        for name, params in tools.items():
            if type(params) is dict or isinstance(params, Mapping):
                out[str(name)] = params
        return out
    for tool in tools or ():
        if not (type(tool) is dict or isinstance(tool, Mapping)):
            continue
        inner = tool.get("function")
        fn: Mapping[str, Any] = inner if type(inner) is dict or isinstance(inner, Mapping) else tool
        name = fn.get("name")
        params = fn.get("parameters", fn.get("input_schema"))
        if isinstance(name, str):
            out[name] = params if type(params) is dict or isinstance(params, Mapping) else {}
    return out


_NO_TOOLS = ToolSchemas()
"""The schemas of a request without tools (shared: a ToolSchemas is never changed)."""


def schema_types(schema: Mapping[str, Any] | None) -> frozenset[str]:
    """The JSON types a schema allows (empty when it does not say)."""
    if not schema:
        return frozenset()
    t = schema.get("type")
    if (
        type(t) is str
        and "anyOf" not in schema
        and "oneOf" not in schema
        and schema.get("nullable") is not True
    ):  # the common case, one type: a shared set
        one = _ONE_TYPE.get(t)
        if one is None:
            one = frozenset((t,))
            if len(_ONE_TYPE) < 64:
                _ONE_TYPE[t] = one
        return one
    found: set[str] = set()
    if isinstance(t, str):
        found.add(t)
    elif isinstance(t, list):
        found.update(x for x in t if isinstance(x, str))
    for key in ("anyOf", "oneOf"):
        alts = schema.get(key)
        if isinstance(alts, list):
            for alt in alts:
                if isinstance(alt, Mapping):
                    found |= schema_types(alt)
    if schema.get("nullable") is True:
        found.add("null")
    if "enum" in schema and not found:
        values = schema.get("enum")
        if isinstance(values, list):
            found.update(JSON_TYPE_NAMES.get(type(v), "string") for v in values)
    return frozenset(found)


def is_string_schema(schema: Mapping[str, Any] | None) -> bool:
    """True when the parameter is a plain string (its value streams character by character)."""
    return schema_types(schema) == {"string"}


def python_literal(text: str) -> Any:
    """Evaluate a Python literal safely (``ast.literal_eval``); raise ValueError otherwise."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as exc:
        raise ValueError(str(exc)) from None


def _json(text: str) -> tuple[bool, Any]:
    """``(True, value)`` when ``text`` is JSON, else ``(False, None)``; JSON nested deeper
    than :data:`~tooletta.engine.MAX_DEPTH` raises :class:`~tooletta.engine.BlockError`."""
    try:
        return True, decode_bounded(text)
    except (msgspec.DecodeError, UnicodeError):
        return False, None


def _fits(value: Any, types: frozenset[str]) -> bool:
    kind = JSON_TYPE_NAMES.get(type(value))
    if kind is None:
        return False
    if kind in types:
        return True
    return kind == "integer" and "number" in types


def coerce_value(text: str, schema: Mapping[str, Any] | None) -> Any:
    """Type one raw value by its parameter schema (see the module docstring for the rules).

    Raises :class:`~tooletta.engine.BlockError` for JSON nested deeper than
    :data:`~tooletta.engine.MAX_DEPTH` (a block reader lets it propagate: the block is
    malformed).
    """
    types = schema_types(schema)
    if types == {"string"}:
        return text
    stripped = text.strip()
    if len(types) == 1:
        (kind,) = types
        if kind == "integer":
            if _INT.match(stripped):
                return _int_or(stripped, text)
            ok, value = _json(stripped)
            if ok and isinstance(value, float) and value.is_integer():
                return int(value)
            return text
        if kind == "number":
            if _INT.match(stripped):
                return _int_or(stripped, text)
            ok, value = _json(stripped)
            if ok and isinstance(value, (int, float)) and not isinstance(value, bool):
                return value
            try:
                number = float(stripped)
            except ValueError:
                return text
            return number if number == number and abs(number) != float("inf") else text
        if kind == "boolean":
            low = stripped.lower()
            if low == "true":
                return True
            if low == "false":
                return False
            return text
        if kind == "null":
            return None if stripped in ("null", "None", "") else text
        if kind in ("object", "array"):
            want = dict if kind == "object" else list
            ok, value = _json(stripped)
            if ok and isinstance(value, want):
                return value
            try:
                value = python_literal(stripped)
            except ValueError:
                return text
            return value if isinstance(value, want) and _plain(value) else text
    # a union, an unknown type or no schema: JSON when valid (and fitting), else the text
    ok, value = _json(stripped)
    if not ok and stripped in ("True", "False", "None"):
        ok, value = True, {"True": True, "False": False, "None": None}[stripped]
    if ok and (not types or _fits(value, types)):
        return value
    return text


def _int_or(digits: str, text: str) -> Any:
    """``int(digits)``, or ``text`` when Python refuses to convert that many digits
    (``sys.set_int_max_str_digits``): such a value stays the model's text."""
    try:
        return int(digits)
    except ValueError:
        return text


def _plain(value: Any) -> bool:
    """True when a Python literal holds only JSON-representable values."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    if isinstance(value, float):
        return value == value and abs(value) != float("inf")
    return value is None or isinstance(value, (str, int, bool))
