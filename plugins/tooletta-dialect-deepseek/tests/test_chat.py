"""DeepSeek conversations: native rendering against the models' own templates (vendored)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import ClassVar

import pytest

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversations import SAMPLE_TOOLS, ConversationTests, sample_conversations

TEMPLATES = Path(__file__).parent / "templates"
BOS = "<｜begin▁of▁sentence｜>"
EOS = "<｜end▁of▁sentence｜>"
TOKENS = {"bos_token": BOS, "eos_token": EOS}

V31 = "deepseek-ai/DeepSeek-V3.1"
R1_LLAMA = "deepseek-ai/DeepSeek-R1-Distill-Llama-8B"
R1_QWEN = "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B"
V32 = "deepseek-ai/DeepSeek-V3.2"

WEATHER = ToolCall("get_weather", {"city": "Paris", "days": 2})
TIME = ToolCall("get_time", {"tz": "Europe/Paris"})

_R1_DROPS = (
    "the R1 template writes a call turn only when its content is None (every call is lost "
    "beside content, even empty), never resets its first-call and first-output flags (a "
    "second call turn loses its header and section start, a second batch of results its "
    "<｜tool▁outputs▁begin｜>) and closes a section only after a second call"
)


# -- DeepSeek V3.1 ------------------------------------------------------------------------


class TestDeepSeekV31Chat(ConversationTests):
    model = V31
    template = TEMPLATES / "deepseek-ai-DeepSeek-V3.1.jinja"
    tokens = TOKENS
    options = ({}, {"thinking": True}, {"enable_thinking": True})
    string_arguments = True


def test_v31_assistant_continues_after_tool_outputs_without_header() -> None:
    messages = sample_conversations()["tools_two_calls"][0]
    text = tooletta.render_conversation(messages, model=V31, tools=SAMPLE_TOOLS)
    assert text.startswith(BOS + "You are a helpful assistant.<｜User｜>")
    assert (
        "<｜tool▁output▁begin｜>14:05<｜tool▁output▁end｜>It is 18 °C and clear in Paris; "
        "the time is 14:05." + EOS
    ) in text
    assert text.count("<｜Assistant｜>") == 1


def test_v31_generation_prompt_only_after_a_user_turn() -> None:
    ask = [Message("user", "Hi")]
    assert tooletta.render_conversation(ask, model=V31, add_generation_prompt=True).endswith(
        "<｜User｜>Hi<｜Assistant｜></think>"
    )
    thinking = tooletta.render_conversation(
        ask, model=V31, add_generation_prompt=True, enable_thinking=True
    )
    assert thinking.endswith("<｜Assistant｜><think>")
    after_tool = [*sample_conversations()["pending_call"][0], Message("tool", "14:05")]
    text = tooletta.render_conversation(after_tool, model=V31, add_generation_prompt=True)
    assert text.endswith("<｜tool▁output▁end｜>")


def test_v31_system_messages_join_at_the_start() -> None:
    messages = [
        Message("system", "A."),
        Message("user", "Hi"),
        Message("system", "B."),
        Message("assistant", "Yo"),
    ]
    text = tooletta.render_conversation(messages, model=V31)
    template = (TEMPLATES / "deepseek-ai-DeepSeek-V3.1.jinja").read_text(encoding="utf-8")
    assert text == render_jinja(template, messages, tokens=TOKENS)
    assert text == BOS + "A.\n\nB.<｜User｜>Hi<｜Assistant｜></think>Yo" + EOS
    back = tooletta.parse_conversation(text, model=V31)
    assert [(m.role, m.content) for m in back] == [
        ("system", "A.\n\nB."),
        ("user", "Hi"),
        ("assistant", "Yo"),
    ]


def test_v31_content_before_think_close_is_cut_as_the_template_cuts_it() -> None:
    messages = [Message("user", "Hi"), Message("assistant", "plan</think>Hello")]
    text = tooletta.render_conversation(messages, model=V31, allow_markup=True)
    template = (TEMPLATES / "deepseek-ai-DeepSeek-V3.1.jinja").read_text(encoding="utf-8")
    assert text == render_jinja(template, messages, tokens=TOKENS)
    assert tooletta.parse_conversation(text, model=V31)[-1].content == "Hello"


def test_v31_model_turn() -> None:
    text = tooletta.render([WEATHER, TIME], model=V31, content="Checking.")
    assert text == (
        "Checking.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>"
        '{"city": "Paris", "days": 2}<｜tool▁call▁end｜><｜tool▁call▁begin｜>get_time'
        '<｜tool▁sep｜>{"tz": "Europe/Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
    )


# -- DeepSeek R1 distills --------------------------------------------------------------------


class TestDeepSeekR1DistillLlamaChat(ConversationTests):
    model = R1_LLAMA
    template = TEMPLATES / "deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja"
    tokens = TOKENS
    string_arguments = True
    differences: ClassVar[Mapping[str, str]] = {
        "tools_two_calls": _R1_DROPS,
        "tools_no_system": _R1_DROPS,
        "reasoning_multi_turn": _R1_DROPS,
        "pending_call": _R1_DROPS,
    }


class TestDeepSeekR1DistillQwenChat(TestDeepSeekR1DistillLlamaChat):
    model = R1_QWEN
    template = TEMPLATES / "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja"


def _r1_template() -> str:
    return (TEMPLATES / "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B.jinja").read_text(
        encoding="utf-8"
    )


def _no_content_calls(messages: list[Message]) -> list[Message]:
    """The R1 template writes calls only for a turn whose content is None."""
    return [Message(m.role, None, tool_calls=m.tool_calls) if m.tool_calls else m for m in messages]


@pytest.mark.parametrize("model", [R1_LLAMA, R1_QWEN])
def test_r1_matches_the_template_where_it_writes_calls(model: str) -> None:
    """Two calls in a turn without content, then their results and the answer: the one shape
    the R1 template writes correctly, and what we write for it."""
    messages = _no_content_calls(sample_conversations()["tools_two_calls"][0])
    ours = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
    theirs = render_jinja(
        _r1_template(), messages, tools=SAMPLE_TOOLS, tokens=TOKENS, string_arguments=True
    )
    assert ours == theirs
    assert ours == (
        BOS + "You are a helpful assistant.<｜User｜>What's the weather in Paris, and the time "
        "there?<｜Assistant｜><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>"
        'get_weather\n```json\n{"city": "Paris", "days": 2}\n```<｜tool▁call▁end｜>\n'
        "<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n"
        '{"tz": "Europe/Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
        + EOS
        + "<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>"
        '{"temp": 18, "sky": "clear"}<｜tool▁output▁end｜>\n<｜tool▁output▁begin｜>14:05'
        "<｜tool▁output▁end｜><｜tool▁outputs▁end｜>It is 18 °C and clear in Paris; the time "
        "is 14:05." + EOS
    )


def test_r1_keeps_calls_beside_content() -> None:
    """Where the template drops the calls of a turn with content, we write both."""
    messages = sample_conversations()["pending_call"][0]
    text = tooletta.render_conversation(messages, model=R1_QWEN, tools=SAMPLE_TOOLS)
    assert text == (
        BOS + "<｜User｜>What's the weather in Paris, and the time there?<｜Assistant｜>"
        "Let me check both.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>"
        'get_weather\n```json\n{"city": "Paris", "days": 2}\n```<｜tool▁call▁end｜>\n'
        "<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time\n```json\n"
        '{"tz": "Europe/Paris"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>' + EOS
    )
    template = render_jinja(
        _r1_template(), messages, tools=SAMPLE_TOOLS, tokens=TOKENS, string_arguments=True
    )
    assert "tool▁call" not in template  # what the model's template loses


def test_r1_second_round_keeps_headers_and_sections() -> None:
    """A second call turn and its results are written like the first (the template's flags
    never reset)."""
    messages = sample_conversations()["reasoning_multi_turn"][0]
    text = tooletta.render_conversation(messages, model=R1_QWEN, tools=SAMPLE_TOOLS)
    second = text.split("please.")[1]
    assert second == (
        "<｜Assistant｜><｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>"
        'get_weather\n```json\n{"city": "東京"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
        + EOS
        + '<｜tool▁outputs▁begin｜><｜tool▁output▁begin｜>{"temp": 22}<｜tool▁output▁end｜>'
        "<｜tool▁outputs▁end｜>東京: 22 °C." + EOS
    )
    back = tooletta.parse_conversation(text, model=R1_QWEN, tools=SAMPLE_TOOLS)
    assert [m.role for m in back] == [m.role for m in messages]


def test_r1_generation_prompt_opens_thinking() -> None:
    ask = [Message("user", "Hi")]
    text = tooletta.render_conversation(ask, model=R1_LLAMA, add_generation_prompt=True)
    assert text == BOS + "<｜User｜>Hi<｜Assistant｜><think>\n"


def test_r1_model_turn_is_what_follows_the_open_think() -> None:
    text = tooletta.render([WEATHER], model=R1_QWEN, reasoning="Need weather.", content="Ok.")
    assert text == (
        "Need weather.\n</think>\n\nOk.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function"
        '<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris", "days": 2}\n```'
        "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
    )


def test_r1_history_drops_the_reasoning_before_think_close() -> None:
    messages = [Message("user", "Hi"), Message("assistant", "Greet.\n</think>\n\nHello!")]
    text = tooletta.render_conversation(messages, model=R1_QWEN, allow_markup=True)
    assert text == render_jinja(_r1_template(), messages, tokens=TOKENS)
    assert text.endswith("<｜Assistant｜>\n\nHello!" + EOS)


# -- DeepSeek V3.2 ---------------------------------------------------------------------------


class TestDeepSeekV32Chat(ConversationTests):
    model = V32
    template = TEMPLATES / "deepseek-ai-DeepSeek-V3.2.jinja"
    tokens = TOKENS
    options = ({}, {"thinking": True}, {"enable_thinking": True})


def _v32_template() -> str:
    return (TEMPLATES / "deepseek-ai-DeepSeek-V3.2.jinja").read_text(encoding="utf-8")


def test_v32_tools_follow_the_system_prompt() -> None:
    messages = sample_conversations()["tools_two_calls"][0]
    text = tooletta.render_conversation(messages, model=V32, tools=SAMPLE_TOOLS)
    head = text.split("<｜User｜>")[0]
    assert head.startswith(BOS + "You are a helpful assistant.\n\n## Tools\n\n")
    assert head.endswith(
        '<functions>\n{"name": "get_weather", "description": "Current weather for a city.", '
        '"parameters": {"type": "object", "properties": {"city": {"type": "string", '
        '"description": "City name"}, "days": {"type": "integer"}}, "required": ["city"]}}\n'
        '{"name": "get_time", "description": "Local time in a timezone.", "parameters": '
        '{"type": "object", "properties": {"tz": {"type": "string"}}, "required": ["tz"]}}\n'
        "</functions>\n"
    )


def test_v32_thinking_mode_writes_the_last_rounds_reasoning() -> None:
    messages = sample_conversations()["reasoning_multi_turn"][0]
    text = tooletta.render_conversation(messages, model=V32, tools=SAMPLE_TOOLS, thinking=True)
    assert "The user wants weather" not in text  # before the last user message: dropped
    assert text.endswith(
        "</result>\n</function_results>\n\n<think>One more call was needed; now answer."
        "</think>東京: 22 °C." + EOS
    )
    assert "please.<｜Assistant｜><think></think>\n\n<｜DSML｜function_calls>" in text


def test_v32_generation_prompt_is_the_encoders() -> None:
    """The encoder opens the assistant with ``</think>`` (chat mode) where llama.cpp's port
    writes ``<think></think>``; and it writes that opening as part of the user turn, with or
    without a generation prompt."""
    ask = [Message("user", "Hi")]
    for prompt in (False, True):
        text = tooletta.render_conversation(ask, model=V32, add_generation_prompt=prompt)
        assert text == BOS + "<｜User｜>Hi<｜Assistant｜></think>"
    thinking = tooletta.render_conversation(ask, model=V32, thinking=True)
    assert thinking == BOS + "<｜User｜>Hi<｜Assistant｜><think>"
    port = render_jinja(_v32_template(), ask, add_generation_prompt=True, tokens=TOKENS)
    assert port == BOS + "<｜User｜>Hi<｜Assistant｜><think></think>"
    after_results = [*sample_conversations()["pending_call"][0]]
    after_results += [Message("tool", "a"), Message("tool", "b")]
    text = tooletta.render_conversation(after_results, model=V32, tools=SAMPLE_TOOLS)
    assert text.endswith(
        "\n\n<function_results>\n<result>a</result>\n<result>b</result>\n</function_results>"
        "\n\n</think>"
    )
    assert tooletta.parse_conversation(text, model=V32, tools=SAMPLE_TOOLS)[-1].content == "b"


def test_v32_model_turn() -> None:
    text = tooletta.render([WEATHER], model=V32, content="Let me check.")
    assert text == (
        'Let me check.\n\n<｜DSML｜function_calls>\n<｜DSML｜invoke name="get_weather">\n'
        '<｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>\n'
        '<｜DSML｜parameter name="days" string="false">2</｜DSML｜parameter>\n'
        "</｜DSML｜invoke>\n</｜DSML｜function_calls>"
    )
    thought = tooletta.render([], model=V32, content="Hi.", reasoning="Greet.")
    assert thought == "Greet.</think>Hi."


def test_v32_thinking_round_trip() -> None:
    messages = sample_conversations()["reasoning_multi_turn"][0]
    text = tooletta.render_conversation(messages, model=V32, tools=SAMPLE_TOOLS, thinking=True)
    back = tooletta.parse_conversation(text, model=V32, tools=SAMPLE_TOOLS)
    assert [m.reasoning for m in back] == [
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "One more call was needed; now answer.",
    ]


def test_v32_call_without_arguments_is_the_encoders() -> None:
    """The encoder writes an empty argument list between two newlines; the port writes one."""
    messages = [Message("user", "Ping?"), Message("assistant", "", tool_calls=[ToolCall("ping")])]
    ours = tooletta.render_conversation(messages, model=V32)
    assert ours.endswith(
        '<｜DSML｜invoke name="ping">\n\n</｜DSML｜invoke>\n</｜DSML｜function_calls>' + EOS
    )
    port = render_jinja(_v32_template(), messages, tokens=TOKENS)
    assert port == ours.replace("\n\n</｜DSML｜invoke>", "\n</｜DSML｜invoke>")


def test_v32_later_system_message_joins_the_start() -> None:
    """Like the port (and V3.1's template), every system message goes to the start; the
    encoder would write a later one in place."""
    messages = [Message("user", "Hi"), Message("system", "Be brief."), Message("assistant", "Yo")]
    ours = tooletta.render_conversation(messages, model=V32)
    assert ours == render_jinja(_v32_template(), messages, tokens=TOKENS)
    assert ours == BOS + "Be brief.<｜User｜>Hi<｜Assistant｜></think>Yo" + EOS
