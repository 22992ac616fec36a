"""The learned formats' fast writer (:mod:`tooletta.chat.fastpath`) writes what the general
path writes: the same text, or the same error (type and message), for every learned template
of ``bench/learn.py`` and every vendored one, over the kit's sample conversations (and their
prefixes) and generated ones (texts holding the format's markup, cut tags, lone surrogates,
whitespace to strip; reasoning, calls, tool results, names, later system messages, odd roles;
options, generation prompts, ``allow_markup``). The reference is
:func:`tooletta.render_conversation` with no fast writer (the general path:
:func:`~tooletta.chat.checks.check_conversation` then
:func:`~tooletta.chat.render.render_text`)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat import api, fastpath
from tooletta.testing.conversations import SAMPLE_TOOLS
from tooletta.testing.samples import sample_conversations

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "templates"
HERMES = ROOT / "plugins" / "tooletta-dialect-hermes" / "tests" / "templates"
TEMPLATES = [
    *sorted(FIXTURES.glob("*.jinja")),
    HERMES / "Qwen-Qwen2.5-7B-Instruct.jinja",
    HERMES / "Qwen3.jinja",
    HERMES / "ibm-granite-granite-4.0.jinja",
]
"""Every vendored template of ``tests/fixtures/templates`` (those of ``bench/learn.py``
among them) and the Hermes templates ``bench/learn.py`` learns."""

FAST = {"HuggingFaceTB-SmolLM3-3B", "llama-cpp-rwkv-world", "Bielik-11B-v3.0-Instruct"}
"""Templates whose learned format must get a fast writer (the small ones of issue 21)."""

pytestmark = pytest.mark.usefixtures("forget_learned")

Outcome = tuple[Any, ...]


@pytest.fixture(scope="module")
def learned() -> dict[str, str]:
    """Template stem -> the name of its learned format (templates learn refuses left out)."""
    names: dict[str, str] = {}
    for path in TEMPLATES:
        try:
            names[path.stem] = tooletta.learn(
                str(path), name=f"fast-{path.stem}", lenient=True
            ).name
        except tooletta.ToolettaError:
            continue
    return names


@contextmanager
def general_path() -> Iterator[None]:
    """``render_conversation`` without fast writers (the general path for every format)."""
    api._READY.clear()
    with patch.object(api, "fast_writer", lambda *args: None):
        yield
    api._READY.clear()


def outcome(name: str, messages: Any, **kwargs: Any) -> Outcome:
    """The text ``render_conversation`` gives, or its error's type and message."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ("text", tooletta.render_conversation(messages, dialect=name, **kwargs))
    except Exception as exc:  # (a raw error of the general path must be the same too)
        return ("error", type(exc), str(exc))


class Counter:
    """Counts the conversations the fast writers wrote (not handed to the general path)."""

    def __init__(self) -> None:
        self.written = 0
        self.declined = 0

    @contextmanager
    def counting(self) -> Iterator[None]:
        real = fastpath.fast_writer

        def counted(*found: Any) -> Any:
            write = real(*found)
            if write is None:
                return None

            def counting(*args: Any) -> str | None:
                text: str | None = write(*args)
                if text is None:
                    self.declined += 1
                else:
                    self.written += 1
                return text

            return counting

        api._READY.clear()
        with patch.object(api, "fast_writer", counted):
            yield
        api._READY.clear()


def both(name: str, messages: Any, counter: Counter | None = None, **kwargs: Any) -> None:
    """Assert that the fast path and the general path give the same outcome."""
    if counter is None:
        fast = outcome(name, messages, **kwargs)
    else:
        with counter.counting():
            fast = outcome(name, messages, **kwargs)
    with general_path():
        slow = outcome(name, messages, **kwargs)
    assert fast == slow, (name, messages, kwargs)


OPTIONS: list[dict[str, Any]] = [
    {},
    {"enable_thinking": False},
    {"enable_thinking": True},
    {"enable_thinking": None},
    {"enable_thinking": [1]},  # not hashable
    {"enable_thinkng": True},  # misspelled: a warning
    {"tools_in_user_message": False},
]


