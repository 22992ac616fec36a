"""The opening system turn's own footer, :attr:`SystemBlock.footer
<tooletta.chat.SystemBlock.footer>`: written after the opening turn's body in place of the
system turn's footer (which later system turns keep), ``""`` for none (Ring-2.5-1T never
closes its opening turn), and read back by the parser up to it. Toy formats rendered by both
renderers and parsed back, hypothesis round trips, the text written for each case."""

from __future__ import annotations

from typing import Any, ClassVar

from hypothesis import given, settings
from hypothesis import strategies as st

from tooletta import Message, ToolCall, catalog
from tooletta.chat import ChatFormat, ClosedSystemBlock, Prompt, SystemBlock, Turn, roles
from tooletta.chat.format import opening_footer
from tooletta.chat.parse import parse_format
from tooletta.chat.render import render_format, render_text

HEAD = "## Tools\n"
TOOLS = [{"type": "function", "function": {"name": "f"}}]


def _declarations(tools: Any) -> str:
    return HEAD + ", ".join(t["function"]["name"] for t in tools) + ".\n\n"


class _UnclosedChat(ChatFormat):
    """``[S]`` system turns closed by ``[/S]``, but the opening one never closed (its
    ``footer`` ``""``): the message and a blank line, then the declarations (ending with a
    blank line), the turn running to the next header (Ring-2.5-1T's layout)."""

    name = "toy_opening_unclosed"
    turns = roles(
        system=Turn("[S]", "[/S]"),
        user=Turn("[U]", "[/U]"),
        assistant=Turn("[A]", "<e>"),
        tool=Turn("[T]", "[/T]"),
    )
    end_of_turn = "<e>"
    system_block: ClassVar[SystemBlock | None] = ClosedSystemBlock(
        _declarations, head=HEAD, joiner="", system_end="\n\n", empty_is_none=True, footer=""
    )


class _OtherFooterChat(_UnclosedChat):
    """:class:`_UnclosedChat` whose opening turn is closed by ``[end]``, not ``[/S]``."""

    name = "toy_opening_other_footer"
    system_block = SystemBlock(_declarations, head=HEAD, joiner="\n", footer="[end]")


class _DeclaredChat(_UnclosedChat):
    """:class:`_UnclosedChat` with no footer of its own: the system turn's closes it."""

    name = "toy_opening_declared"
    system_block = SystemBlock(_declarations, head=HEAD, joiner="\n")


class _PromptChat(_UnclosedChat):
    """:class:`_UnclosedChat` whose assistant header ends with a line break its generation
    prompt leaves out (Ring-2.5-1T's): an unclosed opening turn ends before the prompt."""

    name = "toy_opening_prompt"
    turns = roles(
        system=Turn("[S]", "[/S]"),
        user=Turn("[U]", "[/U]"),
        assistant=Turn("[A]\n", "<e>"),
        tool=Turn("[T]", "[/T]"),
    )
    prompt: ClassVar[Prompt | None] = Prompt(head="[A]")


FORMATS = [_UnclosedChat(), _OtherFooterChat(), _DeclaredChat(), _PromptChat()]
words = st.text(alphabet=st.sampled_from(["a", "b", " ", "\n", "#"]), max_size=6)


@st.composite
def _conversations(draw: st.DrawFn) -> list[Message]:
    messages: list[Message] = []
    if draw(st.booleans()):
        messages.append(Message("system", draw(words)))
    for _ in range(draw(st.integers(0, 4))):
        messages.append(Message(draw(st.sampled_from(["user", "system"])), draw(words)))
        calls = [ToolCall("f", {}, "c1") for _ in range(draw(st.integers(0, 1)))]
        messages.append(Message("assistant", draw(words).strip(), tool_calls=calls))
        for _ in calls:
            messages.append(Message("tool", draw(words)))
    return messages


