"""A tooletta dialect compiled from a ``response_template``.

Every field with an opener becomes engine blocks, one per literal marker its opener can start
with (several fields sharing a marker share a block, whose reader picks the field the way
transformers does: the longest match, an opener before a close). The leftover field says
what text outside every region is: reasoning when it is a reasoning field, else content
(transformers drops the text of a template without a leftover field; tooletta keeps it as
content, so that nothing is lost); its close markers (end-of-turn tokens) and the start
anchor's literals (the head of a further assistant message) are removed. A field opened by
a lookahead such as Nemotron 3's ``(?=[\\s\\S]*?</think>)`` is a region at the start of the
reply that exists only when its literal comes later: the text is held until that literal
(or the end) decides.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine import Block, Engine, Grammar, Read, Reader
from ...engine.markers import MarkerSet
from ...engine.reader import Decline
from ...errors import RenderError
from ...ir import DialectInfo, ParseResult, ToolCall
from ...toolkit.schema import ToolSchemas
from ._readers import Candidate, expect_close, open_field, read_field
from ._regex import Match
from ._template import FieldSpec, Template, TemplateError

__all__ = ["LOOKAHEAD_MARK", "TemplateDialect", "TemplateEngine", "build_grammar", "detect_markers"]

LOOKAHEAD_MARK = "\ue000tooletta:hf-lookahead\ue001"
"""The marker of a lookahead region's block: read as a prefix, never written by a model."""


class TemplateEngine(Engine):
    """The engine for an imported template: text outside every region goes where the
    template's leftover field says (``route``: ``content`` or ``reasoning``), and the
    lookahead region's marker (a prefix, see :data:`LOOKAHEAD_MARK`) is never shown.

    It refines :meth:`Engine._show`, the one place the scanner shows the text outside blocks
    (and a declined marker); readers' content (:meth:`content`) goes through it too, and is
    never rerouted.
    """

    def __init__(self, *args: Any, route: str = "content", **kwargs: Any) -> None:
        self.route = route
        self._in_field = False
        super().__init__(*args, **kwargs)

    def _show(self, text: str) -> bool:
        if text == LOOKAHEAD_MARK:
            return False
        if self.route == "reasoning" and not self._in_field:
            self.reasoning(text)
            return False
        return super()._show(text)

    def content(self, text: str) -> None:
        """Content from a field's region (always shown as content)."""
        self._in_field = True
        try:
            super().content(text)
        finally:
            self._in_field = False


def _block_reader(candidates: tuple[Candidate, ...], ends: MarkerSet) -> Any:
    def read(r: Reader) -> Read[None]:
        chosen, m = yield from open_field(r, candidates)
        if chosen.kind == "close":
            return  # the leftover field's close: an end-of-turn marker, removed
        yield from read_field(r, chosen.field, m.groups, r.content, ends)

    return read


def _lookahead_reader(field: FieldSpec) -> Any:
    literal = field.lookahead or ""

    def read(r: Reader) -> Read[None]:
        checked = 0
        while True:
            k = r.buf.find(literal, r.pos + checked)
            if k >= 0:
                break
            if r.final:
                raise Decline  # the literal never came: no such region
            checked = max(0, len(r.buf) - r.pos - len(literal) + 1)
            yield
        text = r.buf[r.pos : k].strip()
        r.pos = k
        if text:
            if field.role == "reasoning":
                r.reasoning(text)
            elif field.role == "content":
                r.content(text)
        yield from expect_close(r, field.close)

    return read


def _recovery_close(fields: Sequence[FieldSpec]) -> str | None:
    """The literal a malformed block is skipped to: its field's first close marker."""
    for field in fields:
        if field.close is not None and field.close.markers:
            return field.close.markers[0]
    return None


def build_grammar(template: Template) -> Grammar:
    """The engine grammar of ``template`` (see the module docstring).

    Raises :class:`~tooletta.interop.hf.TemplateError` for a ``tool_calls`` field without an
    opener (the whole reply would be the calls: the scanner has no marker to find them by).
    """
    if template.implicit is not None and template.fields[template.implicit].role == "calls":
        raise TemplateError(
            "a tool_calls field without an opener (the whole reply is the calls) cannot be "
            "imported: tooletta finds calls by their opening text"
        )
    by_marker: dict[str, list[Candidate]] = {}
    at_start: dict[str, bool] = {}
    for field in template.fields.values():
        if field.open is None or field.lookahead is not None:
            continue
        for opener in field.open.starts.openers:
            by_marker.setdefault(opener.marker, []).append(Candidate("open", field, opener))
            at_start[opener.marker] = at_start.get(opener.marker, True) and opener.at_start
    implicit = template.fields.get(template.implicit) if template.implicit else None
    if implicit is not None and implicit.close is not None:
        for opener in implicit.close.starts.openers:
            by_marker.setdefault(opener.marker, []).append(Candidate("close", implicit, opener))
            at_start[opener.marker] = False
    ends = MarkerSet(by_marker)
    # the scanner takes the longest marker at a place: its block also tries the openers of
    # the shorter markers it starts with (transformers tries every pattern there)
    own = {m: list(c) for m, c in by_marker.items()}
    for marker in by_marker:
        for other, more in own.items():
            if other != marker and marker.startswith(other):
                by_marker[marker].extend(more)
    blocks: list[Block] = []
    for marker, found in by_marker.items():
        found.sort(key=lambda c: (c.kind != "open", c.field.name))
        opens = [c.field for c in found if c.kind == "open"]
        blocks.append(
            Block(
                open=marker,
                read=_block_reader(tuple(found), ends),
                close=_recovery_close(opens),
                keep_open=True,
                at_start=at_start[marker],
                markup=any(f.role == "calls" for f in opens),
            )
        )
    for marker in template.anchor_markers:
        if marker not in by_marker:  # the head of a further assistant message: removed
            blocks.append(Block(marker, _erase, markup=False))
    for field in template.fields.values():
        if field.lookahead is not None:
            close = field.close.markers[0] if field.close and field.close.markers else None
            blocks.append(Block(LOOKAHEAD_MARK, _lookahead_reader(field), close, markup=False))
            break
    return Grammar(tuple(blocks))


