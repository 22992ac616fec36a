"""tooletta.learn on a template that writes each call as an installed dialect does but joins
parallel calls by another separator (a community edit of Qwen's template writes ``\\n\\n``
between ``<tool_call>`` blocks where ``qwen3_coder`` writes ``\\n``): the learned format
writes each call with the dialect and joins them by the learned ``between``; parse and stream
stay the dialect's, proved by the closed loop.

The template is the project's own test input: Qwen3.5-4B's vendored template
(``plugins/tooletta-dialect-qwen/tests/templates``) with the one text it writes before a
second call changed (:func:`_with_separator`). Expected texts come from rendering it with
jinja2 (``tooletta.chat.jinja``); the learned format renders and parses without Jinja.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import LearnError, Message, ToolCall
from tooletta.chat.jinja import render_jinja
from tooletta.chat.learn import load_learned
from tooletta.chat.learn.chatspec import SPEC_VERSION
from tooletta.chat.messages import read_tool_definitions
from tooletta.testing.samples import PROBE_TOOLS, random_conversations

pytest.importorskip("jinja2")

pytestmark = pytest.mark.usefixtures("forget_learned")
"""Formats learned here are forgotten after this module (``tests/conftest.py``)."""

QWEN35 = (
    Path(__file__).resolve().parent.parent
    / "plugins/tooletta-dialect-qwen/tests/templates/Qwen3.5-4B.jinja"
)
_SECOND_CALL = "{{- '\\n<tool_call>\\n<function=' + tool_call.name + '>\\n' }}"
"""What Qwen3.5-4B's template writes before each call after the first."""

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": name,
            "description": "A tool.",
            "parameters": {"type": "object"},
        },
    }
    for name in ("get_weather", "search", "now")
]


def _with_separator(separator: str) -> str:
    """Qwen3.5-4B's template writing ``separator`` (not ``\\n``) between two calls."""
    text = QWEN35.read_text(encoding="utf-8")
    assert text.count(_SECOND_CALL) == 1
    return text.replace(
        _SECOND_CALL, _SECOND_CALL.replace("'\\n<tool_call>", f"'{separator}<tool_call>")
    )


@pytest.fixture(scope="module")
def spaced() -> Any:
    return tooletta.learn(_with_separator("\\n\\n"), name="test-sep-qwen35")


def _conversation(calls: list[ToolCall], content: str) -> list[Message]:
    with_ids = [ToolCall(c.name, c.arguments, id=f"call_{i}") for i, c in enumerate(calls)]
    return [
        Message("user", "Weather?"),
        Message("assistant", content, tool_calls=with_ids),
        *(Message("tool", f"r{i}", tool_call_id=c.id, name=c.name) for i, c in enumerate(with_ids)),
        Message("assistant", "Done."),
    ]


def test_the_separator_is_learned_beside_the_installed_dialect(spaced: Any) -> None:
    calls = spaced.spec["calls"]
    assert (calls["kind"], calls["dialect"], calls["between"]) == (
        "installed",
        "qwen3_coder",
        "\n\n",
    )
    assert spaced.spec["spec_version"] == SPEC_VERSION == 5
    assert "joined by '\\n\\n'" in spaced.summary()
    three = [
        ToolCall("get_weather", {"a": "x"}),
        ToolCall("search", {}),
        ToolCall("now", {"a": "y"}),
    ]
    text = tooletta.render(three, dialect=spaced.name)
    assert text.count("</tool_call>\n\n<tool_call>") == 2 and "\n\n\n" not in text
    assert tooletta.parse(text, dialect=spaced.name).calls == three


def test_an_unchanged_template_learns_without_a_separator() -> None:
    """Qwen3.5-4B itself: qwen3_coder writes every call set byte for byte, no ``between``."""
    learned = tooletta.learn(str(QWEN35), name="test-sep-qwen35-own")
    assert learned.spec["calls"]["dialect"] == "qwen3_coder"
    assert "between" not in learned.spec["calls"]


_WORDS = st.text("abcdefgh xyz", min_size=1, max_size=8).map(str.strip).filter(bool)
_ARGS = st.dictionaries(
    st.text("abcdef", min_size=1, max_size=4), st.one_of(_WORDS, st.integers(-99, 99)), max_size=3
)
_CALLS = st.lists(
    st.builds(ToolCall, st.sampled_from(["get_weather", "search", "now"]), _ARGS),
    min_size=1,
    max_size=3,
)


