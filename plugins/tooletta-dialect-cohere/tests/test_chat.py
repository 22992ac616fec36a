"""Cohere conversations (Command R7B, Command R+): native rendering against the models' own
tool-use templates (vendored)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, ClassVar

import pytest

import tooletta
from tooletta import Message, RenderError, ToolCall, ToolettaError
from tooletta.chat import render_spans, resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversation_properties import round_trip_property
from tooletta.testing.conversations import (
    CONTENT_BESIDE_CALLS_SAMPLES,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
    sample_conversations,
)

TEMPLATES = Path(__file__).parent / "templates"
CHATBOT = "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>"
PLAN_OFF = "<|START_THINKING|><|END_THINKING|>"
TOKENS = {"bos_token": "<BOS_TOKEN>"}
R7B = "CohereForAI/c4ai-command-r7b-12-2024"
R7B_TEMPLATE = TEMPLATES / "CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja"
R_PLUS = "CohereForAI/c4ai-command-r-plus"
PLUS_0824 = "CohereForAI/c4ai-command-r-plus-08-2024"
R_PLUS_TEMPLATE = TEMPLATES / "CohereForAI-c4ai-command-r-plus-tool_use.jinja"


def described(tools: list[dict[str, Any]], fill: str | None = None) -> list[dict[str, Any]]:
    """``tools`` with a description on every parameter: ``fill``, else one naming it (the R+
    template raises on a parameter without one)."""
    out = copy.deepcopy(tools)
    for tool in out:
        for name, field in tool["function"]["parameters"]["properties"].items():
            field.setdefault("description", f"The {name}." if fill is None else fill)
    return out


DESCRIBED_TOOLS = described(SAMPLE_TOOLS)


class TestCommandR7BChat(ConversationTests):
    model = R7B
    template = R7B_TEMPLATE
    tokens = TOKENS
    options = ({}, {"enable_thinking": True}, {"enable_citations": True})
    ids = True
    differences: ClassVar[dict[str, str]] = dict.fromkeys(
        CONTENT_BESIDE_CALLS_SAMPLES, "the template drops the content beside calls"
    )


class TestCommandRPlusChat(ConversationTests):
    model = R_PLUS
    template = R_PLUS_TEMPLATE
    tokens = TOKENS
    tools = DESCRIBED_TOOLS
    differences: ClassVar[dict[str, str]] = {
        "plain": "the tool_use template iterates `tools` and raises without any",
        "system_plain": "the tool_use template iterates `tools` and raises without any",
    }


# -- Command R7B -------------------------------------------------------------------------


def r7b_template(messages: list[Message], tools: Any = None, **options: Any) -> str:
    """The R7B template's text for ``messages`` (no generation prompt: it writes one anyway)."""
    template = R7B_TEMPLATE.read_text(encoding="utf-8")
    return render_jinja(template, messages, tools=tools, tokens=TOKENS, **options)


@pytest.mark.parametrize("name", ["tools_two_calls", "tools_no_system", "pending_call"])
def test_r7b_writes_the_content_beside_calls_before_the_plan(name: str) -> None:
    """The template drops the content of a turn with calls; we write it before the plan,
    where the cohere dialect reads it as content: the rest is the template's text."""
    messages, _ = sample_conversations(ids=True)[name]
    ours = tooletta.render_conversation(messages, model=R7B, tools=SAMPLE_TOOLS)
    theirs = r7b_template(messages, SAMPLE_TOOLS)
    turn = CHATBOT + PLAN_OFF + "<|START_ACTION|>"
    assert theirs.count(turn) == 1
    assert ours == theirs.replace(
        turn, CHATBOT + "Let me check both." + PLAN_OFF + "<|START_ACTION|>"
    )
    back = tooletta.parse_conversation(ours, model=R7B, tools=SAMPLE_TOOLS)
    assert next(m for m in back if m.tool_calls).content == "Let me check both."


def test_r7b_renumbers_call_ids_by_position() -> None:
    """Every call's id is its position among the conversation's calls; results name the
    number of their call; parse_conversation gives the numbers back as the ids."""
    messages, _ = sample_conversations(ids=True)["reasoning_multi_turn"]
    text = tooletta.render_conversation(messages, model=R7B, tools=SAMPLE_TOOLS)
    assert '"call_' not in text
    assert text.count('"tool_call_id": "0"') == 2  # the call and its result
    assert text.count('"tool_call_id": "2"') == 2  # the Tokyo call (the conversation's third)
    back = tooletta.parse_conversation(text, model=R7B, tools=SAMPLE_TOOLS)
    assert [c.id for m in back for c in m.tool_calls] == ["0", "1", "2"]
    assert [m.tool_call_id for m in back if m.role == "tool"] == ["0", "1", "2"]


