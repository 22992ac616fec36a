"""The conformance kit: DESIGN.md's four laws, checked for any dialect (needs pytest, hypothesis).

Use it from a plugin's tests::

    from pathlib import Path
    from tooletta.testing import DialectTests

    class TestGlm(DialectTests):
        dialect = "glm45"
        fixtures = Path(__file__).parent / "fixtures" / "glm45.json"

Laws checked:

1. round trip: ``parse(render(calls)).calls == calls`` for hypothesis-generated calls the
   dialect can express (render may refuse with :class:`~tooletta.RenderError`, never lie);
2. streaming equals one-shot for every split of every fixture and rendered text (random
   splits, one character at a time, everything at once);
3. held-back text is bounded by the longest marker (plus trailing whitespace);
4. bad input (truncated, duplicated or deleted markers, foreign tokens) gives only
   :class:`~tooletta.ToolettaError` (strict) or ``unparsed`` data (lenient);

and accounting (:mod:`tooletta.testing.accounting`): nothing is lost, nothing counted twice.
The render laws (:mod:`tooletta.testing.render_laws`) add that render refuses with a
:class:`~tooletta.RenderError` what parse cannot read back (NaN and infinities, nesting
deeper than the dialect reads, an empty name; long names and keys read back or are refused).

Golden fixtures are a JSON list of cases ``{"name", "text", "calls", "content",
"reasoning"?, "tools"?, "unparsed"?, "detect"?}``; ``calls`` items are ``{"name", "arguments",
"id"?}``; ``"detect": false`` marks a text that auto-detection leaves to another dialect.

Besides the laws, :class:`DialectTests` checks what a subclass declares: ``names`` (aliases
and peer parser names that must resolve to the dialect), ``models`` (model ids that
:func:`~tooletta.dialect_for_model` maps to it) and ``markup`` (the format's markup: strings
glued from it must round-trip or be refused by render). :class:`TypedDialectTests` adds the
schema typing rules of untyped-text formats, one test per rule, in parsing and streaming.

Smaller pieces for a plugin's own tests: :func:`check_aliases`, :func:`check_models`,
:func:`check_typed_value`, :func:`check_arguments_stream`, :func:`check_render_refuses`,
:func:`schema_tools` and the :func:`markup_strings` strategy.
"""

from __future__ import annotations

import json
import string
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import msgspec

from .. import api
from ..dialect import ScannerDialect
from ..errors import ParseError, RenderError, ToolettaError
from ..ir import CallDelta, ParseResult, StreamUpdate, ToolCall, UnparsedToolCall
from .accounting import AccountingTests, check_nothing_counted_twice
from .render_laws import (
    NON_FINITE,
    RenderLaws,
    check_depth_limit,
    check_empty_name,
    check_long_identifiers,
    check_long_integers,
    check_non_finite_refused,
    check_render_laws,
    nested,
)
from .stream_misuse import StreamMisuseTests, check_stream_misuse

__all__ = [
    "FOREIGN_TOKENS",
    "MARKUP_PUNCTUATION",
    "NON_FINITE",
    "TYPING_RULES",
    "DialectTests",
    "RenderLaws",
    "TypedDialectTests",
    "assemble",
    "calls_strategy",
    "check_aliases",
    "check_arguments_stream",
    "check_bad_input",
    "check_depth_limit",
    "check_empty_name",
    "check_long_identifiers",
    "check_long_integers",
    "check_models",
    "check_non_finite_refused",
    "check_nothing_counted_twice",
    "check_nothing_lost",
    "check_render_laws",
    "check_render_refuses",
    "check_round_trip",
    "check_shortcuts_agree",
    "check_stream_equals_parse",
    "check_stream_misuse",
    "check_typed_value",
    "content_strategy",
    "load_cases",
    "markup_strings",
    "nested",
    "schema_tools",
    "shortcut_blocks",
    "stream_text",
    "tools_for",
]


def load_cases(path: str | Path) -> list[dict[str, Any]]:
    """Read a golden-fixture file."""
    cases = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(cases, list):
        raise ValueError(f"{path}: fixtures must be a JSON list")
    return cases


