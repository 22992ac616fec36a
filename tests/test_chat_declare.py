"""The declarations of :mod:`tooletta.chat.declare` write what they read back.

Each conversation format using them is checked byte for byte against its real template by
its plugin's tests; here the declarations themselves: every combination of a system message
(absent, empty, text) and tools (none, some), written and read back, gives the message the
format's text carries; the prompt switch; the history rules; the tools turn's skipping.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat import ChatFormat, Prompt, Reasoning, SystemBlock, ToolsBlock, Turn, keeps
from tooletta.chat.declare import KEEP_RULES

HEAD = "# Tools\n<tools>\n"
END = "</tools>"
TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {}}}]


def declare(tools: Sequence[Mapping[str, Any]]) -> str:
    return HEAD + "".join(str(t["function"]["name"]) + "\n" for t in tools) + END


BLOCKS = {
    "after": SystemBlock(declare, head=HEAD),
    "after_default": SystemBlock(declare, head=HEAD, default="You are X."),
    "after_default_with_tools": SystemBlock(
        declare, head=HEAD, default="You are X.", default_with_tools=True
    ),
    "first": SystemBlock(declare, head=HEAD, end=END, tools_first=True, empty_joins=False),
    "always": SystemBlock(declare, head=HEAD, always=True, empty_turn=False, empty_joins=False),
    "truthy": SystemBlock(declare, head=HEAD, joiner="\n", empty_is_none=True),
    "none": SystemBlock(),
}

systems = st.one_of(
    st.none(),
    st.just(""),
    st.text(st.characters(blacklist_categories=["Cs"]), max_size=20).filter(
        lambda s: HEAD not in s and END not in s
    ),
)


def carried(block: SystemBlock, system: str | None, tools: list[Any]) -> str | None:
    """What the text carries of ``system``: none for the default or an empty message the
    block writes as none; else the message."""
    if system is None:
        return None
    if system == "" and block.empty_is_none:
        return None
    is_default = block.default is not None and system == block.default
    if is_default and (tools or not block.default_with_tools):
        return None
    if system == "" and block.always and not block.empty_turn:
        return None
    if system == "" and tools and block.tools is not None and not block.empty_joins:
        return None
    return system


@pytest.mark.parametrize("name", sorted(BLOCKS))
@given(system=systems, with_tools=st.booleans())
def test_system_block_reads_back_what_it_writes(
    name: str, system: str | None, with_tools: bool
) -> None:
    block = BLOCKS[name]
    tools = TOOLS if with_tools else []
    body = block.write(system, tools)
    expected = carried(block, system, tools)
    if body is None:
        assert expected is None or (expected == "" and not block.empty_turn)
        return
    assert block.read(body) == expected


def test_system_block_layouts() -> None:
    assert BLOCKS["after"].write("S", TOOLS) == "S\n\n" + declare(TOOLS)
    assert BLOCKS["after"].write(None, TOOLS) == declare(TOOLS)
    assert BLOCKS["after"].write("", TOOLS) == "\n\n" + declare(TOOLS)
    assert BLOCKS["first"].write("S", TOOLS) == declare(TOOLS) + "\n\nS"
    assert BLOCKS["first"].write("", TOOLS) == declare(TOOLS)
    assert BLOCKS["after_default_with_tools"].write(None, []) is None
    assert BLOCKS["after_default_with_tools"].write(None, TOOLS) == "You are X.\n\n" + declare(
        TOOLS
    )
    assert BLOCKS["after_default"].write(None, []) == "You are X."
    assert BLOCKS["always"].write(None, []) == ""
    assert BLOCKS["truthy"].write("", []) is None
    assert BLOCKS["truthy"].write("S", TOOLS) == "S\n" + declare(TOOLS)
    assert BLOCKS["none"].write("S", TOOLS) == "S"


def test_prompt_switch() -> None:
    qwen3 = Prompt(off="<think>\n\n</think>\n\n")
    assert qwen3.text("H", {}) == "H"
    assert qwen3.text("H", {"enable_thinking": False}) == "H<think>\n\n</think>\n\n"
    assert qwen3.text("H", {"enable_thinking": None}) == "H"  # Jinja's `is false`
    assert qwen3.other_options() == ({"enable_thinking": False},)
    gemma = Prompt(on="<|think|>", switch="enable_thinking", default=False, head="M")
    assert gemma.text("H", {}) == "M"
    assert gemma.text("H", {"enable_thinking": 1}) == "M<|think|>"
    assert Prompt(on="x", off="x").other_options() == ()


def test_prompt_options_are_derived() -> None:
    class Fmt(ChatFormat):
        name = "declare-test"
        turns: ClassVar[Mapping[str, Turn]] = {}
        prompt = Prompt(on="<think>\n", off="<think></think>")

    assert Fmt.prompt_options == ({"enable_thinking": False},)


def _messages(roles: str) -> list[Message]:
    by = {
        "s": Message("system", "s"),
        "u": Message("user", "u"),
        "r": Message("user", "<tool_response>\nx\n</tool_response>"),
        "a": Message("assistant", "a", reasoning="r"),
        "c": Message("assistant", "", tool_calls=[ToolCall("f", {})], reasoning="r"),
        "t": Message("tool", "x"),
    }
    return [by[c] for c in roles]


@pytest.mark.parametrize(
    ("rule", "roles", "kept"),
    [
        ("all", "uaua", [1, 3]),
        ("none", "uaua", []),
        ("after_last_user", "uaucta", [3, 5]),
        ("after_last_user", "cta", [0, 2]),
        ("after_last_query", "uacra", [1, 2, 4]),
        ("after_last_query", "ra", []),
        ("last", "uaua", [3]),
        ("last", "uau", []),
        ("last_assistant", "uauat", [3]),
        ("with_calls", "uactua", [2]),
    ],
)
def test_keep_rules(rule: str, roles: str, kept: list[int]) -> None:
    messages = _messages(roles)
    assistants = [i for i, m in enumerate(messages) if m.role == "assistant"]
    assert [i for i in assistants if keeps(rule, i, messages)] == kept


@pytest.mark.parametrize("rule", KEEP_RULES)
def test_kept_in_agrees_with_keeps_reasoning(rule: str) -> None:
    from tooletta.chat.conversation import conversation

    class Fmt(ChatFormat):
        name = "declare-keep"
        turns: ClassVar[Mapping[str, Turn]] = {}
        reasoning = Reasoning("<think>", "</think>", keep=rule)  # type: ignore[arg-type]

    fmt = Fmt()
    messages = _messages("suacrtauca")
    ctx = conversation(messages, (), {}, None)
    for index, message in enumerate(messages):
        if message.role == "assistant":
            assert fmt.kept_in(index, ctx) == fmt.keeps_reasoning(index, messages)


def test_tools_block_written_once_after_the_system_message_and_skipped() -> None:
    from tooletta.chat.conversation import conversation

    block = ToolsBlock(declare, HEAD, END)
    messages = _messages("sua")
    ctx = conversation(messages, TOOLS, {}, None)
    written = [block.write(i, ctx) for i in range(len(messages) + 1)]
    assert written == ["", declare(TOOLS), "", ""]
    assert block.write(0, conversation(_messages("ua"), TOOLS, {}, None)) == declare(TOOLS)
    assert block.write(1, conversation(messages, [], {}, None)) == ""
    text = "x" + declare(TOOLS) + "y"
    assert block.skip(text, 1) == len(text) - 1
    assert block.skip(text, 0) == 0
    assert block.skip("x" + HEAD + "unclosed", 1) == 1


@given(label=st.text(max_size=12), text=st.text(max_size=20))
def test_result_head_reads_back_the_content_or_refuses(label: str, text: str) -> None:
    from tooletta import RenderError
    from tooletta.chat import ResultHead
    from tooletta.chat.conversation import conversation

    head = ResultHead(lambda index, ctx: label, "[TOOL_CONTENT]")
    ctx = conversation([Message("tool", text)], (), {}, None)
    if "[TOOL_CONTENT]" in label:
        with pytest.raises(RenderError, match="would not read back"):
            head.write(0, ctx, text, "fmt")
        return
    written = head.write(0, ctx, text, "fmt")
    assert written == label + "[TOOL_CONTENT]" + text
    assert head.read(written) == text


def test_a_system_message_holding_the_declarations_head_is_refused_not_cut() -> None:
    """A system message holding the joiner and the declarations' head would read back cut
    there (Qwen3's turn read ``"Be brief."`` back from ``"Be brief.\\n\\n# Tools..."``): the
    block refuses it, as every format declaring a system block does."""
    from tooletta import RenderError

    block = BLOCKS["after"]
    with pytest.raises(RenderError, match="would not read back"):
        block.write("Be brief.\n\n" + HEAD + "x", TOOLS)
    assert block.read(block.write("Be brief. " + HEAD, TOOLS) or "") == "Be brief. " + HEAD

    hermes = pytest.importorskip("tooletta_dialect_hermes.chat")
    messages = [Message("system", "Be brief.\n\n" + hermes.QWEN_TOOLS_HEAD), Message("user", "hi")]
    tools = [{"type": "function", "function": {"name": "f", "parameters": {}}}]
    with pytest.raises(RenderError, match="would not read back"):
        tooletta.render_conversation(messages, model="Qwen/Qwen3-8B", tools=tools)
