"""What a dialect is, and the base class first-party dialects build on.

A dialect is any object with an ``info`` (:class:`~tooletta.DialectInfo`), a
``parse(text, tools=None)`` and a ``render(calls, content="")``; ``stream(tools=None)``,
``detect(text)`` and ``max_depth`` (the deepest arguments its parse reads, when that is less
than :data:`~tooletta.engine.MAX_DEPTH`) are optional. :class:`ScannerDialect` supplies all
of them from a :class:`~tooletta.engine.Grammar` and a ``render_calls`` method, so a plugin
only describes its markers, reads its payload with the engine's primitives, and writes the
renderer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar, Protocol, runtime_checkable

from .boundary import checked_result
from .engine import MAX_DEPTH, Engine, Grammar, parse_with
from .errors import RenderError
from .exportname import NamedExport
from .ir import DialectInfo, ParseResult, StreamUpdate, ToolCall
from .jsonout import to_json
from .stream_checks import as_text, fed_after_finish, finished_twice
from .toolkit.schema import ToolSchemas

__all__ = [
    "BufferedStream",
    "Dialect",
    "ScannerDialect",
    "StreamParser",
    "to_json",
]


@runtime_checkable
class StreamParser(Protocol):
    """An incremental parser for one response: ``feed`` each delta, then ``finish`` once."""

    def feed(self, delta: str) -> StreamUpdate:
        """Take the next delta of model text; return what can be shown now."""
        ...

    def finish(self) -> StreamUpdate:
        """End the text; return what was held back (an unfinished block becomes unparsed)."""
        ...


@runtime_checkable
class Dialect(Protocol):
    """The protocol every dialect object follows (``stream``, ``detect`` and ``max_depth`` are
    optional)."""

    info: DialectInfo

    def parse(self, text: str, tools: Any = None) -> ParseResult:
        """Parse a whole model response."""
        ...

    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """Write ``content`` and ``calls`` as this dialect's model text."""
        ...