@settings(max_examples=30, deadline=None)
@given(calls=_CALLS, content=st.sampled_from(["", "Let me look.", "Two\nlines."]), data=st.data())
def test_calls_render_as_the_template_and_read_back_in_any_chunks(
    spaced: Any, calls: list[ToolCall], content: str, data: st.DataObject
) -> None:
    """Any calls, one to three, with or without text: the conversation renders as the
    template, reads back, and the turn's text streams to the same calls in any chunks."""
    messages = _conversation(calls, content)
    tools = read_tool_definitions(TOOLS)
    want = render_jinja(_with_separator("\\n\\n"), messages, tools=tools)
    assert tooletta.render_conversation(messages, dialect=spaced.name, tools=tools) == want
    read = tooletta.parse_conversation(want, dialect=spaced.name, tools=tools)
    assert [ToolCall(c.name, c.arguments) for c in read[1].tool_calls] == calls
    assert read[1].content == content
    body = tooletta.render(calls, dialect=spaced.name, content=content)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(body)), max_size=4)))
    chunks = [body[a:b] for a, b in zip([0, *cuts], [*cuts, len(body)])]
    parser = spaced.handle.stream()
    updates = [parser.feed(chunk) for chunk in chunks]
    updates.append(parser.finish())
    streamed: dict[int, list[str]] = {}
    names: dict[int, str] = {}
    for update in updates:
        for delta in update.calls:
            streamed.setdefault(delta.index, []).append(delta.arguments)
            if delta.name is not None:
                names[delta.index] = delta.name
    got = [ToolCall(names[i], json.loads("".join(streamed[i]))) for i in sorted(streamed)]
    assert got == calls
    assert "".join(u.content for u in updates).strip() == content


def test_a_separator_the_dialect_reads_as_text_is_refused() -> None:
    with pytest.raises(
        LearnError, match="joins them by ' \\| ', which 'qwen3_coder' reads as text"
    ):
        tooletta.learn(_with_separator(" | "), name="test-sep-bar")


def test_the_saved_spec_loads_and_writes_the_separator(spaced: Any, tmp_path: Path) -> None:
    path = tmp_path / "spaced.json"
    spaced.save(path)
    spec = json.loads(path.read_text(encoding="utf-8"))
    spec["name"] = "test-sep-loaded"
    path.write_text(json.dumps(spec), encoding="utf-8")
    loaded = load_learned(path)
    two = [ToolCall("search", {"a": "x"}), ToolCall("now", {})]
    assert tooletta.render(two, dialect=loaded.name) == tooletta.render(two, dialect=spaced.name)
    assert "</tool_call>\n\n<tool_call>" in tooletta.render(two, dialect=loaded.name)


def test_the_hf_response_template_reads_the_other_separator(spaced: Any) -> None:
    """The export is qwen3_coder's own template re-anchored: its call region allows any
    whitespace between calls, so transformers reads the ``\\n\\n`` the learned format writes."""
    chat_parsing = pytest.importorskip("transformers.utils.chat_parsing")
    from tooletta.interop.hf.learned import hf_gap, learned_response_template

    assert hf_gap(spaced.spec) == ""
    ask = [Message("user", "Weather?")]
    prompt = tooletta.render_conversation(ask, dialect=spaced.name, add_generation_prompt=True)
    calls = [ToolCall("get_weather", {"a": "x"}), ToolCall("search", {"a": "b c"})]
    for content in ("", "Let me look."):
        whole = tooletta.render_conversation(
            [*ask, Message("assistant", content, tool_calls=calls)], dialect=spaced.name
        )
        assert "</tool_call>\n\n<tool_call>" in whole
        message = chat_parsing.parse_response(
            whole[len(prompt) :], learned_response_template(spaced.spec), prefix=prompt
        )
        got = [(c["function"]["name"], c["function"]["arguments"]) for c in message["tool_calls"]]
        assert got == [(c.name, c.arguments) for c in calls]
        assert message.get("content", "") == content


