"""learn: the reasoning history rule learned by observation (issue 21, learn coverage).

llama.cpp's copy of Kimi K2-Thinking (tests/fixtures/templates, see its SOURCES.md) keeps a
turn's reasoning only after the *first* assistant turn without calls (its backward scan for
the last one never stops), names each message in its header and numbers the calls' ids
across the conversation; learn now probes which past turns keep their reasoning
(:mod:`tooletta.chat.learn.history`), expresses the rule with ``KEEP_RULES``
(``after_first_answer``), and passes the closed loop. A template with another rule is
learned with that rule, one no rule explains is refused with what it kept.

llama.cpp's ``llama-cpp-deepseek-r1.jinja`` writes the tools as one indented JSON list: learned
with ``lenient=True`` (its second round of tool outputs loses its opening, a bug of the
template). Expected texts are the templates' own renders (``tooletta.chat.jinja``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from support import TEMPLATES, render_template_file, weather_tool
from tooletta import LearnError, Message, RenderError, ToolCall
from tooletta.chat import Conversation, keeps, read_conversation
from tooletta.chat.declare import KEEP_RULES
from tooletta.chat.jinja import render_jinja
from tooletta.chat.learn import load_learned
from tooletta.chat.learn.history import OBSERVED_RULES, fit_rules, history_conversations, observe
from tooletta.chat.learn.probes import TOOLS as PROBE_TOOL_DEFS
from tooletta.chat.messages import read_tool_definitions
from tooletta.testing.samples import PROBE_TOOLS, random_conversations

pytest.importorskip("jinja2")


pytestmark = pytest.mark.usefixtures("forget_learned")
"""Formats learned here are forgotten after this module (``tests/conftest.py``)."""


KIMI_THINKING = str(TEMPLATES / "Kimi-K2-Thinking.jinja")
R1_LLAMA_CPP = str(TEMPLATES / "llama-cpp-deepseek-r1.jinja")

TOOLS = [
    weather_tool("Weather of a city."),
    {
        "type": "function",
        "function": {
            "name": "set_alarm",
            "parameters": {"type": "object", "properties": {"time": {"type": "string"}}},
        },
    },
]


def _call(call_id: str, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


HISTORY: list[dict[str, Any]] = [
    {"role": "user", "content": "Weather in Zürich?"},
    {
        "role": "assistant",
        "content": "",
        "reasoning_content": "I should look it up.",
        "tool_calls": [_call("c1", "get_weather", {"city": "Zürich"})],
    },
    {"role": "tool", "tool_call_id": "c1", "name": "get_weather", "content": "sunny"},
    {"role": "assistant", "content": "Sunny.", "reasoning_content": "It said sunny."},
    {"role": "user", "content": "Wake me at 7, and Bern?"},
    {
        "role": "assistant",
        "content": "",
        "reasoning_content": "Two things: an alarm, then the weather.",
        "tool_calls": [
            _call("c2", "set_alarm", {"time": "07:00"}),
            _call("c3", "get_weather", {"city": "Bern"}),
        ],
    },
    {"role": "tool", "tool_call_id": "c2", "name": "set_alarm", "content": "ok"},
    {"role": "tool", "tool_call_id": "c3", "name": "get_weather", "content": "rain"},
    {"role": "assistant", "content": "Alarm set; rain in Bern.", "reasoning_content": "Done."},
]
"""Two tool-use runs, each ending with an answer, every assistant turn with reasoning."""


@pytest.fixture(scope="module")
def kimi() -> tooletta.chat.learn.Learned:
    return tooletta.learn(KIMI_THINKING, name="test-kimi-thinking9")


# -- the rule itself ---------------------------------------------------------------------------


def _kinds(kinds: list[int]) -> list[Message]:
    """0 user, 1 answer, 2 assistant with a call, 3 tool result."""
    out = []
    for n, kind in enumerate(kinds):
        if kind == 0:
            out.append(Message("user", f"u{n}"))
        elif kind == 1:
            out.append(Message("assistant", f"a{n}", reasoning=f"r{n}"))
        elif kind == 2:
            call = ToolCall("get_weather", {"city": "x"}, id=f"c{n}")
            out.append(Message("assistant", "", tool_calls=[call], reasoning=f"r{n}"))
        else:
            out.append(Message("tool", "t", tool_call_id=f"c{n}"))
    return out


def test_after_first_answer_is_declared() -> None:
    assert "after_first_answer" in KEEP_RULES


def test_after_first_answer_keeps_the_turns_after_the_first_answer() -> None:
    messages = _kinds([0, 2, 3, 1, 0, 1, 0, 2, 3, 1])
    kept = [i for i in range(len(messages)) if keeps("after_first_answer", i, messages)]
    assert kept == [4, 5, 6, 7, 8, 9]
    assert not keeps("after_last_answer", 5, messages)  # the other rule differs here


@given(st.lists(st.integers(0, 3), max_size=12))
def test_after_first_answer_agrees_with_its_definition_and_the_memoised_anchor(
    kinds: list[int],
) -> None:
    messages = _kinds(kinds)
    answers = [i for i, m in enumerate(messages) if m.role == "assistant" and not m.tool_calls]
    first = answers[0] if answers else -1
    ctx = Conversation(messages, (), {}, None)
    for index in range(len(messages)):
        assert keeps("after_first_answer", index, messages) is (index > first)
        assert keeps("after_first_answer", index, messages, ctx) is (index > first)


def test_the_observation_conversations_tell_every_rule_apart() -> None:
    """Each rule predicts its own kept sets over the observations: fitting the predictions
    of one rule gives that rule alone."""
    conversations = history_conversations(tools=True)

    def render_as(rule: str) -> Any:
        def render(messages: list[Message], tools: Any) -> str:
            kept = [m.reasoning for i, m in enumerate(messages) if keeps(rule, i, messages)]
            return " ".join(kept)

        return render

    assert set(KEEP_RULES) - set(OBSERVED_RULES) == {"until_unprompted_answer"}
    for rule in OBSERVED_RULES:
        found = fit_rules(observe(render_as(rule), tools=True))
        assert found == [rule], (rule, found)
    assert len(conversations) >= 6


# -- llama.cpp's Kimi K2-Thinking copy -----------------------------------------------------------


def test_kimi_thinking_copy_is_learned_with_its_history_rule(kimi: Any) -> None:
    reasoning = kimi.spec["chat"]["reasoning"]
    assert reasoning["keep"] == "after_first_answer"
    assert (reasoning["open"], reasoning["close"]) == ("<think>", "</think>")
    assert reasoning["dropped"] == "<think></think>"
    assert kimi.spec["calls"]["dialect"] == "kimi_k2"
    assert kimi.spec["calls"]["ids_across"] is True
    assert kimi.spec["chat"]["names"]["tool"] == ["<|im_system|>", "<|im_middle|>", "tool"]
    assert kimi.checks > 60
    assert not kimi.deviations


def test_kimi_thinking_reproduces_the_history_probes(kimi: Any) -> None:
    """Every observation conversation renders as the template does, byte for byte."""
    for name, messages, calls in history_conversations(tools=True):
        tools = PROBE_TOOL_DEFS if calls else None
        want = render_template_file(KIMI_THINKING, messages, tools=tools)
        got = tooletta.render_conversation(messages, dialect=kimi.name, tools=tools)
        assert got == want, name


def test_kimi_thinking_history_round_trips(kimi: Any) -> None:
    """Reasoning is written only in the turns after the first answer (the second run), the
    call ids go on across the conversation, the results' headers name their tools; the
    template's text reads back to what it carries."""
    want = render_template_file(KIMI_THINKING, HISTORY, tools=TOOLS, add_generation_prompt=True)
    assert "<think>I should look it up.</think>" not in want
    assert "<think>It said sunny.</think>" not in want
    assert "<think>Two things: an alarm, then the weather.</think>" in want
    assert "functions.set_alarm:1" in want and "functions.get_weather:2" in want
    assert "<|im_system|>set_alarm<|im_middle|>## Return of functions.set_alarm:1" in want
    got = tooletta.render_conversation(
        HISTORY, dialect=kimi.name, tools=TOOLS, add_generation_prompt=True
    )
    assert got == want
    read = tooletta.parse_conversation(want, dialect=kimi.name, tools=TOOLS)
    expected = kimi.format.expressible(read_conversation(HISTORY))
    assert [(m.role, m.content, m.reasoning, m.tool_calls) for m in read] == [
        (m.role, m.content, m.reasoning, m.tool_calls) for m in expected
    ]
    assert [m.reasoning for m in read if m.role == "assistant"] == [
        "",
        "",
        "Two things: an alarm, then the weather.",
        "Done.",
    ]


