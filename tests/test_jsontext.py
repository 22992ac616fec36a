"""toolkit.jsontext.json_string writes what to_json writes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tooletta import to_json
from tooletta.toolkit.jsontext import json_string


@given(st.one_of(st.text(), st.from_regex(r"[A-Za-z_][A-Za-z0-9_]*", fullmatch=True)))
def test_json_string_is_to_json(text: str) -> None:
    assert json_string(text) == to_json(text)


def test_json_string_quotes_identifiers_and_digits_and_escapes_the_rest() -> None:
    assert json_string("get_weather") == '"get_weather"'
    assert json_string("東京") == '"東京"'
    assert json_string("12") == '"12"'
    assert json_string('a"b') == '"a\\"b"'
    assert json_string("tab\t") == '"tab\\t"'
