"""The render laws (issue 14): render refuses, with a RenderError, what parse cannot read back.

For any dialect:

1. NaN and the infinities, anywhere in the arguments, are refused (JSON cannot write them; a
   format that writes values as text would read them back as strings), and so are integers
   longer than :data:`~tooletta.expressible.MAX_INT_CHARS` characters (no decoder reads them
   back), while one of exactly that length reads back;
2. arguments nested as deep as the dialect's ``max_depth`` (default
   :data:`tooletta.engine.MAX_DEPTH`, the arguments object counting as one level) read back,
   one level deeper is refused, and so is nesting far past Python's recursion limit (a
   :class:`~tooletta.RenderError`, never a ``PluginError``);
3. a long function name or argument key (1000 or 5000 characters) reads back exactly, or
   render refuses it: never a call lost in the content;
4. an empty function name is refused by render, and a call whose name is empty is never read
   as a call (in parse and in stream).

:class:`RenderLaws` runs them as tests (a base of :class:`~tooletta.testing.DialectTests`); the
``check_*`` functions check one dialect, and :func:`~tooletta.testing.check_render_laws` all of
them.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .. import api
from ..errors import RenderError
from ..expressible import MAX_INT_CHARS, max_depth_of
from ..ir import ToolCall
from .fixtures import tools_for
from .laws import check_stream_equals_parse
from .streams import assemble, stream_text

__all__ = [
    "NON_FINITE",
    "RenderLaws",
    "check_depth_limit",
    "check_empty_name",
    "check_long_identifiers",
    "check_long_integers",
    "check_non_finite_refused",
    "check_render_laws",
    "nested",
]

NON_FINITE = (float("nan"), float("inf"), float("-inf"))
"""The floats JSON has no spelling for."""

_FAR = 5000
"""A nesting depth far past Python's default recursion limit (1000)."""

_PROBE = "tooletta_probe"
"""A function name that :func:`check_empty_name` renders, then deletes from the text."""


def nested(depth: int, kind: str = "list", leaf: Any = 1) -> Any:
    """``leaf`` inside ``depth`` containers: lists (``[[1]]``) or, for ``kind="dict"``,
    single-key objects (``{"a": {"a": 1}}``)."""
    value = leaf
    for _ in range(depth):
        value = [value] if kind == "list" else {"a": value}
    return value


def _refused(dialect: str, calls: list[ToolCall], why: str) -> None:
    """Assert that render refuses ``calls`` with a RenderError."""
    try:
        text = api.render(calls, dialect)
    except RenderError:
        return
    raise AssertionError(f"{dialect} rendered {why} as {text[:300]!r}")


