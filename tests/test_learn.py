"""tooletta.learn: chat templates no plugin covers, learned by probing and verified in a loop.

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
from tooletta import LearnError, Message, RenderError, ToolCall, ToolettaError
from tooletta.chat import read_conversation
from tooletta.chat.jinja import load_chat_template, render_jinja
from tooletta.chat.learn.chatspec import SPEC_VERSION
from tooletta.chat.learn.probes import SUITE_VERSION
from tooletta.chat.messages import read_tool_definitions
from tooletta.testing.samples import PROBE_TOOLS, random_conversations
from tooletta.testing.strategies import calls_strategy

pytest.importorskip("jinja2")


pytestmark = pytest.mark.usefixtures("forget_learned")
"""Formats learned here are forgotten after this module (``tests/conftest.py``)."""


BIELIK = str(TEMPLATES / "Bielik-11B-v3.0-Instruct.jinja")
REKA = str(TEMPLATES / "Reka-Edge.jinja")
SMOLLM3 = str(TEMPLATES / "HuggingFaceTB-SmolLM3-3B.jinja")
RWKV = str(TEMPLATES / "llama-cpp-rwkv-world.jinja")

TOOLS = [weather_tool("Pogoda dla miasta.")]
CONVERSATION: list[dict[str, Any]] = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Jaka pogoda w Zürichu?"},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {
                "id": "c1",
                "type": "function",
                "function": {
                    "name": "get_weather",
                    "arguments": {"city": "Zürich", "days": 2, "hourly": [1.5, None, True]},
                },
            },
            {
                "id": "c2",
                "type": "function",
                "function": {"name": "get_weather", "arguments": {"city": 'Bern "old"\ntown'}},
            },
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
    {"role": "tool", "tool_call_id": "c2", "content": "rain"},
    {"role": "assistant", "content": "Sunny in Zürich, rain in Bern."},
    {"role": "user", "content": "Thanks!"},
]


@pytest.fixture(scope="module")
def bielik() -> tooletta.chat.learn.Learned:
    return tooletta.learn(BIELIK, name="test-bielik", lenient=True)


@pytest.fixture(scope="module")
def reka() -> tooletta.chat.learn.Learned:
    return tooletta.learn(REKA, name="test-reka")


def test_bielik_is_chatml_with_hermes_calls(bielik: Any) -> None:
    assert bielik.name == "test-bielik"
    assert bielik.dialect == "hermes"
    assert bielik.checks > 20
    chat = bielik.spec["chat"]
    assert chat["turns"]["user"] == ["<|im_start|>user\n", "<|im_end|>\n"]
    assert chat["results"] == {
        "wrap": ["<|function_output|>", ""],
        "grouped": True,
        "separator": "",
        "strip": ["", ""],
    }
    assert chat["turns"]["tool"] == ["<|im_start|>user\n", "<|im_end|>\n"]
    assert chat["fixed"] == {"enable_thinking": [None, False]}  # thinking changes the system turn


def test_bielik_contradicts_itself_after_a_system_message(bielik: Any) -> None:
    """Its loop runs over messages[1:] but looks at messages[loop.index0 - 1]: after a system
    message, grouped results lose their <|im_end|>. Refused, unless lenient (then recorded)."""
    with pytest.raises(LearnError) as caught:
        tooletta.learn(BIELIK, name="test-bielik-strict")
    assert caught.value.probe == "results+system"
    assert "contradicts itself" in caught.value.reason
    assert "results+system" in bielik.deviations[0]
    assert all("<|function_output|>" in d for d in bielik.deviations)  # the same bug
    assert bielik.spec["deviations"] == bielik.deviations


@pytest.mark.parametrize("prompt", [False, True])
def test_bielik_renders_as_its_template(bielik: Any, prompt: bool) -> None:
    plain = CONVERSATION[1:]  # no system message: the template's consistent form
    messages = plain if not prompt else [*plain[:-1], plain[0]]
    text = tooletta.render_conversation(
        messages, dialect=bielik.name, tools=TOOLS, add_generation_prompt=prompt
    )
    assert text == render_template_file(BIELIK, messages, tools=TOOLS, add_generation_prompt=prompt)


def test_bielik_reads_its_template_back(bielik: Any) -> None:
    plain = CONVERSATION[1:]
    text = render_template_file(BIELIK, plain, tools=TOOLS)
    read = tooletta.parse_conversation(text, dialect=bielik.name, tools=TOOLS)
    assert [m.role for m in read] == [m["role"] for m in plain]
    read = [Message(role="system", content="Be brief."), *read]
    assert read[2].tool_calls == [
        ToolCall("get_weather", {"city": "Zürich", "days": 2, "hourly": [1.5, None, True]}),
        ToolCall("get_weather", {"city": 'Bern "old"\ntown'}),
    ]
    assert [read[3].content, read[4].content] == ["sunny", "rain"]
    assert read[3].name == "get_weather"
    assert read[5].content == "Sunny in Zürich, rain in Bern."


def test_a_switch_that_changes_more_than_the_prompt_is_refused(bielik: Any) -> None:
    with pytest.raises(RenderError, match="enable_thinking"):
        tooletta.render_conversation(CONVERSATION, dialect=bielik.name, enable_thinking=True)
    thinking = tooletta.learn(
        BIELIK, name="test-bielik-thinking", lenient=True, enable_thinking=True
    )
    text = tooletta.render_conversation(
        CONVERSATION[:2], dialect=thinking.name, add_generation_prompt=True, enable_thinking=True
    )
    assert text.endswith("<|im_start|>assistant\n<think>\n")
    assert text == render_template_file(
        BIELIK, CONVERSATION[:2], add_generation_prompt=True, enable_thinking=True
    )


def test_reka_edge_calls_are_learned_as_json_in_markers(reka: Any) -> None:
    assert reka.dialect == reka.name  # no installed dialect escapes non-ASCII as Reka does
    calls = reka.spec["calls"]
    assert calls["kind"] == "json"
    assert (calls["open"], calls["close"], calls["between"]) == ("<tool_call>", "</tool_call>", "")
    assert calls["ensure_ascii"] is True
    assert calls["lead_if_missing"] is True  # no "\n" before the calls after content ending in one
    text = tooletta.render([ToolCall("f", {"a": "é"})], dialect=reka.name, content="hi")
    assert text == 'hi\n<tool_call>\n{"name": "f", "arguments": {"a": "\\u00e9"}}\n</tool_call>'


def test_reka_edge_renders_and_reads_back(reka: Any) -> None:
    text = tooletta.render_conversation(CONVERSATION, dialect=reka.name, tools=TOOLS)
    assert text == render_template_file(REKA, CONVERSATION, tools=TOOLS)
    read = tooletta.parse_conversation(text, dialect=reka.name, tools=TOOLS)
    assert [m.role for m in read] == [m["role"] for m in CONVERSATION]
    assert len(read[2].tool_calls) == 2


@settings(max_examples=60, deadline=None)
@given(calls=calls_strategy(("<tool_call>", "</tool_call>")), cut=st.integers(0, 10_000))
def test_learned_dialect_round_trips_and_streams(
    reka: Any, calls: list[ToolCall], cut: int
) -> None:
    """parse(render(calls)) == calls, and a stream cut anywhere reads the same."""
    name = reka.name
    text = tooletta.render(calls, dialect=name)
    whole = tooletta.parse(text, name)
    assert whole.calls == [ToolCall(c.name, c.arguments) for c in calls]
    cut %= len(text) + 1
    parser = tooletta.stream(name)
    updates = [parser.feed(text[:cut]), parser.feed(text[cut:]), parser.finish()]
    args: dict[int, str] = {}
    names: dict[int, str] = {}
    for update in updates:
        for delta in update.calls:
            args[delta.index] = args.get(delta.index, "") + delta.arguments
            if delta.name is not None:
                names[delta.index] = delta.name
    streamed = [ToolCall(names[i], json.loads(args[i])) for i in sorted(args)]
    assert streamed == whole.calls
    assert "".join(u.content for u in updates) == whole.content


def test_a_template_without_calls_learns_and_refuses_calls() -> None:
    smol = tooletta.learn(SMOLLM3, name="test-smollm3")
    assert smol.dialect is None
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
    assert tooletta.render_conversation(messages, dialect=smol.name) == render_template_file(
        SMOLLM3, messages
    )
    with pytest.raises(RenderError):
        tooletta.render([ToolCall("f", {})], dialect=smol.name)


def test_refused_with_the_probe_and_the_difference() -> None:
    """A template that writes a user's line breaks as spaces: no declaration says so."""
    template = load_chat_template(RWKV)[0].replace(
        "message['content']|trim", "message['content']|trim|replace('\\n', ' ')", 1
    )
    with pytest.raises(LearnError) as caught:
        tooletta.learn(template, name="test-rwkv")
    assert isinstance(caught.value, ToolettaError)
    assert caught.value.probe == "multiline"
    assert "multiline" in caught.value.reason
    assert "test-rwkv" not in {d.name for d in tooletta.list_dialects()}


