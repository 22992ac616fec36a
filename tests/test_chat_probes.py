"""The probe suite identify renders templates on: fixed, versioned, covering what formats
declare."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from tooletta.chat.probes import (
    PROBE_SUITE_VERSION,
    PROBE_TOOLS,
    base_probes,
    option_probes,
    option_values,
    probe_suite,
    read_switches,
)


def test_version_and_unique_names() -> None:
    suite = probe_suite({"enable_thinking": (False, True)})
    assert isinstance(PROBE_SUITE_VERSION, int) and PROBE_SUITE_VERSION >= 1
    names = [p.name for p in suite]
    assert len(names) == len(set(names))


def test_suite_is_fixed() -> None:
    """Two builds of the suite are equal (nothing random, nothing from the clock)."""
    assert base_probes() == base_probes()


def test_covers_what_formats_declare() -> None:
    probes = {p.name: p for p in base_probes()}
    messages = [m for p in probes.values() for m in p.messages]
    values = [v for m in messages for c in m.tool_calls for v in c.arguments.values()]
    kinds = {type(v) for v in values}
    assert {int, float, bool, type(None), list, dict, str} <= kinds
    assert any(isinstance(v, dict) and any(isinstance(x, dict) for x in v.values()) for v in values)
    strings = [v for v in values if isinstance(v, str)]
    assert any("\n" in s and '"' in s and "\\" in s and not s.isascii() for s in strings)
    assert any(len(m.tool_calls) > 1 for m in messages)
    assert any(m.reasoning for p in probes.values() for m in p.messages[:-1])
    assert probes["reasoning_last"].messages[-1].reasoning
    grouped = probes["grouped_results_prompt"].messages
    assert [m.role for m in grouped[-2:]] == ["tool", "tool"]
    assert any(p.add_generation_prompt for p in probes.values())
    assert any(p.messages[-1].role == "tool" and p.add_generation_prompt for p in probes.values())
    assert all(p.tools in ((), PROBE_TOOLS) for p in probes.values())


def test_read_switches_is_a_word_match() -> None:
    source = "{% if enable_thinking %}x{% endif %}{{ my_enable_thinking_x }}"
    assert read_switches(source, ["enable_thinking", "thinking", "reasoning_effort"]) == [
        "enable_thinking"
    ]


_NAMES = st.sampled_from(["thinking", "enable_thinking", "a", "a-b", "é", "x1", "", "_t"])


@settings(max_examples=200, deadline=None)
@given(
    parts=st.lists(
        st.one_of(_NAMES, st.sampled_from([" ", "_", "-", ".", "{{", "}}", "é", "1", "\n"])),
        max_size=12,
    ),
    names=st.lists(_NAMES, max_size=5),
)
def test_read_switches_are_the_words_of_the_source(parts: list[str], names: list[str]) -> None:
    """The names found are exactly those that are a whole ``\\w+`` word of the source."""
    source = "".join(parts)
    assert read_switches(source, names) == sorted(set(names) & set(re.findall(r"\w+", source)))


def test_option_values() -> None:
    declared = [
        {"enable_thinking": True, "reasoning_effort": "medium", "tools": None},
        {"enable_thinking": False, "thinking_budget": -1, "documents": ["x"]},
    ]
    values = option_values(
        ["enable_thinking", "reasoning_effort", "thinking_budget", "tools", "documents"], declared
    )
    assert values["enable_thinking"] == (False, True)
    assert values["reasoning_effort"] == ("medium", "low", "high")
    assert values["thinking_budget"] == (-1,)
    assert "tools" not in values and "documents" not in values  # nothing simple to probe


def test_option_probes_set_one_switch_each() -> None:
    probes = option_probes({"enable_thinking": (False, True)})
    assert len(probes) == 4
    assert all(
        dict(p.options) in ({"enable_thinking": False}, {"enable_thinking": True}) for p in probes
    )
    assert all(p.add_generation_prompt or p.messages[-1].reasoning for p in probes)