def stream_text(
    dialect: str, chunks: Iterable[str], tools: Any = None
) -> tuple[list[StreamUpdate], StreamUpdate]:
    """Feed ``chunks`` to a fresh stream parser; return every update and the final one."""
    parser = api.stream(dialect, tools=tools)
    updates = [parser.feed(c) for c in chunks]
    return updates, parser.finish()


def assemble(updates: Sequence[StreamUpdate]) -> ParseResult:
    """Rebuild a :class:`ParseResult` from stream updates, as an OpenAI client would.

    Calls are assembled by index: the first non-empty name and id, the concatenated argument
    fragments decoded as JSON. Calls named by an unparsed record's ``index`` are discarded.
    """
    content: list[str] = []
    reasoning: list[str] = []
    names: dict[int, str] = {}
    ids: dict[int, str] = {}
    args: dict[int, list[str]] = {}
    order: list[int] = []
    unparsed: list[UnparsedToolCall] = []
    dropped: set[int] = set()
    for u in updates:
        content.append(u.content)
        reasoning.append(u.reasoning)
        for d in u.calls:
            if d.index not in args:
                order.append(d.index)
                args[d.index] = []
            if d.name is not None:
                assert d.index not in names, f"name sent twice for call {d.index}"
                names[d.index] = d.name
            if d.id is not None:
                assert d.index not in ids, f"id sent twice for call {d.index}"
                ids[d.index] = d.id
            args[d.index].append(d.arguments)
        for rec in u.unparsed:
            unparsed.append(rec)
            if rec.index is not None:
                dropped.add(rec.index)
    calls = []
    for i in order:
        if i in dropped:
            continue
        assert i in names, f"call {i} never got a name"
        text = "".join(args[i])
        calls.append(ToolCall(names[i], json.loads(text) if text else {}, ids.get(i)))
    return ParseResult(
        content="".join(content),
        calls=calls,
        dialect=None,
        unparsed=unparsed,
        reasoning="".join(reasoning),
    )


def _split(text: str, cuts: Iterable[int]) -> list[str]:
    points = sorted({c for c in cuts if 0 < c < len(text)})
    out, prev = [], 0
    for p in points:
        out.append(text[prev:p])
        prev = p
    out.append(text[prev:])
    return [c for c in out if c]


def _one_shot(dialect: str, text: str, tools: Any, shortcuts: bool) -> Any:
    """The engine of a one-shot parse of ``text`` (``None`` for a dialect with no grammar)."""
    from ..engine import Engine

    d = api.get_dialect(dialect)
    if not isinstance(d, ScannerDialect):
        return None
    engine = Engine(
        d.grammar,
        d.info.name,
        d.schemas(tools),
        deltas=False,
        prefix=d.prompt_end,
        shortcuts=shortcuts,
    )
    engine.final = True
    engine.feed(text)
    engine.finish()
    return engine


def shortcut_blocks(dialect: str, text: str, tools: Any = None) -> int:
    """How many blocks of ``text`` a one-shot parse reads with their shortcut
    (:attr:`~tooletta.engine.Block.fast`), not their reader: to check one is taken."""
    engine = _one_shot(dialect, text, tools, True)
    return 0 if engine is None else int(engine.shortcut_blocks)


def check_shortcuts_agree(dialect: str, text: str, tools: Any = None) -> None:
    """Assert that the one-shot shortcuts of a :class:`ScannerDialect`'s blocks
    (:attr:`~tooletta.engine.Block.fast`) read ``text`` exactly as its block readers do:
    the same result, values of the same JSON types, or the same error."""
    d = api.get_dialect(dialect)
    if not isinstance(d, ScannerDialect) or not any(b.fast for b in d.grammar.blocks):
        return
    outcomes: list[Any] = []
    for shortcuts in (True, False):
        try:
            outcomes.append(_one_shot(dialect, text, tools, shortcuts).result())
        except ToolettaError as exc:
            outcomes.append((type(exc).__name__, str(exc)))
    fast, slow = outcomes
    assert fast == slow, (text, fast, slow)
    if not isinstance(fast, ParseResult):
        return
    # == takes 1 for 1.0 and True: compare the values' JSON too, which tells them apart
    try:
        typed = msgspec.json.encode(fast), msgspec.json.encode(slow)
    except UnicodeError:  # a lone surrogate cannot be encoded; == said enough
        return
    assert typed[0] == typed[1], (text, fast, slow)