def _erase(r: Reader) -> Read[None]:
    return
    yield  # pragma: no cover - makes this a generator


def _route(template: Template) -> str:
    """Where text outside every region goes: reasoning when the leftover field is one,
    else content (transformers drops the text of a template without a leftover field;
    tooletta keeps it, so that nothing the model wrote is lost)."""
    if template.implicit is not None and template.fields[template.implicit].role == "reasoning":
        return "reasoning"
    return "content"


class TemplateDialect:
    """A dialect read from a ``response_template``: it parses, streams, detects and renders
    like any other (register it with :func:`tooletta.register_dialect`).

    ``response_template`` gives the template it was made from. ``parse`` and ``stream`` take
    ``prefix``: the prompt the reply continues (or its end); the text after the template's
    start anchor in it is read first, as transformers does with its ``prefix``.
    """

    def __init__(self, template: Template, info: DialectInfo) -> None:
        from ._render import Renderer

        self.template = template
        self.info = info
        self.grammar = build_grammar(template)
        self._route = _route(template)
        self._lookahead = any(f.lookahead is not None for f in template.fields.values())
        self._renderer = Renderer(template, info.name)
        self._calls = template.role_field("calls")

    @property
    def response_template(self) -> dict[str, Any]:
        """The template this dialect was read from (a copy)."""
        import copy

        return copy.deepcopy(dict(self.template.raw))

    def _prefix(self, prefix: str) -> str:
        if prefix:
            anchor = self.template.anchor
            pos, last = 0, -1
            while pos <= len(prefix):
                m, _ = anchor.search(prefix, pos, final=True)
                if m is None:
                    break
                last = m.end
                pos = m.end if m.end > m.start else m.end + 1
            if last >= 0:
                prefix = prefix[last:]
        return (LOOKAHEAD_MARK if self._lookahead else "") + prefix

    def engine(self, tools: Any = None, prefix: str = "", *, deltas: bool = True) -> Engine:
        """A fresh engine for one reply (``deltas=False``: one-shot)."""
        return TemplateEngine(
            self.grammar,
            self.info.name,
            ToolSchemas.of(tools),
            deltas=deltas,
            prefix=self._prefix(prefix),
            route=self._route,
        )

    def parse(self, text: str, tools: Any = None, prefix: str = "") -> ParseResult:
        """Parse a whole reply."""
        engine = self.engine(tools, prefix, deltas=False)
        engine.final = True
        engine.feed(text)
        engine.finish()
        return engine.result()

    def stream(self, tools: Any = None, prefix: str = "") -> Engine:
        """A stream parser for one reply: ``feed(delta)``, then ``finish()``."""
        return self.engine(tools, prefix)

    def detect(self, text: str) -> bool:
        """True when a tool-call opener of the template matches somewhere in ``text``."""
        field = self._calls
        if field is None or field.open is None:
            return False
        for opener in field.open.starts.openers:
            at = text.find(opener.marker)
            tries = 0
            while at >= 0 and tries < 16:
                if isinstance(opener.pattern.match(text, at, final=True), Match):
                    return True
                at = text.find(opener.marker, at + 1)
                tries += 1
        return False

    def render(self, calls: Sequence[ToolCall], content: str = "", reasoning: str = "") -> str:
        """Write ``content`` and ``calls`` (and ``reasoning``) as the template reads them.

        Raises :class:`~tooletta.RenderError` where the template cannot be inverted (a
        delimiter with no text a model would write, a body shape with no writer) or where the
        text would read back differently.
        """
        error: RenderError | None = None
        for fill, sep in self._renderer.STYLES:
            renderer = self._renderer.styled(fill, sep)
            try:
                text = renderer.render(list(calls), content, reasoning)
                renderer.check(self, text, list(calls), content, reasoning)
            except RenderError as exc:
                error = exc
                continue
            return text
        assert error is not None
        raise error


def detect_markers(template: Template) -> tuple[str, ...]:
    """The markers detection looks for: the tool-call field's literal openers (of at least
    two characters, so that a one-character separator is not one)."""
    field = template.role_field("calls")
    if field is None or field.open is None:
        return ()
    return tuple(m for m in field.open.markers if len(m.strip()) >= 2)
