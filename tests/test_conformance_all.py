"""The four laws, and the render laws, over every installed dialect (plugins also run the kit
with their fixtures)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import RenderError, ToolCall
from tooletta.testing import (
    FOREIGN_TOKENS,
    calls_strategy,
    check_bad_input,
    check_render_laws,
    check_round_trip,
    check_stream_equals_parse,
    tools_for,
)

DIALECTS = [i.name for i in tooletta.list_dialects()]
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
SAMPLE = [
    ToolCall("get_weather", {"city": "Zürich", "days": 3}),
    ToolCall("search", {"q": 'say "hi" \\ now\n', "filters": {"lang": ["en", "東京"]}}),
    ToolCall("now", {}),
]


def _ids_mode(dialect: str) -> str:
    """Whether the dialect keeps, generates or drops ids (read off a render/parse)."""
    calls = [ToolCall("get_weather", {"city": "Paris"}, "abcDEF123")]
    text = tooletta.render(calls, dialect)
    got = tooletta.parse(text, dialect, tools=tools_for(calls)).calls[0].id
    if got == "abcDEF123":
        return "kept"
    return "generated" if got else "none"


def _render_some(dialect: str) -> tuple[str, list[ToolCall]]:
    """The sample calls rendered (with content when the dialect can carry it)."""
    simple = [ToolCall("get_weather", {"city": "Zürich"})]
    for calls in (SAMPLE, simple):
        for content in ("Let me check.", ""):
            try:
                return tooletta.render(calls, dialect, content=content), calls
            except RenderError:
                continue
    raise AssertionError(f"{dialect} cannot render even one simple call")


@pytest.mark.parametrize("dialect", DIALECTS)
def test_sample_round_trip_and_stream(dialect: str) -> None:
    text, calls = _render_some(dialect)
    tools = tools_for(calls)  # formats whose tool names or value types come from the schema
    result = tooletta.parse(text, dialect, tools=tools)
    assert [c.name for c in result.calls] == [c.name for c in calls]
    cuts: Sequence[int] | None
    for cuts in (None, [], range(0, len(text), 5)):
        check_stream_equals_parse(dialect, text, cuts, tools)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_round_trip_generated_calls(dialect: str) -> None:
    markers = list(tooletta.get_dialect(dialect).info.markers)
    ids = _ids_mode(dialect)

    @SETTINGS
    @given(calls_strategy(markers, ids))
    def run(calls: list[ToolCall]) -> None:
        check_round_trip(dialect, calls, "", ids)

    run()


@pytest.mark.parametrize("dialect", DIALECTS)
def test_bad_input_never_escapes(dialect: str) -> None:
    base, calls = _render_some(dialect)
    tools = tools_for(calls)

    @SETTINGS
    @given(
        st.lists(
            st.tuples(
                st.integers(0, 10_000),
                st.sampled_from([*FOREIGN_TOKENS, "", "\x00"]),
                st.booleans(),
            ),
            max_size=4,
        )
    )
    def run(edits: list[tuple[int, str, bool]]) -> None:
        text = base
        for at, token, cut in edits:
            at %= len(text) + 1
            text = text[:at] if cut else text[:at] + token + text[at:]
        check_bad_input(dialect, text, tools)
        check_stream_equals_parse(dialect, text, range(0, len(text), 3), tools)

    run()


@pytest.mark.parametrize("dialect", DIALECTS)
def test_prose_with_marker_prefixes_is_content(dialect: str) -> None:
    markers = tooletta.get_dialect(dialect).info.markers
    for marker in markers:
        if len(marker) < 2:
            continue
        text = f"A sentence ending with a partial marker {marker[: len(marker) // 2]}"
        result = tooletta.parse(text, dialect)
        if not result.calls and not result.unparsed:
            check_stream_equals_parse(dialect, text)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_render_laws(dialect: str) -> None:
    """Render refuses what parse cannot read back (NaN, depth, long names, empty names)."""
    check_render_laws(dialect)