@pytest.mark.parametrize("ids", [False, True])
@pytest.mark.parametrize("name", sorted(sample_conversations()))
def test_r7b_expressible_gives_the_written_result_ids(name: str, ids: bool) -> None:
    """``expressible`` gives each result the renumbered id the template writes, the one
    parse_conversation reads back (the conversation law compares no result ids)."""
    messages, uses_tools = sample_conversations(ids=ids)[name]
    tools = SAMPLE_TOOLS if uses_tools else None
    fmt, _ = resolve_format(R7B, None)
    text = tooletta.render_conversation(messages, model=R7B, tools=tools)
    back = tooletta.parse_conversation(text, model=R7B, tools=tools)
    want = fmt.expressible(messages)

    def results(read: list[Message]) -> list[tuple[str | None, str | None]]:
        return [(m.tool_call_id, m.name) for m in read if m.role == "tool"]

    assert results(want) == results(back)
    assert [c.id for m in want for c in m.tool_calls] == [c.id for m in back for c in m.tool_calls]


def test_r7b_expressible_numbers_a_result_after_its_call() -> None:
    """A result answering the second call of a turn by its id (results out of order) is
    given the number of the call it follows by order, as parse pairs them."""
    messages = [
        Message("user", "Hi"),
        Message(
            "assistant",
            "",
            tool_calls=[ToolCall("get_time", {"tz": "UTC"}, "a"), ToolCall("get_time", {}, "b")],
        ),
        Message("tool", "2", tool_call_id="b"),
        Message("tool", "1", tool_call_id="a"),
    ]
    fmt, _ = resolve_format(R7B, None)
    text = tooletta.render_conversation(messages, model=R7B, tools=SAMPLE_TOOLS)
    back = tooletta.parse_conversation(text, model=R7B, tools=SAMPLE_TOOLS)
    want = fmt.expressible(messages)
    assert [m.tool_call_id for m in want if m.role == "tool"] == ["0", "1"]
    assert [m.tool_call_id for m in back if m.role == "tool"] == ["0", "1"]


def test_r7b_results_without_ids_follow_their_calls() -> None:
    """Results without ids take the number of the call they answer (by order). The template
    writes "0" for each (the first id-less call) and drops later result turns (an undefined
    id counts as already seen); with ids it writes what we write without them."""
    plain, _ = sample_conversations()["reasoning_multi_turn"]
    with_ids, _ = sample_conversations(ids=True)["reasoning_multi_turn"]
    ours = tooletta.render_conversation(plain, model=R7B, tools=SAMPLE_TOOLS)
    assert ours == r7b_template(with_ids, SAMPLE_TOOLS)
    lossy = r7b_template(plain, SAMPLE_TOOLS)
    results = "<|SYSTEM_TOKEN|><|START_TOOL_RESULT|>"
    assert lossy.count(results) == 1 and ours.count(results) == 2


def test_r7b_result_with_an_unknown_id_has_no_number() -> None:
    messages = [
        Message("user", "Hi"),
        Message("assistant", "", tool_calls=[ToolCall("get_time", {"tz": "UTC"}, "a")]),
        Message("tool", "12:00", tool_call_id="elsewhere"),
    ]
    ours = tooletta.render_conversation(messages, model=R7B, tools=SAMPLE_TOOLS)
    assert ours == r7b_template(messages, SAMPLE_TOOLS)
    assert '"tool_call_id": "",' in ours


def test_r7b_empty_system_message_is_a_turn_of_its_own() -> None:
    messages = [Message("system", ""), Message("user", "Hi"), Message("assistant", "Hello")]
    check_matches_template(R7B_TEMPLATE.read_text(), messages, model=R7B, tokens=TOKENS)
    check_conversation_round_trip(messages, model=R7B)


def test_r7b_tool_lines_are_written_unquoted() -> None:
    """Name and description go in as they are (a quote is not escaped), as the template
    writes them; a missing description is empty."""
    tools = described(SAMPLE_TOOLS)
    tools[0]["function"]["description"] = 'Say "hi"'
    del tools[1]["function"]["description"]
    messages = [Message("user", "Hi"), Message("assistant", "Hello")]
    ours = tooletta.render_conversation(messages, model=R7B, tools=tools)
    assert ours == r7b_template(messages, tools)
    assert '"description": "Say "hi"", ' in ours


