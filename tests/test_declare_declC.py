"""Core declarations added for the GLM and Mistral formats, written and read back through toy
formats: :class:`tooletta.chat.ToolsTurn`, an opening system turn that holds the tool
declarations alone (``merge_system = False``), and :class:`tooletta.chat.ToolsBlock`, tool
declarations outside any turn, before one of them, and :class:`tooletta.chat.TruthyPrompt`,
a generation prompt whose switch is read by its truth (GLM-5.2)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message
from tooletta.chat import (
    ChatFormat,
    Prompt,
    SystemBlock,
    ToolsBlock,
    ToolsTurn,
    TruthyPrompt,
    Turn,
    render_format,
    roles,
)
from tooletta.chat.conversation import conversation
from tooletta.chat.parse import parse_format

HEAD = "# Tools\n"
TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {}}}]


def _declare(tools: Sequence[Mapping[str, Any]]) -> str:
    return HEAD + "".join(str(t["function"]["name"]) + "\n" for t in tools) + "# End"


BLOCK = ToolsTurn(_declare, head=HEAD)


class ToyChat(ChatFormat):
    """GLM-like: the declarations in a system turn of their own, every system message a turn
    of its own."""

    name = "toy_tools_turn"
    turns = roles(
        system=Turn("<S>", "</S>"),
        user=Turn("<U>", "</U>"),
        assistant=Turn("<A>", "</A>"),
    )
    end_of_turn = "</A>"
    merge_system = False
    system_block = BLOCK


def test_it_writes_the_declarations_or_no_turn() -> None:
    assert BLOCK.write(None, TOOLS) == HEAD + "f\n# End"
    assert BLOCK.write(None, []) is None


def test_it_reads_the_declarations_as_no_message() -> None:
    assert BLOCK.read(HEAD + "f\n# End") is None


def test_a_system_message_holding_the_head_is_read_whole() -> None:
    body = "Be brief.\n\n" + HEAD + "f\n# End"
    assert BLOCK.read(body) == body
    # where a SystemBlock reads the message before the declarations it holds
    assert SystemBlock(_declare, head=HEAD).read(body) == "Be brief."


def test_a_block_without_declarations_reads_every_body_whole() -> None:
    assert ToolsTurn(None, head=HEAD).read(HEAD) == HEAD
    assert ToolsTurn(_declare).read(HEAD) == HEAD


@given(st.text())
def test_any_body_not_starting_with_the_head_reads_as_written(body: str) -> None:
    if not body.startswith(HEAD):
        assert BLOCK.read(body) == body


@given(st.lists(st.from_regex(r"[a-z]{1,8}", fullmatch=True), max_size=4))
def test_written_declarations_read_back_as_no_message(names: list[str]) -> None:
    tools = [{"type": "function", "function": {"name": n, "parameters": {}}} for n in names]
    written = BLOCK.write(None, tools)
    if not names:
        assert written is None
    else:
        assert written is not None
        assert BLOCK.read(written) is None


_SYSTEM = st.text(st.characters(blacklist_characters="<>"), min_size=1)


@settings(deadline=None)  # the first example loads the dialect
@given(_SYSTEM, st.booleans())
def test_a_format_reads_its_system_message_back(system: str, tools: bool) -> None:
    """With tools the declarations are the first turn (no message), the system message the
    next; without, the system message is the first turn, read whole (even holding the head)."""
    fmt = ToyChat()
    dialect = tooletta.get_dialect("hermes")
    system = system + "\n\n" + HEAD + "f\n# End"
    messages = [Message("system", system), Message("user", "hi")]
    declared = TOOLS if tools else []
    text = render_format(fmt, dialect, messages, declared, False, {}).text
    opening = "<S>" + HEAD + "f\n# End</S>" if tools else ""
    assert text == opening + "<S>" + system + "</S><U>hi</U>"
    assert parse_format(fmt, dialect, text, declared) == fmt.expressible(messages)


# -- ToolsBlock ------------------------------------------------------------------------------

OPEN, CLOSE = "[TOOLS]", "[/TOOLS]"


def _block(tools: Sequence[Mapping[str, Any]]) -> str:
    return OPEN + ",".join(str(t["function"]["name"]) for t in tools) + CLOSE


class ToyBlockChat(ChatFormat):
    """Mistral-like: the tools block before the last user turn, no assistant header."""

    name = "toy_tools_block"
    bos = "<s>"
    turns = roles(
        system=Turn("[S]", "[/S]"),
        user=Turn("[U]", "[/U]"),
        assistant=Turn("", "</s>"),
    )
    end_of_turn = "</s>"
    tools_block = ToolsBlock(_block, head=OPEN, end=CLOSE, at="last_user")

    def implicit_role(self, previous: str | None) -> str | None:
        """The assistant turn has no header."""
        return "assistant"


class ToyFirstTurnChat(ToyBlockChat):
    """The tools block before the first turn after the system message."""

    name = "toy_tools_block_first"
    tools_block = ToolsBlock(_block, head=OPEN, end=CLOSE)


def _places(fmt: ChatFormat, roles_: Sequence[str], tools: bool = True) -> list[int]:
    messages = [Message(r, "x") for r in roles_]
    ctx = conversation(messages, TOOLS if tools else [], {}, None)
    return [i for i in range(len(messages) + 1) if fmt.before_turn(i, ctx)]


def test_the_block_stands_before_the_last_user_turn() -> None:
    fmt = ToyBlockChat()
    assert _places(fmt, ["system", "user", "assistant", "user", "assistant"]) == [3]
    assert _places(fmt, ["system", "assistant"]) == []
    assert _places(fmt, ["user"], tools=False) == []


def test_the_block_stands_before_the_first_turn_after_the_system_message() -> None:
    fmt = ToyFirstTurnChat()
    assert _places(fmt, ["system", "user", "assistant", "user"]) == [1]
    assert _places(fmt, ["user", "assistant"]) == [0]
    assert _places(fmt, ["developer", "user"]) == [0]
    assert _places(fmt, ["system"]) == [1]  # after the last message: before the prompt
    assert _places(fmt, []) == [0]


def test_the_parser_skips_the_block_only_where_it_starts() -> None:
    block = ToolsBlock(_block, head=OPEN, end=CLOSE)
    text = "ab" + _block(TOOLS) + "[U]"
    assert block.skip(text, 2) == len(text) - 3
    assert block.skip(text, 0) == 0
    assert block.skip("ab" + OPEN + "f", 2) == 2  # never closed: nothing skipped


@settings(deadline=None)
@given(
    st.lists(st.sampled_from(["user", "assistant"]), min_size=1, max_size=5),
    st.booleans(),
    st.booleans(),
)
def test_a_format_renders_and_reads_its_block_back(
    roles_: list[str], system: bool, first: bool
) -> None:
    fmt = ToyFirstTurnChat() if first else ToyBlockChat()
    dialect = tooletta.get_dialect("hermes")
    messages = [Message("system", "s")] if system else []
    messages += [Message(r, r[0] * 3) for r in roles_]
    text = render_format(fmt, dialect, messages, TOOLS, False, {}).text
    assert text.count(_block(TOOLS)) == (1 if first or "user" in roles_ else 0)
    assert parse_format(fmt, dialect, text, TOOLS) == fmt.expressible(messages)


# -- TruthyPrompt ----------------------------------------------------------------------------

PROMPT = TruthyPrompt(on="<think>", off="<think></think>")


def test_a_truthy_switch_is_off_for_every_false_value() -> None:
    for value in (False, None, 0, ""):
        assert PROMPT.text("<A>", {"enable_thinking": value}) == "<A><think></think>"
    assert PROMPT.text("<A>", {}) == "<A><think>"
    assert PROMPT.text("<A>", {"enable_thinking": "yes"}) == "<A><think>"
    # where a Prompt turns it off only for False
    assert Prompt(on="<think>", off="<think></think>").text("<A>", {"enable_thinking": None}) == (
        "<A><think>"
    )


def test_a_truthy_switch_that_defaults_off() -> None:
    prompt = TruthyPrompt(on="on", off="off", switch="thinking", default=False)
    assert prompt.text("", {}) == "off"
    assert prompt.text("", {"thinking": 1}) == "on"
    assert prompt.other_options() == ({"thinking": True},)


class ToyPromptChat(ToyChat):
    """A format declaring a truthy prompt: its other option set comes from it."""

    name = "toy_truthy_prompt"
    prompt = PROMPT


def test_a_format_reads_either_prompt_back_as_no_message() -> None:
    fmt = ToyPromptChat()
    assert fmt.prompt_options == ({"enable_thinking": False},)
    dialect = tooletta.get_dialect("hermes")
    messages = [Message("user", "hi")]
    for value in (True, None):
        text = render_format(fmt, dialect, messages, [], True, {"enable_thinking": value}).text
        assert text.endswith("<A><think>" if value else "<A><think></think>")
        assert parse_format(fmt, dialect, text, []) == messages