CUSTOM = (
    "{% set sys = messages[0].role == 'system' %}"
    "{% if sys or tools %}<|s|>{% if sys %}{{ messages[0].content }}{% endif %}"
    "{% if tools %}\nTOOLS:{% for t in tools %}\n{{ t | tojson }}{% endfor %}{% endif %}"
    "<|end|>{% endif %}"
    "{% for m in messages %}"
    "{% if m.role == 'assistant' %}<|a|>{{ m.content }}"
    "{% for c in m.tool_calls or [] %}[[CALL]]{{ {'arguments': c.function.arguments,"
    " 'name': c.function.name} | tojson(separators=(',', ':')) }}[[/CALL]]{% endfor %}<|end|>"
    "{% elif m.role == 'tool' %}<|t|>{{ m.content }}<|end|>"
    "{% elif m.role == 'user' %}<|u|>{{ m.content }}<|end|>{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|a|>{% endif %}"
)


def test_an_unknown_call_layout_is_learned() -> None:
    """Arguments before the name, compact separators, [[CALL]] markers: no plugin writes this."""
    learned = tooletta.learn(CUSTOM, name="test-custom")
    calls = learned.spec["calls"]
    assert calls["kind"] == "json"
    assert (calls["open"], calls["close"], calls["args_first"]) == ("[[CALL]]", "[[/CALL]]", True)
    assert (calls["key_sep"], calls["item_sep"]) == (":", ",")
    assert learned.spec["chat"]["results"]["grouped"] is False
    text = tooletta.render([ToolCall("f", {"x": [1, {"y": None}]})], dialect="test-custom")
    assert text == '[[CALL]]{"arguments":{"x":[1,{"y":null}]},"name":"f"}[[/CALL]]'
    convo = tooletta.render_conversation(CONVERSATION, dialect="test-custom", tools=TOOLS)
    assert convo == render_jinja(CUSTOM, read_conversation(CONVERSATION), tools=TOOLS)
    read = tooletta.parse_conversation(convo, dialect="test-custom")
    assert [m.role for m in read] == [m["role"] for m in CONVERSATION]