def test_r7b_tool_without_parameters_gets_an_empty_schema() -> None:
    """The template fails on a definition without parameters; we write ``{}``."""
    tools = [{"type": "function", "function": {"name": "ping", "description": "Ping."}}]
    messages = [Message("user", "Hi"), Message("assistant", "Hello")]
    with pytest.raises(RenderError):
        r7b_template(messages, tools)
    ours = tooletta.render_conversation(messages, model=R7B, tools=tools)
    assert '{"name": "ping", "description": "Ping.", "parameters": {}, "responses": null}' in ours


@pytest.mark.parametrize("reasoning", ["", "I will call both."])
def test_r7b_render_model_is_the_turn_after_the_prompt(reasoning: str) -> None:
    """``render(model=)``: the calls numbered from "0" (the user's ids are not written), the
    plan only when there is reasoning (the prompt already wrote the empty one)."""
    calls = [ToolCall("get_weather", {"city": "Paris"}, "x"), ToolCall("get_time", {}, "y")]
    messages = [Message("user", "Hi"), Message("assistant", "", calls, reasoning=reasoning)]
    theirs = r7b_template(messages, SAMPLE_TOOLS)
    turn = theirs[theirs.index(CHATBOT) + len(CHATBOT) : theirs.rindex("<|END_OF_TURN_TOKEN|>")]
    ours = tooletta.render(calls, model=R7B, reasoning=reasoning)
    assert ours == (turn if reasoning else turn.removeprefix(PLAN_OFF))
    assert '"tool_call_id": "0"' in ours and '"tool_call_id": "1"' in ours
    back = tooletta.parse(ours, "cohere")
    assert [c.id for c in back.calls] == ["0", "1"] and back.reasoning == reasoning


def test_r7b_answer_with_reasoning_writes_a_plan_first() -> None:
    """An answer's reasoning never goes back into history; written alone (``render(model=)``)
    it is the plan before the response, and reads back."""
    text = tooletta.render([], model=R7B, content="Hi", reasoning="Easy.")
    assert text == "<|START_THINKING|>Easy.<|END_THINKING|><|START_RESPONSE|>Hi<|END_RESPONSE|>"
    back = tooletta.parse(text, "cohere")
    assert (back.content, back.reasoning) == ("Hi", "Easy.")


def test_r7b_reasoning_with_a_token_is_refused() -> None:
    calls = [ToolCall("get_time", {"tz": "UTC"})]
    with pytest.raises(RenderError):
        tooletta.render(calls, model=R7B, reasoning="a <|END_THINKING|> b")


def test_r7b_parses_text_rendered_with_enable_thinking() -> None:
    """With ``enable_thinking`` the closing prompt is the bare header: still read."""
    messages, _ = sample_conversations(ids=True)["reasoning_multi_turn"]
    on = tooletta.render_conversation(messages, model=R7B, tools=SAMPLE_TOOLS, enable_thinking=True)
    off = tooletta.render_conversation(messages, model=R7B, tools=SAMPLE_TOOLS)
    assert on.endswith(CHATBOT) and off.endswith(CHATBOT + PLAN_OFF)
    assert tooletta.parse_conversation(on, model=R7B) == tooletta.parse_conversation(off, model=R7B)


def test_r7b_documents_are_refused() -> None:
    with pytest.raises(RenderError):
        tooletta.render_conversation([Message("user", "Hi")], model=R7B, documents=[{"a": 1}])


def test_r7b_generated_spans_leave_the_prompted_plan_out() -> None:
    """The empty plan the prompt wrote is template text; the action block and the end token
    are what the model generates."""
    messages, _ = sample_conversations(ids=True)["pending_call"]
    messages = [messages[0], Message("assistant", "", messages[1].tool_calls)]
    spans = render_spans(messages, model=R7B, tools=SAMPLE_TOOLS)
    start, end = spans.generated_spans()[-1][1]
    generated = spans.text[start:end]
    assert generated.startswith("<|START_ACTION|>[")
    assert generated.endswith("]<|END_ACTION|><|END_OF_TURN_TOKEN|>")


test_r7b_round_trip_keeps_whitespace = round_trip_property(R7B, trimmed=False, max_examples=60)