def test_the_small_templates_get_a_fast_writer(learned: dict[str, str]) -> None:
    """Those of issue 21's small templates whose learned format the fast path knows get one,
    and it writes their sample conversations without tools (not handing them back)."""
    from tooletta.chat.lookup import resolve_format
    from tooletta.chat.markup import markup_of
    from tooletta.chat.render import plan_of

    for stem in FAST:
        fmt, dialect = resolve_format(None, learned[stem])
        writer = fastpath.fast_writer(fmt, dialect, plan_of(fmt), markup_of(fmt, dialect))
        assert writer is not None, stem
        counter = Counter()
        for messages, uses_tools in sample_conversations().values():
            if not uses_tools:
                both(learned[stem], messages, counter)
        assert counter.written >= 2 and counter.declined == 0, stem


CALLING = {
    "Bielik-11B-v3.0-Instruct",
    "Qwen-QwQ-32B",
    "Reka-Edge",
    "deepseek-ai-DeepSeek-V3.1",
    "LGAI-EXAONE-EXAONE-4.0-1.2B",
    "Qwen-Qwen2.5-7B-Instruct",
    "ibm-granite-granite-4.0",
    "Qwen3",
    "moonshotai-Kimi-K2",
}
"""Templates whose learned format's fast writer writes calls, tool results and reasoning
(hermes, learned JSON, DeepSeek and Kimi K2 calls; results grouped or not, JSON-encoded,
written with their own id, an answer's header after them; reasoning blocks by the format's
history rule, or none written; the tool declarations and the default system prompt in turns
of their own before the first message)."""


def test_calls_and_results_are_written_fast(learned: dict[str, str]) -> None:
    """The sample conversations with tools (reasoning among them), each prefix, with and
    without a generation prompt: written by the fast writers of :data:`CALLING`, as the
    general path writes them."""
    for stem in CALLING:
        counter = Counter()
        for messages, uses_tools in sample_conversations().values():
            if not uses_tools:
                continue
            for cut in range(1, len(messages) + 1):
                for prompt in (False, True):
                    both(
                        learned[stem],
                        messages[:cut],
                        counter,
                        tools=SAMPLE_TOOLS,
                        add_generation_prompt=prompt,
                    )
        assert counter.written >= 20 and counter.declined == 0, stem


def test_samples_and_their_prefixes(learned: dict[str, str]) -> None:
    """Every sample conversation and each of its prefixes, with and without tools and a
    generation prompt, with each option set: the same outcome both ways."""
    counter = Counter()
    for name in learned.values():
        for messages, uses_tools in sample_conversations().values():
            for cut in range(1, len(messages) + 1):
                for prompt in (False, True):
                    for options in OPTIONS[:4]:
                        both(
                            name,
                            messages[:cut],
                            counter,
                            tools=SAMPLE_TOOLS if uses_tools else None,
                            add_generation_prompt=prompt,
                            **options,
                        )
    assert counter.written > 100


def _texts(markup: list[str]) -> st.SearchStrategy[str]:
    pieces = st.sampled_from(
        [
            "hi",
            "Hello there.",
            " ",
            "\n",
            "\n\n",
            "</think>",
            "<think>",
            "東京",
            "\ud800",
            "é",
            "\x00",
            "<tool_call>",
            '{"a": 1}',
            *markup,
        ]
    )
    return st.lists(pieces, max_size=4).map("".join)


def _messages(markup: list[str]) -> st.SearchStrategy[list[Message]]:
    text = _texts(markup)
    call = st.builds(
        ToolCall,
        name=st.sampled_from(["get_weather", "get_time"]),
        arguments=st.fixed_dictionaries({}, optional={"city": text, "days": st.integers(0, 3)}),
    )
    message = st.builds(
        Message,
        role=st.sampled_from(["user", "user", "assistant", "assistant", "system", "tool", "bot"]),
        content=st.one_of(text, text, st.just([{"type": "text", "text": "part"}])),
        reasoning=st.one_of(st.just(""), st.just(""), text),
        tool_calls=st.one_of(st.just([]), st.just([]), st.just([]), st.lists(call, max_size=2)),
        name=st.one_of(st.none(), st.none(), st.none(), st.just("get_weather")),
        tool_call_id=st.one_of(st.none(), st.none(), st.none(), st.just("call_1")),
    )
    return st.lists(message, min_size=1, max_size=6)