def test_tools_only_with_a_system_message_are_refused() -> None:
    template = CUSTOM.replace("{% if sys or tools %}", "{% if sys %}")
    with pytest.raises(LearnError, match="only with a system message"):
        tooletta.learn(template, name="test-custom-sys")


def test_save_and_load(tmp_path: Path, reka: Any) -> None:
    path = tmp_path / "reka.json"
    reka.save(path)
    spec = json.loads(path.read_text(encoding="utf-8"))
    assert spec["spec_version"] == SPEC_VERSION and spec["probe_suite"] == SUITE_VERSION
    assert len(spec["template_sha256"]) == 64
    assert tooletta.load_learned(path).name == reka.name  # the same spec: already registered
    spec["name"] = "test-reka-loaded"
    path.write_text(json.dumps(spec), encoding="utf-8")
    loaded = tooletta.load_learned(path)
    assert loaded.checks == 0
    text = tooletta.render_conversation(CONVERSATION, dialect=loaded.name, tools=TOOLS)
    assert text == render_template_file(REKA, CONVERSATION, tools=TOOLS)


def test_learned_formats_are_listed_as_learned(reka: Any) -> None:
    entry = next(d for d in tooletta.list_dialects() if d.name == reka.name)
    assert entry.description.startswith("learned")
    from tooletta.plugins import get_registry

    assert get_registry().get(reka.name).plugin.startswith("learned (")


@pytest.mark.parametrize(
    "template",
    [42, "/no/such/template.jinja", "{{ raise_exception('never') }}", "{% for %}"],
)
def test_bad_templates_are_learn_errors(template: Any) -> None:
    with pytest.raises(LearnError):
        tooletta.learn(template)


def test_a_name_taken_by_a_plugin_is_refused() -> None:
    with pytest.raises(LearnError, match="taken"):
        tooletta.learn(BIELIK, name="hermes", lenient=True)


def test_load_rejects_what_is_no_spec(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"spec_version": 1, "name": "x"}', encoding="utf-8")
    with pytest.raises(LearnError, match="malformed"):
        tooletta.load_learned(bad)
    with pytest.raises(LearnError):
        tooletta.load_learned(tmp_path / "missing.json")


def test_messages_as_objects(bielik: Any) -> None:
    messages = [Message(role="user", content="a"), Message(role="assistant", content="b")]
    text = tooletta.render_conversation(messages, dialect=bielik.name)
    assert text == "<|im_start|>user\na<|im_end|>\n<|im_start|>assistant\nb<|im_end|>\n"


