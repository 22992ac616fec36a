"""identify and learn: the message and variable forms a template takes, DeepSeek's layouts.

A template that reads every content as a list of text parts (MiniMax-M1's) is probed in that
form, by identify and by learn; expected texts come from rendering the templates with jinja2
(``tooletta.chat.jinja``) in the form found.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings

import tooletta
from support import render_template_file, weather_tool
from tooletta import LearnError, Message, ToolCall
from tooletta.chat import identify, read_conversation
from tooletta.chat.jinja import load_chat_template, render_jinja, to_template_messages
from tooletta.chat.messages import read_tool_definitions
from tooletta.testing.samples import PROBE_TOOLS, random_conversations

pytest.importorskip("jinja2")

ROOT = Path(__file__).parent.parent
MINIMAX_M1 = ROOT / "plugins/tooletta-dialect-minimax/tests/templates/MiniMax-M1.jinja"


pytestmark = pytest.mark.usefixtures("forget_learned")
"""Formats learned here are forgotten after this module (``tests/conftest.py``)."""


PARTS = (
    "{% set sys = messages[0].role == 'system' %}"
    "{% if sys or tools %}<|s|>{% if sys %}{{ messages[0].content[0].text }}{% endif %}"
    "{% if tools %}\nTOOLS:{% for t in tools %}\n{{ t | tojson }}{% endfor %}{% endif %}"
    "<|end|>{% endif %}"
    "{% for m in messages %}"
    "{% if m.role == 'assistant' %}<|a|>{% for p in m.content %}{{ p.text }}{% endfor %}"
    "{% for c in m.tool_calls or [] %}[[CALL]]{{ {'name': c.function.name,"
    " 'arguments': c.function.arguments} | tojson }}[[/CALL]]{% endfor %}<|end|>"
    "{% elif m.role == 'tool' %}<|t|>{{ m.content[0].text }}<|end|>"
    "{% elif m.role == 'user' %}<|u|>{{ m.content[0].text }}<|end|>{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|a|>{% endif %}"
)
"""A template that reads text parts only: given text, it writes nothing for a message (it
iterates a string's characters, or indexes its first one); no plugin writes it."""

TOOLS = [weather_tool("Weather for a city.")]
CONVERSATION: list[dict[str, Any]] = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Weather in Zürich?"},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": {"city": "Zürich", "n": [1.5]}},
            }
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
    {"role": "assistant", "content": "Sunny."},
]


# -- content as a list of parts ---------------------------------------------------------------


def test_parts_are_given_with_the_result_name() -> None:
    """The parts form: one text part per text content; a tool result's part names its call
    (by id, else by place)."""
    call = ToolCall("get_weather", {"city": "Oslo"}, "c9")
    messages = [
        Message("user", "hi"),
        Message("assistant", "", tool_calls=[call, ToolCall("other", {}, None)]),
        Message("tool", "cold", tool_call_id="c9"),
        Message("tool", "done"),
        Message("assistant", "ok"),
    ]
    out = to_template_messages(messages, content_parts=True)
    assert out[0]["content"] == [{"type": "text", "text": "hi"}]
    assert out[2]["content"] == [{"type": "text", "text": "cold", "name": "get_weather"}]
    assert out[3]["content"] == [{"type": "text", "text": "done", "name": "other"}]
    assert to_template_messages(messages)[0]["content"] == "hi"


def test_minimax_m1_is_identified_in_the_parts_form() -> None:
    """MiniMax-M1's template raises on text content; probed with parts it is its plugin's
    format, a verified template whose only differences are the calls it drops."""
    ident = identify(MINIMAX_M1)
    assert ident.format == "minimax_m1" and ident.known
    assert ident.form.content_parts
    assert not ident.skipped
    assert {d.probe for d in ident.differences} >= {"one_call", "parallel_calls"}
    assert "plain" in ident.matched and "tools_prompt" in ident.matched


def test_minimax_m1_renders_through_its_template_as_the_jinja_in_parts() -> None:
    messages = [Message("system", "Be brief."), Message("user", "hi"), Message("assistant", "yo")]
    text = tooletta.render_conversation(messages, chat_template=str(MINIMAX_M1), tools=TOOLS)
    template = MINIMAX_M1.read_text(encoding="utf-8")
    assert text == render_jinja(template, messages, tools=TOOLS, content_parts=True)


def test_minimax_m1_learn_probes_parts_and_refuses_for_its_tool_turn() -> None:
    """learn gets past the text form (the template no longer raises on every probe); the
    tool declarations in a turn of their own are what it refuses."""
    with pytest.raises(LearnError) as caught:
        tooletta.learn(str(MINIMAX_M1), name="test-m1")
    assert "has no attribute" not in caught.value.reason
    assert "tool declarations" in caught.value.reason