def check_stream_equals_parse(
    dialect: str, text: str, cuts: Iterable[int] | None = None, tools: Any = None
) -> None:
    """Assert law 2 for one text and one split (``cuts=None``: one character at a time),
    and that the dialect's one-shot shortcuts agree with its readers on it."""
    check_shortcuts_agree(dialect, text, tools)
    expected = api.parse(text, dialect, tools=tools)
    chunks = list(text) if cuts is None else _split(text, cuts)
    updates, last = stream_text(dialect, chunks, tools)
    got = assemble([*updates, last])
    assert got.content == expected.content, (got.content, expected.content, chunks)
    assert got.reasoning == expected.reasoning, (got.reasoning, expected.reasoning, chunks)
    assert got.calls == expected.calls, (got.calls, expected.calls, chunks)
    strip = [(u.raw, u.offset, u.error) for u in expected.unparsed]
    assert [(u.raw, u.offset, u.error) for u in got.unparsed] == strip, (got.unparsed, chunks)


def tools_for(calls: Sequence[ToolCall]) -> list[dict[str, Any]]:
    """OpenAI tool definitions whose schemas type every argument of ``calls`` by its value."""
    kinds = {
        str: "string",
        bool: "boolean",
        int: "integer",
        float: "number",
        dict: "object",
        list: "array",
        type(None): "null",
    }
    tools: dict[str, dict[str, Any]] = {}
    for call in calls:
        props = tools.setdefault(call.name, {})
        for key, value in call.arguments.items():
            kind = kinds.get(type(value), "string")
            if key not in props:
                props[key] = {"type": kind}
            elif props[key].get("type") != kind:
                props[key] = {}  # conflicting types: no schema for this key
    return [
        {
            "type": "function",
            "function": {"name": n, "parameters": {"type": "object", "properties": p}},
        }
        for n, p in tools.items()
    ]


def check_round_trip(
    dialect: str,
    calls: Sequence[ToolCall],
    content: str = "",
    ids: str = "none",
    *,
    untyped: bool = False,
    exact_content: bool = False,
) -> bool:
    """Assert law 1 for ``calls``; False when the dialect refuses to render them.

    The text is parsed with the schema :func:`tools_for` derives from ``calls``, and streamed
    (one character at a time, and in one piece) to the same result.

    ``ids``: ``"none"`` (the format has no ids: parsed ids must be ``None``), ``"kept"``
    (given ids round-trip exactly; missing ones may be generated), ``"generated"``
    (missing or invalid ids are replaced by the dialect's id policy: parsed ids are only
    required to be present). Content comes back up to surrounding whitespace; with
    ``exact_content`` it comes back as ``content.strip()`` exactly. ``untyped``: the format
    types its own values, so parsing without ``tools`` gives the same calls too.
    """
    try:
        text = api.render(calls, dialect, content=content)
    except RenderError:
        return False
    expected = [(c.name, c.arguments) for c in calls]
    result = api.parse(text, dialect, tools=tools_for(calls))
    assert not result.unparsed, (text, result.unparsed)
    got = list(result.calls)
    assert [(c.name, c.arguments) for c in got] == expected, (text, got)
    if untyped:
        bare = api.parse(text, dialect).calls
        assert [(c.name, c.arguments) for c in bare] == expected, (text, bare)
    if ids == "none":
        assert all(c.id is None for c in got), got
    elif ids == "kept":
        for want, have in zip(calls, got):
            assert want.id is None or have.id == want.id, (text, got)
    else:
        assert all(c.id for c in got), got
    if content:
        assert result.content.strip() == content.strip(), (text, result.content, content)
    if exact_content:
        assert result.content == content.strip(), (text, result.content, content)
    check_stream_equals_parse(dialect, text, None, tools_for(calls))
    check_stream_equals_parse(dialect, text, [], tools_for(calls))
    return True