def test_models_route_to_their_formats() -> None:
    assert resolve_format(R7B, None)[0].name == "command_r7b"
    assert resolve_format("CohereLabs/c4ai-command-r7b-12-2024", None)[0].name == "command_r7b"
    assert resolve_format("CohereForAI/c4ai-command-r-plus-4bit", None)[0].name == (
        "command_r_plus"
    )
    for unread in ("CohereLabs/c4ai-command-r7b-arabic-02-2025", PLUS_0824):
        with pytest.raises(ToolettaError, match="chat_template"):  # templates not compared
            tooletta.render_conversation([Message("user", "Hi")], model=unread)
    assert resolve_format(R_PLUS, None)[0].name == "command_r_plus"
    assert resolve_format("CohereForAI/c4ai-command-r-plus", None)[1].info.name == (
        "command_r_plus"
    )
    assert resolve_format(None, "command_r7b")[0].name == "command_r7b"
    assert resolve_format(None, "command_r_plus")[0].name == "command_r_plus"
    with pytest.raises(ToolettaError):  # Command A writes another template: not declared
        tooletta.render_conversation([Message("user", "Hi")], model="CohereLabs/command-a-03-2025")
    calls = [ToolCall("get_time", {"tz": "UTC"}, "x")]
    assert tooletta.render(calls, model="CohereLabs/command-a-03-2025") == tooletta.render(
        calls, "cohere"
    )


COMMAND_A = (
    "CohereForAI/c4ai-command-a-03-2025",
    "CohereLabs/c4ai-command-a-03-2025",
    "CohereLabs/command-a-reasoning-08-2025",
    "CohereLabs/command-a-vision-07-2025",
    "CohereLabs/command-a-translate-08-2025",
    "CohereForAI/command-a-03-2025",
)


@pytest.mark.parametrize("model", COMMAND_A)
def test_command_a_ids_route_to_cohere(model: str) -> None:
    """Command A (both organisation names) writes the ``cohere`` form; its own chat
    template was not found, so it has no conversation format (the dialect's render)."""
    assert tooletta.dialect_for_model(model) == "cohere"
    calls = [ToolCall("get_time", {"tz": "UTC"}, "x")]
    assert tooletta.render(calls, model=model) == tooletta.render(calls, "cohere")
    with pytest.raises(ToolettaError, match="chat_template"):
        tooletta.render_conversation([Message("user", "Hi")], model=model)


# -- Command R+ --------------------------------------------------------------------------


def r_plus_template(messages: list[Message], tools: Any = None, **options: Any) -> str:
    """The R+ template's text for ``messages``; ``tools=[]`` renders it with an empty tool
    list (the template itself raises when given no tools)."""
    template = R_PLUS_TEMPLATE.read_text(encoding="utf-8")
    if tools == []:
        template = "{%- set tools = [] %}" + template
    return render_jinja(template, messages, tools=tools, tokens=TOKENS, **options)


@pytest.mark.parametrize("name", ["plain", "system_plain"])
@pytest.mark.parametrize("prompt", [False, True])
def test_r_plus_without_tools_writes_an_empty_tool_list(name: str, prompt: bool) -> None:
    messages, _ = sample_conversations()[name]
    with pytest.raises(RenderError):
        r_plus_template(messages)
    ours = tooletta.render_conversation(messages, model=R_PLUS, add_generation_prompt=prompt)
    assert ours == r_plus_template(messages, [], add_generation_prompt=prompt)
    check_conversation_round_trip(messages, model=R_PLUS)


@pytest.mark.parametrize("name", ["tools_two_calls", "reasoning_multi_turn", "pending_call"])
def test_r_plus_parameter_without_description_gets_an_empty_one(name: str) -> None:
    """The template raises on SAMPLE_TOOLS (``days`` and ``tz`` have no description); we
    write what it writes when those descriptions are empty."""
    messages, _ = sample_conversations()[name]
    with pytest.raises(RenderError, match="description"):
        r_plus_template(messages, SAMPLE_TOOLS)
    ours = tooletta.render_conversation(messages, model=R_PLUS, tools=SAMPLE_TOOLS)
    assert ours == r_plus_template(messages, described(SAMPLE_TOOLS, fill=""))
    assert "        days (Optional[int]): \n" in ours


def schema_tool(properties: dict[str, Any], required: list[str]) -> list[dict[str, Any]]:
    parameters = {"type": "object", "properties": properties, "required": required}
    function = {"name": "f", "description": "F.", "parameters": parameters}
    return [{"type": "function", "function": function}]


