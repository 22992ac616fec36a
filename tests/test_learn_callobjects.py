"""The learned JSON-calls writer (:mod:`tooletta.chat.learn.callobjects`) writes what the
first writer wrote, byte for byte.

The writer reads a ``json`` calls spec once (fixed pieces joined ahead, one JSON encoder per
spec) where the first one called ``json.dumps`` four times per call. That first writer is kept
here (:func:`reference_object`, :func:`reference_render`) and both are compared by hypothesis
over every spec variant (key names, key order, separators, ``ensure_ascii``, ``ids``, markers,
head, tail, separator between calls, trailer, leads) and arbitrary calls: any name, nested
arguments with unicode, escapes, control characters, lone surrogates and non-finite floats.
The two specs learned from Reka Edge's and EXAONE 4.0's templates are among the specs.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat.learn.callobjects import CallObjects, arguments_encoder
from tooletta.chat.learn.dialects import JsonCalls, call_object

TEMPLATES = Path(__file__).resolve().parent / "fixtures" / "templates"

# -- the first writer, kept as the reference --------------------------------------------------


def reference_object(call: ToolCall, spec: Mapping[str, Any]) -> str:
    """The first ``call_object``: one call as its JSON object, by four ``json.dumps``."""
    key_sep, item_sep = spec["key_sep"], spec["item_sep"]
    args = json.dumps(
        call.arguments,
        ensure_ascii=spec["ensure_ascii"],
        separators=tuple(spec["args_separators"]),
    )
    name = json.dumps(call.name, ensure_ascii=spec["ensure_ascii"])
    name_part = json.dumps(spec["name_key"]) + key_sep + name
    args_part = json.dumps(spec["args_key"]) + key_sep + args
    first, second = (args_part, name_part) if spec["args_first"] else (name_part, args_part)
    return "{" + str(first) + str(item_sep) + str(second) + "}"


def reference_render(
    dialect: JsonCalls, spec: Mapping[str, Any], calls: Sequence[ToolCall], content: str
) -> str:
    """The first ``JsonCalls.render``: the content checked, the lead, the calls."""
    dialect.check_content(content)
    if not calls:
        return content
    if not content:
        lead = str(spec["lead_alone"])
    else:
        lead = str(spec["lead_content"])
        if lead and spec.get("lead_if_missing") and content.endswith(lead):
            lead = ""
    before = str(spec["open"]) + str(spec["head"])
    after = str(spec["tail"]) + str(spec["close"])
    blocks = [before + reference_object(c, spec) + after for c in calls]
    return str(content + lead + str(spec["between"]).join(blocks) + str(spec["trailer"]))


# -- strategies -------------------------------------------------------------------------------

TRICKY = '"\\/\b\f\n\r\t\x00\x1f\x7f\x80\u2028\u2029\ufeffé中😀\ud800\udfff{}[],: '
"""Characters JSON escapes, or escapes only under ``ensure_ascii``, or that look like JSON."""

texts = st.text(st.sampled_from(TRICKY) | st.characters(), max_size=12)
"""Any text, the tricky characters often."""

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()  # NaN and the infinities included: json.dumps writes them
    | texts
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=20,
)
arguments = st.dictionaries(texts | st.integers(), values, max_size=5)
"""A call's arguments (keys that are integers too: ``json.dumps`` writes them as strings)."""

calls = st.builds(ToolCall, name=texts, arguments=arguments, id=st.none() | st.text(max_size=6))

separators = st.sampled_from([": ", ":", ", ", ",", " : ", "\n", ""]) | texts

REKA = {
    "kind": "json",
    "ids": False,
    "name_key": "name",
    "args_key": "arguments",
    "args_first": False,
    "key_sep": ": ",
    "item_sep": ", ",
    "args_separators": [", ", ": "],
    "ensure_ascii": True,
    "open": "<tool_call>",
    "head": "\n",
    "tail": "\n",
    "close": "</tool_call>",
    "trailer": "",
    "between": "",
    "lead_alone": "",
    "lead_content": "\n",
    "lead_if_missing": True,
}
"""The calls spec learned from Reka Edge's template (``tests/fixtures/templates``)."""

EXAONE = {
    **REKA,
    "ensure_ascii": False,
    "head": "",
    "tail": "",
    "between": "\n",
    "lead_if_missing": False,
}
"""The calls spec learned from EXAONE 4.0's template."""

object_specs = st.fixed_dictionaries(
    {
        "kind": st.just("json"),
        "ids": st.booleans(),
        "name_key": st.sampled_from(["name", "tool_name"]) | texts,
        "args_key": st.sampled_from(["arguments", "parameters"]) | texts,
        "args_first": st.booleans(),
        "key_sep": separators,
        "item_sep": separators,
        "args_separators": st.tuples(separators, separators).map(list),
        "ensure_ascii": st.booleans(),
    }
)
"""The keys of a spec that say how each object is written."""