def _markup(dialect: str) -> list[str]:
    """Every literal the dialect's grammar treats as markup (longest first)."""
    obj = api.get_dialect(dialect)
    found = set(obj.info.markers)
    grammar = getattr(obj, "grammar", None)
    for block in getattr(grammar, "blocks", ()):
        found.add(block.open)
        if block.close:
            found.add(block.close)
    return sorted((m for m in found if m), key=len, reverse=True)


def check_nothing_lost(dialect: str, text: str, tools: Any = None) -> None:
    """Assert the accounting property (lenient mode): nothing the model wrote vanishes.

    Every unparsed record's ``raw`` is the text at its ``offset``, and every non-whitespace
    character outside the blocks the dialect read (and outside its markers) appears in the
    content, the reasoning or an unparsed record. For dialects not built on the engine the
    second check runs only on texts where no call was parsed.
    """
    from collections import Counter

    result = api.parse(text, dialect, tools=tools)
    for rec in result.unparsed:
        assert text[rec.offset : rec.offset + len(rec.raw)] == rec.raw, (rec, text)
    obj = api.get_dialect(dialect)
    if isinstance(obj, ScannerDialect):
        engine = obj.stream(tools)
        engine.feed(text)
        engine.finish()
        outside, prev = [], 0
        for start, end in engine.spans:
            outside.append(text[prev:start])
            prev = end
        outside.append(text[prev:])
        text = " ".join(outside)
    elif result.calls:
        return
    marks = _markup(dialect)

    def letters(s: str) -> Counter[str]:
        for m in marks:
            s = s.replace(m, " ")
        return Counter(ch for ch in s if not ch.isspace())

    def plain(s: str) -> Counter[str]:
        return Counter(ch for ch in s if not ch.isspace())

    kept = plain(result.content) + plain(result.reasoning)
    for rec in result.unparsed:
        kept += plain(rec.raw)
    missing = letters(text) - kept
    assert not missing, (dict(missing), text, result)


def check_bad_input(dialect: str, text: str, tools: Any = None) -> None:
    """Assert law 4 for one (possibly malformed) text, in every mode."""
    result = api.parse(text, dialect, tools=tools)
    assert isinstance(result, ParseResult)
    try:
        api.parse(text, dialect, tools=tools, strict=True)
    except ParseError as exc:
        assert exc.dialect is not None and exc.position is not None
    except ToolettaError:
        pass
    parser = api.stream(dialect, tools=tools)
    for i in range(0, len(text), 3):
        parser.feed(text[i : i + 3])
    parser.finish()
    api.detect(text)
    check_nothing_lost(dialect, text, tools)
    check_nothing_counted_twice(dialect, text, tools, range(0, len(text), 3))


def check_aliases(dialect: str, names: Iterable[str]) -> None:
    """Assert that each of ``names`` (aliases, peer parser names, other spellings) resolves to
    ``dialect`` (its primary name)."""
    for name in names:
        got = api.get_dialect(name).info.name
        assert got == dialect, f"{name!r} resolves to {got!r}, not {dialect!r}"


def check_models(models: Mapping[str, str | None]) -> None:
    """Assert that :func:`~tooletta.dialect_for_model` maps each model id to its dialect."""
    for model, dialect in models.items():
        got = api.dialect_for_model(model)
        assert got == dialect, f"{model!r} maps to {got!r}, not {dialect!r}"


def schema_tools(properties: Mapping[str, Any] | None = None, name: str = "f") -> list[Any]:
    """One OpenAI tool definition ``name`` whose parameters have ``properties``.

    A property given as a string is a type name (``{"x": "integer"}``); a mapping is the
    property's schema as is. ``None`` gives parameters without ``properties``.
    """
    params: dict[str, Any] = {"type": "object"}
    if properties is not None:
        params["properties"] = {
            k: {"type": v} if isinstance(v, str) else dict(v) for k, v in properties.items()
        }
    return [{"type": "function", "function": {"name": name, "parameters": params}}]


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