def test_a_template_reading_parts_is_learned_in_that_form() -> None:
    learned = tooletta.learn(PARTS, name="test-parts")
    assert learned.spec["chat"]["content_parts"] is True
    assert learned.spec["calls"]["kind"] == "json"
    text = tooletta.render_conversation(CONVERSATION, dialect="test-parts", tools=TOOLS)
    messages = read_conversation(CONVERSATION)
    assert text == render_jinja(PARTS, messages, tools=TOOLS, content_parts=True)
    assert "Zürich?" in text and "sunny" in text
    read = tooletta.parse_conversation(text, dialect="test-parts")
    assert [m.content for m in read] == [m["content"] for m in CONVERSATION]


def test_a_template_reading_parts_is_identified_in_that_form() -> None:
    """The form identify reports is parts (the Jinja fallback of
    ``render_conversation(chat_template=...)`` feeds parts): no installed format writes it,
    a format learned from it does."""
    ident = identify(PARTS)
    assert ident.form.content_parts
    assert ident.format in (None, "test-parts")


def test_a_template_reading_text_keeps_the_text_form() -> None:
    template, _ = load_chat_template(str(ROOT / "tests/fixtures/templates/Reka-Edge.jinja"))
    assert not identify(template).form.content_parts
    learned = tooletta.learn(template, name="test-reka-forms")
    assert "content_parts" not in learned.spec["chat"]


# -- a filter giving a generator to tojson -----------------------------------------------------

GENERATOR = (
    "{% if tools %}{{ tools | map(attribute='function') | tojson(indent=2) }}\n{% endif %}"
    "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}<|end|>{% endfor %}"
)
"""What llama.cpp's ``llama-cpp-deepseek-r1.jinja`` does with the tools (its own template,
written for minja, where ``map`` gives a list)."""


def test_a_generator_given_to_tojson_is_rendered_as_llama_cpp_s_engine_does() -> None:
    """Broken under Hugging Face's semantics, the template renders with the renderer's
    fallback (:mod:`tooletta.chat.enginefallback`): learn reaches its tool declarations (one
    indented JSON list of the functions, which learn's vocabulary does not write)."""
    with pytest.raises(LearnError) as caught:
        tooletta.learn(GENERATOR, name="test-generator")
    assert "generator" not in caught.value.reason
    assert "tool declarations are not tojson" in caught.value.reason


def test_transformers_refuses_the_generator_too() -> None:
    """The refusal is transformers' behaviour, not ours: its ``tojson`` is ``json.dumps``."""
    utils = pytest.importorskip("transformers.utils.chat_template_utils")
    with pytest.raises(TypeError, match="generator"):
        utils.render_jinja_template(
            conversations=[[{"role": "user", "content": "hi"}]],
            tools=TOOLS,
            chat_template=GENERATOR,
        )


# -- the answer after tool results: another header, or none (DeepSeek) ------------------------

FIXTURES = Path(__file__).parent / "fixtures" / "templates"
V31 = str(FIXTURES / "deepseek-ai-DeepSeek-V3.1.jinja")  # llama.cpp's edit
R1_QWEN = str(FIXTURES / "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja")  # llama.cpp's edit
R1_LLAMA = str(FIXTURES / "deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja")

RESUMED = (
    "{% for m in messages %}"
    "{% if m.role == 'user' %}<|u|>{{ m.content }}<|end|>"
    "{% elif m.role == 'system' %}<|s|>{{ m.content }}<|end|>"
    "{% elif m.role == 'tool' %}<|t|>{{ m.content }}<|end|>"
    "{% elif m.role == 'assistant' %}"
    "{% if loop.index0 > 0 and messages[loop.index0 - 1].role == 'tool' %}<|resume|>"
    "{% else %}<|a|>{% endif %}{{ m.content }}"
    "{% for c in m.tool_calls or [] %}[[CALL]]{{ {'name': c.function.name,"
    " 'arguments': c.function.arguments} | tojson }}[[/CALL]]{% endfor %}<|end|>{% endif %}"
    "{% endfor %}"
    "{% if add_generation_prompt %}"
    "{% if messages[-1].role == 'tool' %}<|resume|>{% else %}<|a|>{% endif %}{% endif %}"
)
"""An answer after tool results opens with another header than the assistant's."""


@pytest.fixture(scope="module")
def v31() -> tooletta.chat.learn.Learned:
    return tooletta.learn(V31, name="test-v31-llamacpp")


def test_deepseek_v31_edit_is_learned_with_a_headerless_answer_after_results(v31: Any) -> None:
    """llama.cpp's DeepSeek V3.1: calls written by the installed ``deepseek_v31`` dialect,
    the answer after the results with no header (the model goes on in its turn), no
    generation prompt after results."""
    assert v31.dialect == "deepseek_v31"
    chat = v31.spec["chat"]
    assert chat["after_results"] == "" and chat["prompt_after_results"] == ""
    assert chat["turns"]["assistant"][0] == "<｜Assistant｜><think></think>"