def _reads_back(dialect: str, calls: list[ToolCall], text: str, pieces: int = 7) -> None:
    """Assert that ``text``, rendered from ``calls``, parses and streams back to them exactly
    (names and arguments, no content, nothing unparsed)."""
    tools = tools_for(calls)  # formats of untyped text type values by the schema
    result = api.parse(text, dialect, tools=tools)
    assert not result.unparsed, (dialect, text[:300], result.unparsed)
    got = [(c.name, c.arguments) for c in result.calls]
    assert got == [(c.name, c.arguments) for c in calls], (dialect, text[:300], got)
    assert not result.content.strip(), ("markup leaked into content", dialect, result.content)
    step = max(1, len(text) // pieces)
    check_stream_equals_parse(dialect, text, range(step, len(text), step), tools)
    check_stream_equals_parse(dialect, text, [], tools)


def check_non_finite_refused(dialect: str) -> None:
    """Assert law 1: NaN, ``inf`` and ``-inf`` as a value, in a list, in an object and deep
    inside both are refused with a RenderError."""
    for bad in NON_FINITE:
        for value in (bad, [1, bad], {"k": bad}, nested(5, "dict", [bad]), nested(5, leaf=bad)):
            _refused(dialect, [ToolCall("f", {"x": value})], f"{value!r}")
        _refused(dialect, [ToolCall("f", {"ok": 1}), ToolCall("g", {"x": bad})], f"{bad!r}")


def check_long_integers(dialect: str) -> None:
    """Assert law 1 for integers: one :data:`~tooletta.expressible.MAX_INT_CHARS` characters
    long reads back (when the dialect writes it), one character longer is refused."""
    longest = 10 ** (MAX_INT_CHARS - 1)  # MAX_INT_CHARS digits
    for value in (-longest, longest * 10, [1, -(10**5000)], {"k": longest * 10}):
        _refused(dialect, [ToolCall("f", {"x": value})], "an integer too long to read back")
    for value in (longest, -(longest // 10), [longest]):
        calls = [ToolCall("f", {"x": value})]
        try:
            text = api.render(calls, dialect)
        except RenderError:
            continue
        _reads_back(dialect, calls, text)


def check_depth_limit(dialect: str) -> None:
    """Assert law 2: arguments exactly ``max_depth`` deep read back (when the dialect writes
    nesting at all), one level deeper and far deeper are refused with a RenderError."""
    limit = max_depth_of(api.get_dialect(dialect))
    for kind in ("list", "dict"):
        for depth in (limit + 1, _FAR):  # the arguments object is the first level
            calls = [ToolCall("f", {"x": nested(depth - 1, kind)})]
            _refused(dialect, calls, f"arguments nested {depth} deep ({kind}s)")
        try:
            api.render([ToolCall("f", {"x": nested(2, kind)})], dialect)
        except RenderError:
            continue  # the format writes no nesting at all
        calls = [ToolCall("f", {"x": nested(limit - 1, kind)})]
        try:
            text = api.render(calls, dialect)
        except RenderError as exc:
            raise AssertionError(f"{dialect} refused arguments {limit} deep: {exc}") from None
        _reads_back(dialect, calls, text)


def check_long_identifiers(dialect: str, sizes: tuple[int, ...] = (1000, 5000)) -> None:
    """Assert law 3: function names and argument keys of each of ``sizes`` characters read
    back exactly (in parse and stream, nothing left in the content), or render refuses them."""
    for size in sizes:
        for calls in (
            [ToolCall("x" * size, {"k": "v"})],
            [ToolCall("f", {"k" * size: "v"})],
            [ToolCall("get_" + "x" * size, {"k" * size: "v", "b": 1}), ToolCall("g", {"k": "v"})],
        ):
            try:
                text = api.render(calls, dialect)
            except RenderError:
                continue
            _reads_back(dialect, calls, text)


def check_empty_name(dialect: str) -> None:
    """Assert law 4: render refuses a call with an empty name, and the dialect's markup for a
    call with its name deleted never reads (in parse or stream) as a call named ``""``."""
    _refused(dialect, [ToolCall("", {"k": "v"})], "a call with an empty name")
    _refused(dialect, [ToolCall("f", {}), ToolCall("", {})], "a call with an empty name")
    for args in ({"k": "v"}, {}):
        try:
            text = api.render([ToolCall(_PROBE, args)], dialect)
        except RenderError:
            continue
        text = text.replace(_PROBE, "")
        result = api.parse(text, dialect)
        assert all(c.name for c in result.calls), (dialect, text, result.calls)
        updates, last = stream_text(dialect, list(text))
        streamed = assemble([*updates, last]).calls
        assert all(c.name for c in streamed), (dialect, text, streamed)
        check_stream_equals_parse(dialect, text, [], None)


def check_render_laws(dialect: str) -> None:
    """Assert every render law for ``dialect``."""
    check_non_finite_refused(dialect)
    check_long_integers(dialect)
    check_depth_limit(dialect)
    check_long_identifiers(dialect)
    check_empty_name(dialect)


class RenderLaws:
    """The render laws as tests, one per law, for the dialect a subclass names in
    ``dialect`` (a base of :class:`~tooletta.testing.DialectTests`)."""

    dialect: ClassVar[str]

    def test_render_refuses_non_finite(self) -> None:
        """NaN and infinities anywhere in the arguments are a RenderError."""
        check_non_finite_refused(self.dialect)

    def test_render_long_integers(self) -> None:
        """Integers too long for any decoder are a RenderError; the longest read back."""
        check_long_integers(self.dialect)

    def test_render_depth_limit(self) -> None:
        """Arguments as deep as the dialect reads round-trip; deeper is a RenderError."""
        check_depth_limit(self.dialect)

    def test_render_long_identifiers(self) -> None:
        """A 1000- or 5000-character name or key reads back exactly, or render refuses it."""
        check_long_identifiers(self.dialect)

    def test_render_empty_name(self) -> None:
        """An empty name is a RenderError, and never parses or streams as a call."""
        check_empty_name(self.dialect)
