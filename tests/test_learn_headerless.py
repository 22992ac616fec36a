"""tooletta.learn on a user turn written without its header right after the system turn.

Tencent Hunyuan-A13B-Instruct's Hub text (vendored by the jamba plugin as
``tests/templates/tencent-Hunyuan-A13B-Instruct-hub.jinja``, see its SOURCES.md; no format of
ours names it) writes a first system message ``<|startoftext|>TEXT<|extra_4|>``, each user
message ``<|startoftext|>TEXT<|extra_0|>`` but the one right after the system turn, which has
no start token of its own (the system turn's opening stands for both), and each answer
``TEXT<|eos|>`` with no header at all, so it writes no generation prompt. Learned as the
chat's ``headerless`` (a :class:`~tooletta.chat.Headerless` declaration: the user's turn after
the system's), an empty assistant header (a turn no header opens is the assistant's) and
system and user turns sharing their header (read apart by the footer that comes first).

Two small templates of the project's own (below) show the layout is learned in general, not
by Hunyuan's tokens: one whose system and user turns share ``<|sys|>``, one whose user header
is another, both writing calls (``hermes``) and tool results.

Expected texts come from rendering the templates with jinja2 (``tooletta.chat.jinja``, as
transformers does, and plain :mod:`jinja2` for what the sandbox refuses); the learned formats
render and parse without Jinja.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import LearnError, Message, RenderError, ToolCall
from tooletta.chat.jinja import render_jinja
from tooletta.chat.learn import load_learned
from tooletta.testing.conversations import SAMPLE_TOOLS, sample_conversations

jinja2 = pytest.importorskip("jinja2")

pytestmark = pytest.mark.usefixtures("forget_learned")
"""Formats learned here are forgotten after this module (``tests/conftest.py``)."""

JAMBA = Path(__file__).parent.parent / "plugins" / "tooletta-dialect-jamba"
HUB = JAMBA / "tests" / "templates" / "tencent-Hunyuan-A13B-Instruct-hub.jinja"

SHARED = """\
{%- for m in messages -%}
{%- if m.role == 'system' -%}
{%- if loop.first -%}<|sys|>{{ m.content }}<|/sys|>{%- endif -%}
{%- elif m.role == 'user' -%}
{%- if not (loop.index0 == 1 and messages[0].role == 'system') -%}<|sys|>{%- endif -%}
{{ m.content }}<|/user|>
{%- elif m.role == 'assistant' -%}
<|bot|>{{ m.content }}
{%- for c in m.tool_calls or [] -%}
{%- set f = c.function if c.function is defined else c -%}
{{ '\\n' if not loop.first or m.content else '' }}<tool_call>
{"name": "{{ f.name }}", "arguments": {{ f.arguments | tojson }}}
</tool_call>
{%- endfor -%}
<|/bot|>
{%- elif m.role == 'tool' -%}
<|tool|>{{ m.content }}<|/tool|>
{%- endif -%}
{%- endfor -%}
{%- if add_generation_prompt -%}<|bot|>{%- endif -%}"""
"""A template of the project's own: system and user turns open with ``<|sys|>``, the user's
left out right after the system turn; calls as Qwen 2.5 writes them (``hermes``)."""

OWN_HEADER = SHARED.replace(
    "messages[0].role == 'system') -%}<|sys|>", "messages[0].role == 'system') -%}<|user|>"
)
"""The same, but the user's header is ``<|user|>`` (left out right after the system turn)."""

CHATS: dict[str, list[Message]] = {
    "user": [Message("user", "Hi")],
    "system": [Message("system", "Be brief."), Message("user", "Hi")],
    "chat": [
        Message("system", "Be brief."),
        Message("user", "Hi"),
        Message("assistant", "Hello."),
        Message("user", "Again?"),
        Message("assistant", "Again."),
    ],
    "no-system": [
        Message("user", "Hi"),
        Message("assistant", "Hello."),
        Message("user", "Again?"),
    ],
    "multiline": [
        Message("system", "Line one.\nLine two."),
        Message("user", "a\n\nb"),
        Message("assistant", " c \n"),
    ],
    "two-answers": [Message("user", "Hi"), Message("assistant", "A."), Message("assistant", "B.")],
}


def _plain(template: str, messages: list[Message], prompt: bool = False) -> str:
    """``template`` rendered by plain jinja2 (no sandbox), the messages as role and text."""
    given = [{"role": m.role, "content": m.content} for m in messages]
    env = jinja2.Environment()
    return str(env.from_string(template).render(messages=given, add_generation_prompt=prompt))