def check_arguments_stream(
    dialect: str,
    text: str,
    arguments: str | Mapping[str, Any],
    *,
    tools: Any = None,
    index: int = 0,
    pieces: int = 3,
) -> list[CallDelta]:
    """Assert that call ``index`` of ``text``, fed one character at a time, streams its
    arguments as they are generated: more than ``pieces`` non-empty fragments arrive before
    ``finish``, and all fragments join to ``arguments`` (the exact JSON text, or a mapping the
    JSON must decode to). Returns every delta, for format-specific checks."""
    parser = api.stream(dialect, tools=tools)
    early = [d for ch in text for d in parser.feed(ch).calls]
    deltas = [*early, *parser.finish().calls]
    joined = "".join(d.arguments for d in deltas if d.index == index)
    if isinstance(arguments, str):
        assert joined == arguments, (joined, arguments)
    else:
        assert json.loads(joined) == arguments, (joined, arguments)
    arrived = [d.arguments for d in early if d.index == index and d.arguments]
    assert len(arrived) > pieces, ("arguments did not stream", arrived)
    return deltas


def check_render_refuses(
    dialect: str,
    *,
    values: Iterable[Any] = (),
    names: Iterable[str] = (),
    keys: Iterable[str] = (),
    contents: Iterable[str] = (),
    calls: Iterable[Sequence[ToolCall]] = (),
) -> None:
    """Assert that :func:`~tooletta.render` raises :class:`~tooletta.RenderError` for each
    case: a call ``f`` with ``x`` set to each of ``values``, a call with no arguments named
    each of ``names``, a call ``f`` with each of ``keys`` set to 1, a call ``f()`` beside each
    of ``contents``, and each list of ``calls``."""
    cases: list[tuple[list[ToolCall], str]] = [
        *(([ToolCall("f", {"x": v})], "") for v in values),
        *(([ToolCall(n, {})], "") for n in names),
        *(([ToolCall("f", {k: 1})], "") for k in keys),
        *(([ToolCall("f", {})], c) for c in contents),
        *((list(cs), "") for cs in calls),
    ]
    for case, content in cases:
        try:
            text = api.render(case, dialect, content=content)
        except RenderError:
            continue
        raise AssertionError(f"{dialect} rendered {case!r} (content {content!r}) as {text!r}")


