"""The probe suite: the conversations a chat template is rendered on to learn and check it.

Each probe differs from another in one thing (a system message, the tools, reasoning, a call,
a second tool result...), so that diffing their renders isolates one piece of the template.
Texts are sentinels (short words found nowhere in a template) so that they can be located in
a render; the calls carry TYPED arguments (integers, floats, booleans, null, lists, nested
objects, strings with quotes, unicode and newlines) so that how each value is written is seen.
Bump :data:`SUITE_VERSION` whenever a probe changes: a saved spec names the suite it passed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...ir import Message, ToolCall

__all__ = [
    "CALL_SETS",
    "RESULT_TEXT",
    "SUITE_VERSION",
    "TOOLS",
    "Probe",
    "S",
    "empty_answer_probes",
    "probe_suite",
]

SUITE_VERSION = 4
"""The version of the probe suite, saved in every learned spec. Version 2 adds the probes
:func:`~tooletta.chat.learn.infer.infer_spec` adds for what it learned (``system-empty``,
``named``, ``content-cut``, ``content-cut+call``, ``content-cut+results``) and the suite fitted
to a template that writes no text beside calls. Version 3 adds, for a template that writes
reasoning, the history observations (``history ...``, :mod:`~tooletta.chat.learn.history`).
Version 4 adds ``result-text``, a tool result holding quotes, backslashes, non-ASCII text, a
line break and JSON text (:data:`RESULT_TEXT`), for a template that writes calls, and the
empty answers (:func:`empty_answer_probes`: checked, or refused by the learned format where
the template writes them otherwise)."""


class S:
    """The sentinel texts (found nowhere in real templates; located in renders)."""

    SYSTEM = "Qz7sysA"
    USER = "Qz7usrA"
    USER2 = "Qz7usrB"
    ANSWER = "Qz7ansA"
    ANSWER2 = "Qz7ansB"
    RESULT = "Qz7resA"
    RESULT2 = "Qz7resB"
    REASONING = "Qz7rsnA"
    REASONING2 = "Qz7rsnB"


TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Get the weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "The city."},
                    "days": {"type": "integer"},
                },
                "required": ["city"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "set_alarm",
            "description": "Set an alarm \u2013 at a time (\u00e9t\u00e9).",
            "parameters": {
                "type": "object",
                "properties": {"time": {"type": "string"}, "label": {"type": "string"}},
                "required": ["time"],
            },
        },
    },
]
"""Two tool definitions (OpenAI Chat shape); the second has non-ASCII text."""

RESULT_TEXT = '{"k": "a \\"q\\" \\\\ b", "n": [1, 2.5]}\n\u00e9t\u00e9 \u2600 \\ "end" \U0001f600'
"""A tool result's text a template may rewrite (escape, encode as JSON...), with quotes,
backslashes, non-ASCII text (one character outside the BMP), a line break, and JSON text."""

_ONE = [
    ToolCall(
        "get_weather",
        {"city": "Paris", "days": 3, "ratio": 0.5, "metric": True, "note": None},
        id="call_1",
    )
]
_TWO = [
    ToolCall(
        "get_weather",
        {
            "city": 'Z\u00fcrich "old" town\nline two',
            "tags": ["a", 1, None, False],
            "opts": {"deep": {"x": [1.25, -7], "y": {}}},
        },
        id="call_2",
    ),
    ToolCall("set_alarm", {"time": "07:30", "label": "caf\u00e9 \u2600 \\ end"}, id="call_3"),
]
_EMPTY = [ToolCall("set_alarm", {}, id="call_4")]

CALL_SETS: dict[str, list[ToolCall]] = {"one": _ONE, "two": _TWO, "empty": _EMPTY}
"""The probe calls, one typed call, two parallel calls (nested, unicode, quotes, newlines)
and a call without arguments."""


def user(text: str = S.USER) -> Message:
    """A user message."""
    return Message(role="user", content=text)


def system(text: str = S.SYSTEM) -> Message:
    """A system message."""
    return Message(role="system", content=text)


def answer(text: str = S.ANSWER, reasoning: str = "") -> Message:
    """An assistant message without calls."""
    return Message(role="assistant", content=text, reasoning=reasoning)


def calling(calls: list[ToolCall], content: str = "", reasoning: str = "") -> Message:
    """An assistant message with calls."""
    return Message(role="assistant", content=content, tool_calls=calls, reasoning=reasoning)


def result(call: ToolCall, text: str) -> Message:
    """A tool result answering ``call``."""
    return Message(role="tool", content=text, tool_call_id=call.id, name=call.name)


@dataclass(frozen=True)
class Probe:
    """One probe: a conversation, its tools, whether a generation prompt ends it, options."""

    name: str
    messages: list[Message]
    tools: list[dict[str, Any]] = field(default_factory=list)
    prompt: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    read: bool = True
    """The closed loop reads the text back too (``False``: render only, for probes whose
    content a dialect's parse trims, such as content ending with a newline before calls)."""
    variant: bool = False
    """Another probe with an unrelated message added (a system message before tool results):
    a failure here while the other passes is the template contradicting itself."""
    optional: bool = False
    """Whether the template may refuse this conversation, which is then skipped (the kit's
    samples)."""


def empty_answer_probes() -> list[Probe]:
    """An answer with no text and no calls, in the history and last (EXAONE 4.0 writes
    its empty think block only for an answer with text or calls: such a template's learned
    format refuses empty answers, spec ``chat.empty_answer``)."""
    return [
        Probe("answer-empty", [user(), answer(""), user(S.USER2), answer(S.ANSWER2)]),
        Probe("answer-empty-last", [user(), answer("")]),
    ]


def probe_suite(
    *, reasoning: bool, tools: bool, late_system: bool = True, with_system: bool = True
) -> list[Probe]:
    """Every probe the closed loop checks (``reasoning``/``tools``: include the probes of
    reasoning and of calls, for templates that write them; ``late_system``: a system message
    after the first message, for templates that write one; ``with_system``: the probes with a
    system message, for templates that accept one)."""
    probes = [
        Probe("user", [user()]),
        Probe("user+prompt", [user()], prompt=True),
        Probe("system", [system(), user()]),
        Probe("system+prompt", [system(), user()], prompt=True),
        Probe("chat", [system(), user(), answer(), user(S.USER2), answer(S.ANSWER2)]),
        Probe("chat+prompt", [user(), answer(), user(S.USER2)], prompt=True),
        Probe("multiline", [user("a\nb"), answer("c\n\nd")]),
        Probe("answer-spaces", [user(), answer("\n " + S.ANSWER + " \n")]),
        Probe("user-spaces", [user("\n " + S.USER + " \n"), answer()]),
        Probe("system-spaces", [system(" \n" + S.SYSTEM + "\n "), user()]),
        Probe(
            "answer-spaces-history",
            [user(), answer("\n " + S.ANSWER + " \n"), user(S.USER2), answer(S.ANSWER2)],
        ),
    ]
    if late_system:
        probes.append(Probe("system-late", [user(), answer(), system(), user(S.USER2)]))
    if tools:
        one, two, empty = CALL_SETS["one"], CALL_SETS["two"], CALL_SETS["empty"]
        probes += [
            Probe("tools", [user()], TOOLS, prompt=True),
            Probe("tools+system", [system(), user()], TOOLS[:1], prompt=True),
            Probe("call", [user(), calling(one)], TOOLS),
            Probe("call+content", [user(), calling(one, S.ANSWER)], TOOLS),
            Probe(
                "call+content-newline",
                [user(), calling(one, S.ANSWER + "\n")],
                TOOLS,
                read=False,
            ),
            Probe("parallel", [system(), user(), calling(two)], TOOLS),
            Probe("no-arguments", [user(), calling(empty, S.ANSWER)], TOOLS),
            Probe(
                "call+blank-content",
                [user(), calling(one, "\n"), result(one[0], S.RESULT), answer()],
                TOOLS,
                read=False,
            ),
            Probe(
                "result",
                [user(), calling(one), result(one[0], S.RESULT), answer()],
                TOOLS,
            ),
            Probe(
                "results",
                [
                    user(),
                    calling(two, S.ANSWER),
                    result(two[0], S.RESULT),
                    result(two[1], S.RESULT2),
                    answer(S.ANSWER2),
                ],
                TOOLS,
            ),
            Probe(
                "results+system",
                [
                    system(),
                    user(),
                    calling(two),
                    result(two[0], S.RESULT),
                    result(two[1], S.RESULT2),
                    answer(S.ANSWER2),
                ],
                TOOLS,
                variant=True,
            ),
            Probe(
                "result-text",
                [user(), calling(one), result(one[0], RESULT_TEXT), answer()],
                TOOLS,
            ),
            Probe(
                "result+prompt",
                [user(), calling(one), result(one[0], " multi\nline {json: 1} \n")],
                TOOLS,
                prompt=True,
            ),
        ]
    if reasoning:
        probes += [
            Probe("reasoning", [user(), answer(reasoning=S.REASONING)]),
            Probe(
                "reasoning-history",
                [
                    user(),
                    answer(reasoning=S.REASONING),
                    user(S.USER2),
                    answer(S.ANSWER2, reasoning=S.REASONING2),
                ],
            ),
            Probe("no-reasoning", [user(), answer(), user(S.USER2), answer(S.ANSWER2)]),
        ]
        if tools:
            one = CALL_SETS["one"]
            probes.append(
                Probe(
                    "reasoning+call",
                    [
                        user(),
                        calling(one, reasoning=S.REASONING),
                        result(one[0], S.RESULT),
                        answer(S.ANSWER2, reasoning=S.REASONING2),
                    ],
                    TOOLS,
                )
            )
    if not with_system:
        probes = [p for p in probes if all(m.role != "system" for m in p.messages)]
    return probes
