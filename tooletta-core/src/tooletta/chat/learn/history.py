"""The history rule of a template's reasoning, learned by observation: which past assistant
turns write their reasoning back.

Each observation conversation gives every assistant turn a reasoning sentinel of its own;
the sentinels the template writes are the turns it keeps. The rule learned is the first of
:data:`~tooletta.chat.declare.KEEP_RULES` that predicts every observed set
(:func:`tooletta.chat.keeps` is the prediction): the conversations tell each rule from
every other (a later exchange, a third one, a user message wrapping a tool response, runs of
calls with and without an answer, two call turns in a row). A template that no rule explains
is refused, naming the conversation and what it kept. The observations are probes of the
closed loop too (:func:`history_probes`), so the rule is checked where it was learned.

Nothing here reads a template's source: only its renders.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from ...errors import LearnError
from ...ir import Message
from ..declare import KEEP_RULES, keeps
from .probes import CALL_SETS, TOOLS, Probe, S, answer, calling, result, user

__all__ = [
    "OBSERVED_RULES",
    "Observation",
    "finders",
    "fit_rules",
    "history_conversations",
    "history_probes",
    "observe",
    "unexplained",
    "without_reasoning",
]

OBSERVED_RULES: tuple[str, ...] = tuple(r for r in KEEP_RULES if r != "until_unprompted_answer")
"""The rules the observations tell apart, every one of
:data:`~tooletta.chat.declare.KEEP_RULES` but
``"until_unprompted_answer"`` (gpt-oss's), which differs from ``"until_answer"`` only when a
generation prompt follows a last answer; the observations are rendered without one, so a
template that follows it is learned as ``"until_answer"`` and refused by the closed loop's
prompted probes (the sample conversations ending with an answer, rendered with a generation
prompt), never learned wrong."""

_RSN = (S.REASONING, S.REASONING2, "Qz7rsnC", "Qz7rsnD")
"""The reasoning sentinels, one per assistant turn of an observation."""
_ANSWER3, _USER3, _RESULT = "Qz7ansC", "Qz7usrC", S.RESULT

_QUERY_LIKE = ("<tool_response>\n" + _RESULT + "\n</tool_response>", "tool-response-user")
"""A user message wrapping a tool response (Qwen3's templates do not count it as a query)."""
_QUERY_SPACED = (" <tool_response>" + _RESULT + "</tool_response>\n", "tool-response-spaced")
"""The same with spaces around (Qwen3.5's template strips them first; Qwen3's does not)."""


@dataclass(frozen=True)
class Observation:
    """Which assistant turns of one conversation the template writes with their reasoning."""

    name: str
    messages: list[Message]
    tools: bool
    """The conversation holds calls (rendered with the probe tools)."""
    text: str
    """The template's render."""
    kept: tuple[int, ...]
    """The indices of the assistant turns whose reasoning the template writes."""

    @property
    def assistants(self) -> tuple[int, ...]:
        """The indices of every assistant turn."""
        return tuple(i for i, m in enumerate(self.messages) if m.role == "assistant")

    def predicted(self, rule: str) -> tuple[int, ...]:
        """The turns ``rule`` keeps in this conversation."""
        return tuple(i for i in self.assistants if keeps(rule, i, self.messages))


def finders() -> list[tuple[list[Message], str, str, bool]]:
    """Conversations whose last assistant turn holds the reasoning ``S.REASONING`` and
    the text ``S.ANSWER`` or ``S.ANSWER2``, each with the sentinel of the user
    message before that turn, of its text, and whether it has calls (rendered with the probe
    tools): the answer alone after a user message; the answer after an earlier exchange (a
    template that drops the first answer's reasoning, as llama.cpp's Kimi K2-Thinking copy
    does, writes this one's); a turn with text and calls ending the conversation (one that
    keeps reasoning only in the tool-use run after the last answer)."""
    one = CALL_SETS["one"]
    return [
        ([user(), answer(reasoning=S.REASONING)], S.USER, S.ANSWER, False),
        (
            [user(), answer(), user(S.USER2), answer(S.ANSWER2, reasoning=S.REASONING)],
            S.USER2,
            S.ANSWER2,
            False,
        ),
        ([user(), calling(one, S.ANSWER, reasoning=S.REASONING)], S.USER, S.ANSWER, True),
    ]


def _numbered(messages: list[Message]) -> list[Message]:
    """``messages`` with each assistant turn's reasoning set to a sentinel of its own."""
    out, n = [], 0
    for message in messages:
        if message.role == "assistant":
            message = msgspec.structs.replace(message, reasoning=_RSN[n])
            n += 1
        out.append(message)
    return out


def without_reasoning(messages: Sequence[Message]) -> list[Message]:
    """``messages`` with no reasoning in any turn."""
    return [msgspec.structs.replace(m, reasoning="") if m.reasoning else m for m in messages]


def history_conversations(tools: bool) -> list[tuple[str, list[Message], bool]]:
    """``(name, messages, with calls)`` of every observation conversation (those with calls
    only when ``tools``)."""
    one, other = CALL_SETS["one"], CALL_SETS["empty"]
    plain = [
        ("two-answers", [user(), answer(), user(S.USER2), answer(S.ANSWER2)]),
        (
            "three-answers",
            [
                user(),
                answer(),
                user(S.USER2),
                answer(S.ANSWER2),
                user(_USER3),
                answer(_ANSWER3),
            ],
        ),
        *(
            (name, [user(), answer(), user(text), answer(S.ANSWER2)])
            for text, name in (_QUERY_LIKE, _QUERY_SPACED)
        ),
    ]
    out = [(name, _numbered(messages), False) for name, messages in plain]
    if tools:
        with_calls = [
            (
                "two-runs",
                [
                    user(),
                    calling(one),
                    result(one[0], _RESULT),
                    answer(),
                    user(S.USER2),
                    calling(other),
                    result(other[0], S.RESULT2),
                    answer(S.ANSWER2),
                ],
            ),
            (
                "run-after-answer",
                [user(), answer(), user(S.USER2), calling(one), result(one[0], _RESULT)],
            ),
            (
                "calls-twice",
                [
                    user(),
                    calling(one),
                    result(one[0], _RESULT),
                    calling(other),
                    result(other[0], S.RESULT2),
                ],
            ),
        ]
        out += [(name, _numbered(messages), True) for name, messages in with_calls]
    return out


def observe(
    render: Callable[[list[Message], list[dict[str, Any]]], str], tools: bool
) -> list[Observation]:
    """The observations the template (``render(messages, tools)``) gives; a conversation it
    refuses is left out."""
    out = []
    for name, messages, calls in history_conversations(tools):
        try:
            text = render(messages, TOOLS if calls else [])
        except LearnError:
            continue
        kept = []
        for n, index in enumerate(i for i, m in enumerate(messages) if m.role == "assistant"):
            if _RSN[n] in text:
                kept.append(index)
        out.append(Observation(name, messages, calls, text, tuple(kept)))
    return out


def fit_rules(observations: Sequence[Observation]) -> list[str]:
    """The history rules that predict every observation, in
    :data:`~tooletta.chat.declare.KEEP_RULES` order (those of :data:`OBSERVED_RULES`)."""
    return [
        rule
        for rule in OBSERVED_RULES
        if all(obs.predicted(rule) == obs.kept for obs in observations)
    ]


def unexplained(observations: Sequence[Observation]) -> str:
    """What no history rule explains, in words (for the refusal)."""
    seen = "; ".join(
        f"{obs.name}: turns {list(obs.kept)} of {list(obs.assistants)}" for obs in observations
    )
    return (
        f"no history rule of tooletta.chat.keeps explains which turns keep their reasoning ({seen})"
    )


def history_probes(observations: Sequence[Observation], calls: bool) -> list[Probe]:
    """The observations as probes of the closed loop (those with calls only when the learned
    format writes calls). A user message that wraps a tool response is rendered only, not
    read back: a format that writes tool results in user turns reads it as one."""
    return [
        Probe(
            "history " + obs.name,
            obs.messages,
            list(TOOLS) if obs.tools else [],
            read=not obs.name.startswith("tool-response"),
        )
        for obs in observations
        if (calls or not obs.tools) and obs.name != "two-answers"  # the 'reasoning-history' probe
    ]
