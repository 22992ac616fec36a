"""A format whose template writes no tools (``ChatFormat.writes_tools = False``) refuses tool
declarations, calls and tool results, typed, on every render path; the kit's check of that
refusal fails where there is none to see.

The first-party formats declaring it (Mistral Small 3, Large 2411, Codestral) are checked
against their own templates, and identified on them, by the Mistral plugin's tests
(``test_chat_older.py``); the cross-format tests (``test_conversations_all``, the
conversation-law matrix, ``test_training``) assert their refusal where they render tools.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

import pytest

import tooletta
from support import bracket_turns
from tooletta import DialectInfo, Message, ParseResult, RenderError, ToolCall, plugins
from tooletta.chat import ChatFormat, Conversation, Turn, render_spans
from tooletta.chat.notools import ToolsRefusedError, uses_tools, writes_tools
from tooletta.testing.conversation_law import (
    check_conversation_law,
    check_tools_refused,
    tool_free,
)

PLUGIN = "no-tools-toy"
TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {}}}]
CALL = ToolCall("f", {"a": 1})
USER = Message("user", "hi")
CALLING = Message("assistant", "Looking.", tool_calls=[CALL])
RESULT = Message("tool", "42")
ANSWER = Message("assistant", "yo")


class _NoTools(ChatFormat):
    """Bracketed turns, no ``tool`` turn, and the declaration."""

    name = "toy_no_tools"
    turns: ClassVar[Mapping[str, Turn]] = {k: v for k, v in bracket_turns().items() if k != "tool"}
    end_of_turn = "<e>"
    writes_tools = False


class _Tools(ChatFormat):
    """The same layout writing tools (its results in ``[T]`` turns)."""

    name = "toy_tools"
    turns = bracket_turns()
    end_of_turn = "<e>"


class _Dialect:
    info = DialectInfo(name="toy_no_tools_calls", markers=("<<toy-no-tools>>",))
    chat_formats = (_NoTools(), _Tools())

    def parse(self, text: str, tools: Any = None) -> ParseResult:
        head, sep, rest = text.partition("<<toy-no-tools>>")
        calls = [ToolCall(rest, {"a": 1})] if sep else []
        return ParseResult(content=head, calls=calls, dialect=self.info.name)

    def render(self, calls: Any, content: str = "") -> str:
        return content + "".join("<<toy-no-tools>>" + c.name for c in calls)


class _Plugin:
    @tooletta.hookimpl
    def register_dialects(self, register: Any) -> None:
        register(_Dialect())


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    plugins.reset()
    tooletta.register_plugin(_Plugin(), name=PLUGIN)
    yield
    monkeypatch.undo()
    plugins.reset()


def test_the_declaration_is_read() -> None:
    assert ChatFormat.writes_tools is True and writes_tools(_Tools())
    assert not writes_tools(_NoTools())
    assert writes_tools(object())  # a format object from before the declaration
    assert uses_tools([USER], TOOLS) and uses_tools([USER, CALLING], None)
    assert uses_tools([USER, RESULT], ()) and not uses_tools([USER, ANSWER], [])


@pytest.mark.parametrize(
    ("messages", "tools", "what"),
    [
        ([USER], TOOLS, r"^toy_no_tools: .*writes no tool declarations"),
        ([USER, CALLING, ANSWER], None, r"^message 1: toy_no_tools: .*writes no tool calls"),
        ([USER, ANSWER, RESULT], None, r"^message 2: toy_no_tools: .*writes no tool results"),
    ],
)
def test_tools_calls_and_results_are_refused_on_every_path(
    messages: list[Message], tools: Any, what: str
) -> None:
    for render in (tooletta.render_conversation, render_spans):
        for prompt in (False, True):
            with pytest.raises(ToolsRefusedError, match=what):
                render(messages, dialect="toy_no_tools", tools=tools, add_generation_prompt=prompt)
    check_tools_refused(messages, dialect="toy_no_tools", tools=tools)
    assert check_conversation_law(messages, dialect="toy_no_tools", tools=tools) is None


def test_the_refusal_is_a_render_error_of_its_own_class() -> None:
    """Callers catching :class:`~tooletta.RenderError` keep working; the kit tells this
    refusal from the others by its class, not its message."""
    assert issubclass(ToolsRefusedError, RenderError)
    with pytest.raises(ToolsRefusedError) as caught:
        tooletta.render_conversation([USER, CALLING], dialect="toy_no_tools")
    assert type(caught.value) is ToolsRefusedError
    with pytest.raises(RenderError) as other:
        tooletta.render_conversation(
            [USER, Message("assistant", "yo\ud800")], dialect="toy_no_tools"
        )
    assert not isinstance(other.value, ToolsRefusedError)


def test_the_model_turn_refuses_calls_too() -> None:
    """``ChatFormat.calls_text`` (what ``render(calls, model=...)`` writes the turn with)
    refuses calls of a format that writes none, and writes content alone."""
    fmt = _NoTools()
    dialect = tooletta.get_dialect("toy_no_tools_calls")
    with pytest.raises(ToolsRefusedError, match=r"toy_no_tools: .*writes no tool calls"):
        fmt.calls_text(dialect, [CALL], "Looking.")
    assert fmt.calls_text(dialect, [], "Looking.") == "Looking."
    ctx = Conversation([CALLING], [], {}, dialect)
    with pytest.raises(RenderError, match="writes no tool calls"):
        fmt.turn_body(CALLING, True, True, ctx)


def test_without_tools_it_renders_and_reads_back() -> None:
    messages = tool_free([Message("system", "Be brief."), USER, CALLING, RESULT, ANSWER])
    assert [m.role for m in messages] == ["system", "user", "assistant"]
    text = check_conversation_law(messages, dialect="toy_no_tools")
    assert text == "[S]Be brief.[/S][U]hi[/U][A]yo<e>"


def test_the_kit_check_fails_where_nothing_is_refused() -> None:
    """``check_tools_refused`` is an assertion that can fail: a conversation the format
    writes (no tools in it), or a format that writes tools."""
    with pytest.raises(AssertionError, match="yet wrote"):
        check_tools_refused([USER, ANSWER], dialect="toy_no_tools")
    with pytest.raises(AssertionError, match="writes tools"):
        check_tools_refused([USER, CALLING], dialect="toy_tools", tools=TOOLS)
    assert tooletta.render_conversation([USER, CALLING, RESULT], dialect="toy_tools").endswith(
        "[T]42[/T]"
    )