def test_kimi_thinking_names_in_headers_render_and_read_back(kimi: Any) -> None:
    messages = [
        {"role": "system", "content": "Be brief.", "name": "rules"},
        {"role": "user", "content": "Hi", "name": "ada"},
        {"role": "assistant", "content": "Hello.", "name": "kimi"},
    ]
    want = render_template_file(KIMI_THINKING, messages)
    assert "<|im_user|>ada<|im_middle|>" in want
    assert tooletta.render_conversation(messages, dialect=kimi.name) == want
    read = tooletta.parse_conversation(want, dialect=kimi.name)
    assert [(m.role, m.content) for m in read] == [(m["role"], m["content"]) for m in messages]


def test_kimi_thinking_name_that_would_not_read_back_is_refused(kimi: Any) -> None:
    messages = [{"role": "user", "content": "Hi", "name": "a<|im_middle|>b"}]
    with pytest.raises(RenderError, match="would not read back"):
        tooletta.render_conversation(messages, dialect=kimi.name)


@settings(max_examples=25, deadline=None)
@given(messages=random_conversations(trimmed=True))
def test_kimi_thinking_random_conversations(kimi: Any, messages: list[Message]) -> None:
    """Any conversation renders as the template does and reads back to what its text
    carries."""
    tools = read_tool_definitions(PROBE_TOOLS)
    want = render_template_file(KIMI_THINKING, messages, tools=tools)
    assert tooletta.render_conversation(messages, dialect=kimi.name, tools=tools) == want
    read = tooletta.parse_conversation(want, dialect=kimi.name, tools=tools)
    expected = kimi.format.expressible(messages)
    assert [(m.role, m.content, m.reasoning, m.tool_calls) for m in read] == [
        (m.role, m.content, m.reasoning, m.tool_calls) for m in expected
    ]