@pytest.fixture(scope="module")
def hub() -> Any:
    return tooletta.learn(str(HUB), name="test-hunyuan-hub")


def test_the_hub_text_is_learned_strictly(hub: Any) -> None:
    chat = hub.spec["chat"]
    assert chat["headerless"] == {"role": "user", "after": ["system"]}
    assert chat["turns"] == {
        "system": ["<|startoftext|>", "<|extra_4|>"],
        "user": ["<|startoftext|>", "<|extra_0|>"],
        "assistant": ["", "<|eos|>"],
    }
    assert (chat["bos"], chat["end_of_turn"], chat["prompts"]) == ("", "<|eos|>", [[{}, ""]])
    assert chat["empty_system"] is True
    assert chat["late_system"] is False
    assert hub.spec["calls"] == {"kind": "none"}
    assert hub.spec["deviations"] == []
    assert hub.dialect is None
    assert hub.checks > 0
    assert tooletta.learn(str(HUB), name="test-hunyuan-hub", lenient=True).spec == hub.spec


@pytest.mark.parametrize("name", sorted(CHATS))
@pytest.mark.parametrize("prompt", [False, True])
def test_the_hub_text_renders_as_its_template(hub: Any, name: str, prompt: bool) -> None:
    messages = CHATS[name]
    text = tooletta.render_conversation(messages, dialect=hub.name, add_generation_prompt=prompt)
    template = HUB.read_text(encoding="utf-8")
    assert text == render_jinja(template, messages, add_generation_prompt=prompt)
    assert text == _plain(template, messages, prompt)
    read = tooletta.parse_conversation(text, dialect=hub.name)
    assert [(m.role, m.content) for m in read] == [(m.role, m.content) for m in messages]


@pytest.mark.parametrize("prompt", [False, True])
def test_the_kit_samples_without_tools_render_as_the_template(hub: Any, prompt: bool) -> None:
    template = HUB.read_text(encoding="utf-8")
    seen = 0
    for messages, uses_tools in sample_conversations().values():
        if uses_tools:
            continue
        text = tooletta.render_conversation(
            messages, dialect=hub.name, add_generation_prompt=prompt
        )
        assert text == render_jinja(template, messages, add_generation_prompt=prompt)
        read = tooletta.parse_conversation(text, dialect=hub.name)
        assert [(m.role, m.content) for m in read] == [(m.role, m.content) for m in messages]
        seen += 1
    assert seen == 2


def test_the_system_turn_opens_the_first_user_turn(hub: Any) -> None:
    text = tooletta.render_conversation(CHATS["chat"], dialect=hub.name)
    assert text == (
        "<|startoftext|>Be brief.<|extra_4|>Hi<|extra_0|>Hello.<|eos|>"
        "<|startoftext|>Again?<|extra_0|>Again.<|eos|>"
    )


def test_no_generation_prompt(hub: Any) -> None:
    """No header opens an answer: the text already ends where the model writes, so
    ``add_generation_prompt=True`` adds nothing (the template ignores it too)."""
    for messages in CHATS.values():
        asked = tooletta.render_conversation(messages, dialect=hub.name, add_generation_prompt=True)
        assert asked == tooletta.render_conversation(messages, dialect=hub.name)


def test_an_empty_system_message_is_written_as_none(hub: Any) -> None:
    """The template's bug: an empty first message sets ``has_head`` false, and the user turn
    after it is then given its start token twice (plain jinja2); transformers' sandbox
    refuses its ``dict.update`` outright. The learned format writes the conversation as
    without the message, the start token once, which is what the template means."""
    messages = [Message("system", ""), Message("user", "Hi"), Message("assistant", "Yo")]
    template = HUB.read_text(encoding="utf-8")
    assert _plain(template, messages) == "<|startoftext|><|startoftext|>Hi<|extra_0|>Yo<|eos|>"
    with pytest.raises(RenderError, match="unsafe"):
        render_jinja(template, messages)
    text = tooletta.render_conversation(messages, dialect=hub.name)
    assert text == "<|startoftext|>Hi<|extra_0|>Yo<|eos|>"
    assert text == tooletta.render_conversation(messages[1:], dialect=hub.name)
    read = tooletta.parse_conversation(text, dialect=hub.name)
    assert [(m.role, m.content) for m in read] == [("user", "Hi"), ("assistant", "Yo")]


