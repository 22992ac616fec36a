"""The helpers that replaced code core wrote twice: ``jsonout.json_type`` (the CLI's and the
dataset converter's "not a list" messages), ``toolkit.schema.JSON_TYPE_NAMES``,
``toolkit.fastxml.skip_gap`` (the XML and key/value readers' whitespace gap),
``Model.plain`` (a row as the plugin index keeps it) and the event writers'
shared frame (``interop._segments.SegmentWriter``)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tooletta import CallDelta, StreamUpdate
from tooletta.interop import (
    AnthropicEventWriter,
    ResponsesEventWriter,
    updates_to_anthropic_events,
    updates_to_responses_events,
)
from tooletta.jsonout import json_type
from tooletta.plugin import Model
from tooletta.plugins import _Row
from tooletta.toolkit.fastxml import MAX_GAP, skip_gap
from tooletta.toolkit.schema import JSON_TYPE_NAMES

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (None, "null"),
        (True, "a boolean"),
        (0, "a number"),
        (1.5, "a number"),
        ("", "a string"),
        ([], "a list"),
        ({}, "an object"),
        ((1,), "tuple"),
        (b"x", "bytes"),
    ],
)
def test_json_type_names_values_in_json_words(value: Any, words: str) -> None:
    assert json_type(value) == words


@given(json_values)
def test_json_type_agrees_with_the_schema_type_names(value: Any) -> None:
    """Both tables name every decoded JSON value, and name it alike."""
    schema = JSON_TYPE_NAMES[type(value)]
    expected = {
        "null": "null",
        "boolean": "a boolean",
        "integer": "a number",
        "number": "a number",
        "string": "a string",
        "array": "a list",
        "object": "an object",
    }[schema]
    assert json_type(value) == expected


def _gap_reference(text: str, pos: int) -> tuple[int, int]:
    gap_end = min(len(text), pos + MAX_GAP)
    i = pos
    while i < gap_end and text[i] in " \t\r\n":
        i += 1
    return i, gap_end


@given(st.text(alphabet=" \t\r\nx<"), st.integers(min_value=0, max_value=200))
def test_skip_gap_stops_at_the_first_non_space_within_the_gap(text: str, pos: int) -> None:
    pos = min(pos, len(text))
    i, gap_end = skip_gap(text, pos)
    assert (i, gap_end) == _gap_reference(text, pos)
    assert pos <= i <= gap_end <= len(text)
    assert text[pos:i].strip(" \t\r\n") == ""


def test_skip_gap_gives_up_after_max_gap_spaces() -> None:
    text = " " * (MAX_GAP + 5) + "<"
    assert skip_gap(text, 0) == (MAX_GAP, MAX_GAP)
    assert skip_gap("  <", 0) == (2, 3)


def test_model_plain_is_the_index_row() -> None:
    row = Model(
        ["Acme/Acme-*", "acme-7b"],
        dialect="hermes",
        dialects=["pythonic"],
        chat="chatml",
        source="acme chat_template.jinja",
    )
    assert row.plain == (
        ("acme/acme-*", "acme-7b"),
        ("hermes", "pythonic"),
        "chatml",
        "",
        "acme chat_template.jinja",
        (),
    )
    back = _Row.of(row).model()
    assert back.plain == row.plain
    assert Model("x-*", "hermes").plain == (("x-*",), ("hermes",), None, "", "", ())


def _updates() -> list[StreamUpdate]:
    return [
        StreamUpdate(reasoning="hm"),
        StreamUpdate(content="Hi"),
        StreamUpdate(calls=[CallDelta(0, name="f")]),
        StreamUpdate(calls=[CallDelta(0, arguments='{"a": 1}', id="late")]),
    ]


@pytest.mark.parametrize(
    ("writer", "whole"),
    [
        (AnthropicEventWriter, updates_to_anthropic_events),
        (ResponsesEventWriter, updates_to_responses_events),
    ],
)
def test_event_writers_share_their_frame(writer: Any, whole: Any) -> None:
    fixed: dict[str, Any] = (
        {"message_id": "m"} if writer is AnthropicEventWriter else {"response_id": "r"}
    )
    if writer is ResponsesEventWriter:
        fixed["created_at"] = 0
    w = writer(**fixed)
    events = [e for u in _updates() for e in w.write(u)]
    events += w.finish()
    assert events == whole(_updates(), **fixed)
    assert w.late_ids == {0: "late"}
    assert w.discarded == []
    with pytest.raises(ValueError, match="finished"):
        w.write(StreamUpdate(content="more"))
    first = events[0]["type"]
    assert first in ("message_start", "response.created")
    assert sum(e["type"] == first for e in events) == 1  # the opening is sent once
