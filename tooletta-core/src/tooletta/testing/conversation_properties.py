"""Hypothesis property builders over random conversations: each returns a test function to
assign to a ``test_`` name in a plugin's test module (the conversation laws of
:mod:`~tooletta.testing.conversations`, drawn at random)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..chat import clock
from ..chat.lookup import resolve_format
from ..chat.markup import dialect_markers
from ..ir import Message
from .conversations import (
    FROZEN_TIME,
    PROBE_TOOLS,
    check_conversation_round_trip,
    check_matches_template,
    random_conversations,
)

__all__ = ["holds_markup", "round_trip_property", "template_property"]


def holds_markup(messages: Sequence[Message], model: str) -> bool:
    """Whether a text of ``messages`` (content, reasoning, a call's string values) holds a
    token ``model``'s format or its calls' dialect reads as markup, which a render refuses
    (``allow_markup``): :func:`~tooletta.chat.samples.random_conversations` leaves ``<`` and
    ``>`` out, but hypothesis also draws the string constants it finds in the code under test
    (``[TOOL_CALLS]``), so the properties set such a draw aside instead of failing on it."""
    fmt, dialect = resolve_format(model, None)
    markup = [*fmt.markup(), *dialect_markers(dialect)]
    texts = [t for m in messages for t in (m.content, m.reasoning) if isinstance(t, str)]
    texts += [repr(call.arguments) for m in messages for call in m.tool_calls]
    return any(token in text for text in texts for token in markup)


def round_trip_property(
    *models: str,
    trimmed: bool = True,
    max_examples: int = 40,
    tools: Sequence[Mapping[str, Any]] = PROBE_TOOLS,
    options: Sequence[Mapping[str, Any]] = ({},),
) -> Callable[[], None]:
    """A hypothesis test: every conversation of
    :func:`~tooletta.chat.samples.random_conversations` (``trimmed``:
    texts without whitespace at their ends) reads back through each of ``models``' formats,
    with ``tools`` declared (the probe tools unless given), rendered with each of ``options``
    (:func:`~tooletta.testing.conversations.check_conversation_round_trip`;
    ``max_examples`` draws, no deadline). Assign it to a ``test_`` name in a test module::

        test_random_conversations_round_trip = round_trip_property(MODEL)
        test_round_trip_preserving = round_trip_property(
            MODEL, options=({}, {"preserve_thinking": True})
        )
    """
    from hypothesis import HealthCheck, assume, given, settings

    @settings(max_examples=max_examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(random_conversations(trimmed=trimmed))
    def test(messages: list[Message]) -> None:
        """Random conversations read back (the kit's round-trip check)."""
        assume(not any(holds_markup(messages, model) for model in models))
        for model in models:
            for chosen in options:
                check_conversation_round_trip(messages, model=model, tools=tools, **chosen)

    built: Callable[[], None] = test  # given() over an untyped strategy is untyped
    return built


def template_property(
    model: str,
    template: Path,
    *,
    tokens: Mapping[str, str] | None = None,
    add_generation_prompt: bool = False,
    trimmed: bool = True,
    max_examples: int = 40,
) -> Callable[[], None]:
    """A hypothesis test: every conversation of
    :func:`~tooletta.chat.samples.random_conversations` (``trimmed`` as
    there), with the probe tools declared, renders as the vendored ``template`` does
    (:func:`~tooletta.testing.conversations.check_matches_template` with ``tokens`` and
    ``add_generation_prompt``, the clock frozen at
    :data:`~tooletta.testing.conversations.FROZEN_TIME`) and reads back
    (:func:`~tooletta.testing.conversations.check_conversation_round_trip`);
    ``max_examples`` draws, no deadline. Assign it to a ``test_`` name in a test module::

        test_random_conversations_round_trip_and_match_the_template = template_property(
            MODEL, TEMPLATE, add_generation_prompt=True
        )
    """
    from hypothesis import HealthCheck, assume, given, settings

    @settings(max_examples=max_examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(random_conversations(trimmed=trimmed))
    def test(messages: list[Message]) -> None:
        """Random conversations render as the template does and read back."""
        assume(not holds_markup(messages, model))
        check_conversation_round_trip(messages, model=model, tools=PROBE_TOOLS)
        with clock.frozen(FROZEN_TIME):
            check_matches_template(
                template.read_text(encoding="utf-8"),
                messages,
                model=model,
                tools=PROBE_TOOLS,
                tokens=tokens,
                add_generation_prompt=add_generation_prompt,
            )

    built: Callable[[], None] = test  # given() over an untyped strategy is untyped
    return built