def _markup(name: str) -> list[str]:
    from tooletta.chat.lookup import resolve_format

    fmt, _ = resolve_format(None, name)
    tokens = [fmt.end_of_turn, *fmt.markup()]
    for turn in fmt.turns.values():
        tokens += [turn.header, turn.footer]
    return sorted({t for t in tokens if t})


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_generated_conversations(learned: dict[str, str], data: st.DataObject) -> None:
    """Random conversations of any role order, texts holding the format's markup, lone
    surrogates, cut tags and whitespace; reasoning, calls, names and ids now and then; options,
    a generation prompt, ``allow_markup``, tools: the same outcome both ways."""
    name = data.draw(st.sampled_from(sorted(learned.values())))
    messages = data.draw(_messages(_markup(name)))
    shape = data.draw(st.sampled_from(["as drawn", "calls", "plain"]))
    if shape == "calls":  # the common shape with tools: no reasoning, no ids
        messages = [
            Message(
                role=m.role,
                content=m.content,
                tool_calls=[ToolCall(c.name, c.arguments) for c in m.tool_calls],
                name=m.name,
            )
            for m in messages
        ]
    elif shape == "plain":  # the common shape without tools: no reasoning, calls, names or ids
        messages = [
            Message(role=m.role if m.role != "tool" else "user", content=m.content)
            for m in messages
        ]
    both(
        name,
        messages,
        tools=data.draw(st.sampled_from([None, None, [], SAMPLE_TOOLS])),
        add_generation_prompt=data.draw(st.booleans()),
        allow_markup=data.draw(st.booleans()),
        **data.draw(st.sampled_from(OPTIONS)),
    )


