"""The declarations added for the Cohere, dots, Seed, Solar and Jamba (Apriel, Hunyuan)
formats: :class:`tooletta.chat.Prompt`'s ``off_values``, ``before`` and ``always`` (and the
default :meth:`ChatFormat.after_conversation` that reads them), and
:attr:`tooletta.chat.Reasoning.strip_first`."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tooletta import Message, render_conversation
from tooletta.chat import ChatFormat, Conversation, Prompt, Reasoning, Turn, roles
from tooletta.chat.render import render_format, render_text

HEADER = "<A>"


def test_off_values_name_the_values_that_turn_the_switch_off() -> None:
    prompt = Prompt(off="<off>", switch="effort", off_values=("low", "minimal"))
    assert prompt.text(HEADER, {"effort": "high"}) == HEADER
    assert prompt.text(HEADER, {"effort": "low"}) == HEADER + "<off>"
    assert prompt.text(HEADER, {"effort": "minimal"}) == HEADER + "<off>"
    assert prompt.text(HEADER, {}) == HEADER  # absent: the default (on)
    assert prompt.text(HEADER, {"effort": False}) == HEADER  # no false value turns it off
    assert prompt.other_options() == ({"effort": "low"},)


def test_off_values_compare_with_equality() -> None:
    prompt = Prompt(off="<zero>", switch="budget", off_values=(0,))
    assert prompt.text(HEADER, {"budget": 0}) == HEADER + "<zero>"
    assert prompt.text(HEADER, {"budget": 0.0}) == HEADER + "<zero>"
    assert prompt.text(HEADER, {"budget": -1}) == HEADER
    assert prompt.text(HEADER, {"budget": 512}) == HEADER


@given(st.one_of(st.booleans(), st.none(), st.integers(), st.text(max_size=4)))
def test_without_off_values_the_switch_reads_as_before(value: Any) -> None:
    on = Prompt(on="+", off="-")
    off = Prompt(on="+", off="-", default=False)
    options = {"enable_thinking": value}
    assert on.thinking(options) == (value is not False)
    assert off.thinking(options) == bool(value)


def test_before_is_written_before_the_prompt_and_alone_without_one() -> None:
    prompt = Prompt(before="<instr>")
    assert prompt.text(HEADER, {}) == "<instr>" + HEADER
    assert prompt.ends()
    assert prompt.ending(HEADER, {}) == "<instr>"


def test_always_writes_the_whole_prompt_as_the_ending() -> None:
    prompt = Prompt(off="<plan/>", default=False, always=True)
    assert prompt.ending(HEADER, {}) == HEADER + "<plan/>"
    assert prompt.ending(HEADER, {"enable_thinking": True}) == HEADER
    assert not Prompt(on="<think>").ends()
    assert Prompt(on="<think>").ending(HEADER, {}) == ""


class _Plain(ChatFormat):
    name = "declA_plain"
    turns = roles(user=Turn("<U>", "</U>"), assistant=Turn(HEADER, "<E>"))
    end_of_turn = "<E>"


class _Always(_Plain):
    name = "declA_always"
    prompt = Prompt(off="<plan/>", default=False, always=True)


class _Before(_Plain):
    name = "declA_before"
    prompt = Prompt(before="<instr>")


class _Dialect:
    """A stand-in dialect that writes the content alone (no calls in these tests)."""

    def render(self, calls: Any, content: str = "") -> str:
        return content


def _both(fmt: ChatFormat, prompt: bool, options: dict[str, Any] | None = None) -> str:
    messages = [Message("user", "hi")]
    full = render_format(fmt, _Dialect(), messages, [], prompt, options or {}).text
    fast = render_text(fmt, _Dialect(), messages, [], prompt, options or {})
    assert full == fast
    return full


def test_the_default_after_conversation_reads_the_prompt_declaration() -> None:
    assert _both(_Plain(), False) == "<U>hi</U>"
    assert _both(_Always(), False) == "<U>hi</U>" + HEADER + "<plan/>"
    assert _both(_Always(), True) == "<U>hi</U>" + HEADER + "<plan/>"
    assert _both(_Always(), False, {"enable_thinking": True}) == "<U>hi</U>" + HEADER
    assert _both(_Before(), False) == "<U>hi</U><instr>"
    assert _both(_Before(), True) == "<U>hi</U><instr>" + HEADER
    ctx = Conversation([], [], {}, None)
    assert _Always().generation_prompts(ctx) == (HEADER + "<plan/>", HEADER)


def test_prompt_options_derive_from_off_values() -> None:
    class _Effort(_Plain):
        name = "declA_effort"
        prompt = Prompt(off="<no/>", switch="effort", off_values=("low",))

    assert _Effort.prompt_options == ({"effort": "low"},)


class _Trimmed(_Plain):
    name = "declA_trimmed"
    reasoning = Reasoning("<t>", "</t>", strip=None, strip_first=True)


class _Kept(_Plain):
    name = "declA_kept"
    reasoning = Reasoning("<t>", "</t>", strip=None)


def test_strip_first_writes_no_block_for_blank_reasoning() -> None:
    assert _Trimmed().reasoning_text(" \n ", True, True) == ""
    assert _Trimmed().reasoning_text(" why \n", True, True) == "<t>why</t>"
    assert _Kept().reasoning_text(" \n ", True, True) == "<t></t>"  # the default is unchanged
    assert _Trimmed().reasoning_text("", False, True) == ""


@given(st.text(alphabet=" \n\tab", max_size=6))
def test_strip_first_is_the_block_of_the_stripped_reasoning(reasoning: str) -> None:
    stripped = reasoning.strip()
    expected = f"<t>{stripped}</t>" if stripped else ""
    assert _Trimmed().reasoning_text(reasoning, True, False) == expected


def test_a_format_with_an_ending_renders_through_the_public_api() -> None:
    text = render_conversation(
        [{"role": "user", "content": "hi"}], model="CohereForAI/c4ai-command-r7b-12-2024"
    )
    assert text.endswith(
        "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|><|START_THINKING|><|END_THINKING|>"
    )


class _NoReopen(_Plain):
    name = "declA_no_reopen"
    prompt = Prompt(on="<think>", after_assistant=False)


class _NoReopenEnding(_Plain):
    name = "declA_no_reopen_ending"
    prompt = Prompt(before="<instr>", after_assistant=False)


def _prompt(fmt: ChatFormat, messages: list[Message]) -> str:
    return fmt.generation_prompt(Conversation(messages, [], fmt.options, None, True))


def test_after_assistant_false_writes_only_the_ending_after_an_assistant_message() -> None:
    user, answer = Message("user", "hi"), Message("assistant", "ok")
    assert _prompt(_NoReopen(), [user]) == HEADER + "<think>"
    assert _prompt(_NoReopen(), [user, answer]) == ""
    assert _prompt(_NoReopen(), []) == ""
    assert _prompt(_NoReopenEnding(), [user]) == "<instr>" + HEADER
    assert _prompt(_NoReopenEnding(), [user, answer]) == "<instr>"
    assert _prompt(_Plain(), [user, answer]) == HEADER  # the default is unchanged