def test_kimi_thinking_saved_spec_loads_and_renders_alike(kimi: Any, tmp_path: Path) -> None:
    path = tmp_path / "kimi.json"
    kimi.save(path)
    spec = json.loads(path.read_text(encoding="utf-8"))
    spec["name"] = "test-kimi-thinking9-loaded"
    path.write_text(json.dumps(spec), encoding="utf-8")
    loaded = load_learned(path)
    want = render_template_file(KIMI_THINKING, HISTORY, tools=TOOLS)
    assert tooletta.render_conversation(HISTORY, dialect=loaded.name, tools=TOOLS) == want


# -- other history rules: learned as they are, or refused ------------------------------------------

RULED = (
    "{%- set ns = namespace(first=-1, last=-1, user=-1) -%}"
    "{%- for m in messages -%}"
    "{%- if m.role == 'assistant' and not m.tool_calls -%}"
    "{%- if ns.first < 0 %}{% set ns.first = loop.index0 %}{% endif -%}"
    "{%- set ns.last = loop.index0 -%}{%- endif -%}"
    "{%- if m.role == 'user' %}{% set ns.user = loop.index0 %}{% endif -%}"
    "{%- endfor -%}"
    "{%- for m in messages -%}"
    "{%- if m.role == 'assistant' -%}<|a|>"
    "{%- if KEEP %}<think>{{ m.reasoning_content or '' }}</think>{% endif -%}"
    "{{ m.content or '' }}"
    "{%- for c in m.tool_calls or [] -%}<call>{{ {'name': c.function.name,"
    " 'arguments': c.function.arguments} | tojson }}</call>{%- endfor -%}<|end|>"
    "{%- elif m.role == 'tool' %}<|t|>{{ m.content }}<|end|>"
    "{%- else %}<|{{ m.role[0] }}|>{{ m.content }}<|end|>{% endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt %}<|a|>{% endif -%}"
)
"""A made-up template whose history rule is the Jinja test ``KEEP``."""

RULES = {
    "after_first_answer": "loop.index0 > ns.first",
    "after_last_answer": "loop.index0 > ns.last",
    "after_last_user": "loop.index0 > ns.user",
    "all": "true",
    "with_calls": "m.tool_calls",
}


@pytest.mark.parametrize("rule", sorted(RULES))
def test_a_template_with_another_history_rule_is_learned_with_that_rule(rule: str) -> None:
    template = RULED.replace("KEEP", RULES[rule])
    learned = tooletta.learn(template, name=f"test-ruled9-{rule}")
    assert learned.spec["chat"]["reasoning"]["keep"] == rule
    want = _jinja_text(template, HISTORY, tools=TOOLS)
    got = tooletta.render_conversation(HISTORY, dialect=learned.name, tools=TOOLS)
    assert got == want


def _jinja_text(template: str, messages: Any, **kwargs: Any) -> str:
    return render_jinja(template, read_conversation(messages), **kwargs)


