"""The key/value writers' shortcuts (kvcall.render_value, check_name) answer as the general
path does."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from tooletta import RenderError, to_json
from tooletta.engine import Block, Grammar, parse_with
from tooletta.toolkit.kvcall import KvTags, check_name, read_kv_call, render_pairs, render_value

TAGS = KvTags(
    close="</tool_call>",
    key_open="<arg_key>",
    key_close="</arg_key>",
    value_open="<arg_value>",
    value_close="</arg_value>",
)


@given(st.one_of(st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False)))
def test_render_value_writes_scalars_as_json(value: object) -> None:
    if isinstance(value, float) and value - value != 0:
        with pytest.raises(RenderError):
            render_value(value, TAGS, "glm45")
        return
    assert render_value(value, TAGS, "glm45") == to_json(value)


def test_render_value_refuses_an_integer_past_the_digit_limit() -> None:
    with pytest.raises(RenderError):
        render_value(10**5000, TAGS, "glm45")


def test_render_value_refuses_a_string_holding_a_closing_tag() -> None:
    with pytest.raises(RenderError, match="arg_value"):
        render_value("a</arg_value>b", TAGS, "glm45")


@given(st.text())
def test_check_name_agrees_with_its_pattern(name: str) -> None:
    assert check_name(name) == (bool(name) and re.search(r"[\s<>{}\[\]\"]", name) is None)


def test_render_pairs_writes_each_pair_in_the_spelling_given() -> None:
    args = {"city": "Paris", "days": 3}
    assert render_pairs(args, TAGS, "glm45") == (
        "<arg_key>city</arg_key><arg_value>Paris</arg_value>"
        "<arg_key>days</arg_key><arg_value>3</arg_value>"
    )
    assert render_pairs(args, TAGS, "glm45", between="\n", after="\n") == (
        "<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n"
        "<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n"
    )
    assert render_pairs({}, TAGS, "glm45", "\n", "\n") == ""


@pytest.mark.parametrize("args", [{"": 1}, {" k": 1}, {"a</arg_key>": 1}, {"k": "</arg_value>"}])
def test_render_pairs_refuses_what_would_not_read_back(args: dict[str, object]) -> None:
    with pytest.raises(RenderError):
        render_pairs(args, TAGS, "glm45")


_KEYS = st.text(st.characters(codec="utf-8", exclude_characters="<>"), min_size=1).filter(
    lambda k: k == k.strip(" \t\r\n")
)
_VALUES = st.one_of(
    st.text(st.characters(codec="utf-8", exclude_characters="<")),
    st.integers(),
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=3),
)


_PYTHON: dict[str, object] = {"True": True, "False": False, "None": None}
"""The Python spellings an undeclared value is read as (``True`` and not the string)."""
_NOT = object()


@given(st.dictionaries(_KEYS, _VALUES, max_size=4), st.sampled_from(["", "\n"]))
@example({"a": "True"}, "").via("a string spelled as a Python constant")
@example({"0": "0\x0c"}, "").via("a number before whitespace JSON does not strip (form feed)")
def test_render_pairs_reads_back(args: dict[str, object], sep: str) -> None:
    """What render_pairs writes, read_kv_call reads back as the same arguments (strings that
    look like JSON, or like Python's ``True``/``False``/``None``, come back decoded, as the
    templates' readers decode an undeclared value: :mod:`tooletta.toolkit.schema`)."""
    text = "<tool_call>f" + sep + render_pairs(args, TAGS, "glm45", sep, sep) + "</tool_call>"
    grammar = Grammar(blocks=(Block("<tool_call>", lambda r: read_kv_call(r, TAGS)),))
    (call,) = parse_with(grammar, "glm45", text).calls
    assert call.name == "f"
    assert call.arguments.keys() == args.keys()
    for key, value in args.items():
        got = call.arguments[key]
        if isinstance(value, str) and got != value:
            # the reader strips what str.strip strips (as the templates' own readers do),
            # which is more than JSON's whitespace: "0\x0c" reads as 0
            assert got == _PYTHON.get(value.strip(), _NOT) or got == json.loads(value.strip())
        else:
            assert got == value
