"""Ordinary conversations in any order of roles: each renders so that it reads back, or is refused.

Templates are written for the usual order (a system message, then users and assistants in
turn, a result after each call). A format whose template writes some turns without a header
reads them back by what came before; a conversation in another order (two users in a row, a
result no call asked for, an assistant answering itself, an assistant first) may then read
back as other messages. :func:`role_orders` generates such conversations and
:func:`check_reads_back_or_refuses` checks the law for one: ``render_conversation`` raises a
:class:`~tooletta.ToolettaError` or its text reads back as the format's
``expressible_for`` of the messages; :func:`check_role_order` checks it for one draw of a
format's property test, which :func:`role_order_property` builds. Needs hypothesis (the
strategy) and pytest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .. import api
from ..chat import clock
from ..errors import ToolettaError
from ..ir import Message, ToolCall
from .conversations import FROZEN_TIME, check_conversation_round_trip
from .samples import PROBE_TOOLS

__all__ = [
    "ROLE_KINDS",
    "check_reads_back_or_refuses",
    "check_role_order",
    "role_order_property",
    "role_orders",
]

ROLE_KINDS = ("system", "user", "answer", "call", "tool")
"""The kinds of message :func:`role_orders` strings together (``answer``: an assistant turn
without calls, ``call``: one with a call of the probe tool)."""


def _message(kind: str, index: int) -> Message:
    text = f"m{index}"
    if kind == "answer":
        return Message("assistant", text)
    if kind == "call":
        return Message("assistant", "", tool_calls=[ToolCall("probe", {"s": text})])
    return Message(kind, text)


def role_orders(*, max_size: int = 6) -> Any:
    """A hypothesis strategy of conversations of up to ``max_size`` messages whose roles come
    in any order (:data:`ROLE_KINDS`), each with a short distinct text (``m0``, ``m1``...) so
    that a merged or moved message shows."""
    from hypothesis import strategies as st

    kinds = st.lists(st.sampled_from(ROLE_KINDS), max_size=max_size)
    return kinds.map(lambda ks: [_message(k, i) for i, k in enumerate(ks)])


def check_reads_back_or_refuses(
    messages: Sequence[Any],
    *,
    model: str | None = None,
    dialect: str | None = None,
    tools: Sequence[Any] | None = None,
    add_generation_prompt: bool = False,
    **options: Any,
) -> None:
    """``render_conversation`` refuses ``messages`` with a :class:`~tooletta.ToolettaError`,
    or the text reads back as what the format carries of them
    (:func:`~tooletta.testing.conversations.check_conversation_round_trip`); a text that
    ``parse_conversation`` refuses fails the check too (a rendered text must read back)."""
    try:
        api.render_conversation(
            messages,
            model=model,
            dialect=dialect,
            tools=tools,
            add_generation_prompt=add_generation_prompt,
            **options,
        )
    except ToolettaError:
        return
    try:
        check_conversation_round_trip(
            messages,
            model=model,
            dialect=dialect,
            tools=tools,
            add_generation_prompt=add_generation_prompt,
            **options,
        )
    except ToolettaError as exc:
        raise AssertionError(f"rendered, but the text does not read back: {exc}") from exc


def check_role_order(
    messages: Sequence[Any],
    *,
    with_tools: bool,
    prompt: bool,
    model: str | None = None,
    dialect: str | None = None,
    **options: Any,
) -> None:
    """:func:`check_reads_back_or_refuses` for one draw of a property test over
    ``role_orders(), st.booleans(), st.booleans()``: the probe tools
    (:data:`~tooletta.chat.samples.PROBE_TOOLS`) declared when ``with_tools``, a generation
    prompt when ``prompt``, the clock frozen at
    :data:`~tooletta.testing.conversations.FROZEN_TIME` (a format that writes the date reads
    back the same)."""
    with clock.frozen(FROZEN_TIME):
        check_reads_back_or_refuses(
            messages,
            model=model,
            dialect=dialect,
            tools=PROBE_TOOLS if with_tools else None,
            add_generation_prompt=prompt,
            **options,
        )


def role_order_property(
    *,
    model: str | None = None,
    dialect: str | None = None,
    dialects: Sequence[str] = (),
    max_examples: int = 150,
) -> Callable[[], None]:
    """A hypothesis test of the law for the format ``model`` or ``dialect`` names (or one
    drawn from ``dialects``): conversations of :func:`role_orders`, with and without the probe
    tools and a generation prompt, checked by :func:`check_role_order` (``max_examples``
    draws, no deadline). Assign it to a ``test_`` name in a test module::

        test_any_order_of_roles_reads_back_or_is_refused = role_order_property(model=MODEL)
    """
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    formats = st.sampled_from(list(dialects)) if dialects else st.just(dialect)

    @settings(max_examples=max_examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(role_orders(), formats, st.booleans(), st.booleans())
    def test(messages: list[Message], fmt: str | None, with_tools: bool, prompt: bool) -> None:
        """Any order of roles reads back or is refused (:func:`check_role_order`)."""
        check_role_order(messages, with_tools=with_tools, prompt=prompt, model=model, dialect=fmt)

    return test
