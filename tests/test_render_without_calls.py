"""Dialects whose ``render`` override is marked ``plain_render_without_calls`` (issue 21):
given no calls, it writes what :meth:`tooletta.ScannerDialect.render` writes (the content,
once ``check_content`` has passed) and raises what it raises, so the conversation renderer
writes their answers without calls without asking them (:mod:`tooletta.chat.shortcuts`)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tooletta
from tooletta.catalog import get_dialect
from tooletta.chat.shortcuts import UNPROVED, renders_as_scanner, without_calls
from tooletta.dialect import ScannerDialect
from tooletta.testing.strategies import FOREIGN_TOKENS
from tooletta.toolkit.rendermark import NO_CALLS_MARK, plain_render_without_calls

VERIFIED = ["apriel", "cline", "gemma4", "lfm2", "llama4_json", "minimax_m2", "olmo3", "xlam"]
"""Read and marked: no calls, their ``render`` is ``check_content`` then the content
(apriel, cline, llama4_json, minimax_m2, xlam), or reads the content back where every reader
of the grammar (blocks, reasoning regions, erased tokens) starts at one of its content
markers, which ``check_content`` refuses, so content that passes reads back as itself
(gemma4, lfm2, olmo3). Sarashina is not: its grammar reads a call list at the start of the
text without a marker (:func:`test_sarashina_reads_content_back_so_is_not_marked`)."""


def _marked() -> list[str]:
    """The installed dialects whose ``render`` is marked ``plain_render_without_calls``."""
    found = set()
    for info in tooletta.list_dialects():
        render = getattr(type(get_dialect(info.name)), "render", None)
        if getattr(render, NO_CALLS_MARK, False) is True:
            found.add(info.name)
    return sorted(found)


MARKED = _marked()


def _outcome(write: Any) -> tuple[str, str]:
    try:
        return ("text", write())
    except Exception as exc:  # the type and message are compared
        return (type(exc).__name__, f"{exc} {getattr(exc, 'dialect', None)}")


@pytest.mark.parametrize("name", MARKED)
def test_marked_render_without_calls_writes_what_scanner_render_writes(name: str) -> None:
    """``render([], content)`` (a list or a tuple) gives ``ScannerDialect.render``'s text or
    error, for content with and without the dialect's markers and pieces of them."""
    dialect = get_dialect(name)
    markers = [*dialect.info.markers, *dialect.grammar.content_markers]
    pieces = {t for t in [*markers, *FOREIGN_TOKENS[:8], "<", "{", "[", "(", "\n", " "] if t}
    for marker in markers:
        pieces.update((marker[: len(marker) // 2], marker[len(marker) // 2 :]))
    plain = st.text("ab \n.é東{}[]()<>\"':,=_", max_size=8)
    content = st.one_of(
        plain, st.lists(st.one_of(plain, st.sampled_from(sorted(pieces))), max_size=4).map("".join)
    )

    @settings(
        max_examples=300,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(content, st.booleans())
    def check(text: str, as_tuple: bool) -> None:
        empty: Any = () if as_tuple else []
        mine = _outcome(lambda: dialect.render(empty, content=text))
        base = _outcome(lambda: ScannerDialect.render(dialect, empty, content=text))
        assert mine == base, text

    check()


def test_the_verified_dialects_stay_marked() -> None:
    """Dropping a mark loses the shortcut; these were read and are tested above."""
    assert set(VERIFIED) <= set(MARKED)


@pytest.mark.parametrize("name", MARKED)
def test_marked_dialects_are_proved_for_answers_without_calls_only(name: str) -> None:
    dialect = get_dialect(name)
    assert without_calls(dialect) is not UNPROVED
    assert not renders_as_scanner(dialect)  # with calls: still asked


def test_the_mark_is_not_inherited_by_another_override() -> None:
    class Own(type(get_dialect("xlam"))):  # type: ignore[misc]
        def render(self, calls: Any, content: str = "") -> str:
            return content + "!"

    assert without_calls(Own()) is UNPROVED
    assert plain_render_without_calls(Own.render) is Own.render
    assert without_calls(Own()) is not UNPROVED


def test_sarashina_reads_content_back_so_is_not_marked() -> None:
    """Content that is a bare call-dict list passes ``check_content`` but reads back as a
    call: Sarashina's ``render`` refuses it where ``ScannerDialect.render`` writes it."""
    dialect = get_dialect("sarashina")
    text = "[{'name': 'f', 'arguments': {}}]"
    assert ScannerDialect.render(dialect, [], content=text) == text
    with pytest.raises(tooletta.RenderError, match="would not read back"):
        dialect.render([], content=text)
    assert "sarashina" not in MARKED
    assert without_calls(dialect) is UNPROVED
