"""The schema typing rules of untyped-text formats (XML, key/value), and their tests."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, ClassVar

from .. import api
from .checks import check_arguments_stream
from .fixtures import schema_tools
from .laws import check_stream_equals_parse
from .streams import assemble, stream_text
from .suite import DialectTests

__all__ = ["TYPING_RULES", "TypedDialectTests", "check_typed_value"]


def check_typed_value(
    dialect: str, text: str, want: Any, tools: Any = None, *, key: str = "x", name: str = "f"
) -> None:
    """Assert that ``text``, one call ``name`` with the argument ``key``, gives ``want`` (equal
    and of the same type) parsed one-shot, streamed one character at a time and streamed in
    one piece; the streams also equal the one-shot parse (content and unparsed included)."""
    result = api.parse(text, dialect, tools=tools)
    assert [c.name for c in result.calls] == [name], (text, result)
    assert key in result.calls[0].arguments, (text, result.calls)
    got = result.calls[0].arguments[key]
    assert got == want and type(got) is type(want), (text, got, want)
    splits: list[list[int] | None] = [None, []]
    for cuts in splits:
        chunks = list(text) if cuts is None else [text]
        updates, last = stream_text(dialect, chunks, tools)
        streamed = assemble([*updates, last]).calls
        assert streamed == result.calls, (text, streamed, result.calls)
        value = streamed[0].arguments[key]
        assert type(value) is type(want), (text, value, want)
        check_stream_equals_parse(dialect, text, cuts, tools)


TYPING_RULES: list[tuple[Any, str, Any]] = [
    # string: the text verbatim
    ("string", "007", "007"),
    ("string", "null", "null"),
    ("string", "true", "true"),
    ("string", "12", "12"),
    ("string", "", ""),
    ("string", "a b", "a b"),
    ("string", "x\ny", "x\ny"),
    # integer, number, boolean, null: parsed (Python's spellings too), else the text
    ("integer", "7", 7),
    ("integer", "-3", -3),
    ("integer", "7.0", 7),
    ("integer", " 7 ", 7),
    ("integer", "seven", "seven"),
    ("integer", "4x", "4x"),
    ("number", "2.5", 2.5),
    ("number", "3", 3),
    ("number", "1e3", 1000.0),
    ("number", "-0.25", -0.25),
    ("number", "lots", "lots"),
    ("boolean", "true", True),
    ("boolean", "True", True),
    ("boolean", "false", False),
    ("boolean", "False", False),
    ("boolean", "yes", "yes"),
    ("null", "null", None),
    ("null", "None", None),
    # object, array: JSON, then a Python literal, else the text
    ("object", '{"a": [1, true]}', {"a": [1, True]}),
    ("object", "{'a': [1, True]}", {"a": [1, True]}),
    ("object", "not json", "not json"),
    ("array", "[1, 2]", [1, 2]),
    ("array", "['x', None]", ["x", None]),
    ("array", "[]", []),
    ("array", "nope", "nope"),
    # unions and nullable: JSON when it is valid and fits, else the string
    ({"type": ["integer", "null"]}, "null", None),
    ({"type": ["integer", "null"]}, "None", None),
    ({"type": ["integer", "null"]}, "5", 5),
    ({"type": ["integer", "null"]}, "abc", "abc"),
    ({"type": ["string", "null"]}, "null", None),
    ({"type": ["string", "null"]}, "3", "3"),
    ({"type": ["string", "null"]}, "Paris", "Paris"),
    ({"type": ["boolean", "null"]}, "true", True),
    ({"type": ["number", "null"]}, "null", None),
    ({"anyOf": [{"type": "integer"}, {"type": "string"}]}, "12", 12),
    ({"anyOf": [{"type": "integer"}, {"type": "string"}]}, "abc", "abc"),
    ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "null", None),
    # no schema: JSON (and Python's True/False/None) when valid, else the string
    (None, "3", 3),
    (None, "2.5", 2.5),
    (None, "true", True),
    (None, "True", True),
    (None, "False", False),
    (None, "None", None),
    (None, "null", None),
    (None, '{"a": null}', {"a": None}),
    (None, "[1, 2]", [1, 2]),
    (None, "Paris", "Paris"),
    (None, "hello world", "hello world"),
    (None, "007", "007"),
    (None, "[1, 2", "[1, 2"),
]
"""The schema typing rules (issue 4) every untyped-text format keeps, as ``(schema, raw text,
value)``: a schema given as a string is a type name; ``None`` means the parameter has no
schema. Framing whitespace differs by format, so its rules are each format's own."""


def _rule_id(schema: Any, raw: str, want: Any) -> str:
    kind = "none" if schema is None else schema if isinstance(schema, str) else json.dumps(schema)
    return f"{kind}:{raw!r}"


class TypedDialectTests(DialectTests):
    """:class:`DialectTests` for a format that writes argument values as untyped text (XML,
    key/value), typed by the request's tool schemas.

    Set :meth:`render_param` (the model text of one call ``f`` with one parameter, written as
    given): every rule of :data:`~tooletta.testing.TYPING_RULES`, and the format's own
    ``typing_rules``, is a test of its own, checked in one-shot parsing and in streaming (one
    character at a time, and in one piece); a string value must stream as it is generated.
    """

    typing_rules: ClassVar[Sequence[tuple[Any, str, Any]]] = ()
    """This format's own rules, checked beside :data:`~tooletta.testing.TYPING_RULES` (framing
    whitespace, ...)."""
    needs_tools: ClassVar[bool] = False
    """Whether the format only recognises tools named in ``tools`` (no-schema rules then run
    with a tool whose parameters have no properties, never with ``tools=None``)."""

    def render_param(self, name: str, raw: str) -> str:
        """The model text of one call ``f`` whose parameter ``name`` is written as ``raw``."""
        raise NotImplementedError

    def pytest_generate_tests(self, metafunc: Any) -> None:
        """One :meth:`test_typing_rule` per rule."""
        if "typing_rule" in metafunc.fixturenames:
            rules = [*TYPING_RULES, *self.typing_rules]
            metafunc.parametrize("typing_rule", rules, ids=[_rule_id(*r) for r in rules])

    def test_typing_rule(self, typing_rule: tuple[Any, str, Any]) -> None:
        """One typing rule, in parse and in stream (no schema: with and without ``tools``)."""
        schema, raw, want = typing_rule
        text = self.render_param("x", raw)
        if schema is not None:
            check_typed_value(self.dialect, text, want, schema_tools({"x": schema}))
            return
        check_typed_value(self.dialect, text, want, schema_tools({}))
        if not self.needs_tools:
            check_typed_value(self.dialect, text, want, None)

    def test_string_streams_as_generated(self) -> None:
        """A string value streams character by character, as JSON text, before it closes."""
        value = "hello world, streamed"
        text = self.render_param("x", value)
        want = '{"x": ' + json.dumps(value) + "}"
        check_arguments_stream(
            self.dialect, text, want, tools=schema_tools({"x": "string"}), pieces=5
        )