def test_what_would_not_read_back_is_refused(hub: Any) -> None:
    """An answer right after the system turn is written without a header where the user's
    is left out (it would read back as a user's); a later system message is written by the
    template as bare text (it would read back as part of a turn)."""
    with pytest.raises(RenderError, match="read back as a user's"):
        tooletta.render_conversation(
            [Message("system", "S"), Message("assistant", "Yo")], dialect=hub.name
        )
    with pytest.raises(RenderError, match="no system message after the first"):
        tooletta.render_conversation(
            [Message("user", "Hi"), Message("assistant", "Yo"), Message("system", "S")],
            dialect=hub.name,
        )


def test_the_second_message_is_a_user_turn_with_its_header(hub: Any) -> None:
    """Difference: the template leaves the start token out of the message at index 1 when it
    is a user's, whatever comes before it (a first user or answer too, whose text it then
    cannot be told from); the learned format leaves it out only right after the system
    turn, and the text reads back."""
    messages = [Message("user", "Hi"), Message("user", "Two")]
    template = HUB.read_text(encoding="utf-8")
    assert render_jinja(template, messages) == "<|startoftext|>Hi<|extra_0|>Two<|extra_0|>"
    text = tooletta.render_conversation(messages, dialect=hub.name)
    assert text == "<|startoftext|>Hi<|extra_0|><|startoftext|>Two<|extra_0|>"
    read = tooletta.parse_conversation(text, dialect=hub.name)
    assert [(m.role, m.content) for m in read] == [("user", "Hi"), ("user", "Two")]


def test_saved_and_loaded(hub: Any, tmp_path: Path) -> None:
    path = tmp_path / "hunyuan-hub.json"
    hub.save(path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["spec_version"] == 5
    assert saved["chat"]["headerless"] == {"role": "user", "after": ["system"]}
    again = {**saved, "name": "test-hunyuan-hub-loaded"}
    path.write_text(json.dumps(again), encoding="utf-8")
    loaded = load_learned(path)
    for messages in CHATS.values():
        assert tooletta.render_conversation(
            messages, dialect=loaded.name
        ) == tooletta.render_conversation(messages, dialect=hub.name)


def test_a_malformed_headerless_key_is_refused(hub: Any, tmp_path: Path) -> None:
    bad = json.loads(json.dumps(hub.spec))
    bad["name"] = "test-hunyuan-hub-bad"
    bad["chat"]["headerless"] = {"role": "robot", "after": ["system"]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(LearnError, match=r"\$\.chat\.headerless\.role"):
        load_learned(path)


def test_a_plain_conversation_streams_as_text(hub: Any) -> None:
    """No calls: a reply streams as its text, under any chunking."""
    reply = "Sunny <b>and</b> warm."
    parser = tooletta.stream(hub.name)
    out = "".join(parser.feed(c).content for c in reply) + parser.finish().content
    assert out == reply == tooletta.parse(reply, hub.name).content


@pytest.mark.parametrize("template", [SHARED, OWN_HEADER], ids=["shared", "own-header"])
def test_the_layout_is_learned_in_general(template: str) -> None:
    """Tokens of the project's own, calls and results: the same layout learned strictly,
    closed loop and all (the calls' stream too), and rendering as the template."""
    learned = tooletta.learn(template)
    chat = learned.spec["chat"]
    assert chat["headerless"] == {"role": "user", "after": ["system"]}
    assert chat["turns"]["system"][0] == "<|sys|>"
    assert learned.dialect == "hermes"
    assert learned.spec["deviations"] == []
    call = ToolCall("get_weather", {"city": "Paris"}, id="call_1")
    messages = [
        Message("system", "Be brief."),
        Message("user", "Weather?"),
        Message("assistant", "", tool_calls=[call]),
        Message("tool", "sunny", tool_call_id="call_1", name="get_weather"),
        Message("assistant", "Sunny."),
        Message("user", "Thanks."),
    ]
    for prompt in (False, True):
        text = tooletta.render_conversation(
            messages, dialect=learned.name, tools=SAMPLE_TOOLS, add_generation_prompt=prompt
        )
        assert text == render_jinja(
            template, messages, tools=SAMPLE_TOOLS, add_generation_prompt=prompt
        )
        read = tooletta.parse_conversation(text, dialect=learned.name, tools=SAMPLE_TOOLS)
        assert [m.role for m in read] == [m.role for m in messages]
        assert read[1].content == "Weather?"
        assert read[2].tool_calls[0].arguments == {"city": "Paris"}
