"""The markup search's prefilter (issue 21): each token looked for by its rarest character,
then by ``token in text``, refuses exactly what the first-character prefilter and one
pattern refused before, for every installed format's markup (texts built from the pieces of
its tokens: prefixes, suffixes, single characters, the separator, foreign text)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import installed_formats
from tooletta import Message, RenderError
from tooletta.chat.checks import _check_markup, check_conversation
from tooletta.chat.lookup import resolve_format
from tooletta.chat.markup import Markup, find_markup, holds_markup, markup_of

INSTALLED = sorted(installed_formats())


def _old_find(text: str, markup: Markup) -> str | None:
    """The search as it was: any token's first character, then the one pattern."""
    if markup.pattern is None or not text:
        return None
    if not any(lead in text for lead in markup.leads):
        return None
    found = markup.pattern.search(text)
    return found.group() if found is not None else None


def _pieces(tables: tuple[Markup, Markup]) -> list[str]:
    """Every token of both tables, its halves, first and last characters and each character."""
    found: set[str] = {"\x00", "\n", " ", "text", "é"}
    for token in {*tables[0].tokens, *tables[1].tokens}:
        half = len(token) // 2
        found.update((token, token[:half], token[half:], token[:-1], token[1:], *token))
    return sorted(found)


def _texts(pieces: list[str]) -> Any:
    return st.lists(st.sampled_from(pieces), max_size=8).map("".join)


def _outcome(call: Any) -> str:
    try:
        call()
    except RenderError as exc:
        return f"RenderError: {exc}"
    return ""


@pytest.mark.parametrize("name", INSTALLED)
def test_the_probes_find_what_the_first_characters_and_pattern_found(name: str) -> None:
    fmt, dialect = resolve_format(None, name)
    tables = markup_of(fmt, dialect)
    pieces = _pieces(tables)

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(texts=st.lists(_texts(pieces), min_size=1, max_size=3))
    def check(texts: list[str]) -> None:
        joined = "\x00".join(texts)
        for table in tables:
            old = _old_find(joined, table)
            assert find_markup(joined, table) == old
            assert holds_markup(joined, table) is (old is not None)
        messages = [Message(role, text) for role, text in zip(("user", "assistant"), texts)]
        messages += [Message("user", text) for text in texts[2:]]
        body = tables[1]
        want = (
            _outcome(lambda: _check_markup(fmt, dialect, messages, joined, tables))
            if _old_find("\x00".join(str(m.content) for m in messages), body) is not None
            else ""
        )
        got = _outcome(lambda: check_conversation(fmt, dialect, messages, (), False, tables))
        assert got == want

    check()


def test_a_role_marker_is_looked_for_by_its_rarest_character() -> None:
    table = Markup.of(["human:", "assistant:", "<sep>", "<tool_call>"])
    assert dict(table.probes) == {":": ("assistant:", "human:"), "<": ("<tool_call>", "<sep>")}
    assert not holds_markup("a human says hi: assistant", table)
    assert holds_markup("x\x00human: hi", table)
    assert find_markup("say <sep> now", table) == "<sep>"


def test_a_table_built_without_probes_finds_them() -> None:
    table = Markup.of(["<sep>", "human:"])
    built = Markup(table.tokens, table.leads, table.pattern)
    assert built.probes == table.probes
    assert holds_markup("a human: b", built)
