"""A third party's chat format that misbehaves fails as a PluginError naming the plugin and
the hook (issue 22, item 9), and a format object of the wrong type is listed at registration.

Hooks that raise, hooks that return the wrong type or a position outside the text, a
``parse_turn`` that returns no ParseResult, ``chat_formats`` holding something that is no
ChatFormat: each once escaped as a raw KeyError/TypeError/AttributeError (or, for a hook
returning ``None``, as a message whose content is ``None``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import tooletta
from support import tag_turns
from tooletta import DialectInfo, Message, ParseResult, PluginError, plugins
from tooletta.chat import ChatFormat, Conversation
from tooletta.chat.guard import HOOK_CHECKS, format_problem

PLUGIN = "chat-faults"
MESSAGES = [Message("user", "hi"), Message("assistant", "yo")]
TEXT = "<u>hi</u><a>yo</a>"


class _Base(ChatFormat):
    name = "faulty_chat_base"
    turns = tag_turns()
    end_of_turn = "</a>"


class _Raises(_Base):
    name = "faulty_chat_raises"

    def header(self, index: int, ctx: Conversation) -> str:
        raise KeyError("header bug")

    def parse_user(self, body: str) -> str:
        raise AttributeError("parse bug")


class _WrongType(_Base):
    name = "faulty_chat_type"

    def user_text(self, index: int, ctx: Conversation) -> str:
        return 5  # type: ignore[return-value]

    def parse_user(self, body: str) -> str:
        return None  # type: ignore[return-value]


class _BadTurn(_Base):
    name = "faulty_chat_turn"

    def parse_turn(self, body: str, dialect: Any, tools: Any) -> Any:
        return 7


class _Loops(_Base):
    name = "faulty_chat_loops"

    def skip_before_turn(self, text: str, pos: int) -> int:
        return 0  # back to the start: the parser would read the text forever


class _Good(_Base):
    name = "good_chat"


class _Dialect:
    info = DialectInfo(name="chat_faults", markers=("<<chat-faults>>",))
    chat_formats = (_Raises(), _WrongType(), _BadTurn(), _Loops(), _Good())

    def parse(self, text: str, tools: Any = None) -> ParseResult:
        return ParseResult(content=text, calls=[], dialect="chat_faults")

    def render(self, calls: Any, content: str = "") -> str:
        return content


class _WrongFormats(_Dialect):
    info = DialectInfo(name="chat_wrong_formats", markers=("<<chat-wrong>>",))
    chat_formats = ("not a format", _Good())  # type: ignore[assignment]


class _Plugin:
    @tooletta.hookimpl
    def register_dialects(self, register: Any) -> None:
        register(_Dialect())
        register(_WrongFormats())


@pytest.fixture()
def faulty(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    plugins.reset()
    tooletta.register_plugin(_Plugin(), name=PLUGIN)
    yield
    monkeypatch.undo()
    plugins.reset()


def _check(exc: pytest.ExceptionInfo[PluginError], *words: str) -> None:
    assert exc.value.plugin == PLUGIN
    for word in words:
        assert word in str(exc.value), str(exc.value)


@pytest.mark.usefixtures("faulty")
@pytest.mark.parametrize(
    ("fmt", "render_hook", "parse_hook"),
    [
        ("faulty_chat_raises", "header() raised KeyError", "parse_user() raised AttributeError"),
        ("faulty_chat_type", "user_text() returned a int", "parse_user() returned a None"),
    ],
)
def test_hook_faults_name_the_plugin_and_the_hook(
    fmt: str, render_hook: str, parse_hook: str
) -> None:
    with pytest.raises(PluginError) as exc:
        tooletta.render_conversation(MESSAGES, dialect=fmt)
    _check(exc, fmt, render_hook)
    with pytest.raises(PluginError) as exc:
        tooletta.parse_conversation(TEXT, dialect=fmt)
    _check(exc, fmt, parse_hook)


@pytest.mark.usefixtures("faulty")
def test_tokenize_reports_the_hook_too() -> None:
    pytest.importorskip("tokenizers")
    from tooletta.testing.training import bpe_tokenizer
    from tooletta.training import tokenize_conversation

    tokenizer = bpe_tokenizer([TEXT], ["<u>", "</u>", "<a>", "</a>"])
    with pytest.raises(PluginError) as exc:
        tokenize_conversation(MESSAGES, tokenizer, dialect="faulty_chat_raises")
    _check(exc, "header()")
    assert tokenize_conversation(MESSAGES, tokenizer, dialect="good_chat").text == TEXT


@pytest.mark.usefixtures("faulty")
def test_parse_turn_must_return_a_parse_result() -> None:
    with pytest.raises(PluginError) as exc:
        tooletta.parse_conversation(TEXT, dialect="faulty_chat_turn")
    _check(exc, "parse_turn() returned a int, not a ParseResult")


@pytest.mark.usefixtures("faulty")
def test_a_position_outside_the_text_is_a_fault_not_a_hang() -> None:
    with pytest.raises(PluginError) as exc:
        tooletta.parse_conversation(TEXT, dialect="faulty_chat_loops")
    _check(exc, "skip_before_turn() returned the position 0")


@pytest.mark.usefixtures("faulty")
def test_a_good_format_of_the_same_plugin_works() -> None:
    assert tooletta.render_conversation(MESSAGES, dialect="good_chat") == TEXT
    back = tooletta.parse_conversation(TEXT, dialect="good_chat")
    assert [(m.role, m.content) for m in back] == [("user", "hi"), ("assistant", "yo")]


@pytest.mark.usefixtures("faulty")
def test_wrong_format_objects_are_listed_at_registration() -> None:
    problems = [p.error for p in plugins.get_registry().problems if p.plugin == PLUGIN]
    assert any("chat_formats[0] is a str, not a ChatFormat" in p for p in problems), problems
    # the dialect itself is registered (its parse and render work); its formats refuse
    assert tooletta.parse("x", "chat_wrong_formats").content == "x"
    with pytest.raises(PluginError) as exc:
        tooletta.render_conversation(MESSAGES, dialect="chat_wrong_formats")
    _check(exc, "not a ChatFormat")


def test_first_party_formats_pass_the_registration_check() -> None:
    from tooletta.chat import chat_formats_of

    for info in tooletta.list_dialects():
        for fmt in chat_formats_of(tooletta.get_dialect(info.name)):
            assert format_problem(fmt) is None, (info.name, fmt.name)


def test_every_hook_is_checked() -> None:
    hooks = {
        name
        for name, value in vars(ChatFormat).items()
        if callable(value) and not name.startswith("_")
    }
    assert hooks - set(HOOK_CHECKS) == {"parse_turn"}


def test_a_learned_format_is_trusted_but_not_a_subclass_of_it() -> None:
    """A learned format's class is built by tooletta (every hook core code): the guard
    returns it as it is; a subclass written elsewhere is guarded like any plugin's."""
    from tooletta.chat.guard import guarded, trusted

    class _Made(_Base):
        name = "trusted_made"

        def header(self, index: int, ctx: Conversation) -> str:
            return "<x>"

    trusted(_Made)
    fmt = _Made()
    assert guarded(fmt, PLUGIN) is fmt

    class _Foreign(_Made):
        name = "trusted_foreign"

    foreign = _Foreign()
    wrapped = guarded(foreign, PLUGIN)
    assert wrapped is not foreign and type(wrapped) is not _Foreign
    assert type(wrapped).header is not _Foreign.header  # wrapped: its faults are plugin errors


def test_a_learned_format_renders_unguarded() -> None:
    """The format a learned dialect resolves to is the learned class's own instance."""
    pytest.importorskip("jinja2")
    from pathlib import Path

    from tooletta.catalog import resolve_format
    from tooletta.chat.guard import _TRUSTED

    template = Path(__file__).parent / "fixtures" / "templates" / "HuggingFaceTB-SmolLM3-3B.jinja"
    try:
        learned = tooletta.learn(str(template), name="trusted_smollm3")
        fmt, _ = resolve_format(None, learned.name)
        assert type(fmt) in _TRUSTED and fmt is learned.format
        assert tooletta.render_conversation(MESSAGES, dialect=learned.name)
    finally:
        plugins.reset()
