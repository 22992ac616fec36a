"""The K2 writer's inline checks (issue 21) answer as the toolkit's: ``header_safe`` for the
name (at a glance when it holds no ``<|``, which every K2 marker starts with) and
``json_without`` for the arguments."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tooletta_dialect_kimi.k2 import _MARKERS, KimiK2Dialect
from tooletta_dialect_kimi.k2ids import (
    ARG_BEGIN,
    CALL_BEGIN,
    CALL_END,
    IM_END,
    SECTION_BEGIN,
    SECTION_END,
    kimi_id,
)

from tooletta import RenderError, ToolCall
from tooletta.plugin import header_safe, json_without

_PIECES = [*_MARKERS, IM_END, "<", "|", "<|", " ", "\n", "a", "get_weather", "é", "."]


def test_every_marker_starts_with_the_glance() -> None:
    assert all(m.startswith("<|") for m in _MARKERS)


def _reference(calls: list[ToolCall]) -> str:
    parts = []
    for i, c in enumerate(calls):
        if not header_safe(c.name, _MARKERS):
            raise RenderError(f"cannot write the tool name {c.name!r}")
        args = json_without(c.arguments, (IM_END,))
        parts.append(CALL_BEGIN + kimi_id(c, i) + ARG_BEGIN + args + CALL_END)
    return SECTION_BEGIN + "".join(parts) + SECTION_END


def _outcome(write: Any) -> str:
    try:
        return "text " + str(write())
    except RenderError as exc:
        return "error " + str(exc).split(": ", 1)[-1]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(_PIECES), max_size=4).map("".join),
            st.dictionaries(
                st.sampled_from(["a", "b<", IM_END]),
                st.lists(st.sampled_from(_PIECES), max_size=3).map("".join),
                max_size=2,
            ),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_the_writer_writes_what_the_toolkit_checks_write(items: list[tuple[str, Any]]) -> None:
    calls = [ToolCall(name, arguments) for name, arguments in items]
    dialect = KimiK2Dialect()
    assert _outcome(lambda: dialect.render_calls(calls)) == _outcome(lambda: _reference(calls))
