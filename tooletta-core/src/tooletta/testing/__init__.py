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
:func:`check_model_formats`, :func:`check_typed_value`, :func:`check_arguments_stream`,
:func:`check_render_refuses`, :func:`schema_tools` and the :func:`markup_strings` strategy;
:class:`EscapedMarkupSettings` declares the markup property of a format that can write any
string value (mix it in before :class:`DialectTests`, set ``markup``).

The kit's modules, each with one job (every public name is importable from here):

- :mod:`~tooletta.testing.fixtures`: golden fixtures and tool definitions;
- :mod:`~tooletta.testing.streams`: feeding a stream parser, assembling its updates;
- :mod:`~tooletta.testing.laws`: the four laws for one text or list of calls;
- :mod:`~tooletta.testing.shortcuts`: block shortcuts agree with block readers;
- :mod:`~tooletta.testing.accounting`: nothing counted twice (:class:`AccountingTests`);
- :mod:`~tooletta.testing.stream_misuse`: misused streams fail cleanly
  (:class:`StreamMisuseTests`);
- :mod:`~tooletta.testing.render_laws`: render refuses what parse cannot read back
  (:class:`RenderLaws`);
- :mod:`~tooletta.testing.checks`: names, model ids, argument streaming, render refusals;
- :mod:`~tooletta.testing.strategies`: hypothesis strategies and adversarial tokens;
- :mod:`~tooletta.testing.typed`: the schema typing rules and :class:`TypedDialectTests`;
- :mod:`~tooletta.testing.settings`, :mod:`~tooletta.testing.golden`,
  :mod:`~tooletta.testing.properties`, :mod:`~tooletta.testing.suite`: :class:`DialectTests`,
  its settings and its two halves (declared facts and golden cases; the laws as properties).
- :mod:`~tooletta.testing.profile`: the ``fuzz`` hypothesis profile (many more examples).
- :mod:`~tooletta.testing.conversations`: the conversation laws of chat formats
  (``ConversationTests``), with :mod:`~tooletta.testing.conversation_law` (render refuses
  typed or reads back; parse reads any text or refuses typed) and
  :mod:`~tooletta.testing.oddities` (odd conversations and mutated renders);
  :mod:`~tooletta.testing.role_orders`: conversations in any order of roles read back
  or are refused; :mod:`~tooletta.testing.training`: offline tokenizers for training tests
  (imported from those modules).
"""

from __future__ import annotations

from .accounting import AccountingTests, check_nothing_counted_twice
from .checks import (
    check_aliases,
    check_arguments_stream,
    check_model_formats,
    check_models,
    check_render_refuses,
)
from .fixtures import dialect_markup, load_cases, schema_tools, tools_for
from .laws import (
    check_bad_input,
    check_holdback,
    check_nothing_lost,
    check_round_trip,
    check_stream_equals_parse,
)
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
from .settings import EscapedMarkupSettings
from .shortcuts import check_shortcut_reads, check_shortcuts_agree, shortcut_blocks
from .strategies import (
    FOREIGN_TOKENS,
    MARKUP_PUNCTUATION,
    apply_edits,
    calls_strategy,
    content_strategy,
    markup_strings,
    mutated_texts,
)
from .stream_misuse import StreamMisuseTests, check_stream_misuse
from .streams import assemble, split_text, stream_text
from .suite import DialectTests
from .typed import TYPING_RULES, TypedDialectTests, check_typed_value

__all__ = [
    "FOREIGN_TOKENS",
    "MARKUP_PUNCTUATION",
    "NON_FINITE",
    "TYPING_RULES",
    "AccountingTests",
    "DialectTests",
    "EscapedMarkupSettings",
    "RenderLaws",
    "StreamMisuseTests",
    "TypedDialectTests",
    "apply_edits",
    "assemble",
    "calls_strategy",
    "check_aliases",
    "check_arguments_stream",
    "check_bad_input",
    "check_depth_limit",
    "check_empty_name",
    "check_holdback",
    "check_long_identifiers",
    "check_long_integers",
    "check_model_formats",
    "check_models",
    "check_non_finite_refused",
    "check_nothing_counted_twice",
    "check_nothing_lost",
    "check_render_laws",
    "check_render_refuses",
    "check_round_trip",
    "check_shortcut_reads",
    "check_shortcuts_agree",
    "check_stream_equals_parse",
    "check_stream_misuse",
    "check_typed_value",
    "content_strategy",
    "dialect_markup",
    "load_cases",
    "markup_strings",
    "mutated_texts",
    "nested",
    "schema_tools",
    "shortcut_blocks",
    "split_text",
    "stream_text",
    "tools_for",
]