specs = st.sampled_from([REKA, EXAONE]) | st.builds(
    lambda obj, rest: {**obj, **rest},
    object_specs,
    st.fixed_dictionaries(
        {
            "open": st.sampled_from(["<tool_call>", "[TOOL_CALLS]", "<|tool_call|>", "```json"]),
            "close": st.sampled_from(["</tool_call>", "", "[/TOOL_CALLS]", "```"]),
            "head": separators,
            "tail": separators,
            "between": separators,
            "trailer": separators,
            "lead_alone": st.sampled_from(["", "\n", " "]),
            "lead_content": st.sampled_from(["", "\n", "\n\n", " "]),
            "lead_if_missing": st.booleans(),
        }
    ),
)
"""Whole ``json`` calls specs: the two learned ones and arbitrary ones."""


# -- the writer writes what the reference writes ----------------------------------------------


@settings(max_examples=400, deadline=None)
@given(object_specs | specs, calls)
def test_call_object_writes_what_json_dumps_wrote(spec: dict[str, Any], call: ToolCall) -> None:
    assert call_object(call, spec) == reference_object(call, spec)


@settings(max_examples=300, deadline=None)
@given(specs, st.lists(calls, max_size=4), texts | st.sampled_from(["", "Sure.\n", "a\n\n"]))
def test_learned_json_render_writes_what_the_first_writer_wrote(
    spec: dict[str, Any], call_list: list[ToolCall], content: str
) -> None:
    dialect = JsonCalls("callobjects-test", spec, None)
    try:
        want = reference_render(dialect, spec, call_list, content)
    except RenderError:
        with pytest.raises(RenderError):
            dialect.render(call_list, content=content)
        return
    assert dialect.render(call_list, content=content) == want
    assert dialect.render(tuple(call_list), content=content) == want  # any sequence
    if call_list:
        assert (
            dialect.render_calls(call_list)
            == want[len(want) - len(dialect.render_calls(call_list)) :]
        )


@pytest.mark.parametrize(
    ("spec", "template"),
    [(REKA, "Reka-Edge.jinja"), (EXAONE, "LGAI-EXAONE-EXAONE-4.0-1.2B.jinja")],
    ids=["reka", "exaone"],
)
def test_the_learned_specs_write_the_template_s_calls(spec: dict[str, Any], template: str) -> None:
    """Two parallel calls with non-ASCII, quotes and a newline: the text the template writes
    (jinja2) holds what the writer writes (Reka escapes non-ASCII, EXAONE keeps it)."""
    pytest.importorskip("jinja2")
    from tooletta.chat.jinja import load_chat_template, render_jinja

    text, tokens = load_chat_template(str(TEMPLATES / template))
    call = ToolCall("get_weather", {"city": "Zürich", "days": [1, 2], "q": 'a "b"\n'})
    other = ToolCall("f", {})
    messages = [Message("user", "hi"), Message("assistant", "", tool_calls=[call, other])]
    rendered = render_jinja(text, messages, tokens=tokens)
    written = CallObjects(spec).calls([call, other])
    assert written in rendered
    assert ("Zürich" in written) is not spec["ensure_ascii"]


def test_the_writer_is_made_once_per_dialect() -> None:
    """The spec is read when the dialect is made, not on every render."""
    dialect = JsonCalls("callobjects-test", REKA, None)
    writer = vars(dialect)["_writer"]
    dialect.render([ToolCall("f", {})])
    assert vars(dialect)["_writer"] is writer


@settings(max_examples=150, deadline=None)
@given(st.booleans(), st.tuples(separators, separators), values)
def test_without_the_c_encoder_the_same_text(
    ascii_: bool, seps: tuple[str, str], value: Any
) -> None:
    """Where the json module has no C encoder, the encoder made once writes the same."""
    want = json.dumps(value, ensure_ascii=ascii_, separators=seps)
    assert arguments_encoder(ascii_, seps)(value) == want
    with mock.patch.object(json.encoder, "c_make_encoder", None):
        assert arguments_encoder(ascii_, seps)(value) == want


@pytest.mark.usefixtures("fresh")
def test_arguments_holding_themselves_are_refused() -> None:
    """The writer keeps no cycle bookkeeping: such a value is a ``RecursionError`` there, and
    the API refuses it before (nested too deeply), as it did before."""
    loop: dict[str, Any] = {}
    loop["x"] = loop
    with pytest.raises(RecursionError):
        CallObjects(REKA).calls([ToolCall("f", loop)])
    dialect = JsonCalls("callobjects-loop-test", REKA, None)
    tooletta.register_dialect(dialect)  # forgotten after the test (``fresh``)
    with pytest.raises(RenderError, match="deeper"):
        tooletta.render([ToolCall("f", loop)], "callobjects-loop-test")
    assert tooletta.render([ToolCall("f", {"x": 1})], "callobjects-loop-test") == (
        '<tool_call>\n{"name": "f", "arguments": {"x": 1}}\n</tool_call>'
    )
