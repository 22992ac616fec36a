"""tooletta.learn on tool results written as JSON string literals inside a wrapper.

EXAONE 4.0 (``tests/fixtures/templates/LGAI-EXAONE-EXAONE-4.0-1.2B.jinja``, see its SOURCES.md)
writes each tool result as ``<tool_result>{"result": {{ content | tojson }}}</tool_result>``,
grouped results a line apart in one ``[|tool|]`` turn: learned as the results' ``json_string``
encoding inside the learned wrap. The learned format writes the literal and reads it back to
the exact text (quotes, backslashes, non-ASCII text, line breaks, text that is itself JSON).
Two small templates of the project's own (below) check what EXAONE's does not show: non-ASCII
escaped (``ensure_ascii=True``) and a result trimmed before it is encoded.

Expected texts come from rendering the templates with jinja2 (``tooletta.chat.jinja``); the
learned formats render and parse without Jinja.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat.jinja import load_chat_template, render_jinja
from tooletta.chat.learn import load_learned
from tooletta.chat.learn.probes import RESULT_TEXT
from tooletta.chat.messages import read_tool_definitions

pytest.importorskip("jinja2")

pytestmark = pytest.mark.usefixtures("forget_learned")
"""Formats learned here are forgotten after this module (``tests/conftest.py``)."""

EXAONE = str(Path(__file__).parent / "fixtures" / "templates" / "LGAI-EXAONE-EXAONE-4.0-1.2B.jinja")

TOOLS = read_tool_definitions(
    [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Weather of a city.",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            },
        }
    ]
)


@pytest.fixture(scope="module")
def exaone() -> Any:
    return tooletta.learn(EXAONE, name="test-exaone", eos_token="[|endofturn|]")


def _conversation(*results: str) -> list[Message]:
    calls = [
        ToolCall("get_weather", {"city": f"c{i}"}, id=f"call_{i}") for i in range(len(results))
    ]
    return [
        Message("system", "Be brief."),
        Message("user", "Weather?"),
        Message("assistant", "", tool_calls=calls),
        *(
            Message("tool", text, tool_call_id=call.id, name=call.name)
            for call, text in zip(calls, results)
        ),
        Message("assistant", "Done."),
    ]


def _jinja(template: str, messages: list[Message], **kwargs: Any) -> str:
    text, tokens = load_chat_template(template)
    return render_jinja(text, messages, tools=TOOLS, tokens=tokens, **kwargs)


def _results(text: str, name: str) -> list[Any]:
    read = tooletta.parse_conversation(text, dialect=name, tools=TOOLS)
    return [m.content for m in read if m.role == "tool"]


def test_exaone_learns_its_results_as_json_strings(exaone: Any) -> None:
    results = exaone.spec["chat"]["results"]
    assert results["encoding"] == {"kind": "json_string", "ensure_ascii": False}
    assert results["wrap"] == ['\n<tool_result>{"result": ', "}</tool_result>"]
    assert results["grouped"] is True
    calls = exaone.spec["calls"]
    assert (calls["kind"], calls["open"], calls["close"], calls["between"]) == (
        "json",
        "<tool_call>",
        "</tool_call>",
        "\n",
    )
    assert exaone.spec["chat"]["end_of_turn"] == "[|endofturn|]"
    messages = _conversation(RESULT_TEXT, '{"temp": 21}', "")
    text = tooletta.render_conversation(messages, dialect=exaone.name, tools=TOOLS)
    assert text == _jinja(EXAONE, messages)
    assert '{"result": "{\\"temp\\": 21}"}' in text
    assert _results(text, exaone.name) == [RESULT_TEXT, '{"temp": 21}', ""]


_SURROGATES: tuple[Literal["Cs"]] = ("Cs",)
"""Lone surrogates: no UTF-8 text holds them."""
_TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=_SURROGATES, exclude_characters="<>"),
    max_size=24,
) | st.sampled_from(['{"a": [1, "x\\"y"]}', "\\", '"', "\\n", "a\nb", "\u00e9\U0001f600"])


@settings(max_examples=60, deadline=None)
@given(results=st.lists(_TEXT, min_size=1, max_size=3))
def test_any_result_text_renders_as_the_template_and_reads_back_exactly(
    exaone: Any, results: list[str]
) -> None:
    messages = _conversation(*results)
    want = _jinja(EXAONE, messages)
    assert tooletta.render_conversation(messages, dialect=exaone.name, tools=TOOLS) == want
    assert _results(want, exaone.name) == results


def test_a_result_holding_the_closing_wrap_is_refused(exaone: Any) -> None:
    with pytest.raises(RenderError, match="markup"):
        tooletta.render_conversation(
            _conversation("x}</tool_result>y"), dialect=exaone.name, tools=TOOLS
        )


def test_the_saved_spec_loads_and_encodes_again(exaone: Any, tmp_path: Path) -> None:
    path = tmp_path / "exaone.json"
    exaone.save(path)
    spec = json.loads(path.read_text(encoding="utf-8"))
    spec["name"] = "test-exaone-loaded"
    path.write_text(json.dumps(spec), encoding="utf-8")
    loaded = load_learned(path)
    messages = _conversation('a "b"', "\u00e9")
    text = tooletta.render_conversation(messages, dialect=loaded.name, tools=TOOLS)
    assert text == _jinja(EXAONE, messages)
    assert _results(text, loaded.name) == ['a "b"', "\u00e9"]


def test_calls_stream_and_parse_as_the_template_writes_them(exaone: Any) -> None:
    calls = [ToolCall("get_weather", {"city": 'Z\u00fcrich "old"'}), ToolCall("get_weather", {})]
    messages = [Message("user", "Weather?"), Message("assistant", "Checking.", tool_calls=calls)]
    text = tooletta.render_conversation(messages, dialect=exaone.name, tools=TOOLS)
    assert text == _jinja(EXAONE, messages)
    body = tooletta.render(calls, dialect=exaone.name, content="Checking.")
    assert tooletta.parse(body, dialect=exaone.name).calls == calls
    parser = exaone.handle.stream()
    names = []
    for chunk in body:
        names += [d.name for d in parser.feed(chunk).calls if d.name]
    names += [d.name for d in parser.finish().calls if d.name]
    assert names == ["get_weather", "get_weather"]


ASCII_TRIMMED = (
    "{% for m in messages %}"
    "{% if m.role == 'tool' %}<|tool|>{\"out\": {{ m.content | trim | tojson(ensure_ascii=True) }}}"
    "<|end|>"
    "{% elif m.role == 'assistant' %}<|assistant|>{{ m.content }}"
    "{% for c in m.tool_calls or [] %}<call>{{ {'name': c.function.name,"
    " 'arguments': c.function.arguments} | tojson }}</call>{% endfor %}<|end|>"
    "{% else %}<|{{ m.role }}|>{{ m.content }}<|end|>{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
"""A made-up template: each result in a turn of its own, trimmed, then written as an ASCII
JSON string after a label."""


def test_ascii_escapes_and_a_trim_before_the_encoding_are_learned() -> None:
    learned = tooletta.learn(ASCII_TRIMMED, name="test-exaone-ascii")
    results = learned.spec["chat"]["results"]
    assert results["encoding"] == {"kind": "json_string", "ensure_ascii": True}
    assert results["strip"] == [None, None]
    assert results["grouped"] is False
    messages = _conversation('  \u00e9 "q" \\ \U0001f600\n', "x")
    text = tooletta.render_conversation(messages, dialect=learned.name)
    assert text == render_jinja(ASCII_TRIMMED, messages)
    assert '"\\u00e9 \\"q\\" \\\\ \\ud83d\\ude00"' in text
    assert _results(text, learned.name) == ['\u00e9 "q" \\ \U0001f600', "x"]


def test_an_empty_answer_is_refused_not_written_otherwise(exaone: Any) -> None:
    """EXAONE writes its empty think block only for an answer with text or calls: an empty
    answer's turn is ``[|assistant|]\\n[|endofturn|]\\n``, which the learned turn is not. The
    learned format refuses it rather than write it otherwise (spec ``chat.empty_answer``)."""
    assert exaone.spec["chat"]["empty_answer"] is False
    empty = [Message("user", "hi"), Message("assistant", ""), Message("user", "again")]
    assert "[|assistant|]\n[|endofturn|]\n" in render_jinja(load_chat_template(EXAONE)[0], empty)
    with pytest.raises(RenderError, match="message 1: an answer with no text and no calls"):
        tooletta.render_conversation(empty, dialect=exaone.name)
    spoken = [Message("user", "hi"), Message("assistant", "hello")]
    text = tooletta.render_conversation(spoken, dialect=exaone.name, tools=TOOLS)
    assert text == _jinja(EXAONE, spoken)


def test_a_template_writing_empty_answers_as_others_checks_them(tmp_path: Path) -> None:
    learned = tooletta.learn(ASCII_TRIMMED, name="test-exaone-empty")
    assert "empty_answer" not in learned.spec["chat"]
    empty = [Message("user", "hi"), Message("assistant", "")]
    text = tooletta.render_conversation(empty, dialect=learned.name)
    assert text == render_jinja(ASCII_TRIMMED, empty) == "<|user|>hi<|end|><|assistant|><|end|>"
