"""The history declarations of :mod:`tooletta.chat.declare_history` (issue 20 item 6, the
DeepSeek, Hy3 and gpt-oss formats): system messages gathered in the opening turn
(:attr:`~tooletta.chat.ChatFormat.gather_system`), the content a template cuts at a marker
(:class:`~tooletta.chat.declare_history.ContentCut`), the generation prompt by the last
message's role (:class:`~tooletta.chat.declare_history.RolePrompt`) and the headerless
assistant turn read back (:attr:`~tooletta.chat.ChatFormat.implicit_roles`); and the keep rule
``"until_unprompted_answer"`` of :func:`tooletta.chat.keeps` (gpt-oss: the last answer keeps its
reasoning only when no generation prompt follows it).

Each is written and read by the same declaration: what a toy format renders with it reads back
as what the format says it carries (:meth:`~tooletta.chat.ChatFormat.expressible_for`).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support import bracket_turns, kind_message, rule_chat
from tooletta import Message, catalog
from tooletta.chat import ChatFormat, Conversation, Turn, keeps, render_format, roles
from tooletta.chat.declare import KEEP_RULES, implicit_after
from tooletta.chat.declare_history import ContentCut, RolePrompt, gathered_system, last_role
from tooletta.chat.parse import parse_format
from tooletta.chat.render import render_text
from tooletta.plugin import ContentCut as FaceCut
from tooletta.plugin import RolePrompt as FacePrompt

_HERMES = catalog.get_dialect("hermes")
_Unprompted = rule_chat("until_unprompted_answer")
_TEXT = st.text(st.sampled_from(list("ab c\n")), max_size=6)
_CUT_TEXT = st.lists(st.sampled_from(["a", "b", " ", "\n", "</think>"]), max_size=6).map("".join)


class _Gathering(ChatFormat):
    """A toy format in DeepSeek's manner: every system message at the start (a turn with a
    header and a footer here, so that a wrong placement shows), past answers cut after their
    last ``</think>``, a prompt by role."""

    name = "toy_gathering"
    turns = bracket_turns()
    end_of_turn = "<e>"
    gather_system = "\n\n"
    content_cut = ContentCut("</think>", last=True, lstrip="\n")
    prompt = RolePrompt(
        on="<think>",
        off="",
        switch="thinking",
        alias="enable_thinking",
        default=False,
        heads=(("tool", None),),
        otherwise="[A]",
        passed=frozenset({"system"}),
    )


def _message(kind: int, text: str) -> Message:
    role = ("system", "user", "assistant")[kind]
    return Message(role, text)


def _text(message: Message) -> str:
    """The content of a message these tests built from text (always a string)."""
    assert isinstance(message.content, str)
    return message.content


_MESSAGES = st.lists(st.tuples(st.integers(0, 2), _TEXT), max_size=7).map(
    lambda pairs: [_message(k, t) for k, t in pairs]
)


def test_the_face_exports_them() -> None:
    assert FaceCut is ContentCut
    assert FacePrompt is RolePrompt


# -- gather_system -------------------------------------------------------------------------


@given(_MESSAGES)
def test_gathered_system_messages_read_back_first(messages: list[Message]) -> None:
    fmt = _Gathering()
    texts = [_text(m) for m in messages if m.role == "system"]
    rendered = render_format(fmt, _HERMES, messages, (), False, {})
    if texts:
        assert rendered.text.startswith("[S]" + "\n\n".join(texts) + "[/S]")
    assert rendered.text.count("[S]") == (1 if texts else 0)
    assert render_text(fmt, _HERMES, messages, (), False, {}) == rendered.text
    ctx = Conversation(messages, (), fmt.options, _HERMES)
    assert parse_format(fmt, _HERMES, rendered.text, ()) == fmt.expressible_for(messages, ctx)


def test_a_later_system_message_writes_nothing_where_it_stands() -> None:
    messages = [Message("user", "q"), Message("system", "late"), Message("assistant", "a")]
    rendered = render_format(_Gathering(), _HERMES, messages, (), False, {})
    assert rendered.text == "[S]late[/S][U]q[/U][A]a<e>"
    assert rendered.span(1) == (-1, -1)
    assert _Gathering().expressible(messages) == [
        Message("system", "late"),
        Message("user", "q"),
        Message("assistant", "a"),
    ]


def test_gathered_system_joins_and_says_none() -> None:
    messages = [Message("system", "a"), Message("user", "q"), Message("system", "b")]
    assert gathered_system(messages, {"system"}, str, "|") == "a|b"
    assert gathered_system(messages[1:2], {"system"}, str, "|") is None


# -- ContentCut ------------------------------------------------------------------------------


@given(_CUT_TEXT, st.booleans(), st.sampled_from(["", "\n"]))
def test_the_cut_keeps_what_follows_the_marker(content: str, last: bool, lstrip: str) -> None:
    cut = ContentCut("</think>", last=last, lstrip=lstrip)
    got = cut.cut(Message("assistant", content)).content
    if "</think>" not in content:
        assert got == content
        return
    kept = content.rsplit("</think>", 1)[1] if last else content.split("</think>", 1)[1]
    assert got == kept.lstrip(lstrip)
    assert content.endswith(got)


def test_the_cut_applies_where_it_says() -> None:
    messages = [Message("user", "q"), Message("assistant", "x</think>a")]
    default = ContentCut("</think>")
    assert not default.applies(1, messages)  # the conversation's last message: as given
    assert default.applies(1, [*messages, Message("user", "q2")])
    only_first = ContentCut("</think>", where=lambda index, _: index == 0)
    assert only_first.over(messages) == messages  # the user message is never cut
    assert ContentCut("</think>").over([*messages, Message("user", "q")])[1].content == "a"


@given(st.lists(st.tuples(st.sampled_from(["q", "a"]), _CUT_TEXT), min_size=1, max_size=6))
def test_cut_history_reads_back_as_carried(pairs: list[tuple[str, str]]) -> None:
    messages = [Message("user" if k == "q" else "assistant", t) for k, t in pairs]
    fmt = _Gathering()
    text = render_format(fmt, _HERMES, messages, (), False, {}).text
    assert render_text(fmt, _HERMES, messages, (), False, {}) == text
    for index, message in enumerate(messages[:-1]):
        if message.role == "assistant" and "</think>" in _text(message):
            kept = _text(message).rsplit("</think>", 1)[1].lstrip("\n")
            assert fmt.expressible(messages)[index].content == kept
    ctx = Conversation(messages, (), fmt.options, _HERMES)
    assert parse_format(fmt, _HERMES, text, ()) == fmt.expressible_for(messages, ctx)


# -- RolePrompt ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roles_", "want"),
    [
        ((), "[A]"),
        (("user",), "[A]"),
        (("user", "assistant"), "[A]"),
        (("user", "tool"), ""),
        (("user", "tool", "system"), ""),  # a system message is passed over
        (("system",), "[A]"),
    ],
)
def test_the_prompt_depends_on_the_last_role(roles_: tuple[str, ...], want: str) -> None:
    messages = [Message(role, "x") for role in roles_]
    ctx = Conversation(messages, (), {}, None, True)
    assert _Gathering().generation_prompt(ctx) == want
    assert _Gathering().after_conversation(ctx) == ""


@pytest.mark.parametrize(
    ("options", "on"),
    [
        ({}, False),
        ({"thinking": True}, True),
        ({"enable_thinking": True}, True),
        ({"thinking": None, "enable_thinking": 1}, True),
        ({"thinking": False, "enable_thinking": True}, False),
        ({"enable_thinking": False}, False),
    ],
)
def test_the_alias_is_read_when_the_switch_is_not_given(options: dict[str, Any], on: bool) -> None:
    prompt = _Gathering.prompt
    assert isinstance(prompt, RolePrompt)
    assert prompt.thinking(options) is on
    ctx = Conversation([Message("user", "q")], (), options, None, True)
    assert _Gathering().generation_prompt(ctx) == ("[A]<think>" if on else "[A]")


def test_an_always_prompt_is_written_without_asking() -> None:
    prompt = RolePrompt(heads=(("user", "<go>"),), on="+", off="-", before="|", always=True)
    after_user = Conversation([Message("user", "q")], (), {}, None)
    after_answer = Conversation([Message("user", "q"), Message("assistant", "a")], (), {}, None)
    assert prompt.write(after_user, False) == "|<go>+"
    assert prompt.write(after_answer, True) == "|"
    assert RolePrompt(heads=(("user", "<go>"),)).write(after_user, False) == ""
    assert last_role([Message("user", "q"), Message("system", "s")], {"system"}) == "user"


def test_the_prompt_options_are_derived() -> None:
    assert _Gathering.prompt_options == ({"thinking": True},)


@given(_MESSAGES, st.booleans())
def test_a_prompt_reads_back_as_no_message(messages: list[Message], thinking: bool) -> None:
    fmt = _Gathering()
    options = {"enable_thinking": thinking}
    text = render_format(fmt, _HERMES, messages, (), True, options).text
    assert render_text(fmt, _HERMES, messages, (), True, options) == text
    ctx = Conversation(messages, (), {**fmt.options, **options}, _HERMES, True)
    assert parse_format(fmt, _HERMES, text, ()) == fmt.expressible_for(messages, ctx)


# -- implicit_roles --------------------------------------------------------------------------


class _Headless(ChatFormat):
    """A toy format whose assistant goes on without a header after tool results."""

    name = "toy_headless"
    turns = roles(user=Turn("[U]", "[/U]"), assistant=Turn("[A]", "<e>"), tool=Turn("[T]", "[/T]"))
    end_of_turn = "<e>"
    implicit_roles = implicit_after("tool")

    def header(self, index: int, ctx: Conversation) -> str:
        """Oddity (toy): no assistant header after tool results."""
        if index and ctx.messages[index - 1].role == "tool":
            return ""
        return super().header(index, ctx)


def test_the_headless_turn_reads_back_as_the_assistants() -> None:
    fmt = _Headless()
    assert fmt.implicit_role("tool") == "assistant"
    assert fmt.implicit_role("user") is None
    assert ChatFormat.implicit_role(fmt, None) is None
    messages = [Message("user", "q"), Message("tool", "r"), Message("assistant", "a")]
    text = render_format(fmt, _HERMES, messages, (), False, {}).text
    assert text == "[U]q[/U][T]r[/T]a<e>"
    assert parse_format(fmt, _HERMES, text, ()) == fmt.expressible(messages)


# -- the "until_unprompted_answer" history rule (gpt-oss) -----------------------------------


def test_the_unprompted_rule_is_declared() -> None:
    assert "until_unprompted_answer" in KEEP_RULES


@given(st.lists(st.integers(0, 3), min_size=1, max_size=10), st.booleans())
def test_the_last_answer_keeps_only_without_a_prompt(kinds: list[int], prompted: bool) -> None:
    messages = [kind_message(k) for k in kinds]
    ctx = Conversation(messages, (), {}, None, prompted)
    fmt = _Unprompted()
    last = len(messages) - 1
    for index, message in enumerate(messages):
        if message.role != "assistant":
            continue
        until = keeps("until_answer", index, messages)
        got = keeps("until_unprompted_answer", index, messages, ctx)
        if index == last and prompted and not message.tool_calls:
            assert got is False  # the answer before a prompt is history
        else:
            assert got is until
        assert fmt.kept_in(index, ctx) is got
        assert keeps("until_unprompted_answer", index, messages) is until  # no ctx: no prompt


def test_the_prompted_last_answer_is_written_without_its_reasoning() -> None:
    messages = [kind_message(0), kind_message(1)]
    dialect = catalog.get_dialect("hermes")
    asked = render_format(_Unprompted(), dialect, messages, (), True, {}).text
    plain = render_format(_Unprompted(), dialect, messages, (), False, {}).text
    assert "<t>r</t>" in plain
    assert "<t>r</t>" not in asked
    ctx = Conversation(messages, (), {}, dialect, True)
    assert _Unprompted().expressible_for(messages, ctx)[-1].reasoning == ""