class DialectTests(StreamMisuseTests, AccountingTests, RenderLaws):
    """Subclass in a plugin's tests with ``dialect`` and ``fixtures`` set: pytest runs the
    golden cases and the four laws (hypothesis drives the properties), the render laws
    (:class:`RenderLaws`), plus what the subclass declares in ``names``, ``models`` and
    ``markup`` (each skipped while empty)."""

    dialect: ClassVar[str]
    fixtures: ClassVar[str | Path | None] = None
    ids: ClassVar[str] = "none"
    """How the format treats ids: ``"none"``, ``"kept"`` or ``"generated"``."""
    max_examples: ClassVar[int] = 60
    with_content: ClassVar[bool] = True
    """Whether rendered texts may carry content (False for formats that cannot)."""
    names: ClassVar[Sequence[str]] = ()
    """Other names that must resolve to this dialect: aliases, vLLM's and SGLang's parser
    names, other spellings (any case, ``-`` for ``_``)."""
    models: ClassVar[Sequence[str]] = ()
    """Model ids that :func:`~tooletta.dialect_for_model` must map to this dialect."""
    markup: ClassVar[Sequence[str]] = ()
    """The format's markup and other troublesome pieces (tags, quotes, newlines). When set,
    strings glued from them (see :func:`markup_strings`), written as argument values by
    :meth:`markup_calls`, must round-trip through render, parse and stream, or render must
    refuse them (where :meth:`may_refuse` allows): render never writes text that reads back
    differently."""
    markup_filler: ClassVar[str | None] = ""
    """Alphabet of short random text mixed into the markup strings (``""``: none, ``None``:
    any text)."""
    markup_size: ClassVar[int] = 6
    """How many pieces at most make one markup string."""
    markup_content: ClassVar[str | None] = ""
    """The content rendered beside the calls of the markup property; ``None``: a markup string
    too."""
    markup_keys: ClassVar[bool] = False
    """Whether the default :meth:`markup_calls` also writes the markup string as a key."""
    markup_nested: ClassVar[bool] = False
    """Whether the default :meth:`markup_calls` also nests a second markup string in an object
    and a list."""
    markup_untyped: ClassVar[bool] = False
    """Whether the format types its own values, so the markup calls also parse back without
    ``tools``."""
    exact_content: ClassVar[bool] = False
    """Whether the markup property's content must come back exactly (as ``content.strip()``),
    not only up to surrounding whitespace."""
    markup_examples: ClassVar[int] = 80
    """Hypothesis examples for the markup property."""

    # -- helpers -------------------------------------------------------------------------

    @classmethod
    def cases(cls) -> list[dict[str, Any]]:
        """The golden cases (empty without a fixture file)."""
        return load_cases(cls.fixtures) if cls.fixtures else []

    @classmethod
    def markers(cls) -> list[str]:
        """This dialect's declared markers (used to build adversarial text)."""
        return list(api.get_dialect(cls.dialect).info.markers)

    def markup_calls(self, value: str, other: str) -> list[list[ToolCall]]:
        """The call lists the markup property renders for two markup strings. Default: one
        call ``f(x=value)``, with ``value`` also as a key (``markup_keys``) and ``other`` in
        ``n={"v": [other]}`` (``markup_nested``); override to put them elsewhere (names, ids,
        several calls)."""
        args: dict[str, Any] = {"x": value}
        if self.markup_nested:
            args["n"] = {"v": [other]}
        if self.markup_keys:
            args[value] = 1
        return [[ToolCall("f", args)]]

    def may_refuse(self, calls: list[ToolCall], content: str) -> bool:
        """Whether render may refuse these markup calls (default: yes; a format that can
        write any string says when it may not)."""
        return True

    # -- names -----------------------------------------------------------------------------

    def test_names(self) -> None:
        """Each of ``names`` resolves to this dialect."""
        check_aliases(api.get_dialect(self.dialect).info.name, self.names)

    def test_models(self) -> None:
        """Each of ``models`` maps to this dialect (or to one of its variants)."""
        name = api.get_dialect(self.dialect).info.name
        for model in self.models:
            got = api.dialect_for_model(model)
            base = api.get_dialect(got).info.variant_of if got else None
            assert name in (got, base), f"{model!r} maps to {got!r}, not {name!r}"

    # -- golden --------------------------------------------------------------------------

    def test_fixtures_exist(self) -> None:
        """A first-party dialect ships golden cases."""
        if self.fixtures is not None:
            assert len(self.cases()) >= 5

    def test_golden(self) -> None:
        """Each fixture parses to its expected calls, content, reasoning and unparsed count."""
        for case in self.cases():
            result = api.parse(case["text"], self.dialect, tools=case.get("tools"))
            want = [ToolCall(c["name"], c.get("arguments", {}), c.get("id")) for c in case["calls"]]
            assert result.calls == want, (case["name"], result.calls)
            if "content" in case:
                assert result.content == case["content"], (case["name"], result.content)
            if "reasoning" in case:
                assert result.reasoning == case["reasoning"], (case["name"], result.reasoning)
            assert len(result.unparsed) == case.get("unparsed", 0), (
                case["name"],
                result.unparsed,
            )

    def test_golden_stream_one_char(self) -> None:
        """Each fixture streamed one character at a time equals one-shot."""
        for case in self.cases():
            check_stream_equals_parse(self.dialect, case["text"], None, case.get("tools"))

    def test_golden_stream_whole(self) -> None:
        """Each fixture fed in one piece equals one-shot."""
        for case in self.cases():
            check_stream_equals_parse(self.dialect, case["text"], [], case.get("tools"))

    def test_golden_detect(self) -> None:
        """Auto-detection picks this dialect for fixtures with calls."""
        for case in self.cases():
            if case["calls"] and case.get("detect", True):
                assert api.detect(case["text"]) == api.get_dialect(self.dialect).info.name, case[
                    "name"
                ]

    def test_plain_text_untouched(self) -> None:
        """Prose without markers is content, verbatim, streamed without delay."""
        text = "Plain prose, with {braces}, [brackets] and <angles>.\nSecond line.\n"
        result = api.parse(text, self.dialect)
        if not result.calls and not result.unparsed:
            assert result.content == text
            check_stream_equals_parse(self.dialect, text)

    # -- properties -----------------------------------------------------------------------

    def test_stream_any_split(self) -> None:
        """Every random split of every fixture streams to the one-shot result."""
        from hypothesis import HealthCheck, given, settings
        from hypothesis import strategies as st

        cases = self.cases()
        if not cases:
            return

        @settings(
            max_examples=self.max_examples, deadline=None, suppress_health_check=list(HealthCheck)
        )
        @given(st.sampled_from(cases), st.lists(st.integers(0, 4000), max_size=40))
        def run(case: dict[str, Any], cuts: list[int]) -> None:
            text = case["text"]
            check_stream_equals_parse(
                self.dialect, text, [c % (len(text) + 1) for c in cuts], case.get("tools")
            )

        run()

    def test_round_trip(self) -> None:
        """Law 1 over hypothesis-generated calls (and law 2 on the rendered text)."""
        from hypothesis import HealthCheck, given, settings

        @settings(
            max_examples=self.max_examples, deadline=None, suppress_health_check=list(HealthCheck)
        )
        @given(calls_strategy(self.markers(), self.ids), content_strategy(self.with_content))
        def run(calls: list[ToolCall], content: str) -> None:
            check_round_trip(self.dialect, calls, content, self.ids)

        run()

    def test_markup_strings_round_trip(self) -> None:
        """Markup-like string values (and content) round-trip, or render refuses them."""
        from hypothesis import HealthCheck, given, settings
        from hypothesis import strategies as st

        if not self.markup:
            return
        values = markup_strings(self.markup, filler=self.markup_filler, max_size=self.markup_size)
        contents = values if self.markup_content is None else st.just(self.markup_content)

        @settings(
            max_examples=self.markup_examples,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(values, values, contents)
        def run(value: str, other: str, content: str) -> None:
            for calls in self.markup_calls(value, other):
                ok = check_round_trip(
                    self.dialect,
                    calls,
                    content,
                    self.ids,
                    untyped=self.markup_untyped,
                    exact_content=self.exact_content,
                )
                if not ok:
                    assert self.may_refuse(calls, content), ("render refused", calls, content)
                    continue
                text = api.render(calls, self.dialect, content=content)
                cuts = range(0, len(text), 3)
                check_stream_equals_parse(self.dialect, text, cuts, tools_for(calls))

        run()

    def test_bad_input(self) -> None:
        """Law 4 over mutated fixtures: truncations, marker edits, foreign tokens."""
        from hypothesis import HealthCheck, given, settings
        from hypothesis import strategies as st

        texts = [c["text"] for c in self.cases()] or ["x"]
        noise = [*self.markers(), *FOREIGN_TOKENS, "{", "}", "[", "]", '"', "\\", "\x00", "\ud800"]

        @settings(
            max_examples=self.max_examples, deadline=None, suppress_health_check=list(HealthCheck)
        )
        @given(
            st.sampled_from(texts),
            st.lists(
                st.tuples(
                    st.integers(0, 10_000),
                    st.sampled_from(["cut", "insert", "delete"]),
                    st.sampled_from(noise),
                ),
                max_size=4,
            ),
        )
        def run(text: str, edits: list[tuple[int, str, str]]) -> None:
            for at, op, token in edits:
                at %= len(text) + 1
                if op == "cut":
                    text = text[:at]
                elif op == "insert":
                    text = text[:at] + token + text[at:]
                else:
                    text = text[:at] + text[at + 1 + len(token) % 5 :]
            check_bad_input(self.dialect, text)
            check_stream_equals_parse(self.dialect, text, range(0, len(text), 7))

        run()

    def test_holdback_bounded(self) -> None:
        """A stream shows content as soon as it cannot be a marker (law 3)."""
        info = api.get_dialect(self.dialect).info
        longest = max((len(m) for m in info.markers), default=0)
        parser = api.stream(self.dialect)
        text = "Prose, then more prose " * 12
        if api.parse(text, self.dialect).content != text:
            return  # this dialect reads plain prose as something else
        shown = 0
        for fed, ch in enumerate(text, 1):
            shown += len(parser.feed(ch).content)
            held = text[shown:fed]
            assert held.isspace() or len(held) < max(longest, 1), (fed, held)
        parser.finish()


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
    given): every rule of :data:`TYPING_RULES`, and the format's own ``typing_rules``, is a test
    of its own, checked in one-shot parsing and in streaming (one character at a time, and in
    one piece); a string value must stream as it is generated.
    """

    typing_rules: ClassVar[Sequence[tuple[Any, str, Any]]] = ()
    """This format's own rules, checked beside :data:`TYPING_RULES` (framing whitespace, ...)."""
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


