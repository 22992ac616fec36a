"""The laws as hypothesis properties over a dialect: random splits, generated calls, markup
strings, mutated fixtures, and bounded hold-back."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import api
from ..ir import ToolCall
from .fixtures import tools_for
from .laws import check_bad_input, check_holdback, check_round_trip, check_stream_equals_parse
from .profile import under_fuzz
from .settings import DialectSettings
from .strategies import (
    FOREIGN_TOKENS,
    calls_strategy,
    content_strategy,
    markup_strings,
    mutated_texts,
)

if TYPE_CHECKING:
    from hypothesis import settings as Settings

__all__ = ["PropertyTests"]

BAD_INPUT_NOISE = ("{", "}", "[", "]", '"', "\\", "\x00", "\ud800")
"""Characters the bad-input law inserts beside markers: JSON punctuation, NUL, a lone
surrogate."""


def _settings(examples: int) -> Settings:
    """Hypothesis settings for the kit's properties: no deadline, no health checks (more
    examples under the ``fuzz`` profile: :func:`~tooletta.testing.profile.under_fuzz`)."""
    from hypothesis import HealthCheck, settings

    return under_fuzz(
        settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    )


class PropertyTests(DialectSettings):
    """The four laws over hypothesis-generated input."""

    def test_stream_any_split(self) -> None:
        """Every random split of every fixture streams to the one-shot result."""
        from hypothesis import given
        from hypothesis import strategies as st

        cases = self.cases()
        if not cases:
            return

        @_settings(self.max_examples)
        @given(st.sampled_from(cases), st.lists(st.integers(0, 4000), max_size=40))
        def run(case: dict[str, Any], cuts: list[int]) -> None:
            text = case["text"]
            check_stream_equals_parse(
                self.dialect, text, [c % (len(text) + 1) for c in cuts], case.get("tools")
            )

        run()

    def test_round_trip(self) -> None:
        """Law 1 over hypothesis-generated calls (and law 2 on the rendered text)."""
        from hypothesis import given

        @_settings(self.max_examples)
        @given(calls_strategy(self.markers(), self.ids), content_strategy(self.with_content))
        def run(calls: list[ToolCall], content: str) -> None:
            check_round_trip(self.dialect, calls, content, self.ids)

        run()

    def check_markup_case(self, value: str, other: str, content: str) -> None:
        """The markup property for two markup strings and a content: each of
        :meth:`~tooletta.testing.settings.DialectSettings.markup_calls` round-trips (also streamed
        in pieces of three characters), or render refuses it where
        :meth:`~tooletta.testing.settings.DialectSettings.may_refuse` allows."""
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

    def test_markup_strings_round_trip(self) -> None:
        """Markup-like string values (and content) round-trip, or render refuses them."""
        from hypothesis import given
        from hypothesis import strategies as st

        if not self.markup:
            return
        values = markup_strings(self.markup, filler=self.markup_filler, max_size=self.markup_size)
        contents = values if self.markup_content is None else st.just(self.markup_content)

        @_settings(self.markup_examples)
        @given(values, values, contents)
        def run(value: str, other: str, content: str) -> None:
            self.check_markup_case(value, other, content)

        run()

    def test_bad_input(self) -> None:
        """Law 4 over mutated fixtures: truncations, marker edits, foreign tokens."""
        from hypothesis import given

        texts = [c["text"] for c in self.cases()] or ["x"]
        noise = [*self.markers(), *FOREIGN_TOKENS, *BAD_INPUT_NOISE]

        @_settings(self.max_examples)
        @given(mutated_texts(texts, noise))
        def run(text: str) -> None:
            check_bad_input(self.dialect, text)
            check_stream_equals_parse(self.dialect, text, range(0, len(text), 7))

        run()

    def test_holdback_bounded(self) -> None:
        """A stream shows content as soon as it cannot be a marker (law 3)."""
        check_holdback(self.dialect, "Prose, then more prose " * 12)
