"""``render_conversation``'s shortcuts (issue 21) write what the generic renderer writes.

:func:`tooletta.render_conversation` renders with :func:`tooletta.chat.render.render_text`,
which writes an answer without calls without asking the dialect where its text is proved to
be the content (:mod:`tooletta.chat.shortcuts`), hands calls that
:func:`~tooletta.chat.checks.check_conversation` checked straight to the dialect, and knows
some learned hooks by their definitions (the declarations turn before the first message
only, the header after tool results). The reference is
:func:`tooletta.chat.render_spans` with ``segments=False`` and nothing proved of any dialect:
the same checks, then every hook asked for every turn (``assistant_text`` → ``turn_body`` →
``calls_text``, which checks the calls again, → the dialect).
Both must give the same text, or the same error (type and message), for every installed
format and a few learned ones, on random conversations: any role order, texts holding the
format's own markup, calls with nesting, odd values and ids.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tooletta
from support import installed_formats
from tooletta import Message, ToolCall
from tooletta.chat import render_spans, shortcuts
from tooletta.chat.samples import PROBE_TOOLS
from tooletta.chat.shortcuts import UNPROVED, without_calls
from tooletta.testing.conversations import SAMPLE_TOOLS
from tooletta.testing.strategies import FOREIGN_TOKENS, calls_strategy

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "templates"
LEARNED = {
    "kimi-k2": FIXTURES / "moonshotai-Kimi-K2.jinja",  # declarations turn, result ids
    "deepseek-v31": FIXTURES / "deepseek-ai-DeepSeek-V3.1.jinja",  # header after results
    "rwkv": FIXTURES / "llama-cpp-rwkv-world.jinja",  # no calls, plain footers
    "bielik": FIXTURES / "Bielik-11B-v3.0-Instruct.jinja",  # hermes calls, answer strip
    "smollm3": FIXTURES / "HuggingFaceTB-SmolLM3-3B.jinja",  # no calls, answer strip
}
INSTALLED = sorted(installed_formats())

pytestmark = pytest.mark.usefixtures("forget_learned")


@pytest.fixture(scope="module")
def learned() -> dict[str, str]:
    return {
        key: tooletta.learn(str(path), name=f"shortcut-{key}", lenient=True).name
        for key, path in LEARNED.items()
    }


def _tokens(name: str) -> list[str]:
    """Markup of the format ``name`` (its headers, footers, end token, reasoning tags and its
    dialect's markers) and of others."""
    from tooletta.chat.lookup import resolve_format

    fmt, dialect = resolve_format(None, name)
    found = [fmt.end_of_turn, fmt.bos, *FOREIGN_TOKENS[:8]]
    for turn in fmt.turns.values():
        found += [turn.header, turn.footer]
    if fmt.reasoning is not None:
        found += [fmt.reasoning.open, fmt.reasoning.close]
    found += list(getattr(getattr(dialect, "info", None), "markers", ()) or ())
    found += list(getattr(getattr(dialect, "grammar", None), "content_markers", ()) or ())
    inner = getattr(dialect, "inner", None)  # a learned format's installed writer
    found += list(getattr(getattr(inner, "grammar", None), "content_markers", ()) or ())
    return sorted({t for t in found if t and t.strip()})


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def _conversations(tokens: list[str]) -> Any:
    plain = st.text("ab \n.é東", max_size=6)
    text = st.one_of(
        plain,
        st.lists(st.one_of(plain, st.sampled_from(tokens)), max_size=3).map("".join),
    )
    odd = st.sampled_from(
        [
            ToolCall("f", {"x": math.nan}),
            ToolCall("", {}),
            ToolCall("f", {"deep": _nested(40)}),
            ToolCall("probe", {"s": 5}),
            ToolCall("f", {"b": b"x"}),
            ToolCall("f", {"n": 10**5000}),
        ]
    )
    calls: Any = st.one_of(
        st.just([]),
        calls_strategy(tokens[:4], ids="some"),
        st.lists(odd, min_size=1, max_size=2),
    )
    message = st.one_of(
        st.builds(lambda t: Message("user", t), text),
        st.builds(lambda t: Message("system", t), text),
        st.builds(
            lambda t, r, c, tup: Message(
                "assistant",
                t,
                tool_calls=tuple(c) if tup else c,  # type: ignore[arg-type]
                reasoning=r,
            ),
            text,
            st.one_of(st.just(""), text),
            calls,
            st.sampled_from([False] * 7 + [True]),  # now and then a tuple of calls
        ),
        st.builds(
            lambda t, i: Message("tool", t, tool_call_id=i),
            text,
            st.one_of(st.none(), st.from_regex(r"[a-z0-9_:.]{1,8}", fullmatch=True)),
        ),
    )
    return st.lists(message, max_size=7)


def _outcome(render: Any) -> tuple[str, str]:
    try:
        return ("text", render())
    except tooletta.ToolettaError as exc:
        return (type(exc).__name__, str(exc))
    except Exception as exc:  # a raw error must be the same one on both paths too
        return (f"raw {type(exc).__name__}", str(exc))


@contextmanager
def _unproved() -> Iterator[None]:
    """Nothing proved of any dialect (every answer without calls asks the dialect), for the
    reference render."""
    saved = dict(shortcuts._KNOWN), shortcuts.LAST[0]
    shortcuts._KNOWN.clear()
    shortcuts.LAST[0] = (None, UNPROVED)
    try:
        with patch.object(shortcuts, "_prove", lambda dialect, depth: UNPROVED):
            yield
    finally:
        shortcuts._KNOWN.clear()
        shortcuts._KNOWN.update(saved[0])
        shortcuts.LAST[0] = saved[1]


def _same(name: str, messages: list[Message], tools: Any, prompt: bool, markup: bool) -> None:
    fast = _outcome(
        lambda: tooletta.render_conversation(
            messages, dialect=name, tools=tools, add_generation_prompt=prompt, allow_markup=markup
        )
    )
    with _unproved():  # the reference: every hook and the dialect asked, the calls checked
        generic = _outcome(
            lambda: (
                render_spans(
                    messages,
                    dialect=name,
                    tools=tools,
                    add_generation_prompt=prompt,
                    segments=False,
                    allow_markup=markup,
                ).text
            )
        )
    assert fast == generic, (name, messages)


_TOOLS = st.sampled_from([None, PROBE_TOOLS, SAMPLE_TOOLS])
_SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("name", INSTALLED)
def test_installed_formats_write_what_the_generic_renderer_writes(name: str) -> None:
    @_SETTINGS
    @given(_conversations(_tokens(name)), _TOOLS, st.booleans(), st.booleans())
    def check(messages: list[Message], tools: Any, prompt: bool, markup: bool) -> None:
        _same(name, messages, tools, prompt, markup)

    check()


@pytest.mark.parametrize("key", sorted(LEARNED))
def test_learned_formats_write_what_the_generic_renderer_writes(
    key: str, learned: dict[str, str]
) -> None:
    name = learned[key]

    @settings(_SETTINGS, max_examples=120)
    @given(_conversations(_tokens(name)), _TOOLS, st.booleans(), st.booleans())
    def check(messages: list[Message], tools: Any, prompt: bool, markup: bool) -> None:
        _same(name, messages, tools, prompt, markup)

    check()


def _every_token(name: str) -> None:
    for token in _tokens(name):
        for text in (token, f"a {token} b"):
            answer = Message("assistant", text)
            for messages in (
                [Message("user", "hi"), answer],
                [Message("user", "hi"), answer, Message("user", "more")],
            ):
                for markup in (False, True):
                    _same(name, messages, None, False, markup)


@pytest.mark.parametrize("name", INSTALLED)
def test_answers_holding_markup_are_refused_as_the_dialect_refuses_them(name: str) -> None:
    """Every token of the format and its dialect in an answer without calls: the dialect's
    own check (kept by the shortcut) refuses the same ones, with ``allow_markup`` too."""
    _every_token(name)


@pytest.mark.parametrize("key", sorted(LEARNED))
def test_learned_answers_holding_markup_are_refused_alike(
    key: str, learned: dict[str, str]
) -> None:
    _every_token(learned[key])


def test_what_is_proved_of_the_dialects(learned: dict[str, str]) -> None:
    """The installed dialects the conversation formats use are proved (their answers without
    calls skip them); a dialect with its own ``render`` and no mark is asked."""
    from tooletta.catalog import get_dialect

    assert without_calls(get_dialect("hermes")) is not UNPROVED
    assert without_calls(get_dialect("kimi_k2")) is not UNPROVED
    for marked in ("llama3_json", "gigachat3", "gigachat31"):  # plain_render overrides
        assert without_calls(get_dialect(marked)) is not UNPROVED
    assert without_calls(get_dialect(learned["rwkv"])) is None  # NoCalls: checks nothing
    assert without_calls(get_dialect(learned["bielik"])) is not UNPROVED  # hermes inside

    class Own(type(get_dialect("hermes"))):  # type: ignore[misc]
        def render(self, calls: Any, content: str = "") -> str:
            return content + "!"

    assert without_calls(Own()) is UNPROVED


def _marked() -> list[str]:
    """The installed dialects whose ``render`` is an override marked ``plain_render``."""
    from tooletta.catalog import get_dialect
    from tooletta.dialect import ScannerDialect
    from tooletta.toolkit.rendermark import MARK

    found = set()
    for info in tooletta.list_dialects():
        name = info.name
        render = getattr(type(get_dialect(name)), "render", None)
        if render is not ScannerDialect.render and getattr(render, MARK, False) is True:
            found.add(name)
    return sorted(found)


MARKED = _marked()
_ODD_CALLS = [
    ToolCall("f", {"x": math.nan}),
    ToolCall("", {}),
    ToolCall("f b", {}),
    ToolCall('f"', {}),
    ToolCall("f", {"deep": _nested(40)}),
    ToolCall("f", {"b": b"x"}),
    ToolCall("f", {"n": 10**5000}),
]


def test_the_marked_dialects_are_the_proved_ones() -> None:
    """The overrides marked so far stay marked (dropping a mark loses the shortcut)."""
    assert {"hermes", "llama3_json", "gigachat3", "gigachat31"} <= set(MARKED)


@pytest.mark.parametrize("name", MARKED)
def test_marked_render_writes_what_scanner_render_writes(name: str) -> None:
    """A ``render`` marked ``plain_render`` gives ``ScannerDialect.render``'s text, or its
    error (type and message), for content with and without the dialect's markers and for
    empty and non-empty calls (lists and tuples, odd names and values)."""
    from tooletta.catalog import get_dialect
    from tooletta.dialect import ScannerDialect

    dialect = get_dialect(name)
    markers = [*dialect.info.markers, *dialect.grammar.content_markers]
    tokens = sorted({t for t in [*markers, *FOREIGN_TOKENS[:8], "<", "{", "\n"] if t})
    plain = st.text("ab \n.é東{}[]<>\"':,", max_size=8)
    content = st.one_of(
        plain, st.lists(st.one_of(plain, st.sampled_from(tokens)), max_size=3).map("".join)
    )
    calls: Any = st.one_of(
        st.just([]),
        st.just(()),
        calls_strategy([t for t in markers if t][:4], ids="some"),
        st.lists(st.sampled_from(_ODD_CALLS), min_size=1, max_size=2),
    )

    @settings(_SETTINGS, max_examples=300)
    @given(calls, content, st.booleans())
    def check(items: Any, text: str, as_tuple: bool) -> None:
        items = tuple(items) if as_tuple else list(items)
        mine = _outcome(lambda: dialect.render(items, content=text))
        base = _outcome(lambda: ScannerDialect.render(dialect, items, content=text))
        assert mine == base, (items, text)

    check()