FOREIGN_TOKENS = [
    "<tool_call>",
    "</tool_call>",
    "[TOOL_CALLS]",
    "[ARGS]",
    "<|python_tag|>",
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁sep｜>",
    "<|tool_calls_section_begin|>",
    "<|tool_call_begin|>",
    "<arg_key>",
    "<arg_value>",
    "<function=f>",
    "<parameter=p>",
    "</parameter>",
    "<|channel|>",
    "<|message|>",
    "<|call|>",
    "<|START_ACTION|>",
    "<think>",
    "</think>",
    "<tool_calls>",
    "functools[",
    "<TOOLCALL>",
    "「末」",
]
"""Markers of other dialects, inserted by the bad-input law."""


def content_strategy(allowed: bool = True) -> Any:
    """Hypothesis strategy for content text (empty when the format has none)."""
    from hypothesis import strategies as st

    if not allowed:
        return st.just("")
    return st.one_of(
        st.just(""),
        st.text(
            alphabet=string.ascii_letters + string.digits + " .,!?'éü東京", min_size=1, max_size=40
        ).filter(lambda s: s.strip() != ""),
    )


MARKUP_PUNCTUATION = ("{", "}", '"', "\\", "\n", " ", "a", ">", "<")
"""Characters that trouble most formats' quoting, for a dialect's ``markup`` beside its own
tokens."""