@pytest.mark.parametrize("prompt", [False, True])
def test_deepseek_v31_edit_renders_and_reads_back(v31: Any, prompt: bool) -> None:
    messages = CONVERSATION if not prompt else CONVERSATION[:-1]
    text = tooletta.render_conversation(
        messages, dialect=v31.name, tools=TOOLS, add_generation_prompt=prompt
    )
    assert text == render_template_file(V31, messages, tools=TOOLS, add_generation_prompt=prompt)
    assert text.endswith(
        "<｜tool▁output▁end｜>" if prompt else "<｜tool▁output▁end｜>Sunny.<｜end▁of▁sentence｜>"
    )
    read = tooletta.parse_conversation(text, dialect=v31.name)
    assert [m.role for m in read] == [m["role"] for m in messages]
    assert read[-1].content == messages[-1]["content"]


def test_deepseek_v31_edit_thinking_switch_changes_the_prompt_only(v31: Any) -> None:
    messages = CONVERSATION[:2]
    for value in (True, False):
        text = tooletta.render_conversation(
            messages, dialect=v31.name, add_generation_prompt=True, thinking=value
        )
        assert text == render_template_file(
            V31, messages, add_generation_prompt=True, thinking=value
        )


def test_another_header_after_results_is_learned() -> None:
    learned = tooletta.learn(RESUMED, name="test-resumed")
    assert learned.spec["chat"]["after_results"] == "<|resume|>"
    assert learned.spec["chat"]["prompt_after_results"] == "<|resume|>"
    for prompt in (False, True):
        messages = CONVERSATION[1:] if not prompt else CONVERSATION[1:-1]
        text = tooletta.render_conversation(
            messages, dialect="test-resumed", tools=TOOLS, add_generation_prompt=prompt
        )
        assert text == render_jinja(
            RESUMED, read_conversation(messages), tools=TOOLS, add_generation_prompt=prompt
        )
    read = tooletta.parse_conversation(text, dialect="test-resumed")
    assert [m.role for m in read] == ["user", "assistant", "tool"]
    full = tooletta.render_conversation(CONVERSATION[1:], dialect="test-resumed", tools=TOOLS)
    read = tooletta.parse_conversation(full, dialect="test-resumed")
    assert [m.content for m in read][-1] == "Sunny."


def test_deepseek_r1_distill_llama_edit_is_refused_with_the_reason() -> None:
    """llama.cpp's copy of the R1 distills' template (reformatted) closes a turn with calls
    only after a second call: a bug no format reproduces (``identify`` knows the text by
    digest as ``deepseek_r1``, which writes what a correct template would)."""
    with pytest.raises(LearnError) as caught:
        tooletta.learn(R1_LLAMA, name="test-r1-llama")
    assert caught.value.probe == "call"
    assert "only after a second call" in caught.value.reason


def test_deepseek_r1_distill_qwen_edit_is_learned_without_text_beside_calls() -> None:
    """llama.cpp's edit of DeepSeek-R1-Distill-Qwen-32B writes an answer's text beside calls
    as another assistant turn after them: learned without it (refused at render), the answer
    after results headerless; its flag for the first call never resets, so a second round of
    calls loses its opening: a sample conversation, refused strictly, a deviation leniently."""
    with pytest.raises(LearnError) as caught:
        tooletta.learn(R1_QWEN, name="test-r1-qwen")
    assert "lenient=True" in caught.value.reason
    learned = tooletta.learn(R1_QWEN, name="test-r1-qwen", lenient=True)
    chat = learned.spec["chat"]
    assert chat["content_beside_calls"] is False and chat["after_results"] == ""
    assert learned.dialect in ("deepseek_r1", "deepseek_v3")
    assert all("sample reasoning_multi_turn" in d for d in learned.deviations)
    messages = [
        {**m, "content": None} if m.get("tool_calls") else m for m in CONVERSATION
    ]  # the template writes a call-only turn's calls for content None
    for prompt in (False, True):
        convo = messages if not prompt else messages[:-1]
        text = tooletta.render_conversation(
            convo, dialect=learned.name, tools=TOOLS, add_generation_prompt=prompt
        )
        assert text == render_template_file(
            R1_QWEN, convo, tools=TOOLS, add_generation_prompt=prompt
        )
        read = tooletta.parse_conversation(text, dialect=learned.name)
        assert [m.role for m in read] == [m["role"] for m in convo]
    beside = [CONVERSATION[1], {**CONVERSATION[2], "content": "Let me look."}]
    with pytest.raises(tooletta.RenderError, match="no text beside calls"):
        tooletta.render_conversation(beside, dialect=learned.name, tools=TOOLS)