def test_odd_fields_go_to_the_general_path(learned: dict[str, str]) -> None:
    """A ``Message`` with ``extra``, a falsy non-string reasoning, a role that is a ``str``
    subclass, chat dicts the short reader hands on: not the fast writer's (same outcome,
    written by the general path)."""

    class Role(str):
        pass

    name = learned["HuggingFaceTB-SmolLM3-3B"]
    cases: list[Any] = [
        [Message(role="user", content="hi", extra={"reasoning_content": "r"})],
        [Message(role="user", content="hi", reasoning=None)],  # type: ignore[arg-type]
        [Message(role=Role("user"), content="hi")],
        [Message(role="user", content="hi", tool_calls=None)],  # type: ignore[arg-type]
        [{"role": "user", "content": "hi", "weight": 1}],
        [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
        [],
    ]
    counter = Counter()
    for messages in cases:
        both(name, messages, counter)
    assert counter.written == 0


def test_chat_dicts_are_read_then_written_fast(learned: dict[str, str]) -> None:
    """Plain chat dicts (the OpenAI shape: string arguments, ids, ``reasoning_content``) are
    read once and written by the fast writer, as the general path writes them."""
    from tooletta.chat.jinja import to_template_messages

    for stem in CALLING:
        counter = Counter()
        for messages, uses_tools in sample_conversations().values():
            for strings in (False, True):
                given = to_template_messages(messages, string_arguments=strings)
                both(
                    learned[stem],
                    given,
                    counter,
                    tools=SAMPLE_TOOLS if uses_tools else None,
                )
        assert counter.written >= 8, stem


WHITESPACE = [
    "hi",
    " hi",
    "hi ",
    "\nhi\n",
    "\n\nhi\n\n",
    "\thi\t",
    "",
    " ",
    "\n",
    "a\n\nb",
    "東京 \n",
]
"""Texts the learned strips (leading / trailing newlines, whitespace) rewrite."""


def test_strips_and_empty_texts(learned: dict[str, str]) -> None:
    """Every text of :data:`WHITESPACE` as the system message, a user message and answers
    (the last or not), with and without a generation prompt: the same outcome both ways,
    most of them written by the fast writers."""
    counter = Counter()
    for name in learned.values():
        for text in WHITESPACE:
            shapes = [
                [Message(role="system", content=text), Message(role="user", content=text)],
                [Message(role="user", content=text), Message(role="assistant", content=text)],
                [
                    Message(role="user", content="q"),
                    Message(role="assistant", content=text),
                    Message(role="user", content=text),
                    Message(role="assistant", content="a"),
                ],
            ]
            for messages in shapes:
                for prompt in (False, True):
                    both(name, messages, counter, add_generation_prompt=prompt)
    assert counter.written > counter.declined


def _user(text: str) -> Message:
    return Message(role="user", content=text)


def _answer(text: str, *calls: ToolCall) -> Message:
    return Message(role="assistant", content=text, tool_calls=list(calls))


def _result(text: str) -> Message:
    return Message(role="tool", content=text, name="get_weather")


WEATHER = ToolCall("get_weather", {"city": "Paris"})
ODD_CALLS: list[ToolCall] = [
    ToolCall("get_weather", {"city": "Paris"}, id="call_1"),
    ToolCall("get_weather", {"days": 10**4250}),  # (writable: 4251 digits; too long to read)
    ToolCall("get_weather", {"days": float("nan")}),
    ToolCall("get_weather", {"days": 2.5}),
    ToolCall("get_weather", {"city": {"name": "Paris"}}),
    ToolCall("get_weather", {"city": b"Paris"}),
    ToolCall("get_weather", {"city": ("Paris",)}),
    ToolCall("get_weather", {1: "Paris"}),  # type: ignore[dict-item]
    ToolCall("", {"city": "Paris"}),
    ToolCall("get_weather", {"city": "\ud800"}),
    ToolCall("get_weather", {"city": "a<|im_end|>b"}),
]
"""Calls the fast writers hand to the general path (an id, a long integer, NaN, nesting,
values and keys that are no JSON, an empty name, a lone surrogate, markup), and a float."""


def test_odd_calls_results_and_tools(learned: dict[str, str]) -> None:
    """Odd calls, results grouped or not after answers with and without calls, a result
    with no call before it, tool definitions holding a lone surrogate or no JSON: the same
    outcome both ways."""
    bad_tools: list[Any] = [
        [{"type": "function", "function": {"name": "f\ud800", "parameters": {}}}],
        [{"type": "function", "function": {"name": "f", "parameters": {"x": {1, 2}}}}],
        [{"name": "f", "parameters": {}}],  # another shape: read by the general path
    ]
    counter = Counter()
    for name in learned.values():
        for call in ODD_CALLS:
            both(name, [_user("q"), _answer("", call)], counter, tools=SAMPLE_TOOLS)
        shapes = [
            [_user("q"), _answer("", WEATHER, WEATHER), _result("1"), _result("2"), _answer("a")],
            [_user("q"), _answer("x"), _result("1"), _result("2"), _answer("a")],
            [_user("q"), _result("1"), _result("2")],
            [_user("q"), _answer("", WEATHER), _result("1"), _user("r"), _answer("a")],
            [_user("q"), _answer("", WEATHER), _result('{"a": "b"}'), _answer("", WEATHER)],
        ]
        for messages in shapes:
            for prompt in (False, True):
                both(name, messages, counter, tools=SAMPLE_TOOLS, add_generation_prompt=prompt)
                both(name, messages, counter, add_generation_prompt=prompt)
        for tools in bad_tools:
            both(name, [_user("q"), _answer("a")], counter, tools=tools)
        for reasoning in ("think", "\ud800", *_markup(name)):  # checked, where not written too
            thought = Message(role="assistant", content="a", reasoning=reasoning)
            for allow in (False, True):
                both(name, [_user("q"), thought], counter, allow_markup=allow)
    assert counter.written > 100


def test_tool_definitions_json_cannot_hold_are_a_render_error(learned: dict[str, str]) -> None:
    """A learned format writing its tools with ``tojson`` refuses a definition JSON cannot
    hold (a set) with a ``RenderError``, on both paths, never a raw ``TypeError``."""
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"x": {1, 2}}}}]
    name = learned["Reka-Edge"]
    messages = [Message("user", "Hi")]
    for _ in range(2):
        with pytest.raises(tooletta.RenderError, match="a tool definition is not JSON"):
            tooletta.render_conversation(messages, dialect=name, tools=tools)
        with general_path(), pytest.raises(tooletta.RenderError, match="not JSON"):
            tooletta.render_conversation(messages, dialect=name, tools=tools)