@pytest.mark.parametrize(
    ("field", "written"),
    [
        ({"type": "number"}, "float"),
        ({"type": "boolean"}, "bool"),
        ({"type": "array", "items": {"type": "string"}}, "List[Union[]]"),
        ({"type": ["string", "integer"]}, "Union[str,int]"),
        ({"enum": ["a", "b"]}, "Union[]"),
        ({"type": "object", "additionalProperties": {"type": "integer"}}, "Dict[str, int]"),
        ({"type": "object", "additionalProperties": True}, "Dict[str, Union[]]"),
    ],
)
def test_r_plus_python_types_match_the_template(field: dict[str, Any], written: str) -> None:
    """The template's type names, quirks included (an array's item type is lost: the macro
    reads the dict's ``items`` method)."""
    tools = schema_tool({"a": {**field, "description": "A."}, "b": {"type": "string"}}, ["b"])
    tools[0]["function"]["parameters"]["properties"]["b"]["description"] = "B."
    messages = [Message("user", "Hi"), Message("assistant", "Hello")]
    ours = tooletta.render_conversation(messages, model=R_PLUS, tools=tools)
    assert ours == r_plus_template(messages, tools)
    assert f"def f(a: Optional[{written}] = None, b: str) -> List[Dict]:" in ours


@pytest.mark.parametrize(
    ("field", "written"),
    [
        ({"type": "object"}, "Dict[str, Any]"),
        ({"type": ["string", "null"]}, "Union[str,None]"),
        ({"type": "null"}, "None"),
    ],
)
def test_r_plus_python_types_where_the_template_fails(field: dict[str, Any], written: str) -> None:
    """An object without ``additionalProperties`` makes the macro raise, and ``"null"`` makes
    it recurse until it fails: we write the type meant."""
    tools = schema_tool({"a": {**field, "description": "A."}}, ["a"])
    messages = [Message("user", "Hi"), Message("assistant", "Hello")]
    with pytest.raises(RenderError):
        r_plus_template(messages, tools)
    ours = tooletta.render_conversation(messages, model=R_PLUS, tools=tools)
    assert f"def f(a: {written}) -> List[Dict]:" in ours
    assert f"        a ({written}): A.\n" in ours


def test_r_plus_call_turn_has_no_end_token() -> None:
    """A turn with calls ends right after ``]```\n`` (the template writes no end-of-turn
    token there); its generated text ends there too, and it reads back."""
    messages, _ = sample_conversations()["tools_two_calls"]
    spans = render_spans(messages, model=R_PLUS, tools=DESCRIBED_TOOLS)
    assert "]```\n<|START_OF_TURN_TOKEN|><|SYSTEM_TOKEN|><results>" in spans.text
    (first, (start, end)), *_ = spans.generated_spans()
    assert first == 2 and spans.text[start:end].endswith("\n]```\n")
    assert spans.text[start:end].startswith("Let me check both.\nAction:")


def test_r_plus_trims_texts() -> None:
    messages = [
        Message("system", " kept as is "),
        Message("user", " hi\n"),
        Message("assistant", " sure ", tool_calls=[ToolCall("get_time", {"tz": "UTC"})]),
        Message("tool", "\n12:00 "),
        Message("assistant", " noon "),
    ]
    check_matches_template(
        R_PLUS_TEMPLATE.read_text(), messages, model=R_PLUS, tools=DESCRIBED_TOOLS, tokens=TOKENS
    )
    back = tooletta.parse_conversation(
        tooletta.render_conversation(messages, model=R_PLUS, tools=DESCRIBED_TOOLS), model=R_PLUS
    )
    assert [m.content for m in back] == [" kept as is ", "hi", "sure", "12:00", "noon"]


def test_r_plus_reasoning_has_no_place() -> None:
    with pytest.raises(RenderError):
        tooletta.render([ToolCall("get_time", {})], model=R_PLUS, reasoning="plan")


def test_r_plus_legacy_tool_definitions_are_refused() -> None:
    tools = [{**SAMPLE_TOOLS[1], "parameter_definitions": {}}]
    with pytest.raises(RenderError):
        tooletta.render_conversation([Message("user", "Hi")], model=R_PLUS, tools=tools)


test_r_plus_round_trip = round_trip_property(R_PLUS, max_examples=60)


def test_r_plus_end_call_turns_writes_the_end_token_after_calls() -> None:
    """``end_call_turns`` (not the template's text): the end token after a turn with calls
    too, so training data teaches the model to stop there; it reads back the same."""
    messages, _ = sample_conversations()["reasoning_multi_turn"]
    theirs = r_plus_template(messages, DESCRIBED_TOOLS)
    spans = render_spans(messages, model=R_PLUS, tools=DESCRIBED_TOOLS, end_call_turns=True)
    assert spans.text == theirs.replace("\n]```\n", "\n]```\n<|END_OF_TURN_TOKEN|>")
    turns = [spans.text[s:e] for _, (s, e) in spans.generated_spans()]
    assert len(turns) == 4 and all(t.endswith("<|END_OF_TURN_TOKEN|>") for t in turns)
    back = tooletta.parse_conversation(spans.text, model=R_PLUS)
    assert back == tooletta.parse_conversation(theirs, model=R_PLUS)