EFFORT = (
    "{% set e = reasoning_effort if reasoning_effort is defined else 'high' %}"
    "{% if e not in ['low', 'high'] %}{{ raise_exception('Unexpected reasoning effort') }}"
    "{% endif %}{% for m in messages %}<|{{ m.role }}|>{{ m.content }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
"""A template whose reasoning switch takes words and refuses booleans (qwen3.8-froggeric's
``reasoning_effort``)."""


def test_a_switch_value_the_template_refuses_is_not_allowed() -> None:
    learned = tooletta.learn(EFFORT, name="test-sep-effort")
    assert learned.spec["chat"]["fixed"] == {"reasoning_effort": [None]}
    messages = [Message("user", "hi")]
    assert tooletta.render_conversation(messages, dialect=learned.name) == "<|user|>hi<|end|>"
    with pytest.raises(tooletta.RenderError, match="reasoning_effort"):
        tooletta.render_conversation(messages, dialect=learned.name, reasoning_effort=True)


def test_a_separator_of_text_has_no_hf_response_template(spaced: Any) -> None:
    from tooletta.interop.hf.learned import hf_gap

    spec = json.loads(json.dumps(spaced.spec))
    spec["calls"]["between"] = "\n;\n"
    assert "joined by '\\n;\\n'" in hf_gap(spec) and "read that text as content" in hf_gap(spec)


JOINED_SYSTEM = (
    "{% set own = 'Be helpful.\\nBe brief.' %}"
    "{% if messages[0].role == 'system' %}{% set s = messages[0].content | trim %}"
    "{% set rest = messages[1:] %}{% else %}{% set s = '' %}{% set rest = messages %}{% endif %}"
    "{% set sc = s + '\\n\\n' + own if s else own %}"
    "<|system|>Rules.\n\n{% if tools %}TOOLS:{% for t in tools %}\n{{ t | tojson }}"
    "{% endfor %}\n\n{% endif %}{{ sc }}<|end|>"
    "{% for m in rest %}{% if m.role == 'assistant' %}<|assistant|>{{ m.content }}"
    "{% for c in m.tool_calls or [] %}<call>{{ {'name': c.function.name,"
    " 'arguments': c.function.arguments} | tojson }}</call>{% endfor %}<|end|>"
    "{% else %}<|{{ m.role }}|>{{ m.content }}<|end|>{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
"""A system message joined to the template's own text after it by a blank line, which is
written alone without a message, after the tool declarations (qwen3.8-froggeric's guidance)."""

JOINED_BEFORE = JOINED_SYSTEM.replace("s + '\\n\\n' + own if s", "own + '\\n\\n' + s if s")
"""The same, the template's own text before the message (llama.cpp's Apriel 1.6 copy)."""


@pytest.fixture(scope="module")
def joined() -> Any:
    return tooletta.learn(JOINED_SYSTEM, name="test-sep-joined-system")


def test_a_system_message_joined_to_the_template_s_text_after_it_is_learned(joined: Any) -> None:
    chat = joined.spec["chat"]
    assert chat["system_suffix"] == "\n\nBe helpful.\nBe brief."
    assert chat["default_system"] == "Be helpful.\nBe brief."
    assert chat["turns"]["system"] == ["<|system|>Rules.\n\n", "<|end|>"]
    tools = read_tool_definitions(TOOLS[:1])
    for system in ([], [Message("system", " Be kind. ")], [Message("system", "")]):
        for declared in (None, tools):
            messages = [*system, Message("user", "hi"), Message("assistant", "hello")]
            want = render_jinja(JOINED_SYSTEM, messages, tools=declared)
            got = tooletta.render_conversation(messages, dialect=joined.name, tools=declared)
            assert got == want
            read = tooletta.parse_conversation(want, dialect=joined.name, tools=declared)
            written = [m.content for m in joined.format.expressible(messages)]
            assert [m.content for m in read] == written


@settings(max_examples=40, deadline=None)
@given(messages=random_conversations(trimmed=True), declared=st.booleans())
def test_random_conversations_with_the_joined_system_text_round_trip(
    joined: Any, messages: list[Message], declared: bool
) -> None:
    tools = read_tool_definitions(PROBE_TOOLS) if declared else None
    want = render_jinja(JOINED_SYSTEM, messages, tools=tools)
    assert tooletta.render_conversation(messages, dialect=joined.name, tools=tools) == want
    read = tooletta.parse_conversation(want, dialect=joined.name, tools=tools)
    written = joined.format.expressible(messages)
    assert [(m.role, m.content) for m in read] == [(m.role, m.content) for m in written]


def test_a_system_message_joined_to_the_template_s_text_before_it_is_refused() -> None:
    with pytest.raises(LearnError, match="joins a system message to fixed text of its own by"):
        tooletta.learn(JOINED_BEFORE, name="test-sep-joined-before")


@pytest.mark.parametrize("system", ["}", "}\n", "x}\nTOOLS:{}", '{"a": 1}\n'])
def test_a_system_message_holding_the_declarations_tail_reads_back(
    joined: Any, system: str
) -> None:
    """A system message written after the tool declarations that holds their tail's text
    (``}`` and a newline, hypothesis's find) is read back whole: the declarations end where
    their JSON items do, not at the last ``}\\n``."""
    tools = read_tool_definitions(PROBE_TOOLS)
    messages = [Message("system", system), Message("user", "0"), Message("assistant", "0")]
    want = render_jinja(JOINED_SYSTEM, messages, tools=tools)
    assert tooletta.render_conversation(messages, dialect=joined.name, tools=tools) == want
    read = tooletta.parse_conversation(want, dialect=joined.name, tools=tools)
    written = joined.format.expressible(messages)  # (the template trims the message)
    assert [(m.role, m.content) for m in read] == [(m.role, m.content) for m in written]