_ROLE_TEXTS = st.tuples(
    st.sampled_from(["user", "assistant", "tool", "system"]),
    st.sampled_from(["q", "<tool_response>r</tool_response>", " <tool_response>r</tool_response>"]),
)


@settings(max_examples=300, deadline=None)
@given(shape=st.lists(_ROLE_TEXTS, max_size=7), rule=st.sampled_from(sorted(fastpath._ANCHORED)))
def test_the_history_anchor_is_the_rule(shape: list[tuple[str, str]], rule: str) -> None:
    """The anchor the fast writer finds once per conversation keeps, for every turn, what the
    history rule (:func:`tooletta.chat.keeps`, as ``ChatFormat.kept_in`` asks it) keeps."""
    from types import SimpleNamespace

    from tooletta.chat import keeps

    messages = [Message(role=role, content=text) for role, text in shape]
    writer: Any = SimpleNamespace(keep=rule)
    anchor = fastpath.FastWriter._anchor_of(writer, messages, len(messages))
    for index in range(len(messages)):
        assert (index > anchor) == keeps(rule, index, messages), (rule, index, shape)


def test_history_rule_turns(learned: dict[str, str]) -> None:
    """Answers with and without reasoning before, between and after user queries, tool
    responses written as user messages (``allow_markup``), no query at all: the history rule
    answered once per conversation writes what the general path writes (Qwen3's
    ``after_last_query`` rule with its block for the last answer; every format)."""
    thought = Message(role="assistant", content="a", reasoning="r")
    bare = Message(role="assistant", content="b")
    wrapped = _user("<tool_response>\nx\n</tool_response>")
    shapes = [
        [thought],
        [bare],
        [thought, bare],
        [Message(role="system", content="s"), thought, thought],
        [_user("q"), thought, _user("q2"), thought, bare],
        [_user("q"), thought, wrapped, thought, wrapped, bare],
        [wrapped, thought, wrapped, bare],
        [_user("q"), bare, bare, thought],
    ]
    counter = Counter()
    for name in learned.values():
        for messages in shapes:
            for prompt in (False, True):
                both(name, messages, counter, add_generation_prompt=prompt, allow_markup=True)
    assert counter.written > 50
    qwen3 = Counter()
    for messages in shapes:
        both(learned["Qwen3"], messages, qwen3, allow_markup=True)
    assert qwen3.written == len(shapes)


def test_content_beside_calls(learned: dict[str, str]) -> None:
    """An answer's content beside its calls: ending with the learned lead or not, holding
    the calls dialect's own markers (refused by its content check, ``allow_markup`` too),
    empty: the same outcome both ways (the learned ``render`` taken apart by the fast
    writer)."""
    from tooletta.chat.lookup import resolve_format

    counter = Counter()
    for name in learned.values():
        _, dialect = resolve_format(None, name)
        markers = list(getattr(dialect.info, "markers", ()))
        texts = ["", "x", "x\n", "x\n\n", "\n", " x ", *(f"a {m} b" for m in markers)]
        for text in texts:
            for calls in ([WEATHER], [WEATHER, ToolCall("get_time", {})]):
                messages = [_user("q"), _answer(text, *calls), _result("1")]
                for allow in (False, True):
                    both(name, messages, counter, tools=SAMPLE_TOOLS, allow_markup=allow)
    assert counter.written > 50