def test_kimi_s_rule_and_its_last_answer_twin_are_not_confused() -> None:
    """The same template scanning for the last answer (what the model's own template means)
    is learned with ``after_last_answer``, not the copy's rule."""
    first = tooletta.learn(RULED.replace("KEEP", RULES["after_first_answer"]), name="t9-first")
    last = tooletta.learn(RULED.replace("KEEP", RULES["after_last_answer"]), name="t9-last")
    assert first.spec["chat"]["reasoning"]["keep"] == "after_first_answer"
    assert last.spec["chat"]["reasoning"]["keep"] == "after_last_answer"


def test_a_rule_that_depends_on_the_generation_prompt_is_never_learned_wrong() -> None:
    """gpt-oss's rule (``until_unprompted_answer``: the last answer keeps its reasoning only
    when no generation prompt follows) is not told apart by the observations, rendered without
    a prompt: such a template is refused by the prompted probes, or learned with a rule that
    renders every history as it does."""
    keep = "loop.index0 > ns.last or (loop.last and not add_generation_prompt)"
    template = RULED.replace("KEEP", keep)
    try:
        learned = tooletta.learn(template, name="test-ruled9-unprompted")
    except LearnError as refused:
        assert refused.probe is not None
        return
    for prompt in (False, True):
        want = _jinja_text(template, HISTORY, tools=TOOLS, add_generation_prompt=prompt)
        got = tooletta.render_conversation(
            HISTORY, dialect=learned.name, tools=TOOLS, add_generation_prompt=prompt
        )
        assert got == want


def test_a_history_rule_no_rule_explains_is_refused_with_what_it_kept() -> None:
    """Every other assistant turn keeps its reasoning: no declared rule says that."""
    template = RULED.replace("KEEP", "loop.index0 % 4 == 3")
    with pytest.raises(LearnError) as caught:
        tooletta.learn(template, name="test-ruled9-odd")
    assert caught.value.reason.startswith("probe 'reasoning-history': no history rule")
    assert "three-answers: turns [3] of [1, 3, 5]" in caught.value.reason
    assert "test-ruled9-odd" not in {d.name for d in tooletta.list_dialects()}


# -- llama.cpp's DeepSeek-R1 template: the tools as one JSON list ----------------------------------


def test_r1_llama_cpp_tools_as_one_list_learned_leniently() -> None:
    with pytest.raises(LearnError) as caught:
        tooletta.learn(R1_LLAMA_CPP, name="test-r1-llama-cpp-strict")
    assert "sample reasoning_multi_turn" in caught.value.reason
    assert "lenient=True" in caught.value.reason
    learned = tooletta.learn(R1_LLAMA_CPP, name="test-r1-llama-cpp", lenient=True)
    tools_spec = learned.spec["chat"]["tools"]
    assert tools_spec["item"]["list"] is True and tools_spec["item"]["indent"] == 2
    assert all("sample reasoning_multi_turn" in d for d in learned.deviations)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Weather in Zürich?"},
        {"role": "assistant", "content": "", "tool_calls": [_call("c1", "get_weather", {})]},
        {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
        {"role": "assistant", "content": "Sunny."},
    ]
    want = render_template_file(R1_LLAMA_CPP, messages, tools=TOOLS, add_generation_prompt=True)
    assert '[\n  {\n    "name": "get_weather"' in want
    got = tooletta.render_conversation(
        messages, dialect=learned.name, tools=TOOLS, add_generation_prompt=True
    )
    assert got == want
    read = tooletta.parse_conversation(want, dialect=learned.name, tools=TOOLS)
    assert [(m.role, m.content) for m in read] == [(m["role"], m["content"]) for m in messages]


def test_r1_llama_cpp_refuses_text_beside_calls_it_would_drop() -> None:
    """The template drops the calls of a turn that has text: the learned format refuses
    such a turn rather than write it silently without them."""
    learned = tooletta.learn(R1_LLAMA_CPP, name="test-r1-llama-cpp", lenient=True)
    messages = [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": "Let me see.", "tool_calls": [_call("c1", "x", {})]},
    ]
    with pytest.raises(tooletta.ToolettaError):
        tooletta.render_conversation(messages, dialect=learned.name, tools=TOOLS)


def test_r1_llama_cpp_refuses_an_empty_answer_it_writes_otherwise() -> None:
    """llama.cpp's R1 template writes an answer with no text and no calls otherwise than its
    learned turn: the learned format refuses it (spec ``chat.empty_answer``, learn11) rather
    than write it silently otherwise."""
    learned = tooletta.learn(R1_LLAMA_CPP, name="test-r1-llama-cpp", lenient=True)
    assert learned.spec["chat"]["empty_answer"] is False
    messages = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": ""}]
    with pytest.raises(tooletta.RenderError, match="an answer with no text and no calls"):
        tooletta.render_conversation(messages, dialect=learned.name)
