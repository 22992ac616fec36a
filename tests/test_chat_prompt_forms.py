"""Generation prompts that depend on a template switch (``ChatFormat.prompt_options``,
``generation_prompts``, ``prompt_start``): ``parse_format`` is not told the switches a text
was rendered with, and reads any of their prompts at the end of a text as no message; checked
on a small declared format whose user turns have no footer."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from tooletta import Message, get_dialect
from tooletta.chat import ChatFormat, Conversation, Turn, defaults, render_format, roles
from tooletta.chat.parse import parse_format


class _Switch(ChatFormat):
    """User turns without a footer; ``think=True`` writes `` /on`` before the assistant
    header of the generation prompt (as LongCat's `` /think_on``) and ``budget=N`` adds it."""

    name = "switch_test"
    turns = roles(user=Turn("<u>"), assistant=Turn("<a>", "</e>"))
    end_of_turn = "</e>"
    options = defaults(think=False, budget=None)
    prompt_options: ClassVar[Sequence[Mapping[str, Any]]] = ({"think": True},)

    def generation_prompt(self, ctx: Conversation) -> str:
        if not ctx.options.get("think"):
            return "<a>"
        budget = ctx.options.get("budget")
        return f" /on{f' {budget}' if budget else ''}<a>"


class _Undeclared(_Switch):
    name = "undeclared_test"
    prompt_options = ()


class _Budget(_Switch):
    name = "budget_test"

    def prompt_start(self, text: str, pos: int, ctx: Conversation) -> int:
        found = re.compile(r" /on \d+<a>\Z").search(text, pos)
        start = super().prompt_start(text, pos, ctx)
        return min(start, found.start()) if found else start


def _hermes() -> Any:
    return get_dialect("hermes")


def _prompt(fmt: ChatFormat, messages: list[Message], **options: Any) -> str:
    return render_format(fmt, _hermes(), messages, [], True, options).text


MESSAGES = [Message("user", "hi"), Message("assistant", "ok"), Message("user", "more")]


def test_generation_prompts_lists_every_option_sets_prompt_longest_first() -> None:
    ctx = Conversation(MESSAGES, [], dict(_Switch.options), _hermes())
    assert _Switch().generation_prompts(ctx) == (" /on<a>", "<a>", "")
    assert _Undeclared().generation_prompts(ctx) == ("<a>", "")


def test_prompt_of_a_declared_switch_reads_as_no_message() -> None:
    for options in ({}, {"think": True}):
        text = _prompt(_Switch(), MESSAGES, **options)
        assert parse_format(_Switch(), _hermes(), text, []) == MESSAGES


def test_prompt_of_an_undeclared_switch_stays_in_the_last_turn() -> None:
    text = _prompt(_Undeclared(), MESSAGES, think=True)
    back = parse_format(_Undeclared(), _hermes(), text, [])
    assert back[-1] == Message("user", "more /on")


def test_prompt_start_finds_a_prompt_no_list_names() -> None:
    for budget in (1, 4096):
        text = _prompt(_Budget(), MESSAGES, think=True, budget=budget)
        assert text.endswith(f"more /on {budget}<a>")
        assert parse_format(_Budget(), _hermes(), text, []) == MESSAGES
