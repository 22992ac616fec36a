"""Writing text an imported template reads back: the inverse of its fields.

A delimiter is written as the shortest text its pattern matches with the call's name (and id)
in their groups; a tool-call body by its content parser (JSON, ``xml-inline`` tags through
the ``tag_pattern``, ``kv-lines``, a ``python-call-list``); the ``transform`` is inverted to
find what goes where. What cannot be worked out raises :class:`~tooletta.RenderError`, and
every text is parsed back before it is returned: render never writes text that reads back as
something else. The text is the template's reading, not necessarily the model's own spelling
(use the first-party dialect for that).
"""

from __future__ import annotations

import copy
import json
import re
from typing import TYPE_CHECKING, Any

from ...dialect import to_json
from ...errors import RenderError
from ...ir import ToolCall
from ._regex import invert, parse
from ._template import Delimiter, FieldSpec, Template

if TYPE_CHECKING:
    from ._dialect import TemplateDialect

__all__ = ["Renderer"]

_PLACEHOLDER = re.compile(r"\{(\w+(?:\.\w+)*)\}")
_PY_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[-.][A-Za-z0-9_]+)*\Z")
_KINDS = {str: "string", bool: "boolean", int: "integer", float: "number", dict: "object"}


def _schema_tools(calls: list[ToolCall]) -> list[dict[str, Any]]:
    """Tool definitions typing every argument by its value (what the request would say)."""
    props: dict[str, dict[str, Any]] = {}
    for call in calls:
        mine = props.setdefault(call.name, {})
        for key, value in call.arguments.items():
            kind = _KINDS.get(type(value), "array" if isinstance(value, list) else "null")
            if mine.get(key, {"type": kind}) != {"type": kind}:
                mine[key] = {}
            else:
                mine[key] = {"type": kind}
    return [
        {"type": "function", "function": {"name": n, "parameters": {"properties": p}}}
        for n, p in props.items()
    ]


class Renderer:
    """Writes replies for one template (see the module docstring)."""

    STYLES = ((False, "\n"), (True, "\n"), (False, ", "), (True, ", "), (False, ""))
    """``(fill, separator)`` tried in turn: optional parts of delimiters left out or written,
    and what goes between parameters; the first text that reads back is the one written."""

    def __init__(self, template: Template, dialect: str):
        self.template = template
        self.dialect = dialect
        self.fill = False
        self.sep = "\n"
        self.calls = template.role_field("calls")
        self.content = template.fields.get("content")
        self.reasoning = template.role_field("reasoning")

    def styled(self, fill: bool, sep: str) -> Renderer:
        """A copy writing in one of the :data:`STYLES`."""
        out = copy.copy(self)
        out.fill, out.sep = fill, sep
        return out

    def error(self, message: str) -> RenderError:
        return RenderError(message, dialect=self.dialect)

    def delimiter(self, d: Delimiter | None, values: dict[str, str], what: str) -> str:
        """The text of an open or close (``""`` when the field has none)."""
        if d is None:
            return ""
        if d.literals is not None:
            return d.literals[0]
        text = invert(d.pattern.node, values, fill=self.fill)
        if text is None:
            raise self.error(f"cannot write the {what} pattern {d.pattern.source!r}")
        return text

    def region(self, field: FieldSpec, body: str, values: dict[str, str]) -> str:
        """A whole region: open, body, close."""
        if field.lookahead is not None:  # opened by the prompt: only the body and the close
            return body + self.delimiter(field.close, values, "close")
        return (
            self.delimiter(field.open, values, "open")
            + body
            + self.delimiter(field.close, values, "close")
        )

    def render(self, calls: list[ToolCall], content: str, reasoning: str) -> str:
        """The reply's text (before the read-back check)."""
        parts: list[str] = []
        if reasoning:
            field = self.reasoning
            if field is None or (field.open is None and self.template.implicit != field.name):
                raise self.error("the template has no reasoning field to write reasoning in")
            parts.append(reasoning if field.open is None else self.region(field, reasoning, {}))
        if content:
            field = self.content
            if field is None:
                raise self.error("the template has no content field (it drops loose text)")
            parts.append(content if field.open is None else self.region(field, content, {}))
        if calls:
            parts.append(self.render_calls(calls))
        return "\n".join(parts)

    def render_calls(self, calls: list[ToolCall]) -> str:
        field = self.calls
        if field is None:
            raise self.error("the template has no tool_calls field")
        scopes = [self.scope(field, c) for c in calls]
        captures = field.captures
        if field.transform_each or field.content == "python-call-list":
            items = [{k: v for k, v in s.items() if k not in captures} for s in scopes]
            values = {k: v for k, v in scopes[0].items() if k in captures}
            return self.region(field, self.body(field, items, calls[0].name), _strings(values))
        out = []
        for scope, call in zip(scopes, calls):
            values = {k: v for k, v in scope.items() if k in captures}
            body = self.body(field, scope.get("content"), call.name)
            out.append(self.region(field, body, _strings(values)))
        return "\n".join(out)

    def scope(self, field: FieldSpec, call: ToolCall) -> dict[str, Any]:
        """What ``transform`` needs to give ``call``: captures and ``content`` (or, with
        ``transform_each``, one item's keys)."""
        function = {"name": call.name, "arguments": call.arguments}
        transform = field.transform
        if transform is None:
            return {"content": function}
        want: dict[str, Any] = (
            {"type": "function", "function": function}
            if isinstance(transform, dict) and "function" in transform
            else dict(function)
        )
        if call.id is not None:
            want["id"] = call.id
        scope: dict[str, Any] = {}
        placed: set[str] = set()
        self._place(transform, want, scope, placed, "")
        for need in ("name", "arguments"):
            if not any(p == need or p.endswith("." + need) for p in placed):
                raise self.error(f"cannot tell where the template's transform puts {need!r}")
        if "id" in placed and call.id is None:
            raise self.error("the template writes an id, and the call has none")
        return scope

    def _place(self, t: Any, want: Any, scope: dict[str, Any], placed: set[str], at: str) -> None:
        if isinstance(t, dict):
            if not isinstance(want, dict):
                raise self.error("the transform's shape is not a tool call's")
            for key, sub in t.items():
                if key in want:
                    self._place(sub, want[key], scope, placed, f"{at}.{key}".lstrip("."))
            return
        m = _PLACEHOLDER.fullmatch(t) if isinstance(t, str) else None
        if m is None:
            return  # a constant: nothing to place
        root, *keys = m.group(1).split(".")
        if not keys:
            scope[root] = want
        else:
            node = scope.setdefault(root, {})
            for key in keys[:-1]:
                node = node.setdefault(key, {})
            node[keys[-1]] = want
        placed.add(at)
        if isinstance(want, dict) and "name" in want and "arguments" in want:
            placed.update((f"{at}.name".lstrip("."), f"{at}.arguments".lstrip(".")))

    def body(self, field: FieldSpec, value: Any, tool: str) -> str:
        """A tool-call body by the field's content parser."""
        kind = field.content
        if kind == "json":
            return to_json(value)
        if kind == "python-call-list":
            return _python_calls(value, self.error)
        if not isinstance(value, dict):
            raise self.error(f"a {kind} body holds an object of arguments")
        args = field.content_args
        if kind == "xml-inline":
            tag = parse(args["tag_pattern"])
            parts = []
            for key, v in value.items():
                value = _text_value(v, args.get("value_parser"))
                text = invert(tag, {"key": key, "value": value}, fill=self.fill)
                if text is None:
                    raise self.error(f"cannot write argument {key!r} with the tag_pattern")
                parts.append(text)
            sep = self.sep
            return sep.strip(", ") + sep.join(parts) + sep.strip(", ") if parts else ""
        if kind == "kv-lines":
            sep = args.get("line_sep", "\n")
            kv = args.get("kv_sep", ":")
            space = " " if args.get("strip", True) else ""
            parser = args.get("value_parser")
            lines = [f"{k}{kv}{space}{_text_value(v, parser)}" for k, v in value.items()]
            return sep + sep.join(lines) + sep if lines else ""
        raise self.error(f"a {kind} field cannot hold tool calls")

    def check(
        self,
        dialect: TemplateDialect,
        text: str,
        calls: list[ToolCall],
        content: str,
        reasoning: str,
    ) -> None:
        """Parse ``text`` back; :class:`~tooletta.RenderError` unless it gives what was written."""
        back = dialect.parse(text, tools=_schema_tools(calls))
        ids = self.calls is not None and "id" in _transform_keys(self.calls.transform)
        got = [(c.name, c.arguments, c.id if ids else None) for c in back.calls]
        want = [(c.name, c.arguments, c.id if ids else None) for c in calls]
        if (
            back.unparsed
            or got != want
            or back.content.strip() != content.strip()
            or back.reasoning.strip() != reasoning.strip()
        ):
            raise self.error("the template would read this text back differently")


