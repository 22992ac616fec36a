"""Chat-format hooks of core: text before a turn, tool-result parsing, formats without ids,
and the pinned ``strftime_now`` (with a headerless assistant turn, read by ``implicit_role``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tooletta
from tooletta import Message, ParseError, RenderError, ToolCall
from tooletta.chat import ChatFormat, Conversation, Turn, render_format, roles
from tooletta.chat.parse import parse_format

TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {}}}]


class ToyChat(ChatFormat):
    """Mistral-like: tools before the last user turn, no assistant header, results with an
    id prefix, no ids in calls."""

    name = "toy"
    bos = "<s>"
    turns = roles(
        system=Turn("[S]", "[/S]"),
        user=Turn("[U]", "[/U]"),
        assistant=Turn("", "<e>"),
        tool=Turn("[T]", "[/T]"),
    )
    end_of_turn = "<e>"
    keeps_ids = False

    def before_turn(self, index: int, ctx: Conversation) -> str:
        last = max((i for i, m in enumerate(ctx.messages) if m.role == "user"), default=-1)
        if not ctx.tools or index != last:
            return ""
        return "[TOOLS]" + ctx.strftime_now("%Y") + "[/TOOLS]"

    def implicit_role(self, previous: str | None) -> str | None:
        return "assistant"

    def skip_before_turn(self, text: str, pos: int) -> int:
        if text.startswith("[TOOLS]", pos):
            return text.index("[/TOOLS]", pos) + len("[/TOOLS]")
        return pos

    def result_text(self, index: int, ctx: Conversation) -> str:
        return f"id{index}:" + str(ctx.messages[index].content)

    def parse_result(self, body: str) -> str:
        return body.partition(":")[2]


def _conversation() -> list[Message]:
    return [
        Message("system", "sys"),
        Message("user", "a"),
        Message("assistant", "", tool_calls=[ToolCall("f", {"x": 1}, "c1")]),
        Message("tool", "r1", tool_call_id="c1"),
        Message("assistant", "done"),
        Message("user", "b"),
        Message("assistant", "ok"),
    ]


def _render(messages: Sequence[Message], **options: object) -> tuple[str, list[Message]]:
    fmt, dialect = ToyChat(), tooletta.get_dialect("canonical")
    out = render_format(fmt, dialect, messages, TOOLS, False, options)
    return out.text, parse_format(fmt, dialect, out.text, TOOLS)


def test_before_turn_text_is_written_and_skipped() -> None:
    text, back = _render(_conversation(), strftime_now=lambda fmt: "2001")
    assert "[/S][U]a[/U][" in text and "<e>[TOOLS]2001[/TOOLS][U]b[/U]{" in text
    assert [(m.role, m.content) for m in back] == [
        ("system", "sys"),
        ("user", "a"),
        ("assistant", ""),
        ("tool", "r1"),
        ("assistant", "done"),
        ("user", "b"),
        ("assistant", "ok"),
    ]


def test_before_turn_text_belongs_to_no_message() -> None:
    fmt, dialect = ToyChat(), tooletta.get_dialect("canonical")
    out = render_format(fmt, dialect, _conversation(), TOOLS, False, {})
    owners = [s.message for s in out.segments if out.text[s.start : s.end].startswith("[TOOLS]")]
    assert owners == [None]


def test_before_turn_is_asked_after_the_last_message() -> None:
    class AtEnd(ToyChat):
        def before_turn(self, index: int, ctx: Conversation) -> str:
            return "[TOOLS][/TOOLS]" if index == len(ctx.messages) else ""

    fmt, dialect = AtEnd(), tooletta.get_dialect("canonical")
    out = render_format(fmt, dialect, [Message("system", "s")], TOOLS, False, {})
    assert out.text == "<s>[S]s[/S][TOOLS][/TOOLS]"
    assert parse_format(fmt, dialect, out.text, TOOLS) == [Message("system", "s")]


def test_headerless_assistant_turn_and_parsed_results() -> None:
    _, back = _render(_conversation())
    assert back[2].tool_calls == [ToolCall("f", {"x": 1}, "c1")]
    assert back[3].content == "r1" and back[3].name == "f"


def test_keeps_ids_false_drops_ids_from_what_the_format_carries() -> None:
    carried = ToyChat().expressible(_conversation())
    assert carried[2].tool_calls == [ToolCall("f", {"x": 1})]


def test_expressible_for_defaults_to_expressible() -> None:
    """Formats whose history rule does not depend on the tools or options answer the same
    with or without the rendering context."""
    fmt, dialect = ToyChat(), tooletta.get_dialect("canonical")
    messages = _conversation()
    ctx = Conversation(messages, TOOLS, {}, dialect)
    assert fmt.expressible_for(messages, ctx) == fmt.expressible(messages)


def test_text_after_a_turn_that_never_ends_is_a_parse_error() -> None:
    fmt, dialect = ToyChat(), tooletta.get_dialect("canonical")
    with pytest.raises(ParseError, match="never ends"):
        parse_format(fmt, dialect, "<s>[U]a[/U]unterminated", [])


def test_strftime_now_default_is_today() -> None:
    ctx = Conversation([], [], {}, None)
    assert ctx.strftime_now("%Y").isdigit()
    assert Conversation([], [], {"strftime_now": str.upper}, None).strftime_now("%y") == "%Y"


def test_frozen_clock_holds_native_and_jinja_time() -> None:
    from datetime import datetime

    from tooletta.chat import clock
    from tooletta.chat.jinja import render_jinja

    when = datetime(2001, 2, 3, 4, 5, 6)
    with clock.frozen(when):
        ctx = Conversation([], [], {}, None)
        assert ctx.strftime_now("%Y-%m-%d %H:%M:%S") == "2001-02-03 04:05:06"
        assert render_jinja("{{ strftime_now('%H:%M:%S') }}", []) == "04:05:06"
    assert clock.now() != when


def test_date_formats_are_remembered_per_day_only() -> None:
    """``strftime_now`` of a date-only format is formatted once per day: another day (or a
    format with the time of day, or a locale field) is formatted again."""
    from datetime import datetime

    from tooletta.chat import clock

    ctx = Conversation([], [], {}, None)
    for day, second in ((3, 6), (3, 7), (4, 7), (3, 8)):
        with clock.frozen(datetime(2001, 2, day, 4, 5, second)):
            assert ctx.strftime_now("%Y-%m-%d") == f"2001-02-0{day}"
            assert ctx.strftime_now("%d%%%j") == f"0{day}%0{31 + day}"
            assert ctx.strftime_now("%Y %S") == f"2001 0{second}"
            assert ctx.strftime_now("%b %d") == datetime(2001, 2, day).strftime("%b %d")
    assert ("%Y-%m-%d", 2001, 2, 4) in clock._DAYS
    assert not any(key[0] in ("%Y %S", "%b %d") for key in clock._DAYS)


class EndsChat(ToyChat):
    """An end token that depends on the turn: ``<c>`` after calls, ``<r>`` for the last
    answer without a generation prompt, ``<e>`` otherwise."""

    end_tokens = ("<c>", "<r>")

    def end_token(self, index: int, ctx: Conversation) -> str:
        if ctx.messages[index].tool_calls:
            return "<c>"
        last = index == len(ctx.messages) - 1
        return "<r>" if last and not ctx.add_generation_prompt else "<e>"


def test_end_token_is_written_trained_and_read_back() -> None:
    fmt, dialect = EndsChat(), tooletta.get_dialect("canonical")
    messages = _conversation()
    out = render_format(fmt, dialect, messages, TOOLS, False, {})
    generated = [out.text[s:e] for _, (s, e) in out.generated_spans()]
    assert [g[-3:] for g in generated] == ["<c>", "<e>", "<r>"]
    assert parse_format(fmt, dialect, out.text, TOOLS) == parse_format(
        ToyChat(),
        dialect,
        render_format(ToyChat(), dialect, messages, TOOLS, False, {}).text,
        TOOLS,
    )
    prompted = render_format(fmt, dialect, messages, TOOLS, True, {}, segments=False).text
    assert prompted.endswith("<e>") and "<r>" not in prompted


def test_find_end_takes_the_first_end_token() -> None:
    assert EndsChat().find_end("ab<r>c<e>", 0) == (2, "<r>")
    assert EndsChat().find_end("abc", 0) == (-1, "")


def test_thinking_key_is_reasoning() -> None:
    from tooletta.chat import read_conversation

    read = read_conversation([{"role": "assistant", "content": "a", "thinking": "t"}])
    assert read[0].reasoning == "t" and "thinking" not in read[0].extra


class FooterChat(ToyChat):
    """Grouped results whose closing footer loses its newline when they end the
    conversation (Hermes 2 Pro's tool turn)."""

    name = "footer_toy"
    turns = roles(
        system=Turn("[S]", "[/S]"),
        user=Turn("[U]", "[/U]"),
        assistant=Turn("", "<e>"),
        tool=Turn("[T]", "\n[/T]"),
    )
    result_wrap = ("<r>", "</r>")
    group_results = True

    def result_footer(self, index: int, ctx: Conversation) -> str:
        return "[/T]" if index == len(ctx.messages) - 1 else "\n[/T]"

    def skip_result_footer(self, text: str, pos: int) -> int:
        for footer in ("\n[/T]", "[/T]"):
            if text.startswith(footer, pos):
                return pos + len(footer)
        return -1


def test_result_footer_depends_on_what_follows_and_is_read_back() -> None:
    fmt, dialect = FooterChat(), tooletta.get_dialect("canonical")
    calls = [ToolCall("f", {"x": 1}), ToolCall("f", {"x": 2})]
    messages = [
        Message("user", "a"),
        Message("assistant", "", tool_calls=calls),
        Message("tool", "r1"),
        Message("tool", "r2"),
    ]
    for tail, footer in (([Message("assistant", "ok")], "\n[/T]"), ([], "[/T]")):
        text = render_format(fmt, dialect, [*messages, *tail], TOOLS, False, {}).text
        assert f"<r>id2:r1</r><r>id3:r2</r>{footer}" in text
        back = parse_format(fmt, dialect, text, TOOLS)
        assert [m.content for m in back if m.role == "tool"] == ["r1", "r2"]
        assert len(back) == len(messages) + len(tail)


def test_missing_result_footer_is_a_parse_error() -> None:
    fmt, dialect = FooterChat(), tooletta.get_dialect("canonical")
    with pytest.raises(ParseError, match="expected"):
        parse_format(fmt, dialect, "[U]a[/U]<e>[T]<r>id2:r1</r>junk", TOOLS)


def test_by_content_writes_once_per_distinct_value() -> None:
    from tooletta.chat import by_content

    written: list[Any] = []

    @by_content
    def declare(tools: Any) -> str:
        written.append(tools)
        return str(len(tools))

    tools = [{"type": "function", "function": {"name": "f"}}]
    assert declare(tools) == declare([dict(tools[0])]) == "1"
    assert len(written) == 1
    assert declare([{"type": "function", "function": {"name": "g"}}]) == "1"
    assert len(written) == 2
    odd = [{"default": object()}]  # msgspec cannot key it: written every time
    declare(odd)
    declare(odd)
    assert len(written) == 4


def test_tool_json_keeps_each_layout_apart() -> None:
    from tooletta.chat import tool_json

    tool = {"name": "f", "parameters": {"type": "object"}}
    assert tool_json(tool) == '{"name": "f", "parameters": {"type": "object"}}'
    assert tool_json(tool, separators=(",", ":")) == '{"name":"f","parameters":{"type":"object"}}'
    assert tool_json(tool, indent=2).startswith('{\n  "name": "f"')
    with pytest.raises(RenderError):
        tool_json({"x": float("nan")}, indent=2)


def test_cached_tool_json_still_refuses_nan_after_null() -> None:
    from tooletta.chat import tool_json

    assert tool_json({"default": None}) == '{"default": null}'
    with pytest.raises(RenderError):
        tool_json({"default": float("nan")})
    assert tool_json({"n": 1}) == '{"n": 1}' and tool_json({"n": 1.0}) == '{"n": 1.0}'


ROLES = st.sampled_from(["system", "user", "assistant", "tool"])


@given(st.lists(ROLES, max_size=12), st.sampled_from(["none", "all", "after_last_user"]))
def test_kept_in_agrees_with_keeps_reasoning(roles_: list[str], keep: str) -> None:
    """The per-conversation rule (the last user turn found once) answers as the per-turn one."""
    from tooletta.chat import Reasoning
    from tooletta.chat.conversation import conversation

    class Thinking(ToyChat):
        reasoning = Reasoning("<t>", "</t>", keep=keep)  # type: ignore[arg-type]

    fmt = Thinking()
    messages = [Message(r, "x") for r in roles_]
    ctx = conversation(messages, [], {}, None)
    for index in range(len(messages)):
        assert fmt.kept_in(index, ctx) == fmt.keeps_reasoning(index, messages)


def test_last_user_is_found_once_per_conversation() -> None:
    from tooletta.chat import last_user
    from tooletta.chat.conversation import conversation

    messages = [Message("user", "a"), Message("assistant", "b"), Message("user", "c")]
    ctx = conversation(messages, [], {}, None)
    assert "last_user" not in vars(ctx)
    assert ctx.last_user == 2 == last_user(messages)
    assert vars(ctx)["last_user"] == 2  # remembered: later turns do not scan again
    assert last_user([Message("assistant", "b")]) == -1


def test_list_content_is_joined_by_the_formats_separator() -> None:
    from tooletta.chat import text_of

    parts = [{"type": "text", "text": "a"}, {"type": "image"}, "b"]
    assert text_of(parts) == "ab" and text_of(parts, "\n") == "a\nb"

    class Joined(ToyChat):
        part_separator = " | "

    messages = [Message("user", parts), Message("assistant", "ok")]
    text = render_format(Joined(), tooletta.get_dialect("hermes"), messages, [], False, {}).text
    assert "[U]a | b[/U]" in text
    assert Joined().expressible(messages)[0].content == "a | b"


def test_memo_is_one_conversations_own() -> None:
    """``Conversation.memo`` starts empty for every conversation and keeps what a hook wrote
    for the rest of that conversation only."""
    from tooletta.chat.conversation import conversation

    messages = [Message("user", "a")]
    first = conversation(messages, [], {}, None)
    first.memo["found"] = 1
    assert first.memo == {"found": 1}
    assert conversation(messages, [], {}, None).memo == {}