def test_what_the_template_drops_or_strips_is_learned(bielik: Any) -> None:
    """Bielik writes content.lstrip() and no system message after the first message."""
    assert bielik.spec["chat"]["content_strip"] == {"block": [None, ""], "plain": [None, ""]}
    assert bielik.spec["chat"]["late_system"] is False
    messages = [{"role": "user", "content": "a"}, {"role": "assistant", "content": " \n b \n"}]
    text = tooletta.render_conversation(messages, dialect=bielik.name)
    assert text == render_template_file(BIELIK, messages)
    assert tooletta.parse_conversation(text, dialect=bielik.name)[1].content == "b \n"
    late = [*messages, {"role": "system", "content": "late"}, {"role": "user", "content": "c"}]
    with pytest.raises(RenderError, match="no system message after the first"):
        tooletta.render_conversation(late, dialect=bielik.name)


def test_a_strip_that_depends_on_the_turn_is_learned() -> None:
    """Qwen3 strips newlines before an answer's text only after a reasoning block (the last
    turn's, empty or not, and a kept one's)."""
    qwen3 = Path(__file__).parent.parent / "plugins/tooletta-dialect-hermes/tests/templates"
    learned = tooletta.learn(str(qwen3 / "Qwen3.jinja"), name="test-qwen3")
    assert learned.spec["chat"]["content_strip"] == {"block": ["\n", ""], "plain": ["", ""]}
    messages = [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": "\nb"},
        {"role": "user", "content": "c"},
        {"role": "assistant", "content": "\nd"},
    ]
    text = tooletta.render_conversation(messages, dialect=learned.name)
    assert text == render_template_file(str(qwen3 / "Qwen3.jinja"), messages)
    assert [m.content for m in tooletta.parse_conversation(text, dialect=learned.name)] == [
        "a",
        "\nb",
        "c",
        "d",
    ]


@settings(max_examples=40, deadline=None)
@given(messages=random_conversations(trimmed=True))
def test_random_conversations_render_as_the_template_and_read_back(
    reka: Any, messages: list[Message]
) -> None:
    """Beyond the probes: any conversation (typed calls, results, reasoning, a system
    message) renders as Reka Edge's template does and reads back to what its text carries."""
    tools = read_tool_definitions(PROBE_TOOLS)
    want = render_template_file(REKA, messages, tools=tools)
    assert tooletta.render_conversation(messages, dialect=reka.name, tools=tools) == want
    read = tooletta.parse_conversation(want, dialect=reka.name, tools=tools)
    expected = reka.format.expressible(messages)
    assert [(m.role, m.content, m.tool_calls) for m in read] == [
        (m.role, m.content, [ToolCall(c.name, c.arguments) for c in m.tool_calls]) for m in expected
    ]


def test_tokenize_conversation_trains_the_learned_answer(reka: Any) -> None:
    """Reka Edge's answer ends with "\\n\\n<sep>": the text before the token is the end of the
    answer (generated, trained); <sep> is the end-of-turn token (one id)."""
    tokenizers = pytest.importorskip("tokenizers")
    from tooletta.training import tokenize_conversation

    assert reka.format.end_of_turn == "<sep>"
    tok = tokenizers.Tokenizer(tokenizers.models.BPE())
    tok.pre_tokenizer = tokenizers.pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = tokenizers.decoders.ByteLevel()
    trainer = tokenizers.trainers.BpeTrainer(
        vocab_size=300,
        special_tokens=["<sep>", "<tool_call>", "</tool_call>"],
        initial_alphabet=tokenizers.pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator(["hello world human assistant"], trainer)
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]
    out = tokenize_conversation(messages, tok, dialect=reka.name)
    assert out.text == render_template_file(REKA, messages)
    trained = [i for i, w in zip(out.input_ids, out.weights) if w]
    assert tok.decode(trained, skip_special_tokens=False) == "hello\n\n<sep>"


def test_reasoning_is_written_where_the_learned_format_puts_it() -> None:
    learned = tooletta.learn(REKA, name="test-reka-thinking", enable_thinking=True)
    assert tooletta.supports_reasoning(learned.name)
    calls = [ToolCall("f", {"a": 1})]
    text = tooletta.render(calls, dialect=learned.name, content="hi", reasoning="think")
    assert text.startswith("<think>\nthink\n</think>\n\nhi\n<tool_call>")
    read = tooletta.parse(text, learned.name)
    assert (read.reasoning, read.content, read.calls) == ("think", "hi", calls)


NO_SYSTEM = (
    "{{ bos_token }}{% if messages[0].role == 'system' %}"
    "{{ raise_exception('System role not supported') }}{% endif %}"
    "{% for m in messages %}<t>{{ m.role }}\n{{ m.content | trim }}</t>\n{% endfor %}"
    "{% if add_generation_prompt %}<t>assistant\n{% endif %}"
)