def _render(fmt: ChatFormat, messages: list[Message], tools: Any, prompt: bool = False) -> str:
    dialect = catalog.get_dialect("apriel")
    text = render_text(fmt, dialect, messages, tools, prompt, {})
    assert render_format(fmt, dialect, messages, tools, prompt, {}).text == text
    return text


def test_an_unclosed_opening_turn_and_closed_later_ones() -> None:
    fmt = FORMATS[0]
    messages = [Message("system", "s"), Message("user", "q"), Message("system", "late")]
    assert _render(fmt, messages, []) == "[S]s\n\n[U]q[/U][S]late[/S]"
    assert _render(fmt, messages, TOOLS) == "[S]s\n\n## Tools\nf.\n\n[U]q[/U][S]late[/S]"
    assert _render(fmt, messages[1:], TOOLS) == "[S]## Tools\nf.\n\n[U]q[/U][S]late[/S]"
    assert _render(fmt, messages[1:], []) == "[U]q[/U][S]late[/S]"
    assert _render(fmt, messages[:1], [], prompt=True) == "[S]s\n\n[A]"
    dialect = catalog.get_dialect("apriel")
    for tools in ([], TOOLS):
        text = _render(fmt, messages, tools)
        assert parse_format(fmt, dialect, text, tools) == messages


def test_another_footer_closes_only_the_opening_turn() -> None:
    fmt = FORMATS[1]
    messages = [Message("system", "s"), Message("user", "q"), Message("system", "late")]
    text = _render(fmt, messages, TOOLS)
    assert text == "[S]s\n## Tools\nf.\n\n[end][U]q[/U][S]late[/S]"
    assert parse_format(fmt, catalog.get_dialect("apriel"), text, TOOLS) == messages
    assert "[end]" in fmt.markup()


def test_no_footer_of_its_own_is_the_system_turns() -> None:
    fmt = FORMATS[2]
    assert fmt.system_block is not None and fmt.system_block.footer is None
    assert opening_footer(fmt, fmt.turns["system"]) == "[/S]"
    assert opening_footer(FORMATS[0], FORMATS[0].turns["system"]) == ""
    assert _render(fmt, [Message("system", "s"), Message("user", "q")], []) == "[S]s[/S][U]q[/U]"


def test_an_unclosed_opening_turn_ends_before_a_generation_prompt() -> None:
    """The prompt ``[A]`` is no header (``[A]\n`` is): the opening turn, which has no
    footer, is read up to it, not through it."""
    fmt, dialect = FORMATS[3], catalog.get_dialect("apriel")
    messages = [Message("system", "s")]
    for tools, declared in (([], ""), (TOOLS, "## Tools\nf.\n\n")):
        text = _render(fmt, messages, tools, prompt=True)
        assert text == f"[S]s\n\n{declared}[A]"
        assert parse_format(fmt, dialect, text, tools) == messages


def test_a_later_system_turn_first_is_no_opening_turn() -> None:
    """An empty first system message and no tools: no opening turn, so the text starts with
    a later system message's turn, closed by the system turn's footer: read as that."""
    dialect = catalog.get_dialect("apriel")
    messages = [Message("system", ""), Message("system", "late"), Message("user", "q")]
    for fmt in FORMATS[0], FORMATS[3]:
        text = _render(fmt, messages, [])
        assert text == "[S]late[/S][U]q[/U]"
        assert parse_format(fmt, dialect, text, []) == messages[1:] == fmt.expressible(messages)


@settings(deadline=None)  # (the first example loads the plugins)
@given(st.sampled_from(FORMATS), _conversations(), st.booleans(), st.booleans())
def test_the_opening_footer_reads_back(
    fmt: ChatFormat, messages: list[Message], with_tools: bool, prompt: bool
) -> None:
    """Any conversation (system messages first and later, holding line breaks): both
    renderers agree, and the text reads back as :meth:`expressible` says."""
    tools = TOOLS if with_tools else []
    text = _render(fmt, messages, tools, prompt)
    dialect = catalog.get_dialect("apriel")
    assert parse_format(fmt, dialect, text, tools) == fmt.expressible(messages)
