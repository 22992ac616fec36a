"""The declarations of :mod:`tooletta.chat.declare_turns` write what they read back.

* :class:`~tooletta.chat.Headerless`: a turn of the declared role written without a header
  after the declared roles (always, with ``after=None``) is read back as that role, for any
  conversation; every other turn keeps its header.
* :class:`~tooletta.chat.CallIds`: the calls are written with the ids the declaration gives
  them (per turn, or across the conversation), and the text reads back as
  :meth:`~tooletta.chat.ChatFormat.expressible` says (the written ids, results named after the
  calls they answer); a turn written alone keeps its own ids under ``across``.
* :class:`~tooletta.chat.JsonResults`: tool results written through ``tojson`` read back as
  their text (a list of parts as the JSON of that list), after a
  :class:`~tooletta.chat.ResultHead` label too.
* :class:`~tooletta.chat.AfterSystem`: text written once right after the opening system turn
  (before the first message after a leading system message, or before the prompt) is part of
  no message and skipped by the reader, an unclosed block to the end of the text with
  ``open_ends``.

Both render paths (with segments and text only) are checked to write the same text. The
formats using them (Mistral, Apertus) are checked byte for byte against their real templates
by their plugins' tests.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tooletta
from support import bracket_turns
from tooletta import Message, RenderError, ToolCall
from tooletta.chat import (
    AfterSystem,
    CallIds,
    ChatFormat,
    Conversation,
    Headerless,
    JsonResults,
    ResultHead,
    render_format,
)
from tooletta.chat.parse import parse_format
from tooletta.plugin import AfterSystem as PluginAfterSystem
from tooletta.plugin import CallIds as PluginCallIds
from tooletta.plugin import Headerless as PluginHeaderless
from tooletta.plugin import JsonResults as PluginJsonResults

TOOLS = [{"type": "function", "function": {"name": "f", "parameters": {}}}]
DIALECT = tooletta.get_dialect("canonical")


class _Toy(ChatFormat):
    """``[U]``/``[A]``/``[T]`` turns, ``<e>`` ending the assistant's (subclasses declare
    which turns have no header)."""

    name = "toy_headerless"
    turns = bracket_turns()
    end_of_turn = "<e>"


class AfterResults(_Toy):
    """The assistant goes on without a header after results (Gemma 4's interleaved turns)."""

    headerless = Headerless("assistant", frozenset({"tool"}))


class AfterResultsAndAnswers(_Toy):
    """The assistant goes on without a header after results or another assistant turn
    (Apertus, DeepSeek)."""

    headerless = Headerless("assistant", frozenset({"tool", "assistant"}))


class Always(_Toy):
    """No assistant turn has a header (Mistral), though one is declared for the prompt."""

    headerless = Headerless()


def _written(index: int, call: ToolCall) -> ToolCall:
    return call if call.id else msgspec.structs.replace(call, id=f"w{index}")


def _write_ids(calls: Sequence[ToolCall]) -> list[ToolCall]:
    """A toy id rule: a call without an id gets ``w`` and its place in the turn."""
    return [_written(i, c) for i, c in enumerate(calls)]


class WrittenIds(_Toy):
    """Every call with an id (derived when missing)."""

    call_ids = CallIds(_write_ids)


_texts = st.text(st.sampled_from("ab"), max_size=3)


@st.composite
def conversations(draw: st.DrawFn) -> list[Message]:
    """A conversation: an optional system message, then user queries, answers, call turns
    (calls with and without ids) each followed by a result per call."""
    out: list[Message] = []
    if draw(st.booleans()):
        out.append(Message("system", draw(_texts)))
    for kind in draw(st.lists(st.integers(0, 2), max_size=6)):
        if kind == 0:
            out.append(Message("user", draw(_texts)))
        elif kind == 1:
            out.append(Message("assistant", draw(_texts)))
        else:
            ids = draw(st.lists(st.sampled_from([None, "c1", "c2"]), min_size=1, max_size=2))
            calls = [ToolCall("f", {"n": i}, ident) for i, ident in enumerate(ids)]
            out.append(Message("assistant", "", tool_calls=calls))
            out += [Message("tool", draw(_texts)) for _ in calls]
    return out


def _round_trip(fmt: ChatFormat, messages: list[Message]) -> str:
    text = render_format(fmt, DIALECT, messages, TOOLS, False, {}).text
    assert render_format(fmt, DIALECT, messages, TOOLS, False, {}, segments=False).text == text
    assert parse_format(fmt, DIALECT, text, TOOLS) == fmt.expressible(messages)
    return text


def _headers(fmt: ChatFormat, messages: list[Message]) -> list[str]:
    ctx = Conversation(messages, TOOLS, {}, DIALECT)
    return [fmt.header(i, ctx) for i in range(len(messages))]


def test_the_plugin_face_exports_them() -> None:
    assert PluginHeaderless is Headerless
    assert PluginCallIds is CallIds
    assert PluginJsonResults is JsonResults
    assert PluginAfterSystem is AfterSystem


@given(conversations())
def test_a_turn_after_results_has_no_header_and_reads_back(messages: list[Message]) -> None:
    fmt = AfterResults()
    _round_trip(fmt, messages)
    for index, header in enumerate(_headers(fmt, messages)):
        role = messages[index].role
        bare = role == "assistant" and index > 0 and messages[index - 1].role == "tool"
        assert header == ("" if bare else fmt.turns[role].header)


@given(conversations())
def test_a_turn_after_results_or_answers_reads_back(messages: list[Message]) -> None:
    fmt = AfterResultsAndAnswers()
    _round_trip(fmt, messages)
    for index, header in enumerate(_headers(fmt, messages)):
        role = messages[index].role
        before = messages[index - 1].role if index else None
        bare = role == "assistant" and before in ("tool", "assistant")
        assert header == ("" if bare else fmt.turns[role].header)


@given(conversations())
def test_always_headerless_turns_read_back(messages: list[Message]) -> None:
    fmt = Always()
    text = _round_trip(fmt, messages)
    assert "[A]" not in text
    assert all(
        h == ("" if m.role == "assistant" else fmt.turns[m.role].header)
        for m, h in zip(messages, _headers(fmt, messages))
    )


def test_implicit_role_answers_as_declared() -> None:
    assert AfterResults().implicit_role("tool") == "assistant"
    assert AfterResults().implicit_role("assistant") is None
    assert AfterResults().implicit_role(None) is None
    assert AfterResultsAndAnswers().implicit_role("assistant") == "assistant"
    assert AfterResultsAndAnswers().implicit_role("user") is None
    assert all(Always().implicit_role(r) == "assistant" for r in (None, "user", "tool"))
    assert _Toy().implicit_role("tool") is None  # nothing declared: every turn has a header


def test_without_a_declaration_the_headers_are_the_declared_ones() -> None:
    messages = [
        Message("user", "q"),
        Message("assistant", "", tool_calls=[ToolCall("f", {})]),
        Message("tool", "r"),
        Message("assistant", "a"),
    ]
    assert _headers(_Toy(), messages) == ["[U]", "[A]", "[T]", "[A]"]
    assert _headers(AfterResults(), messages) == ["[U]", "[A]", "[T]", ""]


def _counted(messages: Sequence[Message]) -> dict[int, list[str]]:
    """A toy rule across the conversation: every call numbered by the calls before it."""
    out: dict[int, list[str]] = {}
    count = 0
    for index, m in enumerate(messages):
        if m.tool_calls:
            out[index] = [f"n{count + i}" for i in range(len(m.tool_calls))]
            count += len(m.tool_calls)
    return out


class CountedIds(_Toy):
    """Every call numbered across the conversation (Kimi K2's rule, in short)."""

    call_ids = CallIds(across=_counted)


class CountedThenWritten(_Toy):
    """Both: the ids across the conversation, then the per-turn rule over them."""

    call_ids = CallIds(_write_ids, _counted)


def _expected_ids(fmt: ChatFormat, messages: list[Message]) -> list[list[ToolCall]]:
    numbers = _counted(messages)
    out = []
    for index, m in enumerate(messages):
        calls = list(m.tool_calls)
        if isinstance(fmt, (CountedIds, CountedThenWritten)) and index in numbers:
            calls = [msgspec.structs.replace(c, id=i) for c, i in zip(calls, numbers[index])]
        if isinstance(fmt, (WrittenIds, CountedThenWritten)):
            calls = _write_ids(calls)
        out.append(calls)
    return out


@pytest.mark.parametrize(
    "fmt", [WrittenIds(), CountedIds(), CountedThenWritten()], ids=["turn", "across", "both"]
)
@given(messages=conversations())
def test_written_ids_are_written_and_read_back(fmt: ChatFormat, messages: list[Message]) -> None:
    text = _round_trip(fmt, messages)
    back = fmt.expressible(messages)
    for expected, carried in zip(_expected_ids(fmt, messages), back):
        assert carried.tool_calls == expected
        for call in carried.tool_calls:
            assert f'"id": "{call.id}"' in text
    pending: list[ToolCall] = []
    for carried in back:
        if carried.role == "assistant":
            pending = list(carried.tool_calls)
        elif carried.role == "tool" and pending:
            assert carried.tool_call_id == pending.pop(0).id


def test_calls_text_writes_the_declared_ids() -> None:
    calls = [ToolCall("f", {}), ToolCall("f", {"a": 1}, "own")]
    text = WrittenIds().calls_text(DIALECT, calls, "")
    assert '"id": "w0"' in text and '"id": "own"' in text
    assert '"id"' not in _Toy().calls_text(DIALECT, [ToolCall("f", {})], "")
    assert CallIds(_write_ids).apply([]) == []


def test_a_turn_written_alone_keeps_its_own_ids_across() -> None:
    """``across`` numbers a conversation's turns; the turn the model writes alone
    (:meth:`~tooletta.chat.ChatFormat.turn_body`, ``render(model=...)``) keeps its ids."""
    message = Message("assistant", "", tool_calls=[ToolCall("f", {}, "own")])
    ctx = Conversation([message], TOOLS, {}, DIALECT)
    assert '"id": "own"' in CountedIds().turn_body(message, True, True, ctx)
    assert '"id": "n0"' in CountedIds().assistant_text(0, ctx)
    assert CallIds(across=_counted).turn(0, ctx).tool_calls == [ToolCall("f", {}, "n0")]
    assert CallIds().turn(0, ctx) is message
    user = Conversation([Message("user", "q")], TOOLS, {}, DIALECT)
    assert CallIds(across=_counted).turn(0, user) is user.messages[0]


def test_written_ids_without_ids_in_the_text() -> None:
    """``keeps_ids=False`` still drops the ids (written or not) from what the text carries."""

    class NoIds(WrittenIds):
        keeps_ids = False

    messages = [Message("user", "q"), Message("assistant", "", tool_calls=[ToolCall("f", {})])]
    assert NoIds().expressible(messages)[1].tool_calls == [ToolCall("f", {})]


class JsonToy(_Toy):
    """Tool results through ``tojson`` (Llama's)."""

    result_json = JsonResults()
    keeps_ids = False


class LabelledJsonToy(JsonToy):
    """A label, then the result through ``tojson``."""

    result_head = ResultHead(lambda index, ctx: f"r{index}", ":")


_any_text = st.text(
    st.characters(blacklist_categories=["Cs"], blacklist_characters="[<"), max_size=12
)
_parts = st.lists(
    st.one_of(_any_text, st.builds(lambda t: {"type": "text", "text": t}, _any_text)),
    max_size=3,
)


@given(_any_text)
def test_a_text_result_is_a_json_string_that_reads_back(text: str) -> None:
    block = JsonResults()
    written = block.write(text)
    assert written.startswith('"') and written.endswith('"')
    assert block.read(written) == text
    assert block.carried(text, text) == text


@given(_parts)
def test_a_list_result_is_its_json_and_reads_back_as_that_json(parts: list[object]) -> None:
    block = JsonResults()
    written = block.write(parts)
    assert written.startswith("[")
    assert block.read(written) == written
    assert block.carried(parts, "ignored") == written


def test_a_result_that_is_no_json_is_refused() -> None:
    with pytest.raises(RenderError, match="not JSON"):
        JsonResults().write([float("nan")])
    assert JsonResults().write(None) == '""'
    assert JsonResults().read("{not json") == "{not json"


@st.composite
def result_conversations(draw: st.DrawFn) -> list[Message]:
    """A user query, a call turn, then one result per call (text or parts)."""
    count = draw(st.integers(1, 3))
    contents = draw(st.lists(st.one_of(_any_text, _parts), min_size=count, max_size=count))
    calls = [ToolCall("f", {"n": i}) for i in range(count)]
    return [
        Message("user", "q"),
        Message("assistant", "", tool_calls=calls),
        *(Message("tool", c) for c in contents),
    ]


@pytest.mark.parametrize("fmt", [JsonToy(), LabelledJsonToy()], ids=["plain", "labelled"])
@given(messages=result_conversations())
def test_json_results_are_written_and_read_back(fmt: ChatFormat, messages: list[Message]) -> None:
    text = render_format(fmt, DIALECT, messages, TOOLS, False, {}, segments=False).text
    assert render_format(fmt, DIALECT, messages, TOOLS, False, {}).text == text
    assert parse_format(fmt, DIALECT, text, TOOLS) == fmt.expressible(messages)
    label = "r2:" if fmt.result_head is not None else ""
    assert f"[T]{label}{JsonResults().write(messages[2].content)}[/T]" in text


def test_without_the_declaration_a_result_is_its_text() -> None:
    messages = [
        Message("user", "q"),
        Message("assistant", "", tool_calls=[ToolCall("f", {})]),
        Message("tool", "a b"),
    ]
    assert "[T]a b[/T]" in render_format(_Toy(), DIALECT, messages, TOOLS, False, {}).text
    assert '[T]"a b"[/T]' in render_format(JsonToy(), DIALECT, messages, TOOLS, False, {}).text


def _developer(ctx: Conversation) -> str:
    on = "on" if ctx.options.get("think") else "off"
    return f"<dev>{on}:{len(ctx.tools)}</dev>"


class AfterSystemToy(_Toy):
    """A developer turn of the template's own after the system turn (Apertus's)."""

    preamble = AfterSystem(_developer, (("<dev>", "</dev>"),), open_ends=True)


@given(messages=conversations(), think=st.booleans(), tools=st.booleans())
def test_the_turn_after_the_system_turn_is_written_once_and_skipped(
    messages: list[Message], think: bool, tools: bool
) -> None:
    fmt = AfterSystemToy()
    declared = TOOLS if tools else []
    text = render_format(fmt, DIALECT, messages, declared, False, {"think": think}).text
    fast = render_format(fmt, DIALECT, messages, declared, False, {"think": think}, False)
    assert fast.text == text
    turn = f"<dev>{'on' if think else 'off'}:{len(declared)}</dev>"
    assert text.count("<dev>") == 1
    system = bool(messages) and messages[0].role == "system"
    before = text.index(turn)
    assert before == (text.index("[/S]") + 4 if system else 0)
    assert parse_format(fmt, DIALECT, text, declared) == fmt.expressible(messages)


def test_the_turn_stands_before_the_prompt_without_messages() -> None:
    fmt = AfterSystemToy()
    assert render_format(fmt, DIALECT, [], [], True, {}).text == "<dev>off:0</dev>[A]"
    only = [Message("system", "s")]
    assert render_format(fmt, DIALECT, only, [], False, {}).text == "[S]s[/S]<dev>off:0</dev>"


def test_an_open_block_is_skipped_to_the_end_only_when_declared() -> None:
    text = "[S]s[/S]<dev>on"
    assert AfterSystem(_developer, (("<dev>", "</dev>"),), open_ends=True).skip(text, 8) == 15
    assert AfterSystem(_developer, (("<dev>", "</dev>"),)).skip(text, 8) == 8
    assert AfterSystem(_developer, (("<dev>", "</dev>"),)).skip(text + "</dev>[U]", 8) == 21
    assert AfterSystem(_developer, (("<dev>", "</dev>"),)).skip(text, 0) == 0


def test_a_json_result_is_written_whole_whatever_trim_says() -> None:
    class Trimmed(JsonToy):
        trim = frozenset({"tool", "user"})

    messages = [
        Message("user", " q "),
        Message("assistant", "", tool_calls=[ToolCall("f", {})]),
        Message("tool", " r "),
    ]
    fmt = Trimmed()
    text = render_format(fmt, DIALECT, messages, TOOLS, False, {}).text
    assert "[U]q[/U]" in text and '[T]" r "[/T]' in text
    assert parse_format(fmt, DIALECT, text, TOOLS) == fmt.expressible(messages)
    assert fmt.expressible(messages)[2].content == " r "