class ScannerDialect:
    """Base class for dialects described by a grammar and read by the shared engine.

    Subclasses set ``info`` and ``grammar`` and implement :meth:`render_calls`. ``parse``,
    ``stream`` and ``detect`` come from the engine; ``render`` writes the content, then the
    calls, and refuses content that would read back as markup.
    """

    info: ClassVar[DialectInfo]
    grammar: ClassVar[Grammar]
    content_separator: ClassVar[str] = ""
    """Text written between non-empty content and the first call."""
    reasoning_markup: ClassVar[tuple[str, str] | None] = None
    """Text written before and after reasoning by ``render(..., reasoning=...)`` (e.g.
    ``("<think>\\n", "\\n</think>\\n\\n")``); ``None``: the format has no place for it."""
    response_template: Any = NamedExport()
    """What :func:`tooletta.interop.hf.to_response_template` exports for this dialect
    (:mod:`tooletta.interop.hf.spec`); by default the export named after the dialect in its
    package's ``hf_template`` module (:mod:`tooletta.exportname`), else ``None``."""
    chat_formats: ClassVar[tuple[Any, ...]] = ()
    """The :class:`~tooletta.chat.ChatFormat` declarations of the models writing this
    dialect, the default first (conversations: :func:`~tooletta.render_conversation`)."""
    max_depth: ClassVar[int] = MAX_DEPTH
    """The deepest arguments this dialect's parse reads, counting the arguments object as one
    level: :func:`~tooletta.render` refuses deeper ones (declare less when the format's
    readers stop earlier)."""
    prompt_end: ClassVar[str] = ""
    """Markup every completion of this format continues (the end of the generation prompt,
    such as Functionary v3.2's ``>>>``): read before the text, like a ``prefix``."""

    def schemas(self, tools: Any) -> ToolSchemas:
        """The request's tools as the block readers see them (``r.tools``); override to
        add what a format needs, such as tag names."""
        return ToolSchemas.of(tools)

    def parse(self, text: str, tools: Any = None, prefix: str = "") -> ParseResult:
        """Parse a whole response (the engine fed everything at once).

        ``prefix``: markup the prompt ended with (e.g. ``"<think>"``), read before the text.
        """
        return parse_with(
            self.grammar, self.info.name, text, self.schemas(tools), self.prompt_end + prefix
        )

    def stream(self, tools: Any = None, prefix: str = "") -> Engine:
        """A fresh incremental parser for one response (``prefix`` as in :meth:`parse`)."""
        return Engine(
            self.grammar, self.info.name, self.schemas(tools), prefix=self.prompt_end + prefix
        )

    def detect(self, text: str) -> bool:
        """True when ``text`` holds one of this dialect's markers (cheap: no parsing)."""
        return any(m in text for m in self.info.markers)

    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """``content`` followed by the calls in this dialect's markup."""
        self.check_content(content)
        body = self.render_calls(list(calls)) if calls else ""
        if content and body:
            return content + self.content_separator + body
        return content + body

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Write the calls (never empty) as model text."""
        raise NotImplementedError

    def check_content(self, content: str) -> None:
        """Refuse content holding a marker of this dialect: it would parse back as markup.
        Content holding none of the markers' first characters is scanned once per character
        (:attr:`~tooletta.engine.Grammar.content_marker_leads`), not once per marker."""
        if not content:
            return
        grammar = self.grammar
        for lead in grammar.content_marker_leads:
            if lead in content:
                break
        else:  # no marker's first character: no marker (one scan per character)
            return
        for marker in grammar.content_markers:
            if marker in content:
                raise RenderError(f"content contains the marker {marker!r}", dialect=self.info.name)

    def error(self, message: str) -> RenderError:
        """A :class:`RenderError` for this dialect (``raise self.error(...)``)."""
        return RenderError(message, dialect=self.info.name)

    @contextmanager
    def writing(self) -> Iterator[None]:
        """Name this dialect in what a shared writer refuses: inside the block, a
        :class:`RenderError` that names no dialect (the toolkit's writers raise those) and a
        ``ValueError``/``TypeError`` from a writer become :meth:`error` with the same message;
        a ``RenderError`` that already names a dialect passes unchanged::

            with self.writing():
                args = write_value(arguments, self.write_string)
        """
        try:
            yield
        except RenderError as exc:
            if exc.dialect is not None:
                raise
            raise self.error(str(exc)) from None
        except (ValueError, TypeError) as exc:
            raise self.error(str(exc)) from None


class BufferedStream:
    """Streams a dialect that has no incremental parser: everything arrives at ``finish``.

    ``plugin`` names the dialect's plugin in the :class:`~tooletta.PluginError` raised when
    its ``parse`` returns something else than a ``ParseResult``. Misuse is refused like the
    engine refuses it: a delta that is not ``str`` raises
    :class:`~tooletta.ParseError`, ``feed`` after ``finish`` and a second ``finish``
    :class:`~tooletta.StreamStateError`.
    """

    def __init__(self, dialect: Any, tools: Any = None, *, plugin: str | None = None):
        self._dialect = dialect
        self._tools = tools
        self._plugin = plugin
        self._parts: list[str] = []
        self._size = 0
        self._done = False

    def _name(self) -> str | None:
        info = getattr(self._dialect, "info", None)
        return info.name if isinstance(info, DialectInfo) else None

    def feed(self, delta: str) -> StreamUpdate:
        """Buffer the delta; nothing can be shown before the end."""
        if self._done:
            raise fed_after_finish(self._name())
        if type(delta) is not str:
            delta = as_text(delta, self._name(), self._size)
        self._parts.append(delta)
        self._size += len(delta)
        return StreamUpdate()

    def finish(self) -> StreamUpdate:
        """Parse everything and return it as one update."""
        from .ir import CallDelta

        if self._done:
            raise finished_twice(self._name())
        self._done = True
        text = "".join(self._parts)
        result = checked_result(
            self._dialect.parse(text, tools=self._tools), self._name() or "?", self._plugin
        )
        deltas = [
            CallDelta(i, c.id, c.name, to_json(c.arguments)) for i, c in enumerate(result.calls)
        ]
        return StreamUpdate(result.content, deltas, result.reasoning, list(result.unparsed))