# -- variables the model's tooling passes (FireFunction v2's functions and datetime) ----------

FIREFUNCTION = (
    ROOT / "plugins/tooletta-dialect-phi/tests/templates/fireworks-ai-llama-3-firefunction-v2.jinja"
)


def test_tooling_variables_are_filled_only_when_read_and_not_given() -> None:
    from tooletta.chat.variables import tooling_variables

    template = "{{ functions }}|{{ datetime }}"
    pinned = {"strftime_now": lambda fmt: "Jan 01 2026 00:00:00 GMT"}
    filled = tooling_variables(template, TOOLS, pinned)
    assert filled["datetime"] == "Jan 01 2026 00:00:00 GMT"
    assert filled["functions"].startswith('[\n  {\n    "type": "function"')
    assert tooling_variables(template, None, pinned)["functions"] == ""
    given = tooling_variables(template, TOOLS, {**pinned, "functions": "mine"})
    assert "functions" not in given
    assert tooling_variables("{% set functions = 1 %}{{ functions }}", TOOLS, {}) == {}
    assert tooling_variables("{{ messages }}", TOOLS, {}) == {}


def test_tooling_variables_are_filled_only_where_the_template_raises_without() -> None:
    """A template that can do without the variable renders as transformers renders it."""
    optional = "{% if functions is defined %}F{% else %}none{% endif %}"
    assert render_jinja(optional, [Message("user", "hi")], tools=TOOLS) == "none"
    needed = "{{ 'Tools: ' + functions + '|' + datetime }}"
    text = render_jinja(
        needed, [Message("user", "hi")], strftime_now=lambda fmt: "Jan 01 2026 00:00:00 GMT"
    )
    assert text == "Tools: |Jan 01 2026 00:00:00 GMT"
    assert render_jinja(needed, [Message("user", "hi")], functions="F", datetime="D") == (
        "Tools: F|D"
    )
    with pytest.raises(tooletta.RenderError, match="'other' is undefined"):
        render_jinja("{{ 'x' + other }}", [Message("user", "hi")])


def test_firefunction_is_identified_with_its_variables_given() -> None:
    """The template reads ``functions`` and ``datetime`` (and raises without them): given as
    llama.cpp passed them, it is the phi plugin's ``firefunction_v2`` on every probe."""
    ident = identify(FIREFUNCTION)
    assert ident.format == "firefunction_v2" and ident.known
    assert not ident.skipped and not ident.differences
    assert {"one_call", "parallel_calls", "tools_prompt"} <= set(ident.matched)


def test_firefunction_renders_through_its_template() -> None:
    from datetime import datetime

    from tooletta.chat import clock

    messages = read_conversation(CONVERSATION)
    with clock.frozen(datetime(2026, 3, 5, 10, 0, 0)):
        text = tooletta.render_conversation(messages, chat_template=str(FIREFUNCTION), tools=TOOLS)
        expected = render_jinja(
            FIREFUNCTION.read_text(encoding="utf-8"),
            messages,
            tools=TOOLS,
            functions=json.dumps(TOOLS, ensure_ascii=False, indent=2),
            datetime="Mar 05 2026 10:00:00 GMT",
        )
    assert text == expected
    assert "Today is Mar 05 2026 10:00:00 GMT." in text


# -- properties: any conversation renders as the template and reads back ---------------------


def _law(learned: Any, template: str, messages: list[Message], **jinja: Any) -> None:
    tools = read_tool_definitions(PROBE_TOOLS)
    text, tokens = load_chat_template(template)
    want = render_jinja(text, messages, tools=tools, tokens=tokens, **jinja)
    assert tooletta.render_conversation(messages, dialect=learned.name, tools=tools) == want
    read = tooletta.parse_conversation(want, dialect=learned.name, tools=tools)
    expected = learned.format.expressible(messages)
    assert [(m.role, m.content, m.tool_calls) for m in read] == [
        (m.role, m.content, [ToolCall(c.name, c.arguments) for c in m.tool_calls]) for m in expected
    ]


@settings(max_examples=30, deadline=None)
@given(messages=random_conversations(trimmed=True))
def test_random_conversations_with_the_deepseek_v31_edit(v31: Any, messages: list[Message]) -> None:
    """Beyond the probes: calls, results and the headerless answers after them, as the
    template writes them, read back."""
    _law(v31, V31, messages)


@settings(max_examples=30, deadline=None)
@given(messages=random_conversations(trimmed=True))
def test_random_conversations_with_a_parts_template(messages: list[Message]) -> None:
    learned = tooletta.learn(PARTS, name="test-parts")
    _law(learned, PARTS, messages, content_parts=True)
