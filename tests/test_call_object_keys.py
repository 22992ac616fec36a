"""A JSON call object with a key no reader understands is never read as if it were intact.

``{"name": "f", "argumentsX": {...}}`` used to give ``f`` with ``{}`` (the misspelled key's
data gone) in every format that reads a JSON call object; a repeated key kept one copy. Such
an object is now unparsed with its raw text (lenient) or a ``ParseError`` (strict), read the
same way by the key-by-key reader and the one-shot shortcuts.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import ParseError, ToolCall
from tooletta.engine.jsonread import IGNORED_CALL_KEYS, ignored_call_key


def _mutations() -> list[tuple[str, str]]:
    """``(dialect, text)``: each dialect's rendering of a call with its arguments key
    misspelled, for every dialect whose text holds that key once."""
    out = []
    for info in tooletta.list_dialects():
        try:
            text = tooletta.render([ToolCall("f", {"a": 1})], info.name)
        except tooletta.ToolettaError:
            continue
        for key in ('"arguments"', '"parameters"'):
            if text.count(key) == 1:
                out.append((info.name, text.replace(key, key[:-1] + 'X"')))
    return out


MUTATIONS = _mutations()


def test_mutations_cover_the_json_formats() -> None:
    names = {d for d, _ in MUTATIONS}
    assert {"hermes", "llama3_json", "canonical", "openai", "xlam"} <= names


@pytest.mark.parametrize(("dialect", "text"), MUTATIONS, ids=[d for d, _ in MUTATIONS])
def test_misspelled_arguments_key_is_kept_as_text(dialect: str, text: str) -> None:
    result = tooletta.parse(text, dialect)
    assert not any(c.name == "f" and c.arguments == {} for c in result.calls)
    kept = [result.content, result.reasoning, *(u.raw for u in result.unparsed)]
    assert any('X"' in part for part in kept), result
    with pytest.raises(ParseError):
        tooletta.parse(text, dialect, strict=True)


@pytest.mark.parametrize(
    "body",
    [
        '{"name": "f", "arguments": {"a": 1}, "note": "x"}',
        '{"name": "f", "arguments": {}, "type": "tool"}',
        '{"name": "f", "name": "g", "arguments": {}}',
        '{"name": "f", "arguments": {}, "parameters": {"a": 1}}',
    ],
)
@pytest.mark.parametrize("dialect", ["hermes", "llama3_json"])
def test_extra_or_repeated_keys_are_unparsed(body: str, dialect: str) -> None:
    text = f"<tool_call>\n{body}\n</tool_call>" if dialect == "hermes" else body
    result = tooletta.parse(text, dialect)
    assert result.calls == []
    assert result.unparsed and result.unparsed[0].raw.strip().endswith(text.strip()[-10:])


@pytest.mark.parametrize("dialect", ["hermes", "llama3_json"])
def test_the_function_type_tag_carries_nothing(dialect: str) -> None:
    body = '{"type": "function", "name": "f", "parameters": {"a": 1}}'
    text = f"<tool_call>\n{body}\n</tool_call>" if dialect == "hermes" else body
    assert tooletta.parse(text, dialect, strict=True).calls == [ToolCall("f", {"a": 1})]


def test_ignored_keys_are_only_the_tag() -> None:
    assert dict(IGNORED_CALL_KEYS) == {"type": "function"}
    assert ignored_call_key("type", "function")
    assert not ignored_call_key("type", "tool")
    assert not ignored_call_key("type", ["function"])
    assert not ignored_call_key("note", "function")


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["name", "arguments", "parameters", "type", "id", "argumentsX", "x"]),
        st.one_of(st.just("function"), st.just("f"), st.just({"a": 1}), st.integers(0, 2)),
        min_size=1,
    )
)
def test_a_call_object_is_read_whole_or_not_at_all(obj: dict[str, object]) -> None:
    """Whatever keys a call object holds, hermes reads all of its data into the call or
    keeps the object as unparsed text, in one shot and streamed alike."""
    from tooletta.testing import check_stream_equals_parse

    text = f"Hi <tool_call>\n{json.dumps(obj)}\n</tool_call>"
    result = tooletta.parse(text, "hermes")
    check_stream_equals_parse("hermes", text)
    if not result.calls:
        assert result.unparsed and json.dumps(obj) in result.unparsed[0].raw
        return
    (call,) = result.calls
    data = {k: v for k, v in obj.items() if not (k == "type" and v == "function")}
    assert set(data) <= {"name", "arguments", "parameters"}
    assert data["name"] == call.name
    assert data.get("arguments", data.get("parameters", {})) == call.arguments