def test_a_template_without_system_role_and_trimming_texts_learns() -> None:
    """Gemma 2's shape: system messages refused, every text trimmed."""
    learned = tooletta.learn(NO_SYSTEM, bos_token="<bos>", name="test-no-system")
    chat = learned.spec["chat"]
    assert (chat["system"], chat["user_strip"]) == (False, [None, None])
    assert chat["content_strip"] == {"block": [None, None], "plain": [None, None]}
    assert chat["bos"] == "<bos>"
    messages = [{"role": "user", "content": " hi\n"}, {"role": "assistant", "content": "\nyo "}]
    text = tooletta.render_conversation(messages, dialect=learned.name)
    assert text == "<bos><t>user\nhi</t>\n<t>assistant\nyo</t>\n"
    assert [m.content for m in tooletta.parse_conversation(text, dialect=learned.name)] == [
        "hi",
        "yo",
    ]
    with pytest.raises(RenderError, match="system"):
        tooletta.render_conversation(
            [{"role": "system", "content": "s"}, *messages], dialect=learned.name
        )


def test_the_reasoning_key_and_the_call_form_are_found_by_probing() -> None:
    """A template reading ``message.thinking``, and writing calls only when a call-only
    turn's content is ``None`` (as DeepSeek-R1's distills do), is probed in those forms."""
    template = (
        "{% for m in messages %}<{{ m.role }}>"
        "{% if m.thinking %}[T]{{ m.thinking }}[/T]{% endif %}"
        "{% if m.content is not none %}{{ m.content }}{% endif %}"
        "{% if m.tool_calls and (m.content is none or m.content) %}{% for c in m.tool_calls %}"
        "[C]{{ c.function | tojson }}[/C]{% endfor %}{% endif %}</{{ m.role }}>{% endfor %}"
        "{% if add_generation_prompt %}<assistant>{% endif %}"
    )
    learned = tooletta.learn(template, name="test-thinking-key")
    assert learned.spec["chat"]["reasoning"]["key"] == "thinking"
    assert learned.spec["calls"]["kind"] == "json"
    assert learned.spec["calls"]["open"] == "[C]"
    messages = [
        Message(role="user", content="q"),
        Message(role="assistant", content="a", reasoning="r"),
    ]
    assert tooletta.render_conversation(messages, dialect=learned.name) == (
        "<user>q</user><assistant>[T]r[/T]a</assistant>"
    )


def test_tools_before_the_system_message_and_stripped_texts() -> None:
    """Qwen3.5: the tool declarations before the system message; system messages and tool
    results trimmed; calls as qwen3_coder writes them."""
    qwen = Path(__file__).parent.parent / "plugins/tooletta-dialect-qwen/tests/templates"
    path = str(qwen / "Qwen3.5-4B.jinja")
    learned = tooletta.learn(path, name="test-qwen35")
    chat = learned.spec["chat"]
    assert chat["tools"]["system_first"] is False
    assert chat["system_strip"] == [None, None]
    assert chat["results"]["strip"] == [None, None]
    assert learned.dialect == "qwen3_coder"
    messages = [{"role": "system", "content": " Be brief.\n"}, *CONVERSATION[1:]]
    text = tooletta.render_conversation(messages, dialect=learned.name, tools=TOOLS)
    assert text == render_template_file(path, messages, tools=TOOLS)
    read = tooletta.parse_conversation(text, dialect=learned.name, tools=TOOLS)
    assert read[0].content == "Be brief."
    assert [m.role for m in read] == [m["role"] for m in messages]


OPEN_LAST = (
    "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}"
    "{% if m.role != 'assistant' or not loop.last %}<|end|>{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


def test_a_template_leaving_the_last_answer_open_learns() -> None:
    """Apertus' and Apriel's shape: the last answer has no end token (it may go on)."""
    learned = tooletta.learn(OPEN_LAST, name="test-open-last")
    assert learned.spec["chat"]["open_last"] is True
    assert learned.format.end_of_turn == "<|end|>"
    messages = [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": "b"},
        {"role": "user", "content": "c"},
        {"role": "assistant", "content": "d"},
    ]
    text = tooletta.render_conversation(messages, dialect=learned.name)
    assert text == "<|user|>a<|end|><|assistant|>b<|end|><|user|>c<|end|><|assistant|>d"
    read = tooletta.parse_conversation(text, dialect=learned.name)
    assert [(m.role, m.content) for m in read] == [(m["role"], m["content"]) for m in messages]