def test_later_messages_the_fast_writer_refuses(learned: dict[str, str]) -> None:
    """A message the fast writer hands back (a chat dict, a non-string content) after turns
    it has written, where those turns read the messages after them (the history rule's
    anchor, a grouped result's next message): the same outcome both ways, never a fault of
    the unchecked message."""
    thought = Message(role="assistant", content="a", reasoning="r")
    odd: list[Any] = [
        {"role": "user", "content": "x"},
        {"role": "tool", "content": "2"},
        Message(role="user", content=None),
        Message(role="tool", content=["2"]),
        "user",
    ]
    counter = Counter()
    for name in learned.values():
        for later in odd:
            shapes = [
                [_user("q"), thought, later],
                [_user("q"), thought, later, thought],
                [_user("q"), _answer("", WEATHER, WEATHER), _result("1"), later],
            ]
            for messages in shapes:
                both(name, messages, counter, tools=SAMPLE_TOOLS)
    assert counter.written == 0 and counter.declined > 0


def test_a_later_system_message(learned: dict[str, str]) -> None:
    """A system message after the first (written as a turn, or refused, by the general
    path): the same outcome both ways."""
    late = Message(role="system", content="late")
    shapes = [
        [_user("a"), late, _answer("b")],
        [Message(role="system", content="s"), late, _user("a")],
        [_user("a"), _answer("b"), late],
    ]
    counter = Counter()
    for name in learned.values():
        for messages in shapes:
            for prompt in (False, True):
                both(name, messages, counter, add_generation_prompt=prompt)
    assert counter.declined > 0


def test_an_answer_holding_the_cut_tag(learned: dict[str, str]) -> None:
    """An answer holding its format's learned cut tag (``</think>``: the template writes only
    what follows it) is written as the general path writes it, with and without
    ``allow_markup``, last or not, beside calls or not."""
    from tooletta.chat.lookup import resolve_format

    cutting = 0
    for name in learned.values():
        fmt, _ = resolve_format(None, name)
        tag = getattr(fmt, "_cut_tag", "")
        if not tag:
            continue
        cutting += 1
        answer = Message(role="assistant", content=f"draft{tag}final")
        called = Message(
            role="assistant",
            content=f"draft{tag}",
            tool_calls=[ToolCall("get_weather", {"city": "Paris"})],
        )
        user = Message(role="user", content="hi")
        for messages in ([user, answer], [user, answer, user], [user, called]):
            for allow in (False, True):
                both(name, messages, tools=SAMPLE_TOOLS, allow_markup=allow)
    assert cutting >= 4


def _with_id(text: str, call_id: str | None) -> Message:
    return Message(role="tool", content=text, tool_call_id=call_id)


def _own_turn_cases() -> list[tuple[list[Message], dict[str, Any]]]:
    """Conversations of a format writing its declarations and default system prompt in
    turns of their own: opening with a system message (empty or not) or not, a later system
    message, results with their own id or none, with and without tools (two tool lists),
    generation prompts and options; ``(messages, render_conversation keywords)``."""
    system, late = Message(role="system", content="s"), Message(role="system", content="late")
    weather, times = [_user("q"), _answer("", WEATHER)], [ToolCall("get_time", {"tz": "UTC"})]
    shapes = [
        [_user("q"), _answer("a")],
        [system, _user("q"), _answer("a")],
        [Message(role="system", content=""), _user("q")],
        [Message(role="system", content=" s\n"), _user(" q\n"), _answer("a")],
        [system],
        [_answer("a")],
        [_user("q"), late, _answer("a")],
        [system, late, _user("q"), _answer("a"), late],
        [*weather, _with_id("1", "call_1"), _answer("a")],
        [*weather, _with_id(" 1\n", None), _answer("a")],
        [system, *weather, _with_id('{"a": 1}', ""), late, _answer("", *times), _result("2")],
        [_user("q"), _answer("", WEATHER, *times), _with_id("1", "functions.get_weather:0")],
        [_with_id("1", "x")],
    ]
    cases = []
    for tools in (None, SAMPLE_TOOLS, SAMPLE_TOOLS[:1]):
        for options in ({}, {"enable_thinking": False}):
            for messages in shapes:
                for prompt in (False, True):
                    kwargs = {"tools": tools, "add_generation_prompt": prompt, **options}
                    cases.append((messages, kwargs))
    return cases


