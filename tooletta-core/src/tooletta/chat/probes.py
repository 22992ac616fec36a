"""The fixed probe suite :func:`tooletta.chat.identify` renders a chat template on.

Each :class:`Probe` is one conversation (messages, tool definitions, whether a generation
prompt ends it, the template switches it is rendered with). The suite covers what a chat
format declares: plain turns, a system message, one call and parallel calls whose arguments
hold every JSON type (nested too), strings with non-ASCII text, newlines, quotes and
backslashes, reasoning in history and in the last turn, one tool result and grouped results,
the generation prompt after a user turn and after results, and every option switch the
template reads (:func:`option_probes`).

The suite is versioned: :data:`PROBE_SUITE_VERSION` changes whenever a probe does, so that a
verdict recorded against one version is never compared with another's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from ..ir import Message, ToolCall

__all__ = [
    "PROBE_SUITE_VERSION",
    "PROBE_TOOLS",
    "Probe",
    "base_probes",
    "option_probes",
    "option_values",
    "probe_suite",
    "read_switches",
]

PROBE_SUITE_VERSION = 1
"""The version of the probe suite (bumped whenever a probe changes)."""

PROBE_TOOLS: tuple[dict[str, Any], ...] = (
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "City name"},
                    "days": {"type": "integer", "description": "Days ahead"},
                },
                "required": ["city"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "search",
            "description": "Search the web.",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What to look for"},
                    "limit": {"type": "integer", "description": "Most hits"},
                    "ratio": {"type": "number", "description": "Score cut-off"},
                    "exact": {"type": "boolean", "description": "Exact match"},
                    "cursor": {"type": "string", "description": "Page cursor"},
                    "tags": {
                        "type": "array",
                        "items": {"type": "string"},
                        "description": "Tags",
                    },
                },
                "required": ["query"],
            },
        },
    },
)
"""The tool definitions, in the OpenAI Chat shape, that the probes declare and call; one with a
string and an integer, one with parameters of the other JSON types (the calls also pass an
undeclared nested object: templates differ most on object schemas, not on values); every
parameter has a description (some templates read one for each)."""

_NO_OPTIONS: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class Probe:
    """One conversation of the suite: ``messages`` rendered with ``tools`` (``()``: no tools
    declared), a generation prompt when ``add_generation_prompt``, under ``options``."""

    name: str
    messages: tuple[Message, ...]
    tools: tuple[dict[str, Any], ...] = ()
    add_generation_prompt: bool = False
    options: Mapping[str, Any] = field(default_factory=lambda: _NO_OPTIONS)


def _calls() -> dict[str, ToolCall]:
    return {
        "one": ToolCall("get_weather", {"city": "Paris", "days": 3}, "call00001"),
        "typed": ToolCall(
            "search",
            {
                "query": "rust async",
                "limit": 10,
                "ratio": 0.5,
                "exact": True,
                "cursor": None,
                "tags": ["a", "b"],
                "filters": {"site": "docs.rs", "depth": {"max": 2, "follow": False}},
            },
            "call00002",
        ),
        "second": ToolCall("get_weather", {"city": "東京"}, "call00003"),
        "strings": ToolCall(
            "search",
            {"query": 'line one\nline "two" it\'s \\ {x} <y> & 東京 ✓ émoji 🙂'},
            "call00004",
        ),
    }


def base_probes() -> tuple[Probe, ...]:
    """The probes every template is rendered on (no option switches)."""
    c = _calls()
    tools = PROBE_TOOLS
    system = Message("system", "You are a helpful assistant.")
    user = Message("user", "What's the weather in Paris?")
    result = Message("tool", '{"temp": 18, "sky": "clear"}', tool_call_id="call00001")
    answer = Message("assistant", "It is 18 °C and clear.")
    call_turn = Message("assistant", "", tool_calls=[c["one"]])
    parallel = Message("assistant", "", tool_calls=[c["typed"], c["second"]])
    with_content = Message("assistant", "Let me look.", tool_calls=[c["one"]])
    results = [
        Message("tool", "3 hits", tool_call_id="call00002"),
        Message("tool", '{"temp": 22}', tool_call_id="call00003"),
    ]
    thinking_calls = Message(
        "assistant", "", tool_calls=[c["one"]], reasoning="The user wants the weather."
    )
    thought_answer = Message("assistant", "18 °C.", reasoning="Now answer briefly.")
    tricky = 'Say "hi" \\ it\'s {ok} <b> & 東京 ✓\nsecond line\n\n  indented'
    return (
        Probe("plain", (Message("user", "Hello!"), Message("assistant", "Hi! How can I help?"))),
        Probe("prompt", (Message("user", "Hello!"),), add_generation_prompt=True),
        Probe(
            "system",
            (system, Message("user", "Hello!"), Message("assistant", "Hi there.")),
        ),
        Probe("system_prompt", (system, Message("user", "Hello!")), add_generation_prompt=True),
        Probe(
            "multi_turn",
            (
                Message("user", "Hello!"),
                Message("assistant", "Hi."),
                Message("user", "How are you?"),
                Message("assistant", "Well, thanks."),
            ),
        ),
        Probe(
            "strings",
            (Message("user", tricky), Message("assistant", tricky)),
        ),
        Probe("tools_prompt", (user,), tools, True),
        Probe("tools_system_prompt", (system, user), tools, True),
        Probe("one_call", (user, call_turn, result, answer), tools),
        Probe("one_call_pending", (user, call_turn), tools),
        Probe("one_result_prompt", (system, user, call_turn, result), tools, True),
        Probe("parallel_calls", (system, user, parallel, *results, answer), tools),
        Probe("content_and_call", (user, with_content, result, answer), tools),
        Probe("grouped_results_prompt", (user, parallel, *results), tools, True),
        Probe(
            "string_arguments",
            (
                user,
                Message("assistant", "", tool_calls=[c["strings"]]),
                Message("tool", tricky, tool_call_id="call00004"),
                answer,
            ),
            tools,
        ),
        Probe(
            "reasoning_history",
            (
                system,
                user,
                thinking_calls,
                result,
                thought_answer,
                Message("user", "And tomorrow?"),
                Message("assistant", "Same.", reasoning="Nothing changes."),
            ),
            tools,
        ),
        Probe("reasoning_last", (Message("user", "Hello!"), thought_answer)),
        Probe(
            "reasoning_prompt",
            (system, user, thinking_calls, result, thought_answer, Message("user", "Thanks!")),
            tools,
            True,
        ),
    )


_OPTION_BASES = ("reasoning_prompt", "reasoning_history")
"""The base probes each option switch is rendered on: a prompt after reasoning and calls in
history (with tools declared and a system message), and a conversation whose last turn has
reasoning."""


def option_probes(values: Mapping[str, Iterable[Any]]) -> tuple[Probe, ...]:
    """For each switch name and each of its values, the probes of ``_OPTION_BASES``
    rendered with that switch set (named ``name=value:base``)."""
    bases = {p.name: p for p in base_probes() if p.name in _OPTION_BASES}
    out = []
    for name in sorted(values):
        for value in values[name]:
            for base in _OPTION_BASES:
                probe = bases[base]
                out.append(
                    Probe(
                        f"{name}={value!r}:{base}",
                        probe.messages,
                        probe.tools,
                        probe.add_generation_prompt,
                        MappingProxyType({name: value}),
                    )
                )
    return tuple(out)


def probe_suite(values: Mapping[str, Iterable[Any]] | None = None) -> tuple[Probe, ...]:
    """The whole suite: :func:`base_probes`, then :func:`option_probes` for ``values``
    (switch name -> the values to probe, usually :func:`option_values`)."""
    return base_probes() + option_probes(values or {})


_SIMPLE = (bool, int, float, str)
_EFFORTS = ("low", "medium", "high")


def read_switches(source: str, names: Iterable[str]) -> list[str]:
    """The names among ``names`` that occur in ``source`` (a template's text) as a whole
    word: the switches it may read (a template naming a switch in prose is probed once more,
    never less). A whole word: a run of ``\\w`` characters, as ``re.findall(r"\\w+")``
    splits the source (each name's occurrences are found by ``str.find``; a regular
    expression scanning 50 kB of template for every name takes ten times as long)."""
    return sorted(n for n in set(names) if _WORD.fullmatch(n) and _has_word(source, n))


def _has_word(source: str, word: str) -> bool:
    """Whether ``word`` occurs in ``source`` with no ``\\w`` character on either side."""
    at = source.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or not _WORD.match(source, at - 1, at)) and not _WORD.match(source, end):
            return True
        at = source.find(word, at + 1)
    return False


_WORD = re.compile(r"\w+")


def option_values(
    switches: Iterable[str], declared: Iterable[Mapping[str, Any]]
) -> dict[str, tuple[Any, ...]]:
    """The values to probe for each switch: every simple default the formats declare for it
    (``declared``: each format's :attr:`~tooletta.chat.ChatFormat.options`), both booleans
    for a boolean switch, and ``low``/``medium``/``high`` for an effort. Switches with no
    simple value (lists, callables, ``None`` only) are not probed."""
    tables = list(declared)
    out: dict[str, tuple[Any, ...]] = {}
    for name in switches:
        found: list[Any] = []
        for table in tables:
            value = table.get(name)
            if isinstance(value, _SIMPLE) and not any(
                type(v) is type(value) and v == value for v in found
            ):
                found.append(value)
        if any(type(v) is bool for v in found):
            found = [v for v in found if type(v) is not bool] + [False, True]
        if "effort" in name:
            found += [e for e in _EFFORTS if e not in found]
        if found:
            out[name] = tuple(found)
    return out
