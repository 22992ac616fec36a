"""The conversation law's tests (:class:`ConversationLawTests`), a half of
:class:`~tooletta.testing.conversations.ConversationTests`: random conversations with one
oddity (:func:`~tooletta.testing.oddities.odd_conversations`) are refused typed or read back
(:func:`~tooletta.testing.conversation_law.check_conversation_law`), and any text, mangled
renders included (:func:`~tooletta.testing.oddities.mutated_renders`), is read or refused
typed (:func:`~tooletta.testing.conversation_law.check_parse_total`). Needs hypothesis and
pytest."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from .. import api
from ..chat.lookup import resolve_format
from ..chat.markup import dialect_markers
from ..chat.notools import writes_tools
from ..errors import ToolettaError
from ..ir import Message
from .conversation_law import check_conversation_law, check_parse_total
from .oddities import mutated_renders, odd_conversations
from .profile import under_fuzz
from .samples import PROBE_TOOLS, SAMPLE_TOOLS

if TYPE_CHECKING:
    from hypothesis import settings as Settings

__all__ = ["ConversationLawTests"]


class ConversationLawTests:
    """The law tests for the format ``model`` or ``dialect`` names (set by
    :class:`~tooletta.testing.conversations.ConversationTests`)."""

    model: ClassVar[str | None] = None
    dialect: ClassVar[str | None] = None
    tools: ClassVar[Sequence[Mapping[str, Any]]] = SAMPLE_TOOLS
    allow_markup: ClassVar[bool] = False
    law_examples: ClassVar[int] = 25
    """Hypothesis examples for each of the two law tests (:meth:`test_conversation_law`,
    :meth:`test_parse_any_text`); derandomized, so a run is repeatable."""
    law_failures: ClassVar[Mapping[str, str]] = {}
    """Known failures of the law tests: test name -> why (an issue item). Such a test is
    expected to fail, strictly: it reports an xfail while it fails, and fails once it
    passes (remove the entry then)."""

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        """The sample conversations whose renders :meth:`test_parse_any_text` mangles."""
        raise NotImplementedError

    def test_conversation_law(self) -> None:
        """Random conversations with none or one oddity (:func:`odd_conversations`), with and
        without a generation prompt: ``render_conversation`` refuses them typed or writes a
        text ``parse_conversation`` reads back as them (:func:`check_conversation_law`). A
        format that writes no tools is given no tool definitions, and must refuse every
        conversation with calls or tool results (its refusal, not any)."""
        from hypothesis import given
        from hypothesis import strategies as st

        fmt, obj = resolve_format(self.model, self.dialect)
        markup = [*fmt.markup(), *dialect_markers(obj)]
        tools = PROBE_TOOLS if writes_tools(fmt) else None  # (else calls and results refused)

        @_law_settings(self.law_examples)
        @given(odd_conversations(markup), st.booleans())
        def law(pair: tuple[str | None, list[Any]], prompt: bool) -> None:
            name, messages = pair
            try:
                check_conversation_law(
                    messages,
                    model=self.model,
                    dialect=self.dialect,
                    tools=tools,
                    add_generation_prompt=prompt,
                )
            except AssertionError as exc:
                raise AssertionError(f"oddity {name}, prompt={prompt}: {exc}") from None

        self._known("test_conversation_law", law)

    def test_parse_any_text(self) -> None:
        """``parse_conversation`` on the sample conversations' texts cut, with slices deleted
        or doubled or the format's markup inserted, and on random text, returns messages or
        raises typed (:func:`check_parse_total`)."""
        from hypothesis import given

        fmt, obj = resolve_format(self.model, self.dialect)
        markup = [*fmt.markup(), *dialect_markers(obj)]
        texts = []
        for messages, uses_tools in self._cases().values():
            try:
                texts.append(
                    api.render_conversation(
                        messages,
                        model=self.model,
                        dialect=self.dialect,
                        tools=self.tools if uses_tools else None,
                        allow_markup=self.allow_markup,
                    )
                )
            except ToolettaError:
                continue

        @_law_settings(self.law_examples)
        @given(mutated_renders(texts, markup))
        def total(text: str) -> None:
            check_parse_total(text, model=self.model, dialect=self.dialect, tools=self.tools)

        self._known("test_parse_any_text", total)

    def _known(self, name: str, run: Any) -> None:
        """``run()``, expected to fail when ``name`` is in :attr:`law_failures`."""
        reason = self.law_failures.get(name)
        if reason is None:
            run()
            return
        import pytest

        try:
            run()
        except AssertionError:
            pytest.xfail(reason)
        raise AssertionError(f"{name} passes now: remove it from law_failures ({reason})")


def _law_settings(examples: int) -> Settings:
    """Hypothesis settings for the law tests: derandomized, no deadline, no database, one
    failure reported (randomized, more examples under the ``fuzz`` profile:
    :func:`~tooletta.testing.profile.under_fuzz`)."""
    from hypothesis import HealthCheck, settings

    return under_fuzz(
        settings(
            max_examples=examples,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
            report_multiple_bugs=False,
        )
    )