def _transform_keys(transform: Any) -> set[str]:
    return set(transform) if isinstance(transform, dict) else set()


def _strings(values: dict[str, Any]) -> dict[str, str]:
    return {k: v if isinstance(v, str) else json.dumps(v) for k, v in values.items()}


def _text_value(value: Any, parser: Any) -> str:
    """An argument as the ``value_parser`` reads it: JSON, a string as it is for a text
    parser (typed back by the schema), in the first of ``string_delims`` or as a JSON
    string for a ``json`` parser (so that ``"3"`` stays a string)."""
    if not isinstance(value, str):
        return to_json(value)
    if isinstance(parser, dict) and parser.get("name") == "json":
        args = parser.get("args") or {}
        delims = args.get("string_delims") or []
        if delims and len(delims[0]) == 2:
            return f"{delims[0][0]}{value}{delims[0][1]}"
        return to_json(value)
    return value


def _py_value(value: Any, error: Any) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "True", False: "False", None: "None"}[value]
    if isinstance(value, (int, float, str)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_py_value(v, error) for v in value) + "]"
    if isinstance(value, dict):
        items = (
            f"{json.dumps(k, ensure_ascii=False)}: {_py_value(v, error)}" for k, v in value.items()
        )
        return "{" + ", ".join(items) + "}"
    raise error(f"cannot write {type(value).__name__} in a python-call-list")


def _python_calls(items: Any, error: Any) -> str:
    out = []
    for item in items if isinstance(items, list) else []:
        name, args = item.get("name"), item.get("arguments")
        if not isinstance(name, str) or not _PY_NAME.match(name) or not isinstance(args, dict):
            raise error("a python-call-list call needs a Python name and keyword arguments")
        for key in args:
            if not (isinstance(key, str) and key.isidentifier() and key.isascii()):
                raise error(f"{key!r} is not a keyword argument name")
        kwargs = ", ".join(f"{k}={_py_value(v, error)}" for k, v in args.items())
        out.append(f"{name}({kwargs})")
    return "[" + ", ".join(out) + "]"