def _one_writer(name: str, cases: list[tuple[list[Message], dict[str, Any]]]) -> Counter:
    """Each case rendered by one fast writer of ``name`` (what it remembers kept from case
    to case, as in use), then by the general path: the same outcome each time."""
    counter = Counter()
    with counter.counting():
        fast = [outcome(name, messages, **kwargs) for messages, kwargs in cases]
    with general_path():
        slow = [outcome(name, messages, **kwargs) for messages, kwargs in cases]
    for case, got, expected in zip(cases, fast, slow, strict=True):
        assert got == expected, (name, case)
    return counter


def test_declarations_in_a_turn_of_their_own(learned: dict[str, str]) -> None:
    """Kimi K2's learned format (the tool declarations and the default system prompt in
    turns of their own before the first message, every system message a turn of its own,
    each result after its own id): written by its fast writer as the general path writes
    it, one writer for all (its openings remembered by the first message's role and the
    tools); a result's id holding the text after it, options that are not hashable, a call
    with an id and a role it has no turn for handed back."""
    name = learned["moonshotai-Kimi-K2"]
    cases = _own_turn_cases()
    counter = _one_writer(name, cases)
    assert counter.written == len(cases) and counter.declined == 0
    after = "\\n"  # the text its template writes after the id (a backslash, an n)
    refused = [
        ([*cases[0][0], _result("1"), _with_id("1", f"a{after}b")], {}),
        ([_user("q")], {"enable_thinking": [1]}),
        ([_user("q"), _answer("", ToolCall("get_weather", {}, id="functions.get_weather:0"))], {}),
        ([_user("q"), Message(role="developer", content="d")], {}),
    ]
    counter = _one_writer(name, refused)
    assert counter.written == 0 and counter.declined == len(refused)
    text = tooletta.render_conversation([_with_id("r", "call_1")], dialect=name)
    assert f"## Return of call_1{after}r" in text


def test_own_turn_variants(learned: dict[str, str], tmp_path: Path) -> None:
    """Formats learned as Kimi K2's with the other settings its hooks read (strips of the
    system, user and result texts, JSON-encoded results, plain footers, no default system
    prompt, fixed options, empty answers refused, an id rule of the answered calls, an empty
    text after the id): their fast writers write what the general path writes, or hand the
    conversation back."""
    import copy
    import json

    from tooletta.chat.learn import learned_formats

    base = learned_formats()
    spec = next(f.spec for f in base if f.name == learned["moonshotai-Kimi-K2"])
    chat_changes: list[dict[str, Any]] = [
        {"system_strip": [" ", "\n"], "user_strip": [" ", "\n"]},
        {"system_strip": [None, None]},
        {"plain_footers": True},
        {"default_system": None, "empty_answer": False},
        {"fixed": {"enable_thinking": [None, False]}},
    ]
    result_changes: list[dict[str, Any]] = [
        {"strip": [None, None], "encoding": {"kind": "json_string", "ensure_ascii": True}},
        {"id": {"source": "call", "after": "\n"}},
        {"id": {"source": "message", "after": ""}},
    ]
    cases = _own_turn_cases()
    odd = [([_user("q"), _answer("")], {}), ([_user("q")], {"enable_thinking": True})]
    cases += odd  # (an empty answer, an option the fixed ones refuse: handed back there)
    for number, change in enumerate([*chat_changes, *result_changes]):
        varied = copy.deepcopy(spec)
        varied["name"] = f"own-turn-{number}"
        target = varied["chat"] if number < len(chat_changes) else varied["chat"]["results"]
        target.update(change)
        path = tmp_path / f"{varied['name']}.json"
        path.write_text(json.dumps(varied), encoding="utf-8")
        tooletta.load_learned(path)
        counter = _one_writer(varied["name"], cases)
        if number < len(chat_changes) + 1:  # (results written with their id: all of them)
            assert counter.written >= len(cases) - len(odd), change
        else:  # results handed back: the answered calls' ids, an id ending with nothing
            assert 0 < counter.declined < len(cases) // 2, change
