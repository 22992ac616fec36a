"""tooletta.learn on template layouts beyond one system turn and plain strips: the tool
declarations in a turn of their own, results that write an id, calls whose ids the template
writes itself (Kimi K2); answers stripped by their position and cut at ``</think>`` (QwQ,
Reka Edge); turns that end with plain text a message may hold (RWKV World); an empty system
message written as none or as another text.

Expected texts come from rendering the real templates (tests/fixtures/templates, see its
SOURCES.md) with jinja2 (``tooletta.chat.jinja``); the learned formats render and parse
without Jinja.
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
from tooletta import Message, RenderError, ToolCall
from tooletta.chat import read_conversation
from tooletta.chat.jinja import load_chat_template, render_jinja
from tooletta.chat.messages import read_tool_definitions
from tooletta.testing.samples import PROBE_TOOLS, random_conversations

pytest.importorskip("jinja2")


pytestmark = pytest.mark.usefixtures("forget_learned")
"""Formats learned here are forgotten after this module (``tests/conftest.py``)."""


KIMI_K2 = str(TEMPLATES / "moonshotai-Kimi-K2.jinja")
KIMI_K2_THINKING = str(TEMPLATES / "Kimi-K2-Thinking.jinja")

TOOLS = [weather_tool("Weather of a city.")]


def _call(call_id: str, city: str) -> dict[str, Any]:
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": "get_weather", "arguments": {"city": city}},
    }


CONVERSATION: list[dict[str, Any]] = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Weather in Zürich and Bern?"},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [_call("c1", "Zürich"), _call("c2", "Bern")],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
    {"role": "tool", "tool_call_id": "c2", "content": "rain"},
    {"role": "assistant", "content": "Sunny, then rain."},
    {"role": "user", "content": "And Paris?"},
    {"role": "assistant", "content": "Checking.", "tool_calls": [_call("c3", "Paris")]},
    {"role": "tool", "tool_call_id": "c3", "content": "mild"},
]


@pytest.fixture(scope="module")
def kimi() -> tooletta.chat.learn.Learned:
    return tooletta.learn(KIMI_K2, name="test-kimi-k2")


def test_kimi_k2_declarations_in_their_own_turn_are_learned(kimi: Any) -> None:
    """Kimi K2 (July 2025) declares the tools in a ``tool_declare`` turn before the system
    turn, writes the calls with the ids it numbers itself, and each result with the id its
    message gives (``## Return of ID`` and a literal backslash-n)."""
    chat, calls = kimi.spec["chat"], kimi.spec["calls"]
    assert chat["tools"]["own_turn"] == "start"
    assert chat["tools"]["head"] == "<|im_system|>tool_declare<|im_middle|>["
    assert chat["tools"]["tail"] == "]<|im_end|>"
    assert chat["default_system"] == "You are a helpful assistant"
    assert (calls["kind"], calls["dialect"], calls["written_ids"]) == ("installed", "kimi_k2", True)
    assert chat["turns"]["tool"] == ["<|im_system|>tool<|im_middle|>", "<|im_end|>"]
    assert chat["results"]["wrap"] == ["## Return of ", ""]
    assert chat["results"]["id"] == {"source": "message", "after": "\\n"}


@pytest.mark.parametrize("prompt", [False, True])
@pytest.mark.parametrize("tools", [None, TOOLS])
@pytest.mark.parametrize("start", [0, 1])
def test_kimi_k2_renders_as_its_template(kimi: Any, prompt: bool, tools: Any, start: int) -> None:
    """With and without tools, a system message (else the default one) and a prompt."""
    messages = CONVERSATION[start:]
    got = tooletta.render_conversation(
        messages, dialect=kimi.name, tools=tools, add_generation_prompt=prompt
    )
    assert got == render_template_file(KIMI_K2, messages, tools=tools, add_generation_prompt=prompt)


def test_kimi_k2_reads_its_template_back(kimi: Any) -> None:
    """The calls carry the ids the template wrote (numbered per turn), the results the ids
    of the calls they answer; the system message and the texts as given."""
    read = tooletta.parse_conversation(
        render_template_file(KIMI_K2, CONVERSATION, tools=TOOLS), dialect=kimi.name
    )
    assert [m.role for m in read] == [m["role"] for m in CONVERSATION]
    assert read[0].content == "Be brief."
    assert [c.id for c in read[2].tool_calls] == [
        "functions.get_weather:0",
        "functions.get_weather:1",
    ]
    assert read[2].tool_calls[1].arguments == {"city": "Bern"}
    assert [read[3].tool_call_id, read[4].tool_call_id] == [c.id for c in read[2].tool_calls]
    assert (read[4].content, read[8].content) == ("rain", "mild")
    assert read[7].tool_calls == [
        ToolCall("get_weather", {"city": "Paris"}, "functions.get_weather:0")
    ]
    assert read[7].content == "Checking."


def test_kimi_k2_default_system_turn_reads_back_as_no_message(kimi: Any) -> None:
    text = render_template_file(KIMI_K2, CONVERSATION[1:2], tools=TOOLS, add_generation_prompt=True)
    assert text.startswith("<|im_system|>tool_declare<|im_middle|>")
    read = tooletta.parse_conversation(text, dialect=kimi.name)
    assert [(m.role, m.content) for m in read] == [("user", "Weather in Zürich and Bern?")]


def test_kimi_k2_result_id_that_would_end_early_is_refused(kimi: Any) -> None:
    """The id is ended by the text after it (a literal backslash-n): an id holding it would
    read back cut there, so it is refused."""
    messages = [*CONVERSATION[:3], {**CONVERSATION[3], "tool_call_id": "a\\nb"}]
    with pytest.raises(RenderError, match="ends the id"):
        tooletta.render_conversation(messages, dialect=kimi.name, tools=TOOLS)


@settings(max_examples=30, deadline=None)
@given(messages=random_conversations(trimmed=True))
def test_kimi_k2_random_conversations(kimi: Any, messages: list[Message]) -> None:
    """Any conversation renders as the template does and reads back to what its text
    carries (the calls with the ids the template writes)."""
    tools = read_tool_definitions(PROBE_TOOLS)
    want = render_template_file(KIMI_K2, messages, tools=tools)
    assert tooletta.render_conversation(messages, dialect=kimi.name, tools=tools) == want
    read = tooletta.parse_conversation(want, dialect=kimi.name, tools=tools)
    expected = kimi.format.expressible(messages)
    assert [(m.role, m.content, m.tool_calls) for m in read] == [
        (m.role, m.content, m.tool_calls) for m in expected
    ]


def test_kimi_k2_thinking_copy_is_learned() -> None:
    """llama.cpp's copy of K2-Thinking appends to a list, which Hugging Face's immutable
    sandbox refuses; the renderer's fallback renders it as llama.cpp's engine does, and
    learn learns its reasoning history (kept only after the first plain answer:
    ``after_first_answer``; tests/test_learn_history9.py has the rest)."""
    learned = tooletta.learn(KIMI_K2_THINKING, name="test-kimi-k2-thinking")
    assert learned.spec["chat"]["reasoning"]["keep"] == "after_first_answer"
    assert "test-kimi-k2-thinking" in {d.name for d in tooletta.list_dialects()}


# -- QwQ: answers rewritten by their position ----------------------------------------------

QWQ = str(TEMPLATES / "Qwen-QwQ-32B.jinja")
QWQ_OWN = str(
    Path(__file__).parent.parent
    / "plugins/tooletta-dialect-hermes/tests/templates/Qwen-QwQ-32B.jinja"
)

THOUGHTS: list[dict[str, Any]] = [
    {"role": "user", "content": "Weather in Zürich?"},
    {
        "role": "assistant",
        "content": "Let me look.</think>\n\n",
        "tool_calls": [_call("c1", "Zürich")],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
    {"role": "assistant", "content": "It is sunny.</think>\n\n Sunny. \n"},
    {"role": "user", "content": "Thanks"},
    {"role": "assistant", "content": "\n welcome</think>\n You are welcome. \n"},
]


@pytest.fixture(scope="module")
def qwq() -> tooletta.chat.learn.Learned:
    return tooletta.learn(QWQ, name="test-qwq")


def test_qwq_position_rules_are_learned(qwq: Any) -> None:
    """QwQ writes every answer but the last message cut after its ``</think>`` and with its
    leading newlines stripped; the last message as given."""
    chat = qwq.spec["chat"]
    assert chat["history_strip"] == {"where": "not_last", "strip": ["\n", ""]}
    assert chat["content_cut"] == {
        "marker": "</think>",
        "where": "not_last",
        "which": "last",
        "strip": ["\n", ""],
        "lead": True,
        "spared": [],
    }
    assert chat["content_strip"] == {"block": ["", ""], "plain": ["", ""]}
    assert qwq.spec["calls"]["dialect"] == "hermes"
    assert [opts for opts, _ in chat["prompts"]] == [{}, {"enable_thinking": True}]


@pytest.mark.parametrize("end", [2, 4, 5, 6])
@pytest.mark.parametrize("prompt", [False, True])
def test_qwq_renders_as_its_template(qwq: Any, end: int, prompt: bool) -> None:
    """Each answer as the last message and as an earlier one; a call turn whose text is
    all cut still writes the newline of a turn with text."""
    messages = THOUGHTS[:end]
    got = tooletta.render_conversation(
        messages, dialect=qwq.name, tools=TOOLS, add_generation_prompt=prompt
    )
    assert got == render_template_file(QWQ, messages, tools=TOOLS, add_generation_prompt=prompt)


def test_qwq_reads_back_what_its_text_carries(qwq: Any) -> None:
    read = tooletta.parse_conversation(
        render_template_file(QWQ, THOUGHTS, tools=TOOLS), dialect=qwq.name
    )
    assert [m.content for m in read] == [
        "Weather in Zürich?",
        "",
        "sunny",
        " Sunny. \n",
        "Thanks",
        "\n welcome</think>\n You are welcome. \n",
    ]
    assert read[1].tool_calls == [ToolCall("get_weather", {"city": "Zürich"})]
    assert [(m.role, m.content) for m in read] == [
        (m.role, m.content) for m in qwq.format.expressible(read_conversation(THOUGHTS))
    ]


def test_qwq_model_revision_learns_too() -> None:
    """The model's own template (without llama.cpp's ``enable_thinking`` line): the same
    rules, one generation prompt."""
    learned = tooletta.learn(QWQ_OWN, name="test-qwq-own")
    assert learned.spec["chat"]["history_strip"] == {"where": "not_last", "strip": ["\n", ""]}
    assert [opts for opts, _ in learned.spec["chat"]["prompts"]] == [{}]


@settings(max_examples=30, deadline=None)
@given(messages=random_conversations(trimmed=True))
def test_qwq_random_conversations(qwq: Any, messages: list[Message]) -> None:
    tools = read_tool_definitions(PROBE_TOOLS)
    want = render_template_file(QWQ, messages, tools=tools)
    assert tooletta.render_conversation(messages, dialect=qwq.name, tools=tools) == want
    read = tooletta.parse_conversation(want, dialect=qwq.name, tools=tools)
    expected = qwq.format.expressible(messages)
    assert [(m.role, m.content, m.tool_calls) for m in read] == [
        (m.role, m.content, [ToolCall(c.name, c.arguments) for c in m.tool_calls]) for m in expected
    ]


BEFORE_LAST_USER = (
    "{% set ns = namespace(last=-1) %}"
    "{% for m in messages %}{% if m.role == 'user' %}{% set ns.last = loop.index0 %}{% endif %}"
    "{% endfor %}"
    "{% for m in messages %}"
    "{% if m.role == 'user' %}<|u|>{{ m.content }}<|end|>"
    "{% elif m.role == 'system' %}<|s|>{{ m.content }}<|end|>"
    "{% elif m.role == 'assistant' %}{% set c = m.content %}"
    "{% if loop.index0 < ns.last %}{% set c = c.split('</think>')[-1].strip() %}{% endif %}"
    "<|a|>{{ c }}<|end|>{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|a|>{% endif %}"
)


def test_rules_before_the_last_user_message_are_learned() -> None:
    """A made-up template (the class, not a model): answers before the last user message cut
    at ``</think>`` and stripped; those after it as given."""
    learned = tooletta.learn(BEFORE_LAST_USER, name="test-before-last-user")
    chat = learned.spec["chat"]
    assert chat["history_strip"] == {"where": "before_last_user", "strip": [None, None]}
    assert chat["content_cut"] == {
        "marker": "</think>",
        "where": "before_last_user",
        "which": "last",
        "strip": [None, None],
    }
    messages = [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": "x</think> b "},
        {"role": "user", "content": "c"},
        {"role": "assistant", "content": "y</think> d "},
        {"role": "assistant", "content": " e "},
    ]
    text = tooletta.render_conversation(messages, dialect=learned.name)
    assert text == render_jinja(BEFORE_LAST_USER, read_conversation(messages))
    assert "<|a|>b<|end|>" in text and "<|a|>y</think> d <|end|>" in text


def test_reka_edge_cuts_every_answer_at_its_first_tag() -> None:
    """Reka Edge keeps what follows an answer's first ``</think>`` (newlines stripped) in
    every answer, and writes a call turn whose text is all cut as a call-only turn."""
    reka = str(TEMPLATES / "Reka-Edge.jinja")
    learned = tooletta.learn(reka, name="test-reka-cut")
    assert learned.spec["chat"]["content_cut"] == {
        "marker": "</think>",
        "where": "all",
        "which": "first",
        "strip": ["\n", ""],
        "lead": False,
        "spared": [],
    }
    messages = [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": "hm</think>\n\n", "tool_calls": [_call("c1", "Bern")]},
        {"role": "tool", "tool_call_id": "c1", "content": "rain"},
        {"role": "assistant", "content": "a</think>\nb</think>\n c"},
    ]
    text = tooletta.render_conversation(messages, dialect=learned.name, tools=TOOLS)
    assert text == render_template_file(reka, messages, tools=TOOLS)
    assert tooletta.parse_conversation(text, dialect=learned.name)[3].content == "b</think>\n c"


def _spared_template(condition: str) -> str:
    """A made-up template (the class, not a model) that cuts an answer at its first
    ``</think>`` only where ``condition`` holds (DeepSeek V3.1's edit: not in a turn with
    calls, nor in an answer right after tool results)."""
    return (
        "{% if tools %}<|s|>TOOLS:{% for t in tools %}\n{{ t | tojson }}{% endfor %}<|end|>"
        "{% endif %}{% for m in messages %}"
        "{% if m.role == 'user' %}<|u|>{{ m.content }}<|end|>"
        "{% elif m.role == 'system' %}<|s|>{{ m.content }}<|end|>"
        "{% elif m.role == 'tool' %}<|t|>{{ m.content }}<|end|>"
        "{% elif m.role == 'assistant' %}{% set c = m.content %}"
        "{% set after = loop.index0 > 0 and messages[loop.index0 - 1].role == 'tool' %}"
        "{% if (" + condition + ") and '</think>' in c %}"
        "{% set c = c.split('</think>', 1)[1] %}{% endif %}"
        "<|a|>{{ c }}{% for t in m.tool_calls or [] %}<call>{{ {'name': t.function.name,"
        " 'arguments': t.function.arguments} | tojson }}</call>{% endfor %}<|end|>"
        "{% endif %}{% endfor %}{% if add_generation_prompt %}<|a|>{% endif %}"
    )


@pytest.mark.parametrize(
    ("condition", "spared"),
    [
        ("true", []),
        ("not m.tool_calls", ["calls"]),
        ("not after", ["after_results"]),
        ("not m.tool_calls and not after", ["calls", "after_results"]),
    ],
)
def test_answers_the_cut_spares_are_learned(condition: str, spared: list[str]) -> None:
    """Which kinds of answer a cut leaves as given (a turn with calls, an answer right after
    tool results) is probed in the history, and each is written and read as the template."""
    template = _spared_template(condition)
    name = "test-spared-" + "-".join(spared or ["none"])
    learned = tooletta.learn(template, name=name)
    cut = learned.spec["chat"]["content_cut"]
    assert (cut["where"], cut["which"], cut["spared"]) == ("all", "first", spared)
    messages = [
        {"role": "user", "content": "Weather?"},
        {"role": "assistant", "content": "hm</think>x", "tool_calls": [_call("c1", "Bern")]},
        {"role": "tool", "tool_call_id": "c1", "content": "rain"},
        {"role": "assistant", "content": "so</think>Rain."},
        {"role": "user", "content": "Thanks"},
        {"role": "assistant", "content": "ok</think>You are welcome."},
    ]
    text = tooletta.render_conversation(messages, dialect=name, tools=TOOLS)
    assert text == render_jinja(template, read_conversation(messages), tools=TOOLS)
    read = tooletta.parse_conversation(text, dialect=name)
    assert [m.content for m in read] == [
        m.content for m in learned.format.expressible(read_conversation(messages))
    ]
    assert read[5].content == "You are welcome."
    assert (read[1].content == "hm</think>x") == ("calls" in spared)
    assert (read[3].content == "so</think>Rain.") == ("after_results" in spared)


# -- RWKV World: plain-text role headers, turns ending with a blank line --------------------

RWKV = str(TEMPLATES / "llama-cpp-rwkv-world.jinja")


@pytest.fixture(scope="module")
def rwkv() -> tooletta.chat.learn.Learned:
    return tooletta.learn(RWKV, name="test-rwkv-world")


def test_rwkv_world_is_learned_with_plain_footers(rwkv: Any) -> None:
    """``User: ...\\n\\nAssistant: ...\\n\\n``: the blank line that ends a turn may stand in
    a message too, so a turn ends only where the next turn (or the prompt, or the end)
    follows it; texts trimmed, answers cut after their last ``</think>``."""
    chat = rwkv.spec["chat"]
    assert rwkv.dialect is None
    assert chat["plain_footers"] is True
    assert chat["turns"]["user"] == ["User: ", "\n\n"]
    assert chat["content_cut"] == {
        "marker": "</think>",
        "where": "all",
        "which": "last",
        "strip": [None, None],
    }
    assert [text for _, text in chat["prompts"]] == [
        "Assistant:",
        "Assistant: <think>",
        "Assistant: <think>\n</think>",
    ]


PARAGRAPHS: list[dict[str, Any]] = [
    {"role": "system", "content": "Be brief.\n\nAnswer in English."},
    {"role": "user", "content": " First paragraph.\n\nSecond one. "},
    {"role": "assistant", "content": "Hm.</think>\n\nOne.\n\n\nTwo.\n"},
    {"role": "user", "content": "More?"},
]


@pytest.mark.parametrize("prompt", [False, True])
@pytest.mark.parametrize("thinking", [None, True, False])
def test_rwkv_world_blank_lines_in_messages(rwkv: Any, prompt: bool, thinking: Any) -> None:
    options = {} if thinking is None else {"enable_thinking": thinking}
    text = tooletta.render_conversation(
        PARAGRAPHS, dialect=rwkv.name, add_generation_prompt=prompt, **options
    )
    assert text == render_template_file(RWKV, PARAGRAPHS, add_generation_prompt=prompt, **options)
    read = tooletta.parse_conversation(text, dialect=rwkv.name)
    assert [(m.role, m.content) for m in read] == [
        ("system", "Be brief.\n\nAnswer in English."),
        ("user", "First paragraph.\n\nSecond one."),
        ("assistant", "One.\n\n\nTwo."),
        ("user", "More?"),
    ]


def test_rwkv_world_refuses_a_later_system_message(rwkv: Any) -> None:
    """The template writes only the last system message, at the start: a later one would
    move, so the learned format refuses it."""
    late = [*PARAGRAPHS, {"role": "system", "content": "late"}]
    with pytest.raises(RenderError, match="no system message after the first"):
        tooletta.render_conversation(late, dialect=rwkv.name)


@settings(max_examples=30, deadline=None)
@given(messages=random_conversations(trimmed=True))
def test_rwkv_world_random_conversations(rwkv: Any, messages: list[Message]) -> None:
    """Conversations without calls (the template writes none), with a first system message
    or not, render as the template does and read back to what its text carries."""
    messages = [
        m
        for index, m in enumerate(messages)
        if (m.role in ("user", "assistant") or (m.role == "system" and index == 0))
        and not m.tool_calls
    ]
    if not messages:
        return
    want = render_template_file(RWKV, messages)
    assert tooletta.render_conversation(messages, dialect=rwkv.name) == want
    read = tooletta.parse_conversation(want, dialect=rwkv.name)
    expected = rwkv.format.expressible(messages)
    assert [(m.role, m.content) for m in read] == [(m.role, m.content) for m in expected]


@pytest.mark.parametrize("which", ["kimi", "qwq", "rwkv"])
def test_saved_specs_load_and_render_alike(
    which: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The new declarations are plain JSON: a saved spec, loaded without Jinja, writes and
    reads the same text."""
    learned = request.getfixturevalue(which)
    path = tmp_path / "spec.json"
    learned.save(path)
    spec = json.loads(path.read_text(encoding="utf-8"))
    spec["name"] = f"{learned.name}-loaded"
    path.write_text(json.dumps(spec), encoding="utf-8")
    loaded = tooletta.load_learned(path)
    messages = CONVERSATION if which != "rwkv" else PARAGRAPHS
    tools = TOOLS if which != "rwkv" else None
    text = tooletta.render_conversation(messages, dialect=learned.name, tools=tools)
    assert tooletta.render_conversation(messages, dialect=loaded.name, tools=tools) == text
    assert tooletta.parse_conversation(text, dialect=loaded.name) == tooletta.parse_conversation(
        text, dialect=learned.name
    )


# -- a result writing the id written for the call it answers (a made-up template) ----------

CALL_IDS = (
    "{%- set ns = namespace(calls=[], k=0) -%}"
    "{%- if tools -%}"
    "<|im_system|>tool_declare<|im_middle|>{{ tools | tojson }}<|im_end|>"
    "{%- endif -%}"
    "{%- for m in messages -%}"
    "{%- if m.role == 'system' -%}<|im_system|>system<|im_middle|>{{ m.content }}<|im_end|>"
    "{%- elif m.role == 'user' -%}<|im_user|>user<|im_middle|>{{ m.content }}<|im_end|>"
    "{%- elif m.role == 'assistant' -%}"
    "<|im_assistant|>assistant<|im_middle|>{{ m.content or '' }}"
    "{%- if m.tool_calls -%}<|tool_calls_section_begin|>"
    "{%- for c in m.tool_calls -%}"
    "<|tool_call_begin|>functions.{{ c.function.name }}:{{ loop.index0 }}"
    "<|tool_call_argument_begin|>{{ c.function.arguments | tojson }}<|tool_call_end|>"
    "{%- endfor -%}"
    "<|tool_calls_section_end|>{%- endif -%}<|im_end|>"
    "{%- set ns.calls = m.tool_calls or [] -%}{%- set ns.k = 0 -%}"
    "{%- elif m.role == 'tool' -%}<|im_system|>tool<|im_middle|>## Return of "
    "{% if ns.k < ns.calls | length %}"
    "functions.{{ ns.calls[ns.k].function.name }}:{{ ns.k }}"
    "{% endif %}{{ '\\n' }}{{ m.content }}<|im_end|>"
    "{%- set ns.k = ns.k + 1 -%}"
    "{%- endif -%}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}<|im_assistant|>assistant<|im_middle|>{%- endif -%}"
)
"""Kimi's layout, except that a result's ``## Return of`` names the id the template wrote for
the call it answers (by position), not the result's own ``tool_call_id``: the class, not a
model."""


def test_a_result_writing_its_calls_written_id_is_learned() -> None:
    learned = tooletta.learn(CALL_IDS, name="test-call-ids")
    assert learned.spec["chat"]["results"]["id"] == {"source": "call", "after": "\n"}
    messages = [*CONVERSATION[:5], {**CONVERSATION[5], "content": "Both."}]
    messages[4] = {**messages[4], "tool_call_id": "unknown"}  # paired by position anyway
    text = tooletta.render_conversation(messages, dialect=learned.name, tools=TOOLS)
    assert text == render_jinja(CALL_IDS, read_conversation(messages), tools=TOOLS)
    assert "## Return of functions.get_weather:1\nrain" in text
    read = tooletta.parse_conversation(text, dialect=learned.name)
    assert [m.tool_call_id for m in read[3:5]] == [c.id for c in read[2].tool_calls]


# -- an empty system message ------------------------------------------------------------------


def test_an_empty_system_message_written_as_none(rwkv: Any) -> None:
    """RWKV World writes the system turn only for a text ``!= ''``: the learned format too,
    and the text carries no system message."""
    assert rwkv.spec["chat"]["empty_system"] is True
    messages = [{"role": "system", "content": ""}, *PARAGRAPHS[1:]]
    text = tooletta.render_conversation(messages, dialect=rwkv.name)
    assert text == render_template_file(RWKV, messages)
    assert [m.role for m in tooletta.parse_conversation(text, dialect=rwkv.name)] == [
        "user",
        "assistant",
        "user",
    ]


FALLBACK = (
    "{% for m in messages %}"
    "{% if m.role == 'system' %}<|s|>{{ m.content or 'Be helpful.' }}<|end|>"
    "{% elif m.role == 'user' %}<|u|>{{ m.content }}<|end|>"
    "{% elif m.role == 'assistant' %}<|a|>{{ m.content }}<|end|>{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|a|>{% endif %}"
)


def test_an_empty_system_message_written_as_another_text() -> None:
    """A made-up template that writes a fallback text for an empty system message."""
    learned = tooletta.learn(FALLBACK, name="test-fallback")
    assert learned.spec["chat"]["empty_system"] == "Be helpful."
    messages = [{"role": "system", "content": ""}, {"role": "user", "content": "hi"}]
    text = tooletta.render_conversation(messages, dialect=learned.name)
    assert text == render_jinja(FALLBACK, read_conversation(messages))
    read = tooletta.parse_conversation(text, dialect=learned.name)
    assert [(m.role, m.content) for m in read] == [("system", "Be helpful."), ("user", "hi")]
    assert read == learned.format.expressible(read_conversation(messages))


_PARAGRAPH = st.text(alphabet="ab \n", min_size=0, max_size=12)


@settings(max_examples=60, deadline=None)
@given(
    system_text=st.one_of(st.none(), _PARAGRAPH),
    texts=st.lists(_PARAGRAPH, min_size=1, max_size=5),
    prompt=st.booleans(),
)
def test_rwkv_world_texts_with_blank_lines(
    rwkv: Any, system_text: str | None, texts: list[str], prompt: bool
) -> None:
    """Texts of blank lines, spaces and words in every role: rendered as the template does
    and read back to what the text carries (a turn ends where the next one starts)."""
    messages = [Message("system", system_text)] if system_text is not None else []
    messages += [Message(("user", "assistant")[i % 2], t) for i, t in enumerate(texts)]
    want = render_template_file(RWKV, messages, add_generation_prompt=prompt)
    got = tooletta.render_conversation(messages, dialect=rwkv.name, add_generation_prompt=prompt)
    assert got == want
    read = tooletta.parse_conversation(want, dialect=rwkv.name)
    expected = rwkv.format.expressible(messages)
    assert [(m.role, m.content) for m in read] == [(m.role, m.content) for m in expected]


def test_a_template_writing_names_in_headers_is_learned_with_the_names() -> None:
    """Kimi K2's later templates write a message's ``name`` in its header (the role when it
    has none): learned as a header naming the message (``chat["names"]``), not as if no name
    were written."""
    template = load_chat_template(KIMI_K2)[0].replace(
        "<|im_user|>user<|im_middle|>",
        "<|im_user|>{{ message.get('name') or 'user' }}<|im_middle|>",
    )
    learned = tooletta.learn(template, name="test-named")
    assert learned.spec["chat"]["names"] == {"user": ["<|im_user|>", "<|im_middle|>", "user"]}
    messages = [
        {"role": "user", "content": "Hi", "name": "ada"},
        {"role": "assistant", "content": "Hello."},
    ]
    want = render_jinja(template, read_conversation(messages))
    assert "<|im_user|>ada<|im_middle|>Hi" in want
    assert tooletta.render_conversation(messages, dialect="test-named") == want