def markup_strings(tokens: Sequence[str], *, filler: str | None = "", max_size: int = 6) -> Any:
    """Hypothesis strategy for strings glued from up to ``max_size`` pieces, each one of
    ``tokens`` or a short random text: from the alphabet ``filler``, any text when ``filler`` is
    ``None``, none when it is ``""``."""
    from hypothesis import strategies as st

    piece = st.sampled_from(list(tokens))
    if filler is None:
        piece = st.one_of(piece, st.text(max_size=4))
    elif filler:
        piece = st.one_of(piece, st.text(filler, max_size=3))
    return st.lists(piece, max_size=max_size).map("".join)


def calls_strategy(markers: Sequence[str] = (), ids: str = "none") -> Any:
    """Hypothesis strategy for lists of calls: unicode, escapes, nesting, empty arguments,
    markup-like strings (this dialect's markers included)."""
    from hypothesis import strategies as st

    tricky = st.sampled_from(
        [
            *markers,
            "</parameter>",
            "<",
            ">",
            "「末」",
            '"',
            "\\",
            "\n",
            "{",
            "}",
            "[",
            "]",
            "'",
            "\t",
            "ü",
            "東京",
            "🙂",
            "a b",
            "",
        ]
    )
    text = st.one_of(
        st.text(max_size=12),
        st.lists(st.one_of(tricky, st.text(string.ascii_letters, max_size=3)), max_size=4).map(
            "".join
        ),
    )
    scalar = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**53), 2**53),
        st.floats(allow_nan=False, allow_infinity=False, width=64).filter(
            lambda f: not (f == 0 and str(f).startswith("-"))
        ),
        text,
    )
    value = st.recursive(
        scalar,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(
                st.text(string.ascii_letters + "_ é", min_size=1, max_size=6), inner, max_size=3
            ),
        ),
        max_leaves=8,
    )
    key = st.from_regex(r"[a-z_][a-z0-9_]{0,11}", fullmatch=True)
    name = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,15}", fullmatch=True)
    call_id = (
        st.none()
        if ids == "none"
        else st.one_of(st.none(), st.from_regex(r"[A-Za-z0-9]{9}", fullmatch=True))
    )
    call = st.builds(
        lambda n, a, i: ToolCall(n, a, i),
        name,
        st.dictionaries(key, value, max_size=4),
        call_id,
    )
    # one tool name per call, so the schema tools_for derives types each value exactly
    return st.lists(call, min_size=1, max_size=4, unique_by=lambda c: c.name)
