"""The ``minimax_m3`` calls dialect writes what MiniMax-M3's own chat template writes for an
assistant turn's calls (the template rendered with jinja2), and reads both that form and the
form the dialect wrote before the template was found."""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat.jinja import render_jinja
from tooletta.testing import schema_tools, tools_for

TEMPLATE = (Path(__file__).parent / "templates" / "MiniMax-M3.jinja").read_text(encoding="utf-8")
S = "]<]minimax[>["
_HEAD = "]~b]user\ngo[e~[\n]~b]ai\n</mm:think>"
_TAIL = "[e~[\n"


def template_calls(calls: list[ToolCall], content: str = "") -> str:
    """What the template writes after the lone ``</mm:think>`` of an assistant turn holding
    ``content`` and ``calls``: the content and the calls, up to the end-of-turn token."""
    out = render_jinja(
        TEMPLATE, [Message("user", "go"), Message("assistant", content, tool_calls=calls)]
    )
    start = out.index(_HEAD) + len(_HEAD)
    assert out.endswith(_TAIL), out[-80:]
    return out[start : -len(_TAIL)]


EXAMPLES = [
    ("", [ToolCall("get_weather", {"city": "Paris", "days": 3})]),
    ("Let me check.", [ToolCall("get_weather", {"city": "Paris", "days": 3})]),
    ("Two.", [ToolCall("a", {"x": 1.5, "y": True, "z": False}), ToolCall("b", {})]),
    ("", [ToolCall("f", {"o": {"u": "C", "n": [1, 2]}, "l": [{"k": "v"}, ["x", 2]]})]),
    ("", [ToolCall("f", {"e": {}, "a": [], "s": ""})]),
    ("Ünï 東京 🙂", [ToolCall("w", {"text": 'line1\nline2 "q" \\ <b> & end\n', "p": "C:\\tmp"})]),
    ("\n", [ToolCall("f", {"n": -7, "big": 2**60, "f": 0.1, "g": 1e-7, "h": 1e16})]),
]


@pytest.mark.parametrize(("content", "calls"), EXAMPLES)
def test_render_is_the_templates_text(content: str, calls: list[ToolCall]) -> None:
    text = tooletta.render(calls, "minimax_m3", content=content)
    assert text == template_calls(calls, content)
    back = tooletta.parse(text, "minimax_m3", tools=tools_for(calls))
    assert back.calls == calls
    assert back.content == content.strip()


def test_content_is_followed_by_the_block_directly() -> None:
    text = tooletta.render([ToolCall("f", {})], "minimax_m3", content="Hi.")
    assert text.startswith(f"Hi.{S}<tool_call>\n")


def test_empty_argument_containers_are_empty_elements_typed_by_the_schema() -> None:
    calls = [ToolCall("f", {"o": {}, "l": []})]
    text = tooletta.render(calls, "minimax_m3")
    assert f"{S}<o>{S}</o>{S}<l>{S}</l>" in text
    tools = schema_tools({"o": "object", "l": "array"})
    assert tooletta.parse(text, "minimax_m3", tools=tools).calls == calls
    # without a schema an empty element is the empty string (as SGLang reads it)
    assert tooletta.parse(text, "minimax_m3").calls == [ToolCall("f", {"o": "", "l": ""})]


def test_where_the_template_would_lose_a_value_render_keeps_it() -> None:
    """``None`` (the template leaves the member out) and an empty container nested in another
    value (the template's empty element reads back as ``""`` without a nested schema) keep
    the forms that read back."""
    calls = [ToolCall("f", {"n": None, "o": {"e": [], "d": {}}})]
    text = tooletta.render(calls, "minimax_m3")
    assert f"{S}<n>null{S}</n>" in text
    assert f"{S}<e>[]{S}</e>{S}<d>{{}}{S}</d>" in text
    assert tooletta.parse(text, "minimax_m3").calls == calls
    assert text != template_calls(calls)


@pytest.mark.parametrize(
    "text",
    [
        # the template's form
        f'Let me check.{S}<tool_call>\n{S}<invoke name="f">{S}<o>{S}</o>{S}<l>{S}</l>'
        f"{S}<n>3{S}</n>{S}</invoke>\n{S}</tool_call>[e~[",
        # the form the dialect wrote when pinned from SGLang and vLLM
        f'Let me check.\n{S}<tool_call>\n{S}<invoke name="f">{S}<o>{{}}{S}</o>{S}<l>[]{S}</l>'
        f"{S}<n>3{S}</n>{S}</invoke>\n{S}</tool_call>[e~[",
    ],
)
def test_parse_reads_both_forms(text: str) -> None:
    tools = schema_tools({"o": "object", "l": "array", "n": "integer"})
    result = tooletta.parse(text, "minimax_m3", tools=tools)
    assert result.calls == [ToolCall("f", {"o": {}, "l": [], "n": 3})]
    assert result.content == "Let me check."
    assert not result.unparsed


# -- property: any call the template writes without loss, render writes the same text ------

_KEY = st.from_regex(r"[a-z_][a-z0-9_]{0,7}", fullmatch=True)
_TEXT = st.text(
    st.one_of(
        st.sampled_from([*string.ascii_letters, " ", "\n", "<", ">", '"', "&", "ü", "東", "🙂"])
    ),
    max_size=8,
)
_SCALAR = st.one_of(
    st.booleans(),
    st.integers(-(2**53), 2**53),
    st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: f != 0 or str(f) == "0.0"),
    _TEXT,
)


def _nested(inner: Any) -> Any:
    return st.one_of(
        st.lists(inner, min_size=1, max_size=3),
        st.dictionaries(_KEY.filter(lambda k: k != "item"), inner, min_size=1, max_size=3),
    )


_EMPTY: list[Any] = [{}, []]
_VALUE: Any = st.one_of(
    _SCALAR, st.sampled_from(_EMPTY), _nested(st.recursive(_SCALAR, _nested, max_leaves=6))
)
_CALLS = st.lists(
    st.builds(ToolCall, _KEY, st.dictionaries(_KEY, _VALUE, max_size=4)),
    min_size=1,
    max_size=3,
)


@settings(max_examples=80, deadline=None)
@given(_CALLS, st.sampled_from(["", "Sure.", "a\nb "]))
def test_render_equals_the_template_on_any_call(calls: list[ToolCall], content: str) -> None:
    """Values the template writes as they read back (no ``None``, no empty container inside
    another value): render refuses them (a nested string that reads as another JSON value) or
    writes exactly the template's text."""
    try:
        text = tooletta.render(calls, "minimax_m3", content=content)
    except tooletta.RenderError:
        return
    assert text == template_calls(calls, content)
